"""The arXiv API (export.arxiv.org/api/query): its query URLs and its paging, over kb's one HTTP client.

Pages are fetched through ``pipeline.net.http.HttpClient`` (so the API's 3-second spacing,
retries and size caps are the same politeness layer every source uses) and parsed by the
same pure parser as a recorded answer (``pipeline.sources.arxiv_api``): one path, whether
the bytes come from the network or a file.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from urllib.parse import urlencode

from kb.records import ParseResult

PAGE_SIZE = 100         # results per search page (arXiv allows up to 2,000; small pages fail cheaply)
ID_BATCH = 50           # IDs per id_list request: short URLs, small pages


def search_url(base: str, query: str, *, start: int = 0, max_results: int = PAGE_SIZE,
               since: str | None = None, until: str | None = None) -> str:
    """A search URL, newest submissions first; ``since``/``until`` (YYYY-MM-DD) bound the submission date."""
    q = query
    if since or until:
        lo = (since or "1991-01-01").replace("-", "") + "0000"
        hi = (until or "2999-12-31").replace("-", "") + "2359"
        q = f"({query}) AND submittedDate:[{lo} TO {hi}]"
    return base + "?" + urlencode({"search_query": q, "start": start, "max_results": max_results,
                                   "sortBy": "submittedDate", "sortOrder": "descending"})


def id_list_url(base: str, ids: list[str]) -> str:
    """A URL asking for exactly these IDs."""
    return base + "?" + urlencode({"id_list": ",".join(ids), "max_results": len(ids)})


def search_pages(fetch: Callable[[str], bytes], parse: Callable[[bytes, str], ParseResult], base: str,
                 query: str, *, limit: int, since: str | None = None,
                 until: str | None = None) -> Iterator[ParseResult]:
    """Parsed pages of a search until ``limit`` results or the API's total is reached."""
    start = 0
    while start < limit:
        size = min(PAGE_SIZE, limit - start)
        url = search_url(base, query, start=start, max_results=size, since=since, until=until)
        page = parse(fetch(url), url)
        page.papers, page.sightings = page.papers[:limit - start], page.sightings[:limit - start]
        yield page
        start += size
        if not page.papers or (page.total_results is not None and start >= page.total_results):
            return
