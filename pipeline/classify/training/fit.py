"""Fitting kb's classifier: vocabulary, TF-IDF matrices, the linear heads. Training-time only.

scikit-learn and scipy (the ``kb[train]`` extra) are imported inside the functions that need
them, so the runtime (``pipeline.classify.model``) never pulls them in.
"""
from __future__ import annotations

import math
import time
import tomllib
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.classify.features import feature_names, tfidf
from pipeline.classify.model import Model
from pipeline.classify.training.corpus import Example
from pipeline.classify.training.labelmap import LEVELS

__all__ = ["taxonomy_term_groups", "fit", "fit_heads", "make_model"]


# ---------------------------------------------------------------------------- taxonomy
def taxonomy_term_groups(path: str | Path) -> tuple[dict[str, list[str]], list[str]]:
    """Feature groups from the taxonomy: ``@slug`` (its terms), ``@slug^`` (decisive terms,
    weight ≥ 2.5), ``@!slug`` (look-alikes), ``@@context``/``@@adjacent``/``@@off_domain``
    (and ``…!`` for their negatives). Also returns the topic slugs, in taxonomy order."""
    raw = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    groups: dict[str, list[str]] = {}
    for slug, t in raw["topics"].items():
        terms = {**t.get("terms", {}), **t.get("title_terms", {})}
        groups[f"@{slug}"] = sorted(terms)
        groups[f"@{slug}^"] = sorted(k for k, w in terms.items() if w >= 2.5)
        groups[f"@!{slug}"] = sorted(t.get("negative", {}))
    for g in ("context", "adjacent", "off_domain"):
        groups[f"@@{g}"] = sorted(raw.get(g, {}).get("terms", {}))
        groups[f"@@{g}!"] = sorted(raw.get(g, {}).get("negative", {}))
    return {k: v for k, v in groups.items() if v}, list(raw["topics"])


# ---------------------------------------------------------------------------- matrices
def _vocab(feats: Sequence[Any], min_df: int, always: Sequence[str]) -> tuple[list[str], np.ndarray]:
    df = Counter(f for d in feats for f in feature_names(d))
    vocab = sorted(f for f, c in df.items() if c >= min_df or f in always)
    n = len(feats)
    # smooth idf, as scikit-learn's TfidfVectorizer: ln((1 + n) / (1 + df)) + 1
    idf = np.array([math.log((1 + n) / (1 + df[f])) + 1.0 for f in vocab], dtype=np.float32)
    return vocab, idf


def _matrix(feats: Sequence[Any], index: dict[str, int], idf: np.ndarray,
            block_weights: Sequence[float] = (1.0, 1.0, 1.0)):
    from scipy.sparse import csr_matrix
    indptr, indices, data = [0], [], []
    for d in feats:
        i, v = tfidf(d, index, idf, block_weights)    # the very function the runtime uses
        indices.append(i)
        data.append(v)
        indptr.append(indptr[-1] + len(i))
    return csr_matrix((np.concatenate(data), np.concatenate(indices), np.array(indptr, dtype=np.int64)),
                      shape=(len(feats), len(index)))


def _rel_weights(ex: Sequence[Example]) -> np.ndarray:
    """Sample weights with the three relevance classes balanced (after source weights).

    The systems papers without LLMs (``source="systems"``, corpus.py) come on top of the balance:
    the classes are balanced on the other examples and a systems paper weighs what a curated
    negative of the same weight does. Counted in the balance, they would take their share of the
    ``none`` class from the curated negatives (LLM papers of other fields) and let those through."""
    w = np.array([e.weight for e in ex], dtype=np.float64)
    y = np.array([e.relevance for e in ex])
    extra = np.array([e.source == "systems" for e in ex], dtype=bool)
    if not (~extra).any():
        return w
    # every factor from the weights as given: rescaling one class must not move the next one's
    total = w[~extra].sum()
    scale = {}
    for r in LEVELS:
        m = y == r
        if m.any():
            counted = m & ~extra if (m & ~extra).any() else m
            scale[r] = total / (len(LEVELS) * w[counted].sum())
    for r, f in scale.items():
        w[y == r] *= f
    return w


