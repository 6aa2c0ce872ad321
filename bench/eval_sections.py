"""Section suggestion measured on docs nobody here wrote: the corpus' public curated lists.

    .venv/bin/python bench/eval_sections.py [--corpus ../shared/corpus] [--cap 80] [--seed 7]
                                            [--text title|abstract] [--methods NAME …] [--check N]
                                            [--blocks 1,1,0.6,0.3] [--split test --model M]
    .venv/bin/python bench/eval_sections.py --doc DOC.md [--home WORKSPACE] [--methods NAME …]

Each curated list is a doc: its sections are the curator's heading paths (numbered as a tree, so
``A > B`` is a subsection of ``A`` and a path with nothing filed of its own is a container, as in
a knowledge doc), its anchors are its rows (one item per arXiv ID, or per title without one; an
item filed in two sections counts right in either). Lists with 3–40 sections and at least 30 items
are read, at most ``--cap`` items of each (a seeded sample). For each candidate method, leave-one-out
as ``kb eval sections`` does it: hide an item, rank the sections from the headings and the other
items, count top-1 and top-3; per list, then pooled over every item and as the mean over lists.
``--text abstract`` describes an item by its title and, when the corpus has it, its arXiv abstract
(a store's view of the doc); ``title`` by its title alone (the doc's own lines).

Every method scores from one Gram matrix of the classifier's TF-IDF vectors per list (headings and
items), so leave-one-out costs no refitting; ``KB`` names kb's method, and ``--check N`` runs
``pipeline.classify.sections.leave_one_out`` itself on the first N lists: the same figures as ``KB``'s.
The floor is the least machinery: each section's heading alone. ``--blocks`` weighs the vectors' blocks
(title, abstract, taxonomy terms, keyword verdict) for every method; by default kb's
``sections.BLOCKS``, and ``1,1,1,1`` is the classifier's own weighting (``--check`` always runs kb's).

Methods that read the classifier's topic probabilities (``topic``, ``topic profile``) are honest only
when its topic heads never saw the lists' items: the shipped model was trained on these lists'
sections. ``--split test`` keeps the items of the test split of ``kb train``'s corpus (the SHA-1 of
each paper's key, as ``pipeline.classify.training.corpus`` splits it), to be run with ``--model`` a
measured model (``--measured-out`` of the training, fitted without that split) and a ``--cap`` large
enough to keep the lists (``--cap 1000``). ``--doc`` runs the same methods on a knowledge doc, its
items' titles and abstracts from ``--home``'s store, as ``kb eval sections`` reads it (an item trains
on its labels too and is asked without them): ``KB`` there prints ``kb eval sections``' figures.
Not part of the test suite; the last line is one JSON object ``{"name", "value", "unit", "floor", "ratio"}``.
"""
from __future__ import annotations

import argparse
import glob
import json
import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pipeline.classify.sections import (  # noqa: E402
    BLOCKS,
    SectionIndex,
    SectionItem,
    _distinct,
    heading_path,
    leave_one_out,
    represent,
)


@dataclass
class Doc:
    """One curated list as a doc: places, items, and the Gram matrices every method scores from."""

    name: str
    headings: dict[str, str]
    items: list[SectionItem]
    places: list[str]
    ids: list[str]             # one per distinct item, in order
    truth: list[set[int]]      # per distinct item: the places it is filed in (indices)
    G: np.ndarray              # raw TF-IDF dot products: places' headings first, then the items, then queries
    P: np.ndarray              # cosines of the topic probabilities, same order
    q: list[int]               # per distinct item: its row as a query (its own row unless labels set them apart)


