"""Ingest public sources: the arXiv listing, HF Daily Papers and blog feeds.

Each source is a ``Collector`` (where its payloads come from, how they parse) run by
``pipeline.ingest.run``: alone for ``kb ingest …``, all together for the nightly.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kb.config import BlogSource
from kb.errors import KBError, SourceError, WorkspaceError
from kb.records import ParseResult
from pipeline.context import RunContext
from pipeline.ingest.run import (Collector, Payload, SourceReport, SourceSpec, previous_digest, run_source,
                                 run_sources)


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


def _tracked(ctx: RunContext, name: str, getters: list[Callable[[], Payload]],
             parse: Callable[[bytes], ParseResult]) -> Collector:
    """A collector that skips the payloads this source saved last (in runs that skip unchanged ones)."""
    return Collector(getters, parse, previous_digest=previous_digest(ctx, name), track=ctx.skip_unchanged)


def _arxiv_url(ctx: RunContext) -> str:
    return ctx.config.arxiv_url.format(categories="+".join(ctx.config.arxiv_categories))


def _parse_arxiv(data: bytes) -> ParseResult:
    """A listing (RSS or Atom) or an API answer, whichever the bytes are."""
    from pipeline.sources.arxiv_api import parse_api_response
    from pipeline.sources.arxiv_listing import parse_listing
    from pipeline.sources.detect import detect_format
    fmt = detect_format(data)
    if fmt == "arxiv-api":
        return parse_api_response(data)
    if fmt not in ("arxiv-rss", "arxiv-atom-listing"):
        from kb.errors import ParseError
        raise ParseError(f"not an arXiv listing or API answer (looks like {fmt})")
    return parse_listing(data)


def arxiv_listing_plan(ctx: RunContext) -> tuple[SourceSpec, Collector]:
    """The configured arXiv listing as a source to run."""
    url = _arxiv_url(ctx)
    return (SourceSpec("arxiv", "arxiv", url, ctx.config.arxiv_credibility),
            _tracked(ctx, "arxiv", _pick(ctx, "arxiv", url, ctx.config.arxiv_recording, None), _parse_arxiv))


def ingest_arxiv_listing(ctx: RunContext, files: list[Path] | None = None) -> SourceReport:
    """The arXiv daily listing for the configured categories (RSS/Atom; API answers accepted from files)."""
    if not files:
        return run_source(ctx, *arxiv_listing_plan(ctx))
    url = _arxiv_url(ctx)
    spec = SourceSpec("arxiv", "arxiv", url, ctx.config.arxiv_credibility)
    big = [f for f in files if _is_big_api_file(f)]
    reports = []
    if big:   # a backfill-sized API answer: streamed in batches, like a bulk file
        from pipeline.ingest.bulk import ingest_stream
        from pipeline.sources.arxiv_api import iter_api_entries
        reports = [ingest_stream(ctx, f, iter_api_entries, source="arxiv", sighting_kind="api") for f in big]
    rest = [f for f in files if f not in big]
    if rest:
        reports.append(run_source(ctx, spec, _tracked(ctx, "arxiv", _pick(ctx, "arxiv", url, None, rest),
                                                      _parse_arxiv)))
    return _merge_reports(reports)


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


def _hf_spec(ctx: RunContext) -> SourceSpec:
    return SourceSpec("hf", "hf", ctx.config.hf_url.format(date=ctx.today.isoformat()), ctx.config.hf_credibility)


def hf_plan(ctx: RunContext) -> tuple[SourceSpec, Collector]:
    """Hugging Face Daily Papers of the run's date as a source to run."""
    from pipeline.sources.hf_daily import parse_daily_papers
    spec, day = _hf_spec(ctx), ctx.today.isoformat()
    return spec, _tracked(ctx, "hf", _pick(ctx, "hf", spec.url, ctx.config.hf_recording, None),
                          lambda data: parse_daily_papers(data, featured_date=day))


def ingest_hf(ctx: RunContext, files: list[Path] | None = None) -> SourceReport:
    """Hugging Face Daily Papers for the run's date (the featured date, kept apart from the arXiv date)."""
    if not files:
        return run_source(ctx, *hf_plan(ctx))
    from pipeline.sources.hf_daily import featured_date_from_name, parse_daily_papers
    spec, day = _hf_spec(ctx), ctx.today.isoformat()
    reports = []
    for f, get in zip(files, _pick(ctx, "hf", spec.url, None, files)):
        featured = featured_date_from_name(f.name) or day   # each recording carries its featured date in its name
        reports.append(run_source(ctx, spec, _tracked(
            ctx, "hf", [get], lambda data, d=featured: parse_daily_papers(data, featured_date=d))))
    return _merge_reports(reports)


def blog_plan(ctx: RunContext, blog: BlogSource, files: list[Path] | None = None) -> tuple[SourceSpec, Collector]:
    """One blog feed as a source to run."""
    from pipeline.sources.blogs import parse_feed
    return (SourceSpec(blog.name, "blog", blog.url, blog.credibility),
            _tracked(ctx, blog.name, _pick(ctx, blog.name, blog.url, blog.recording, files),
                     lambda data: parse_feed(data, feed=blog.name)))


def ingest_blog(ctx: RunContext, blog: BlogSource, files: list[Path] | None = None) -> SourceReport:
    """One configured blog feed."""
    return run_source(ctx, *blog_plan(ctx, blog, files))


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
    """arXiv listing, HF Daily (if enabled) and every blog, each independent of the others, parsed side by side."""
    plans = [arxiv_listing_plan(ctx)]
    if ctx.config.hf_enabled:
        plans.append(hf_plan(ctx))
    plans += [blog_plan(ctx, b) for b in ctx.config.blogs]
    return run_sources(ctx, plans, workers=ctx.config.parse_workers)


def _merge_reports(reports: list[SourceReport]) -> SourceReport:
    out = SourceReport(reports[0].name, reports[0].kind)
    for r in reports:
        for f in ("bytes", "parsed", "new", "updated", "skipped", "duration_ms"):
            setattr(out, f, getattr(out, f) + getattr(r, f))
        out.problems += r.problems
        if r.status == "failed":
            out.status, out.error = "failed", r.error
    return out
