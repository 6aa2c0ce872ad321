"""Score a classifier on hand-labelled items. Pure functions, no I/O but ``load_labelled``.

An item is ``{"id", "title", "text", "topics": [...], "relevance": "primary"|"adjacent"|"none"}``
(optionally ``primary_category`` and ``hints``). ``evaluate(items, classify_fn)`` calls
``classify_fn(item)`` for each, which returns a ``Classification`` (or anything with
``.tags``/``.topics`` and ``.relevance``, or a dict with ``"topics"`` and ``"relevance"``).

Definitions (the usual multi-label ones, as in scikit-learn with ``zero_division=0``):

* per topic: precision = tp/(tp+fp), recall = tp/(tp+fn), F1 their harmonic mean,
  support = the number of items labelled with the topic; 0 where a denominator is 0;
* ``micro_f1``: F1 of the tp/fp/fn summed over all topics;
* ``macro_f1``: the mean of per-topic F1 over every topic that is labelled or predicted
  at least once (a topic only ever predicted counts, with F1 0);
* ``relevance_accuracy``: share of items whose relevance matches; ``relevance_confusion``:
  ``{gold: {predicted: count}}`` over primary/adjacent/none;
* ``primary_recall`` (gold-primary items predicted primary), ``negatives_kept_out`` (gold-none
  items *not* predicted primary), ``correct_tag_rate`` (items with gold topics whose predicted
  tags include one); ``None`` where nothing counts;
* ``zh`` / ``en``: ``n``, micro-F1 and relevance accuracy over the Chinese and the other items;
* ``items``: per item its ``id``, predicted ``relevance`` and ``topics``, and the ``scores`` (the
  relevance probabilities and the topic scores, for the learned model; the keyword scorer's
  evidence and topic scores for it).
"""
from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from pipeline.classify.metrics import LEVELS, is_chinese, metrics

__all__ = ["evaluate", "format_eval_table", "load_labelled", "classifier_fn", "is_chinese", "LEVELS"]



_FIELDS = {"id": str, "title": str, "text": str, "topics": list, "relevance": str}
_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", int: "a number", float: "a number",
               bool: "true or false", type(None): "null"}


def _json_type(value: Any) -> str:
    """What a JSON value is, in JSON's words (a row's author wrote JSON, not Python)."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def load_labelled(path: str | Path, topics: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Read a JSON-lines file of labelled items (blank lines skipped; an editor's byte-order mark is no
    part of the first line); a malformed line is one ConfigError naming the file and the line. A line
    without ``relevance`` is such a line (read as ``none`` it would be a negative nobody labelled), and
    with ``topics`` (the classifier's), so is a topic outside them: no classifier can predict it, so a
    typo would lower every figure that counts it."""
    items = []
    try:
        fh = open(path, encoding="utf-8-sig")
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    seen: dict[str, int] = {}
    with fh:
        try:
            for n, line in enumerate(fh, 1):
                if line.strip():
                    item = _item(path, n, line, topics)
                    if (first := seen.setdefault(item["id"], n)) != n:   # counted twice, it would weigh double
                        raise ConfigError(f"{path}:{n}: id {item['id']!r} is already on line {first}")
                    items.append(item)
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: not UTF-8 text") from None
    if not items:   # figures over nothing would read as a result
        raise ConfigError(f"{path}: no labelled items (one JSON object per line: id, title, text, topics, relevance)")
    return items


def _item(path: str | Path, n: int, line: str, topics: Collection[str] | None = None) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except (json.JSONDecodeError, RecursionError) as e:
        raise ConfigError(f"{path}:{n}: not JSON ({getattr(e, 'msg', 'nested too deeply')})") from None
    if not isinstance(item, dict):
        raise ConfigError(f"{path}:{n}: expected an object {{id, title, text, topics, relevance}}, "
                          f"got {_json_type(item)}")
    for key, typ in _FIELDS.items():
        if key in item and not isinstance(item[key], typ):
            raise ConfigError(f"{path}:{n}: {key} must be {_json_type(typ())}, not {_json_type(item[key])}")
    if not all(isinstance(t, str) for t in item.get("topics", [])):
        raise ConfigError(f"{path}:{n}: topics must be a list of topic slugs")
    if topics is not None and (unknown := [t for t in item.get("topics", []) if t not in topics]):
        raise ConfigError(f"{path}:{n}: topic {unknown[0]!r} is no topic of the classifier's taxonomy")
    if not str(item.get("id") or "").strip():   # training and splits key items by it
        raise ConfigError(f"{path}:{n}: no id: every item needs one (its arXiv ID, post URL or own key)")
    levels = f"{', '.join(LEVELS[:-1])} or {LEVELS[-1]}"
    if "relevance" not in item:   # counted as "none", a forgotten label would be a gold negative no one gave
        raise ConfigError(f"{path}:{n}: no relevance: every item needs one ({levels})")
    if item["relevance"] not in LEVELS:
        raise ConfigError(f"{path}:{n}: relevance must be {levels}, not {item['relevance']!r}")
    if not (item.get("title") or "").strip() and not (item.get("text") or "").strip():
        raise ConfigError(f"{path}:{n}: no title and no text: nothing to classify")
    if "topics" not in item and item["relevance"] != "none":   # read as [], it would be a gold "no topic"
        raise ConfigError(f"{path}:{n}: no topics: a {item['relevance']} item needs its list ([] for none)")
    return item


