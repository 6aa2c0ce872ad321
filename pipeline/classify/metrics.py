"""The figures of a classifier on labelled items, shared by ``kb eval classifier`` and ``kb train``.

Metrics (``metrics``) over items ``{id, title, text, topics, relevance}`` and predictions
``{relevance, topics}``:

* topic micro-F1 (and macro-F1), as in kb's old ``evaluate`` (scikit-learn's definitions);
* relevance accuracy and the confusion ``{gold: {predicted: n}}``;
* ``primary_recall``: share of gold-primary items predicted primary;
* ``negatives_kept_out``: share of gold-none items *not* predicted primary;
* ``correct_tag_rate``: share of items with gold topics whose predicted tags include one
  (``correct_tag_rate_primary``: the same over gold-primary items only);
* the same restricted to Chinese items (``zh``) when there are any.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["metrics", "format_metrics", "is_chinese", "LEVELS"]

LEVELS = ("primary", "adjacent", "none")
_ZH = re.compile(r"[\u3400-\u9fff]")


def is_chinese(item: Mapping[str, Any]) -> bool:
    return bool(_ZH.search((item.get("title") or "") + (item.get("text") or "")))


def _prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def metrics(items: Sequence[Mapping[str, Any]], preds: Sequence[Mapping[str, Any]],
            with_zh: bool = True) -> dict[str, Any]:
    """All figures for ``items`` (gold) against ``preds`` (same order)."""
    counts: dict[str, list[int]] = {}
    conf = {g: {p: 0 for p in LEVELS} for g in LEVELS}
    n = correct = 0
    prim = prim_hit = neg = neg_kept = tagged = tag_hit = ptag = ptag_hit = 0
    for it, pr in zip(items, preds):
        g_t, p_t = set(it.get("topics") or ()), set(pr.get("topics") or ())
        g_r, p_r = it.get("relevance", "none"), pr.get("relevance", "none")
        n += 1
        correct += g_r == p_r
        conf[g_r][p_r] += 1
        for t in g_t | p_t:
            c = counts.setdefault(t, [0, 0, 0])
            c[0 if (t in g_t and t in p_t) else 1 if t in p_t else 2] += 1
        if g_r == "primary":
            prim += 1
            prim_hit += p_r == "primary"
        if g_r == "none":
            neg += 1
            neg_kept += p_r != "primary"
        if g_t:
            tagged += 1
            tag_hit += bool(g_t & p_t)
            if g_r == "primary":
                ptag += 1
                ptag_hit += bool(g_t & p_t)
    tp, fp, fn = (sum(c[i] for c in counts.values()) for i in range(3))
    mp, mr, mf = _prf(tp, fp, fn)
    per_topic = {t: dict(zip(("precision", "recall", "f1"), _prf(*c)), support=c[0] + c[2], tp=c[0], fp=c[1],
                         fn=c[2]) for t, c in sorted(counts.items())}
    out: dict[str, Any] = {
        "n": n, "micro_f1": mf, "micro_precision": mp, "micro_recall": mr,
        "macro_f1": sum(v["f1"] for v in per_topic.values()) / len(per_topic) if per_topic else 0.0,
        "relevance_accuracy": correct / n if n else 0.0,
        "primary_recall": prim_hit / prim if prim else None, "n_primary": prim,
        "negatives_kept_out": neg_kept / neg if neg else None, "n_none": neg,
        "correct_tag_rate": tag_hit / tagged if tagged else None, "n_tagged": tagged,
        "correct_tag_rate_primary": ptag_hit / ptag if ptag else None, "n_tagged_primary": ptag,
        "relevance_confusion": conf, "per_topic": per_topic,
    }
    if with_zh:
        zh = [i for i, it in enumerate(items) if is_chinese(it)]
        if zh and len(zh) < n:
            out["zh"] = metrics([items[i] for i in zh], [preds[i] for i in zh], with_zh=False)
            en = [i for i in range(n) if i not in set(zh)]
            out["en"] = metrics([items[i] for i in en], [preds[i] for i in en], with_zh=False)
    return out


def _fmt(v: Any) -> str:
    return "-" if v is None else f"{v:.3f}"


def format_metrics(name: str, m: Mapping[str, Any]) -> str:
    """A metrics dict as a few readable lines."""
    lines = [f"{name}: n={m['n']}  topic micro-F1 {_fmt(m['micro_f1'])} (P {_fmt(m['micro_precision'])} "
             f"R {_fmt(m['micro_recall'])})  relevance acc {_fmt(m['relevance_accuracy'])}  "
             f"primary recall {_fmt(m['primary_recall'])} (n={m['n_primary']})  "
             f"negatives kept out {_fmt(m['negatives_kept_out'])} (n={m['n_none']})  "
             f"correct tag {_fmt(m['correct_tag_rate'])} (n={m['n_tagged']}; gold-primary "
             f"{_fmt(m['correct_tag_rate_primary'])})"]
    conf = m["relevance_confusion"]
    lines.append("  confusion (gold→pred p/a/n): " + "  ".join(
        f"{g[:3]}: {conf[g]['primary']}/{conf[g]['adjacent']}/{conf[g]['none']}" for g in LEVELS))
    for part in ("zh", "en"):
        if part in m:
            s = m[part]
            lines.append(f"  {part}: n={s['n']} micro-F1 {_fmt(s['micro_f1'])} relevance acc "
                         f"{_fmt(s['relevance_accuracy'])}")
    return "\n".join(lines)
