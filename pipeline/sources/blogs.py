"""Blog and news feeds (RSS 0.9x/1.0/2.0, Atom) via feedparser.

feedparser copes with the feeds people actually publish (CDATA everywhere,
empty guids, odd dates, mild malformation), so it is used here rather than
``xmlsafe``. It is always handed **bytes**: given a ``str`` it would treat the
text as a URL or a path and go fetching. Before it sees anything, the bytes are
checked by ``xmlsafe`` (empty, HTML page, bad UTF-8, entity declarations).

Each entry becomes a ``PostRecord``; every arXiv paper it links to or names
becomes a ``Sighting(kind="blog")`` dated on the post's day.
"""
from __future__ import annotations

import calendar
import time
import xml.sax
from datetime import UTC, datetime
from html.parser import HTMLParser
from urllib.parse import urlsplit

import feedparser

from kb.arxiv_id import ArxivId, parse_arxiv_id
from kb.citations import find_cited_ids
from kb.errors import ParseError
from kb.records import ParseResult, PostRecord, Sighting
from kb.text import without_hidden_controls
from pipeline.sources.text import collapse_ws, split_authors
from pipeline.sources.xmlsafe import check_feed_bytes, refuse_entity_declarations

__all__ = ["parse_feed", "html_to_text"]

# Before this, a date is a placeholder (Hugo writes year 1 for undated pages).
_EARLIEST_YEAR = 1991
_FALLBACK_SUMMARY_CHARS = 2000
_CONTENT_CHARS = 20000   # a post body kept for its facts; longer ones are cut at a sentence


def parse_feed(data: bytes, *, feed: str) -> ParseResult:
    """Parse one RSS/Atom feed into posts and one ``kind="blog"`` sighting per arXiv ID per post.

    ``feed`` is the configured feed name (``PostRecord.feed``, ``Sighting.source``).
    XML that is not well-formed (a truncated body, a broken tag) raises
    ``ParseError``: feedparser would read it "leniently" and store half an entry
    over a good one. Softer complaints (a wrong declared encoding) are kept as a
    problem and the entries are read. A payload that is not a feed at all raises.
    """
    check_feed_bytes(data)
    refuse_entity_declarations(data)
    parsed = feedparser.parse(bytes(data), sanitize_html=False, resolve_relative_uris=False)
    result = ParseResult()
    if parsed.bozo:
        reason = f"{type(parsed.bozo_exception).__name__}: {parsed.bozo_exception}"
        if isinstance(parsed.bozo_exception, xml.sax.SAXException):
            raise ParseError(f"feed {feed!r} is not well-formed XML ({parsed.bozo_exception})")
        if not parsed.entries:
            raise ParseError(f"feed {feed!r} could not be read ({reason})")
        result.problems.append(f"feed is not well-formed, read leniently ({reason})")
    elif not parsed.entries and not parsed.version:
        raise ParseError(f"feed {feed!r} is not an RSS or Atom feed")
    keys: set[str] = set()
    for n, entry in enumerate(parsed.entries, start=1):
        _read_entry(entry, n, feed, keys, result)
    return result


def _read_entry(entry: dict, n: int, feed: str, keys: set[str], result: ParseResult) -> None:
    url = without_hidden_controls(entry.get("link") or "").strip() or None
    # WordPress writes empty <guid></guid>: fall back to the link.
    guid = without_hidden_controls(entry.get("id") or "").strip() or url
    if not guid:
        result.problems.append(f"entry {n}: no guid/id and no link, skipped")
        return
    # A guid is unique only within its feed ("1", "post-7"): two feeds must never overwrite
    # each other's posts, so the key carries the feed's name.
    key = f"{feed}|{guid}"
    if key in keys:
        result.problems.append(f"entry {n}: duplicate guid {guid}, skipped")
        return
    keys.add(key)

    published, refused = _published(entry)
    updated = _stamp(entry, "updated")
    updated = updated if updated and published and updated[:10] > published[:10] else None   # a later correction
    if refused:
        fallback = "kept undated" if published is None else f"used {published}"
        result.problems.append(f"{guid}: placeholder or unreadable date {refused!r}, {fallback}")
    # feedparser's "summary" can be hijacked by a later media:description (Google's
    # feeds); summary_detail keeps the <description>/<summary> proper. Without either,
    # feedparser copies the whole body into "summary": that is the content, so the
    # entry gets the cut fallback summary below instead.
    summary_html = ((entry.get("summary_detail") or {}).get("value")
                    or ("" if entry.get("content") else entry.get("summary")) or "")
    content_html = " ".join(c.get("value", "") for c in entry.get("content") or [])
    # Each fragment is read once: its text serves the summary, the body and the ID search.
    summary_text, summary_hrefs = _read_html(summary_html)
    content_text, content_hrefs = _read_html(content_html)
    title = html_to_text(entry.get("title") or "")
    summary = summary_text or _cut_at_word(content_text, _FALLBACK_SUMMARY_CHARS)

    links = [ln.get("href", "") for ln in entry.get("links") or []]
    ids = _arxiv_ids(links + summary_hrefs + content_hrefs, [title, summary_text, content_text])
    tags = (collapse_ws(tag.get("term")) for tag in entry.get("tags") or [])
    post = PostRecord(
        key=key, feed=feed, url=url, published=published, updated=updated, summary=summary,
        title=title, content=_cut_at_word(content_text, _CONTENT_CHARS),
        authors=_authors(entry),
        tags=list(dict.fromkeys(t for t in tags if t)),
        arxiv_ids=list(dict.fromkeys(a.id for a in ids)),
    )
    result.posts.append(post)
    if ids and published is None:
        result.problems.append(f"{guid}: {len(ids)} arXiv ID(s) but no date, no sightings recorded")
        return
    for aid in ids:
        result.sightings.append(Sighting(arxiv_id=aid.id, source=feed, seen_on=published[:10],
                                         kind="blog", version=aid.version, url=url))