# ---------------------------------------------------------------------------- fitting
def fit_heads(X, examples: Sequence[Example], topics: Sequence[str], *, C_rel: float,
              C_topic: float, rel_mode: str = "softmax") -> tuple[np.ndarray, np.ndarray]:
    """The relevance head (softmax) and one logistic head per topic on any feature matrix
    ``X`` (sparse TF-IDF here, dense embeddings in the benchmark): ``(W, b)``, columns =
    primary/adjacent/none then the topics."""
    from scipy.sparse import issparse
    from sklearn.linear_model import LogisticRegression
    y = np.array([LEVELS.index(e.relevance) for e in examples])
    W = np.zeros((X.shape[1], len(LEVELS) + len(topics)), dtype=np.float64)
    b = np.zeros(W.shape[1])
    sw = _rel_weights(examples)
    if rel_mode == "hierarchical":
        related = y != LEVELS.index("none")
        a = LogisticRegression(C=C_rel, max_iter=3000, tol=1e-4).fit(X, related.astype(int), sample_weight=sw)
        p = LogisticRegression(C=C_rel, max_iter=3000, tol=1e-4).fit(
            X[related], (y[related] == 0).astype(int), sample_weight=sw[related])
        W[:, 1], b[1] = a.coef_[0], a.intercept_[0]
        W[:, 0], b[0] = p.coef_[0], p.intercept_[0]
    else:
        rel = LogisticRegression(C=C_rel, max_iter=3000, tol=1e-4)
        rel.fit(X, y, sample_weight=sw)
        W[:, :3], b[:3] = rel.coef_.T, rel.intercept_
    # topic heads see relevant items only: P(topic | text, relevant); "none" keeps no tags
    rel_mask = y != LEVELS.index("none")
    Xr = X[rel_mask]
    wr = np.array([e.weight for e in examples])[rel_mask]
    for j, t in enumerate(topics):
        yt = np.array([t in e.topics for e, m in zip(examples, rel_mask) if m], dtype=int)
        if yt.sum() < 2:
            b[3 + j] = -8.0                      # never seen: never tagged
            continue
        pos = wr[yt == 1].sum()
        sw = wr * np.where(yt == 1, min(10.0, math.sqrt((wr.sum() - pos) / pos)), 1.0)
        if issparse(X):     # liblinear's dual solver: ~20× faster than lbfgs here (n ≪ features);
            # it shuffles the rows (from numpy's global state when unseeded: two runs gave two models)
            head = LogisticRegression(C=C_topic, solver="liblinear", dual=True, tol=1e-4,
                                      intercept_scaling=10.0, max_iter=3000, random_state=0)
        else:               # dense, few columns (embeddings, stage 2): lbfgs is the fast one
            head = LogisticRegression(C=C_topic, max_iter=3000, tol=1e-4)
        head.fit(Xr, yt, sample_weight=sw)
        W[:, 3 + j], b[3 + j] = head.coef_[0], head.intercept_[0]
    return W, b


def fit(examples: Sequence[Example], feats: Sequence[Any], topics: Sequence[str],
        term_groups: dict[str, list[str]], *, min_df: int, C_rel: float, C_topic: float,
        block_weights: Sequence[float] = (1.0, 1.0, 1.0), rel_mode: str = "softmax", log=print,
        **_: Any) -> dict[str, Any]:
    """Vocabulary, TF-IDF and the heads on ``examples``; returns the raw parts of a model."""
    t0 = time.time()
    vocab, idf = _vocab(feats, min_df, sorted(term_groups))
    index = {f: i for i, f in enumerate(vocab)}
    X = _matrix(feats, index, idf, block_weights)
    W, b = fit_heads(X, examples, topics, C_rel=C_rel, C_topic=C_topic, rel_mode=rel_mode)
    log(f"  fitted {len(examples)} examples × {len(vocab)} features in {time.time() - t0:.0f}s")
    return {"vocab": vocab, "idf": idf, "W": W, "b": b}


def make_model(parts: dict[str, Any], meta: dict[str, Any], prune: float) -> Model:
    """A ``Model`` from fitted parts: features with negligible weights keep only their IDF
    (they still count in the vector's norm, so scores are unchanged to float16 precision)."""
    W, vocab, idf = parts["W"], parts["vocab"], parts["idf"]
    strength = np.abs(W).max(axis=1) * idf
    keep = strength >= prune
    order = np.concatenate([np.flatnonzero(keep), np.flatnonzero(~keep)])
    return Model([vocab[i] for i in order], idf[order], W[keep], parts["b"], meta)


