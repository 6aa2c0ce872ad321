"""A preview (`kb brief --preview`) and a copy (`--out`) are not the day's briefing: nothing is recorded,
the next day's briefing is the same, and a preview prints exactly what the day's build writes."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from kb.store import Store
from kb.store.briefings import archived_files, latest_date
from kb.store.flags import list_flags
from tests.pipeline.brief.conftest import DAY, EN_MD, ZH_MD, brief, brief_json, clone, kb, read

DAY2 = "2026-10-09"


def _recorded(home: Path) -> tuple:
    """What the store holds about briefings and flags, and the store file's bytes."""
    store = Store.open(home / ".kb" / "kb.sqlite", readonly=True)
    try:
        state = (latest_date(store, "inference"), archived_files(store), list_flags(store))
    finally:
        store.close()
    return state, hashlib.sha256((home / ".kb" / "kb.sqlite").read_bytes()).hexdigest()


def _files(home: Path) -> set[Path]:
    return {p for p in home.rglob("*") if p.is_file() and p.name != "kb.sqlite-shm"}   # SQLite's reader index


@pytest.fixture
def briefed(sample_day: Path, tmp_path: Path) -> Path:
    home = clone(sample_day, tmp_path / "ws")
    brief(home)                                   # the day's briefing, recorded
    brief(home, "--lang", "en")
    return home


def test_a_preview_prints_what_the_days_build_writes(briefed: Path) -> None:
    assert kb(briefed, "brief", "--date", DAY, "--preview").stdout == read(briefed, ZH_MD)
    assert kb(briefed, "brief", "--date", DAY, "--preview", "--lang", "en").stdout == read(briefed, EN_MD)
    data = json.loads(kb(briefed, "brief", "--date", DAY, "--preview", "--format", "json").stdout)
    assert data == brief_json(briefed)            # flags with their stored ids and statuses too


def test_a_preview_records_nothing_and_leaves_the_next_day_alone(briefed: Path) -> None:
    next_day = brief_json(briefed, day=DAY2)      # what the day after would say (its flags now stored)
    before, files = _recorded(briefed), _files(briefed)
    preview = kb(briefed, "brief", "--date", DAY2, "--preview").stdout
    assert preview.startswith("# inference") and DAY2 in preview
    assert _recorded(briefed) == before and _files(briefed) == files   # no record, no flag, no file
    assert brief_json(briefed, day=DAY2) == next_day
    assert next_day["window"]["previous_briefing"] == DAY


def test_a_preview_of_a_day_never_built_writes_no_flag(sample_day: Path, tmp_path: Path) -> None:
    home = clone(sample_day, tmp_path / "ws")
    kb(home, "brief", "--date", DAY, "--preview")
    store = Store.open(home / ".kb" / "kb.sqlite", readonly=True)
    try:
        assert latest_date(store, "inference") is None and list_flags(store) == []
    finally:
        store.close()
    assert not (home / ZH_MD).exists()


def test_a_copy_written_with_out_is_not_the_days_briefing(briefed: Path) -> None:
    kb(briefed, "brief", "--date", DAY2, "--out", "preview-copy.md")
    assert (briefed / "preview-copy.md").read_text(encoding="utf-8").startswith("# inference")
    assert brief_json(briefed, day=DAY2)["window"]["previous_briefing"] == DAY
    assert _recorded(briefed)[0][0] == DAY


def test_a_copy_written_with_out_reads_the_store_only(sample_day: Path, tmp_path: Path) -> None:
    """A member who may only read the store can write a copy (it was refused: "this command writes to the
    store"): the copy syncs no flag — a flag not stored yet is "(new)", as in a preview — and the store's
    bytes are as they were."""
    home = clone(sample_day, tmp_path / "ws")
    store_file = home / ".kb" / "kb.sqlite"
    before = store_file.read_bytes()
    kb(home, "brief", "--date", DAY, "--out", str(tmp_path / "copy.md"))
    copy = (tmp_path / "copy.md").read_text(encoding="utf-8")
    assert copy.startswith("# inference") and "### ⚠️ （新） 待核实" in copy and "kb flags show" not in copy
    assert store_file.read_bytes() == before


def test_preview_and_out_together_are_a_usage_error(briefed: Path) -> None:
    result = kb(briefed, "brief", "--date", DAY, "--preview", "--out", "x.md", ok=False)
    assert result.exit_code == 2 and not (briefed / "x.md").exists()


def test_an_empty_out_is_named_as_such(briefed: Path) -> None:
    """`--out ""` once answered "a preview records nothing", which the user had not asked for."""
    before = _recorded(briefed)
    result = kb(briefed, "brief", "--date", DAY, "--out", "", ok=False)
    assert result.exit_code == 2 and "an empty path" in result.output + str(result.exception)
    assert _recorded(briefed) == before


@pytest.mark.parametrize("how", [("--preview",), ("--out", "copy.md")])
def test_a_preview_or_a_copy_keeps_no_reading_of_the_taxonomy(sample_day: Path, tmp_path: Path, how: tuple) -> None:
    """A run that only reads writes no cache of its own either: ``.kb/cache/taxonomy.json`` is a nightly's (or any
    command's that writes the store), never a preview's or a copy's."""
    from pipeline.classify.kept_taxonomy import KEPT_FILE
    home = clone(sample_day, tmp_path / "ws")
    (home / KEPT_FILE).unlink(missing_ok=True)
    kb(home, "brief", "--date", DAY, *how)
    assert not (home / KEPT_FILE).exists()
