"""Ingest public sources: fetch (network or recording) → pure parse → one store transaction.

Every run of every source writes one health-ledger row, whatever happened. A
source that fails rolls back its own batch and the others go on.
"""
from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kb.config import BlogSource
from kb.errors import KBError, SourceError, WorkspaceError
from kb.records import PaperRecord, ParseResult, PostRecord
from kb.store.ledger import payload_hash, record_run
from pipeline.context import RunContext

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
    validators: tuple[str | None, str | None] = (None, None)  # ETag, Last-Modified of the last fetch
    digest: str | None = None         # sha256 of the payloads: an unchanged body is not parsed again

    def summary(self) -> str:
        """One line of counts, then each problem indented on its own line (at most 20)."""
        line = (f"{self.name}: {self.status} — parsed {self.parsed}, new {self.new}, "
                f"updated {self.updated}, skipped {self.skipped}")
        line += f" — {self.error}" if self.error else ""
        shown = [f"  - {p}" for p in self.problems[:20]]
        if len(self.problems) > 20:
            shown.append(f"  - … and {len(self.problems) - 20} more")
        return "\n".join([line, *shown])


@dataclass
class SourceSpec:
    name: str
    kind: str                         # arxiv, hf, blog, arxiv-api, arxiv-bulk
    url: str | None = None
    credibility: int | None = None


# What one item may bring: a real title is a line, a real abstract a page. A field past its
# bound is cut (the item is kept and the cut named), so a hostile or broken source cannot
# bloat the store, the search index or a briefing.
PAPER_LIMITS = {"title": 1_000, "abstract": 20_000, "comment": 2_000, "journal_ref": 1_000, "doi": 300}
POST_LIMITS = {"title": 1_000, "summary": 20_000, "content": 20_000}
MAX_AUTHORS, MAX_NAME = 5_000, 300


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def bound_record(rec: PaperRecord | PostRecord) -> list[str]:
    """Cut over-long fields of ``rec`` in place; return one problem per field cut."""
    limits = PAPER_LIMITS if isinstance(rec, PaperRecord) else POST_LIMITS
    name = rec.arxiv_id if isinstance(rec, PaperRecord) else rec.key[:200]
    problems = []
    for fld, limit in limits.items():
        value = getattr(rec, fld)
        if value and len(value) > limit:
            setattr(rec, fld, _cut(value, limit))
            problems.append(f"{name}: {fld} of {len(value):,} characters cut to {limit:,}")
    authors = rec.authors
    if len(authors) > MAX_AUTHORS or any(len(a) > MAX_NAME for a in authors):
        rec.authors = [_cut(a, MAX_NAME) for a in authors[:MAX_AUTHORS]]
        problems.append(f"{name}: author list cut ({len(authors):,} names, the longest "
                        f"{max(map(len, authors)):,} characters)")
    return problems


Parser = Callable[[bytes], ParseResult]
Collector = Callable[[SourceReport], "list[ParseResult] | None"]


def collect_payloads(payloads: list[Callable[[], Payload]], parse: Parser, *,
                     previous_digest: str | None = None, track: bool = False) -> Collector:
    """Fetch each payload and parse it.

    None means nothing changed: the server said 304, or — when ``track``ing digests, as
    the nightly does — the bytes are exactly those the source saved last time
    (``previous_digest``): a rerun does no parsing and no writing.
    """
    def collect(report: SourceReport) -> list[ParseResult] | None:
        fetched = [get() for get in payloads]
        for payload in fetched:
            report.http_status = payload.http_status
            report.bytes += len(payload.data)
        if fetched and all(p.not_modified for p in fetched):
            return None
        if track:
            digest = hashlib.sha256()
            for payload in fetched:
                digest.update(hashlib.sha256(payload.data).digest())
            report.digest = digest.hexdigest()
            if report.digest == previous_digest:
                return None
        results = []
        for payload in fetched:
            if payload.not_modified:
                continue
            results.append(parse(payload.data))
            report.validators = (payload.etag, payload.last_modified)
        return results
    return collect


def run_source(ctx: RunContext, spec: SourceSpec, collect: Collector) -> SourceReport:
    """Collect a source's parse results and save them all in one transaction.

    Any KBError (network, parse, store) fails this source only: its batch is
    rolled back, the error goes to the ledger and the report.
    """
    report = SourceReport(spec.name, spec.kind)
    started = ctx.now()
    t0 = time.monotonic()
    try:
        results = collect(report)
        if results is None:
            report.status = "not-modified"
        else:
            save_results(ctx, spec, results, report)
    except KBError as exc:
        report.status, report.error = "failed", str(exc)
        if isinstance(exc, SourceError) and exc.status:
            report.http_status = exc.status
        log.warning("source %s failed: %s", spec.name, exc)
    except Exception as exc:  # a bug or an unforeseen input must cost this source only, never the run
        report.status, report.error = "failed", f"unexpected {type(exc).__name__}: {exc}"
        log.exception("source %s failed unexpectedly", spec.name)
    report.duration_ms = int((time.monotonic() - t0) * 1000)
    record_ledger(ctx, report, started.isoformat(timespec="seconds"))
    return report


