"""The figures kb train and bench/eval_models.py print: the Chinese and other items apart, and their lines."""
from __future__ import annotations

from pipeline.classify.metrics import format_metrics, metrics

GOLD = [
    {"id": "a", "title": "推测解码", "text": "", "topics": ["speculative-decoding"], "relevance": "primary"},
    {"id": "b", "title": "KV 缓存卸载", "text": "", "topics": ["kv-cache"], "relevance": "adjacent"},
    {"id": "c", "title": "Paged attention", "text": "", "topics": ["kv-cache"], "relevance": "primary"},
    {"id": "d", "title": "Image segmentation", "text": "", "topics": [], "relevance": "none"},
]
PRED = [
    {"topics": ["speculative-decoding"], "relevance": "primary"},     # zh: right
    {"topics": ["kv-cache", "long-context"], "relevance": "none"},     # zh: a topic too many, relevance wrong
    {"topics": ["kv-cache"], "relevance": "primary"},                 # en: right
    {"topics": [], "relevance": "primary"},                            # en: a negative let in
]


def test_chinese_and_other_items_are_measured_apart():
    m = metrics(GOLD, PRED)
    assert (m["n"], m["relevance_accuracy"], m["primary_recall"], m["negatives_kept_out"]) == (4, 0.5, 1.0, 0.0)
    assert (m["zh"]["n"], m["zh"]["relevance_accuracy"], m["en"]["n"], m["en"]["relevance_accuracy"]) == (2, 0.5, 2, 0.5)
    assert round(m["zh"]["micro_f1"], 3) == 0.8 and m["en"]["micro_f1"] == 1.0      # zh: tp 2, fp 1, fn 0
    assert "zh" not in m["zh"] and "zh" not in metrics(GOLD[2:], PRED[2:])        # no split of one language


def test_the_figures_read_as_lines():
    lines = format_metrics("holdout", metrics(GOLD, PRED)).splitlines()
    # every item: tp 3 (a, b, c), fp 1 (long-context), fn 0
    assert lines[0] == ("holdout: n=4  topic micro-F1 0.857 (P 0.750 R 1.000)  relevance acc 0.500  "
                               "primary recall 1.000 (n=2)  negatives kept out 0.000 (n=1)  correct tag 1.000 (n=3; "
                               "gold-primary 1.000)")
    assert lines[1] == "  confusion (gold→pred p/a/n): pri: 2/0/0  adj: 0/0/1  non: 1/0/0"
    assert lines[2:] == ["  zh: n=2 micro-F1 0.800 relevance acc 0.500", "  en: n=2 micro-F1 1.000 relevance acc 0.500"]
    none_counted = format_metrics("x", metrics(GOLD[:1], PRED[:1])).splitlines()[0]
    assert "negatives kept out - (n=0)" in none_counted          # a figure over nothing is "-", not 0
