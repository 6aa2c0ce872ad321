"""Section suggestion from the knowledge doc itself, by the classifier's own representation.

Each section of a doc is described by its heading and by what is anchored in it (the anchors'
titles and abstracts when the store has them, else their lines in the doc, and the team's
labels); an item's suggested sections are the nearest ones. "Nearest" uses what the classifier
computes for any text: its TF-IDF vector (words, word pairs, CJK n-grams, taxonomy-term
features) and its topic probabilities, so a doc renumbered (``§2.3`` → ``§2.4``) gives the same
suggestions renumbered — nothing here knows a number. Section numbers stay as written
(``kb.sections``: ``1.(1)`` is not ``1.1``).

``SectionIndex.build(base, headings, anchored)`` makes the index; ``suggest(title, text)``
ranks sections; ``leave_one_out(…)`` hides each anchored item in turn and reports how often
its section comes first (top-1) or among the first three (top-3): ``kb eval sections DOC``.
An explicit suggestion written in the source ("建议：§3.1") is the briefing's business and wins
over these (pipeline.brief).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

HEADING_WEIGHT = 1.0     # a heading counts as much as one anchored item
TOPIC_WEIGHT = 0.0       # share of the similarity from topic probabilities (the rest: TF-IDF cosine)
CHILD_WEIGHT = 0.0       # a subsection's item, as part of its parent's description
NEAREST_WEIGHT = 0.3     # share of the TF-IDF similarity from the nearest item (the rest: the centroid)


@dataclass(frozen=True)
class SectionItem:
    """One thing anchored in a section: its section number (as written), an id, title and text."""

    section: str
    id: str
    title: str
    text: str = ""
    label: str = ""     # the team's words for it on its line: part of the section's description, never a query


@dataclass
class SectionIndex:
    """Per section: a unit TF-IDF centroid (feature → value) and a unit topic-probability profile."""

    base: Any
    words: dict[str, dict[int, float]] = field(default_factory=dict)
    topics: dict[str, Any] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    members: dict[str, list[dict[int, float]]] = field(default_factory=dict)   # unit vectors of each item

    @classmethod
    def build(cls, base: Any, headings: Mapping[str, str], anchored: Sequence[SectionItem],
              places: Sequence[str] | None = None) -> SectionIndex:
        """The index of a doc: ``headings`` maps each section number (without §) to its title (``join_headings``).
        ``places`` are the sections an item may be suggested for, by default ``places(headings, anchored)``."""
        import numpy as np
        order = list(places if places is not None else cls.places(headings, anchored))
        texts = [(_heading_path(headings, s), "") for s in order] + [(a.title, _described(a)) for a in anchored]
        words: dict[str, dict[int, float]] = {s: {} for s in order}
        prof = {s: np.zeros(len(base.topics)) for s in order}
        owners = [(s, HEADING_WEIGHT) for s in order] + [(a.section, 1.0) for a in anchored]
        if CHILD_WEIGHT:   # what a subsection holds also describes its parent (§2.3.1's items are §2.3's too)
            up = [(a.section.rsplit(".", 1)[0], CHILD_WEIGHT, k) for k, a in enumerate(anchored)
                  if "." in a.section and a.section.rsplit(".", 1)[0] in order]
            owners += [(s, w) for s, w, _ in up]
            texts += [texts[len(order) + k] for _, _, k in up]
        members: dict[str, list[dict[int, float]]] = {s: [] for s in order}
        vecs, probs = _represent(base, texts)
        for (s, w), (idx, val), p in zip(owners, vecs, probs):
            if s not in words:
                words[s], prof[s], members[s] = {}, np.zeros(len(base.topics)), []
                order.append(s)
            if w >= 1.0:
                members[s].append(_unit(idx, val))
            c = words[s]
            for j, v in zip(idx.tolist(), val.tolist()):
                c[j] = c.get(j, 0.0) + w * v
            prof[s] = prof[s] + w * p
        for s in order:
            norm = sum(v * v for v in words[s].values()) ** 0.5 or 1.0
            words[s] = {j: v / norm for j, v in words[s].items()}
            n = float(np.linalg.norm(prof[s])) or 1.0
            prof[s] = prof[s] / n
        return cls(base, words, prof, order, members)

    @staticmethod
    def places(headings: Mapping[str, str], anchored: Sequence[SectionItem]) -> list[str]:
        """The sections an item may go to, in the doc's order: all but the containers, sections that only
        hold subsections and have nothing anchored of their own (``§2 Serving architecture`` over ``§2.1`` …)."""
        own = {a.section for a in anchored}
        parents = {".".join(p[:i]) for s in headings if (p := s.split(".")) for i in range(1, len(p))}
        return [s for s in headings if s in own or s not in parents]

    def suggest(self, title: str, text: str = "", k: int = 3) -> list[tuple[str, float]]:
        """The ``k`` nearest sections, best first, with their similarity (0..1)."""
        (vec,), (p,) = _represent(self.base, [(title, text)])
        return self.rank(vec, p)[:k]

    def rank(self, vec: tuple[Any, Any], p: Any) -> list[tuple[str, float]]:
        import numpy as np
        idx, val = vec
        me: dict[int, float] = {}
        for j, v in zip(idx.tolist(), val.tolist()):
            me[j] = me.get(j, 0.0) + v
        norm = sum(v * v for v in me.values()) ** 0.5 or 1.0
        pn = p / (float(np.linalg.norm(p)) or 1.0)
        scored = []
        for s in self.order:
            c = self.words[s]
            cos = sum(v * c.get(j, 0.0) for j, v in me.items()) / norm
            if NEAREST_WEIGHT:
                near = max((sum(v * m.get(j, 0.0) for j, v in me.items()) / norm for m in self.members[s]),
                           default=0.0)
                cos = (1 - NEAREST_WEIGHT) * cos + NEAREST_WEIGHT * near
            scored.append((round((1 - TOPIC_WEIGHT) * cos + TOPIC_WEIGHT * float(pn @ self.topics[s]), 4), s))
        # Nearest first, a subsection like any other section: when the team files items in §2.3.1, its
        # own items say so (putting the parent first moved every KV-transfer item of v311 to §2.4).
        scored.sort(key=lambda x: (-x[0], self.order.index(x[1])))
        return [(s, v) for v, s in scored]


def join_headings(headings: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Section number → title, in the doc's order. A number two headings carry (a doc problem kb reports)
    is described by both titles, since the items anchored under either are that number's."""
    out: dict[str, str] = {}
    for number, title in headings:
        out[number] = f"{out[number]}; {title}" if out.get(number) and title and title != out[number] else title
    return out


