"""``kb eval sections --method hints``: leave-one-out over a doc's anchors of the keyword classifier's way to
suggest a section, the briefing's own ``placing.hint_ranking``. The result has the shape of
``pipeline.classify.sections.leave_one_out``'s, so the two ways are read side by side: what a keyword
workspace's briefings do, against the doc's own section models.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from kb.store.anchors import AnchorView
from pipeline.brief.facts import SectionTerms
from pipeline.brief.placing import hint_ranking
from pipeline.classify.classifier import classify

__all__ = ["leave_one_out_by_hints"]


def leave_one_out_by_hints(headings: Mapping[str, str], anchored: Sequence[Any], taxonomy: Any) -> dict[str, Any]:
    """Hide each anchored item (``sections.SectionItem``s; an item anchored in two sections is one item, right
    in either), describe the sections by the others, rank the sections for it by its title and abstract as the
    keyword classifier judges them. ``{"n", "top1", "top3", "items"}``, as ``leave_one_out`` gives them."""
    judged = functools.lru_cache(maxsize=None)(lambda text, title: classify(text, title=title, taxonomy=taxonomy))

    def judge(text: str, *, title: str = "", **_: Any) -> Any:   # as the briefing calls it; each text once
        return judged(text, title)

    titles = {f"§{number}": title for number, title in headings.items()}
    by_id: dict[str, list[Any]] = {}
    for a in anchored:
        by_id.setdefault(a.id, []).append(a)
    results = []
    for aid, mine in by_id.items():
        others = [_view(a) for a in anchored if a.id != aid]
        describe = SectionTerms(others, titles, taxonomy, judge)
        topics = [tag.topic for tag in judged(mine[0].text, mine[0].title).tags]
        ranked = list(hint_ranking(topics, mine[0].title, headings, taxonomy, describe))
        truth = sorted(dict.fromkeys(a.section for a in mine))
        results.append({"id": aid, "title": mine[0].title, "sections": truth, "predicted": ranked[:3],
                        "top1": bool(ranked) and ranked[0] in truth, "top3": bool(set(ranked[:3]) & set(truth))})
    m = len(results)
    return {"n": m, "top1": sum(r["top1"] for r in results) / m if m else None,
            "top3": sum(r["top3"] for r in results) / m if m else None, "items": results}


def _view(item: Any) -> AnchorView:
    """A ``SectionItem`` as the briefing's anchors are (``SectionTerms`` reads their titles, labels, abstracts)."""
    return AnchorView(item.section, item.id, None, None, item.label or item.title, None, item.title, item.text)
