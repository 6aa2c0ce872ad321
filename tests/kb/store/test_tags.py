"""The classify stage's store look-ups: what a night asks of a store holding every earlier night's work."""
from __future__ import annotations

import pytest

from kb.store import Store
from kb.store.tags import Classified, classified_with_other_model, save_classifications


def _classified(store: Store, n: int, model_hash: str) -> None:
    with store.transaction() as tx:
        save_classifications(tx, [Classified("paper", f"2610.{i:05d}", "none") for i in range(n)], model_hash)


def test_a_model_change_is_seen_and_no_change_is_not(store: Store) -> None:
    _classified(store, 50, "m1")
    assert not classified_with_other_model(store, "m1")
    assert classified_with_other_model(store, "m0") and classified_with_other_model(store, "m2")


def test_looking_for_another_model_searches_the_index_not_every_row(store: Store) -> None:
    """Every row of a backfilled store shares the one hash: ``<>`` walked the whole index each night."""
    if store.dialect != "sqlite":
        pytest.skip("SQLite's query plan; PostgreSQL's planner picks its own")
    from kb.store import tags
    sql = tags.OTHER_MODEL
    plan = " ".join(str(r[-1]) for r in store.query("EXPLAIN QUERY PLAN " + sql, ("m1", "m1")))
    assert "SEARCH" in plan and "SCAN" not in plan, plan
