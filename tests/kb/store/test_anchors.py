"""Which version of a knowledge doc is the one of day D: the one read last by D, a revert included."""
from __future__ import annotations

from kb.records import KnowledgeDoc
from kb.store import Store
from kb.store.anchors import current_doc_version, save_knowledge_doc
from kb.store.notes import record_file

DOC = "organized/knowledge/inference.md"


def _read(store: Store, version: str, day: str) -> None:
    """A nightly of ``day`` reading the doc at ``version`` (its text's hash is the version's name)."""
    with store.transaction() as tx:
        save_knowledge_doc(tx, KnowledgeDoc(DOC, "inference", version=version), f"hash-{version}", day)
        record_file(tx, DOC, "knowledge", f"hash-{version}", [])


def _version(store: Store, day: str | None = None) -> str | None:
    found = current_doc_version(store, "inference", day)
    return found.version if found else None


def test_a_doc_reverted_the_day_it_changed_is_that_day_s_earlier_version(store: Store) -> None:
    """v311 was read first on the day, but v310 was back on disk by the end of it: the store kept only
    each version's first reading, so the day's briefing was built from the text no longer there."""
    _read(store, "v310", "2026-10-08")
    _read(store, "v311", "2026-10-08")
    _read(store, "v310", "2026-10-08")
    assert _version(store, "2026-10-08") == _version(store) == "v310"


def test_each_day_keeps_the_version_read_last_by_it(store: Store) -> None:
    """Read v310, v311, v310 again, v311 again on four days: each day, rebuilt later, has its own."""
    for version, day in (("v310", "2026-10-08"), ("v311", "2026-10-09"), ("v310", "2026-10-10"),
                         ("v311", "2026-10-11")):
        _read(store, version, day)
    assert [_version(store, f"2026-10-{d:02d}") for d in (8, 9, 10, 11, 12)] == ["v310", "v311", "v310", "v311", "v311"]
    assert _version(store, "2026-10-01") == "v311"     # before any reading: the doc on disk
