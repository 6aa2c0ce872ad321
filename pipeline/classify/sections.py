"""Section suggestion from the knowledge doc itself, by the classifier's own representation.

Each section of a doc gets a linear model — a one-vs-rest ridge regression, like arxiv-sanity's
per-tag SVM — learned from the doc alone: its rows are every section's heading (with its parents')
and every anchored item (the anchors' titles and abstracts when the store has them, else their lines
in the doc, and the team's labels), each a positive of its own sections and a negative of the others.
An item's suggested sections are those whose models score it highest, each section's score moved by
how its own items score when each is left out (``LOOSENESS``: a loose section, whose items are unlike
each other, is brought up, a tight one taken down). The features are what the classifier computes for
any text, its TF-IDF vector (words, word pairs, CJK n-grams, taxonomy-term features; its blocks weighed
for comparing items, ``BLOCKS``), so a doc renumbered (``§2.3`` → ``§2.4``) gives the same suggestions
renumbered — nothing here knows a number. Section numbers stay as written (``kb.sections``: ``1.(1)``
is not ``1.1``). The ridge was chosen on the corpus' public curated lists (``bench/eval_sections.py``),
not on kb's docs; the looseness shift on the sample doc and day 2's (on the lists it trades a little
top-3 for top-1: docs/classify.md).

``SectionIndex.build(base, headings, anchored)`` makes the index; ``suggest(title, text)``
ranks sections; ``leave_one_out(…)`` hides each anchored item in turn and reports how often
its section comes first (top-1) or among the first three (top-3): ``kb eval sections DOC``.
An explicit suggestion written in the source ("建议：§3.1") is the briefing's business and wins
over these (pipeline.brief).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The penalty of each section's ridge model, against vectors of unit length: small, as a doc's few
# rows should be fitted closely (0.03–0.3 score within 0.01 of each other on the curated lists).
RIDGE = 0.1

# What each feature block counts for when a doc's rows are compared — title, abstract, taxonomy terms, the
# keyword scorer's verdict — times the classifier's own block weights. The verdict (``@kw=none`` …) says how
# relevant an item looks, not what it is about, and every row carries one: at full weight two bare titles
# with no word in common had a cosine of 1/3 to 1/2. The taxonomy's terms are kb's topics, coarser than a
# doc's sections: at full weight, items of sibling sections under one topic look alike. Chosen on the curated
# lists (``bench/eval_sections.py --blocks``): on each of three samples of them, lowering both raised pooled
# top-1 and top-3 (the verdict's best near 0.3, the taxonomy's still rising at 0.5, the lowest tried); 0.6 is
# the lowest that keeps the sample doc at issue 13's floor (0.8 / 0.95), the one kb doc the choice looked at.
BLOCKS = (1.0, 1.0, 0.6, 0.3)

# How far each section's scores are moved toward a common level: a section whose own items score high when
# each is left out (items alike: a tight section) is taken down by ``LOOSENESS`` × how much higher than the
# doc's usual its items score, a loose one (items unlike each other, such as a "landscape" section, whose
# model scores everything low) is brought up as much. Each section's mean is shrunk toward the doc's with
# ``LOOSENESS_PRIOR`` items, so a section of one or two items moves little. Chosen on the sample doc and
# day 2's (issue 13; 0.25–0.5 with 1–3 items all raised both); on the curated lists it raises top-1 and
# lowers top-3 by half a point to a point (docs/classify.md).
LOOSENESS = 0.3
LOOSENESS_PRIOR = 2.0


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
    """One linear model per section over the classifier's TF-IDF features: ``weights[k, s]`` is the
    weight of feature ``features[k]`` (sorted ids, the doc's own) for section ``order[s]``."""

    base: Any
    order: list[str]
    features: Any = None
    weights: Any = None
    offsets: Any = None     # per section, subtracted from its score: ``_looseness_offsets``

    @classmethod
    def build(cls, base: Any, headings: Mapping[str, str], anchored: Sequence[SectionItem],
              places: Sequence[str] | None = None) -> SectionIndex:
        """The index of a doc: ``headings`` maps each section number (without §) to its title (``join_headings``).
        ``places`` are the sections an item may be suggested for, by default ``places(headings, anchored)``.

        Each section's model is a one-vs-rest ridge regression (target +1 for its own rows, −1 for the
        others') over the rows the doc gives: every place's heading path, and every anchored item once
        (its title, abstract and labels), a row of each section it is anchored in. Unlike a centroid, the
        model learns which words tell the doc's sections apart, so a word every section shares weighs
        little. Solved in the dual (a doc has far fewer rows than features) with the rows kept sparse,
        so a doc of thousands of anchors with abstracts costs its rows' overlap, not rows × vocabulary."""
        import numpy as np
        places = list(places if places is not None else cls.places(headings, anchored))
        texts, Y, order = _training_rows(headings, _distinct(anchored), places)
        rows, feats, vals = _unit_rows(represent(base, texts))
        features, cols = np.unique(feats, return_inverse=True)
        gram = _gram(rows, cols, vals, len(texts))
        inverse = np.linalg.inv(gram + RIDGE * np.eye(len(texts)))
        alpha = inverse @ Y
        weights = np.stack([np.bincount(cols, weights=vals * alpha[rows, k], minlength=len(features))
                            for k in range(len(order))], axis=1) if len(order) else np.zeros((len(features), 0))
        own = np.arange(len(places), len(texts))     # the items' rows (the headings' come first)
        return cls(base, order, features, weights, _looseness_offsets(Y[own], alpha[own], np.diag(inverse)[own]))

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
        import numpy as np
        _, feats, vals = _unit_rows([vec])
        at = np.searchsorted(self.features, feats)
        known = at < len(self.features)
        known[known] = self.features[at[known]] == feats[known]   # the doc's features; the others weigh nothing
        scores = vals[known] @ self.weights[at[known]]
        if self.offsets is not None:
            scores = scores - self.offsets
        return [(self.order[k], v) for k, v in _best_first(scores)]


def join_headings(headings: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Section number → title, in the doc's order. A number two headings carry (a doc problem kb reports)
    is described by both titles, since the items anchored under either are that number's."""
    out: dict[str, str] = {}
    for number, title in headings:
        out[number] = f"{out[number]}; {title}" if out.get(number) and title and title != out[number] else title
    return out


@dataclass(frozen=True)
class _Distinct:
    """An anchored item once: its id, its title, the text it trains on (its abstract and every label the
    team wrote for it), the text it is asked with (its abstract alone) and the sections it is anchored in."""

    id: str
    title: str
    text: str
    query: str
    sections: list[str]


def _distinct(anchored: Sequence[SectionItem]) -> list[_Distinct]:
    """Each anchored item once, in the order first met: an item anchored in two sections is one example of both."""
    by_id: dict[str, list[SectionItem]] = {}
    for a in anchored:
        by_id.setdefault(a.id, []).append(a)
    out = []
    for aid, mine in by_id.items():
        labels = list(dict.fromkeys(a.label for a in mine if a.label))
        text = "\n".join(x for x in (mine[0].text, *labels) if x)
        out.append(_Distinct(aid, mine[0].title, text, mine[0].text, list(dict.fromkeys(a.section for a in mine))))
    return out


def _training_rows(headings: Mapping[str, str], items: Sequence[_Distinct], places: Sequence[str]
                   ) -> tuple[list[tuple[str, str]], Any, list[str]]:
    """The rows the sections' models learn from — every place's heading path, then every item — with their
    targets (+1 for a row's own sections, −1 for the others) and the sections' order (the places first)."""
    import numpy as np
    order = list(dict.fromkeys([*places, *(s for it in items for s in it.sections)]))
    texts = [(heading_path(headings, s), "") for s in places] + [(it.title, it.text) for it in items]
    Y = -np.ones((len(texts), len(order)))
    for r, sections in enumerate([[s] for s in places] + [it.sections for it in items]):
        Y[r, [order.index(s) for s in sections]] = 1.0
    return texts, Y, order


def _looseness_offsets(Y: Any, alpha: Any, inverse_diagonal: Any) -> Any:
    """Per section, ``LOOSENESS`` × (how its own items score when each is left out − how the doc's items
    score in their sections), the mean of each section shrunk toward the doc's by ``LOOSENESS_PRIOR`` items.

    A section's scores are on its own scale: a tight section's model scores its items high, a loose one's
    (a "landscape" of a model release, a kernel DSL and a TPU offering) scores them low, so a new item of
    the loose section is outranked by a tight one it shares a few words with. The left-out scores come
    from the fit itself (ridge's identity: row ``i`` left out scores ``yᵢ − αᵢ / (K + λI)⁻¹ᵢᵢ``). ``Y``,
    ``alpha`` and ``inverse_diagonal`` are the fit's, restricted to the items' rows: the headings are not
    what a new item is compared with."""
    import numpy as np
    rows, cols = np.nonzero(Y > 0)
    left_out = 1.0 - alpha[rows, cols] / inverse_diagonal[rows]
    return _offsets(np.bincount(cols, weights=left_out, minlength=Y.shape[1])[None],
                    np.bincount(cols, minlength=Y.shape[1])[None].astype(float))[0]


def _offsets(sums: Any, counts: Any) -> Any:
    """``_looseness_offsets`` from each section's sum and count of its items' left-out scores (one row per fit)."""
    import numpy as np
    usual = sums.sum(axis=1, keepdims=True) / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    return LOOSENESS * ((sums + LOOSENESS_PRIOR * usual) / (counts + LOOSENESS_PRIOR) - usual)


def _hidden_offsets(A: Any, Z: Any, Y: Any, own: Any) -> Any:
    """``_looseness_offsets`` of each fit without one item's row (``own[q]``, one row of the result per
    item), from the whole doc's ``A = (K + λI)⁻¹`` and ``Z = A·Y``: without row ``o`` the inverse is
    ``A − A[:, o] A[o, :] / A[o, o]``, so each fit's left-out scores come from the one inverse. Only the
    items' positive cells count, so the cost is items × their anchorings, in blocks of folds."""
    import numpy as np
    rows, cols = np.nonzero(Y[own] > 0)
    rows = own[rows]
    onehot = np.zeros((len(rows), Y.shape[1]))
    onehot[np.arange(len(rows)), cols] = 1.0
    out = np.zeros((len(own), Y.shape[1]))
    step = max(1, PAIRS_PER_PASS // max(len(rows), 1))
    for first in range(0, len(own), step):
        hidden = own[first:first + step]
        pivot = A[hidden, hidden]
        a = A[np.ix_(rows, hidden)]                                         # pairs × folds
        alpha = Z[rows, cols][:, None] - a * Z[np.ix_(hidden, cols)].T / pivot
        diagonal = A[rows, rows][:, None] - a * a / pivot
        keep = rows[:, None] != hidden[None, :]                             # the hidden row is no example
        left_out = np.where(keep, 1.0 - alpha / np.where(keep, diagonal, 1.0), 0.0)
        out[first:first + step] = _offsets(left_out.T @ onehot, keep.T.astype(float) @ onehot)
    return out


def _best_first(scores: Any) -> list[tuple[int, float]]:
    """Section positions by score, best first, a subsection like any other section (when the team files
    items in §2.3.1, its own items say so); a tie keeps the doc's order."""
    return [(k, v) for v, k in sorted(((round(float(v), 4), k) for k, v in enumerate(scores)),
                                       key=lambda x: (-x[0], x[1]))]


def _unit_rows(vecs: Sequence[tuple[Any, Any]]) -> tuple[Any, Any, Any]:
    """TF-IDF vectors as flat ``(row, feature, value)`` arrays, each row summed per feature (a feature
    in two blocks is two entries of a vector) and scaled to unit length."""
    import numpy as np
    if not vecs:
        return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    rows = np.repeat(np.arange(len(vecs)), [len(idx) for idx, _ in vecs])
    feats = np.concatenate([np.asarray(idx, np.int64) for idx, _ in vecs])
    span = int(feats.max()) + 1 if len(feats) else 1
    keys, where = np.unique(rows * span + feats, return_inverse=True)    # (row, feature), sorted
    vals = np.bincount(where, weights=np.concatenate([np.asarray(v, np.float64) for _, v in vecs]),
                       minlength=len(keys))
    rows, feats = keys // span, keys % span
    norms = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=len(vecs)))
    return rows, feats, vals / np.where(norms > 0, norms, 1.0)[rows]


PAIRS_PER_PASS = 1 << 20   # entry pairs summed per pass over the rare features: ~40 MB of arrays


def _gram(rows: Any, cols: Any, vals: Any, n: int) -> Any:
    """``X @ X.T`` of the sparse ``n``-row matrix with entries ``(rows, cols, vals)``, exactly.

    A feature many rows share goes into a dense block multiplied by BLAS (n² per feature, fast); a
    rare one (most of a vocabulary) adds its own entry pairs (df² per feature), which costs far less
    than n² when df is small: together the cost follows the rows' overlap, not rows × vocabulary."""
    import numpy as np
    gram = np.zeros((n, n))
    if not len(vals):
        return gram
    df = np.bincount(cols)
    common = df[cols] * 16 > n
    shared = np.unique(cols[common])
    for part in np.array_split(shared, max(1, len(shared) // 2048)) if len(shared) else ():
        pick = np.isin(cols, part)
        block = np.zeros((n, len(part)))
        block[rows[pick], np.searchsorted(part, cols[pick])] = vals[pick]
        gram += block @ block.T
    rare = ~common
    by_col = np.argsort(cols[rare], kind="stable")
    r, c, v = rows[rare][by_col], cols[rare][by_col], vals[rare][by_col]
    if len(c):
        start = np.searchsorted(c, c)                       # first entry of each entry's feature
        size = np.searchsorted(c, c, side="right") - start  # that feature's rows
        ends = np.cumsum(size)
        first = 0
        while first < len(c):
            last = int(np.searchsorted(ends, ends[first] - size[first] + PAIRS_PER_PASS, side="right"))
            last = max(last, first + 1)
            k = size[first:last]
            left = np.repeat(np.arange(first, last), k)
            offset = np.arange(len(left)) - np.repeat(np.cumsum(k) - k, k)
            right = start[left] + offset
            # summed per touched cell, not over a dense n² buffer: a pass costs its pairs, whatever n is
            cells, at = np.unique(r[left] * n + r[right], return_inverse=True)
            gram.flat[cells] += np.bincount(at.ravel(), weights=v[left] * v[right])
            first = last
    return gram


def heading_path(headings: Mapping[str, str], number: str) -> str:
    """A section's heading with its parents' (``Serving architecture / KV transfer``): what the doc says it is."""
    parts = number.split(".")
    chain = [headings.get(".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    return " / ".join(t for t in chain if t)


def represent(base: Any, texts: Sequence[tuple[str, str]], blocks: Sequence[float] | None = None
              ) -> list[tuple[Any, Any]]:
    """The TF-IDF vectors (feature indices, values) of ``(title, text)`` pairs, by the base model, its
    blocks weighed for comparing items (``BLOCKS``, unless ``blocks`` says otherwise)."""
    if not texts:
        return []
    return base.vectorize_many(texts, BLOCKS if blocks is None else blocks)


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
    both), fit the sections' models to the rest, rank the sections for it by its title and abstract
    (the team's labels describe a section, they are never a query): top-1 and top-3 rates, and per
    item what was predicted. An item counts as right when a section it is anchored in comes first
    (top-1) or among the first three (top-3).

    The fit without row ``i`` is not recomputed: with ``A = (K + λI)⁻¹`` of the whole doc and
    ``Z = A·Y``, the dual ridge fitted to the other rows scores a query ``q`` (its kernel ``u`` with
    the other rows) at ``u·Z − (u·Aᵢ) Zᵢ / Aᵢᵢ`` — exactly what refitting gives, for one fit; the sections'
    offsets of that fit (``LOOSENESS``) come from the same ``A`` (``_hidden_offsets``)."""
    import numpy as np
    # Hiding an item leaves the doc as it is: a section whose only anchor is hidden is still a place.
    places = SectionIndex.places(headings, anchored)
    items = _distinct(anchored)
    texts, Y, order = _training_rows(headings, items, places)
    n, m = len(texts), len(items)
    rows, feats, vals = _unit_rows(represent(base, texts + [(it.title, it.query) for it in items]))
    _, cols = np.unique(feats, return_inverse=True)
    kernel = _gram(rows, cols, vals, n + m)
    A = np.linalg.inv(kernel[:n, :n] + RIDGE * np.eye(n))
    Z = A @ Y
    own = np.arange(len(places), n)                     # each query's own row, hidden from its fit
    U = kernel[n:, :n].copy()
    U[np.arange(m), own] = 0.0
    scores = U @ Z - ((U * A[own]).sum(axis=1) / A[own, own])[:, None] * Z[own]
    scores -= _hidden_offsets(A, Z, Y, own)            # each fit's own, the hidden item left out
    results = []
    for it, row in zip(items, scores):
        ranked = [order[k] for k, _ in _best_first(row)]
        truth = sorted(it.sections)
        results.append({"id": it.id, "title": it.title, "sections": truth, "predicted": ranked[:3],
                        "top1": ranked[:1] and ranked[0] in truth, "top3": bool(set(ranked[:3]) & set(truth))})
    return {"n": m, "top1": sum(r["top1"] for r in results) / m if m else None,
            "top3": sum(r["top3"] for r in results) / m if m else None, "items": results}
