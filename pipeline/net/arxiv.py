"""The arXiv API through the ``arxiv`` package: backfill searches and resolution of mentioned IDs.

One shared ``arxiv.Client`` per run (3 s between requests, retries), whose HTTP
session carries kb's User-Agent and timeouts — the package sets neither. Results
become ``PaperRecord``s through a pure converter and are saved like any source.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from kb.arxiv_id import parse_arxiv_id
from kb.errors import SourceError
from kb.records import PaperRecord, ParseResult, Sighting
from pipeline.context import RunContext
from pipeline.ingest.run import SourceReport, SourceSpec, run_source

if TYPE_CHECKING:
    import arxiv

log = logging.getLogger(__name__)

ID_BATCH = 50           # IDs per id_list request: short URLs, small pages
API_URL = "https://export.arxiv.org/api/query?{}"


def make_client(user_agent: str, *, query_url_format: str = API_URL, delay_seconds: float = 3.0,
                num_retries: int = 3, timeout: float = 30.0) -> arxiv.Client:
    """An ``arxiv.Client`` that is polite: spacing, retries, our User-Agent, a timeout on every request."""
    import arxiv
    import requests

    class _PoliteSession(requests.Session):
        def request(self, method: str, url: str, **kw: Any) -> requests.Response:  # type: ignore[override]
            kw.setdefault("timeout", timeout)
            headers = dict(kw.pop("headers", None) or {})
            headers = {k: v for k, v in headers.items() if k.lower() != "user-agent"}
            headers["User-Agent"] = user_agent
            return super().request(method, url, headers=headers, **kw)

    client = arxiv.Client(page_size=100, delay_seconds=delay_seconds, num_retries=num_retries)
    client.query_url_format = query_url_format
    client._session = _PoliteSession()  # the package's only hook for session settings
    return client


def result_to_record(result: arxiv.Result) -> PaperRecord | None:
    """Convert one ``arxiv.Result`` (pure); None for an entry without a valid arXiv ID."""
    aid = parse_arxiv_id(result.entry_id or "")
    if aid is None:
        return None
    published = result.published.date().isoformat() if result.published else None
    updated = result.updated.date().isoformat() if result.updated else None
    return PaperRecord(
        arxiv_id=aid.id, version=aid.version, title=" ".join((result.title or "").split()),
        authors=[a.name for a in result.authors], abstract=" ".join((result.summary or "").split()),
        categories=list(result.categories), primary_category=result.primary_category,
        published=published, updated=updated, doi=result.doi, journal_ref=result.journal_ref,
        comment=result.comment,
        versions=[(1, published)] if published and aid.version == 1 else [],
    )


def _results_to_parse(results: Iterable[arxiv.Result]) -> ParseResult:
    out = ParseResult()
    for r in results:
        rec = result_to_record(r)
        if rec is None:
            out.problems.append(f"entry without a valid arXiv ID: {r.entry_id!r}")
            continue
        out.papers.append(rec)
        out.sightings.append(Sighting(rec.arxiv_id, "arxiv-api", rec.updated or rec.published or "", "api",
                                      rec.version))
    return out


def _run(client: arxiv.Client, search: arxiv.Search) -> list[arxiv.Result]:
    import arxiv
    try:
        return list(client.results(search))
    except arxiv.HTTPError as exc:
        raise SourceError(f"arXiv API answered HTTP {exc.status}", url=exc.url, status=exc.status,
                          attempts=exc.retry + 1) from exc
    except arxiv.ArxivError as exc:
        raise SourceError(f"arXiv API: {exc.message}", url=exc.url, attempts=exc.retry + 1) from exc
    except OSError as exc:  # requests' connection errors and timeouts
        raise SourceError(f"arXiv API unreachable: {exc}") from exc


def _client(ctx: RunContext) -> arxiv.Client:
    from kb import __version__
    from pipeline.net.http import make_user_agent
    if ctx.arxiv_client is None:
        ctx.arxiv_client = make_client(make_user_agent(__version__, ctx.config.contact))
    return ctx.arxiv_client


def ingest_api_search(ctx: RunContext, query: str, *, since: str | None = None, until: str | None = None,
                      limit: int = 200) -> SourceReport:
    """Backfill: a keyword/category search, optionally within a submission-date window."""
    import arxiv
    q = query
    if since or until:
        lo = (since or "1991-01-01").replace("-", "") + "0000"
        hi = (until or "2999-12-31").replace("-", "") + "2359"
        q = f"({query}) AND submittedDate:[{lo} TO {hi}]"
    search = arxiv.Search(query=q, max_results=limit, sort_by=arxiv.SortCriterion.SubmittedDate)
    spec = SourceSpec("arxiv-api", "arxiv-api", API_URL.format("search_query=…"))
    return run_source(ctx, spec, lambda report: [_results_to_parse(_run(_client(ctx), search))])


@dataclass
class Resolution:
    """What the API said about IDs the store did not know."""

    found: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    report: SourceReport | None = None


def resolve_ids(ctx: RunContext, ids: list[str]) -> Resolution:
    """Look ``ids`` up with ``id_list`` requests; an ID arXiv does not return is 'unknown'."""
    import arxiv
    res = Resolution()
    wanted = sorted({i for i in ids if parse_arxiv_id(i)})
    if not wanted:
        return res

    def collect(report: SourceReport) -> list[ParseResult]:
        out = []
        for i in range(0, len(wanted), ID_BATCH):
            batch = wanted[i:i + ID_BATCH]
            parsed = _results_to_parse(_run(_client(ctx), arxiv.Search(id_list=batch, max_results=len(batch))))
            got = {p.arxiv_id for p in parsed.papers}
            res.found += [b for b in batch if b in got]
            res.unknown += [b for b in batch if b not in got]
            parsed.unknown_ids = [b for b in batch if b not in got]
            out.append(parsed)
        return out

    res.report = run_source(ctx, SourceSpec("arxiv-api", "arxiv-api", API_URL.format("id_list=…")), collect)
    if res.report.status != "failed":
        from kb.store.papers import record_id_checks
        with ctx.store.transaction() as conn:
            record_id_checks(conn, res.found, res.unknown, ctx.today.isoformat())
    return res


RECHECK_UNKNOWN_DAYS = 7   # an ID cited before arXiv announces it, or a flaky answer, is asked about again


def ids_to_resolve(ctx: RunContext) -> list[str]:
    """IDs the team's notes and cards cite that the store has no metadata for: never asked about,
    or answered "unknown" more than RECHECK_UNKNOWN_DAYS days ago."""
    recheck = (ctx.today - timedelta(days=RECHECK_UNKNOWN_DAYS)).isoformat()
    rows = ctx.store.query(
        "SELECT DISTINCT m.arxiv_id FROM mentions m WHERE m.arxiv_id IS NOT NULL AND m.origin_kind IN "
        "('entry', 'card', 'queue') AND NOT EXISTS (SELECT 1 FROM papers p WHERE p.arxiv_id = m.arxiv_id) "
        "AND NOT EXISTS (SELECT 1 FROM id_checks c WHERE c.arxiv_id = m.arxiv_id AND "
        "(c.status = 'found' OR c.checked_on > ?)) ORDER BY m.arxiv_id", (recheck,))
    return [r[0] for r in rows]
