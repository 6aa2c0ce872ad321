"""`kb export bibtex` reads back in bibtexparser; `kb query papers` carries abstract and URL in json and csv."""
from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import bibtexparser
import pytest

from kb.bibtex import latex
from tests.pipeline.site.conftest import kb
from tests.reliability.support import kb_inproc
from tests.support.days import DAY2, two_days


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_days(tmp_path_factory.mktemp("export") / "ws", kb)


def _ids(text: str) -> list[str]:
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and text.count("@misc{") == len(library.entries)
    return [e["eprint"] for e in library.entries]


def test_bibtex_has_every_anchored_and_briefed_id_once_and_parses_back(home: Path) -> None:
    text = kb(home, "export", "bibtex").stdout
    ids = _ids(text)
    anchored = {r["arxiv_id"] for r in json.loads(kb(home, "query", "anchored", "--format", "json").stdout)
                if r["arxiv_id"]}
    briefed = {i["arxiv_id"] for d in ("2026-10-08", DAY2)
               for i in json.loads(kb(home, "brief", "--date", d, "--format", "json").stdout)["arxiv_ids"]}
    assert sorted(ids) == ids and len(set(ids)) == len(ids) and set(ids) == anchored | briefed
    entry = {e.key: e for e in bibtexparser.parse_string(text).entries}["arXiv:2610.09701"]
    assert entry["archivePrefix"] == "arXiv" and entry["url"] == "https://arxiv.org/abs/2610.09701"
    assert entry["title"].startswith("{SlimWise") and entry["year"] == "2026" and entry["author"]


def test_filters_by_section_and_date(home: Path) -> None:
    all_ids = set(_ids(kb(home, "export", "bibtex").stdout))
    s23 = _ids(kb(home, "export", "bibtex", "--topic", "inference", "--section", "2.3").stdout)
    anchored23 = {r["arxiv_id"] for r in json.loads(kb(home, "query", "anchored", "--section", "2.3",
                                                       "--format", "json").stdout) if r["arxiv_id"]}
    assert anchored23 <= set(s23) < all_ids
    recent = _ids(kb(home, "export", "bibtex", "--since", DAY2).stdout)
    assert recent and set(recent) < all_ids


def test_out_writes_a_file_and_refuses_the_teams_files(home: Path) -> None:
    out = kb(home, "export", "bibtex", "--out", "briefings/cites.bib").stdout
    assert "entries" in out and _ids((home / "briefings" / "cites.bib").read_text(encoding="utf-8"))
    refused = kb_inproc("--home", str(home), "export", "bibtex", "--out", "organized/cites.bib")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert kb_inproc("--home", str(home), "export", "bibtex", "--since", "2026-13-01").returncode == 2


def test_hostile_titles_keep_the_file_parseable(home: Path, tmp_path: Path) -> None:
    import shutil
    ws = Path(shutil.copytree(home, tmp_path / "ws"))
    db = sqlite3.connect(ws / ".kb" / "kb.sqlite")
    db.execute("UPDATE papers SET title = ?, abstract = ? WHERE arxiv_id = '2610.09701'",
               ("}@misc{evil, title={x} % 100% & $x_1^2$ \\end", "a } b { c"))
    db.commit()
    db.close()
    text = kb(ws, "export", "bibtex").stdout
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks and "evil" not in [e.key for e in library.entries]
    entry = {e.key: e for e in library.entries}["arXiv:2610.09701"]
    assert entry["title"] == "{" + latex("}@misc{evil, title={x} % 100% & $x_1^2$ \\end") + "}"


def test_query_papers_json_and_csv_carry_abstract_and_url(home: Path) -> None:
    rows = json.loads(kb(home, "query", "papers", "--format", "json").stdout)
    assert rows and all(r["url"] == f"https://arxiv.org/abs/{r['arxiv_id']}" and "abstract" in r for r in rows)
    table = list(csv.DictReader(io.StringIO(kb(home, "query", "papers", "--format", "csv").stdout)))
    assert [r["arxiv_id"] for r in table] == [r["arxiv_id"] for r in rows]
    assert all(r["url"] and r["abstract"] == " ".join(j["abstract"].split()) for r, j in zip(table, rows))


def test_show_names_the_doc_version_of_each_anchor(home: Path) -> None:
    # v311 renumbered the doc: Mooncake's §2.3.1 of v310 is §2.4.1 now, and §2.3.1 is another section
    out = kb(home, "show", "2407.00079").stdout
    assert "inference §2.3.1 (v310) anchored 2026-08-14 (ended 2026-10-09)" in out
    assert "inference §2.4.1 (v311) anchored 2026-08-14\n" in out


def test_a_bibtex_field_keeps_no_hidden_control() -> None:
    """`kb export bibtex` on stdout went through the CLI's echo, `--out FILE` did not: a card's title holding
    a bidi override or a terminal escape (the team's text, stored as written) reached the .bib."""
    assert latex("\u202eEVIL\u202c\x1b[31mSlimWise: 推理 👩\u200d💻") == "EVIL[31mSlimWise: 推理 👩\u200d💻"
