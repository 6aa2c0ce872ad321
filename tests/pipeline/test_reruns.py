"""Reruns are correct by construction: every night builds and renders, and writes what changed.

Each case here once fooled the old briefing-inputs digest (row counts and max rowids do not
change under an in-place update): the same day's rerun kept a stale briefing.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app
from tests.support.paths import SAMPLE

DAY = "2026-10-08"


def kb(home: Path, *args: str):
    return CliRunner().invoke(app, ["--home", str(home), *args])


@pytest.fixture(scope="module")
def first_night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("reruns") / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    assert kb(home, "nightly", "--date", DAY, "--offline", "--quiet").exit_code == 0
    return home


@pytest.fixture
def home(first_night: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(first_night, tmp_path / "ws"))


def _rerun(home: Path) -> tuple[str, str]:
    """(the zh briefing before, after a rerun of the same day)."""
    zh = home / "briefings" / f"{DAY}-inference.md"
    before = zh.read_text(encoding="utf-8")
    result = kb(home, "nightly", "--date", DAY, "--offline")
    assert result.exit_code == 0, result.output
    return before, zh.read_text(encoding="utf-8")


def test_a_rerun_with_nothing_new_changes_nothing(home: Path) -> None:
    before, after = _rerun(home)
    assert before == after


# What a rerun with nothing new has no use for: the ORM (it writes nothing), markdown-it (its html pages
# are the ones this Markdown made), the classifier's evaluation, statistics (a median of a few counts), and
# numpy (neither the default keyword classifier nor the briefing's rules use it).
UNUSED_ON_A_RERUN = ("sqlalchemy", "sqlmodel", "markdown_it", "pipeline.classify.evaluate", "statistics", "numpy")


def test_a_rerun_with_nothing_new_imports_nothing_it_does_not_use(home: Path) -> None:
    code = ("import sys, runpy; sys.argv = ['kb', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('kb.cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            f"print('LOADED', *[m for m in {UNUSED_ON_A_RERUN!r} if m in sys.modules], file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, "--home", str(home), "nightly", "--date", DAY, "--offline",
                          "--quiet"], capture_output=True, text=True, timeout=120)
    assert out.stderr.strip().splitlines()[-1] == "LOADED", out.stderr[-2000:]


def test_a_post_corrected_in_place_changes_the_briefing(home: Path) -> None:
    feed = home / "recordings" / "blogs" / "llm-d.xml"
    feed.write_text(feed.read_text(encoding="utf-8").replace("Mooncake 44.6 GB/s", "Mooncake 46.1 GB/s"),
                    encoding="utf-8")
    before, after = _rerun(home)
    assert "44.6 GB/s" in before and "46.1 GB/s" in after and "44.6 GB/s" not in after


def test_upvotes_changed_in_place_change_the_briefing(home: Path) -> None:
    recording = home / "recordings" / "hf" / f"daily_papers_{DAY}.json"
    items = json.loads(recording.read_text(encoding="utf-8"))
    [slimwise] = [i for i in items if i["paper"]["id"] == "2610.09701"]
    # the night's fetch now counts fewer than the 09:00 note (11▲): upvotes do not fall, so it is a conflict
    slimwise["paper"]["upvotes"] = 10
    recording.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")
    before, after = _rerun(home)
    assert "hf 2026-10-08" not in before and before != after
    assert "10（hf 2026-10-08）" in after


def test_an_edited_card_changes_the_briefing(home: Path) -> None:
    card = home / "organized" / "paper_cards" / "378-2607-09701.md"
    card.write_text(card.read_text(encoding="utf-8").replace("hf_upvotes: 12", "hf_upvotes: 13"), encoding="utf-8")
    before, after = _rerun(home)
    assert "378-2607-09701.md" in after and before != after
    assert "13（organized/paper_cards/378-2607-09701.md" in after


def test_a_resolved_flag_changes_the_briefing(home: Path) -> None:
    """`kb flags resolve` rewrites the latest briefing itself (md and html); a rerun then finds it current."""
    zh = home / "briefings" / f"{DAY}-inference.md"
    first = zh.read_text(encoding="utf-8")
    flags = json.loads(kb(home, "flags", "--open", "--format", "json").stdout)
    assert kb(home, "flags", "resolve", str(flags[0]["id"]), "--as", "dismissed").exit_code == 0
    before, after = _rerun(home)
    assert first != before and before == after


def test_the_html_follows_its_markdown(home: Path) -> None:
    """The html is skipped only when it was made from the same Markdown: a corrected post reaches it."""
    feed = home / "recordings" / "blogs" / "llm-d.xml"
    feed.write_text(feed.read_text(encoding="utf-8").replace("Mooncake 44.6 GB/s", "Mooncake 46.1 GB/s"),
                    encoding="utf-8")
    page = home / "briefings" / f"{DAY}-inference.html"
    assert "44.6 GB/s" in page.read_text(encoding="utf-8")
    _rerun(home)
    assert "46.1 GB/s" in page.read_text(encoding="utf-8")


def test_an_unchanged_night_does_not_render_the_html_again(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.brief.render as render

    def refuse(*args: object) -> str:
        raise AssertionError("html rendered although its Markdown did not change")
    pages = sorted((home / "briefings").glob("*.html"))
    before = [p.read_bytes() for p in pages]
    monkeypatch.setattr(render, "render_html", refuse)
    _rerun(home)
    assert [p.read_bytes() for p in pages] == before


def test_a_damaged_page_is_rendered_again(home: Path) -> None:
    """A page cut short (or a stylesheet or renderer that changed its mark) is made anew."""
    page = home / "briefings" / f"{DAY}-inference.html"
    whole = page.read_bytes()
    page.write_bytes(whole[: len(whole) // 2])
    _rerun(home)
    assert page.read_bytes() == whole
