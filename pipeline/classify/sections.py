"""Section suggestion from the knowledge doc itself, by the classifier's own representation.

Each section of a doc gets a linear model — a one-vs-rest ridge regression, like arxiv-sanity's
per-tag SVM — learned from the doc alone: its rows are every section's heading (with its parents')
and every anchored item (the anchors' titles and abstracts when the store has them, else their lines
in the doc, and the team's labels), each a positive of its own sections and a negative of the others.
An item's suggested sections are those whose models score it highest. The features are what the
classifier computes for any text, its TF-IDF vector (words, word pairs, CJK n-grams, taxonomy-term
features), so a doc renumbered (``§2.3`` → ``§2.4``) gives the same suggestions renumbered —
nothing here knows a number. Section numbers stay as written (``kb.sections``: ``1.(1)`` is not ``1.1``).
The method was chosen on the corpus' public curated lists (``bench/eval_sections.py``), not on kb's docs.

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

# The penalty of each section's ridge model, against vectors of unit length: small, as a doc's few
# rows should be fitted closely (0.03–0.3 score within 0.01 of each other on the curated lists).
RIDGE = 0.1


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
    """One linear model per section over the classifier's TF-IDF features: ``weights[f, s]``, where
    ``columns`` maps a feature to its row ``f``; ``order`` holds the sections, in the doc's order."""

    base: Any
    order: list[str]
    columns: dict[int, int] = field(default_factory=dict)
    weights: Any = None

    @classmethod
    def build(cls, base: Any, headings: Mapping[str, str], anchored: Sequence[SectionItem],
              places: Sequence[str] | None = None) -> SectionIndex:
        """The index of a doc: ``headings`` maps each section number (without §) to its title (``join_headings``).
        ``places`` are the sections an item may be suggested for, by default ``places(headings, anchored)``.

        Each section's model is a one-vs-rest ridge regression (target +1 for its own rows, −1 for the
        others') over the rows the doc gives: every place's heading path, and every anchored item once
        (its title, abstract and labels), a row of each section it is anchored in. Unlike a centroid, the
        model learns which words tell the doc's sections apart, so a word every section shares weighs
        little; solved in the dual, as a doc has far fewer rows than features."""
        import numpy as np
        order = list(places if places is not None else cls.places(headings, anchored))
        texts, targets = [(heading_path(headings, s), "") for s in order], [[s] for s in order]
        for title, text, sections in _distinct(anchored):
            texts.append((title, text))
            targets.append(sections)
            order += [s for s in sections if s not in order]
        if not texts:      # no heading and nothing anchored: nothing to suggest
            return cls(base, order, {}, np.zeros((0, 0)))
        vecs = represent(base, texts)
        columns = {j: c for c, j in enumerate(sorted({int(j) for idx, _ in vecs for j in idx.tolist()}))}
        X = np.stack([_dense(v, columns) for v in vecs])
        Y = -np.ones((len(texts), len(order)))
        for r, sections in enumerate(targets):
            Y[r, [order.index(s) for s in sections]] = 1.0
        alpha = np.linalg.solve(X @ X.T + RIDGE * np.eye(len(texts)), Y)
        return cls(base, order, columns, X.T @ alpha)

    @staticmethod
    def places(headings: Mapping[str, str], anchored: Sequence[SectionItem]) -> list[str]:
        """The sections an item may go to, in the doc's order: all but the containers, sections that only
        hold subsections and have nothing anchored of their own (``§2 Serving architecture`` over ``§2.1`` …)."""
        own = {a.section for a in anchored}
        parents = {".".join(p[:i]) for s in headings if (p := s.split(".")) for i in range(1, len(p))}
        return [s for s in headings if s in own or s not in parents]

    def suggest(self, title: str, text: str = "", k: int = 3) -> list[tuple[str, float]]:
        """The ``k`` best sections, best first, with their models' scores (about −1..1)."""
        (vec,) = represent(self.base, [(title, text)])
        return self.rank(vec)[:k]

    def rank(self, vec: tuple[Any, Any]) -> list[tuple[str, float]]:
        """Every section for an item's TF-IDF vector, best first."""
        scores = _dense(vec, self.columns) @ self.weights
        # Best first, a subsection like any other section: when the team files items in §2.3.1, its
        # own items say so; a tie keeps the doc's order.
        scored = sorted(((round(float(v), 4), k) for k, v in enumerate(scores)), key=lambda x: (-x[0], x[1]))
        return [(self.order[k], v) for v, k in scored]


