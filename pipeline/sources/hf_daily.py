"""Hugging Face Daily Papers: huggingface.co/api/daily_papers?date=YYYY-MM-DD.

The answer is a JSON list; each item wraps a ``paper`` object whose ``id`` is
the versionless arXiv ID. The schema has grown fields every few months (see
the corpus notes); only the long-standing ones are read here, each with a
fallback, so older and newer days parse alike:

* ID, title, summary, authors, ``publishedAt`` (the arXiv date) from ``paper``
  (title/summary fall back to the item's own copy);
* upvotes from ``paper.upvotes``, else the item's ``upvotes``.

The featured day: the items' ``paper.submittedOnDailyAt`` when the payload carries it (the
2025+ schema), else what the caller passes (the ``date`` query parameter, or the recording's
file name via ``featured_date_from_name``). A file saved today of an earlier day keeps its day.
"""
from __future__ import annotations

import json
import re
from pathlib import PurePath

from kb.arxiv_id import parse_arxiv_id
from kb.errors import ParseError
from kb.records import MAX_INT, PaperRecord, ParseResult, Sighting
from pipeline.sources.text import collapse_ws, iso_date
from pipeline.sources.xmlsafe import looks_like_html

__all__ = ["parse_daily_papers", "featured_date_from_name"]

_NAME_RE = re.compile(r"daily_papers_(\d{4}-\d{2}-\d{2})\.json$")


def featured_date_from_name(filename: str | PurePath) -> str | None:
    """The featured day of a recording named ``daily_papers_YYYY-MM-DD.json``; None for other names."""
    m = _NAME_RE.search(PurePath(filename).name)
    return iso_date(m[1]) if m else None


def parse_daily_papers(data: bytes, *, featured_date: str | None = None, source: str = "hf") -> ParseResult:
    """Parse one day of HF Daily Papers into papers and ``kind="featured"`` sightings.

    The featured day is the payload's own (its items' ``submittedOnDailyAt``) when it says
    one; else ``featured_date`` (the request's date, or the recording's file name). Items
    without an ID, with a non-arXiv ID, or repeated within the day are skipped and listed in
    ``problems``. Raises ``ParseError`` for an HTML page, invalid JSON, JSON that is not a
    list, or a payload with no date of its own and none given.
    """
    if featured_date is not None and (iso_date(featured_date) is None or len(featured_date.strip()) != 10):
        raise ValueError(f"featured_date must be YYYY-MM-DD, got {featured_date!r}")
    items = _load(data)
    day = payload_date(items) or featured_date
    if day is None:
        raise ParseError("HF Daily Papers need their featured date: the payload has none",
                         hint="name the file daily_papers_YYYY-MM-DD.json or pass --date")
    result = ParseResult()
    seen: set[str] = set()
    for n, item in enumerate(items, start=1):
        problem = _read_item(item, n, day, source, seen, result)
        if problem:
            result.problems.append(problem)
    return result


def payload_date(items: list) -> str | None:
    """The day the payload featured its papers: the most common ``submittedOnDailyAt`` date of its items."""
    days: dict[str, int] = {}
    for item in items:
        paper = item.get("paper") if isinstance(item, dict) and isinstance(item.get("paper"), dict) else {}
        day = iso_date(_text(paper.get("submittedOnDailyAt")))
        if day:
            days[day] = days.get(day, 0) + 1
    return max(sorted(days), key=days.__getitem__) if days else None


