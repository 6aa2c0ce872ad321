"""The team's side of the classifier: record a correction, list what to label next, measure.

* ``record_label`` — ``kb label ID --relevance R [--topic T …] [--doc D]``: checks the item is in the
  store and the topics are the taxonomy's, then appends one line to ``organized/labels/<doc>.jsonl``
  (``kb.labels``); the next classify run adapts the doc's model to it and re-tags;
* ``uncertain_items`` — ``kb label --uncertain N``: the recent items the doc's model is least sure of
  (``uncertain``: by relevance margin and topic probabilities near their thresholds);
* ``eval_items`` — ``kb eval classifier``: a labelled file (or the corpus' split) through a model;
* ``eval_sections`` — ``kb eval sections DOC``: leave-one-out section suggestion over a doc's anchors.
"""
from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, NotFound
from kb.text import counted, shortened

log = logging.getLogger(__name__)


def _doc(ctx: Any, doc: str | None) -> str:
    slugs = [t.slug for t in ctx.config.topics]
    if doc is None:
        return slugs[0]
    if doc not in slugs:
        raise ConfigError(f"--doc {doc}: no topic {doc!r} in kb.toml (topics: {', '.join(slugs)})")
    return doc


def record_label(ctx: Any, ident: str, relevance: str | None, topics: Sequence[str] | None, doc: str | None,
                 note: str | None = None, by: str | None = None) -> str:
    """Append a correction for ``ident`` to the doc's labels file; return the line to print. Its ``by`` is
    ``by``, else the login name (``member_name``). ``relevance`` None withdraws the correction in force (a
    line whose relevance is null), when there is one. A line of the file that does not read is named (a
    warning: file, line, why) and skipped, as the nightly does."""
    from kb.labels import Correction, append_label, appendable_labels_path, in_force, member_name, same_labelling
    from pipeline.classify.engine import load_workspace_taxonomy
    from pipeline.classify.teamlabels import refuse_unknowable_ident, subject_of
    d = _doc(ctx, doc)
    refuse_unknowable_ident(ident)
    found = subject_of(ctx.store, ident)
    if found is None:
        raise NotFound(f"{shortened(ident, 80)} is not in the store (a paper ID, a post key or a note entry path#N); "
                       "ingest it first, so its text is known")
    known = set(load_workspace_taxonomy(ctx).topics)
    bad = [t for t in topics or () if t not in known]
    if bad:
        raise ConfigError(f"--topic {bad[0]}: no such topic in the taxonomy")
    if relevance == "none" and topics:
        raise ConfigError("--relevance none keeps no topics (kb's contract): drop --topic")
    kind, key, title, _ = found
    label_id = f"arXiv:{key}" if kind == "paper" else key
    who = (by.strip() if by else None) or member_name()
    correction = Correction(label_id, relevance, tuple(topics) if topics else None, ctx.today.isoformat(), who, note)
    shown = f" [{', '.join(topics)}]" if topics else ""
    labels = appendable_labels_path(ctx.workspace, d)   # a link to another file (the doc) is refused before it is read
    problems: list[str] = []
    current = in_force(ctx.workspace, d, label_id, problems)
    for problem in problems:   # the file is the team's: kb appends and never mends, so it says what it skipped
        log.warning("%s", problem)
    if relevance is None and current is None:
        return f"{label_id} has no correction for {d} to withdraw: nothing appended to {ctx.workspace.relative(labels)}"
    if relevance is None:
        path = append_label(ctx.workspace, d, correction)
        return (f"withdrew the correction of {label_id} for {d} ({current.relevance}"
                + (f", {said}" if (said := _since_by(current)) else "") + f"): {ctx.workspace.relative(path)}; "
                "the model decides it again")
    if current is not None and same_labelling(current, correction):   # a rerun: the file says it already
        return (f"{label_id} is already labelled {relevance}{shown} for {d}"
                + (f" ({said})" if (said := _since_by(current)) else "")
                + f": nothing appended to {ctx.workspace.relative(labels)}")
    path = append_label(ctx.workspace, d, correction)
    uses = ("the next classify run uses it" if ctx.config.classify_model == "learned" else
            "kept for the learned classifier; the keyword scorer reads no labels")
    return (f"labelled {label_id} for {d}: {relevance}{shown} — {shortened(title, 60)} "
            f"({ctx.workspace.relative(path)}; {uses})")


