"""Ingest the configured public sources: the arXiv listing, HF Daily Papers and blog feeds.

Each source comes from the registry (``ctx.sources``); its payloads come from the network,
its configured recording (offline, or when it has no URL) or the files a user names
(``--from-file``, a manual run). ``pipeline.ingest.run`` runs it: alone for
``kb ingest …``, all together for the nightly.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kb.errors import ConfigError, KBError, SourceError, WorkspaceError
from kb.store.sources import NOT_RUN
from pipeline.context import RunContext
from pipeline.ingest.run import (
    Collector,
    Payload,
    SourceReport,
    SourceSpec,
    merge_reports,
    previous_digest,
    run_source,
    run_sources,
    source_run,
)
from pipeline.sources.registry import Source

STREAM_OVER = 8 * 1024 * 1024   # an API answer bigger than this is a backfill file, not a page


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
        if path.is_dir():
            raise SourceError(f"recording {rel} is a folder; kb.toml names the file (with {{date}} for each day's)")
        if not path.is_file():
            raise SourceError(f"no recording {rel} for {ctx.today.isoformat()}")
        payload = from_file(path)()
        payload.recording = True
        return payload
    return get


def from_url(ctx: RunContext, name: str, url: str) -> Callable[[], Payload]:
    """A payload fetched over HTTP with the conditional-GET validators stored for ``name``."""
    def get() -> Payload:
        from kb.store.sources import validators
        if ctx.offline:
            raise SourceError(f"{name}: offline and no recording configured")
        etag, modified = validators(ctx.store, name, url)
        res = ctx.http.fetch(url, etag=etag, last_modified=modified)
        return Payload(res.body, res.url, res.status, res.etag, res.last_modified, res.not_modified)
    get.remote = True   # type: ignore[attr-defined]   (the network sets its pace: pipeline.ingest.run.run_sources)
    return get


def payloads_of(ctx: RunContext, source: Source, files: list[Path] | None = None) -> list[Callable[[], Payload]]:
    """Where ``source``'s payloads come from in this run."""
    url = source.url_for(ctx.today.isoformat())
    if files:
        return [from_file(f) for f in files]
    if source.recording and (ctx.offline or not url):
        return [from_recording(ctx, source.recording)]
    if url:
        return [from_url(ctx, source.name, url)]
    raise SourceError(f"{source.name}: no URL and no recording configured")


# --------------------------------------------------------------------------- plans
def spec_of(ctx: RunContext, source: Source, *, manual: bool = False) -> SourceSpec:
    return SourceSpec(source.name, source.kind, source.url_for(ctx.today.isoformat()), source.credibility,
                      manual=manual)


def plan(ctx: RunContext, source: Source, files: list[Path] | None = None) -> tuple[SourceSpec, Collector]:
    """``source`` as a run: its spec and a collector that skips the payloads it saved last
    (in runs that skip unchanged ones)."""
    day = ctx.today.isoformat()
    collector = Collector(payloads_of(ctx, source, files),
                          lambda data, origin: source.parse(data, day=day, origin=origin),
                          previous_digest=previous_digest(ctx, source.name), track=ctx.skip_unchanged)
    return spec_of(ctx, source, manual=bool(files)), collector


def configured(ctx: RunContext, name: str, kind: str | None = None) -> Source:
    """The configured source ``name`` (of ``kind``, when given); any other name is a usage error that
    lists the names that would do."""
    source = ctx.sources.get(name)
    if source is None or (kind is not None and source.kind != kind):
        names = ", ".join(s.name for s in (ctx.sources.of_kind(kind) if kind else ctx.sources)) or "none configured"
        what = f"{kind} feed" if kind == "blog" else "source"
        if source is not None:
            raise ConfigError(f"{name!r} is the {source.kind} source, not a {what} ({what}s: {names})")
        raise ConfigError(f"no {what} named {name!r} in kb.toml ({what}s: {names})")
    return source


def ingest_source(ctx: RunContext, name: str, files: list[Path] | None = None) -> SourceReport:
    """Run one configured source (from ``files`` instead of its URL or recording, when given)."""
    return ingest(ctx, configured(ctx, name), files)


def ingest(ctx: RunContext, source: Source, files: list[Path] | None = None) -> SourceReport:
    """Run ``source`` once: fetch (or read ``files``), parse, save, one ledger row."""
    if source.kind == "arxiv" and files:
        return _listing_files(ctx, source, files)
    return run_source(ctx, *plan(ctx, source, files))


def _listing_files(ctx: RunContext, source: Source, files: list[Path]) -> SourceReport:
    """Listing recordings; a backfill-sized API answer among them is streamed in batches, like a bulk file."""
    big = [f for f in files if _is_big_api_file(f)]
    reports = []
    if big:
        from pipeline.ingest.bulk import ingest_stream
        from pipeline.sources.arxiv_api import iter_api_entries
        reports = [ingest_stream(ctx, f, iter_api_entries, source=source.name, sighting_kind="api", manual=True)
                   for f in big]
    rest = [f for f in files if f not in big]
    if rest:
        reports.append(run_source(ctx, *plan(ctx, source, rest)))
    return merge_reports(reports)


def _is_big_api_file(path: Path) -> bool:
    from pipeline.sources.detect import detect_format
    try:
        if path.stat().st_size <= STREAM_OVER:
            return False
        with path.open("rb") as fh:
            return detect_format(fh.read(8192)) == "arxiv-api"
    except (OSError, KBError):
        return False   # unreadable or unrecognised: the ordinary path reports it


def ingest_blogs(ctx: RunContext, feed: str | None = None, files: list[Path] | None = None) -> list[SourceReport]:
    """Every configured blog, or the one named ``feed``; recordings (``files``) need the feed they are of."""
    if feed:
        source = configured(ctx, feed, "blog")
        return [run_source(ctx, *plan(ctx, source, files))]
    if files:
        names = ", ".join(s.name for s in ctx.sources.of_kind("blog")) or "none configured"
        raise ConfigError(f"--from-file needs --feed NAME: which configured feed the file is a recording of "
                          f"(feeds: {names})")
    return [run_source(ctx, *plan(ctx, s)) for s in ctx.sources.of_kind("blog")]


def ingest_public_sources(ctx: RunContext) -> list[SourceReport]:
    """Every scheduled source, each independent of the others; offline, one that names no recording is
    not run (``not_run_offline``) and says so in its report and ledger row."""
    skip = set(not_run_offline(ctx))
    reports = iter(run_sources(ctx, [plan(ctx, s) for s in ctx.sources.scheduled() if s.name not in skip]))
    return [_not_run(ctx, s) if s.name in skip else next(reports) for s in ctx.sources.scheduled()]


def not_run_offline(ctx: RunContext) -> list[str]:
    """The scheduled sources an offline run leaves alone: they name no recording, so there is nothing to
    read, which is no failure of theirs (a fresh `kb init` workspace has none; a recording named but
    missing is still a failed source)."""
    return [s.name for s in ctx.sources.scheduled() if not s.recording] if ctx.offline else []


def _not_run(ctx: RunContext, source: Source) -> SourceReport:
    """A source an offline run did not read: status ``not-run``, in the ledger too, so the briefing's
    sources say it was not checked (the health view leaves such rows out: they say nothing of it)."""
    with source_run(ctx, spec_of(ctx, source)) as report:
        report.status, report.error = NOT_RUN, "offline, and no recording configured"
    return report
