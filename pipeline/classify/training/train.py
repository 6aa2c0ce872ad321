"""Train kb's classifier from a corpus directory — one command, reproducible.

    kb train --corpus ../shared/corpus --dev tests/data/classifier_dev.jsonl \\
        --holdout tests/data/classifier_holdout.jsonl --out data/classifier_model.npz
    python -m pipeline.classify.training.train …  --measured-out M.npz   # also the measured model

(scikit-learn and scipy are needed here only — the ``kb[train]`` extra.)

What it does, in order:

1. ``corpus.build``: curated lists → labels through ``label_map.toml``, abstracts joined by
   arXiv ID, deduplicated by paper, split train/val/test by a hash of the paper's ID *before*
   anything is fitted; the holdout file's papers are removed from the corpus.
2. Features (``features.extract``) → vocabulary (document frequency ≥ ``--min-df`` in the
   training examples) → TF-IDF.
3. Two relevance heads and one logistic head per topic (scikit-learn), a stage 2 over the
   relevance logits and the taxonomy and keyword-verdict features (``stack``), then the decision
   thresholds tuned on the validation split: per-topic tag thresholds (best F1) and relevance
   offsets (best weighted accuracy).
4. Measured on the test split (curated titles/abstracts held out by ID), dev and holdout, and
   printed.
5. The shipped model is refitted with the same settings on every trainable paper (train + val
   + test) plus dev — never holdout — and written with its ``LICENCES.md`` and ``provenance.json``
   beside it. ``--final-fit train`` ships the measured model instead.

Deterministic: same corpus and arguments → same model bytes (seeded liblinear, lbfgs, fixed orderings).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.classify.evaluate import load_labelled
from pipeline.classify.features import FEATURE_VERSION, TermIndex, extract, keyword_verdict
from pipeline.classify.metrics import format_metrics, metrics
from pipeline.classify.model import Model
from pipeline.classify.training import provenance, stack
from pipeline.classify.training.corpus import Example, build, summarise
from pipeline.classify.training.fit import fit, make_model, taxonomy_term_groups
from pipeline.classify.training.labelmap import LEVELS, LabelMap
from pipeline.classify.training.tuning import tune

__all__ = ["train", "cross_validate", "dev_out_of_fold", "kb_sources", "out_of_fold_rows", "beside", "main"]

# Chosen on dev (out of fold) and the val split — see REPORT.md for the comparison.
DEFAULTS = dict(min_df=2, C_rel=4.0, C_topic=8.0, max_tags=4, prune=1e-3, dev_folds=3,
                block_weights=(1.0, 1.0, 1.0), dev_weight=10.0, random_weight=0.3,
                rel_mode="hierarchical", stack=True, C_stack=1.0, keyword_block=True, stack_topics=False,
                min_primary_recall=0.9, min_negatives_kept=0.95, own_oof=False)


# kb's labels of corpus papers never trained on (the label map's [abstracts.held_out]), by how each was drawn
HELD_OUT_SETS = {
    "kb's held-out labels: a random sample of unlisted papers": lambda e: e.source == "heldout-random",
    "kb's held-out labels: papers the base model was least sure of": lambda e: e.source == "heldout-uncertain",
    "kb's held-out labels: papers of no stratum": lambda e: e.source == "heldout-other",
}


def features_of(ex: Sequence[Example], groups: dict[str, list[str]], taxonomy: str | Path,
                keyword_block: bool) -> list[Any]:
    """Every example's feature blocks: words, taxonomy-term hits and, with ``keyword_block``, the keyword
    scorer's verdict over ``taxonomy`` (the run-time model computes the same, with the same taxonomy)."""
    terms = TermIndex(groups)
    if not keyword_block:
        return [extract(e.title, e.text, terms) for e in ex]
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    tax = load_taxonomy(base=taxonomy)
    return [extract(e.title, e.text, terms, keyword_verdict(classify(e.text, title=e.title, taxonomy=tax)))
            for e in ex]


