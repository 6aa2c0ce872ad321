"""Build the labelled examples from a corpus directory: read, label, deduplicate, split.

Training-time only. ``build(corpus_dir, label_map, dev=…, holdout=…)`` returns a list of
``Example`` with a ``split`` of ``"train"``, ``"val"``, ``"test"`` (curated papers, split by
a hash of the paper's key) or ``"dev"`` / ``"holdout"`` (the project's labelled sets).

* Deduplication: one *paper* per key — its arXiv ID when any row or abstract gives one
  (rows without an ID are joined to an ID through their normalised title), else the
  normalised title. A paper's labels are merged over every list and section it appears in
  (``labels.merge``), so the same paper can never be in train and test.
* Each paper gives a title-only example and, when the corpus has its abstract, a
  title+abstract example — both in the paper's split.
* The split is a stable hash (SHA-1) of the key, fixed before anything is measured.
* Licences: lists/sources marked ``use = "eval"`` label test papers only: their papers
  are measured but never trained on (``Example.trainable``); ``"exclude"`` ones are not read.
* Items of the holdout set (by arXiv ID and by normalised title) are removed from the
  corpus, so the shipped model never sees them.
* Abstracts no curator listed that kb's own label file names (``[abstracts.labelled]``) take
  its labels (``source="labelled"``: a title-only and a title+abstract example, as a curated
  paper gives, with the file's weight) — in the train split only; one of val or test is left out.
* Other abstracts no curator listed are ``none`` examples: systems papers without LLMs
  (``source="systems"``: the label map's ``[abstracts.systems_negatives]`` rule — a systems
  category and none of its LLM terms — with its weight; a title-only and a title+abstract
  example, as a curated paper gives) and random-sample ones
  (``source="random"``, weak: ``random_weight``). Neither is ever a holdout or dev item, and
  each lands in its paper's ID-hash split like every other paper.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.classify.training.labelmap import LabelMap, LabelMapError, merge

__all__ = ["CURATED", "Example", "build", "split_of", "norm_title", "load_jsonl", "summarise"]

CURATED = ("curated", "abstract")     # the sources a curator labelled: a bare title, and one with its abstract
_ARXIV_RE = re.compile(r"\b(\d{4}\.\d{4,5})\b")
_MIN_TITLE_WORDS = 3


@dataclass
class Example:
    key: str
    title: str
    text: str
    relevance: str
    topics: tuple[str, ...]
    split: str
    source: str                    # curated | abstract | labelled | systems | random | dev | holdout | heldout-…
    weight: float = 1.0
    trainable: bool = True         # False: labelled only by eval-only (copyleft) lists
    lists: tuple[str, ...] = ()
    id: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def is_chinese(self) -> bool:
        return bool(re.search(r"[\u4e00-\u9fff]", self.title + self.text))


def norm_title(title: str) -> str:
    """Lower-case alphanumerics only: the join key for titles across lists."""
    return re.sub(r"[^a-z0-9]+", "", title.lower())


def split_of(key: str, val: float = 0.1, test: float = 0.2) -> str:
    """``train``/``val``/``test`` from a SHA-1 of the key: stable across runs and machines."""
    h = int.from_bytes(hashlib.sha1(key.encode("utf-8")).digest()[:8], "big") / 2.0 ** 64
    return "test" if h < test else "val" if h < test + val else "train"


def load_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _blocked(items: Iterable[dict[str, Any]]) -> tuple[set[str], set[str]]:
    ids, titles = set(), set()
    for it in items:
        m = _ARXIV_RE.search(str(it.get("id", "")))
        if m:
            ids.add(m.group(1))
        t = norm_title(it.get("title", ""))
        if len(t) >= 12:
            titles.add(t)
    return ids, titles


def _category(record: dict[str, Any]) -> dict[str, Any]:
    """``{"primary_category": …}`` of an abstracts record (its first category, as arXiv lists the primary
    first), or nothing."""
    cats = record.get("categories") or ()
    return {"primary_category": cats[0]} if cats and isinstance(cats[0], str) else {}


def build(corpus: str | Path, lm: LabelMap, *, dev: list[dict] | None = None,
          holdout: list[dict] | None = None, dev_weight: float = 3.0,
          random_weight: float = 0.3, val: float = 0.1, test: float = 0.2) -> list[Example]:
    """All examples of the corpus directory plus the project's labelled sets."""
    corpus = Path(corpus)
    block_ids, block_titles = _blocked(holdout or [])
    # kb's labels of corpus papers that are only ever measured: no other row of theirs trains either
    held_out = lm.held_out.load() if lm.held_out is not None else {}
    strata = lm.held_out.strata() if lm.held_out is not None else {}
    block_ids = block_ids | held_out.keys()

    # abstracts, first source wins (as the corpus itself does), excluded sources unread
    abstracts: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in sorted((corpus / "abstracts").glob("*.jsonl")):
        src = lm.abstract_sources.get(path.stem, {"use": "exclude"})
        if src["use"] == "exclude":
            continue
        for r in load_jsonl(path):
            aid = r.get("arxiv_id")
            if aid and aid not in abstracts and r.get("abstract"):
                abstracts[aid] = (src["use"], r)
    title_to_id = {norm_title(r["title"]): aid for aid, (_, r) in abstracts.items()}

    # curated rows → papers
    rows_by_key: dict[str, list[tuple[dict, tuple[str, tuple[str, ...]], str]]] = defaultdict(list)
    for path in sorted((corpus / "curated_lists").glob("*.jsonl")):
        lr = lm.lists.get(path.stem)
        if lr is None or lr.use == "exclude":
            continue
        for row in load_jsonl(path):
            if len(re.findall(r"[A-Za-z0-9]+", row.get("title") or "")) < _MIN_TITLE_WORDS:
                continue
            lab = lm.label(row)
            if lab is None:
                continue
            aid = row.get("arxiv_id") or row.get("title_match_arxiv_id")
            nt = norm_title(row["title"])
            if aid:
                title_to_id.setdefault(nt, aid)
            rows_by_key[aid or nt].append((row, lab, lr.use))
    # rows without an ID whose title matches an ID'd paper join that paper
    keyed: dict[str, list] = defaultdict(list)
    for k, rows in rows_by_key.items():
        if not _ARXIV_RE.fullmatch(k) and k in title_to_id:
            k = title_to_id[k]
        keyed[k].extend(rows)

    out: list[Example] = []
    for k, rows in keyed.items():
        is_id = bool(_ARXIV_RE.fullmatch(k))
        title = rows[0][0]["title"]
        if (is_id and k in block_ids) or norm_title(title) in block_titles:
            continue
        key = f"arxiv:{k}" if is_id else f"title:{k}"
        train_labels = [lab for _, lab, use in rows if use == "train"]
        rel, topics = merge([lab for _, lab, _ in rows])
        lists = tuple(sorted({r["list"] for r, _, _ in rows}))
        split = split_of(key, val, test)
        trainable = bool(train_labels)
        if trainable and split != "test":
            rel, topics = merge(train_labels)     # train/val labels only from trainable lists
        base = dict(key=key, relevance=rel, topics=topics, split=split, lists=lists,
                    trainable=trainable, id=key)
        ab = abstracts.get(k) if is_id else None
        # the arXiv category, where the abstracts know the paper: what a listing gives the classifier
        extra = _category(ab[1]) if ab is not None else {}
        out.append(Example(title=title, text="", source="curated", extra=extra, **base))
        if ab is not None and (ab[0] == "train" or not trainable):
            out.append(Example(title=ab[1]["title"], text=ab[1]["abstract"], source="abstract", extra=extra,
                               **{**base, "id": key + "#abs"}))

    # abstracts no curator listed: kb's own labels where its file has them, else systems papers
    # without LLMs (hard negatives, the label map's rule), then random-sample ones (weak
    # negatives); never a paper of the holdout or dev set
    listed = {e.key for e in out}
    dev_ids, dev_titles = _blocked(dev or [])
    sysneg = lm.systems_negatives
    labelled = lm.labelled.load() if lm.labelled is not None else {}
    for aid, (use, r) in abstracts.items():
        key = f"arxiv:{aid}"
        nt = norm_title(r["title"])
        if aid in held_out:   # measured as the test split is, and never trained on (not even by the shipped fit)
            rel, topics = held_out[aid]
            out.extend(_abstract_examples(key, r, rel, topics, "test", f"heldout-{strata.get(aid, 'other')}", 1.0,
                                          bare_title=False, trainable=False))
            continue
        if (use != "train" or key in listed or aid in block_ids or aid in dev_ids
                or nt in block_titles or nt in dev_titles):
            continue
        if aid in labelled:
            # train only: a team label in val or test would move the tuning and the figures off the curators'
            if split_of(key, val, test) == "train":
                out.extend(_abstract_examples(key, r, *labelled[aid], "train", "labelled", lm.labelled.weight))
            continue
        if sysneg is not None and sysneg.matches(r):
            source, weight = "systems", sysneg.weight
        elif r.get("selection") in lm.random_negative_selections:
            source, weight = "random", random_weight
        else:
            continue
        # a systems paper gives a bare title as well, as every curated paper does: a systems title
        # without an LLM is what a nightly listing's short entries look like
        out.extend(_abstract_examples(key, r, "none", (), split_of(key, val, test), source, weight,
                                      bare_title=source == "systems"))

    _refuse_dev_held_out(dev or [], {norm_title(abstracts[a][1]["title"]) for a in held_out if a in abstracts})
    for it in dev or ():
        out.append(Example(key=f"dev:{it['id']}", title=it.get("title", ""), text=it.get("text", ""),
                           relevance=it.get("relevance", "none"), topics=tuple(it.get("topics", ())),
                           split="dev", source="dev", weight=dev_weight, id=it["id"]))
    for it in holdout or ():
        out.append(Example(key=f"holdout:{it['id']}", title=it.get("title", ""),
                           text=it.get("text", ""), relevance=it.get("relevance", "none"),
                           topics=tuple(it.get("topics", ())), split="holdout", source="holdout",
                           trainable=False, id=it["id"]))
    return out


