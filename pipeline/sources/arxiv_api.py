"""export.arxiv.org/api/query Atom responses, current (2026) and legacy (2016) layouts.

The API answers a bad ``id_list`` with HTTP 400 and a one-entry Atom "error
feed"; that is an answer, not an unreadable payload, so it becomes a
``ParseResult`` with a problem and the offending ID in ``unknown_ids``. Unknown
but well-formed IDs are simply absent from the answer: ``missing_ids`` finds them.

The ``arxiv`` package does the HTTP for live queries; this parser is for
recordings and raw bytes and does not depend on it.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from kb.arxiv_id import normalize_arxiv_id, parse_arxiv_id
from kb.errors import ParseError
from kb.records import PaperRecord, ParseResult, Sighting
from pipeline.sources.text import collapse_ws, iso_date
from pipeline.sources.xmlsafe import iter_elements, localname, parse_xml

__all__ = ["parse_api_response", "missing_ids"]

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"

_ERROR_ID_MARK = "/api/errors"
_BAD_ID_RE = re.compile(r"incorrect id format for (?P<id>.+?)\s*$", re.I)


def parse_api_response(data: bytes, *, source: str = "arxiv") -> ParseResult:
    """Parse one API query response into papers and ``kind="api"`` sightings.

    ``total_results`` comes from ``opensearch:totalResults``. An error feed gives
    ``problems`` (the API's message) and, for a malformed ID, ``unknown_ids``.
    Zero results give an empty result. Raises ``ParseError`` if the payload is
    not XML or not an Atom feed.
    """
    root = parse_xml(data)
    if root.tag != ATOM + "feed":
        raise ParseError(f"not an arXiv API response: root element <{localname(root.tag)}>")
    result = ParseResult(total_results=_int(root.findtext(OPENSEARCH + "totalResults")))
    errors = 0
    for n, entry in enumerate(root.findall(ATOM + "entry"), start=1):
        entry_id = collapse_ws(entry.findtext(ATOM + "id"))
        if _ERROR_ID_MARK in entry_id:
            _record_error(entry, result)
            errors += 1
            continue
        paper = _read_entry(entry)
        if paper is None:
            result.problems.append(f"entry {n}: no arXiv ID in <id>{entry_id}</id>")
            continue
        result.papers.append(paper)
        seen_on = paper.updated or paper.published
        if seen_on:
            result.sightings.append(Sighting(arxiv_id=paper.arxiv_id, source=source, seen_on=seen_on,
                                             kind="api", version=paper.version))
        else:
            result.problems.append(f"{paper.arxiv_id}: no <updated> date, no sighting recorded")
    if errors and result.total_results is not None:
        # The error feed counts its error entry as a "result"; it is not a paper.
        result.total_results = max(0, result.total_results - errors)
    return result


def missing_ids(requested: list[str], result: ParseResult) -> list[str]:
    """The requested IDs an ``id_list`` answer has no entry for, as the caller wrote them.

    Versions are ignored (asking for ``1707.08567v1`` is answered by
    ``1707.08567``). A request that is not a valid arXiv ID at all
    (``0808.05394``: five digits before 2015) can never be answered, so it is missing too.
    """
    answered = {p.arxiv_id for p in result.papers}
    missing: list[str] = []
    for text in requested:
        canon = normalize_arxiv_id(text)
        if (canon is None or canon not in answered) and text.strip() not in missing:
            missing.append(text.strip())
    return missing


def _int(text: str | None) -> int | None:
    try:
        return int((text or "").strip())
    except ValueError:
        return None


def _record_error(entry: ET.Element, result: ParseResult) -> None:
    message = collapse_ws(entry.findtext(ATOM + "summary")) or collapse_ws(entry.findtext(ATOM + "id"))
    result.problems.append(f"arXiv API error: {message}")
    m = _BAD_ID_RE.search(message)
    if m:
        result.unknown_ids.append(m["id"])


def _read_entry(entry: ET.Element) -> PaperRecord | None:
    aid = parse_arxiv_id(collapse_ws(entry.findtext(ATOM + "id")))
    if aid is None:
        return None
    categories = list(dict.fromkeys(
        term for c in entry.findall(ATOM + "category") if (term := collapse_ws(c.get("term")))))
    primary = entry.find(ARXIV + "primary_category")
    primary_term = collapse_ws(primary.get("term")) if primary is not None else ""
    return PaperRecord(
        arxiv_id=aid.id,
        version=aid.version,
        title=collapse_ws(entry.findtext(ATOM + "title")),
        authors=[name for a in entry.findall(ATOM + "author")
                 if (name := collapse_ws(a.findtext(ATOM + "name")))],
        abstract=collapse_ws(entry.findtext(ATOM + "summary")),
        categories=categories,
        primary_category=primary_term or (categories[0] if categories else None),
        published=iso_date(entry.findtext(ATOM + "published")),
        updated=iso_date(entry.findtext(ATOM + "updated")),
        doi=collapse_ws(entry.findtext(ARXIV + "doi")) or None,
        journal_ref=collapse_ws(entry.findtext(ARXIV + "journal_ref")) or None,
        comment=collapse_ws(entry.findtext(ARXIV + "comment")) or None,
    )


def iter_api_entries(fileobj) -> Iterator[PaperRecord | str]:
    """Stream a (large) API response: a ``PaperRecord`` per entry, a problem string per entry that
    is an API error or carries no valid ID. Memory does not grow with the file."""
    for entry in iter_elements(fileobj, ("entry",)):
        if "/api/errors" in (entry.findtext(ATOM + "id") or ""):
            yield f"arXiv API error: {collapse_ws(entry.findtext(ATOM + 'summary'))}"
            continue
        record = _read_entry(entry)
        yield record if record is not None else f"entry without a valid arXiv ID: {entry.findtext(ATOM + 'id')!r}"
