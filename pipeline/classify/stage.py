"""The classify stage: tag papers, posts and note entries that are new or changed, unless asked for all.

Writers queue what they changed (``kb.store.tags``), so a night classifies the night's
subjects whatever the store holds. The classifier's hash (``pipeline.classify.engine``: the
base model and every knowledge doc's labels) is stored with every result: when it changes
(a new model, a new anchor, card or correction), everything classified under another hash is
re-tagged. Each subject gets the base model's tags and relevance and, per knowledge doc, that
doc's model's relevance and tags; subjects are judged in batches (one feature pass, numpy
products), and a large re-tag is split over the machine's cores.
"""
from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kb.errors import KBError
from kb.store.papers import PaperText
from kb.store.tags import Classified, SubjectText
from kb.text import clean_heading, shortened
from pipeline.classify.engine import WORKSPACE_TAXONOMY, Engine, load_engine, load_workspace_taxonomy
from pipeline.context import Progress, RunContext, no_progress

__all__ = ["ClassifyReport", "run_classify", "classify_papers", "explain_subject", "load_workspace_taxonomy",
           "WORKSPACE_TAXONOMY"]

BATCH = 2000
PROGRESS_FROM = 5000   # a bar only for work that takes a while
# From this many subjects, forked workers share the judging. Measured (bench/README.md, "classify
# stage workers"): two workers win from about 400 subjects and save a third from 1,000 on.
PARALLEL_FROM = 1000


@dataclass
class ClassifyReport:
    seen: int = 0
    classified: int = 0
    primary: int = 0
    adjacent: int = 0

    def summary(self) -> str:
        return (f"classify: {self.classified} of {self.seen} subjects (re)tagged — "
                f"{self.primary} primary, {self.adjacent} adjacent")


def _item(subject: SubjectText, hints: dict[str, tuple[str, ...]]) -> tuple[str, str, str | None, tuple[str, ...]]:
    """What the classifier reads of a subject (a note entry is judged by its heading without markers)."""
    title = clean_heading(subject.title) if subject.kind == "entry" else subject.title
    return title or "", subject.text or "", subject.category, hints.get(subject.feed or "", ())


def run_classify(ctx: RunContext, *, everything: bool = False) -> ClassifyReport:
    """Classify queued subjects (every subject with ``everything``, or when the classifier changed)."""
    from kb.store.tags import all_subjects, classified_with_other_model, queued_subjects, subject_count
    engine = load_engine(ctx)
    everything = everything or classified_with_other_model(ctx.store, engine.hash)
    subjects = all_subjects(ctx.store) if everything else queued_subjects(ctx.store)
    total = subject_count(ctx.store, queued=not everything)
    with ctx.progress("classify", total) if total >= PROGRESS_FROM else no_progress("classify") as bar:
        workers = _workers(total)
        report = _classify_all(ctx, subjects, engine, bar, workers=workers, batch=_batch_size(total, workers))
    from kb.store.tags import clear_stale_queue, stale_queued
    if stale_queued(ctx.store):   # queued, then deleted (a note removed): nothing left to classify
        with ctx.store.transaction() as tx:
            clear_stale_queue(tx)
    return report


def _workers(total: int) -> int:
    if total < PARALLEL_FROM or not hasattr(os, "fork"):
        return 1
    from pipeline.lock import usable_cores
    return max(1, min(4, usable_cores()))


