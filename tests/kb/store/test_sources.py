"""The health ledger: what a day's status of a source is when it was tried more than once."""
from __future__ import annotations

import pytest

from kb.store import Store
from kb.store.sources import record_run, runs_of_day

DAY = "2026-10-08"


@pytest.mark.parametrize(("attempts", "status"), [
    (["failed", "not-modified"], "not-modified"),   # the retry recovered: nothing changed since the last read
    (["ok", "not-modified"], "ok"),                 # "nothing changed" never hides the day's read
    (["ok", "failed"], "failed"),                   # the latest attempt speaks
    (["failed", "ok"], "ok"),
    (["ok", "not-run"], "ok"),                      # an offline rerun that read nothing hides nothing
    (["failed", "not-run"], "failed"),
    (["not-run"], "not-run"),                       # the briefing says the source was not checked
    (["not-run", "not-modified"], "not-modified"),
])
def test_a_days_status_is_its_latest_attempt(store: Store, attempts: list[str], status: str) -> None:
    for n, s in enumerate(attempts):
        record_run(store, {"source": "arxiv", "run_date": DAY, "started_at": f"{DAY}T0{n}:00", "status": s,
                           "parsed": 3 if s == "ok" else 0})
    [run] = runs_of_day(store, DAY)
    assert run["status"] == status


def test_a_failed_manual_run_does_not_speak_for_the_source(store: Store) -> None:
    record_run(store, {"source": "arxiv", "run_date": DAY, "started_at": f"{DAY}T01:00", "status": "ok"})
    record_run(store, {"source": "arxiv", "run_date": DAY, "started_at": f"{DAY}T02:00", "status": "failed",
                       "manual": 1, "error": "no such file"})
    assert [r["status"] for r in runs_of_day(store, DAY)] == ["ok"]