def dev_out_of_fold(ex: Sequence[Example], feats: Sequence[Any], topics, groups, hp, k: int,
                    log=print) -> tuple[list[int], np.ndarray]:
    """Logits for every dev item from a model that did not see it (k folds over dev): lets
    the thresholds follow the project's own labelling conventions without tuning on
    items the model was fitted to. With ``hp["own_oof"]`` kb's labels of corpus papers
    (``source="labelled"``) are folded over too, and their logits join stage 2 and the texts' line."""
    dev, base = out_of_fold_rows(ex, hp)
    fold = {i: int(hashlib.sha1(ex[i].key.encode()).hexdigest(), 16) % k for i in dev}
    Z = np.zeros((len(dev), 3 + len(topics)), dtype=np.float32)
    for f in range(k):
        tr = base + [i for i in dev if fold[i] != f]
        parts = fit([ex[i] for i in tr], [feats[i] for i in tr], topics, groups, log=log, **hp)
        m = make_model(parts, {"feature_version": FEATURE_VERSION, "topics": topics, "term_groups": groups,
                           "thresholds": {}, "block_weights": list(hp["block_weights"]),
                           "rel_mode": hp["rel_mode"], "keyword_block": hp["keyword_block"]}, hp["prune"])
        held = [n for n, i in enumerate(dev) if fold[i] == f]
        Z[held] = m.logits_many([m.vectorize(ex[dev[n]].title, ex[dev[n]].text) for n in held])
    return dev, Z


def kb_sources(hp: dict[str, Any]) -> tuple[str, ...]:
    """The sources whose labels are kb's own line, out of fold for stage 2 and the texts' offsets."""
    return ("dev", "labelled") if hp.get("own_oof") else ("dev",)


def out_of_fold_rows(ex: Sequence[Example], hp: dict[str, Any]) -> tuple[list[int], list[int]]:
    """``(folded, always trained on)``: the rows of kb's own labels (``kb_sources``) that get out-of-fold
    logits, and the train split's other rows, which every fold is fitted on."""
    own = kb_sources(hp)
    folded = [i for i, e in enumerate(ex) if e.split == "dev" or (e.trainable and e.source in own)]
    base = [i for i, e in enumerate(ex) if e.trainable and e.split == "train" and e.source not in own]
    return folded, base


# ---------------------------------------------------------------------------- the run
def _predict(model: Model, ex: Sequence[Example]) -> tuple[list[dict], list[dict]]:
    items = [{"id": e.id, "title": e.title, "text": e.text, "topics": list(e.topics),
              "relevance": e.relevance} for e in ex]
    preds = [{"relevance": r.relevance, "topics": r.topics} for r in model.classify_many(items)]
    return items, preds