def _since_by(c: Any) -> str:
    """When and by whom the line in force was written, as far as it says: "since D, by NAME"."""
    return ", ".join(part for part in (c.date and f"since {c.date}", c.by and f"by {c.by}") if part)


def uncertain_items(ctx: Any, doc: str | None, n: int, since: str | None) -> list[dict[str, Any]]:
    """The ``n`` items of the recent days the doc's model is least sure of, with why."""
    from kb.store.tags import recent_subjects
    from kb.text import clean_heading
    from pipeline.classify.engine import load_engine
    d = _doc(ctx, doc)
    engine = load_engine(ctx)
    if engine.base is None:
        raise ConfigError("kb label --uncertain needs the learned classifier ([classify] model = \"learned\")")
    from kb.store.tags import latest_arrival
    # the fortnight up to the last day anything arrived (a store of past days is not empty because the clock moved)
    last = date.fromisoformat(min(latest_arrival(ctx.store) or ctx.today.isoformat(), ctx.today.isoformat()))
    start = since or (last - timedelta(days=14)).isoformat()
    model = engine.docs.get(d, engine.base)
    # what the team already labelled for the doc (its anchors, its corrections) is not asked again
    known = {i.id for i in getattr(model, "items", None) or () if i.origin in ("anchor", "correction")}
    items = [{"id": s.key, "title": clean_heading(s.title) if s.kind == "entry" else s.title, "text": s.text or ""}
             for s in recent_subjects(ctx.store, start) if s.key not in known]
    ranked = uncertain(model, items, n)
    titles = {it["id"]: it["title"] for it in items}
    # topics stay a list (JSON's list, as the labels file writes them); the table joins a list cell itself
    return [{**r, "title": shortened(titles.get(r["id"]) or "", 80)} for r in ranked]


def uncertain(model: Any, items: Sequence[Mapping[str, Any]], k: int = 20) -> list[dict[str, Any]]:
    """The ``k`` items the model is least sure of, most uncertain first.

    Uncertainty = max(relevance uncertainty, topic uncertainty): ``1 − (p₁ − p₂)`` over the
    relevance classes (after the model's offsets), and, for items judged relevant, how close
    the closest topic probability is to its threshold: 1 at the threshold, 0 at the end of its side (0
    or 1), so a topic at 0.01 under a threshold of 0.15 is sure, not 0.84 uncertain. Each result has
    the item's ``id``, the score, the prediction and the reason.
    """
    import numpy as np
    base = getattr(model, "base", model)
    out = []
    for it in items:
        idx, val = base.vectorize(it.get("title", ""), it.get("text", ""))
        z = model.logits(idx, val)
        bare = not (it.get("text") or "").strip()
        rel, pr, pt, tags = base.decide(z, title_only=bare)
        adj = np.log(pr + 1e-12) + (base.rel_offsets_title if bare else base.rel_offsets)
        q = np.exp(adj - adj.max())
        q /= q.sum()
        top2 = np.sort(q)[-2:]
        u_rel = float(1.0 - (top2[1] - top2[0]))
        u_top, near = 0.0, None
        if rel != "none":
            thr = base.thresholds
            d = np.abs(pt - thr) / np.maximum(np.where(pt < thr, thr, 1 - thr), 1e-9)   # over that side's length
            j = int(np.argmin(d))
            u_top, near = float(1.0 - d[j]), base.topics[j]
        score = max(u_rel, u_top)
        why = (f"relevance {rel} by a margin of {top2[1] - top2[0]:.2f}" if u_rel >= u_top
               else f"topic {near} at {pt[base.topics.index(near)]:.2f} (threshold "
                    f"{base.thresholds[base.topics.index(near)]:.2f})")
        out.append({"id": it.get("id"), "uncertainty": round(score, 4), "relevance": rel,
                    "topics": [base.topics[i] for i in tags], "reason": why})
    out.sort(key=lambda r: -r["uncertainty"])
    return out[:k]


