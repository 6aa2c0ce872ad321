"""Decision thresholds of a trained model, tuned on validation logits. Training-time only.

* ``tune_rules``: relevance offsets (a grid over the primary/adjacent shifts of the class
  log-probabilities; the best weighted accuracy among the shifts that keep the curated
  papers' primary recall and negatives-kept-out at their floors) and per-topic tag
  thresholds (best weighted F1 on the relevant items); "negatives kept out" holds for the
  curated negatives and for the systems papers without LLMs, each set on its own;
* ``tune_by_regime``: the same, with separate relevance offsets for bare titles and for
  items with a text (a bare title carries less evidence, so it gets its own calibration). The
  offsets for texts follow kb's own labelled items (the dev set, out of fold) when there are
  enough of them: kb's line between primary, adjacent and none is the one a briefing draws, and
  a curator's section is broader (a list's whole "Quantization" chapter is its primary, training
  papers included). Bare titles, which kb's labelled items hardly hold, keep the curated floors;
* ``tune``: applies them to a ``Model`` (and its metadata), in place.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.classify.model import Model, relevance_probabilities
from pipeline.classify.training.corpus import CURATED, Example
from pipeline.classify.training.labelmap import LEVELS

__all__ = ["tune", "tune_by_regime", "tune_rules", "MIN_KB_ITEMS"]


def tune(model: Model, ex: Sequence[Example], Z: np.ndarray | None = None, kb_sources: Sequence[str] = ("dev",),
         **floors: float) -> None:
    """Set the model's decision thresholds from validation examples (``tune_rules``), in
    place. ``Z``: their logits, if already computed (e.g. out-of-fold for dev items)."""
    if Z is None:
        Z = model.logits_many([model.vectorize(e.title, e.text) for e in ex])
    offsets, title_only, thr = tune_by_regime(Z, ex, model.topics, model.rel_mode, kb_sources, **floors)
    model.rel_offsets_title = np.array(title_only, dtype=np.float32)
    model.meta["rel_offsets_title"] = list(title_only)
    model.rel_offsets = np.array(offsets, dtype=np.float32)
    model.thresholds = np.array([thr[t] for t in model.topics], dtype=np.float32)
    model.meta["rel_offsets"] = list(offsets)
    model.meta["thresholds"] = thr


MIN_KB_ITEMS = 100      # kb-labelled texts (all three levels) needed to draw the texts' line on them alone


def tune_by_regime(Z: np.ndarray, ex: Sequence[Example], topics: Sequence[str], rel_mode: str = "softmax",
                   kb_sources: Sequence[str] = ("dev",), **floors: float
                   ) -> tuple[list[float], list[float], dict[str, float]]:
    """``tune_rules`` per input regime: ``(offsets with text, offsets for bare titles,
    thresholds)``. A bare title carries less evidence than a title with an abstract or a
    note, so the two get their own relevance calibration; tag thresholds are shared. The texts'
    offsets are the best accuracy on kb's own labelled texts (``kb_sources``: the dev set, and with
    ``kb train --own-oof`` kb's labels of corpus papers; no floors) when there are ``MIN_KB_ITEMS`` of
    them with all three levels, else the curated floors'."""
    bare = np.array([not e.text for e in ex])
    offsets, thr = tune_rules(Z, ex, topics, rel_mode, **floors)
    title_only = offsets
    if bare.any() and (~bare).any():
        offsets, _ = tune_rules(Z[~bare], [e for e, b in zip(ex, bare) if not b], topics, rel_mode, **floors)
        title_only, _ = tune_rules(Z[bare], [e for e, b in zip(ex, bare) if b], topics, rel_mode, **floors)
    # texts: kb's line where kb's labelled texts can draw it, whether or not bare titles are tuned too
    kb_texts = np.array([e.source in kb_sources for e in ex]) & ~bare
    own = [e for e, k in zip(ex, kb_texts) if k]
    if len(own) >= MIN_KB_ITEMS and len({e.relevance for e in own}) == len(LEVELS):
        offsets, _ = tune_rules(Z[kb_texts], own, topics, rel_mode)
    return offsets, title_only, thr


def tune_rules(Z: np.ndarray, ex: Sequence[Example], topics: Sequence[str], rel_mode: str = "softmax",
               min_primary_recall: float = 0.0, min_negatives_kept: float = 0.0
               ) -> tuple[list[float], dict[str, float]]:
    """Relevance offsets and per-topic tag thresholds from logits ``Z`` of validation items.

    Offsets: a grid over the primary/adjacent shifts; the best weighted accuracy among the
    shifts that keep the curated items' primary recall ≥ ``min_primary_recall`` and negatives
    out of primary ≥ ``min_negatives_kept`` — the curated negatives and the systems papers
    without LLMs (``source="systems"``), each set — (or, if none does, the closest).
    Thresholds: best weighted F1 per topic on the relevant items."""
    w = np.array([e.weight for e in ex])
    y = np.array([LEVELS.index(e.relevance) for e in ex])
    logp = np.log(np.stack([relevance_probabilities(z[:3], rel_mode) for z in Z]) + 1e-12)
    # the floors kb asks: the curated papers' primary recall, and negatives kept out of primary
    # both for the curated negatives (LLM papers of other fields) and for the systems papers
    # without LLMs (corpus.py) — each set on its own, so neither hides behind the other
    src = np.array([e.source for e in ex])
    cur = np.isin(src, CURATED)
    cur_p = cur & (y == 0)
    neg_sets = [m for m in (cur & (y == 2), (src == "systems") & (y == 2)) if m.any()]
    best = (-1.0, -1.0, (0.0, 0.0))
    for op in np.arange(-1.5, 1.51, 0.1):
        for oa in np.arange(-1.5, 1.51, 0.1):
            pred = np.argmax(logp + np.array([op, oa, 0.0]), axis=1)
            acc = float((w * (pred == y)).sum() / w.sum())
            rec = float((pred[cur_p] == 0).mean()) if cur_p.any() else 1.0
            kept = min((float((pred[m] != 0).mean()) for m in neg_sets), default=1.0)
            # lexicographic: first how far the floors are met (capped at 1), then accuracy
            floors = min(1.0, rec / min_primary_recall if min_primary_recall else 1.0,
                         kept / min_negatives_kept if min_negatives_kept else 1.0)
            if (floors, acc) > best[:2]:
                best = (floors, acc, (round(float(op), 2), round(float(oa), 2)))
    offsets = [*best[2], 0.0]
    relevant = y != LEVELS.index("none")
    P = 1.0 / (1.0 + np.exp(-Z[relevant, 3:]))
    wr = w[relevant]
    thr = {}
    for j, t in enumerate(topics):
        gold = np.array([t in e.topics for e, r in zip(ex, relevant) if r])
        if gold.sum() < 5:
            thr[t] = 0.5                          # too few to tune: a neutral threshold
            continue
        def f1(c: float, j: int = j, gold: np.ndarray = gold) -> float:
            hit = P[:, j] >= c
            tp = (wr * (hit & gold)).sum()
            return 2 * tp / max(1e-9, (wr * hit).sum() + (wr * gold).sum())
        thr[t] = round(float(max((f1(c), c) for c in np.arange(0.15, 0.81, 0.05))[1]), 2)
    return offsets, thr