def train(corpus: str | Path, label_map: str | Path, taxonomy: str | Path, *,
          dev: str | Path | None = None, holdout: str | Path | None = None,
          licences: str = "default", final_fit: str = "all", log=print,
          **hp: Any) -> tuple[Model, dict[str, Any]]:
    """The whole run; returns the shipped model and a report (figures, counts, licences)."""
    hp = {**DEFAULTS, **hp}
    groups, topics = taxonomy_term_groups(taxonomy)
    lm = LabelMap.load(label_map, set(topics)).with_policy(licences)
    # labelled files as kb eval reads them: a byte-order mark dropped, a bad line or a topic the taxonomy
    # lacks named by file and line before anything is fitted
    dev_items = load_labelled(dev, set(topics)) if dev else []
    ho_items = load_labelled(holdout, set(topics)) if holdout else []
    ex = build(corpus, lm, dev=dev_items, holdout=ho_items, dev_weight=hp["dev_weight"],
               random_weight=hp["random_weight"])
    log(summarise(ex))
    feats = features_of(ex, groups, taxonomy, hp["keyword_block"])
    meta = {"feature_version": FEATURE_VERSION, "topics": topics, "levels": list(LEVELS),
            "term_groups": groups, "max_tags": hp["max_tags"], "hint_logit": 1.0,
            "thresholds": {}, "hyperparameters": hp, "licence_policy": licences,
            "block_weights": list(hp["block_weights"]), "rel_mode": hp["rel_mode"],
            "keyword_block": hp["keyword_block"]}
    if lm.held_out is not None:   # what `kb eval --source heldout` checks: these labels were kept out of every fit
        meta["held_out_sha256"] = lm.held_out.digest()

    def rows(pred):
        return [i for i, e in enumerate(ex) if pred(e)]
    tr = rows(lambda e: e.trainable and e.split in ("train", "dev"))
    va = rows(lambda e: e.trainable and e.split == "val")
    log("measured model: train split + dev")
    parts = fit([ex[i] for i in tr], [feats[i] for i in tr], topics, groups, log=log, **hp)
    measured = make_model(parts, {**meta, "model_id": "measured"}, hp["prune"])
    va_ex = [ex[i] for i in va]
    Zva = measured.logits_many([measured.vectorize(e.title, e.text) for e in va_ex])
    if hp["dev_folds"] and dev_items:
        log(f"dev out-of-fold logits ({hp['dev_folds']} folds) for tuning")
        dev_ix, Zdev = dev_out_of_fold(ex, feats, topics, groups, hp, hp["dev_folds"], log=log)
        va_ex += [ex[i] for i in dev_ix]
        Zva = np.vstack([Zva, Zdev])
    floors = {"min_primary_recall": hp["min_primary_recall"], "min_negatives_kept": hp["min_negatives_kept"]}
    stage2 = None
    if hp["stack"] and len(va_ex) >= 100 and len({e.relevance for e in va_ex}) == 3:
        # stage 2 (stack.py): learn from val + dev-out-of-fold logits how to read stage 1
        S = stack.inputs(measured, va_ex, Zva)
        A, c = stack.fit(S, va_ex, topics, hp["C_stack"], hp["rel_mode"])
        stage2 = (A, c, stack.tax_names(measured.vocab))
        Z2 = Zva.copy()
        cols = slice(0, None) if hp["stack_topics"] else slice(0, 3)
        Z2[:, cols] = stack.oof(S, va_ex, topics, hp["C_stack"], hp["rel_mode"])[:, cols]
        measured = make_model(stack.fold(parts, *stage2, columns=cols), {**meta, "model_id": "measured"},
                              hp["prune"])
        tune(measured, va_ex, Z2, kb_sources(hp), **floors)
    else:
        tune(measured, va_ex, Zva, kb_sources(hp), **floors)
    log(f"  tuned: offsets {measured.meta['rel_offsets']}, thresholds {measured.meta['thresholds']}")
    report: dict[str, Any] = {"counts": summarise(ex), "figures": {}}
    if hp["dev_folds"] and dev_items:
        # dev, out of fold (stage 1 and stage 2 never saw the item; thresholds tuned on these)
        Zd = (Z2 if stage2 is not None else Zva)[-len(dev_ix):]
        dev_ex = [ex[i] for i in dev_ix]
        Zd = Zd[[k for k, e in enumerate(dev_ex) if e.split == "dev"]]   # the dev set's figure, not kb's corpus labels
        dev_ex = [e for e in dev_ex if e.split == "dev"]
        preds = []
        for z, e in zip(Zd, dev_ex):
            rel, _, _, tags = measured.decide(z, title_only=not e.text)
            preds.append({"relevance": rel, "topics": [topics[i] for i in tags]})
        m = metrics([{"title": e.title, "text": e.text, "topics": e.topics, "relevance": e.relevance}
                     for e in dev_ex], preds)
        report["figures"]["dev (out of fold)"] = m
        log(format_metrics("dev (out of fold)", m))
    sets = {
        "test (curated titles, held out by ID)": lambda e: e.split == "test" and e.source == "curated",
        "test (abstracts, held out by ID)": lambda e: e.split == "test" and e.source == "abstract",
        "test (systems abstracts without LLMs)": lambda e: e.split == "test" and e.source == "systems"
        and bool(e.text),
        "test (systems titles without LLMs)": lambda e: e.split == "test" and e.source == "systems"
        and not e.text,
        "test (random-sample abstracts)": lambda e: e.split == "test" and e.source == "random",
        "eval-only lists (copyleft, never trained on)": lambda e: not e.trainable and e.source == "curated",
        "xlite-dev Awesome-LLM-Inference, test split": lambda e: e.split == "test" and e.source == "curated"
        and "xlite-dev__Awesome-LLM-Inference" in e.lists,
        "holdout (tests/data)": lambda e: e.split == "holdout",
        **HELD_OUT_SETS,
    }
    for name, pred in sets.items():
        sub = [e for e in ex if pred(e)]
        if sub:
            m = metrics(*_predict(measured, sub))
            report["figures"][name] = m
            log(format_metrics(name, m))
    report["measured_model"] = measured
    if final_fit == "train":
        shipped = measured
    else:
        log("shipped model: every trainable paper + dev (holdout never)")
        al = rows(lambda e: e.trainable and e.split in ("train", "val", "test", "dev"))
        parts = fit([ex[i] for i in al], [feats[i] for i in al], topics, groups, log=log, **hp)
        if stage2 is not None:
            parts = stack.fold(parts, *stage2, columns=slice(0, None) if hp["stack_topics"] else slice(0, 3))
        shipped = make_model(parts, {**meta, **{k: measured.meta[k] for k in ("rel_offsets", "thresholds")
                                            if k in measured.meta}},
                         hp["prune"])
        shipped.rel_offsets, shipped.thresholds = measured.rel_offsets, measured.thresholds
        shipped.rel_offsets_title = measured.rel_offsets_title
        shipped.meta["rel_offsets_title"] = measured.meta.get("rel_offsets_title")
        # what the shipped fit never saw either: the holdout and kb's held-out labels of corpus papers
        for name, pred in {"holdout (tests/data)": lambda e: e.split == "holdout", **HELD_OUT_SETS}.items():
            sub = [e for e in ex if pred(e)]
            if sub:
                m = metrics(*_predict(shipped, sub))
                report["figures"][f"{name}, shipped model"] = m
                log(format_metrics(f"{name}, shipped model", m))
    report["sources"] = provenance.sources(lm, ex)
    digest = hashlib.sha256(json.dumps([shipped.vocab[:1000], shipped.W[:1000].round(4).tolist()]).encode()).hexdigest()
    shipped.id = shipped.meta["model_id"] = f"kbclf-{digest[:12]}"
    shipped.meta["final_fit"] = final_fit     # "train": val and test kept out (kb eval --split may measure it)
    shipped.meta["trained_on"] = {k: v["examples"] for k, v in report["sources"].items() if v["examples"]}
    shipped.meta["label_map_sha256"] = hashlib.sha256(lm.raw_text.encode()).hexdigest()[:16]
    return shipped, report