def load_lists(corpus: Path, text: str, cap: int, seed: int, split: str | None = None
               ) -> list[tuple[str, dict[str, str], list[SectionItem]]]:
    """The lists that look like a doc (3–40 sections, ≥ 30 items), each as headings and items; with
    ``split``, only the items whose every row falls in that split of the classifier's training corpus."""
    abstracts = _abstracts(corpus) if text == "abstract" else {}
    in_split = _split_rule(corpus, split) if split else None
    out = []
    for f in sorted(glob.glob(str(corpus / "curated_lists" / "*.jsonl"))):
        rows = [json.loads(line) for line in open(f, encoding="utf-8")]
        rows = [r for r in rows if r.get("title") and r.get("section")]
        by_item: dict[str, list[dict]] = {}
        for r in rows:
            by_item.setdefault(r.get("arxiv_id") or _norm(r["title"]), []).append(r)
        keys = sorted(k for k in by_item if in_split is None or all(map(in_split, by_item[k])))
        if len(keys) > cap:
            keys = sorted(random.Random(seed).sample(keys, cap))
        sections = {r["section"] for k in keys for r in by_item[k]}
        if len(keys) < 30 or not 3 <= len(sections) <= 40:
            continue
        numbers = _number_paths(r["section"] for k in keys for r in by_item[k])
        headings = {num: path.split(" > ")[-1] for path, num in numbers.items()}
        items = [SectionItem(numbers[r["section"]], k, r["title"], abstracts.get(r.get("arxiv_id") or "", ""))
                 for k in keys for r in {r["section"]: r for r in by_item[k]}.values()]
        out.append((Path(f).stem, headings, items))
    return out


def _split_rule(corpus: Path, split: str) -> Callable[[dict], bool]:
    """Whether a list row is in ``split`` of ``kb train``'s corpus: the SHA-1 of its paper's key
    (``pipeline.classify.training.corpus``), an arXiv ID (its own, its title match's, or the one an
    abstract of the same title has) or else its normalised title. A row with two candidate keys counts
    only when both fall in the split, so no test item can be one the training read under another key."""
    from pipeline.classify.training.corpus import norm_title, split_of
    by_title: dict[str, str] = {}
    for f in sorted(glob.glob(str(corpus / "abstracts" / "*.jsonl"))) + \
            sorted(glob.glob(str(corpus / "curated_lists" / "*.jsonl"))):
        for line in open(f, encoding="utf-8"):
            r = json.loads(line)
            aid = r.get("arxiv_id") or r.get("title_match_arxiv_id")
            if aid and r.get("title"):
                by_title.setdefault(norm_title(r["title"]), aid)

    def keep(row: dict) -> bool:
        ids = {row.get("arxiv_id"), row.get("title_match_arxiv_id"), by_title.get(norm_title(row["title"]))} - {None}
        keys = {f"arxiv:{i}" for i in ids} or {f"title:{norm_title(row['title'])}"}
        return all(split_of(k) == split for k in keys)
    return keep


