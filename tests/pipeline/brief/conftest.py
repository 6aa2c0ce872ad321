"""Shared pieces of the briefing tests: the sample day ingested once per module, a CLI helper,
Markdown structure helpers (markdown-it-py), and small JSON look-ups."""
from __future__ import annotations

import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb.cli import app
from tests.support.paths import SAMPLE

DAY = "2026-10-08"
ZH_MD = f"briefings/{DAY}-inference.md"
EN_MD = f"briefings/{DAY}-inference.en.md"
HTML = f"briefings/{DAY}-inference.html"

# The seven anchors of the Oct-7 round (seed §4 / §五 "延续锚定").
OCT7_ANCHORS = ("2610.03430", "2610.04646", "2605.16867", "2605.01280", "2609.33252", "2609.26333", "2609.33485")


def kb(home: Path, *args: str, ok: bool = True):
    """Run ``kb --home HOME ARGS…`` in-process; by default insist on exit 0."""
    result = CliRunner().invoke(app, ["--home", str(home), *args])
    if ok:
        assert result.exit_code == 0, (f"kb {' '.join(args)} exited {result.exit_code}\n{result.output}\n"
                                       f"{result.exception!r}")
    return result


def copy_sample(dst: Path) -> Path:
    """A private copy of data/sample (no store, no briefings)."""
    shutil.copytree(SAMPLE, dst, ignore=shutil.ignore_patterns(".kb", "briefings"))
    return dst


def ingest_sample(home: Path, day: str = DAY) -> Path:
    kb(home, "ingest", "all", "--offline", "--date", day)
    return home


def clone(src: Path, dst: Path) -> Path:
    """A copy of an already ingested workspace, store included (cheaper than ingesting again)."""
    shutil.copytree(src, dst)
    return dst


def brief(home: Path, *extra: str, day: str = DAY) -> None:
    kb(home, "brief", "--date", day, *extra)


def brief_json(home: Path, *extra: str, day: str = DAY) -> dict[str, Any]:
    result = kb(home, "brief", "--date", day, "--format", "json", *extra)
    return json.loads(result.stdout)


def read(home: Path, rel: str) -> str:
    return (home / rel).read_text(encoding="utf-8")


def brief_outputs(home: Path) -> dict[str, str]:
    """Brief the day as zh md, en md and zh html; their texts by ``zh``, ``en``, ``html``."""
    brief(home)
    brief(home, "--lang", "en")
    brief(home, "--format", "html")
    return {"zh": read(home, ZH_MD), "en": read(home, EN_MD), "html": read(home, HTML)}


@pytest.fixture(scope="module")
def sample_day(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/sample copied and ingested offline for 2026-10-08, once per test module."""
    return ingest_sample(copy_sample(tmp_path_factory.mktemp("sample") / "ws"))


# --- Markdown structure -------------------------------------------------------------------

def md_parser():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark").enable("table")


def table_rows(tokens) -> list[list[int]]:
    """Per table: the cell count of each row, header row first."""
    tables: list[list[int]] = []
    cells = 0
    for t in tokens:
        if t.type == "table_open":
            tables.append([])
        elif t.type == "tr_open":
            cells = 0
        elif t.type in ("th_open", "td_open"):
            cells += 1
        elif t.type == "tr_close":
            tables[-1].append(cells)
    return tables


def assert_tables_well_formed(markdown: str) -> int:
    """Every row of every table has the header's cell count; returns the number of tables."""
    tokens = md_parser().parse(markdown)
    tables = table_rows(tokens)
    for n, rows in enumerate(tables, 1):
        assert rows, f"table {n} has no rows"
        bad = [i for i, c in enumerate(rows) if c != rows[0]]
        assert not bad, f"table {n}: header has {rows[0]} cells, rows {bad} have {[rows[i] for i in bad]}"
    # Pipes outside a table's rows would show up as stray paragraphs starting with '|'.
    for prev, t in itertools.pairwise(tokens):
        if prev.type == "paragraph_open" and t.content.lstrip().startswith("|") and t.map:
            raise AssertionError(f"line {t.map[0] + 1} looks like a broken table row: {t.content[:120]!r}")
    return len(tables)


def dangling_labels(markdown: str) -> list[str]:
    """Lines that end in a label's colon (":" or "：") with nothing under them: the next non-blank line
    is not a list item, a table row or indented deeper (a table or sub-items belonging to it)."""
    lines = markdown.splitlines()
    out = []
    for i, line in enumerate(lines):
        if not re.search(r"[:：]$", line.rstrip()):
            continue
        indent = len(line) - len(line.lstrip())
        rest = [x for x in lines[i + 1:] if x.strip()]
        nxt = rest[0] if rest else ""
        deeper = len(nxt) - len(nxt.lstrip()) > indent
        if not (deeper or (not line.lstrip().startswith("- ") and re.match(r"(- |\|)", nxt))):
            out.append(line)
    return out


def html_tokens(markdown: str) -> list[str]:
    """Raw HTML tokens (block or inline) in the Markdown."""
    out = []
    for t in md_parser().parse(markdown):
        if t.type == "html_block":
            out.append(t.content)
        for c in t.children or []:
            if c.type == "html_inline":
                out.append(c.content)
    return out


def sections(markdown: str) -> dict[str, str]:
    """The text under each level-2 heading, keyed by the heading's first word (一, 二 … / 1., 2. …)."""
    out: dict[str, str] = {}
    key = None
    for line in markdown.splitlines():
        if line.startswith("## "):
            key = line[3:].split("、")[0].split(" ")[0]
            out[key] = ""
        elif key is not None:
            out[key] += line + "\n"
    return out


# --- JSON look-ups ------------------------------------------------------------------------

def all_items(data: dict[str, Any]) -> list[dict[str, Any]]:
    return list(data["increments"]) + list(data["others"])


def find_increment(data: dict[str, Any], *, arxiv_id: str | None = None, url_part: str | None = None,
                   title_part: str | None = None) -> dict[str, Any]:
    for inc in data["increments"]:
        if arxiv_id and inc.get("arxiv_id") == arxiv_id:
            return inc
        if url_part and url_part in (inc.get("url") or ""):
            return inc
        if title_part and title_part in inc["title"]:
            return inc
    raise AssertionError(f"no increment in §2 for {arxiv_id or url_part or title_part!r}: "
                         f"{[i['title'] for i in data['increments']]}")


def flags_of(data: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [f for f in data["flags"] if f["kind"] == kind]