def eval_items(file: Path | None, *, model: str = "learned", model_file: Path | None = None,
               taxonomy: Path | None = None, corpus: Path | None = None, split: str | None = None,
               source: str = "curated") -> dict[str, Any]:
    """``evaluate`` over a labelled file, or over the corpus' papers of ``split`` (held out by ID): the
    curated ones (titles and abstracts), the systems papers without LLMs, the random-sample ones, or
    (``heldout``, in the test split) the papers kb labelled and never trains on."""
    from pipeline.classify.evaluate import classifier_fn, evaluate, load_labelled
    from pipeline.classify.taxonomy import load_taxonomy
    if split is not None:   # the options' own mistakes first, before the model's fitting is held against them
        _check_split(corpus, split, source)
    base = None
    if model != "keyword":
        from kb.resources import find_resource
        from pipeline.classify.engine import MODEL_FILE, load_base
        base = load_base(Path(model_file) if model_file else find_resource(MODEL_FILE))
        if split is not None and source == "heldout":
            _check_never_trained_on_held_out(base)
        elif split is not None and not held_out(base):
            raise ConfigError(f"--split {split}: model {base.id} was fitted on every split of the corpus, so it would "
                              "be measured on papers it was trained on; pass --model-file with a measured model "
                              "(kb train … --measured-out FILE: train split + dev only)")
    keyword = load_taxonomy(taxonomy) if base is None else None
    # a topic the classifier cannot predict is a typo in the labels, not a miss of the classifier
    known = set(base.topics if base is not None else keyword.topics)
    items = _split_items(corpus, split, source, known) if split is not None else load_labelled(file, known)
    if not items:   # figures over nothing would read as a result (load_labelled refuses an empty file too)
        raise ConfigError(f"--corpus {corpus}: no {source} papers in the {split} split")
    if base is None:
        return evaluate(items, classifier_fn(keyword))
    return evaluate(items, classifier_fn(model=base))


def held_out(model: Any) -> bool:
    """Whether the corpus' val and test splits were kept out of the model's fitting: a measured model
    (``kb train --measured-out``), not the shipped one, which is refitted on every trainable paper."""
    fit = model.meta.get("final_fit") or ("train" if model.meta.get("model_id") == "measured" else "all")
    return fit == "train"


def _check_never_trained_on_held_out(model: Any) -> None:
    """kb's held-out labels (``[abstracts.held_out]``) measure any model whose training held these very labels
    out, the shipped one included; a model trained before (or with another file) may have trained on them."""
    from pipeline.classify.training.labelmap import held_out_digest
    if model.meta.get("held_out_sha256") != held_out_digest():
        raise ConfigError(f"--source heldout: model {model.id} was not trained with today's held-out labels kept "
                          "out (data/corpus_heldout_labels.jsonl), so it may have trained on them: retrain it "
                          "(kb train)")


SPLIT_SOURCES = {"curated": ("curated", "abstract"), "systems": ("systems",), "random": ("random",),
                 "heldout": ("heldout-random", "heldout-uncertain", "heldout-other")}


def _check_split(corpus: Path | None, split: str, source: str) -> None:
    if split not in ("train", "val", "test"):
        raise ConfigError(f"--split {split}: train, val or test")
    if source not in SPLIT_SOURCES:
        raise ConfigError(f"--source {source}: {', '.join(SPLIT_SOURCES)}")
    if source == "heldout" and split != "test":   # only ever measured: they are in no split a model trains on
        raise ConfigError(f"--split {split} --source heldout: kb's held-out labels are measured as the test split")
    check_corpus(corpus)


def check_corpus(corpus: Path | None) -> None:
    """Refuse a ``--corpus`` that is not the training corpus's folder (``kb train``, ``kb eval --split/--cv``)."""
    if corpus is None or not (Path(corpus) / "curated_lists").is_dir():
        raise ConfigError(f"--corpus {corpus}: not a corpus folder (curated_lists/ and abstracts/)")


def _split_items(corpus: Path, split: str, source: str = "curated", known: set[str] | None = None
                 ) -> list[dict[str, Any]]:
    """The corpus' items of ``split``, labelled by ``data/label_map.toml``; a topic of the map that ``known`` (the
    classifier's) lacks is a mistake of the map, named as ``kb train`` names it, not a miss of the classifier."""
    from kb.resources import find_resource
    from pipeline.classify.training.corpus import build
    from pipeline.classify.training.labelmap import LabelMap
    ex = build(corpus, LabelMap.load(find_resource("data/label_map.toml"), known))
    return [{"id": e.id, "title": e.title, "text": e.text, "topics": list(e.topics), "relevance": e.relevance,
             "primary_category": e.extra.get("primary_category")}
            for e in ex if e.split == split and e.source in SPLIT_SOURCES[source]]