def _abstracts(corpus: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in sorted(glob.glob(str(corpus / "abstracts" / "*.jsonl"))):
        for line in open(f, encoding="utf-8"):
            r = json.loads(line)
            out.setdefault(r["arxiv_id"], r.get("abstract") or "")
    return out


def _norm(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", title.lower())


def _number_paths(paths) -> dict[str, str]:
    """Each heading path (``A > B > C``) and every prefix of it → a tree number (``1.2.1``), in order of
    first appearance, so the doc's rules (containers, parents) apply to the curator's headings."""
    numbers: dict[str, str] = {}
    children: dict[str, int] = {}
    for path in paths:
        parts = path.split(" > ")
        for i in range(1, len(parts) + 1):
            p = " > ".join(parts[:i])
            if p not in numbers:
                parent = numbers.get(" > ".join(parts[:i - 1]), "")
                children[parent] = children.get(parent, 0) + 1
                numbers[p] = f"{parent}.{children[parent]}" if parent else str(children[parent])
    return numbers


def prepare(base, name: str, headings: dict[str, str], items: list[SectionItem], blocks=None) -> Doc:
    """The Gram matrices of a doc's places' headings and its distinct items (block weights ``blocks``,
    by default kb's ``BLOCKS``), as kb's leave-one-out has them: an item trains on its title, abstract
    and labels and is asked with its title and abstract (a row of its own only when labels set the two apart)."""
    places = SectionIndex.places(headings, items)
    distinct = _distinct(items)
    texts = [(heading_path(headings, s), "") for s in places] + [(d.title, d.text) for d in distinct]
    asked = [k for k, d in enumerate(distinct) if d.query != d.text]
    q = [len(places) + k for k in range(len(distinct))]
    for extra, k in enumerate(asked):
        q[k] = len(texts) + extra
    texts += [(distinct[k].title, distinct[k].query) for k in asked]
    vecs = represent(base, texts, blocks)
    # the topic heads read the classifier's own weighting of the blocks, not the sections'
    logits = base.logits_many(represent(base, texts, (1.0, 1.0, 1.0, 1.0)))[:, 3:].astype(np.float64)
    probs = 1.0 / (1.0 + np.exp(-logits))
    cols = {j: c for c, j in enumerate(sorted({int(j) for idx, _ in vecs for j in idx}))}
    V = np.zeros((len(texts), len(cols)))
    for r, (idx, val) in enumerate(vecs):
        np.add.at(V[r], [cols[int(j)] for j in idx], val)
    Pn = probs / np.maximum(np.linalg.norm(probs, axis=1, keepdims=True), 1e-12)
    truth = [{places.index(s) for s in d.sections} for d in distinct]
    return Doc(name, headings, items, places, [d.id for d in distinct], truth, V @ V.T, Pn @ Pn.T, q)


# --- candidate methods: each maps (doc, hidden item k) to one score per place --------------------------

def _cosines(doc: Doc) -> np.ndarray:
    d = np.sqrt(np.maximum(np.diag(doc.G), 1e-12))
    return doc.G / np.outer(d, d)


def _members(doc: Doc, k: int) -> list[list[int]]:
    """Per place, the rows (in the Gram's order) of its items other than the hidden one."""
    m = len(doc.places)
    out: list[list[int]] = [[] for _ in doc.places]
    for i, places in enumerate(doc.truth):
        if i != k:
            for s in places:
                out[s].append(m + i)
    return out


def centroid(hw: float = 1.0, nearest: float = 0.0, topic: float = 0.0, child: float = 0.0,
             near_heading: bool = False) -> Callable:
    """Cosine to each place's centroid (heading × ``hw`` + its items, + ``child`` × its subsections' items),
    mixed with the cosine to its nearest item (share ``nearest``; the heading counts as an item when
    ``near_heading``) and topic profiles (share ``topic``)."""
    def score(doc: Doc, k: int) -> np.ndarray:
        m, q = len(doc.places), doc.q[k]
        members = _members(doc, k)
        C = _cosines(doc)
        out = np.zeros(m)
        for s in range(m):
            w = {s: hw}
            for r in members[s]:
                w[r] = w.get(r, 0.0) + 1.0
            if child:
                for t, pl in enumerate(doc.places):
                    if pl.startswith(doc.places[s] + "."):
                        for r in members[t]:
                            w[r] = w.get(r, 0.0) + child
            rows, ws = np.array(list(w)), np.array(list(w.values()))
            cos = float(ws @ doc.G[q, rows]) / np.sqrt(max(ws @ doc.G[np.ix_(rows, rows)] @ ws, 1e-12)) \
                / np.sqrt(max(doc.G[q, q], 1e-12))
            near = max((C[q, r] for r in members[s] + ([s] if near_heading else [])), default=0.0)
            prof = float(ws @ doc.P[q, rows]) / np.sqrt(max(ws @ doc.P[np.ix_(rows, rows)] @ ws, 1e-12))
            out[s] = (1 - topic) * ((1 - nearest) * cos + nearest * near) + topic * prof
        return out
    return score


def knn(k_near: int = 3, hw: float = 1.0) -> Callable:
    """Sum of the cosines of each place's ``k_near`` nearest items, plus ``hw`` × its heading's cosine."""
    def score(doc: Doc, k: int) -> np.ndarray:
        m, q = len(doc.places), doc.q[k]
        C = _cosines(doc)
        members = _members(doc, k)
        return np.array([hw * C[q, s] + sum(sorted((C[q, r] for r in members[s]), reverse=True)[:k_near])
                         for s in range(m)])
    return score


def ridge(lam: float = 1.0, hw: float = 1.0, mix: float = 0.0) -> Callable:
    """One-vs-rest kernel ridge regression on the unit TF-IDF vectors (a per-doc linear model, like
    arxiv-sanity's per-tag SVM): headings (weight ``hw``) and the other items are the training rows,
    target 1 for a section's own rows and −1 for the others' (0 ranks the same); ``mix`` × the centroid
    score added."""
    near = centroid()
    def score(doc: Doc, k: int) -> np.ndarray:
        m, q = len(doc.places), doc.q[k]
        C = _cosines(doc)
        rows = list(range(m)) + [m + i for i in range(len(doc.ids)) if i != k]
        Y = np.full((len(rows), m), -1.0)
        wts = np.ones(len(rows))
        for r_i, r in enumerate(rows):
            for s in ([r] if r < m else doc.truth[r - m]):
                Y[r_i, s] = 1.0
            if r < m:
                wts[r_i] = hw
        K = C[np.ix_(rows, rows)]
        # weighted ridge in the dual: (K + lam W^-1) a = Y
        alpha = np.linalg.solve(K + lam * np.diag(1.0 / wts), Y)
        return C[q, rows] @ alpha + (mix * near(doc, k) if mix else 0.0)
    return score


def prior_ridge(lam: float = 0.1, share: float = 0.1) -> Callable:
    """``ridge`` plus ``share`` × each place's share of the other items on a log scale (log(1 + n) over
    log(1 + the biggest n)): a place the team files much under is where an item no model is sure of goes."""
    plain = ridge(lam)
    def score(doc: Doc, k: int) -> np.ndarray:
        counts = np.zeros(len(doc.places))
        for i, truth in enumerate(doc.truth):
            if i != k:
                counts[list(truth)] += 1
        prior = np.log1p(counts) / max(np.log1p(counts.max()), 1e-9)
        return plain(doc, k) + share * prior
    return score


def zridge(lam: float = 0.1) -> Callable:
    """``ridge`` with each place's score put on the scale of its own negatives: (f − μ) / σ over the
    leave-one-out predictions of the rows that are not the place's (ridge's LOO identity gives them from
    one fit), so a loose place, whose model scores everything low, is not always outranked."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C, rows, Y, K, inv, alpha = _dual_fit(doc, k, lam)
        H = K @ inv
        loo = Y - (Y - H @ Y) / (1.0 - np.diag(H))[:, None]
        f = C[doc.q[k], rows] @ alpha
        out = np.empty_like(f)
        for j in range(len(f)):
            neg = loo[Y[:, j] < 0, j]
            mu, sd = (neg.mean(), neg.std()) if len(neg) > 1 else (0.0, 1.0)
            out[j] = (f[j] - mu) / max(sd, 1e-6)
        return out
    return score


def _dual_fit(doc: Doc, k: int, lam: float) -> tuple[np.ndarray, list[int], np.ndarray, np.ndarray, np.ndarray,
                                                      np.ndarray]:
    """The dual ridge of query ``k``'s training rows: cosines, rows, targets, kernel, (K + λI)⁻¹ and α."""
    C = _cosines(doc)
    rows, Y = _training(doc, k)
    K = C[np.ix_(rows, rows)]
    inv = np.linalg.inv(K + lam * np.eye(len(rows)))
    return C, rows, Y, K, inv, inv @ Y


def _training(doc: Doc, k: int) -> tuple[list[int], np.ndarray]:
    """The rows a per-doc model learns from with the ``k``-th item hidden, and their ±1 targets."""
    m = len(doc.places)
    rows = list(range(m)) + [m + i for i in range(len(doc.ids)) if i != k]
    Y = -np.ones((len(rows), m))
    for r_i, r in enumerate(rows):
        Y[r_i, [r] if r < m else list(doc.truth[r - m])] = 1.0
    return rows, Y


def balanced_ridge(lam: float = 0.1) -> Callable:
    """``ridge`` with each row weighted by 1 / its section's row count, so big sections do not win by size."""
    def score(doc: Doc, k: int) -> np.ndarray:
        q = doc.q[k]
        C = _cosines(doc)
        rows, Y = _training(doc, k)
        size = (Y > 0).sum(axis=0)
        wts = 1.0 / np.array([min(size[Y[r] > 0]) for r in range(len(rows))])
        alpha = np.linalg.solve(C[np.ix_(rows, rows)] + lam * np.diag(1.0 / wts), Y)
        return C[q, rows] @ alpha
    return score


def svm(c: float = 1.0, epochs: int = 20) -> Callable:
    """One-vs-rest linear SVM (squared hinge, no bias; LIBLINEAR's dual coordinate descent, every section at once)."""
    def score(doc: Doc, k: int) -> np.ndarray:
        q = doc.q[k]
        C = _cosines(doc)
        rows, Y = _training(doc, k)
        K = C[np.ix_(rows, rows)]
        A = np.zeros_like(Y)
        d = 1.0 / (2 * c)
        for _ in range(epochs):
            for i in range(len(rows)):
                g = Y[i] * (K[i] @ (A * Y)) - 1.0 + d * A[i]
                A[i] = np.maximum(A[i] - g / (K[i, i] + d), 0.0)
        return C[q, rows] @ (A * Y)
    return score


def topic_ridge(lam: float = 0.1, share: float = 0.5) -> Callable:
    """``ridge`` with the classifier's topic probabilities as one more block of the vectors, of weight
    ``share`` against the TF-IDF's: the kernel is (cosine + share² × topic cosine) / (1 + share²). Honest
    only with a model whose topic heads never saw the lists' items (``--split test`` with a measured model)."""
    def score(doc: Doc, k: int) -> np.ndarray:
        K = (_cosines(doc) + share * share * doc.P) / (1.0 + share * share)
        rows, Y = _training(doc, k)
        return K[doc.q[k], rows] @ np.linalg.solve(K[np.ix_(rows, rows)] + lam * np.eye(len(rows)), Y)
    return score


def _profiles(doc: Doc, k: int) -> np.ndarray:
    """Per place, the cosine of the hidden item's topic probabilities to the place's topic profile (the
    sum of the unit topic vectors of its heading and its other items)."""
    members = _members(doc, k)
    q = doc.q[k]
    out = np.zeros(len(doc.places))
    for s in range(len(doc.places)):
        rows = [s, *members[s]]
        out[s] = doc.P[q, rows].sum() / np.sqrt(max(doc.P[np.ix_(rows, rows)].sum(), 1e-12))
    return out


def profile_ridge(lam: float = 0.1, share: float = 0.5) -> Callable:
    """``ridge`` plus ``share`` × the cosine of the item's topic probabilities to each place's topic profile
    (``_profiles``): what the classifier learned about topics, added to what the doc's words tell apart.
    Honest only as ``topic_ridge`` is."""
    plain = ridge(lam)
    def score(doc: Doc, k: int) -> np.ndarray:
        return plain(doc, k) + share * _profiles(doc, k)
    return score


def _tree_kernel(places: list[str], gamma: float) -> np.ndarray:
    """How much two places' models share along the doc tree: a place's model is a part of its own plus,
    at weight ``gamma``, one part per node on its path (its ancestors and itself), each node's part shared
    by every place under it; so ``M[s, t]`` = [s is t] + ``gamma`` × the nodes both paths hold."""
    def line(s: str) -> list[str]:
        parts = s.split(".")
        return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return np.array([[float(s == t) + gamma * len(set(line(s)) & set(line(t))) for t in places] for s in places])


def tree_ridge(lam: float = 0.1, gamma: float = 0.5) -> Callable:
    """One ridge model for all places at once whose weights are shared along the doc tree (hierarchical
    multi-task ridge, the separable kernel cosine × ``_tree_kernel``; Cai & Hofmann's hierarchical
    classifier with squared loss): a subsection borrows what its chapter's items have in common.
    Solved per eigenvector of the tree kernel."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C = _cosines(doc)
        rows, Y = _training(doc, k)
        e, Q = np.linalg.eigh(_tree_kernel(doc.places, gamma))
        K, u, Yq = C[np.ix_(rows, rows)], C[doc.q[k], rows], Y @ Q
        f = np.array([ej * (u @ np.linalg.solve(ej * K + lam * np.eye(len(rows)), Yq[:, j])) if ej > 1e-9 else 0.0
                      for j, ej in enumerate(e)])
        return Q @ f
    return score


def chapter_ridge(lam: float = 0.1, share: float = 0.25) -> Callable:
    """Two levels: ``ridge`` per place plus ``share`` × a ridge model of its chapter (the top-level heading;
    rows of every place under it are its positives), so a place inherits its chapter's evidence."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C = _cosines(doc)
        rows, Y = _training(doc, k)
        chapters = [p.split(".")[0] for p in doc.places]
        names = list(dict.fromkeys(chapters))
        Yc = -np.ones((len(rows), len(names)))
        for r_i in range(len(rows)):
            Yc[r_i, [names.index(chapters[s]) for s in np.nonzero(Y[r_i] > 0)[0]]] = 1.0
        alpha = np.linalg.solve(C[np.ix_(rows, rows)] + lam * np.eye(len(rows)), np.hstack([Y, Yc]))
        f = C[doc.q[k], rows] @ alpha
        return f[:len(doc.places)] + share * f[len(doc.places):][[names.index(c) for c in chapters]]
    return score


def shifted_ridge(lam: float = 0.1, beta: float = 0.5, shrink: float = 2.0, items_only: bool = True,
                  clip: str = "") -> Callable:
    """``ridge`` with each place's score lowered by ``beta`` × how much higher than the doc's usual its own
    rows score when each is left out (their leave-one-out mean, ridge's identity, shrunk toward the doc's
    with ``shrink`` rows): a place whose items are alike scores its own high and is taken down, a loose
    place whose items are unlike each other scores its own low and is brought up. ``items_only``: the
    mean over its items, not its heading."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C, rows, Y, K, inv, alpha = _dual_fit(doc, k, lam)
        loo = Y - alpha / np.diag(inv)[:, None]
        m = len(doc.places)
        mask = np.array([r >= m or not items_only for r in rows])
        pos = (Y > 0) & mask[:, None]
        mean_all = loo[pos].mean() if pos.any() else 0.0
        own = ((loo * pos).sum(axis=0) + shrink * mean_all) / (pos.sum(axis=0) + shrink)
        gap = own - mean_all
        if clip == "loose":      # only loose places are raised
            gap = np.minimum(gap, 0.0)
        elif clip == "tight":    # only tight places are lowered
            gap = np.maximum(gap, 0.0)
        return C[doc.q[k], rows] @ alpha - beta * gap
    return score


def family_ridge(lam: float = 0.1, child: float | None = 0.0, parent: float | None = None) -> Callable:
    """``ridge`` with the rows of a place's ancestors (``child``) or descendants (``parent``) given that
    target in its model instead of −1: a subsection is not taught that its chapter's own items are
    unlike it (None: −1, as ``ridge``)."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C = _cosines(doc)
        rows, Y = _training(doc, k)
        m = len(doc.places)
        for r_i, r in enumerate(rows):
            for s in ([r] if r < m else list(doc.truth[r - m])):
                for t, pl in enumerate(doc.places):
                    if child is not None and pl.startswith(doc.places[s] + ".") and Y[r_i, t] < child:
                        Y[r_i, t] = child
                    if parent is not None and doc.places[s].startswith(pl + ".") and Y[r_i, t] < parent:
                        Y[r_i, t] = parent
        return C[doc.q[k], rows] @ np.linalg.solve(C[np.ix_(rows, rows)] + lam * np.eye(len(rows)), Y)
    return score


def loose_knn_ridge(lam: float = 0.1, gamma: float = 0.5) -> Callable:
    """``ridge`` plus, per place, ``gamma`` × (1 − the mean cosine of its other items to each other) ×
    the cosine to its nearest item: a loose place, whose items are unlike each other, is represented by
    its nearest anchor too; a tight one by its model alone."""
    plain = ridge(lam)
    def score(doc: Doc, k: int) -> np.ndarray:
        C = _cosines(doc)
        members = _members(doc, k)
        q = doc.q[k]
        out = plain(doc, k)
        for s, rows in enumerate(members):
            if not rows:
                continue
            sub = C[np.ix_(rows, rows)]
            tight = (sub.sum() - len(rows)) / (len(rows) * (len(rows) - 1)) if len(rows) > 1 else 0.0
            out[s] += gamma * (1.0 - tight) * max(C[q, r] for r in rows)
        return out
    return score


def kernel_ridge(lam: float = 0.1, gamma: float = 2.0, mix: float = 1.0, const: float = 0.0) -> Callable:
    """``ridge`` with the kernel (1 − ``mix``) × cosine + ``mix`` × exp(``gamma`` × (cosine − 1)) + ``const``: the
    exponential kernel is local (an item counts mostly for its near neighbours, a loose section is
    represented by its nearest items rather than a global direction); ``const`` is a penalised intercept."""
    def score(doc: Doc, k: int) -> np.ndarray:
        C = _cosines(doc)
        K = (1 - mix) * C + mix * np.exp(gamma * (C - 1.0)) + const
        rows, Y = _training(doc, k)
        return K[doc.q[k], rows] @ np.linalg.solve(K[np.ix_(rows, rows)] + lam * np.eye(len(rows)), Y)
    return score


def heading_only(doc: Doc, k: int) -> np.ndarray:
    """The floor: the cosine to each place's heading, nothing learned from the anchors."""
    q = doc.q[k]
    return _cosines(doc)[q, :len(doc.places)]


METHODS: dict[str, Callable] = {
    "heading-only": heading_only,
    "centroid": centroid(),
    "kb-before": centroid(nearest=0.3, near_heading=True),    # 0.7 x centroid + 0.3 x nearest item or heading
    "centroid+near0.3": centroid(nearest=0.3),
    "centroid+near0.5": centroid(nearest=0.5),
    "centroid hw0.5": centroid(hw=0.5),
    "centroid hw2": centroid(hw=2.0),
    "centroid+near0.3 topic0.2": centroid(nearest=0.3, topic=0.2),
    "centroid+near0.3 child0.5": centroid(nearest=0.3, child=0.5),
    "nearest (1-NN)": centroid(nearest=1.0),
    "knn3": knn(3),
    "knn5": knn(5),
    "ridge1": ridge(1.0),
    "ridge0.3": ridge(0.3),
    "ridge3": ridge(3.0),
    "ridge0.1": ridge(0.1),
    "ridge0.03": ridge(0.03),
    "ridge0.3 hw2": ridge(0.3, hw=2.0),
    "ridge0.3 hw0.5": ridge(0.3, hw=0.5),
    "ridge0.1 hw2": ridge(0.1, hw=2.0),
    "ridge0.1 + centroid": ridge(0.1, mix=1.0),
    "balanced ridge0.1": balanced_ridge(0.1),
    "svm C1": svm(1.0),
    "svm C10": svm(10.0),
    "ridge0.1 topic0.5": topic_ridge(0.1, 0.5),
    "ridge0.1 + 0.2 topic profile": profile_ridge(0.1, 0.2),
    "ridge0.1 + 0.5 topic profile": profile_ridge(0.1, 0.5),
    "tree ridge0.1 g0.5": tree_ridge(0.1, 0.5),
    "ridge0.1 + 0.25 chapter": chapter_ridge(0.1, 0.25),
    "zridge0.1": zridge(0.1),
    "zridge0.3": zridge(0.3),
    "ridge0.1 + 0.05 prior": prior_ridge(0.1, 0.05),
    "ridge0.1 + 0.1 prior": prior_ridge(0.1, 0.1),
    "ridge0.1 + 0.2 prior": prior_ridge(0.1, 0.2),
    "ridge0.1 children 0": family_ridge(0.1, child=0.0),
    "ridge0.1 children -0.5": family_ridge(0.1, child=-0.5),
    "ridge0.1 parents 0": family_ridge(0.1, child=None, parent=0.0),
    "ridge0.1 + 0.3 loose knn": loose_knn_ridge(0.1, 0.3),
    "ridge0.1 + 0.6 loose knn": loose_knn_ridge(0.1, 0.6),
    "shifted ridge0.1 b0.5 s2": shifted_ridge(0.1, 0.5, 2.0),
    "exp2 ridge0.1": kernel_ridge(0.1, 2.0),
    "exp4 ridge0.1": kernel_ridge(0.1, 4.0),
    "exp1 ridge0.1": kernel_ridge(0.1, 1.0),
    "exp4 ridge0.03": kernel_ridge(0.03, 4.0),
    "0.5 exp4 ridge0.1": kernel_ridge(0.1, 4.0, 0.5),
    "0.5 exp8 ridge0.1": kernel_ridge(0.1, 8.0, 0.5),
    "ridge0.1 + const0.1": kernel_ridge(0.1, mix=0.0, const=0.1),
    "shifted ridge0.1 b0.25 s1": shifted_ridge(0.1, 0.25, 1.0),
    "shifted ridge0.1 b0.3 s2": shifted_ridge(0.1, 0.3, 2.0),
    "shifted ridge0.1 b0.3 s2 loose": shifted_ridge(0.1, 0.3, 2.0, clip="loose"),
    "shifted ridge0.1 b0.3 s2 tight": shifted_ridge(0.1, 0.3, 2.0, clip="tight"),
    "shifted ridge0.1 b0.3 s5": shifted_ridge(0.1, 0.3, 5.0),
    "shifted ridge0.1 b0.5 s2 loose": shifted_ridge(0.1, 0.5, 2.0, clip="loose"),
    "shifted ridge0.1 b0.15 s2": shifted_ridge(0.1, 0.15, 2.0),
    "shifted ridge0.1 b0.4 s3": shifted_ridge(0.1, 0.4, 3.0),
    "shifted ridge0.1 b0.25 s2": shifted_ridge(0.1, 0.25, 2.0),
    "shifted ridge0.1 b0.5 s2 all": shifted_ridge(0.1, 0.5, 2.0, items_only=False),
}
SLOW = {"svm C1", "svm C10"}   # a minute each: by name only
KB = "shifted ridge0.1 b0.3 s2"     # what pipeline.classify.sections does (RIDGE, LOOSENESS, LOOSENESS_PRIOR)


def evaluate(doc: Doc, method: Callable) -> tuple[int, int, int]:
    """Leave-one-out: (items, right first, right among the first three). Ties go to the doc's order."""
    n1 = n3 = 0
    for k, truth in enumerate(doc.truth):
        s = method(doc, k)
        order = sorted(range(len(s)), key=lambda i: (-round(float(s[i]), 4), i))
        n1 += order[0] in truth
        n3 += bool(set(order[:3]) & truth)
    return len(doc.truth), n1, n3


def _kb_doc(path: str, home: str | None) -> list[tuple[str, dict[str, str], list[SectionItem]]]:
    """A knowledge doc's headings and anchored items, with the store of workspace ``home`` when given."""
    from kb.workspace import open_workspace
    from pipeline.classify.labelling import doc_sections
    return [(Path(path).stem, *doc_sections(Path(path), open_workspace(Path(home)) if home else None))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    ap.add_argument("--model", default=str(ROOT / "data" / "classifier_model.npz"))
    ap.add_argument("--cap", type=int, default=80)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--text", choices=["title", "abstract"], default="abstract")
    ap.add_argument("--methods", nargs="*", default=[m for m in METHODS if m not in SLOW])
    ap.add_argument("--check", type=int, default=0, help="run kb's own leave_one_out on the first N lists")
    ap.add_argument("--per-list", action="store_true")
    ap.add_argument("--blocks", default=None, help="block weights title,abstract,taxonomy,verdict for every method "
                    "(default kb's sections.BLOCKS; 1,1,1,1 is the classifier's own)")
    ap.add_argument("--split", choices=["train", "val", "test"], default=None,
                    help="only items of this split of kb train's corpus (test + a model trained without it: --model)")
    ap.add_argument("--doc", default=None, help="a knowledge doc instead of the lists (as `kb eval sections` reads it)")
    ap.add_argument("--home", default=None, help="with --doc: the workspace whose store gives titles and abstracts")
    args = ap.parse_args()
    from pipeline.classify.model import Model
    base = Model.load(args.model)
    lists = _kb_doc(args.doc, args.home) if args.doc else \
        load_lists(Path(args.corpus), args.text, args.cap, args.seed, args.split)
    if not lists:
        sys.exit(f"eval_sections: no curated list with 3–40 sections and 30 items under {args.corpus} "
                 "(--corpus DIR: the corpus folder, with curated_lists/)")
    blocks = tuple(float(w) for w in args.blocks.split(",")) if args.blocks else BLOCKS
    docs = [prepare(base, *x, blocks=blocks) for x in lists]
    print(f"{len(docs)} lists, {sum(len(d.ids) for d in docs)} items, text={args.text}, cap={args.cap}, blocks={blocks}")
    pooled: dict[str, tuple[float, float]] = {}
    for name in args.methods:
        per = [evaluate(d, METHODS[name]) for d in docs]
        n, a1, a3 = (sum(x[i] for x in per) for i in range(3))
        macro1 = sum(x[1] / x[0] for x in per) / len(per)
        macro3 = sum(x[2] / x[0] for x in per) / len(per)
        pooled[name] = (a1 / n, a3 / n)
        print(f"{name:<28} pooled top-1 {a1 / n:.3f} top-3 {a3 / n:.3f}   mean over lists {macro1:.3f} / {macro3:.3f}")
        if args.per_list:
            for d, (m, b1, b3) in zip(docs, per):
                print(f"    {d.name[:48]:<48} {m:3} items {len(d.places):3} places  {b1 / m:.3f} / {b3 / m:.3f}")
    for name, headings, items in lists[:args.check]:
        r = leave_one_out(base, headings, items)
        print(f"kb leave_one_out {name[:40]:<40} {r['n']:3} items  {r['top1']:.3f} / {r['top3']:.3f}")
    best = max(pooled, key=lambda k: pooled[k])
    print(f"best pooled top-1: {best}")
    if KB in pooled and "heading-only" in pooled:
        kb, floor = pooled[KB][0], pooled["heading-only"][0]
        print(json.dumps({"name": f"eval_sections {KB} ({args.text})", "value": round(kb, 4),
                          "unit": "pooled top-1", "floor": round(floor, 4), "ratio": round(kb / floor, 3)}))


if __name__ == "__main__":
    main()
