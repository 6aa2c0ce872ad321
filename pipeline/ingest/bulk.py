"""Backfill from bulk metadata files (Kaggle JSON lines, OAI-PMH XML), streamed in batches.

Each batch is one transaction and every write is an idempotent upsert, so a run
killed at any point leaves a consistent store, and running it again converges to
the same store a clean run would have made.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from kb.errors import KBError, SourceError, StoreUnreachable
from kb.records import PaperRecord, Sighting
from kb.store.papers import add_sightings, save_papers
from kb.store.search import merge_backlog
from kb.store.sources import register_source
from kb.text import counted
from pipeline.context import Progress, RunContext
from pipeline.ingest.run import SourceReport, SourceSpec, bound_record, source_run


def _flush(ctx: RunContext, batch: list[PaperRecord], report: SourceReport, sighting_kind: str) -> None:
    with ctx.store.transaction() as tx:
        counts = save_papers(tx, batch, report.name)
        # The file's own date for each paper: its latest version's date.
        add_sightings(tx, [Sighting(p.arxiv_id, report.name, p.updated or p.published or "", sighting_kind,
                                      p.version) for p in batch if p.updated or p.published])
    report.new += counts.new
    report.updated += counts.updated


def ingest_bulk_file(ctx: RunContext, path: Path, *, batch: int = 5000) -> SourceReport:
    """Stream a Kaggle or OAI-PMH file into the store, ``batch`` records per transaction; one ledger row."""
    from pipeline.sources.arxiv_bulk import iter_bulk
    return ingest_stream(ctx, path, iter_bulk, source="arxiv-bulk", sighting_kind="bulk", batch=batch)


def ingest_stream(ctx: RunContext, path: Path, iterate: Callable[[IO[bytes]], Iterable[PaperRecord | str]], *,
                  source: str, sighting_kind: str, batch: int = 5000, manual: bool = False) -> SourceReport:
    """Stream records from ``path`` into the store, ``batch`` per transaction; one ledger row.

    Every write is an idempotent upsert, so a run killed anywhere leaves a consistent store and
    a rerun converges to what a clean run makes. Memory does not grow with the file.
    """
    with source_run(ctx, SourceSpec(source, source, manual=manual)) as report:
        try:
            with ctx.progress(f"{path.name}: records", None) as bar:
                _stream(ctx, path, iterate, report, sighting_kind, batch, bar)
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror}") from exc
        except StoreUnreachable:   # the run's failure, not this file's (pipeline.ingest.run.failures_recorded)
            raise
        except KBError as exc:
            raise SourceError(f"{path.name}: {exc} (after {counted(report.parsed, 'record')})") from exc
        if report.parsed == 0:
            report.status = "empty"
    return report


def _stream(ctx: RunContext, path: Path, iterate: Callable[[IO[bytes]], Iterable[PaperRecord | str]],
            report: SourceReport, sighting_kind: str, batch: int, bar: Progress) -> None:
    with ctx.store.transaction() as tx:
        register_source(tx, report.name, report.kind, None, None)
    with path.open("rb") as fh:
        pending: list[PaperRecord] = []
        for item in iterate(fh):
            if isinstance(item, str):
                report.skipped += 1
                report.problems.append(item)
                continue
            report.problems += bound_record(item)
            pending.append(item)
            report.parsed += 1
            if len(pending) >= batch:
                _flush(ctx, pending, report, sighting_kind)
                bar.advance(len(pending))
                pending = []
        if pending:
            _flush(ctx, pending, report, sighting_kind)
            bar.advance(len(pending))
    if report.parsed > batch:   # several batches: the backfill merges its index segments itself
        merge_backlog(ctx.store)
    report.bytes = path.stat().st_size
