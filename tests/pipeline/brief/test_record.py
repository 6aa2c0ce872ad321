"""What a night records of its briefing: a row per file written, and the day's data once."""
from __future__ import annotations

import shutil
from pathlib import Path

from kb.store import Store
from kb.store import briefings as stored
from kb.text import briefed_keys
from tests.pipeline.brief.conftest import DAY, kb


def test_a_night_records_the_days_data_once_and_a_row_per_file(sample_day: Path, tmp_path: Path,
                                                                monkeypatch) -> None:
    home = tmp_path / "ws"
    shutil.copytree(sample_day, home)
    written: list[str] = []
    record_briefed = stored.record_briefed

    def counted(tx, data) -> None:
        written.append(data["date"])
        record_briefed(tx, data)

    monkeypatch.setattr(stored, "record_briefed", counted)
    kb(home, "nightly", "--offline", "--date", DAY)
    assert written == [DAY]     # the day's data (and its briefed keys) once, not once per language and format
    with Store.open(home / ".kb" / "kb.sqlite", readonly=True) as store:
        rows = store.query("SELECT lang, format, path FROM briefings WHERE date = ? ORDER BY lang, format", (DAY,))
        data = stored.briefing_data(store, "inference", DAY)
        keys = store.query("SELECT count(*) FROM briefed_items WHERE topic = 'inference' AND date = ?", (DAY,))
    assert [(r[0], r[1]) for r in rows] == [("", "json"), ("en", "html"), ("en", "md"), ("zh", "html"), ("zh", "md")]
    assert all((home / r[2]).is_file() for r in rows if r[2])
    assert data is not None and keys[0][0] == len(briefed_keys(data)) > 0
