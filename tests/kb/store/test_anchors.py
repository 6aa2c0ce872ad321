"""Which version of a knowledge doc is the one of day D: the one read last by D, a revert included."""
from __future__ import annotations

from kb.records import AnchorRef, KnowledgeDoc, Section
from kb.store import Store
from kb.store.anchors import anchored_subject_count, current_doc_version, query_anchored, save_knowledge_doc
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


def _read_anchors(store: Store, day: str, *anchors: AnchorRef) -> None:
    """A nightly of ``day`` reading a doc whose §2.3 holds ``anchors``."""
    section = Section("2.3", "PD", 2, 1, 9, anchors=list(anchors))
    with store.transaction() as tx:
        save_knowledge_doc(tx, KnowledgeDoc(DOC, "inference", version=day, sections=[section]), f"hash-{day}", day)


def _ids(store: Store, **dates: str) -> list[str]:
    return sorted(a["arxiv_id"] for a in query_anchored(store, topic="inference", **dates))


def test_until_keeps_an_undated_anchor_as_the_briefing_counts_it(store: Store) -> None:
    """An anchor the doc gives no date (written before kb) is anchored as far as anyone knows: ``until``
    keeps it from the day kb first saw it, so `kb query anchored --until D` counts what D's briefing
    does; ``since`` asks for anchors dated from a day, which it is not."""
    dated, undated, later = (AnchorRef("2401.09670", anchored_on="2026-10-01"), AnchorRef("2311.18677"),
                             AnchorRef("2609.14872"))
    _read_anchors(store, "2026-10-08", dated, undated)
    _read_anchors(store, "2026-10-09", dated, undated, later)      # first seen, so dated, on the 9th
    for day in ("2026-10-08", "2026-10-09"):
        assert len(_ids(store, until=day)) == anchored_subject_count(store, "inference", day)
    assert _ids(store, until="2026-10-08") == ["2311.18677", "2401.09670"]
    assert _ids(store, until="2026-10-07") == ["2401.09670"]       # kb had not seen the doc yet
    assert _ids(store, since="2026-10-01") == ["2401.09670", "2609.14872"]


def test_a_topic_is_read_as_its_doc_s_last_reading(store: Store) -> None:
    """What a topic's anchors are of: its last reading's text, a revert included; a topic never read has none."""
    from kb.store.anchors import docs_read_as
    assert docs_read_as(store) == {}
    for version, day in (("v310", "2026-10-08"), ("v311", "2026-10-09"), ("v310", "2026-10-09")):
        _read(store, version, day)
    assert docs_read_as(store) == {"inference": "hash-v310"}


def _read_sections(store: Store, day: str, version: str, **sections: list[AnchorRef]) -> None:
    """A nightly of ``day`` reading ``version`` of the doc, whose sections (``s2_3`` is §2.3) hold ``sections``."""
    doc = KnowledgeDoc(DOC, "inference", version=version, sections=[
        Section(name[1:].replace("_", "."), name, 2, 1, 9, anchors=list(refs)) for name, refs in sections.items()])
    with store.transaction() as tx:
        save_knowledge_doc(tx, doc, f"hash-{version}", day)


def test_a_past_day_rebuilt_after_a_renumbering_has_its_own_doc_s_anchors(store: Store) -> None:
    """v311 renumbers §2.3 to §2.4 and adds a line dated before the 8th. Rebuilt later, the 8th's briefing is
    built from v310, as that night: DistServe under §2.3 only (it was listed under §2.3 and §2.4, the
    renumbered line carrying its date back), and no line v310 did not have. A day before kb read the doc at all
    has no version of its own: the doc on disk's lines count from their dates, under its numbers."""
    from kb.store.anchors import current_anchors
    dist = AnchorRef("2401.09670", anchored_on="2026-10-01")
    backdated = AnchorRef("2311.18677", anchored_on="2026-10-05")
    _read_sections(store, "2026-10-08", "v310", s2_3=[dist])
    _read_sections(store, "2026-10-09", "v311", s2_4=[dist, backdated])

    def anchors(day: str | None) -> list[tuple[str, str]]:
        return [(a.section, a.subject) for a in current_anchors(store, "inference", day)]
    assert anchors("2026-10-08") == [("2.3", "2401.09670")]
    assert anchors("2026-10-09") == anchors(None) == [("2.4", "2311.18677"), ("2.4", "2401.09670")]
    assert anchored_subject_count(store, "inference", "2026-10-08") == 1
    assert anchors("2026-10-06") == [("2.4", "2311.18677"), ("2.4", "2401.09670")]
    assert anchors("2026-10-02") == [("2.4", "2401.09670")]


