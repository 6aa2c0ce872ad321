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
