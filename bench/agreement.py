"""How far people agree with the labels the classifier is measured on: the ceiling of its figures.

    .venv/bin/python bench/agreement.py [--holdout tests/data/classifier_holdout.jsonl]
                                        [--model learned] [--model keyword] [--model-file F]
                                        [--corpus ../shared/corpus]

The holdout (68 items) was labelled by one person. Two more annotators labelled the same items
blind — the items' titles and texts, the written convention (tests/data/README.md), the topic
names and the dev set as worked examples; neither saw the holdout's labels nor the other's — and
their labels are ``tests/data/agreement/holdout_annotator_*.jsonl``. Every pair of label sets (and
each ``--model``'s predictions) is scored as ``kb eval classifier`` scores a model against the gold:
topic micro-F1 and relevance agreement, with the same metrics code. The floor printed beside the
annotators is issue 17's holdout floor (topic micro-F1 0.85, relevance 0.90).

With ``--corpus``, the same for the curated test titles: 240 papers of the corpus' test split (120 a
curator's section makes primary, 120 not), judged from their titles alone by two annotators who saw
neither the lists nor the label map (``curated_titles_annotator_*.jsonl``, keyed by the SHA-1 of the
paper's key, so no corpus title is copied here). The gold is ``data/label_map.toml``'s reading of the
curators' sections, as ``kb eval classifier --split test`` measures it; the floors beside them are the
issue's for curated titles (primary recall 0.90, negatives kept out of primary 0.95, a correct tag
0.85). A ``--model learned`` there must be a measured model (``--model-file``: the shipped one was
fitted on the test split).
Not part of the test suite; the last line is one JSON object ``{"name", "value", "unit", "floor", "ratio"}``.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.classify.metrics import metrics  # noqa: E402

FLOORS = {"topics": 0.85, "relevance": 0.90}


def _labels(path: Path) -> dict[str, dict]:
    return _labels_by(path, "id")


def _model(name: str, holdout: Path, model_file: str | None) -> dict[str, dict]:
    from pipeline.classify.labelling import eval_items
    res = eval_items(holdout, model=name, model_file=Path(model_file) if model_file else None)
    return {it["id"]: it for it in res["items"]}


def agreement(gold: dict[str, dict], other: dict[str, dict]) -> tuple[float, float]:
    """``(topic micro-F1, relevance agreement)`` of ``other`` against ``gold`` over gold's items."""
    ids = sorted(gold)
    m = metrics([gold[i] for i in ids], [other[i] for i in ids], with_zh=False)
    return m["micro_f1"], m["relevance_accuracy"]


def _curated_titles(corpus: Path) -> dict[str, dict]:
    """The annotated test papers' gold labels and titles, by the SHA-1 of their key."""
    from kb.resources import find_resource
    from pipeline.classify.training.corpus import build
    from pipeline.classify.training.fit import taxonomy_term_groups
    from pipeline.classify.training.labelmap import LabelMap
    _, topics = taxonomy_term_groups(find_resource("data/taxonomy.toml"))
    lm = LabelMap.load(find_resource("data/label_map.toml"), set(topics))
    return {hashlib.sha1(e.key.encode()).hexdigest(): {"id": e.key, "title": e.title, "text": "",
                                                       "relevance": e.relevance, "topics": list(e.topics)}
            for e in build(corpus, lm) if e.split == "test" and e.source == "curated"}


def titles_table(corpus: Path, models: list[str], model_file: str | None) -> None:
    """Annotators and models against the label map on the annotated curated test titles."""
    from pipeline.classify.evaluate import classifier_fn
    gold_by_hash = _curated_titles(corpus)
    people = {p.stem.replace("curated_titles_", ""): _labels_by(p, "key_sha1")
              for p in sorted((ROOT / "tests/data/agreement").glob("curated_titles_annotator_*.jsonl"))}
    keys = sorted(set.intersection(*(set(v) for v in people.values())) & set(gold_by_hash))
    gold = [gold_by_hash[k] for k in keys]
    rows = {name: [labels[k] for k in keys] for name, labels in people.items()}
    for name in models:
        if name == "keyword":
            from pipeline.classify.taxonomy import load_taxonomy
            fn = classifier_fn(load_taxonomy())
        else:
            from kb.resources import find_resource
            from pipeline.classify.engine import MODEL_FILE, load_base
            fn = classifier_fn(model=load_base(Path(model_file) if model_file else find_resource(MODEL_FILE)))
        rows[f"model:{name}"] = [{"relevance": c.relevance, "topics": [t.topic for t in c.tags]}
                                 for c in map(fn, gold)]
    print(f"\ncurated test titles ({len(gold)}, {sum(g['relevance'] == 'primary' for g in gold)} primary by the "
          "label map), judged from the title alone")
    print(f"{'who':<24} {'primary recall':>15} {'kept out':>9} {'relevance':>10} {'a correct tag':>14}")
    for name, preds in rows.items():
        m = metrics(gold, preds, with_zh=False)
        print(f"{name:<24} {m['primary_recall']:>15.3f} {m['negatives_kept_out']:>9.3f} "
              f"{m['relevance_accuracy']:>10.3f} {m['correct_tag_rate_primary']:>14.3f}")
    print(f"{'issue 17 floor':<24} {0.90:>15.3f} {0.95:>9.3f} {'':>10} {0.85:>14.3f}")


def _labels_by(path: Path, key: str) -> dict[str, dict]:
    return {d[key]: d for d in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if d}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--holdout", default=str(ROOT / "tests/data/classifier_holdout.jsonl"))
    ap.add_argument("--model", action="append", default=[], choices=("learned", "keyword"))
    ap.add_argument("--model-file", help="a trained model file for --model learned (default: the shipped one)")
    ap.add_argument("--corpus", help="the training corpus: also the curated test titles' agreement")
    args = ap.parse_args()
    sets = {"holdout": _labels(Path(args.holdout))}
    for p in sorted((ROOT / "tests/data/agreement").glob("holdout_annotator_*.jsonl")):
        sets[p.stem.replace("holdout_", "")] = _labels(p)
    for name in args.model:
        sets[f"model:{name}"] = _model(name, Path(args.holdout), args.model_file)
    people = [k for k in sets if not k.startswith("model:")]
    print(f"{'pair':<48} {'topic micro-F1':>15} {'relevance':>10}")
    worst = (1.0, 1.0)
    for a, b in itertools.combinations(sets, 2):
        if a.startswith("model:") and b.startswith("model:"):
            continue
        f1, rel = agreement(sets[a], sets[b])
        print(f"{a + ' vs ' + b:<48} {f1:>15.3f} {rel:>10.3f}")
        if a == "holdout" and b in people:
            worst = (min(worst[0], f1), min(worst[1], rel))
    print(f"{'issue 17 floor (a model against the holdout)':<48} {FLOORS['topics']:>15.3f} {FLOORS['relevance']:>10.3f}")
    if args.corpus:
        titles_table(Path(args.corpus), args.model, args.model_file)
    print(json.dumps({"name": "holdout annotator agreement (least, topics)", "value": round(worst[0], 3),
                      "unit": "micro-F1", "floor": FLOORS["topics"], "ratio": round(worst[0] / FLOORS["topics"], 3)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
