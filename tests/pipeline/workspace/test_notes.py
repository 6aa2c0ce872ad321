"""Inbox notes: one case per fixture under tests/fixtures/workspace/notes/."""
from __future__ import annotations

import pytest

from pipeline.workspace.notes import find_markers, find_upvotes, note_timestamp, parse_note
from tests.support.paths import FIXTURES

CASES = sorted((FIXTURES / "workspace" / "notes").glob("*.md"))


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_note_fixture(md, load_case, check):
    text, expect = load_case(md)
    note = parse_note(text, expect.pop("path"))
    check(note, expect)


@pytest.mark.parametrize("name, stamp", [
    ("2026-10-08T1950-jay-engineering-filter.md", "2026-10-08T19:50"),
    ("2026-10-08-csdn-llm-inference-rag.md", "2026-10-08T00:00"),
    ("2026-10-08-0900-hf-daily-2026-10-08.md", "2026-10-08T09:00"),
    ("2026-10-08T19:50-colon.md", "2026-10-08T19:50"),
    ("2026-10-08_0730-underscore.md", "2026-10-08T07:30"),
    ("2026-10-08.md", "2026-10-08T00:00"),
    ("2026-10-08-1080p-video.md", "2026-10-08T00:00"),   # a slug that starts with digits
    ("2026-10-08-2500-slug.md", "2026-10-08T00:00"),
])
def test_note_timestamp(name, stamp):
    assert note_timestamp(name) == (stamp, None)


@pytest.mark.parametrize("name", ["notes.md", "2026-13-01-x.md", "26-10-08-x.md", "2026-02-30-x.md", "2025-02-29-x.md"])
def test_note_timestamp_problems(name):
    stamp, problem = note_timestamp(name)
    assert stamp == "" and problem


@pytest.mark.parametrize("text, counts", [
    ("12▲", [12]), ("▲12", [12]), ("12 ▲", [12]), ("12 upvotes", [12]), ("1 upvote", [1]),
    ("HF 票数11▲，另 3 Upvotes的", [11, 3]), ("2609.33252v3 ▲7", [7]), ("3.5▲", []), ("▲", []),
])
def test_upvotes(text, counts):
    assert find_upvotes(text) == counts


@pytest.mark.parametrize("text, markers", [
    ("⚠️ 待核实", ["⚠", "待核实"]), ("说法UNVERIFIED需核", ["unverified"]), ("Tbd", ["TBD"]),
    ("needs   check", ["needs check"]), ("unverifiedness TBDs", []),
    # day 39's: "TBC" (to be confirmed) doubts a claim as "needs check" does; a date or a speaker TBC is a placeholder
    ("a third pool would need a patch — TBC.", ["TBC"]), ("to be confirmed by the authors", ["TBC"]),
    ("主讲：TBC", []), ("TBCs", []),
    # … as a TBD is before a clause of its own saying what it waits for, not after a claim
    ("网关接第二个可用区：时间 TBD，等网络组排期", []), ("会把 EAGLE-3 设成默认，TBD", ["TBD"]),
    ("时间 TBD，先测 30% 流量", ["TBD"]),
    ("- TBD：下周一读书会谁讲 ForkEP", []), ("- TBD: who presents ForkEP on Monday", []),   # day 17's
    ("- TBD：EP 不到 16 卡是不是就没收益", ["TBD"]),
    ("our FP8 ones would need a patch — TBV.", ["TBV"]), ("十期第五块 NVMe 盘的扩容时间 TBD，等采购", []),   # day 40's
    ('the fat-tree path is listed as "coming soon" — unconfirmed.', ["unverified"]),   # day 41's
])
def test_markers(text, markers):
    assert find_markers(text) == markers


@pytest.mark.parametrize("written", ["true", "high", "[3]"])
def test_credibility_that_is_no_number_and_tags_that_are_no_list(written):
    note = parse_note(f"---\ncredibility: {written}\ntags: {{serving: 1}}\n---\n## 1. x\n\n- y\n",
                      "inbox/jay/2026-10-08-x.md")
    assert note.credibility is None and note.tags == []
    shown = {"true": "True", "high": "'high'", "[3]": "[3]"}[written]
    assert note.problems == [f"credibility {shown} is not a whole number from 1 to 5", "tags {'serving': 1} is not a list"]


def test_a_url_written_twice_takes_the_date_of_its_dated_mention():
    # Two paragraphs: the first mention has no date in its paragraph, the second has one.
    note = parse_note("## 1. Links\n\nsee https://x.org/a\n\nagain https://x.org/a on 2026-10-07\n",
                      "inbox/jay/2026-10-08-x.md")
    assert [(u.url, u.date) for e in note.entries for u in e.urls] == [("https://x.org/a", "2026-10-07")]
