"""Stage-2 stacking: align the corpus-trained heads with the project's own labels.

Training-time only (scikit-learn through ``train.fit_heads``).

Why: the corpus labels come from curators' *sections* (one topic per section, whole
sections called "primary"), while kb's own labelled items (tests/data dev) tag every topic a
text touches and draw the primary/adjacent line kb's way. Stage 1 (the TF-IDF heads) learns
the vocabulary from ~16k corpus papers; stage 2 learns, from items labelled the project's
way, how to read stage 1's 23 logits together with the taxonomy-term features
(``@slug`` …): e.g. "a kv-cache logit of 2 plus two ``@long-context`` hits → also
long-context".

Stage 2 is linear in stage 1's logits and in features of the same vector, so it *folds
back* into one linear model (``fold``): W' = W·A_z, plus A_t on the taxonomy-feature rows;
b' = b·A_z + c. The shipped file stays one weight matrix, and explanations stay per-feature.

Its training rows: the val split (curated papers the stage-1 model did not see) and the dev
items with *out-of-fold* stage-1 logits (``train.dev_out_of_fold``), so stage 2 never learns
from logits of items stage 1 was fitted on. Its own thresholds are tuned on stage-2
out-of-fold scores (``oof``).
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["tax_names", "inputs", "fit", "oof", "fold"]


def tax_names(vocab: Sequence[str]) -> list[str]:
    """The taxonomy features (names starting with ``@``), in a fixed (sorted) order."""
    return sorted(f for f in vocab if f.startswith("@"))


def inputs(model: Any, ex: Sequence[Any], Z1: np.ndarray) -> np.ndarray:
    """Stage-2 rows: stage-1 logits, then the item's taxonomy-feature values."""
    cols = {model.index[f]: n for n, f in enumerate(tax_names(model.vocab))}
    T = np.zeros((len(ex), len(cols)))
    for r, e in enumerate(ex):
        idx, val = model.vectorize(e.title, e.text)
        for j, v in zip(idx.tolist(), val.tolist()):
            c = cols.get(j)
            if c is not None:
                T[r, c] = v
    return np.hstack([Z1, T])


def fit(S: np.ndarray, ex: Sequence[Any], topics: Sequence[str], C: float, rel_mode: str
        ) -> tuple[np.ndarray, np.ndarray]:
    """Stage-2 heads on rows ``S``: ``(A, c)`` with A of shape (len(S[0]), 3 + topics)."""
    from pipeline.classify.training.fit import fit_heads
    return fit_heads(S, ex, topics, C_rel=C, C_topic=C, rel_mode=rel_mode)


def oof(S: np.ndarray, ex: Sequence[Any], topics: Sequence[str], C: float, rel_mode: str,
        k: int = 5) -> np.ndarray:
    """Stage-2 out-of-fold logits (k folds by item key), for tuning the decision thresholds."""
    fold_of = np.array([int(hashlib.sha1(e.key.encode()).hexdigest(), 16) % k for e in ex])
    Z = np.zeros((len(ex), 3 + len(topics)))
    for f in range(k):
        tr = np.flatnonzero(fold_of != f)
        te = np.flatnonzero(fold_of == f)
        if len({ex[i].relevance for i in tr}) < 3:
            raise ValueError("stage 2 needs all three relevance levels in every fold")
        A, c = fit(S[tr], [ex[i] for i in tr], topics, C, rel_mode)
        Z[te] = S[te] @ A + c
    return Z


def fold(parts: dict[str, Any], A: np.ndarray, c: np.ndarray, tax_names: Sequence[str],
         columns: slice = slice(0, 3)) -> dict[str, Any]:
    """Fold stage 2 into stage 1's fitted parts (full vocabulary, before pruning).

    Only ``columns`` are replaced — by default the three relevance columns: on the
    benchmark, stage 2 helped relevance but not topics (the topic heads of stage 1 already
    read the taxonomy features, and stage 2 made tags fit the dev set at the expense of
    the curated papers), so topics stay as stage 1 learned them.
    """
    K = parts["W"].shape[1]
    W, b = parts["W"].copy(), parts["b"].copy()
    W[:, columns] = parts["W"] @ A[:K, columns]
    b[columns] = parts["b"] @ A[:K, columns] + c[columns]
    pos = {f: i for i, f in enumerate(parts["vocab"])}
    for g, name in enumerate(tax_names):
        j = pos.get(name)
        if j is not None:
            W[j, columns] += A[K + g, columns]
    return {**parts, "W": W, "b": b}
