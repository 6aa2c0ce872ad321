"""How a source is run: fetch (network or recording) → pure parse → one store transaction.

Every run of every source — public sources, bulk files, the workspace — happens inside
``source_run``, the one bracket: it times the run, makes any failure the source's own
(its batch rolls back, the others go on) and writes one health-ledger row, whatever happened.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC

from kb.crashlog import write_crash_log
from kb.errors import KBError, SourceError, StoreUnreachable
from kb.records import PaperRecord, ParseResult, PostRecord
from kb.store.sources import payload_hash, record_run
from kb.text import counted
from pipeline.context import RUN_LOG_ONLY, RunContext

log = logging.getLogger(__name__)


@dataclass
class Payload:
    """Bytes from one fetch or one recording, with what HTTP said about them."""

    data: bytes
    origin: str                       # URL or file path, for messages
    http_status: int | None = None
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    recording: bool = False           # read from the workspace's configured recording, not fetched


@dataclass
class SourceReport:
    """One line of the summary and one row of the health ledger."""

    name: str
    kind: str
    status: str = "ok"                # ok, empty, not-modified, failed
    http_status: int | None = None
    bytes: int = 0
    parsed: int = 0
    new: int = 0
    updated: int = 0
    skipped: int = 0
    error: str | None = None
    duration_ms: int = 0
    problems: list[str] = field(default_factory=list)
    standing: int = 0                 # problems an earlier read found in files unchanged since (`kb audit`'s)
    validators: tuple[str | None, str | None] = (None, None)  # ETag, Last-Modified of the last fetch
    digest: str | None = None         # sha256 of the payloads: an unchanged body is not parsed again
    manual: bool = False              # --from-file: the user's run, not the configured source's health
    recording: bool = False           # the payloads were the configured recordings (an offline run)
    traceback_at: str | None = None   # a bug's crash log, when no run log keeps it (not stored)

    def summary(self) -> str:
        """One line of counts, then each problem indented on its own line (at most 20)."""
        line = (f"{self.name}: {self.status} — parsed {self.parsed}, new {self.new}, "
                f"updated {self.updated}, skipped {self.skipped}")
        line += f" — {self.error}" if self.error else ""
        line += f" (traceback in {self.traceback_at})" if self.traceback_at else ""
        shown = [f"  - {p}" for p in self.problems[:20]]
        if len(self.problems) > 20:
            shown.append(f"  - … and {len(self.problems) - 20} more")
        if self.standing:   # read on an earlier night, not fixed since: said every night until they are
            one = self.standing == 1
            shown.append(f"  - {counted(self.standing, 'problem')} found before still "
                         f"{'stands in a file' if one else 'stand in files'} unchanged since (`kb audit` lists "
                         f"{'it' if one else 'them'})")
        return "\n".join([line, *shown])


@dataclass
class SourceSpec:
    name: str
    kind: str                         # arxiv, hf, blog, arxiv-api, arxiv-bulk, workspace
    url: str | None = None
    credibility: int | None = None
    manual: bool = False              # files named by the user (--from-file)


# What one item may bring: a real title is a line, a real abstract a page. A field past its
# bound is cut (the item is kept and the cut named), so a hostile or broken source cannot
# bloat the store, the search index or a briefing.
PAPER_LIMITS = {"title": 1_000, "abstract": 20_000, "comment": 2_000, "journal_ref": 1_000, "doi": 300}
POST_LIMITS = {"title": 1_000, "summary": 20_000, "content": 20_000}
MAX_AUTHORS, MAX_NAME = 5_000, 300


def _cut_marked(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def bound_record(rec: PaperRecord | PostRecord) -> list[str]:
    """Cut over-long fields of ``rec`` in place; return one problem per field cut."""
    limits = PAPER_LIMITS if isinstance(rec, PaperRecord) else POST_LIMITS
    name = rec.arxiv_id if isinstance(rec, PaperRecord) else rec.key[:200]
    problems = []
    for fld, limit in limits.items():
        value = getattr(rec, fld)
        if value and len(value) > limit:
            setattr(rec, fld, _cut_marked(value, limit))
            problems.append(f"{name}: {fld} of {len(value):,} characters cut to {limit:,}")
    authors = rec.authors
    if len(authors) > MAX_AUTHORS or any(len(a) > MAX_NAME for a in authors):
        rec.authors = [_cut_marked(a, MAX_NAME) for a in authors[:MAX_AUTHORS]]
        problems.append(f"{name}: author list cut ({len(authors):,} names, the longest "
                        f"{max(map(len, authors)):,} characters)")
    return problems


Parser = Callable[[bytes, str], ParseResult]   # (payload, where it came from) → records


class Collector:
    """A source's payloads and its parser: ``fetch`` then ``parse``, or both at once by calling it.

    The two steps are apart so that an unchanged payload (304, or the same bytes as last
    time) is never parsed.
    """

    def __init__(self, payloads: list[Callable[[], Payload]], parse: Parser, *,
                 previous_digest: str | None = None, track: bool = False) -> None:
        self.payloads, self.parser = payloads, parse
        self.previous_digest, self.track = previous_digest, track

    @property
    def remote(self) -> bool:
        """Does a payload come over the network (not from a recording or a file)?"""
        return any(getattr(get, "remote", False) for get in self.payloads)

    def fetch(self, report: SourceReport) -> list[Payload] | None:
        """The payloads to parse; None means nothing changed.

        Nothing changed when the server said 304, or — when ``track``ing digests, as the
        nightly does — the bytes are exactly those the source saved last time: a rerun
        does no parsing and no writing.
        """
        fetched = [get() for get in self.payloads]
        for payload in fetched:
            report.http_status = payload.http_status
            report.bytes += len(payload.data)
            report.recording = report.recording or payload.recording
        if fetched and all(p.not_modified for p in fetched):
            return None
        if self.track:
            digest = hashlib.sha256()
            for payload in fetched:
                digest.update(hashlib.sha256(payload.data).digest())
            report.digest = digest.hexdigest()
            if report.digest == self.previous_digest:
                return None
        fresh = [p for p in fetched if not p.not_modified]
        if fresh:
            report.validators = (fresh[-1].etag, fresh[-1].last_modified)
        return fresh

    def parse(self, payloads: list[Payload]) -> list[ParseResult]:
        """Parse fetched payloads (pure: bytes in, records out)."""
        return [self.parser(p.data, p.origin) for p in payloads]

    def __call__(self, report: SourceReport) -> list[ParseResult] | None:
        fetched = self.fetch(report)
        return None if fetched is None else self.parse(fetched)


@contextlib.contextmanager
def failures_recorded(report: SourceReport, ctx: RunContext) -> Iterator[None]:
    """Turn any error inside the block into this source's failure (the run goes on).

    A KBError (network, parse, store) is the source's failure as it says; anything else
    is a bug or an unforeseen input, which must cost this source only, never the run. Its
    traceback is kept where the console's one line points: the run's log, else a crash log.
    A store whose server went away is the run's failure, not the source's: every later source
    would meet it too, so it stops the run (said once) instead of failing each one in turn.
    """
    try:
        yield
    except StoreUnreachable:
        raise
    except KBError as exc:
        report.status, report.error = "failed", str(exc)
        if isinstance(exc, SourceError) and exc.status:
            report.http_status = exc.status
        log.info("source %s failed: %s", report.name, exc)   # the report says it; the run log keeps it
    except Exception as exc:
        report.status, report.error = "failed", f"unexpected {type(exc).__name__}: {exc}"
        # the report's line says it; the console shows the traceback with --verbose only
        log.exception("source %s failed unexpectedly", report.name, extra=RUN_LOG_ONLY)
        if not ctx.run_log:
            path = write_crash_log("".join(traceback.format_exception(exc)), ctx.workspace.root)
            report.traceback_at = ctx.workspace.relative(path) if path else None


class SourceRun:
    """One source's run: a report, timed over the steps it takes, any failure in a step the source's own
    (the run goes on), and one health-ledger row when it is ``close``d, whatever happened."""

    def __init__(self, ctx: RunContext, spec: SourceSpec) -> None:
        self.ctx, self.spec = ctx, spec
        self.report = SourceReport(spec.name, spec.kind, manual=spec.manual)
        self.started: str | None = None   # when its first step began (the ledger's started_at)
        self._seconds = 0.0

    @contextlib.contextmanager
    def step(self) -> Iterator[SourceReport]:
        """A step of the run (fetch, parse, save): timed; a failure inside ends the source's run."""
        if self.started is None:
            self.started = self.ctx.now().isoformat(timespec="seconds")
        t0 = time.monotonic()
        try:
            with failures_recorded(self.report, self.ctx):
                yield self.report
        finally:
            self._seconds += time.monotonic() - t0

    @property
    def failed(self) -> bool:
        return self.report.status == "failed"

    def close(self) -> SourceReport:
        self.report.duration_ms = int(self._seconds * 1000)
        record_ledger(self.ctx, self.report, self.started or self.ctx.now().isoformat(timespec="seconds"))
        return self.report


