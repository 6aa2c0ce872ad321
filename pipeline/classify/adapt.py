"""Per-doc adaptation of the base model, and active learning. Runtime: numpy only.

A workspace has several knowledge docs (an *inference* doc, a *MoE* doc …) and its own
labels: the items anchored in each doc (positives for that doc, their sections tie topics to
sections), cards with a relevance and topics, and the team's corrections. ``adapt`` turns a
doc's labelled items into a ``DocModel``: the shipped base model plus a small correction
learned from them —

* warm-started logistic regression *toward the base weights*: the doc model's weights are
  ``W_base + Δ`` and ``Δ`` (one row per feature that occurs in the doc's items, and a bias
  shift) minimises the relevance and topic log-losses on those items plus ``l2/2·‖Δ‖²``.
  With a few items the doc model stays close to the base; with many, it follows the team.
  Cost: the labelled items' non-zeros × the topics × the steps (a doc of 500 anchors and 60 cards:
  about 1 s for the first fit's 200 steps; a warm refit after a label changes takes 60);
* incremental: ``DocModel.update(new_items)`` continues from the current ``Δ`` (no refit
  from scratch), and ``to_dict``/``from_dict`` store ``Δ`` keyed by feature *names* (a few
  KB per doc), so it survives a retrained base with a different vocabulary order;
* section suggestions live in ``pipeline.classify.sections`` (same vectors, the doc's own
  headings and anchors).

Anchors alone are positives only: a doc's relevance head moves only when its own labels hold
both classes (a ``none`` correction or card). Which of several docs an item belongs to is the
membership head's (``fit_membership``): the doc's anchors against the other docs' anchors —
those about what the doc is about left out (``pipeline.classify.docmodels``) — so a MoE doc
learns that a speculative-decoding paper anchored in the inference doc is not its business.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Labelled", "DocModel", "adapt", "fit_membership"]

_NR = 3
_DERIVED = "@"             # every derived feature: taxonomy terms (@slug, @@group) and the verdict
_LEVELS = ("primary", "adjacent", "none")


@dataclass(frozen=True)
class Labelled:
    """One labelled text for a doc. ``topics=None``: the topics are unknown (only the relevance
    is labelled); ``relevance=None``: only the topics are (a card of a paper the doc does not hold)."""

    title: str
    text: str = ""
    relevance: str | None = "primary"
    topics: tuple[str, ...] | None = None
    section: str | None = None
    weight: float = 1.0
    id: str = ""
    origin: str = ""                 # anchor, card, correction, other-doc anchor

    @classmethod
    def of(cls, item: Labelled | Mapping[str, Any]) -> Labelled:
        if isinstance(item, Labelled):
            return item
        t = item.get("topics")
        return cls(item.get("title", ""), item.get("text", ""), item.get("relevance", "primary"),
                   tuple(t) if t is not None else None, item.get("section"),
                   float(item.get("weight", 1.0)), str(item.get("id", "")), str(item.get("origin", "")))


@dataclass
class DocModel:
    """The base model plus a doc's correction ``Δ`` (sparse rows) and bias shifts."""

    base: Any                                   # model.Model
    doc: str
    delta: dict[int, np.ndarray] = field(default_factory=dict)
    bias: np.ndarray | None = None
    sections: dict[str, Any] = field(default_factory=dict)      # unused; kept for old cache files
    items: list[Labelled] = field(default_factory=list)
    l2: float = 0.1
    # which doc an item belongs to, in a workspace of several: feature → weight, and a bias (None: one doc)
    member: dict[int, float] | None = None
    member_bias: float = 0.0
    # the doc's subject (topics half its anchors carry: docmodels): an item whose strongest tag it is, is the doc's
    about: tuple[str, ...] = ()
    # the team's corrections, item by item: a person said what this item is for this doc, so it is
    overrides: dict[str, tuple[str, tuple[str, ...] | None]] = field(default_factory=dict)

    @property
    def topics(self) -> list[str]:
        return self.base.topics

    @property
    def id(self) -> str:
        return f"{self.base.id}+{self.doc}"

    def _dense(self) -> tuple[np.ndarray, np.ndarray]:
        """``Δ`` as a dense block and a feature → row map (built once, for batches)."""
        cached = getattr(self, "_dense_cache", None)
        if cached is None:
            drow = np.full(len(self.base.vocab), -1, dtype=np.int64)
            keys = sorted(self.delta)
            drow[keys] = np.arange(len(keys))
            dmat = np.array([self.delta[k] for k in keys], dtype=np.float32).reshape(len(keys), -1)
            cached = self._dense_cache = (drow, dmat)
        return cached

    # ------------------------------------------------------------------ scoring
    def correct(self, Z: np.ndarray, rows: np.ndarray, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        """This doc's logits from the base model's (``Z``) and the items' flat vectors.

        In a workspace of several docs, the membership head (P(this doc | related), this doc's anchors
        against the others') shares a related item out: the doc it resembles more than the others keeps
        it whole, as a workspace of that one doc would; a doc it resembles less gets P(related) times
        the odds m / (1 − m). An inference paper is related, and is the MoE doc's only if it resembles
        what the MoE doc anchors more than what the others do; a RAG paper like neither doc's anchors
        stays the larger doc's, as it was before the second doc came (the plain product gave every doc
        its share, and a second doc took borderline items out of the first doc's briefing). Docs
        overlap: an item whose strongest tag is the doc's subject (``about``) is the doc's whole,
        whatever else it resembles — a MoE paper on prefill/decode disaggregation is the MoE doc's too.
        """
        out = self._corrected(Z, rows, idx, val)
        if self.member is not None:
            m = self.membership(len(Z), rows, idx, val)
            m = np.minimum(1.0, m / np.clip(1.0 - m, 1e-9, None))
            m[self._about(out)] = 1.0
            if getattr(self.base, "rel_mode", "softmax") == "hierarchical":
                s1 = m / (1.0 + np.exp(-out[:, 1].astype(np.float64)))
                out[:, 1] = np.log(np.clip(s1, 1e-9, 1 - 1e-9) / np.clip(1 - s1, 1e-9, 1.0))
            else:
                out[:, :2] += np.log(np.clip(m, 1e-9, 1.0))[:, None]
        return out

    def _corrected(self, Z: np.ndarray, rows: np.ndarray, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        """The base logits with this doc's bias and correction ``Δ`` (before membership)."""
        out = Z + self.bias if self.bias is not None else Z.copy()
        if self.delta and len(idx):
            drow, dmat = self._dense()
            r = drow[idx]
            hit = r >= 0
            if hit.any():
                np.add.at(out, rows[hit], dmat[r[hit]] * val[hit, None])
        return out

    def _about(self, Z: np.ndarray) -> np.ndarray:
        """Which items (rows of logits ``Z``) are on this doc's subject: their strongest tag is one of its
        topics (an expert-parallelism doc's subject holds parallelism, yet a sequence-parallel prefill paper,
        long-context first, is not its business)."""
        cols = [k for k, t in enumerate(self.base.topics) if t in self.about]
        if not cols:
            return np.zeros(len(Z), dtype=bool)
        zt = np.asarray(Z[:, _NR:], dtype=np.float64)
        best = zt.argmax(axis=1)
        p = 1.0 / (1.0 + np.exp(-zt[np.arange(len(zt)), best]))
        return np.isin(best, cols) & (p >= np.asarray(self.base.thresholds, dtype=np.float64)[best])

    def membership(self, n: int, rows: np.ndarray, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        """P(this doc | related) of ``n`` items from their flat vectors (1 when the workspace has one doc)."""
        if self.member is None:
            return np.ones(n)
        w = np.zeros(len(self.base.vocab))
        keys = np.fromiter(self.member, dtype=np.int64, count=len(self.member))
        w[keys] = np.fromiter(self.member.values(), dtype=np.float64, count=len(self.member))
        u = np.full(n, self.member_bias) + (np.bincount(rows, w[idx] * val, minlength=n) if len(idx) else 0.0)
        return 1.0 / (1.0 + np.exp(-u))

    def sharing(self, idx: np.ndarray, val: np.ndarray) -> tuple[float, float, str | None] | None:
        """How ``correct`` shares one item out between the workspace's docs: ``(P(this doc | related), the
        factor on P(related), the doc's subject topic that made it the doc's whole or None)``; None in a
        workspace of one doc."""
        if self.member is None:
            return None
        rows = np.zeros(len(idx), dtype=np.int64)
        m = float(self.membership(1, rows, idx, val)[0])
        z = self._corrected(self.base.logits(idx, val)[None, :], rows, idx, val)
        subject = None
        if self._about(z)[0]:
            subject = self.base.topics[int(np.asarray(z[0, _NR:]).argmax())]
        return m, 1.0 if subject else min(1.0, m / max(1.0 - m, 1e-9)), subject

    def logits(self, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        z = self.base.logits(idx, val)
        return self.correct(z[None, :], np.zeros(len(idx), dtype=np.int64), idx, val)[0]

    def classify(self, text: str, *, title: str = "", hints: Iterable[str] = (), explain_terms: int = 0,
                 **_: Any):
        """Relevance *for this doc* and tags, as ``Model.classify`` returns them."""
        idx, val = self.base.vectorize(title, text)
        z = self.logits(idx, val)
        r = self.base._result(z, idx, val, hints, explain_terms, not (text or "").strip())
        r.model_id = self.id
        return r

    def moved(self, idx: np.ndarray, val: np.ndarray, column: int, k: int = 8) -> list[tuple[str, float]]:
        """The features whose doc correction moved ``column``'s logit most, with the amount."""
        out = [(self.base.vocab[j], float(v * self.delta[j][column]))
               for j, v in zip(idx.tolist(), val.tolist()) if j in self.delta]
        return sorted(out, key=lambda x: -abs(x[1]))[:k]

    # ------------------------------------------------------------------ learning
    def update(self, items: Iterable[Labelled | Mapping[str, Any]], **opts: Any) -> DocModel:
        """Add labelled items and continue training from the current correction. The membership head
        (``member``, ``about``: fitted on the other docs' anchors, not on these items) is kept as it is."""
        out = adapt(self.base, [*self.items, *(Labelled.of(i) for i in items)], doc=self.doc,
                    warm=self, l2=opts.pop("l2", self.l2), **opts)
        out.member, out.member_bias, out.about = self.member, self.member_bias, self.about
        out.overrides = dict(self.overrides)
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the correction keyed by feature names, and the biases."""
        v = self.base.vocab
        return {"doc": self.doc, "base": self.base.id, "l2": self.l2,
                "delta": {v[j]: [round(float(x), 5) for x in d] for j, d in sorted(self.delta.items())},
                "bias": None if self.bias is None else [round(float(x), 5) for x in self.bias],
                "member": None if self.member is None else {v[j]: round(w, 5) for j, w in sorted(self.member.items())},
                "member_bias": round(self.member_bias, 5), "about": list(self.about)}

    @classmethod
    def from_dict(cls, base: Any, d: Mapping[str, Any]) -> DocModel:
        ix = base.index
        delta = {ix[f]: np.asarray(x, dtype=np.float32) for f, x in d["delta"].items() if f in ix}
        bias = None if d.get("bias") is None else np.asarray(d["bias"], dtype=np.float32)
        member = None if d.get("member") is None else {ix[f]: float(w) for f, w in d["member"].items() if f in ix}
        return cls(base, d["doc"], delta, bias, {}, [], float(d.get("l2", 0.1)), member,
                   float(d.get("member_bias", 0.0)), tuple(d.get("about", ())))


def adapt(base: Any, items: Sequence[Labelled | Mapping[str, Any]], *, doc: str = "doc",
          l2: float = 0.1, bias_l2: float = 1.0, steps: int = 200, lr: float = 0.1,
          warm: DocModel | None = None) -> DocModel:
    """A ``DocModel`` for ``doc`` from its labelled items (see the module docstring).

    ``l2`` pulls the correction toward zero, i.e. the doc model toward the base model
    (larger = trust the base more); ``bias_l2`` does the same for the topic bias shifts (the
    relevance biases stay the base model's: a doc's labels are mostly anchors, a sample of
    positives, and a bias fitted to them would call everything primary). Optimised with Adam on
    the exact convex objective; ``warm`` starts from a previous correction (``update``).
    Only the heads some item teaches are fitted (anchors teach relevance, not topics); the
    products with the items' features are ``_Design``'s.
    """
    labelled = [Labelled.of(i) for i in items]
    if not labelled:
        return DocModel(base, doc, l2=l2)
    vecs = base.vectorize_many([(it.title, it.text) for it in labelled])
    z0 = base.logits_many(vecs)
    n, K = len(labelled), z0.shape[1]
    X = _Design(vecs, K)
    feats = X.feats
    hierarchical = getattr(base, "rel_mode", "softmax") == "hierarchical"
    rel = np.array([_LEVELS.index(it.relevance) if it.relevance in _LEVELS else -1 for it in labelled])
    # A card's "not primary" (``primary_topic: false``) says the paper is another field's, not how near it is
    # (docs/briefing.md): it teaches primary-vs-adjacent only. Read as "related", the sample's adjacent cards
    # (agents, RAG, vision) let one ``none`` correction call the stream's agent and RAG papers adjacent.
    unsure_near = np.array([it.origin == "card" and it.relevance == "adjacent" for it in labelled], dtype=bool)
    if not hierarchical:   # one softmax cannot teach the one without the other
        rel[unsure_near] = -1
    has_rel = rel >= 0
    near_rel = np.where(unsure_near, -1, rel)   # the labels that say related or not
    w = np.array([it.weight for it in labelled], dtype=np.float64)
    w = w / w.sum()
    topic_idx = {t: i for i, t in enumerate(base.topics)}
    Yt = np.zeros((n, K - _NR))
    Mt = np.zeros((n, 1))                      # which items teach the topic heads
    for i, it in enumerate(labelled):
        if it.topics is not None and it.relevance != "none":
            Mt[i] = 1.0
            for t in it.topics:
                if t in topic_idx:
                    Yt[i, topic_idx[t]] = 1.0
    # the columns some item teaches: relevance if any relevance is labelled, topics if any topic is
    active = np.zeros(K, dtype=bool)
    active[:_NR] = _taught_relevance(rel, getattr(base, "rel_mode", "softmax"), near_rel)
    active[_NR:] = Mt.any()
    # The relevance biases stay the base model's: a doc's labels are mostly its anchors, a sample of
    # positives, and a bias fitted to them would call the whole stream primary. Topic biases may move.
    bias_free = active.copy()
    bias_free[:_NR] = False
    # The keyword scorer's verdict (``@kw=primary|adjacent|none``) is on every item, one of three: in the
    # relevance heads it is a bias per verdict, and stays the base's like the biases. Fitted to a doc's
    # anchors — bare titles and anchor lines the scorer mostly calls none — it taught "the scorer says
    # none → primary" and let the stream's systems papers through. The taxonomy-term features
    # (``@serving-systems``: "cold start", "runtime", "kubernetes" …) are the same kind of evidence — one
    # per topic, on a large share of the stream — and stay the base's in the relevance heads too: fitted
    # to a doc's anchors they rose with every anchor that names a topic's term (+0.9 for
    # ``@serving-systems``) and called serverless cold-start papers primary. Their topic weights move.
    frozen = np.array([str(base.vocab[j]).startswith(_DERIVED) for j in feats], dtype=bool)
    D = np.zeros((len(feats), K))
    B = np.zeros(K)
    if warm is not None:
        pos = {int(j): c for c, j in enumerate(feats)}
        for j, d in warm.delta.items():
            if j in pos:
                D[pos[j]] = d
        if warm.bias is not None:
            B = warm.bias.astype(np.float64).copy()
    D[frozen, :_NR] = 0.0
    m1D, m2D, m1B, m2B = np.zeros_like(D), np.zeros_like(D), np.zeros_like(B), np.zeros_like(B)
    for step in range(1, steps + 1 if active.any() else 1):
        Z = z0 + B
        X.add_product(Z, D)
        G = np.zeros_like(Z)                   # gradient of the weighted log-losses w.r.t. the logits
        if hierarchical:                       # two binary heads: related, primary | related
            related = (rel != 2).astype(np.float64)
            G[:, 1] = (1.0 / (1.0 + np.exp(-Z[:, 1])) - related) * (near_rel >= 0)
            G[:, 0] = related * (1.0 / (1.0 + np.exp(-Z[:, 0])) - (rel == 0)) * has_rel
        else:                                  # softmax cross-entropy
            zr = Z[:, :_NR] - Z[:, :_NR].max(axis=1, keepdims=True)
            pr = np.exp(zr)
            pr /= pr.sum(axis=1, keepdims=True)
            pr[np.flatnonzero(has_rel), rel[has_rel]] -= 1.0
            G[:, :_NR] = pr * has_rel[:, None]
        G[:, _NR:] = (1.0 / (1.0 + np.exp(-Z[:, _NR:])) - Yt) * Mt
        G *= w[:, None]
        G[:, ~active] = 0.0
        gD = X.transposed_times(G) + l2 * D / n
        gD[frozen, :_NR] = 0.0
        gB = np.where(bias_free, G.sum(axis=0) + bias_l2 * B / n, 0.0)
        for p, g, m1, m2 in ((D, gD, m1D, m2D), (B, gB, m1B, m2B)):
            m1 *= 0.9
            m1 += 0.1 * g
            m2 *= 0.999
            m2 += 0.001 * g * g
            p -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
    keep = np.abs(D).max(axis=1) > 1e-4 if len(D) else np.zeros(0, dtype=bool)
    delta = {int(feats[c]): D[c].astype(np.float32) for c in np.flatnonzero(keep)}
    return DocModel(base, doc, delta, B.astype(np.float32), {}, labelled, l2)


DENSE_LIMIT = 4_000_000   # items × their distinct features up to which X is held dense (16 MB)


class _Design:
    """The labelled items' feature matrix X (items × the features they hold), for Adam's two products.

    Held dense while small (a doc's usual few hundred labels: BLAS does a step's products about
    four times faster than segment sums over the entries), else as its entries, so memory follows
    the labels' entries and not items × features.
    """

    def __init__(self, vecs: list, K: int) -> None:
        rows = np.concatenate([np.full(len(v[0]), i) for i, v in enumerate(vecs)]).astype(np.int64)
        vals = np.concatenate([v[1] for v in vecs]).astype(np.float64)
        self.feats, cols = np.unique(np.concatenate([v[0] for v in vecs]).astype(np.int64), return_inverse=True)
        self.n = len(vecs)
        self.dense = None
        if self.n * len(self.feats) <= DENSE_LIMIT:
            # float32, as the features are and the correction is kept: half the memory each product reads
            self.dense = np.zeros((self.n, len(self.feats)), dtype=np.float32)
            np.add.at(self.dense, (rows, cols), vals)
            return
        by_col = np.argsort(cols, kind="stable")             # entries grouped by feature, for X^T G
        self.col_starts = np.flatnonzero(np.r_[True, np.diff(cols[by_col]) != 0])
        self.rows_by_col, self.vals_by_col = rows[by_col], vals[by_col][:, None]
        self.row_starts = np.flatnonzero(np.r_[True, np.diff(rows) != 0]) if len(rows) else np.zeros(0, np.int64)
        self.row_ids = rows[self.row_starts] if len(rows) else rows
        self.cols, self.vals = cols, vals[:, None]
        self.entries = np.empty((len(rows), K))        # reused every step

    def add_product(self, Z: np.ndarray, D: np.ndarray) -> None:
        """Z += X @ D."""
        if self.dense is not None:
            Z += self.dense @ D.astype(np.float32)
        elif len(self.cols):
            Z[self.row_ids] += np.add.reduceat(np.multiply(D[self.cols], self.vals, out=self.entries),
                                               self.row_starts, axis=0)

    def transposed_times(self, G: np.ndarray) -> np.ndarray:
        """X^T @ G (features × columns)."""
        if self.dense is not None:
            return (self.dense.T @ G.astype(np.float32)).astype(np.float64)
        if not len(self.rows_by_col):
            return np.zeros((0, G.shape[1]))
        return np.add.reduceat(np.multiply(G[self.rows_by_col], self.vals_by_col, out=self.entries),
                               self.col_starts, axis=0)


def _taught_relevance(rel: np.ndarray, mode: str, near: np.ndarray | None = None) -> np.ndarray:
    """Which relevance columns the doc's labels can move: a head only when its labels hold both of its
    classes. Positives alone (a doc's anchors) cannot place a decision boundary; fitted to them, the
    head would raise every word the anchors share with the stream (``latency``, ``scheduling``) and call
    unrelated systems papers primary. Hierarchical heads: column 1 is related-vs-none, taught by ``near``
    (``rel`` less the labels that do not say how near an item is), column 0 primary-vs-adjacent among the
    related."""
    has = {c: bool((rel == c).any()) for c in range(_NR)}
    out = np.zeros(_NR, dtype=bool)
    if mode == "hierarchical":
        near = rel if near is None else near
        out[1] = bool((near == 0).any() or (near == 1).any()) and bool((near == 2).any())
        out[0] = has[0] and has[1]
    else:
        out[:] = sum(has.values()) >= 2
    return out


def fit_membership(base: Any, own: Sequence[Labelled], others: Sequence[Labelled], *, l2: float = 1.0,
                   steps: int = 300, lr: float = 0.1) -> tuple[dict[int, float] | None, float]:
    """Logistic regression of "this doc's item" (``own``) against the other docs' items (``others``):
    ``(feature → weight, bias)``. The bias starts at the doc's share of all anchored items, so an item
    like none of them is this doc's in that proportion; L2 keeps the weights small with few items.
    ``(None, 0.0)`` when one side has no items (a doc not anchored yet): nothing tells the docs apart."""
    items = [*own, *others]
    y = np.array([1.0] * len(own) + [0.0] * len(others))
    if not len(own) or not len(others):
        # no head, not an empty one: an empty head is P(this doc | related) = σ(0) = ½ for every item, and
        # a doc with anchors would lose half its relevance to a doc with none
        return None, 0.0
    vecs = base.vectorize_many([(i.title, i.text) for i in items])
    rows = np.concatenate([np.full(len(v[0]), k) for k, v in enumerate(vecs)]).astype(np.int64)
    idx = np.concatenate([v[0] for v in vecs]).astype(np.int64)
    val = np.concatenate([v[1] for v in vecs]).astype(np.float64)
    feats, cols = np.unique(idx, return_inverse=True)
    w = np.zeros(len(feats))
    prior = len(own) / len(items)
    b = float(np.log(prior / (1 - prior)))
    n = len(items)
    m1, m2, mb1, mb2 = np.zeros_like(w), np.zeros_like(w), 0.0, 0.0
    for step in range(1, steps + 1):
        u = b + np.bincount(rows, w[cols] * val, minlength=n)
        g = (1.0 / (1.0 + np.exp(-u)) - y) / n
        gw = np.bincount(cols, val * g[rows], minlength=len(feats)) + l2 * w / n
        gb = float(g.sum())
        m1 = 0.9 * m1 + 0.1 * gw
        m2 = 0.999 * m2 + 0.001 * gw * gw
        w -= lr * (m1 / (1 - 0.9 ** step)) / (np.sqrt(m2 / (1 - 0.999 ** step)) + 1e-8)
        mb1 = 0.9 * mb1 + 0.1 * gb
        mb2 = 0.999 * mb2 + 0.001 * gb * gb
        b -= lr * (mb1 / (1 - 0.9 ** step)) / (np.sqrt(mb2 / (1 - 0.999 ** step)) + 1e-8)
    keep = np.abs(w) > 1e-4
    return {int(feats[k]): float(w[k]) for k in np.flatnonzero(keep)}, b
