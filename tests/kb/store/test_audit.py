"""kb audit's findings over the store."""
from __future__ import annotations

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
