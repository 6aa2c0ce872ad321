"""The typed briefing: ``build_briefing`` returns a ``Briefing`` whose fields are the JSON's keys, in order."""
from __future__ import annotations

import dataclasses
import datetime as dt
from pathlib import Path

from pipeline.brief.model import Briefing, Flag
from pipeline.brief.write import CONTRACT_KEYS
from tests.pipeline.brief.conftest import brief_json, clone

FIELDS = [f.name for f in dataclasses.fields(Briefing)]


def test_the_contract_keys_are_fields_of_the_briefing() -> None:
    assert set(CONTRACT_KEYS) <= set(FIELDS)


def test_the_json_has_exactly_the_briefings_fields(sample_day: Path, tmp_path: Path) -> None:
    """The contract keys first, then the other fields in their declared order."""
    keys = list(brief_json(clone(sample_day, tmp_path / "ws")))
    assert keys == [*CONTRACT_KEYS, *(f for f in FIELDS if f not in CONTRACT_KEYS)]


def test_build_briefing_returns_a_briefing(sample_day: Path, tmp_path: Path) -> None:
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.brief.build import build_briefing
    from pipeline.brief.inputs import load_inputs
    from pipeline.context import RunContext

    ws = open_workspace(str(clone(sample_day, tmp_path / "ws")))
    ctx = RunContext(ws, Store.open(ws.store_path, readonly=True), dt.date(2026, 10, 8), offline=True)
    try:
        briefing = build_briefing(load_inputs(ctx, "inference"))
    finally:
        ctx.store.close()
    assert isinstance(briefing, Briefing)
    assert briefing.flags and all(isinstance(f, Flag) and f.id is None for f in briefing.flags)   # not synced yet
    data = briefing.as_dict()
    assert list(data) == FIELDS and data["flags"] is briefing.flags and data["increments"] is briefing.increments