def _refuse_dev_held_out(dev: list[dict], held_titles: set[str]) -> None:
    """A dev item trains at full weight: one that is a held-out paper (by its title) would be measured on itself."""
    for it in dev:
        if norm_title(it.get("title", "")) in held_titles:
            raise LabelMapError(f"dev item {it.get('id')}: it is a paper of abstracts.held_out (by its title), which "
                                "nothing may train on")


def _abstract_examples(key: str, record: dict[str, Any], relevance: str, topics: tuple[str, ...], split: str,
                       source: str, weight: float, bare_title: bool = True, trainable: bool = True) -> list[Example]:
    """An unlisted abstract's examples: its bare title (``bare_title``), then its title with the abstract."""
    base = dict(key=key, title=record["title"], relevance=relevance, topics=topics, split=split,
                source=source, weight=weight, trainable=trainable, extra=_category(record))
    bare = [Example(text="", id=key + "#title", **base)] if bare_title else []
    return [*bare, Example(text=record["abstract"], id=key, **base)]


def summarise(examples: list[Example]) -> str:
    """Counts per split × source × relevance, for the training log and the report."""
    c = Counter((e.split, e.source, e.relevance) for e in examples)
    lines = [f"{'split':<8} {'source':<17} {'primary':>8} {'adjacent':>9} {'none':>7}"]
    for split in ("train", "val", "test", "dev", "holdout"):
        for source in ("curated", "abstract", "labelled", "systems", "random", "dev", "holdout",
                       *sorted({e.source for e in examples if e.source.startswith("heldout-")})):
            row = [c[(split, source, r)] for r in ("primary", "adjacent", "none")]
            if any(row):
                lines.append(f"{split:<8} {source:<17} {row[0]:>8} {row[1]:>9} {row[2]:>7}")
    papers = len({e.key for e in examples if e.source in ("curated", "labelled", "systems", "random")})
    eval_only = sum(not e.trainable for e in examples if e.source in CURATED)
    held_out = sum(e.source.startswith("heldout-") for e in examples)
    lines.append(f"unique corpus papers: {papers}; eval-only (copyleft-labelled) examples: {eval_only}; "
                 f"kb's held-out labels: {held_out}")
    return "\n".join(lines)