@contextlib.contextmanager
def source_run(ctx: RunContext, spec: SourceSpec) -> Iterator[SourceReport]:
    """The one bracket every source runs in, as one step: a report, timed; any failure inside is this
    source's (the run goes on); one health-ledger row at the end, whatever happened."""
    run = SourceRun(ctx, spec)
    with run.step() as report:
        yield report
    run.close()


def run_source(ctx: RunContext, spec: SourceSpec, collect: Callable[[SourceReport], list[ParseResult] | None]
               ) -> SourceReport:
    """Collect a source's parse results and save them all in one transaction.

    Any error fails this source only: its batch is rolled back, the error goes to the
    ledger and the report.
    """
    with source_run(ctx, spec) as report:
        results = collect(report)
        if results is None:
            report.status = "not-modified"
        else:
            save_results(ctx, spec, results, report)
    return report


def run_sources(ctx: RunContext, plans: list[tuple[SourceSpec, Collector]]) -> list[SourceReport]:
    """Run each source, each independent of the others, its records saved in its own transaction.

    A night that reads its payloads from the network runs each source in turn (fetched, parsed, saved): the
    network sets its pace, and a night cut short (a source hanging until cron's timeout) keeps every source
    saved before. One that reads recordings or files (``--offline``, a replayed day) fetches them all first,
    parses them (by forked workers when there is much to parse, ``pipeline.ingest.parse_pool``), then saves
    each in the sources' order."""
    if any(collector.remote for _, collector in plans):
        return [run_source(ctx, spec, collector) for spec, collector in plans]
    from pipeline.ingest.parse_pool import parsed_ahead
    runs = [SourceRun(ctx, spec) for spec, _ in plans]
    fetched: list[list[Payload] | None] = []
    for run, (_, collector) in zip(runs, plans):
        payloads = None
        with run.step() as report:
            payloads = collector.fetch(report)
            if payloads is None:
                report.status = "not-modified"
        fetched.append(None if run.failed else payloads)
    todo = [i for i, payloads in enumerate(fetched) if payloads is not None]
    size = sum(len(p.data) for i in todo for p in fetched[i] or ())
    with parsed_ahead([functools.partial(plans[i][1].parse, fetched[i]) for i in todo], size) as parsed:
        records = dict(zip(todo, parsed))
        if records:   # meanwhile any workers parse: the first save does not wait for both
            with contextlib.suppress(KBError):   # a store that cannot be written: each save's step says so
                ctx.store.prepare_writes()
        for i, run in enumerate(runs):
            if i in records:
                with run.step() as report:
                    save_results(ctx, run.spec, records[i].result(), report)
            run.close()
    return [run.report for run in runs]


