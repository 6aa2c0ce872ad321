"""The CLI's text table: columns in line, long cells cut, never the ID column nor the last one."""
from __future__ import annotations

from kb.cli.output import format_table


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


def test_the_id_column_is_never_cut() -> None:
    key = "inbox/jay/" + "n" * 80 + ".md#3"
    assert key in format_table([{"ref": key, "title": "t"}], whole="ref")
