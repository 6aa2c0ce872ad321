"""``kb explain`` for the learned classifier: the features that decided, and the team labels that shaped it.

Every logit of the linear model is a sum of value × weight over the item's features, so the
explanation is exact: the words, word pairs, CamelCase parts, CJK character n-grams and
taxonomy-term features (``@kv-cache`` = "a term the taxonomy lists for kv-cache occurs") that
pushed the base decision; then, per knowledge doc, the doc's relevance, how the workspace's
other docs shared the item out (membership odds, or the doc's subject), the features whose
weights that doc's labels moved, and the doc's labelled items nearest to this one (same
TF-IDF vectors, cosine) — its neighbours among the anchors, cards and corrections.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kb.text import shortened

NEIGHBOURS = 3


def explain_lines(engine: Any, title: str, text: str, *, hints: Sequence[str] = (),
                  docs: Sequence[str] = (), key: str | None = None) -> list[str]:
    """The base model's reasons, then each doc's (``docs``: all of the engine's when empty)."""
    base = engine.base
    lines = base.explain(text, title=title, k=8)
    idx, val = base.vectorize(title, text)
    if any(base.vocab[j].startswith("@") for j in idx.tolist()):
        lines.append("  (@topic: a term data/taxonomy.toml lists for the topic occurs; @@context, @@adjacent, "
                     "@@off_domain: its term groups)")
    for d in docs or sorted(engine.docs):
        model = engine.docs.get(d)
        if model is None:
            continue
        r = model.classify(text, title=title, hints=hints, explain_terms=1)
        p = ", ".join(f"{k} {v:.2f}" for k, v in r.probabilities.items())
        offsets = [why for why in r.reasons if why.startswith("the model's offsets")]
        fixed = model.overrides.get(key) if key else None
        if fixed is not None:
            lines.append(f"doc {d}: relevance {fixed[0]} (a team correction, organized/labels/{d}.jsonl; the model "
                         f"alone: {r.relevance}, {p})")
        else:
            lines.append(f"doc {d}: relevance {r.relevance} ({p}); tags " + (", ".join(r.topics) or "-"))
            lines += [f"  {why}" for why in offsets]
        shared = model.sharing(idx, val)
        if shared is not None:
            lines.append("  " + sharing_line(d, *shared))
        column = 0 if r.relevance != "none" else 1
        moved = [(f, c) for f, c in model.moved(idx, val, column) if round(c, 2)]
        if moved:
            lines.append("  this doc's labels moved it: " + ", ".join(f"{f} {c:+.2f}" for f, c in moved))
        for sim, item in nearest_labels(model, idx, val):
            where = f" {item.section}" if item.section else ""
            lines.append(f"  label ({item.origin}{where}, {item.relevance or 'topics only'}) similarity {sim:.2f}: "
                         f"{item.id} {shortened(item.title, 70)}")
    return lines


def sharing_line(doc: str, member: float, factor: float, subject: str | None) -> str:
    """What the workspace's other docs did to this doc's relevance (``DocModel.sharing``)."""
    if subject:
        return (f"between the docs: its strongest tag, {subject}, is {doc}'s subject (a topic of at least half "
                f"its anchors): the item is {doc}'s whole")
    like = f"resembles {doc}'s anchors {'more' if member >= 0.5 else 'less'} than the other docs' (P {member:.2f})"
    if factor >= 1.0:
        return f"between the docs: it {like}: {doc} keeps it whole"
    return f"between the docs: it {like}: {doc}'s P(related) × {factor:.2f}"


def nearest_labels(model: Any, idx: Any, val: Any, k: int = NEIGHBOURS) -> list[tuple[float, Any]]:
    """The doc's ``k`` labelled items whose vectors are most similar to ``(idx, val)`` (cosine)."""
    if not model.items:
        return []
    import numpy as np
    base = model.base
    me = dict(zip(idx.tolist(), val.tolist()))
    norm = float(np.sqrt(sum(v * v for v in me.values()))) or 1.0
    scored = []
    for item, (i2, v2) in zip(model.items, base.vectorize_many([(i.title, i.text) for i in model.items])):
        other = {}
        for j, v in zip(i2.tolist(), v2.tolist()):
            other[j] = other.get(j, 0.0) + v
        n2 = float(np.sqrt(sum(v * v for v in other.values()))) or 1.0
        sim = sum(v * other.get(j, 0.0) for j, v in me.items()) / (norm * n2)
        if sim > 0:
            scored.append((round(sim, 3), item))
    scored.sort(key=lambda x: (-x[0], x[1].id))
    return scored[:k]