def cross_validate(corpus, label_map, taxonomy, k: int = 5, **hp) -> str:
    """k-fold CV over the curated papers (folds by paper key hash); returns a text table."""
    hp = {**DEFAULTS, **hp}
    groups, topics = taxonomy_term_groups(taxonomy)
    lm = LabelMap.load(label_map, set(topics))
    ex = [e for e in build(corpus, lm) if e.trainable]
    feats = features_of(ex, groups, taxonomy, hp["keyword_block"])
    fold = [int(hashlib.sha1(e.key.encode()).hexdigest(), 16) % k for e in ex]
    out = []
    for f in range(k):
        tr = [i for i in range(len(ex)) if fold[i] != f]
        te = [i for i in range(len(ex)) if fold[i] == f and ex[i].source == "curated"]
        parts = fit([ex[i] for i in tr], [feats[i] for i in tr], topics, groups, log=lambda *_: None, **hp)
        m = metrics(*_predict(make_model(parts, {"feature_version": FEATURE_VERSION, "topics": topics,
                                             "term_groups": groups, "thresholds": {},
                                             "block_weights": list(hp["block_weights"]),
                                             "rel_mode": hp["rel_mode"],
                                             "keyword_block": hp["keyword_block"]}, hp["prune"]),
                              [ex[i] for i in te]))
        out.append(format_metrics(f"fold {f + 1}/{k}", m))
    return "\n".join(out)