def _load(data: bytes) -> list:
    head = bytes(data[:512]).lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head:
        raise ParseError("empty body: no Daily Papers JSON")
    if head.startswith(b"<"):
        if looks_like_html(head):
            raise ParseError("got an HTML page, not Daily Papers JSON",
                             hint="the server answered with a web page (rate limit or error page?)")
        raise ParseError("got XML (a feed or a listing?), not Daily Papers JSON")
    try:
        items = json.loads(bytes(data).decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ParseError(f"Daily Papers JSON is not UTF-8 (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise ParseError(f"Daily Papers JSON is invalid at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise ParseError("Daily Papers JSON is nested too deeply to be an answer; refused") from None
    if not isinstance(items, list):
        detail = f": {items.get('error')}" if isinstance(items, dict) and items.get("error") else ""
        raise ParseError(f"Daily Papers JSON is a {type(items).__name__}, expected a list{detail}")
    return items


def _read_item(item: object, n: int, day: str, source: str, seen: set[str], result: ParseResult) -> str | None:
    """Append the item's paper and sighting to ``result``; return a problem string instead if it is unusable."""
    if not isinstance(item, dict):
        return f"item {n}: not an object"
    paper = item.get("paper") if isinstance(item.get("paper"), dict) else {}
    raw_id = paper.get("id")
    if not isinstance(raw_id, str) or not raw_id.strip():
        return f"item {n}: no paper id"
    aid = parse_arxiv_id(raw_id)
    if aid is None:
        return f"item {n}: {raw_id!r} is not an arXiv ID"
    if aid.id in seen:
        return f"item {n}: {aid.id} listed twice on {day}"
    seen.add(aid.id)
    result.problems += _unreadable_fields(paper, item, f"item {n} ({aid.id})")
    upvotes = _upvotes(paper, item)
    result.papers.append(PaperRecord(
        arxiv_id=aid.id,
        version=aid.version,
        # paper.title can hold hard wraps ("\n  ") that the item's title has not.
        title=collapse_ws(_text(paper.get("title")) or _text(item.get("title"))),
        authors=_authors(paper.get("authors")),
        abstract=collapse_ws(_text(paper.get("summary")) or _text(item.get("summary"))),
        published=iso_date(_text(paper.get("publishedAt"))),
    ))
    result.sightings.append(Sighting(arxiv_id=aid.id, source=source, seen_on=day, kind="featured",
                                     version=aid.version, upvotes=upvotes))
    return None


_TEXT_FIELDS = ("title", "summary", "publishedAt")


def _unreadable_fields(paper: dict, item: dict, where: str) -> list[str]:
    """One line per field present with a value kb cannot read; the paper is kept without it.

    A schema change that turns ``title`` into an object would otherwise store every paper of the
    day untitled with nothing said (an empty field never replaces a stored one, so nothing is lost).
    """
    problems = []
    for field in _TEXT_FIELDS:
        value = paper.get(field)
        if value is not None and not isinstance(value, str):
            problems.append(f"{where}: paper.{field} is {_kind(value)}, not text; read as empty")
    authors = paper.get("authors")
    if authors is not None and not isinstance(authors, list):
        problems.append(f"{where}: paper.authors is {_kind(authors)}, not a list; read as none")
    for owner, value in (("paper", paper.get("upvotes")), ("item", item.get("upvotes"))):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append(f"{where}: {owner}.upvotes is {_kind(value)}, not a count; ignored")
        elif value is not None and abs(value) > MAX_INT:
            problems.append(f"{where}: {owner}.upvotes {value:.3g} is out of range; ignored")
    return problems


def _kind(value: object) -> str:
    """A JSON value's type as a reader of the payload would name it."""
    names = {bool: "a boolean", int: "a number", float: "a number", str: "text", dict: "an object", list: "a list"}
    return names.get(type(value), type(value).__name__)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _upvotes(paper: dict, item: dict) -> int | None:
    for value in (paper.get("upvotes"), item.get("upvotes")):
        # bool is an int in Python; a True here would be schema noise, not a count.
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INT:
            return value
    return None


def _authors(raw: object) -> list[str]:
    names = []
    for a in raw if isinstance(raw, list) else []:
        name = a.get("name") if isinstance(a, dict) else a
        if isinstance(name, str) and (name := collapse_ws(name)):
            names.append(name)
    return names