def doc_sections(path: Path, workspace: Any = None) -> tuple[dict[str, str], list[Any]]:
    """A knowledge doc's headings (number → title) and anchored items (with their papers' titles and
    abstracts when the workspace's store holds them)."""
    from kb.text import strip_anchor_syntax
    from pipeline.classify.sections import SectionItem, join_headings
    from pipeline.workspace.knowledge import parse_knowledge
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or 'not UTF-8 text'}") from None
    doc = parse_knowledge(text, str(path), Path(path).stem)
    papers = _paper_texts(workspace, {a.arxiv_id for s in doc.sections for a in s.anchors if a.arxiv_id})
    heads = join_headings((s.number, s.title) for s in doc.sections)
    items = []
    for s in doc.sections:
        for a in s.anchors:
            p = papers.get(a.arxiv_id or "")
            label = strip_anchor_syntax(a.label)
            title = p.title if p and p.title else label
            items.append(SectionItem(s.number, a.arxiv_id or a.url or a.label, title,
                                     (p.abstract or "") if p else "", label if label != title else ""))
    return heads, items


def eval_sections(path: Path, workspace: Any = None, by: Any = None) -> dict[str, Any]:
    """``kb eval sections``: leave-one-out over the doc's anchors (top-1, top-3, and every item), by the doc's
    own section models, or ``by(headings, items)`` (another way, in the same result's shape). A doc with
    no anchors is refused (ConfigError), as ``kb eval classifier`` refuses a file with no labelled items."""
    heads, items = doc_sections(path, workspace)
    if not items:   # "top-1 -, top-3 -" with exit 0 read as a result
        raise ConfigError(f"{path}: no anchored items, so nothing to evaluate (each anchor is hidden in turn "
                          "and its section suggested from the others)")
    if by is None:
        from kb.resources import find_resource
        from pipeline.classify.engine import MODEL_FILE, load_base, model_path
        from pipeline.classify.sections import leave_one_out
        base = load_base(model_path(workspace) if workspace is not None else find_resource(MODEL_FILE))
        result = leave_one_out(base, heads, items)
    else:
        result = by(heads, items)
    return {"doc": str(path), "sections": len(heads), **result}


def _paper_texts(workspace: Any, ids: set[str]) -> dict[str, Any]:
    """The stored titles and abstracts of ``ids``, read-only: measuring writes nothing, so a member who may
    only read the store (a read-only file, a PostgreSQL reader login) measures too. No workspace, or one
    whose store does not exist yet (no SQLite file, an empty database): nothing (the doc's own lines are
    measured)."""
    if workspace is None:
        return {}
    from kb.errors import NoStore
    from kb.store import Store
    from kb.store.papers import paper_texts
    target = workspace.store_target
    if isinstance(target, Path) and not target.is_file():
        return {}
    try:
        store = Store.open(target, readonly=True)
    except NoStore:
        return {}
    with store:
        return paper_texts(store, ids)


SECTION_WAYS = {"learned": "the doc's own section models", "hints": "the topics' section hints"}


def format_sections_table(result: dict[str, Any], briefings_use: str | None = None) -> str:
    """``eval_sections``'s result as lines: the misses, then the two figures and the way they were measured;
    ``briefings_use`` (the workspace's classifier) says when its briefings suggest the other way."""
    lines = [f"{'anchored in':<12} {'suggested (best first)':<28} item"]
    for it in result["items"]:
        if not it["top1"]:
            title = shortened(it["title"], 60)
            lines.append(f"{', '.join(it['sections']):<12} {', '.join(it['predicted']):<28} {title}")
    top1, top3 = (("-" if result[k] is None else f"{result[k]:.3f}") for k in ("top1", "top3"))
    lines.append("")
    items, sections = counted(result["n"], "anchored item"), counted(result["sections"], "section")
    method = result.get("method", "learned")
    lines.append(f"{result['doc']}: {items} in {sections}, leave-one-out top-1 {top1}, top-3 {top3} "
                 f"({SECTION_WAYS[method]})")
    theirs = {"keyword": "hints", "learned": "learned"}.get(briefings_use or "")
    if theirs and theirs != method:
        lines.append(f'this workspace\'s briefings ([classify] model = "{briefings_use}") suggest by '
                     f"{SECTION_WAYS[theirs]}: --method {theirs}")
    return "\n".join(lines)
