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


def test_a_dismissal_is_back_when_the_evidence_it_was_made_on_is_back(store: Store) -> None:
    """A note moved away for a night and back: the flag reopened on the shrunken evidence, whose hash then
    replaced the one the team dismissed, so the flag stayed open for good (QA, 2026-12-04)."""
    whole = {"values": {"44.6": ["a"], "46.1": ["b"]}, "sources": ["inbox/tom/x.md", "organized/c.md"]}
    fid, _ = _sync(store, "2026-10-08", whole)
    with store.transaction() as tx:
        resolve_flag(tx, fid, "dismissed", "the team checked")
    assert _sync(store, "2026-10-09", {**whole, "sources": ["organized/c.md"]}) == (fid, "open")
    assert _sync(store, "2026-10-10", whole) == (fid, "dismissed")
    changed = {**whole, "values": {"46.1": ["a", "b"]}}
    assert _sync(store, "2026-10-11", changed) == (fid, "open")
    with store.transaction() as tx:                                # closed again, on other evidence
        resolve_flag(tx, fid, "verified", None)
    assert _sync(store, "2026-10-12", whole) == (fid, "dismissed")   # each closure holds for its own evidence
    assert _sync(store, "2026-10-13", changed) == (fid, "verified")
    with store.transaction() as tx:                                # the team opens it: no closure to come back
        resolve_flag(tx, fid, "open", None)
    assert _sync(store, "2026-10-14", whole) == (fid, "open")


def test_the_signed_figures_are_kept_beside_the_evidence_and_change_no_status(store: Store) -> None:
    """The figures a briefing shows with their sign (its ``context.signed``) are kept with the flag for
    `kb flags show`; they are no evidence: a closed flag stays closed when they appear or change."""
    from kb.store.flags import get_flag
    evidence = {"values": {"38%": ["a"], "44%": ["b"]}}
    fid, _ = _sync(store, "2026-10-12", evidence)
    assert get_flag(store, fid)["context"] == {}
    with store.transaction() as tx:
        resolve_flag(tx, fid, "dismissed", None)
    with store.transaction() as tx:
        assert sync_flag(tx, rule="number-conflict", fingerprint="inference:number-conflict:x", topic="inference",
                         subject="x", evidence=evidence, day="2026-10-13",
                         signed={"44%": "−44%"}) == (fid, "dismissed")
    flag = get_flag(store, fid)
    assert flag["context"] == {"signed": {"44%": "−44%"}} and flag["evidence"] == evidence
    assert _sync(store, "2026-10-14", evidence) == (fid, "dismissed")          # no sign written any more
    assert get_flag(store, fid)["context"] == {}