def test_a_past_day_knows_an_anchored_paper_only_if_kb_had_seen_it(store: Store) -> None:
    """AMPD is anchored on the 8th by its line; kb first sees the paper on the 9th. Rebuilt later, the 8th
    describes it by its line, as that night did (its title then named it beside an item in the rebuilt sample
    day); the 9th and now know its title. A paper with no first sighting recorded counts as known."""
    from kb.records import PaperRecord, Sighting
    from kb.store.anchors import current_anchors
    from kb.store.papers import add_sightings, save_papers
    ampd = AnchorRef("2609.14872", anchored_on="2026-10-01", label="AMPD — multi-path PD")
    old = AnchorRef("2311.18677", anchored_on="2026-10-01")
    _read_sections(store, "2026-10-08", "v310", s2_3=[ampd, old])
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord("2609.14872", 1, title="AMPD: Adaptive Multi-Path PD Disaggregation"),
                         PaperRecord("2311.18677", 1, title="Splitwise")], "arxiv")
        add_sightings(tx, [Sighting("2609.14872", "arxiv", "2026-10-09", "new", 1)])

    def known(day: str | None) -> dict[str, tuple[str | None, bool]]:
        return {a.subject: (a.title, a.paper_known) for a in current_anchors(store, "inference", day)}
    assert known("2026-10-08") == {"2609.14872": (None, False), "2311.18677": ("Splitwise", True)}
    assert known("2026-10-09")["2609.14872"] == known(None)["2609.14872"] == (
        "AMPD: Adaptive Multi-Path PD Disaggregation", True)


def test_an_anchoring_date_corrected_later_counts_on_a_past_day_as_the_doc_then_gave_it(store: Store) -> None:
    """Day 2's doc anchors TailGuard "(anchored 2026-10-15)", a date in its future; day 4's corrects it to the
    9th. The 9th rebuilt later does not count it (its doc gave the 15th), the 13th and now do, dated the 9th;
    the 9th's continuing anchors leave it out, the 13th's window (the 10th to the 13th) too."""
    from kb.store.anchors import anchored_between, current_anchors
    _read_sections(store, "2026-10-09", "v311", s2_2=[AnchorRef("2610.08977", anchored_on="2026-10-15")])
    _read_sections(store, "2026-10-13", "v313", s2_2=[AnchorRef("2610.08977", anchored_on="2026-10-09")])

    def dates(day: str | None) -> list[str | None]:
        return [a.anchored_on for a in current_anchors(store, "inference", day)]
    assert dates("2026-10-09") == [] and anchored_subject_count(store, "inference", "2026-10-09") == 0
    assert dates("2026-10-13") == dates(None) == ["2026-10-09"]
    assert [a.arxiv_id for a in anchored_between(store, "inference", "2026-10-09", "2026-10-09")] == []
    assert anchored_between(store, "inference", "2026-10-10", "2026-10-13") == []
    assert [a.anchored_on for a in anchored_between(store, "inference", "2026-10-09", "2026-10-13")] == ["2026-10-09"]
    assert [tuple(r) for r in store.query("SELECT until_day, anchored_on FROM anchor_dates")] == [
        ("2026-10-13", "2026-10-15")]