def classifier_fn(taxonomy=None, model: Any = None) -> Callable[[Mapping[str, Any]], Any]:
    """``classify_fn`` for ``evaluate``: the learned ``model`` (a ``pipeline.classify.model.Model``)
    when given, else the keyword scorer over ``taxonomy``."""
    if model is not None:
        def learned(item: Mapping[str, Any]):
            return model.classify(item.get("text", ""), title=item.get("title", ""), hints=item.get("hints") or ())
        return learned
    from pipeline.classify.classifier import classify

    def run(item: Mapping[str, Any]):
        return classify(item.get("text", ""), title=item.get("title", ""),
                        primary_category=item.get("primary_category"),
                        hints=item.get("hints") or (), taxonomy=taxonomy)
    return run


def _scores(result: Any) -> dict[str, Any]:
    """What the classifier scored an item: relevance probabilities and topic scores (learned), or the
    keyword scorer's inference evidence and topic scores."""
    if isinstance(result, Mapping):
        return dict(result.get("scores") or {})
    tags = {t.topic: getattr(t, "score", None) for t in getattr(result, "tags", ())}
    if hasattr(result, "probabilities"):
        return {"relevance": dict(result.probabilities), "topics": {**dict(getattr(result, "topic_scores", {})),
                                                                    **tags}}
    return {"inference": getattr(result, "inference_score", None), "topics": tags}


def _prediction(result: Any) -> tuple[set[str], str]:
    if isinstance(result, Mapping):
        return set(result.get("topics", ())), str(result.get("relevance", "none"))
    topics = getattr(result, "topics", None)
    if topics is None:
        topics = [t.topic for t in result.tags]
    return set(topics), str(result.relevance)


def evaluate(items: Iterable[Mapping[str, Any]],
             classify_fn: Callable[[Mapping[str, Any]], Any]) -> dict[str, Any]:
    """Per-topic P/R/F1, micro/macro F1, relevance accuracy and confusion, the Chinese and other
    items apart (``pipeline.classify.metrics``), the misses, and each item's prediction."""
    gold, preds, errors, per_item = [], [], [], []
    for item in items:
        gold_topics, gold_rel = set(item.get("topics", ())), item.get("relevance", "none")
        result = classify_fn(item)
        pred_topics, pred_rel = _prediction(result)
        gold.append(item)
        preds.append({"topics": pred_topics, "relevance": pred_rel})
        per_item.append({"id": item.get("id"), "relevance": pred_rel, "topics": sorted(pred_topics),
                         "scores": _scores(result)})
        if gold_topics != pred_topics or gold_rel != pred_rel:
            errors.append({
                "id": item.get("id"), "relevance": [gold_rel, pred_rel],
                "missed": sorted(gold_topics - pred_topics), "extra": sorted(pred_topics - gold_topics),
            })
    out = metrics(gold, preds, with_zh=False)
    for lang in ("zh", "en"):   # always both, even when one language has no items
        idx = [k for k, it in enumerate(gold) if is_chinese(it) == (lang == "zh")]
        part = metrics([gold[k] for k in idx], [preds[k] for k in idx], with_zh=False)
        out[lang] = {"n": part["n"], "relevance_accuracy": part["relevance_accuracy"] if idx else None,
                     "micro_f1": part["micro_f1"]}
    return {**out, "errors": errors, "items": per_item}


def format_eval_table(result: Mapping[str, Any]) -> str:
    """The result of ``evaluate`` as a plain-text report."""
    lines = [f"{'topic':<22} {'prec':>6} {'rec':>6} {'f1':>6} {'support':>8}"]
    for t, m in result["per_topic"].items():
        lines.append(f"{t:<22} {m['precision']:>6.3f} {m['recall']:>6.3f} {m['f1']:>6.3f} {m['support']:>8d}")
    lines.append("")
    lines.append(f"items {result['n']}   micro-F1 {result['micro_f1']:.3f} "
                 f"(P {result['micro_precision']:.3f}, R {result['micro_recall']:.3f})   "
                 f"macro-F1 {result['macro_f1']:.3f}   relevance accuracy {result['relevance_accuracy']:.3f}")
    extra = [(k, result.get(k)) for k in ("primary_recall", "negatives_kept_out", "correct_tag_rate")]
    if any(v is not None for _, v in extra):
        lines.append("   ".join(f"{k.replace('_', ' ')} {'-' if v is None else f'{v:.3f}'}" for k, v in extra))
    for part in ("zh", "en"):
        p = result.get(part)
        if p and p["n"]:
            lines.append(f"{part}: items {p['n']}   micro-F1 {p['micro_f1']:.3f}   "
                         f"relevance accuracy {p['relevance_accuracy']:.3f}")
    lines.append("")
    levels = list(result["relevance_confusion"])
    lines.append("relevance (rows gold, columns predicted)")
    lines.append(f"{'':<10}" + "".join(f"{p:>10}" for p in levels))
    for g in levels:
        row = result["relevance_confusion"][g]
        lines.append(f"{g:<10}" + "".join(f"{row.get(p, 0):>10d}" for p in levels))
    return "\n".join(lines)