def _batch_size(total: int, workers: int) -> int:
    """Batches of at most ``BATCH``; with workers, as many batches as a multiple of the workers, of one
    size, so none waits on another's last batch (a night's 2,600 subjects as 1,300 + 1,300, not
    2,000 + 600; 6,000 as four batches of 1,500, not 2,000 + 2,000 and then 2,000 on one worker)."""
    if workers <= 1:
        return BATCH
    rounds = -(-total // (BATCH * workers))          # each worker takes this many batches
    return max(1, -(-total // (rounds * workers)))


def _batches(subjects: Iterable[SubjectText], size: int) -> Iterator[list[SubjectText]]:
    batch: list[SubjectText] = []
    for s in subjects:
        batch.append(s)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _classify_all(ctx: RunContext, subjects: Iterable[SubjectText], engine: Engine, bar: Progress,
                  workers: int = 1, batch: int = BATCH) -> ClassifyReport:
    hints = {s.name: tuple(s.topics) for s in ctx.sources.of_kind("blog")}
    report = ClassifyReport()
    pending: deque[list[SubjectText]] = deque()     # batches sent, in order, until stored

    def items() -> Iterator[list]:
        for part in _batches(subjects, batch):
            report.seen += len(part)
            pending.append(part)
            yield [_item(s, hints) for s in part], [s.key for s in part]

    for judged in _judge(engine, items(), workers):
        done = pending.popleft()
        _flush(ctx, _classified(done, judged), engine.hash, report)
        bar.advance(len(done))
    return report


def _classified(subjects: list[SubjectText], judged: list[Any]) -> list[Classified]:
    return [Classified(s.kind, s.key, j.relevance, j.tags, j.docs) for s, j in zip(subjects, judged)]


def classify_papers(engine: Engine, papers: Iterable[PaperText]) -> list[Classified]:
    """What this stage would store for ``papers``, judged now and stored nowhere (a briefing's candidate the
    stage has not tagged yet): the same text and the same batch judging, so each doc's corrections
    (``kb label``, by the paper's ID) decide their papers here as they do in the stage."""
    subjects = [SubjectText("paper", p.arxiv_id, p.title, p.abstract, p.primary_category) for p in papers]
    if not subjects:
        return []
    return _classified(subjects, engine.judge_many([_item(s, {}) for s in subjects], [s.key for s in subjects]))


_ENGINE: Engine | None = None      # the forked workers' classifier (inherited, never pickled)


def _judge(engine: Engine, batches: Iterable[list], workers: int):
    """Judgements batch by batch, in order; forked workers when there are many.

    At most two batches per worker are in flight, so a re-tag of the whole store holds a few batches'
    texts, not all of them. A worker that dies (the kernel's OOM killer) fails the stage with one line;
    what was stored before stays, and what was not stays queued for the next run.
    """
    if workers <= 1:
        for items, keys in batches:
            yield engine.judge_many(items, keys)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    global _ENGINE
    _ENGINE = engine
    inflight: deque = deque()
    from pipeline.lock import leave_with_parent
    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork"),
                             initializer=leave_with_parent, initargs=(os.getpid(),)) as pool:   # never outlive it
        try:
            for batch in batches:
                inflight.append(pool.submit(_judge_in_worker, batch))
                if len(inflight) >= 2 * workers:
                    yield inflight.popleft().result()
            while inflight:
                yield inflight.popleft().result()
        except BrokenProcessPool:
            raise KBError("a classify worker died (out of memory?): the subjects judged so far are stored, "
                          "the others stay queued for the next run") from None


def _judge_in_worker(batch: tuple[list, list]) -> list:
    assert _ENGINE is not None
    return _ENGINE.judge_many(*batch)


def _flush(ctx: RunContext, items: list[Classified], model_hash: str, report: ClassifyReport) -> None:
    from kb.store.tags import save_classifications
    with ctx.store.transaction() as tx:
        save_classifications(tx, items, model_hash)
    report.classified += len(items)
    report.primary += sum(c.relevance == "primary" for c in items)
    report.adjacent += sum(c.relevance == "adjacent" for c in items)


def explain_subject(ctx: RunContext, ident: str, doc: str | None = None) -> list[str]:
    """Why a paper (any ID form), post key or note entry (path#N) got its tags and relevance."""
    from kb.errors import NotFound
    from kb.store.tags import subject_text
    from pipeline.classify.teamlabels import refuse_unknowable_ident, subject_of
    refuse_unknowable_ident(ident)
    found = subject_of(ctx.store, ident)
    if found is None:
        raise NotFound(f"{shortened(ident, 80)} is not in the store (a paper ID, a post key or a note entry path#N)")
    kind, key, title, text = found
    subject = subject_text(ctx.store, kind, key)
    hints = {s.name: tuple(s.topics) for s in ctx.sources.of_kind("blog")}
    engine = load_engine(ctx)
    lines = engine.explain(title, text, hints=hints.get(getattr(subject, "feed", None) or "", ()),
                           category=getattr(subject, "category", None), docs=[doc] if doc else (), key=key)
    return [f"{kind} {key}: {title}", *lines]
