"""Stored flags across nights: a past day rebuilt shows its flags but changes none of them."""
from __future__ import annotations

from kb.store import Store
from kb.store.flags import resolve_flag, sync_flag


def _sync(store: Store, day: str, evidence: dict) -> tuple[int, str]:
    with store.transaction() as tx:
        return sync_flag(tx, rule="number-conflict", fingerprint="inference:number-conflict:x", topic="inference",
                         subject="x", evidence=evidence, day=day)


def _row(store: Store) -> tuple:
    return tuple(store.query("SELECT status, evidence, first_seen, last_seen FROM flags")[0])


def test_a_past_day_rebuilt_keeps_the_latest_nights_flag(store: Store) -> None:
    fid, _ = _sync(store, "2026-10-08", {"values": {"44.6": ["a"], "46.1": ["b"]}})
    _sync(store, "2026-10-09", {"values": {"46.1": ["a", "b"]}})          # the 9th: the post was corrected
    with store.transaction() as tx:
        resolve_flag(tx, fid, "verified", "the post was corrected")
    latest = _row(store)
    # The 8th rebuilt: its old evidence is shown as open (as that night saw it), and nothing is stored
    assert _sync(store, "2026-10-08", {"values": {"44.6": ["a"], "46.1": ["b"]}}) == (fid, "open")
    assert _row(store) == latest and latest[0] == "verified" and latest[3] == "2026-10-09"