def save_results(ctx: RunContext, spec: SourceSpec, results: list[ParseResult], report: SourceReport) -> None:
    """Write one source's records in a single transaction and fill in the report's counts."""
    from kb.store.papers import add_sightings, save_papers
    from kb.store.posts import save_posts
    from kb.store.sources import register_source, save_validators
    papers = [p for r in results for p in r.papers]
    sightings = [s for r in results for s in r.sightings]
    posts = [p for r in results for p in r.posts]
    report.problems = [p for r in results for p in r.problems]
    report.parsed = len(papers) + len(posts)
    report.skipped = len(report.problems)
    # nothing read, only problems: a failure, whose validators and digest are not kept, so that a rerun
    # fetches and parses the payload again rather than calling it unchanged (which hides the failure)
    empty = bool(results) and all(r.empty_day for r in results)
    failed = not empty and not report.parsed and bool(report.problems)
    report.problems += [p for rec in [*papers, *posts] for p in bound_record(rec)]  # kept, but cut
    with ctx.store.transaction() as tx:
        register_source(tx, spec.name, spec.kind, spec.url, spec.credibility)
        counts = save_papers(tx, papers, spec.name)
        counts += save_posts(tx, posts, read_at=read_at(ctx))
        add_sightings(tx, sightings)
        if (any(report.validators) or report.digest) and not failed:
            save_validators(tx, spec.name, *report.validators, report.digest)
    report.new, report.updated = counts.new, counts.updated
    if empty:
        report.status = "empty"
    elif failed:
        report.status = "failed"
        report.error = report.problems[0]


