"""One adapted model per knowledge doc, cached in ``.kb/models/<doc>.json`` and rebuilt when its labels change.

``doc_models(base, store, workspace, docs)`` gathers each doc's labels
(``pipeline.classify.teamlabels``: anchors, cards, corrections, and the other docs' anchors, which
train only the membership head: P(this doc | related)), and for each doc:

* the cached model when its key (base model + labels digest) is the same — nothing is fitted;
* else the cached correction continued on the new labels (``adapt(…, warm=…)``: incremental,
  a few steps from where it was) when the base model is the same;
* else a fresh adaptation.

The cache is only a shortcut: a missing, damaged or unwritable file means fitting again, never
a failure. Each doc model's key goes into the classify stage's model hash, so a changed label
re-tags what that hash covers on the next run.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kb.cachefile import read_cache, write_cache
from pipeline.classify.adapt import DocModel, Labelled, adapt, fit_membership
from pipeline.classify.teamlabels import doc_labels, labels_digest

MODELS_DIR = ".kb/models"
ADAPT_VERSION = 10                # bump when adapt's objective, options or scoring rule change: refit, re-tag
OPTIONS = {"l2": 0.1, "bias_l2": 1.0, "steps": 200}
WARM_STEPS = 60                   # continuing from the cached correction needs fewer steps
CROSS_WEIGHT = 0.5                # another doc's anchor's weight as a label (the membership head counts it once)


PROFILE_SHARE = 0.25              # a topic this share of a doc's anchors carry is what the doc is about
# a topic most of a doc's anchors carry is its subject: an item tagged with it is the doc's whole, whatever
# else it resembles (the profile's quarter is a wide net: a base model's stray tag on three of a MoE doc's
# ten bare titles made long-context "about" MoE, and KVQuilt the MoE doc's)
SUBJECT_SHARE = 0.5


def with_cross_negatives(labels: dict[str, list[Labelled]], base: Any = None
                         ) -> tuple[dict[str, list[Labelled]], dict[str, set[str]]]:
    """Each doc's items plus the other docs' anchors as ``none`` (unless the doc labels them itself) — but
    not another doc's anchor about what this doc is about — and each doc's subject. Docs overlap: when
    the inference doc anchors MoE serving papers, they are no negatives of the MoE doc, or it learns that
    MoE is not its business. What a doc is about: the topics (the base model's, or the labelled ones) of
    PROFILE_SHARE of its anchors; its subject: those of SUBJECT_SHARE (``DocModel.about``)."""
    topics = _topics(base, [i for its in labels.values() for i in its]) if base is not None else {}
    tagged = {d: [topics.get(id(i), set()) for i in its if i.origin == "anchor"] for d, its in labels.items()}
    profile = {d: _profile(ts) for d, ts in tagged.items()}
    out = {}
    for d, items in labels.items():
        mine = {i.id for i in items}
        others = [Labelled(i.title, i.text, "none", None, None, CROSS_WEIGHT, i.id, "other-doc")
                  for e, its in labels.items() if e != d for i in its
                  if i.id not in mine and i.origin == "anchor" and not topics.get(id(i), set()) & profile[d]]
        seen: set[str] = set()
        out[d] = items + [o for o in others if not (o.id in seen or seen.add(o.id))]
    return out, {d: _profile(ts, SUBJECT_SHARE) for d, ts in tagged.items()}


def _topics(base: Any, items: list[Labelled]) -> dict[int, set[str]]:
    """Each item's topics (by ``id()``): the labelled ones, else the base model's tags (one batch)."""
    judged = base.classify_many([{"title": i.title, "text": i.text} for i in items]) if items else []
    return {id(i): set(i.topics) if i.topics else set(r.topics) for i, r in zip(items, judged)}


def _profile(anchors: list[set[str]], share: float = PROFILE_SHARE) -> set[str]:
    """The topics at least ``share`` of a doc's anchors carry."""
    counts: dict[str, int] = {}
    for ts in anchors:
        for t in ts:
            counts[t] = counts.get(t, 0) + 1
    return {t for t, n in counts.items() if anchors and n >= share * len(anchors)}


def doc_models(base: Any, store: Any, workspace: Any, docs: Sequence[str]) -> dict[str, tuple[DocModel, str]]:
    """``{doc: (its model, its key)}`` for the workspace's docs (see the module docstring)."""
    labels, about = with_cross_negatives(doc_labels(store, workspace, docs, set(base.topics)),
                                         base if len(docs) > 1 else None)
    out = {}
    for d in docs:
        items = labels[d]
        overrides = {i.id: (i.relevance, i.topics) for i in items if i.origin == "correction" and i.relevance}
        key = f"{base.id}:{ADAPT_VERSION}:{labels_digest(items)}"
        cached = _read(workspace, d)
        if cached and cached.get("key") == key:
            model = DocModel.from_dict(base, cached["model"])
            # for explanations: the labels that shaped it (the other docs' anchors trained the membership only)
            model.items = [i for i in items if i.origin != "other-doc"]
            model.overrides = overrides
            out[d] = (model, key)
            continue
        warm = None
        if cached and cached.get("base") == base.id and cached.get("version") == ADAPT_VERSION:
            warm = DocModel.from_dict(base, cached["model"])
        opts = {**OPTIONS, "steps": WARM_STEPS} if warm is not None else OPTIONS
        # the relevance and topic heads learn from the doc's own labels; the other docs' anchors only say
        # which doc a related item is (membership, below): docs overlap, and the inference doc's MoE serving
        # papers are not "none" for a MoE doc
        model = adapt(base, [i for i in items if i.origin != "other-doc"], doc=d, warm=warm, **opts)
        if len(docs) > 1:   # which doc an item belongs to: this doc's anchors against the others'
            own = [i for i in items if i.origin == "anchor"]
            others = [i for i in items if i.origin == "other-doc"]
            model.member, model.member_bias = fit_membership(base, own, others)
            model.about = tuple(sorted(about[d]))
        model.overrides = overrides
        _write(workspace, d, {"key": key, "base": base.id, "version": ADAPT_VERSION, "labels": len(items),
                              "model": model.to_dict()})
        out[d] = (model, key)
    return out


def _file(doc: str) -> str:
    return f"{MODELS_DIR}/{doc}.json"


def _read(workspace: Any, doc: str) -> dict[str, Any] | None:
    raw = read_cache(workspace.root, _file(doc))
    return raw if isinstance(raw, dict) and isinstance(raw.get("model"), dict) else None


def _write(workspace: Any, doc: str, body: dict[str, Any]) -> None:
    write_cache(workspace.root, _file(doc), body, what=f"doc model cache for {doc}")   # the next run fits again