def join_headings(headings: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Section number → title, in the doc's order. A number two headings carry (a doc problem kb reports)
    is described by both titles, since the items anchored under either are that number's."""
    out: dict[str, str] = {}
    for number, title in headings:
        out[number] = f"{out[number]}; {title}" if out.get(number) and title and title != out[number] else title
    return out


def _distinct(anchored: Sequence[SectionItem]) -> list[tuple[str, str, list[str]]]:
    """Each anchored item once, as ``(title, text, its sections)``: an item anchored in two sections is
    one example of both, described by its abstract and every label the team wrote for it."""
    by_id: dict[str, list[SectionItem]] = {}
    for a in anchored:
        by_id.setdefault(a.id, []).append(a)
    out = []
    for mine in by_id.values():
        labels = list(dict.fromkeys(a.label for a in mine if a.label))
        text = "\n".join(x for x in (mine[0].text, *labels) if x)
        out.append((mine[0].title, text, list(dict.fromkeys(a.section for a in mine))))
    return out


def _dense(vec: tuple[Any, Any], columns: Mapping[int, int]) -> Any:
    """An item's TF-IDF vector, scaled to unit length, on the index's features (the others weigh nothing)."""
    import numpy as np
    features, where = np.unique(vec[0], return_inverse=True)   # a feature in two blocks is two entries
    summed = np.bincount(where, weights=vec[1], minlength=len(features))
    norm = float(np.linalg.norm(summed)) or 1.0
    out = np.zeros(len(columns))
    for j, v in zip(features.tolist(), summed.tolist()):
        c = columns.get(j)
        if c is not None:
            out[c] = v / norm
    return out


def heading_path(headings: Mapping[str, str], number: str) -> str:
    """A section's heading with its parents' (``Serving architecture / KV transfer``): what the doc says it is."""
    parts = number.split(".")
    chain = [headings.get(".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    return " / ".join(t for t in chain if t)


def represent(base: Any, texts: Sequence[tuple[str, str]]) -> list[tuple[Any, Any]]:
    """The TF-IDF vectors (feature indices, values) of ``(title, text)`` pairs, by the base model."""
    if not texts:
        return []
    return base.vectorize_many(texts)


def suggest_sections(index: SectionIndex | None, title: str, text: str = "", *, sections: set[str] | None = None,
                     k: int = 3) -> list[str]:
    """Section numbers (as written, without §) for an item, nearest first; only those in ``sections``
    when given (the doc's current sections). Empty without an index (no model, no doc)."""
    if index is None:
        return []
    (vec,) = represent(index.base, [(title, text)])
    ranked = [s for s, _ in index.rank(vec) if sections is None or s in sections]
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
        (vec,) = represent(base, [(mine[0].title, mine[0].text)])
        ranked = [s for s, _ in index.rank(vec)]
        truth = sorted({a.section for a in mine})
        items.append({"id": aid, "title": mine[0].title, "sections": truth, "predicted": ranked[:3],
                      "top1": ranked[:1] and ranked[0] in truth, "top3": bool(set(ranked[:3]) & set(truth))})
    n = len(items)
    return {"n": n, "top1": sum(i["top1"] for i in items) / n if n else None,
            "top3": sum(i["top3"] for i in items) / n if n else None, "items": items}
