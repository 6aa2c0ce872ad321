"""The arXiv API as a source: backfill searches, and resolution of the IDs the team cites.

Both run as the registry's ``arxiv-api`` source through the one bracket (a ledger row per
run); pages come from ``pipeline.net.arxiv`` over the run's HTTP client.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from kb.arxiv_id import parse_arxiv_id
from kb.records import ParseResult
from pipeline.context import RunContext
from pipeline.ingest.public import configured, spec_of
from pipeline.ingest.run import SourceReport, run_source
from pipeline.net.arxiv import ID_BATCH, id_list_url, search_pages

RECHECK_UNKNOWN_DAYS = 7   # an ID cited before arXiv announces it, or a flaky answer, is asked about again


def _fetch(ctx: RunContext, report: SourceReport):
    def fetch(url: str) -> bytes:
        # arXiv answers a malformed id_list with an Atom "error feed" and HTTP 400: that is an answer.
        res = ctx.http.fetch(url, accept_status=(400,))
        report.http_status = res.status
        report.bytes += len(res.body)
        return res.body
    return fetch


def ingest_api_search(ctx: RunContext, query: str, *, since: str | None = None, until: str | None = None,
                      limit: int = 200) -> SourceReport:
    """Backfill: a keyword/category search, optionally within a submission-date window."""
    source = configured(ctx, "arxiv-api")
    day = ctx.today.isoformat()

    def collect(report: SourceReport) -> list[ParseResult]:
        parse = lambda data, origin: source.parse(data, day=day, origin=origin)  # noqa: E731
        return list(search_pages(_fetch(ctx, report), parse, source.url or "", query, limit=limit,
                                 since=since, until=until))

    return run_source(ctx, spec_of(ctx, source), collect)


@dataclass
class Resolution:
    """What the API said about IDs the store did not know."""

    found: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    report: SourceReport | None = None


def resolve_ids(ctx: RunContext, ids: list[str]) -> Resolution:
    """Look ``ids`` up with ``id_list`` requests; an ID arXiv does not return is 'unknown'."""
    from kb.store.papers import save_id_checks
    source = configured(ctx, "arxiv-api")
    day = ctx.today.isoformat()
    res = Resolution()
    wanted = sorted({i for i in ids if parse_arxiv_id(i)})
    if not wanted:
        return res

    def collect(report: SourceReport) -> list[ParseResult]:
        fetch, out = _fetch(ctx, report), []
        for i in range(0, len(wanted), ID_BATCH):
            batch = wanted[i:i + ID_BATCH]
            url = id_list_url(source.url or "", batch)
            parsed = source.parse(fetch(url), day=day, origin=url)
            got = {p.arxiv_id for p in parsed.papers}
            parsed.unknown_ids = [b for b in batch if b not in got]
            res.found += [b for b in batch if b in got]
            res.unknown += parsed.unknown_ids
            out.append(parsed)
        return out

    res.report = run_source(ctx, spec_of(ctx, source), collect)
    if res.report.status != "failed":
        with ctx.store.transaction() as tx:
            save_id_checks(tx, res.found, res.unknown, day)
    return res


def ids_to_resolve(ctx: RunContext) -> list[str]:
    """IDs the team cites that the store has no metadata for: never asked about, or answered
    "unknown" more than RECHECK_UNKNOWN_DAYS days ago."""
    from kb.store.papers import ids_to_resolve as unresolved
    return unresolved(ctx.store, (ctx.today - timedelta(days=RECHECK_UNKNOWN_DAYS)).isoformat())