def read_at(ctx: RunContext) -> str:
    """When a night's payloads count as read, in UTC: its day's cut-off in the workspace's time zone, the end of
    the window its briefing covers (a replayed past day reads as that night did)."""
    return ctx.config.cutoff_at(ctx.today).astimezone(UTC).strftime("%Y-%m-%dT%H:%M")


def record_ledger(ctx: RunContext, report: SourceReport, started_at: str) -> None:
    """Write the run's health-ledger row in its own transaction (after the batch committed or rolled back)."""
    row = {"source": report.name, "run_date": ctx.today.isoformat(), "started_at": started_at,
           "duration_ms": report.duration_ms, "status": report.status, "http_status": report.http_status,
           "bytes": report.bytes, "parsed": report.parsed, "new": report.new, "updated": report.updated,
           "skipped": report.skipped, "error": report.error, "problems": report.problems[:100],
           "manual": int(report.manual), "recording": int(report.recording)}
    try:
        record_run(ctx.store, row)
    except StoreUnreachable:   # the run's failure (see failures_recorded), not a ledger row to report per source
        raise
    except KBError as exc:  # the store itself is unwritable: the report still says what happened
        log.error("could not write the health ledger for %s: %s", report.name, exc)
        report.error = (report.error + "; " if report.error else "") + f"ledger not written: {exc}"


def previous_digest(ctx: RunContext, source: str) -> str | None:
    """The digest of the payloads ``source`` saved last, when this run skips unchanged ones."""
    return payload_hash(ctx.store, source) if ctx.skip_unchanged else None


def merge_reports(reports: list[SourceReport]) -> SourceReport:
    """One report for several runs of one source (several files)."""
    out = SourceReport(reports[0].name, reports[0].kind, manual=reports[0].manual)
    if all(r.status == reports[0].status for r in reports):
        out.status = reports[0].status   # one file of a weekend's empty listing is "empty", not "ok"
    for r in reports:
        for f in ("bytes", "parsed", "new", "updated", "skipped", "duration_ms"):
            setattr(out, f, getattr(out, f) + getattr(r, f))
        out.problems += r.problems
        if r.status == "failed":
            out.status, out.error = "failed", r.error
    return out
