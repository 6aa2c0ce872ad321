"""kb audit's findings over the store."""
from __future__ import annotations

import pytest

from kb.store import Store
from kb.store.audit import audit


def test_an_id_anchored_before_its_month_is_a_finding_and_one_of_its_month_is_not(store: Store) -> None:
    """2610.x was announced in October 2026: anchored on 2026-09-20 it was written wrong (or dated wrong)."""
    from kb.store.anchors import save_knowledge_doc
    from pipeline.workspace.knowledge import parse_knowledge
    text = ("# inference\nversion: v1 · 2026-10-09\n### §2.5 KV cache compression\n"
            "- 2610.12655 WattServe (anchored 2026-09-20)\n- 2610.00001 Other (anchored 2026-10-01)\n"
            "- 2509.00002 Older (anchored 2026-10-01)\n")
    with store.transaction() as tx:
        save_knowledge_doc(tx, parse_knowledge(text, "organized/knowledge/inference.md", "inference"), "h1",
                           "2026-10-09")
    found = [f for f in audit(store) if f["kind"] == "id-after-anchor-date"]
    assert found == [{"kind": "id-after-anchor-date", "subject": "2610.12655",
                      "detail": "§2.5: ID month 2610 is after its anchoring date 2026-09-20"}]


def test_anchored_nowhere_counts_the_configured_docs_only(store: Store) -> None:
    """A paper anchored only in a doc kb.toml no longer names (renamed, taken out) is anchored nowhere the
    team reads; without ``configured`` every doc the store read counts."""
    from kb.store.anchors import save_knowledge_doc
    from kb.store.notes import save_note
    from pipeline.workspace.knowledge import parse_knowledge
    from pipeline.workspace.notes import parse_note
    with store.transaction() as tx:
        save_knowledge_doc(tx, parse_knowledge("# old\nversion: v1 · 2026-10-08\n### §1.1 X\n- 2610.10091 E\n",
                                               "organized/knowledge/old.md", "old"), "h-old", "2026-10-08")
        for who in ("jay", "tom"):
            save_note(tx, parse_note("## 1. E\n\n- arXiv 2610.10091\n", f"inbox/{who}/2026-10-08-0900-n.md"))

    def nowhere(**kw) -> list[str]:
        return [f["subject"] for f in audit(store, **kw) if f["kind"] == "unanchored-mentioned"]
    assert nowhere() == [] and nowhere(configured=["old"]) == []
    assert nowhere(configured=["inference"]) == nowhere(configured=[]) == ["2610.10091"]


def _mismatched_card(tx, path: str, file_id: str, fm_id: str, text: str) -> None:
    """A card whose file name and front matter disagree, as the workspace's ingest keeps it: the cards
    table's row, and the finding (worded ``text``) among the file's problems."""
    from kb.records import CARD_ID_MISMATCH, Card, Finding
    from kb.store.cards import save_card
    from kb.store.notes import record_file
    save_card(tx, Card(path=path, file_id=file_id, arxiv_id=fm_id))
    record_file(tx, path, "card", "h-" + path, ["created 'soon' is not an ISO date or date-time"],
                [Finding(CARD_ID_MISMATCH, fm_id, text)])


@pytest.mark.parametrize("text", [
    "file name says 2607.09701 but arxiv_id is 2610.09701",   # today's wording
    "the name and the front matter name different papers",  # reworded: no ID in it
    "2610.09701 / 2607.09701 / 2610.09701",                   # both IDs, any order, any words
])
def test_a_cards_mismatch_is_one_finding_however_it_is_worded(store: Store, text: str) -> None:
    path = "organized/paper_cards/378-2607-09701.md"
    with store.transaction() as tx:
        _mismatched_card(tx, path, "2607.09701", "2610.09701", text)
    found = [f for f in audit(store) if f["kind"] == "card-id-mismatch"]
    assert found == [{"kind": "card-id-mismatch", "subject": "2610.09701",
                      "detail": f"{path}: file name says 2607.09701, front matter says 2610.09701"}]
    # the file's other problem is still its own finding; the mismatch is not said again as one
    assert [f["detail"] for f in audit(store) if f["kind"] == "file-problem"] == [
        "created 'soon' is not an ISO date or date-time"]


def test_two_cards_mismatched_are_two_findings(store: Store) -> None:
    with store.transaction() as tx:
        _mismatched_card(tx, "organized/paper_cards/378-2607-09701.md", "2607.09701", "2610.09701", "x")
        _mismatched_card(tx, "organized/paper_cards/379-2607-09702.md", "2607.09702", "2610.09702", "x")
    found = [(f["kind"], f["subject"]) for f in audit(store) if f["kind"] != "file-problem"]
    assert found == [("card-id-mismatch", "2610.09701"), ("card-id-mismatch", "2610.09702")]


def test_findings_are_said_once_by_kind_subject_and_file() -> None:
    from kb.store.audit import said_once
    a = {"kind": "card-id-mismatch", "subject": "2610.09701", "detail": "first wording"}
    b = {"kind": "card-id-mismatch", "subject": "2610.09701", "detail": "other wording"}
    c = {"kind": "card-id-mismatch", "subject": "2610.09701", "detail": "first wording"}
    d = {"kind": "other-kind", "subject": "2610.09701", "detail": "first wording"}
    assert said_once([(("card-id-mismatch", "2610.09701", "a.md"), a),
                      (("card-id-mismatch", "2610.09701", "a.md"), b),     # same card, same kind: one
                      (("card-id-mismatch", "2610.09701", "b.md"), c),     # another card: its own
                      (("other-kind", "2610.09701", "a.md"), d)]) == [a, c, d]