def _published(entry: dict) -> tuple[str | None, str | None]:
    """(ISO UTC stamp ``YYYY-MM-DDTHH:MM`` or None, the first raw date refused or None)."""
    refused = None
    for field in ("published", "updated", "created"):
        # dict.get: FeedParserDict.get would alias updated→published (with a DeprecationWarning).
        raw = dict.get(entry, field)
        parsed = dict.get(entry, field + "_parsed")
        if not raw:
            continue
        if isinstance(parsed, time.struct_time) and parsed.tm_year >= _EARLIEST_YEAR:
            # feedparser has already converted to UTC; the struct carries no offset any more.
            stamp = datetime.fromtimestamp(calendar.timegm(parsed), tz=UTC)
            return stamp.strftime("%Y-%m-%dT%H:%M"), refused
        refused = refused or raw
    return None, refused


def _stamp(entry: dict, field: str) -> str | None:
    parsed = dict.get(entry, field + "_parsed")
    if isinstance(parsed, time.struct_time) and parsed.tm_year >= _EARLIEST_YEAR:
        return datetime.fromtimestamp(calendar.timegm(parsed), tz=UTC).strftime("%Y-%m-%dT%H:%M")
    return None


def _authors(entry: dict) -> list[str]:
    names = [a.get("name") for a in entry.get("authors") or [] if isinstance(a, dict)]
    names = [n for n in names if n and n.strip()] or [entry.get("author") or ""]
    out: list[str] = []
    for name in names:
        out.extend(split_authors(html_to_text(name)))
    return list(dict.fromkeys(out))


def _arxiv_ids(hrefs: list[str], texts: list[str]) -> list[ArxivId]:
    """arXiv IDs the entry links to (its own links and hrefs in its HTML) or writes in its text."""
    found: dict[ArxivId, None] = {}
    for href in hrefs:
        if "arxiv" not in href.lower():   # most links go elsewhere: skip the URL parse
            continue
        host = urlsplit(href.strip()).hostname or ""
        if host == "arxiv.org" or host.endswith(".arxiv.org"):
            aid = parse_arxiv_id(href)
            if aid is not None:
                found.setdefault(aid, None)
    for text in texts:
        for aid in find_cited_ids(text):
            found.setdefault(aid, None)
    # One paper cited as v1 and v2 is still one paper: keep the first form seen.
    by_id: dict[str, ArxivId] = {}
    for aid in found:
        by_id.setdefault(aid.id, aid)
    return list(by_id.values())


def _cut_at_word(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]


# --------------------------------------------------------------------------- HTML → text
_DROP = frozenset({"script", "style", "noscript", "template", "iframe", "svg", "head"})
_BLOCK = frozenset({"p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
                    "tr", "td", "th", "table", "blockquote", "pre", "section", "article",
                    "figure", "figcaption", "hr", "dd", "dt"})


class _TextExtractor(HTMLParser):
    """Collects visible text and link targets; drops script/style contents."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hrefs: list[str] = []
        self._dropping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _DROP:
            self._dropping += 1
        elif tag in _BLOCK:
            self.parts.append(" ")
        if tag == "a":
            self.hrefs.extend(v for k, v in attrs if k == "href" and v)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        # <br/>, <img/>: never opens a dropped region.
        if tag in _BLOCK:
            self.parts.append(" ")
        if tag == "a":
            self.hrefs.extend(v for k, v in attrs if k == "href" and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in _DROP:
            self._dropping = max(0, self._dropping - 1)
        elif tag in _BLOCK:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._dropping:
            self.parts.append(data)

    def text(self) -> str:
        return collapse_ws("".join(self.parts))


def html_to_text(html: str) -> str:
    """Plain text of an HTML fragment: tags removed, script/style dropped, entities decoded, whitespace collapsed."""
    return _read_html(html)[0]


def _read_html(html: str) -> tuple[str, list[str]]:
    """(plain text, link targets) of an HTML fragment, in one pass."""
    if "<" not in html and "&" not in html:
        return collapse_ws(html), []
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    return extractor.text(), extractor.hrefs
