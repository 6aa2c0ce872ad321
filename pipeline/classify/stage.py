"""The classify stage: tag papers, posts and note entries; only what changed, unless asked for all.

A subject is re-tagged when its text changed (input hash) or the taxonomy did
(taxonomy hash stored with every tag), so editing taxonomy.toml re-tags on the
next run without a flag.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pipeline.brief.collect import clean_heading
from pipeline.context import RunContext

WORKSPACE_TAXONOMY = "taxonomy.toml"   # a workspace's override, merged over the shipped one


@dataclass
class Subject:
    kind: str                 # paper, post, entry
    key: str
    title: str
    text: str
    category: str | None = None
    hints: tuple[str, ...] = ()

    def input_hash(self) -> str:
        blob = json.dumps([self.title, self.text, self.category, list(self.hints)], ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


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


def iter_subjects(ctx: RunContext) -> Iterator[Subject]:
    """Everything classifiable in the store, in a stable order."""
    hints = {b.name: tuple(b.topics) for b in ctx.config.blogs}
    q = ctx.store.query
    for r in q("SELECT arxiv_id, title, abstract, primary_category FROM papers ORDER BY arxiv_id"):
        yield Subject("paper", r["arxiv_id"], r["title"], r["abstract"], r["primary_category"])
    for r in q("SELECT key, feed, title, summary FROM posts ORDER BY key"):
        yield Subject("post", r["key"], r["title"], r["summary"], None, hints.get(r["feed"], ()))
    for r in q("SELECT path, number, heading, text FROM note_entries ORDER BY path, number"):
        # Titled as the briefing titles it (number and markers dropped), so a note entry judged
        # alone there reuses this classification.
        yield Subject("entry", f"{r['path']}#{r['number']}", clean_heading(r["heading"]), r["text"])


def classify_subject(subject: Subject, taxonomy: Any):
    from pipeline.classify.classifier import classify
    return classify(subject.text, title=subject.title, primary_category=subject.category,
                    hints=subject.hints, taxonomy=taxonomy)


def run_classify(ctx: RunContext, *, everything: bool = False, batch: int = 2000) -> ClassifyReport:
    """Classify new or changed subjects (all of them with ``everything``), in batches of one transaction."""
    taxonomy = load_workspace_taxonomy(ctx)
    tax_hash = taxonomy.hash
    done = {(r["subject_kind"], r["subject"]): (r["taxonomy_hash"], r["input_hash"]) for r in ctx.store.query(
        "SELECT subject_kind, subject, taxonomy_hash, input_hash FROM classifications")}
    report = ClassifyReport()
    pending: list[tuple[Subject, Any, str]] = []
    for subject in iter_subjects(ctx):
        report.seen += 1
        ih = subject.input_hash()
        if not everything and done.get((subject.kind, subject.key)) == (tax_hash, ih):
            continue
        pending.append((subject, classify_subject(subject, taxonomy), ih))
        if len(pending) >= batch:
            _flush(ctx, pending, tax_hash, report)
            pending = []
    _flush(ctx, pending, tax_hash, report)
    return report


def _flush(ctx: RunContext, pending: list[tuple[Subject, Any, str]], tax_hash: str, report: ClassifyReport) -> None:
    if not pending:
        return
    from kb.store.tags import Classified, save_classifications
    items = [Classified(subject.kind, subject.key, result.relevance, ih,
                        [(t.topic, t.score, list(t.terms)) for t in result.tags])
             for subject, result, ih in pending]
    with ctx.store.transaction() as conn:
        save_classifications(conn, items, tax_hash)
    report.classified += len(items)
    report.primary += sum(c.relevance == "primary" for c in items)
    report.adjacent += sum(c.relevance == "adjacent" for c in items)


def explain_subject(ctx: RunContext, ident: str) -> list[str]:
    """Why a paper (any ID form), post key or note entry (path#N) got its tags and relevance."""
    from kb.arxiv_id import parse_arxiv_id
    from kb.errors import NotFound
    aid = parse_arxiv_id(ident)
    wanted = aid.id if aid else ident
    for subject in iter_subjects(ctx):
        if subject.key == wanted:
            result = classify_subject(subject, load_workspace_taxonomy(ctx))
            return [f"{subject.kind} {subject.key}: {subject.title}", *result.explain()]
    raise NotFound(f"{ident} is not in the store (a paper ID, a post key or a note entry path#N)")