def save_results(ctx: RunContext, spec: SourceSpec, results: list[ParseResult], report: SourceReport) -> None:
    """Write one source's records in a single transaction and fill in the report's counts."""
    from kb.store.files import add_mentions
    from kb.store.papers import (add_sightings, register_source, save_validators, upsert_papers,
                                 upsert_posts)
    papers = [p for r in results for p in r.papers]
    sightings = [s for r in results for s in r.sightings]
    posts = [p for r in results for p in r.posts]
    report.problems = [p for r in results for p in r.problems]
    report.parsed = len(papers) + len(posts)
    report.skipped = len(report.problems)
    report.problems += [p for rec in [*papers, *posts] for p in bound_record(rec)]  # kept, but cut
    with ctx.store.transaction() as conn:
        register_source(conn, spec.name, spec.kind, spec.url, spec.credibility)
        counts = upsert_papers(conn, papers, spec.name)
        pcounts = upsert_posts(conn, posts)
        add_sightings(conn, sightings)
        add_mentions(conn, [{"subject": a, "arxiv_id": a, "version": None, "origin_kind": "post", "origin": p.key,
                             "entry": 0, "seen_on": (p.published or "")[:10] or None}
                            for p in posts for a in p.arxiv_ids])
        if any(report.validators) or report.digest:
            save_validators(conn, spec.name, *report.validators, report.digest)
    report.new, report.updated = counts.new + pcounts.new, counts.updated + pcounts.updated
    if results and all(r.empty_day for r in results):
        report.status = "empty"
    elif not report.parsed and report.problems:
        report.status = "failed"
        report.error = report.problems[0]


def record_ledger(ctx: RunContext, report: SourceReport, started_at: str) -> None:
    """Write the run's health-ledger row in its own transaction (after the batch committed or rolled back)."""
    row = {"source": report.name, "run_date": ctx.today.isoformat(), "started_at": started_at,
           "duration_ms": report.duration_ms, "status": report.status, "http_status": report.http_status,
           "bytes": report.bytes, "parsed": report.parsed, "new": report.new, "updated": report.updated,
           "skipped": report.skipped, "error": report.error, "problems": report.problems[:100]}
    try:
        record_run(ctx.store, row)
    except KBError as exc:  # the store itself is unwritable: the report still says what happened
        log.error("could not write the health ledger for %s: %s", report.name, exc)
        report.error = (report.error + "; " if report.error else "") + f"ledger not written: {exc}"


def _previous(ctx: RunContext, source: str) -> str | None:
    return payload_hash(ctx.store, source) if ctx.skip_unchanged else None


# --------------------------------------------------------------------------- payload getters
def from_file(path: Path) -> Callable[[], Payload]:
    """A payload read from a recording the user named (``--from-file``)."""
    def get() -> Payload:
        try:
            return Payload(path.read_bytes(), str(path))
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror}") from exc
    return get


def from_recording(ctx: RunContext, template: str) -> Callable[[], Payload]:
    """A payload read from a recording configured in kb.toml (a path inside the workspace)."""
    def get() -> Payload:
        rel = template.format(date=ctx.today.isoformat())
        try:
            path = ctx.workspace.path(rel)
        except WorkspaceError as exc:
            raise SourceError(str(exc)) from exc
        if not path.is_file():
            raise SourceError(f"no recording {rel} for {ctx.today.isoformat()}")
        return from_file(path)()
    return get


def from_url(ctx: RunContext, name: str, url: str, **fetch_kw) -> Callable[[], Payload]:
    """A payload fetched over HTTP with the conditional-GET validators stored for ``name``."""
    def get() -> Payload:
        if ctx.offline:
            raise SourceError(f"{name}: offline and no recording configured")
        rows = ctx.store.query("SELECT etag, last_modified FROM sources WHERE name = ? AND url = ?", (name, url))
        etag, modified = (rows[0]["etag"], rows[0]["last_modified"]) if rows else (None, None)
        res = ctx.http.fetch(url, etag=etag, last_modified=modified, **fetch_kw)
        return Payload(res.body, res.url, res.status, res.etag, res.last_modified, res.not_modified)
    return get


# --------------------------------------------------------------------------- the configured sources
def _pick(ctx: RunContext, name: str, url: str | None, recording: str | None,
          files: list[Path] | None) -> list[Callable[[], Payload]]:
    if files:
        return [from_file(f) for f in files]
    if recording and (ctx.offline or not url):
        return [from_recording(ctx, recording)]
    if url:
        return [from_url(ctx, name, url)]
    raise SourceError(f"{name}: no URL and no recording configured")


