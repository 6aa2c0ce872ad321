"""kb's learned classifier at run time: load the shipped model, classify, explain.

Runtime dependencies: numpy and this package's ``features`` (no scikit-learn).

    from model import Model
    m = Model.load("data/classifier_model.npz")
    r = m.classify(abstract, title=title)
    r.relevance            # "primary" | "adjacent" | "none"
    r.tags                 # [Tag(topic, score, terms)], best first; score = probability
    print("\\n".join(r.explain()))

The model is linear over TF-IDF features (``features.py``): relevance heads (primary/adjacent/none,
relative to the *inference* knowledge doc; ``rel_mode`` in the file: two binary heads, "related at
all" and "primary given related", in the shipped model, or one softmax head) and one logistic head
per taxonomy topic. A prediction is therefore a sum of per-feature contributions
(value × weight), which is what ``explain`` reports: the words, n-grams and taxonomy-term
features that pushed the decision, with their contributions.

Decision rules (thresholds are learned on a validation split and stored in the model):
relevance = argmax of the class log-probabilities plus ``rel_offsets``; a text judged
``none`` keeps no tags (kb's contract); otherwise each topic whose probability reaches its
threshold is a tag (at most ``max_tags``), and a ``primary`` text gets at least its best
topic. Per-doc adaptation and active learning live in ``adapt.py`` (re-exported here).

File format (``.npz``, numpy only, no pickle): ``vocab`` (UTF-8, one feature per line),
``idf`` (float32, one per feature), ``W`` (float16, rows for the first ``n_weighted``
features, columns = 3 relevance classes then the topics), ``b`` (float32 biases) and
``meta`` (UTF-8 JSON: topics, thresholds, taxonomy terms, provenance).
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np

from kb.records import Tag
from pipeline.classify.features import (
    FEATURE_VERSION,
    N_BLOCKS,
    TermIndex,
    block_weights,
    extract,
    keyword_verdict,
    tfidf,
)

__all__ = ["Model", "Classification", "Tag", "LEVELS", "ModelError", "decide", "decide_many",
           "relevance_probabilities"]

LEVELS = ("primary", "adjacent", "none")
_NR = len(LEVELS)


class ModelError(ValueError):
    """The model file is missing, damaged, or made for other features."""


@dataclass
class Classification:
    relevance: str
    tags: list[Tag]
    probabilities: dict[str, float] = field(default_factory=dict)     # relevance classes
    topic_scores: dict[str, float] = field(default_factory=dict)      # every topic
    reasons: list[str] = field(default_factory=list)
    model_id: str = ""

    @property
    def topics(self) -> list[str]:
        return [t.topic for t in self.tags]

    def explain(self) -> list[str]:
        """Why this result, one line per decision (the shape ``kb explain`` prints)."""
        p = ", ".join(f"{k} {v:.2f}" for k, v in self.probabilities.items())
        lines = [f"relevance: {self.relevance} ({p})"]
        lines += [f"  because {r}" for r in self.reasons]
        for t in self.tags:
            lines.append(f"tag {t.topic} {t.score:.2f}: " + ", ".join(t.terms))
        near = [(k, v) for k, v in sorted(self.topic_scores.items(), key=lambda kv: -kv[1])
                if k not in self.topics and v >= 0.1][:3]
        for k, v in near:
            lines.append(f"not tagged {k} {v:.2f}")
        if self.model_id:
            lines.append(f"model {self.model_id}")
        return lines


def relevance_probabilities(zr: np.ndarray, mode: str = "softmax") -> np.ndarray:
    """P(primary), P(adjacent), P(none) from the three relevance logits.

    ``softmax``: one multinomial head. ``hierarchical``: two binary heads, ``zr[1]`` for
    "related to inference at all" and ``zr[0]`` for "primary, given related" (``zr[2]``
    unused): P(primary) = σ₁σ₀, P(adjacent) = σ₁(1 − σ₀), P(none) = 1 − σ₁.
    """
    if mode == "hierarchical":
        s0, s1 = 1.0 / (1.0 + np.exp(-zr[0])), 1.0 / (1.0 + np.exp(-zr[1]))
        return np.array([s1 * s0, s1 * (1.0 - s0), 1.0 - s1])
    p = np.exp(zr - zr.max())
    return p / p.sum()


def decide(z: np.ndarray, topics: Sequence[str], thresholds: np.ndarray, rel_offsets: np.ndarray,
           max_tags: int = 4, hints: Iterable[str] = (), hint_logit: float = 1.0,
           rel_mode: str = "softmax") -> tuple[str, np.ndarray, np.ndarray, list[int]]:
    """The decision rule on one item's logits (3 relevance, then one per topic).

    Returns ``(relevance, relevance probabilities, topic probabilities, tag indices)``:
    relevance = argmax(log p + ``rel_offsets``); ``none`` → no tags; else topics whose
    probability reaches their threshold, best first, at most ``max_tags``; ``primary``
    gets at least its best topic. Shared by every linear model in the benchmark.
    """
    pr = relevance_probabilities(np.asarray(z[:_NR], dtype=np.float64), rel_mode)
    zt = np.array(z[_NR:], dtype=np.float64)
    for h in hints or ():
        if h in topics:
            zt[list(topics).index(h)] += hint_logit
    pt = 1.0 / (1.0 + np.exp(-zt))
    rel = LEVELS[int(np.argmax(np.log(pr + 1e-12) + rel_offsets))]
    tags: list[int] = []
    if rel != "none":
        order = np.argsort(-pt, kind="stable")
        tags = [int(i) for i in order if pt[i] >= thresholds[i]][:max_tags]
        if not tags and rel == "primary":
            tags = [int(order[0])]
    return rel, pr, pt, tags


def decide_many(Z: np.ndarray, topics: Sequence[str], thresholds: np.ndarray, offsets: np.ndarray,
                bare: np.ndarray, offsets_bare: np.ndarray, max_tags: int = 4,
                hints: Sequence[Iterable[str]] | None = None, hint_logit: float = 1.0,
                rel_mode: str = "softmax") -> list[tuple[str, list[tuple[str, float]]]]:
    """``decide`` for a batch of logits at once: ``[(relevance, [(topic, probability), …])]``.

    The same rule, vectorised (the classify stage's hot path): ``bare`` marks items that are a
    bare title, judged with ``offsets_bare``.
    """
    n = len(Z)
    if not n:
        return []
    Z = np.asarray(Z, dtype=np.float64)
    zr = Z[:, :_NR]
    if rel_mode == "hierarchical":
        s0, s1 = 1.0 / (1.0 + np.exp(-zr[:, 0])), 1.0 / (1.0 + np.exp(-zr[:, 1]))
        pr = np.stack([s1 * s0, s1 * (1.0 - s0), 1.0 - s1], axis=1)
    else:
        pr = np.exp(zr - zr.max(axis=1, keepdims=True))
        pr /= pr.sum(axis=1, keepdims=True)
    off = np.where(bare[:, None], np.asarray(offsets_bare)[None, :], np.asarray(offsets)[None, :])
    rel = np.argmax(np.log(pr + 1e-12) + off, axis=1)
    zt = Z[:, _NR:].copy()
    if hints:
        col = {t: i for i, t in enumerate(topics)}
        for i, hs in enumerate(hints):
            for h in hs or ():
                if h in col:
                    zt[i, col[h]] += hint_logit
    pt = 1.0 / (1.0 + np.exp(-zt))
    order = np.argsort(-pt, axis=1, kind="stable")
    passed = np.take_along_axis(pt >= np.asarray(thresholds)[None, :], order, axis=1)
    out = []
    for i in range(n):
        r = int(rel[i])
        if r == 2:
            out.append(("none", []))
            continue
        tags = order[i][passed[i]][:max_tags]
        if not len(tags) and r == 0:
            tags = order[i][:1]
        out.append((LEVELS[r], [(topics[int(j)], round(float(pt[i, j]), 4)) for j in tags]))
    return out


class Model:
    """A trained linear model over ``features.extract`` features."""

    def __init__(self, vocab: Sequence[str], idf: np.ndarray, W: np.ndarray, b: np.ndarray,
                 meta: dict[str, Any]) -> None:
        if meta.get("feature_version") != FEATURE_VERSION:
            raise ModelError(f"model was trained with features v{meta.get('feature_version')}, "
                             f"this code makes v{FEATURE_VERSION}: retrain it")
        self.vocab = list(vocab)
        self.index = dict(zip(self.vocab, range(len(self.vocab))))
        self.idf = np.asarray(idf, dtype=np.float32)
        self.W = np.asarray(W, dtype=np.float32)     # (n_weighted, 3 + n_topics)
        self.W_T = np.ascontiguousarray(self.W.T)      # one contiguous row per column, for batches
        self.b = np.asarray(b, dtype=np.float32)
        self.meta = meta
        self.topics: list[str] = list(meta["topics"])
        self.n_weighted = self.W.shape[0]
        self.thresholds = np.asarray([meta["thresholds"].get(t, 0.5) for t in self.topics],
                                     dtype=np.float32)
        self.rel_offsets = np.asarray(meta.get("rel_offsets", [0.0] * _NR), dtype=np.float32)
        self.max_tags = int(meta.get("max_tags", 4))
        self.hint_logit = float(meta.get("hint_logit", 1.0))
        self.rel_mode = str(meta.get("rel_mode", "softmax"))
        # offsets for items that are a bare title (no abstract/text): tuned separately
        self.rel_offsets_title = np.asarray(meta.get("rel_offsets_title") or self.rel_offsets,
                                            dtype=np.float32)
        self.terms = TermIndex(meta.get("term_groups", {}))
        self.block_weights = tuple(meta.get("block_weights", (1.0, 1.0, 1.0)))
        # the keyword scorer's verdict as features (features.keyword_verdict), over this taxonomy
        self.keyword_block = bool(meta.get("keyword_block"))
        self.taxonomy: Any = None
        self.id = str(meta.get("model_id", ""))
        if self.W.shape[1] != _NR + len(self.topics) or self.b.shape[0] != self.W.shape[1]:
            raise ModelError("model arrays do not match its topic list")

    # ------------------------------------------------------------------ file
    @classmethod
    def load(cls, path: str | Path) -> Model:
        """Load a model file written by ``save`` (numpy only; refuses pickled content)."""
        import zipfile
        if Path(path).is_file() and not zipfile.is_zipfile(path):   # numpy would take it for a pickle and say so
            raise ModelError(f"{path}: not a kb classifier model (kb train writes an .npz file)")
        try:
            with np.load(path, allow_pickle=False) as z:
                missing = [k for k in ("vocab", "meta", "idf", "W", "b") if k not in z.files]
                if missing:   # numpy's own words were "'vocab is not a file in the archive'", quotes and all
                    raise ModelError(f"{path}: not a kb classifier model: it has no {missing[0]} array")
                vocab = bytes(z["vocab"]).decode("utf-8").split("\n")
                meta = json.loads(bytes(z["meta"]).decode("utf-8"))
                return cls(vocab, z["idf"], z["W"], z["b"], meta)
        except (OSError, KeyError, ValueError) as e:
            if isinstance(e, ModelError):
                raise
            raise ModelError(f"{path}: not a kb classifier model: {e}") from None

    def save(self, path: str | Path) -> None:
        """Write the model (compressed npz; weights as float16)."""
        blob = lambda s: np.frombuffer(s.encode("utf-8"), dtype=np.uint8)  # noqa: E731
        np.savez_compressed(path, vocab=blob("\n".join(self.vocab)), idf=self.idf.astype(np.float32),
                            W=self.W.astype(np.float16), b=self.b.astype(np.float32),
                            meta=blob(json.dumps(self.meta, ensure_ascii=False, sort_keys=True)))

    # ------------------------------------------------------------------ scoring
    def vectorize(self, title: str = "", text: str = "") -> tuple[np.ndarray, np.ndarray]:
        """The item's TF-IDF vector: ``(feature indices, values)``."""
        verdict = self.verdicts([(title, text)])
        idx, val = tfidf(extract(title, text, self.terms, verdict[0] if verdict else None), self.index, self.idf,
                         self.block_weights)
        return idx, val.astype(np.float32)

    def logits(self, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        """Raw scores: 3 relevance logits, then one logit per topic."""
        keep = idx < self.n_weighted
        return self.b + val[keep] @ self.W[idx[keep]]

    def logits_many(self, vectors: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """Scores for many items at once, from their vectors (one gather and one segmented sum)."""
        if not vectors:
            return np.tile(self.b, (0, 1))
        rows = np.repeat(np.arange(len(vectors)), [len(v[0]) for v in vectors])
        return self.logits_flat(len(vectors), rows, np.concatenate([v[0] for v in vectors]),
                                np.concatenate([v[1] for v in vectors]))

    def logits_flat(self, n: int, rows: np.ndarray, idx: np.ndarray, val: np.ndarray) -> np.ndarray:
        """Scores of ``n`` items from their flat vectors (entry ``k`` of item ``rows[k]``: feature
        ``idx[k]`` with value ``val[k]``; rows ascending)."""
        out = np.tile(self.b, (n, 1))
        keep = idx < self.n_weighted
        rows, idx, val = rows[keep], idx[keep], val[keep]
        if len(rows):   # one weighted bincount per column: faster than a gather of whole rows
            for c, col in enumerate(self.W_T):
                out[:, c] += np.bincount(rows, col[idx] * val, minlength=n)
        return out

    def vectorize_many(self, pairs: Sequence[tuple[str, str]], scale: Sequence[float] | None = None
                       ) -> list[tuple[np.ndarray, np.ndarray]]:
        """``vectorize`` for many ``(title, text)`` pairs; ``scale`` multiplies the block weights (``flat_vectors``)."""
        rows, idx, val = self.flat_vectors(pairs, scale)
        cuts = np.searchsorted(rows, np.arange(1, len(pairs)))
        return list(zip(np.split(idx, cuts), np.split(val, cuts)))

    def flat_vectors(self, pairs: Sequence[tuple[str, str]], scale: Sequence[float] | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The TF-IDF vectors of many ``(title, text)`` pairs as flat ``(rows, idx, val)`` arrays.
        ``scale`` (one factor per block) multiplies the model's block weights: a caller that compares
        items with each other rather than scoring them may weigh the blocks its own way (sections).

        Batched so the per-item cost is the feature extraction alone: one dict look-up per feature
        (``map`` over the vocabulary's ``get``), then numpy over the whole batch for the TF-IDF, the
        per-block norms and the scaling. A feature in two blocks of an item stays two entries
        (scores are sums, so this changes nothing but the entry count).
        """
        keys: list[str] = []
        counts: list[float] = []
        lens: list[int] = []
        verdicts = self.verdicts(pairs)
        for k, (title, text) in enumerate(pairs):
            for block in extract(title, text, self.terms, verdicts[k] if verdicts else None):
                keys.extend(block)
                counts.extend(block.values())
                lens.append(len(block))
        n = len(pairs)
        if not keys:
            return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float32)
        j = np.fromiter(map(self.index.get, keys, repeat(-1, len(keys))), dtype=np.int64, count=len(keys))
        seg = np.repeat(np.arange(N_BLOCKS * n), lens)      # item * N_BLOCKS + block
        known = j >= 0
        j, seg = j[known], seg[known]
        v = (1.0 + np.log(np.asarray(counts, dtype=np.float64)[known])) * self.idf[j]
        norm = np.sqrt(np.bincount(seg, v * v, minlength=N_BLOCKS * n))
        weights = block_weights(self.block_weights) * (block_weights(scale) if scale is not None else 1.0)
        weights = np.tile(weights, n)
        scale = np.divide(weights, norm, out=np.zeros(N_BLOCKS * n), where=norm > 0)
        v *= scale[seg]
        return seg // N_BLOCKS, j, v.astype(np.float32)

    def verdicts(self, pairs: Sequence[tuple[str, str]]) -> list[dict[str, float]] | None:
        """The keyword scorer's verdicts (``features.keyword_verdict``) when this model reads them."""
        if not self.keyword_block:
            return None
        from pipeline.classify.classifier import classify
        tax = self.taxonomy
        if tax is None:
            from pipeline.classify.taxonomy import default_taxonomy
            tax = self.taxonomy = default_taxonomy()
        return [keyword_verdict(classify(text, title=title, taxonomy=tax)) for title, text in pairs]

    def decide(self, z: np.ndarray, hints: Iterable[str] = (), title_only: bool = False
               ) -> tuple[str, np.ndarray, np.ndarray, list[int]]:
        """Relevance, class probabilities, topic probabilities and tag indices from logits
        (``title_only``: the item is a bare title, judged with the title-only offsets)."""
        return decide(z, self.topics, self.thresholds,
                      self.rel_offsets_title if title_only else self.rel_offsets,
                      self.max_tags, hints, self.hint_logit, self.rel_mode)

    def decide_many(self, Z: np.ndarray, bare: np.ndarray, hints: Sequence[Iterable[str]] | None = None
                    ) -> list[tuple[str, list[tuple[str, float]]]]:
        """Relevance and tags for a batch of logits (``bare``: which items are a bare title)."""
        return decide_many(Z, self.topics, self.thresholds, self.rel_offsets, bare, self.rel_offsets_title,
                           self.max_tags, hints, self.hint_logit, self.rel_mode)

    # ------------------------------------------------------------------ the kb contract
    def classify(self, text: str, *, title: str = "", primary_category: str | None = None,
                 hints: Iterable[str] = (), taxonomy: Any = None, explain_terms: int = 5
                 ) -> Classification:
        """Tag ``text`` with topics and judge its relevance (same call as the old classifier).

        ``primary_category`` and ``taxonomy`` are accepted for compatibility; the learned
        model does not use them (the taxonomy's terms are already features, frozen at
        training time). ``hints`` (a source's configured topics) add ``hint_logit`` to
        those topics' scores.
        """
        idx, val = self.vectorize(title, text)
        z = self.logits(idx, val)
        return self._result(z, idx, val, hints, explain_terms, not (text or "").strip())

    def classify_many(self, items: Iterable[Mapping[str, Any]], explain_terms: int = 0
                      ) -> list[Classification]:
        """``classify`` for many ``{title, text, hints?}`` items; faster per item."""
        items = list(items)
        vecs = self.vectorize_many([(it.get("title", ""), it.get("text", "")) for it in items])
        Z = self.logits_many(vecs)
        return [self._result(Z[i], *vecs[i], items[i].get("hints") or (), explain_terms,
                             not (items[i].get("text") or "").strip()) for i in range(len(items))]

    def _result(self, z: np.ndarray, idx: np.ndarray, val: np.ndarray, hints: Iterable[str],
                explain_terms: int, title_only: bool = False) -> Classification:
        rel, pr, pt, tag_ix = self.decide(z, hints, title_only)
        tags = [Tag(self.topics[i], round(float(pt[i]), 4),
                    tuple(f for f, _ in self.contributions(idx, val, _NR + i, explain_terms))
                    if explain_terms else ()) for i in tag_ix]
        reasons = []
        if explain_terms:
            reasons.append(self._reason(z, idx, val, rel, explain_terms))
            likeliest = LEVELS[int(np.argmax(pr))]
            if likeliest != rel:   # the probabilities printed are before the offsets that decided
                off = self.rel_offsets_title if title_only else self.rel_offsets
                shown = ", ".join(f"{k} {float(o):+.2f}" for k, o in zip(LEVELS, off))
                reasons.append(f"the model's offsets ({shown}; tuned on held-out data) make {rel} win over "
                               f"the likeliest, {likeliest}")
        return Classification(rel, tags, {k: round(float(p), 4) for k, p in zip(LEVELS, pr)},
                              {t: round(float(p), 4) for t, p in zip(self.topics, pt)},
                              reasons, self.id)

    # ------------------------------------------------------------------ explanations
    def _reason(self, z: np.ndarray, idx: np.ndarray, val: np.ndarray, rel: str, k: int) -> str:
        """The relevance decision as the features that pushed it, with their contributions."""
        r = LEVELS.index(rel)
        if self.rel_mode == "hierarchical":
            # column 1 decides related/none, column 0 primary/adjacent among related
            col, sign, what = (1, -1.0, "not related") if rel == "none" else \
                (0, 1.0 if rel == "primary" else -1.0, "primary" if rel == "primary" else "related, not primary")
            top = self.contributions(idx, val, col, k, sign=sign)
            return f"{what} (logit {z[col]:+.2f}): " + ", ".join(f"{f} {w:+.2f}" for f, w in top)
        other = max((c for c in range(_NR) if c != r), key=lambda c: z[c])
        top = self.contributions(idx, val, r, k, versus=other)
        return (f"{rel} over {LEVELS[other]} by {z[r] - z[other]:+.2f}: "
                + ", ".join(f"{f} {w:+.2f}" for f, w in top))

    def contributions(self, idx: np.ndarray, val: np.ndarray, column: int, k: int = 10,
                      versus: int | None = None, sign: float = 1.0) -> list[tuple[str, float]]:
        """The ``k`` features that raised ``column``'s logit most (minus ``versus``'s);
        ``sign=-1``: those that lowered it most (reported as positive pushes)."""
        keep = idx < self.n_weighted
        i, v = idx[keep], val[keep]
        w = self.W[i, column] if versus is None else self.W[i, column] - self.W[i, versus]
        c = sign * v * w
        order = np.argsort(-c, kind="stable")[:k]
        return [(self.vocab[int(i[j])], round(float(c[j]), 3)) for j in order if c[j] > 0]

    def explain(self, text: str, *, title: str = "", k: int = 8) -> list[str]:
        """``kb explain``: the decision, then the top features for and against it."""
        r = self.classify(text, title=title, explain_terms=k)
        idx, val = self.vectorize(title, text)
        lines = r.explain()
        for t in r.tags[:2]:
            col = _NR + self.topics.index(t.topic)
            against = self.contributions(idx, val, col, k, sign=-1.0)
            if against:
                lines.append(f"against {t.topic}: " + ", ".join(f"{f} {-w:+.2f}" for f, w in against))
        return lines