def _described(item: SectionItem) -> str:
    """What the index reads of an anchored item besides its title: its abstract and the team's label."""
    return "\n".join(x for x in (item.text, item.label) if x)


def _unit(idx: Any, val: Any) -> dict[int, float]:
    out: dict[int, float] = {}
    for j, v in zip(idx.tolist(), val.tolist()):
        out[j] = out.get(j, 0.0) + v
    norm = sum(v * v for v in out.values()) ** 0.5 or 1.0
    return {j: v / norm for j, v in out.items()}


def _heading_path(headings: Mapping[str, str], number: str) -> str:
    """A section's heading with its parents' (``Serving architecture / KV transfer``): what the doc says it is."""
    parts = number.split(".")
    chain = [headings.get(".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    return " / ".join(t for t in chain if t)


def _represent(base: Any, texts: Sequence[tuple[str, str]]) -> tuple[list[tuple[Any, Any]], Any]:
    """TF-IDF vectors and topic probabilities of ``(title, text)`` pairs, by the base model."""
    import numpy as np
    rows, idx, val = base.flat_vectors(texts)
    Z = base.logits_flat(len(texts), rows, idx, val)
    cuts = np.searchsorted(rows, np.arange(1, len(texts)))
    vecs = list(zip(np.split(idx, cuts), np.split(val, cuts)))
    return vecs, 1.0 / (1.0 + np.exp(-Z[:, 3:].astype(np.float64)))


def suggest_sections(index: SectionIndex | None, title: str, text: str = "", *, sections: set[str] | None = None,
                     k: int = 3) -> list[str]:
    """Section numbers (as written, without §) for an item, nearest first; only those in ``sections``
    when given (the doc's current sections). Empty without an index (no model, no doc)."""
    if index is None:
        return []
    (vec,), (p,) = _represent(index.base, [(title, text)])
    ranked = [s for s, _ in index.rank(vec, p) if sections is None or s in sections]
    return ranked[:k]


def leave_one_out(base: Any, headings: Mapping[str, str], anchored: Sequence[SectionItem]) -> dict[str, Any]:
    """Hide each anchored item (every line of it: an item anchored in two sections is hidden from
    both), rebuild the index from the rest, rank the sections for it: top-1 and top-3 rates, and
    per item what was predicted. An item counts as right when a section it is anchored in comes
    first (top-1) or among the first three (top-3)."""
    by_id: dict[str, list[SectionItem]] = {}
    for a in anchored:
        by_id.setdefault(a.id, []).append(a)
    items = []
    # Hiding an item leaves the doc as it is: a section whose only anchor is hidden is still a place.
    places = SectionIndex.places(headings, anchored)
    for aid, mine in by_id.items():
        rest = [a for a in anchored if a.id != aid]
        index = SectionIndex.build(base, headings, rest, places)
        ranked = [s for s, _ in index.rank(*_one(base, mine[0]))]
        truth = sorted({a.section for a in mine})
        items.append({"id": aid, "title": mine[0].title, "sections": truth, "predicted": ranked[:3],
                      "top1": ranked[:1] and ranked[0] in truth, "top3": bool(set(ranked[:3]) & set(truth))})
    n = len(items)
    return {"n": n, "top1": sum(i["top1"] for i in items) / n if n else None,
            "top3": sum(i["top3"] for i in items) / n if n else None, "items": items}


def _one(base: Any, item: SectionItem) -> tuple[tuple[Any, Any], Any]:
    (vec,), (p,) = _represent(base, [(item.title, item.text)])
    return vec, p
