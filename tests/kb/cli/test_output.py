"""The CLI's text output: the table (columns in line, long cells cut, never the ID column nor the last one),
CSV, and a flag shown to a person."""
from __future__ import annotations

import csv
import io
import re

import pytest

from kb.cli.output import format_csv, format_flag_md, format_table


def test_the_last_column_is_never_cut() -> None:
    """`kb audit`'s finding ("line 50: anchoring date 2026-10-15 is after 2026-10-12, the day the doc was
    read; …") was cut at 60 characters; nothing follows the last column, so nothing needs it cut."""
    detail = "line 50: anchoring date 2026-10-15 is after 2026-10-12, the day the doc was read; it counts from then"
    rows = [{"kind": "file-problem", "subject": "organized/knowledge/inference.md", "detail": detail}]
    assert format_table(rows).splitlines()[2].endswith(detail)


def test_a_long_middle_cell_is_cut_and_the_columns_stay_in_line() -> None:
    rows = [{"id": "a", "title": "x" * 100, "n": "1"}, {"id": "b", "title": "short", "n": "22"}]
    lines = format_table(rows).splitlines()
    assert "x" * 59 + "…" in lines[2] and "x" * 60 not in lines[2]
    assert lines[2].index(" 1") == lines[3].index(" 22")


def test_a_long_title_in_a_middle_cell_is_cut_before_a_word() -> None:
    """A title cut at 60 characters mid-word ("… Decoding for Ba…") reads as a word that is not there."""
    title = "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding for Batched LLM Serving"
    line = format_table([{"id": "2610.08812", "title": title, "n": "1"}]).splitlines()[2]
    assert "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding… " in line and " for" not in line


def test_the_id_column_is_never_cut() -> None:
    key = "inbox/jay/" + "n" * 80 + ".md#3"
    assert key in format_table([{"ref": key, "title": "t"}], whole="ref")


@pytest.mark.parametrize("title", ['=HYPERLINK("http://x","y") String duality', "+cmd|' /C calc'!A0",
                                   "@SUM(1+1) of experts", "-2+3 quantization", ' =1+1 after a space'])
def test_csv_keeps_a_title_that_starts_like_a_formula_text(title: str) -> None:
    """`kb query papers --format csv` wrote a feed's title ``=HYPERLINK(…)`` as it came: a spreadsheet opening
    the file runs it as a formula. It is written ``'=HYPERLINK(…)``, which a spreadsheet shows as text."""
    rows = [{"arxiv_id": "hep-th/9901001", "version": 2, "score": -1.5, "title": title}]
    cells = next(csv.DictReader(io.StringIO(format_csv(rows))))
    assert cells["title"] == "'" + " ".join(title.split())
    assert (cells["arxiv_id"], cells["version"], cells["score"]) == ("hep-th/9901001", "2", "-1.5")  # not text


def _flag(evidence: dict, **over) -> dict:
    return {"id": 7, "rule": "id-conflict", "topic": "inference", "status": "open", "subject": "SlimWise",
            "note": None, "first_seen": "2026-10-08", "last_seen": "2026-10-09", "evidence": evidence} | over


def test_a_flag_reads_as_a_heading_and_its_evidence_as_bullets() -> None:
    text = format_flag_md(_flag({"ids": {"2607.09701": ["a.md#7", "card.md"]}, "resolved": ["2610.09701"],
                                 "claims": ["a claim long enough that a list of them reads one per line"]}))
    assert text.splitlines()[:3] == ["# #7 id-conflict · inference · open", "subject: SlimWise",
                                     "seen: 2026-10-08 → 2026-10-09"]
    assert "note:" not in text                                  # no note, no empty line for it
    assert "- ids:\n  - 2607.09701: a.md#7, card.md\n- resolved: 2610.09701\n" in text
    assert "- claims:\n  - a claim long enough that a list of them reads one per line" in text


def test_a_flag_shows_outside_text_as_text() -> None:
    """The subject, note and evidence come from notes and feeds: Markdown and HTML in them stay inert."""
    text = format_flag_md(_flag({"claims": ["<script>x</script> **bold**\n# not a heading"]},
                                subject="<img src=x>", note="[link](javascript:x)"))
    assert not re.search(r"(?<!\\)[<*\[]", text)              # every tag, emphasis and link escaped
    assert all(not line.startswith("# not") for line in text.splitlines())


def test_each_object_of_a_list_in_the_evidence_is_its_own_line() -> None:
    """Two objects in a list ran together as four bullets (value, where, value, where): which value was
    written where could not be read. Each object is one line, its keys beside their values."""
    text = format_flag_md(_flag({"values": [{"value": "3.2x", "where": "a.md#1"},
                                            {"value": "4.1x", "where": "b.md#2"}]}))
    assert "- values:\n  - value: 3.2x; where: a.md#1\n  - value: 4.1x; where: b.md#2" in text


def test_an_object_of_a_list_that_holds_more_keeps_its_parts_together() -> None:
    text = format_flag_md(_flag([{"where": "a.md#1", "claims": ["x" * 50, "y" * 50]}, [{"k": 1}, "z" * 50]]))
    assert text.split("## Evidence\n")[1] == ("- item 1:\n  - where: a.md#1\n  - claims:\n    - " + "x" * 50
                                             + "\n    - " + "y" * 50 + "\n- item 2:\n  - k: 1\n  - " + "z" * 50)


def test_a_flag_without_topic_or_dates_prints_no_blank_values() -> None:
    """A flag with no topic and no dates printed "# #7 id-conflict ·  · open" and "seen:  → "."""
    text = format_flag_md(_flag({}, topic=None, first_seen=None, last_seen=None))
    assert text.splitlines() == ["# #7 id-conflict · open", "subject: SlimWise"]
    half = format_flag_md(_flag({}, first_seen=None))
    assert "seen: — → 2026-10-09" in half


def test_a_flags_context_is_shown_before_its_evidence() -> None:
    text = format_flag_md(_flag({"anchored_title": "2609.33252 CascadeEP (anchored 2026-10-07)"}, rule="boundary",
                                context={"anchored_title": "CascadeEP"}))
    assert "## Context\n- anchored_title: CascadeEP\n\n## Evidence" in text


def test_a_warning_logged_to_the_console_shows_no_hidden_controls(capsys: pytest.CaptureFixture[str]) -> None:
    """The console log is a line kb prints too: a server's reason phrase ("HTTP 503 Busy" + ESC [2J, a
    window-title OSC) in a retry warning reached the terminal as it came."""
    import logging

    from kb.cli import main_callback
    main_callback(home=None, verbose=False, quiet=False, version=False)
    try:
        logging.getLogger("pipeline.net.http").warning("GET %s: %s", "http://x/feed", "HTTP 503 Busy\x1b[2J\x1b]0;t\x07 \u202e")
        err = capsys.readouterr().err
    finally:
        logging.basicConfig(handlers=[logging.NullHandler()], force=True)
    assert "HTTP 503 Busy" in err and not re.search("[\x1b\x07\u202e]", err), repr(err)