def beside(model_file: Path, name: str) -> Path:
    """The file ``name`` written beside a model file, named after it: ``classifier_model.npz`` gets
    ``classifier_LICENCES.md`` and ``classifier_provenance.json`` (the names the package ships), so
    retraining into ``data/`` replaces the shipped three together; ``m.npz`` gets ``m_LICENCES.md``."""
    return model_file.with_name(f"{model_file.stem.removesuffix('_model')}_{name}")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Train kb's classifier (see the module docstring).")
    ap.add_argument("--corpus", required=True, help="dir with curated_lists/ and abstracts/")
    ap.add_argument("--taxonomy", default=None, help="default: the shipped data/taxonomy.toml")
    ap.add_argument("--label-map", default=None, help="default: the shipped data/label_map.toml")
    ap.add_argument("--dev", help="labelled JSONL used for training (the project's dev set)")
    ap.add_argument("--holdout", help="labelled JSONL used only for measuring (never trained on)")
    ap.add_argument("--out", required=True, help="model file to write (.npz)")
    ap.add_argument("--licences", choices=("default", "permissive"), default="default")
    ap.add_argument("--final-fit", choices=("all", "train"), default="all")
    ap.add_argument("--measured-out", help="also write the measured model (train split + dev) here; "
                    "bench_models.py --tfidf-model can then skip retraining")
    ap.add_argument("--min-df", type=int, default=DEFAULTS["min_df"])
    ap.add_argument("--C-rel", type=float, default=DEFAULTS["C_rel"])
    ap.add_argument("--C-topic", type=float, default=DEFAULTS["C_topic"])
    ap.add_argument("--stack-topics", action="store_true", help="stage 2 re-reads the topic heads too")
    ap.add_argument("--own-oof", action="store_true",
                    help="kb's labels of corpus papers out of fold too, for stage 2 and the texts' line")
    ap.add_argument("--dev-folds", type=int, default=DEFAULTS["dev_folds"],
                    help="folds over dev for out-of-fold threshold tuning (0: tune on val only)")
    args = ap.parse_args(argv)
    from kb.resources import find_resource
    if args.label_map is None:
        args.label_map = str(find_resource("data/label_map.toml"))
    if args.taxonomy is None:
        args.taxonomy = str(find_resource("data/taxonomy.toml"))
    model, report = train(args.corpus, args.label_map, args.taxonomy, dev=args.dev, holdout=args.holdout,
                          licences=args.licences, final_fit=args.final_fit, min_df=args.min_df,
                          C_rel=args.C_rel, C_topic=args.C_topic, dev_folds=args.dev_folds,
                          stack_topics=args.stack_topics, own_oof=args.own_oof)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    if args.measured_out:
        report["measured_model"].save(args.measured_out)
    provenance.write_licences(beside(out, "LICENCES.md"), report, model)
    prov = {"model": out.name, "model_id": model.id, "figures": report["figures"],
            "hyperparameters": {k: v for k, v in model.meta.get("hyperparameters", {}).items()},
            "counts": report["counts"], "sources": report["sources"],
            # file names only: the provenance must not carry this machine's paths
            "arguments": {k: (Path(v).name if isinstance(v, str) and ("/" in v or "\\" in v) else v)
                          for k, v in vars(args).items() if k not in ("corpus", "out")}}
    beside(out, "provenance.json").write_text(json.dumps(prov, indent=1, ensure_ascii=False, default=str),
                                                encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB, {model.n_weighted} weighted of "
          f"{len(model.vocab)} features)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
