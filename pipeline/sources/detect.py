"""Which source format a payload is, from its first few kilobytes.

Every payload goes through ``parse_payload`` (a source's ``Kind.parse``, ``--from-file``): a
recording on disk says nothing about where it came from, so the root element, its namespaces and
a few tell-tale strings decide; a source whose ``Kind`` does not sniff takes its payload as its
own format. ``parse_payload`` then hands the bytes to the right parser.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import PurePath

from kb.errors import ParseError
from kb.records import PaperRecord, ParseResult
from pipeline.sources.arxiv_api import parse_api_response
from pipeline.sources.arxiv_bulk import iter_kaggle, iter_oai
from pipeline.sources.arxiv_listing import parse_listing
from pipeline.sources.blogs import parse_feed
from pipeline.sources.hf_daily import featured_date_from_name, parse_daily_papers
from pipeline.sources.xmlsafe import DOCTYPE, PROLOG_ITEM

__all__ = ["FORMATS", "detect_format", "parse_payload"]

FORMATS = ("arxiv-rss", "arxiv-atom-listing", "arxiv-api", "oai-pmh", "kaggle-jsonl", "hf-daily", "feed")

_HEAD = 16384
# Skip what may precede the root: XML declaration, PIs, comments, DOCTYPE (with internal subset).
_PROLOG_RE = re.compile(rb"(?:" + PROLOG_ITEM + rb"|" + DOCTYPE + rb")*", re.S | re.I)
_ROOT_RE = re.compile(rb"<(?P<name>[A-Za-z_][\w.:-]*)(?P<attrs>[^>]*)>", re.S)
_ARXIV_NS = b"http://arxiv.org/schemas/atom"
_OPENSEARCH_NS = b"http://a9.com/-/spec/opensearch/1.1/"


def detect_format(data: bytes) -> str:
    """One of ``FORMATS`` for ``data``; raises ``ParseError("unrecognised format: …")`` otherwise."""
    head = bytes(data[:_HEAD]).removeprefix(b"\xef\xbb\xbf")
    stripped = head.lstrip()
    if not stripped:
        raise ParseError("unrecognised format: empty body")
    if stripped[:1] in (b"{", b"["):
        return _detect_json(stripped)
    if stripped[:1] == b"<":
        return _detect_xml(head)
    # Never the bytes themselves: a mistaken --from-file must not copy a file's start into the ledger.
    kind = "binary data" if b"\x00" in stripped[:512] else "text that is neither XML nor JSON"
    raise ParseError(f"unrecognised format: {kind}")


def _detect_json(head: bytes) -> str:
    if head[:1] == b"[":
        # An HF day is a list of {"paper": {...}, ...}; an empty list is a day without papers.
        if re.match(rb"\[\s*(?:\]|\{)", head) and (b'"paper"' in head or re.match(rb"\[\s*\]", head)):
            return "hf-daily"
        raise ParseError("unrecognised format: a JSON list that is not HF Daily Papers")
    first_line = head.split(b"\n", 1)[0]
    try:
        obj = json.loads(first_line)
    except (ValueError, RecursionError):
        # The first line may be longer than the head: fall back to the keys it shows.
        obj = {k: 1 for k in ("id", "versions", "authors_parsed", "categories")
               if re.search(rb'"' + k.encode() + rb'"\s*:', first_line)}
    if isinstance(obj, dict) and "id" in obj and ({"versions", "authors_parsed", "categories"} & obj.keys()):
        return "kaggle-jsonl"
    raise ParseError("unrecognised format: JSON that is neither Kaggle arXiv lines nor HF Daily Papers")


def _detect_xml(head: bytes) -> str:
    start = _PROLOG_RE.match(head).end()
    m = _ROOT_RE.match(head, start)
    if m is None:
        raise ParseError("unrecognised format: no XML root element in the first bytes")
    name = m["name"].decode("ascii", "replace")
    local = name.rsplit(":", 1)[-1].lower()
    if local == "html":
        raise ParseError("unrecognised format: an HTML page")
    if local in ("oai-pmh", "listrecords", "getrecord"):
        return "oai-pmh"
    # Only the feed/channel header decides: a blog post may well link to arXiv.
    header = head[: min((i for i in (head.find(b"<entry"), head.find(b"<item")) if i >= 0), default=len(head))]
    if local == "rss":
        return "arxiv-rss" if _ARXIV_NS in m["attrs"] or b"rss.arxiv.org" in header else "feed"
    if local == "feed":
        if _OPENSEARCH_NS in header or b"arxiv.org/api/" in header:
            return "arxiv-api"
        if b"rss.arxiv.org" in header or (_ARXIV_NS in m["attrs"] and b"announce_type" in head):
            return "arxiv-atom-listing"
        return "feed"
    if local == "rdf":  # RSS 1.0
        return "feed"
    raise ParseError(f"unrecognised format: XML root element <{name}>")


def parse_payload(data: bytes, *, accept: tuple[str, ...] = FORMATS, expected: str = "", sniff: bool = True,
                  name: str | PurePath | None = None, feed: str | None = None, featured_date: str | None = None,
                  default_date: str | None = None, source: str | None = None) -> ParseResult:
    """Detect ``data``'s format and parse it with the matching parser: the one dispatcher.

    ``accept`` is what the source serves: a payload of another format is refused (a
    blog named for an arXiv listing must not store arXiv items as posts); ``expected`` says
    it in words. Without ``sniff`` a single accepted format goes straight to its parser. ``name`` is the
    recording's file name: it supplies the HF featured date (``daily_papers_YYYY-MM-DD.json``)
    and, for blog feeds, the default feed name. The HF date is ``featured_date``, else the
    file name's, else ``default_date``. Bulk formats are read whole here; stream big files
    with ``iter_bulk``.
    """
    if sniff or len(accept) != 1:
        try:
            fmt = detect_format(data)
        except ParseError as exc:
            raise ParseError(f"not {expected} ({exc})" if expected else str(exc)) from None
        if fmt not in accept:
            raise ParseError(f"not {expected or ' or '.join(accept)} (the payload looks like {fmt})")
    else:
        fmt = accept[0]
    if fmt == "arxiv-rss" or fmt == "arxiv-atom-listing":
        return parse_listing(data, source=source or "arxiv")
    if fmt == "arxiv-api":
        return parse_api_response(data, source=source or "arxiv")
    if fmt == "hf-daily":
        # The payload's own date wins (parse_daily_papers), then the file name's, then the run's.
        day = featured_date or (featured_date_from_name(name) if name else None) or default_date
        return parse_daily_papers(data, featured_date=day, source=source or "hf")
    if fmt == "feed":
        return parse_feed(data, feed=feed or (PurePath(name).stem if name else "feed"))
    items = (iter_kaggle if fmt == "kaggle-jsonl" else iter_oai)(io.BytesIO(data))
    result = ParseResult()
    for item in items:
        if isinstance(item, PaperRecord):
            result.papers.append(item)
        else:
            result.problems.append(item)
    return result
