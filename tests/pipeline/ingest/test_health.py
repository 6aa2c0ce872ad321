"""Source health from the ledger: consecutive failures, staleness with weekends understood."""
from __future__ import annotations

from kb.store import Store
from kb.store.sources import record_run, sources_status, troubled_sources


def _runs(store: Store, source: str, runs: list[tuple[str, str, int]]) -> None:
    for day, status, new in runs:
        record_run(store, {"source": source, "run_date": day, "started_at": day + "T22:30:00", "status": status,
                           "new": new, "parsed": new, "error": "HTTP 503" if status == "failed" else None})


def _status(store: Store, name: str) -> dict:
    return {s["name"]: s for s in sources_status(store)}[name]


def test_three_failures_in_a_row_are_named(store: Store) -> None:
    _runs(store, "hf", [("2026-10-05", "ok", 5), ("2026-10-06", "failed", 0), ("2026-10-07", "failed", 0),
                        ("2026-10-08", "failed", 0)])
    s = _status(store, "hf")
    assert (s["consecutive_failures"], s["last_success"], s["last_failure"]) == (3, "2026-10-05", "2026-10-08")
    assert troubled_sources(store) == [{"name": "hf", "kind": "failing", "failures": 3, "error": "HTTP 503"}]


def test_a_recovered_source_is_not_named(store: Store) -> None:
    _runs(store, "hf", [("2026-10-05", "failed", 0), ("2026-10-06", "failed", 0), ("2026-10-07", "failed", 0),
                        ("2026-10-08", "ok", 3)])
    assert _status(store, "hf")["consecutive_failures"] == 0 and troubled_sources(store) == []


def test_weekend_empty_listings_are_not_quiet_runs(store: Store) -> None:
    # Thu, Fri new; Sat, Sun the listing says "no announcements"; Mon new.
    _runs(store, "arxiv", [("2026-10-08", "ok", 200), ("2026-10-09", "ok", 190), ("2026-10-10", "empty", 0),
                           ("2026-10-11", "empty", 0), ("2026-10-12", "ok", 210)])
    s = _status(store, "arxiv")
    assert (s["quiet_runs"], s["stale"]) == (0, False)


def test_a_source_silent_far_beyond_its_habit_is_stale(store: Store) -> None:
    daily = [(f"2026-10-0{d}", "ok", 10) for d in range(1, 5)]
    silent = [(f"2026-10-0{d}", "ok", 0) for d in range(5, 9)]
    _runs(store, "arxiv", daily + silent)
    s = _status(store, "arxiv")
    assert (s["quiet_runs"], s["usual_quiet_runs"], s["stale"]) == (4, 1, True)
    assert troubled_sources(store)[0]["name"] == "arxiv"


def test_a_weekly_blog_is_not_stale_after_three_quiet_days(store: Store) -> None:
    runs = []
    for week in range(3):
        for day in range(7):
            runs.append((f"2026-09-{1 + week * 7 + day:02d}", "ok", 1 if day == 0 else 0))
    _runs(store, "vllm-blog", runs[:-3])   # last post 3 runs ago, posts every 7 runs
    s = _status(store, "vllm-blog")
    assert s["usual_quiet_runs"] == 7 and not s["stale"]


def test_a_source_whose_items_another_brought_first_is_not_stale(store: Store) -> None:
    """HF's papers of a day are in the arXiv listing before it: all updates, none new. It was named stale ("no new
    items for 9 runs") every day it delivered ten papers (held-out days 5–11)."""
    for d in range(1, 9):
        day = f"2026-10-0{d}"
        record_run(store, {"source": "hf", "run_date": day, "started_at": day + "T22:30:00", "status": "ok",
                           "new": 3 if d == 1 else 0, "updated": 10, "parsed": 10})
    s = _status(store, "hf")
    assert (s["quiet_runs"], s["stale"], s["last_new"]) == (0, False, "2026-10-08")


def test_offline_runs_of_an_unchanged_recording_say_nothing_of_staleness(store: Store) -> None:
    """Days 4–12 read each blog's one recording night after night: kb named llm-d "stale, no new items for 9 runs"
    beside the sources table's "offline recording, the same as last read" (a reader's review of day 12). Nothing
    was asked of the feed; a 304 from the server is a quiet run all the same."""
    _runs(store, "arxiv", [("2026-10-01", "ok", 10), ("2026-10-02", "ok", 9), ("2026-10-03", "ok", 8)])
    for day in ["2026-10-04", "2026-10-05", "2026-10-06", "2026-10-07", "2026-10-08"]:
        record_run(store, {"source": "arxiv", "run_date": day, "started_at": day + "T22:30:00",
                           "status": "not-modified", "new": 0, "parsed": 0, "recording": 1})
    assert (_status(store, "arxiv")["quiet_runs"], _status(store, "arxiv")["stale"]) == (0, False)
    for day in ["2026-10-09", "2026-10-10", "2026-10-11"]:
        record_run(store, {"source": "arxiv", "run_date": day, "started_at": day + "T22:30:00",
                           "status": "not-modified", "new": 0, "parsed": 0, "http_status": 304})
    assert (_status(store, "arxiv")["quiet_runs"], _status(store, "arxiv")["stale"]) == (3, True)
