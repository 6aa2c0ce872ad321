"""The classify stage: tag papers, posts and note entries that are new or changed, unless asked for all.

Writers queue what they changed (``kb.store.tags``), so a night classifies the night's
subjects whatever the store holds. The model's hash is stored with every tag: when the
model changes (a new taxonomy), everything classified with another model is re-tagged.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from kb.store.tags import Classified, SubjectText
from kb.text import clean_heading
from pipeline.context import Progress, RunContext, no_progress

WORKSPACE_TAXONOMY = "taxonomy.toml"   # a workspace's override, merged over the shipped one
BATCH = 2000
PROGRESS_FROM = 5000   # a bar only for work that takes a while


@dataclass
class ClassifyReport:
    seen: int = 0
    classified: int = 0
    primary: int = 0
    adjacent: int = 0

    def summary(self) -> str:
        return (f"classify: {self.classified} of {self.seen} subjects (re)tagged — "
                f"{self.primary} primary, {self.adjacent} adjacent")


def load_workspace_taxonomy(ctx: RunContext):
    """The shipped taxonomy, with ``<workspace>/taxonomy.toml`` merged over it when present (once per run)."""
    if ctx.taxonomy is None:
        from pipeline.classify.taxonomy import load_taxonomy
        override = ctx.workspace.root / WORKSPACE_TAXONOMY
        ctx.taxonomy = load_taxonomy(override if override.is_file() else None)
    return ctx.taxonomy


def classify_subject(subject: SubjectText, taxonomy: Any, hints: dict[str, tuple[str, ...]] | None = None):
    """The classification of one stored subject (a note entry is judged by its heading without markers)."""
    from pipeline.classify.classifier import classify
    title = clean_heading(subject.title) if subject.kind == "entry" else subject.title
    return classify(subject.text, title=title, primary_category=subject.category,
                    hints=(hints or {}).get(subject.feed or "", ()), taxonomy=taxonomy)


def run_classify(ctx: RunContext, *, everything: bool = False) -> ClassifyReport:
    """Classify queued subjects (every subject with ``everything``, or when the model changed)."""
    from kb.store.tags import all_subjects, classified_with_other_model, queued_subjects, subject_count
    taxonomy = load_workspace_taxonomy(ctx)
    everything = everything or classified_with_other_model(ctx.store, taxonomy.hash)
    subjects = all_subjects(ctx.store) if everything else queued_subjects(ctx.store)
    total = subject_count(ctx.store, queued=not everything)
    with ctx.progress("classify", total) if total >= PROGRESS_FROM else no_progress("classify") as bar:
        report = _classify_all(ctx, subjects, taxonomy, bar)
    from kb.store.tags import clear_stale_queue, stale_queued
    if stale_queued(ctx.store):   # queued, then deleted (a note removed): nothing left to classify
        with ctx.store.transaction() as tx:
            clear_stale_queue(tx)
    return report


def _classify_all(ctx: RunContext, subjects: Iterable[SubjectText], taxonomy: Any, bar: Progress) -> ClassifyReport:
    hints = {s.name: s.topics for s in ctx.sources.of_kind("blog")}
    report = ClassifyReport()
    pending: list[Classified] = []
    for subject in subjects:
        report.seen += 1
        result = classify_subject(subject, taxonomy, hints)
        pending.append(Classified(subject.kind, subject.key, result.relevance,
                                  [(t.topic, t.score, list(t.terms)) for t in result.tags]))
        if len(pending) >= BATCH:
            _flush(ctx, pending, taxonomy.hash, report)
            bar.advance(len(pending))
            pending = []
    _flush(ctx, pending, taxonomy.hash, report)
    return report


def _flush(ctx: RunContext, items: list[Classified], model_hash: str, report: ClassifyReport) -> None:
    if not items:
        return
    from kb.store.tags import save_classifications
    with ctx.store.transaction() as tx:
        save_classifications(tx, items, model_hash)
    report.classified += len(items)
    report.primary += sum(c.relevance == "primary" for c in items)
    report.adjacent += sum(c.relevance == "adjacent" for c in items)


def explain_subject(ctx: RunContext, ident: str) -> list[str]:
    """Why a paper (any ID form), post key or note entry (path#N) got its tags and relevance."""
    from kb.arxiv_id import lookup_arxiv_id
    from kb.errors import NotFound
    from kb.store.tags import subject_text
    aid = lookup_arxiv_id(ident)
    candidates = [("paper", aid.id)] if aid else [("entry", ident), ("post", ident)]
    for kind, key in candidates:
        subject = subject_text(ctx.store, kind, key)
        if subject is not None:
            hints = {s.name: s.topics for s in ctx.sources.of_kind("blog")}
            result = classify_subject(subject, load_workspace_taxonomy(ctx), hints)
            title = clean_heading(subject.title) if kind == "entry" else subject.title
            return [f"{kind} {subject.key}: {title}", *result.explain()]
    raise NotFound(f"{ident} is not in the store (a paper ID, a post key or a note entry path#N)")
