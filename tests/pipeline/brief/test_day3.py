"""Day 3 (tests/data/day3, 2026-10-12), the day the rules were not tuned on: what a careful analyst's
briefing says of it, read from the briefings the third nightly writes (flag scores: test_evaluate.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.pipeline.brief.conftest import kb
from tests.support.days import DAY3, three_days


@pytest.fixture(scope="module")
def day3_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return three_days(tmp_path_factory.mktemp("day3") / "ws", lambda h, *args: kb(h, *args, ok=False))


@pytest.fixture(scope="module")
def day3(day3_home: Path) -> dict[str, Any]:
    return json.loads(kb(day3_home, "brief", "--date", DAY3, "--format", "json").stdout)


def _md(home: Path, lang: str) -> str:
    suffix = ".en.md" if lang == "en" else ".md"
    return (home / "briefings" / f"{DAY3}-inference{suffix}").read_text(encoding="utf-8")


def _item(b: dict[str, Any], arxiv_id: str) -> dict[str, Any]:
    return next(i for i in b["increments"] + b["others"] if i["arxiv_id"] == arxiv_id)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_burstguard_s_reduction_keeps_its_minus_sign(day3_home: Path, lang: str) -> None:
    """Jay wrote "SLO 违约 −44%", card 401 "−38%": the flag said 38% and 44%."""
    line = next(x for x in _md(day3_home, lang).splitlines() if "hotswapep.md#5" in x and "%" in x)
    assert "−44%" in line and "−38%" in line


def _burstguard_flag(home: Path) -> str:
    rows = json.loads(kb(home, "flags", "--rule", "number-conflict", "--format", "json").stdout)
    return str(next(r["id"] for r in rows if r["subject"].startswith("BurstGuard")))


def test_flags_show_gives_burstguard_s_figures_with_their_sign(day3_home: Path, tmp_path: Path) -> None:
    """The briefing said −44% and −38%, `kb flags show` 44% and 38%: the signs were the briefing's alone. A
    flag stored before they were kept (an older kb's) gets them at its next sync, the same day's included."""
    import shutil
    import sqlite3
    flag = _burstguard_flag(day3_home)
    shown = kb(day3_home, "flags", "show", flag).stdout
    assert "−44%" in shown and "−38%" in shown, shown
    home = shutil.copytree(day3_home, tmp_path / "older")
    conn = sqlite3.connect(home / ".kb" / "kb.sqlite")
    with conn:
        conn.execute("UPDATE flags SET signed = NULL")
    conn.close()
    assert "−44%" not in kb(home, "flags", "show", flag).stdout       # unsigned, as before: nothing to show
    kb(home, "brief", "--date", DAY3)
    shown = kb(home, "flags", "show", flag).stdout
    assert "−44%" in shown and "−38%" in shown, shown


def test_the_membership_inference_paper_tom_keeps_out_of_the_doc_gets_no_section(day3: dict[str, Any],
                                                                                  day3_home: Path) -> None:
    """Tom: "…和推理系统无关，不进 inference" — it was listed 🟡 with §1.(9). A classifier that reads the title's
    "inference" as the doc's (keyword) lists it as Tom's exclusion, with no section; one that judges the paper
    unrelated (learned) leaves it out of the briefing altogether: neither files it or puts it forward."""
    item = next((i for i in day3["increments"] + day3["others"] if i["arxiv_id"] == "2610.13933"), None)
    learned = 'model = "learned"' in (day3_home / "kb.toml").read_text(encoding="utf-8")
    if item is None:   # judged unrelated: nothing of it is shown, flagged or counted
        assert learned, "the keyword classifier reads the title's inference as the doc's: the item is listed"
        assert "2610.13933" not in json.dumps(day3)
    else:
        assert item["suggested_section"] is None and item["why"] == [{"code": "excluded", "detail": "tom"}]


def test_tierkv_mentioned_for_its_upvotes_stays_listed_as_anchored(day3: dict[str, Any]) -> None:
    """Tom's "TierKV 回访 — 58▲ … 没有新内容，只记票数": anchored in §2.1 on 2026-10-10, it dropped out."""
    item = _item(day3, "2610.11305")
    assert item["category"] == "confirmation" and item["why"] == [{"code": "anchored", "detail": "§2.1"}]


def test_a_mechanism_boundary_is_raised_through_the_whole_build(day3: dict[str, Any]) -> None:
    """The briefing fills what ``boundary.mechanism_overlap`` reads (the doc's anchored texts, the sections'
    headings, the words' counts over the anchors and the day's relevant items): day 3's labelled pairs inside
    one topic are flagged with the words they share, in the order the evidence keeps them (alphabetical)."""
    words = [f["evidence"]["shared_words"] for f in day3["flags"]
             if f["kind"] == "boundary" and "shared_words" in f["evidence"]]
    assert words and all(w == sorted(w) and len(w) >= 2 for w in words)
