"""rss.arxiv.org daily listings (2024+ format), RSS 2.0 and Atom.

One listing is one announcement day of one or more categories. Each item
becomes a ``PaperRecord`` (what the listing says about that version) and a
``Sighting`` whose ``kind`` is the announce type (new / cross / replace /
replace-cross) and whose ``seen_on`` is the announcement date *as arXiv writes
it* (``00:00:00 -0400`` is that day in New York, not the day before in UTC).

Parsed with ``xmlsafe`` rather than feedparser so the namespaced ``arxiv:``
fields are read exactly (feedparser renames and merges them).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from kb.arxiv_id import ArxivId, parse_arxiv_id
from kb.errors import ParseError
from kb.records import PaperRecord, ParseResult, Sighting
from pipeline.sources.text import collapse_ws, iso_date, rfc822_date, split_authors
from pipeline.sources.xmlsafe import child, child_text, children, localname, parse_xml

__all__ = ["parse_listing"]

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
DC = "{http://purl.org/dc/elements/1.1/}"

# "arXiv:2609.26811v1 Announce Type: new \nAbstract: …" (note the space before the newline).
_DESC_RE = re.compile(
    r"^\s*arXiv:(?P<id>\S+)\s+Announce Type:\s*(?P<type>[\w-]+)\s*(?:Abstract:\s*(?P<abs>.*))?$",
    re.S,
)
_OAI_PREFIX = "oai:arXiv.org:"


def parse_listing(data: bytes, *, source: str = "arxiv") -> ParseResult:
    """Parse one rss.arxiv.org RSS 2.0 or Atom listing.

    Returns papers and one sighting per item; a well-formed listing without
    items (weekends, holidays) gives ``empty_day=True``. Items that cannot be
    identified are skipped and listed in ``problems``. Raises ``ParseError`` if
    the payload is not XML or not an arXiv listing at all.
    """
    root = parse_xml(data)
    name = localname(root.tag)
    if name == "rss":
        channel = child(root, "channel")
        if channel is None:
            raise ParseError("RSS listing without a <channel>")
        items = children(channel, "item")
        day = rfc822_date(child_text(channel, "pubDate"))
        read = _read_rss_item
    elif root.tag == ATOM + "feed":
        items = root.findall(ATOM + "entry")
        day = None  # Atom listings date each entry (<published>), see _read_atom_item
        read = _read_atom_item
    else:
        raise ParseError(f"not an arXiv RSS/Atom listing: root element <{name}>")

    result = ParseResult(empty_day=not items)
    for n, item in enumerate(items, start=1):
        try:
            paper, sighting = read(item, day, source)
        except _ItemProblem as exc:
            result.problems.append(f"item {n}: {exc}")
            continue
        result.papers.append(paper)
        result.sightings.append(sighting)
    return result


class _ItemProblem(Exception):
    """One item cannot be used; the rest of the listing still stands."""


def _item_id(guid: str, description: str, link: str) -> ArxivId:
    # The guid and the description carry the version; the link never does.
    for text in (guid.strip().removeprefix(_OAI_PREFIX), _desc_field(description, "id"), link):
        aid = parse_arxiv_id(text) if text else None
        if aid is not None:
            return aid
    raise _ItemProblem(f"no arXiv ID in guid {guid.strip()!r} or description")


def _desc_field(description: str, group: str) -> str:
    m = _DESC_RE.match(description)
    return (m[group] or "") if m else ""


def _abstract(description: str) -> str:
    m = _DESC_RE.match(description)
    if m is None:
        return collapse_ws(description)
    return collapse_ws(m["abs"] or "")


def _announce_type(item: ET.Element, description: str) -> str:
    kind = (child_text(item, "announce_type") or _desc_field(description, "type")).strip().lower()
    return kind or "new"


def _build(item: ET.Element, aid: ArxivId, description: str, categories: list[str],
           day: str | None, source: str) -> tuple[PaperRecord, Sighting]:
    if day is None:
        raise _ItemProblem(f"{aid}: no announcement date")
    kind = _announce_type(item, description)
    paper = PaperRecord(
        arxiv_id=aid.id,
        version=aid.version,
        title=collapse_ws(child_text(item, "title")),
        authors=split_authors(item.findtext(DC + "creator")),
        abstract=_abstract(description),
        categories=categories,
        primary_category=categories[0] if categories else None,
        doi=collapse_ws(item.findtext(ARXIV + "DOI")) or None,
        journal_ref=collapse_ws(item.findtext(ARXIV + "journal_reference")) or None,
    )
    sighting = Sighting(arxiv_id=aid.id, source=source, seen_on=day, kind=kind, version=aid.version)
    return paper, sighting


def _unique(values: list[str]) -> list[str]:
    return list(dict.fromkeys(v for v in values if v))


def _read_rss_item(item: ET.Element, day: str | None, source: str) -> tuple[PaperRecord, Sighting]:
    description = child_text(item, "description")
    aid = _item_id(child_text(item, "guid"), description, child_text(item, "link").strip())
    categories = _unique([collapse_ws(c.text) for c in children(item, "category")])
    # The channel's pubDate is the announcement day; an item's own pubDate is the fallback.
    day = day or rfc822_date(child_text(item, "pubDate"))
    return _build(item, aid, description, categories, day, source)


def _read_atom_item(item: ET.Element, day: str | None, source: str) -> tuple[PaperRecord, Sighting]:
    description = child_text(item, "summary")
    link = next((ln.get("href", "") for ln in item.findall(ATOM + "link")
                 if ln.get("rel", "alternate") == "alternate"), "")
    aid = _item_id(child_text(item, "id"), description, link)
    categories = _unique([collapse_ws(c.get("term")) for c in item.findall(ATOM + "category")])
    # <published> is "2026-09-25T00:00:00-04:00": the announcement day as written.
    day = iso_date(child_text(item, "published")) or day
    return _build(item, aid, description, categories, day, source)