def ingest_arxiv_listing(ctx: RunContext, files: list[Path] | None = None) -> SourceReport:
    """The arXiv daily listing for the configured categories (RSS/Atom; API answers accepted from files)."""
    from pipeline.sources.detect import detect_format
    from pipeline.sources.arxiv_api import parse_api_response
    from pipeline.sources.arxiv_listing import parse_listing
    cfg = ctx.config
    url = cfg.arxiv_url.format(categories="+".join(cfg.arxiv_categories))

    def parse(data: bytes) -> ParseResult:
        fmt = detect_format(data)
        if fmt == "arxiv-api":
            return parse_api_response(data)
        if fmt not in ("arxiv-rss", "arxiv-atom-listing"):
            from kb.errors import ParseError
            raise ParseError(f"not an arXiv listing or API answer (looks like {fmt})")
        return parse_listing(data)

    spec = SourceSpec("arxiv", "arxiv", url, cfg.arxiv_credibility)
    big = [f for f in files or [] if _is_big_api_file(f)]
    if big:   # a backfill-sized API answer: streamed in batches, like a bulk file
        from pipeline.bulk import ingest_stream
        from pipeline.sources.arxiv_api import iter_api_entries
        reports = [ingest_stream(ctx, f, iter_api_entries, source="arxiv", sighting_kind="api") for f in big]
        rest = [f for f in files if f not in big]
        if rest:
            reports.append(run_source(ctx, spec, collect_payloads(_pick(ctx, "arxiv", url, None, rest), parse)))
        return _merge_reports(reports)
    return run_source(ctx, spec, collect_payloads(_pick(ctx, "arxiv", url, cfg.arxiv_recording, files), parse,
                                                  previous_digest=_previous(ctx, spec.name), track=ctx.skip_unchanged))


STREAM_OVER = 8 * 1024 * 1024   # an API answer bigger than this is a backfill file, not a page


def _is_big_api_file(path: Path) -> bool:
    from pipeline.sources.detect import detect_format
    try:
        if path.stat().st_size <= STREAM_OVER:
            return False
        with path.open("rb") as fh:
            return detect_format(fh.read(8192)) == "arxiv-api"
    except (OSError, KBError):
        return False   # unreadable or unrecognised: the ordinary path reports it


def ingest_hf(ctx: RunContext, files: list[Path] | None = None) -> SourceReport:
    """Hugging Face Daily Papers for the run's date (the featured date, kept apart from the arXiv date)."""
    from pipeline.sources.hf_daily import featured_date_from_name, parse_daily_papers
    cfg = ctx.config
    day = ctx.today.isoformat()
    url = cfg.hf_url.format(date=day)
    spec = SourceSpec("hf", "hf", url, cfg.hf_credibility)
    getters = _pick(ctx, "hf", url, cfg.hf_recording, files)
    if files:  # each recording carries its own featured date in its name
        results = []
        for f, get in zip(files, getters):
            featured = featured_date_from_name(f.name) or day
            results.append((get, lambda data, d=featured: parse_daily_papers(data, featured_date=d)))
        reports = [run_source(ctx, spec, collect_payloads([g], p, previous_digest=_previous(ctx, "hf"),
                                                      track=ctx.skip_unchanged))
                   for g, p in results]
        return _merge_reports(reports)
    return run_source(ctx, spec, collect_payloads(getters, lambda data: parse_daily_papers(data, featured_date=day),
                                                  previous_digest=_previous(ctx, "hf"), track=ctx.skip_unchanged))


def ingest_blog(ctx: RunContext, blog: BlogSource, files: list[Path] | None = None) -> SourceReport:
    """One configured blog feed."""
    from pipeline.sources.blogs import parse_feed
    spec = SourceSpec(blog.name, "blog", blog.url, blog.credibility)
    return run_source(ctx, spec, collect_payloads(_pick(ctx, blog.name, blog.url, blog.recording, files),
                                                  lambda data: parse_feed(data, feed=blog.name),
                                                  previous_digest=_previous(ctx, blog.name), track=ctx.skip_unchanged))


def ingest_blogs(ctx: RunContext, feed: str | None = None, files: list[Path] | None = None) -> list[SourceReport]:
    """Every configured blog (or the one named ``feed``)."""
    blogs = ctx.config.blogs
    if feed:
        blogs = [b for b in blogs if b.name == feed]
        if not blogs:
            from kb.errors import ConfigError
            raise ConfigError(f"no feed named {feed!r} in kb.toml (feeds: "
                              + ", ".join(b.name for b in ctx.config.blogs) + ")")
    elif files:  # recordings not tied to a configured feed: each file is a feed named after it
        return [ingest_blog(ctx, BlogSource(name=f.stem), [f]) for f in files]
    return [ingest_blog(ctx, b, files) for b in blogs]


def ingest_public_sources(ctx: RunContext) -> list[SourceReport]:
    """arXiv listing, HF Daily (if enabled) and every blog, each independent of the others."""
    reports = [ingest_arxiv_listing(ctx)]
    if ctx.config.hf_enabled:
        reports.append(ingest_hf(ctx))
    reports += ingest_blogs(ctx)
    return reports


def _merge_reports(reports: list[SourceReport]) -> SourceReport:
    out = SourceReport(reports[0].name, reports[0].kind)
    for r in reports:
        for f in ("bytes", "parsed", "new", "updated", "skipped", "duration_ms"):
            setattr(out, f, getattr(out, f) + getattr(r, f))
        out.problems += r.problems
        if r.status == "failed":
            out.status, out.error = "failed", r.error
    return out
