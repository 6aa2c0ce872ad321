"""Inbox notes: ``inbox/<author>/<YYYY-MM-DD>[THHMM]-<slug>.md`` → ``Note``.

A note is a list of entries: each level-2 heading starts one; a note without level-2
headings has one entry per top-level list item. Entries are numbered from 1 because a
briefing cites them as ``<path> 条目N``, so the numbering must be stable and simple.
From each entry we pull what a briefing needs: plain text, bullet points (with the tables
and nested items under them, ``points``), arXiv IDs,
URLs with the date written beside them, Hugging Face upvotes and verification markers.
"""
from __future__ import annotations

import re
from pathlib import PurePosixPath

from kb.arxiv_id import find_impossible_ids, parse_arxiv_id
from kb.citations import entry_papers, find_cited_ids
from kb.dates import calendar_date
from kb.records import Note, NoteEntry, UrlRef
from kb.text import find_markers

from .markdown import (
    Block,
    FrontMatter,
    TextLine,
    fm_list,
    fm_str,
    inline_text,
    item_parents,
    iter_blocks,
    parse_document,
)
from .points import points_of
from .textscan import find_dates, find_urls, url_spans

__all__ = ["parse_note", "note_timestamp", "find_upvotes", "find_markers"]

# Liberal about the separator before the time: T1950, T19:50, -0900 and _0900 all occur.
_STAMP_RE = re.compile(
    r"^(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
    r"(?:(?P<sep>[Tt]|[-_ ])(?P<H>\d{2}):?(?P<M>\d{2})(?=$|[-_.\s]))?")

# A count is not the tail of a longer token: "v3 ▲7" is version 3 then 7 upvotes.
_UPVOTES_RE = re.compile(
    r"(?<![A-Za-z\d.])(?P<a>\d{1,7}) ?▲|▲ ?(?P<b>\d{1,7})(?![\d.])"
    r"|(?<![A-Za-z\d.])(?P<c>\d{1,7})\s*upvotes?(?![A-Za-z])", re.I)

def note_timestamp(name: str) -> tuple[str, str | None]:
    """``(ISO timestamp, problem)`` from a note's file name; ``("", problem)`` if it has none."""
    m = _STAMP_RE.match(name)
    if not m:
        return "", f"file name {name!r} does not start with a YYYY-MM-DD date"
    date = f"{m['y']}-{m['m']}-{m['d']}"
    if calendar_date(m["y"], m["m"], m["d"]) is None:   # 2026-02-30 is no day
        return "", f"file name date {date} is not a valid date"
    if m["H"] is None:
        return f"{date}T00:00", None
    if int(m["H"]) < 24 and int(m["M"]) < 60:
        return f"{date}T{m['H']}:{m['M']}", None
    if m["sep"] in "Tt":
        return f"{date}T00:00", f"file name time {m['H']}{m['M']} is not a valid time"
    return f"{date}T00:00", None   # "-2500-…" is the slug, not a time


def find_upvotes(text: str) -> list[int]:
    """Upvote counts written ``12▲``, ``12 ▲``, ``▲12`` or ``12 upvotes``, in order."""
    return [int(m["a"] or m["b"] or m["c"]) for m in _UPVOTES_RE.finditer(text)]


def _author(path: str) -> tuple[str, str | None]:
    parts = PurePosixPath(path.replace("\\", "/")).parts
    if "inbox" in parts:
        i = parts.index("inbox")
        if i + 2 < len(parts):
            return parts[i + 1], None
    parent = parts[-2] if len(parts) >= 2 else ""
    return parent, f"path {path!r} is not inbox/<author>/<file>; author taken as {parent!r}"


def _credibility(value: object) -> tuple[int | None, str | None]:
    if value is None:
        return None, None
    text = fm_str(value)
    if text and set(text) <= {"⭐", "★"}:          # credibility is shown as stars; accept them
        n: int | None = len(text)
    elif isinstance(value, bool) or text is None:
        n = None
    else:
        try:
            f = float(text)
            n = int(f) if f.is_integer() else None
        except ValueError:
            n = None
    if n is None or not 1 <= n <= 5:
        return None, f"credibility {value!r} is not a whole number from 1 to 5"
    return n, None


def _front(note: Note, fm: FrontMatter) -> None:
    data = fm.data
    if "title" in data:
        note.title = fm_str(data["title"]) or ""
    note.credibility, problem = _credibility(data.get("credibility"))
    if problem:
        note.problems.append(problem)
    tags = fm_list(data.get("tags"))
    if tags is None:
        note.problems.append(f"tags {data.get('tags')!r} is not a list")
    note.tags = tags or []


# --------------------------------------------------------------------------- entries
def _entry_spans(tokens: list) -> list[tuple[int, int, int | None]]:
    """``(start, end, own_item)`` token slices, one per entry; own_item is the list item
    that is the entry itself (list mode), so its nested items become its points."""
    heads = [i for i, t in enumerate(tokens) if t.type == "heading_open" and t.level == 0]
    h2 = [i for i in heads if tokens[i].tag == "h2"]
    if h2:
        stops = [i for i in heads if tokens[i].tag in ("h1", "h2")] + [len(tokens)]
        return [(i, next(s for s in stops if s > i), None) for i in h2]
    spans, start = [], None
    for i, t in enumerate(tokens):
        # level-1 items are the items of level-0 lists (a list in a blockquote is deeper)
        if t.type == "list_item_open" and t.level == 1:
            start = i
        elif t.type == "list_item_close" and t.level == 1 and start is not None:
            spans.append((start, i + 1, start))
            start = None
    return spans


def _urls(block: Block, tl: TextLine) -> list[UrlRef]:
    """URLs on one line, each with the date written nearest to it on that line, else the
    first date elsewhere in the same paragraph. Dates inside URLs do not count."""
    dates = find_dates(tl.text, url_spans(tl.text))
    if not dates:
        dates = next((d[:1] for o in block.lines if (d := find_dates(o.text, url_spans(o.text)))), [])
    refs = []
    for url, start, end in find_urls(tl):
        near = min(dates, key=lambda d: max(d[1] - end, start - d[2], 0), default=None)
        refs.append(UrlRef(url, near[0] if near else None))
    return refs


def _entry(number: int, heading: str, blocks: list[Block], own_item: int | None,
           parents: dict[int, int | None]) -> NoteEntry:
    entry = NoteEntry(number, heading, "\n".join(b.text for b in blocks).strip(),
                      points=points_of(blocks, own_item, parents))
    ids: dict[str, str] = {}
    urls: dict[str, UrlRef] = {}
    for b in blocks:
        for tl in b.lines:
            for source in [tl.text, *(l.href for l in tl.links)]:
                for aid in find_cited_ids(source):
                    # one ID per paper; a later mention that names the version wins
                    if aid.id not in ids or (aid.version and ids[aid.id] == aid.id):
                        ids[aid.id] = aid.versioned
            for ref in _urls(b, tl):
                if ref.url not in urls:
                    urls[ref.url] = ref
                elif urls[ref.url].date is None:
                    urls[ref.url].date = ref.date
            entry.upvotes += find_upvotes(tl.text)
    entry.arxiv_ids = list(ids.values())
    entry.urls = list(urls.values())
    entry.markers = find_markers(entry.text)
    entry.subject = entry_subject(heading, [u.url for u in entry.urls if not parse_arxiv_id(u.url)], entry.text)
    entry.bad_ids = list(dict.fromkeys(bad for b in [heading, entry.text] for bad in find_impossible_ids(b)))
    return entry


def entry_subject(heading: str, urls: list[str], text: str) -> str | None:
    """The paper an entry is about: an ID in its heading, else one in its first source URL
    (huggingface.co/papers/ID), else — when it cites no source URL — the first ID in its text.
    An entry that links a docs page and mentions AWQ in passing is about the page, not AWQ."""
    return entry_papers(heading, urls, text)[0]


def parse_note(text: str, path: str) -> Note:
    """Read one inbox note. ``path`` is workspace-relative (``inbox/jay/2026-…-slug.md``).

    Never raises: what could not be read is listed in ``Note.problems``.
    """
    author, problem = _author(path)
    timestamp, stamp_problem = note_timestamp(PurePosixPath(path.replace("\\", "/")).name)
    note = Note(path=path, author=author, timestamp=timestamp)
    note.problems += [p for p in (problem, stamp_problem) if p]

    doc = parse_document(text)
    note.problems += doc.front.problems
    _front(note, doc.front)
    tokens = doc.tokens
    if not note.title:
        h1 = next((i for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"), None)
        if h1 is not None and h1 + 1 < len(tokens):
            note.title = inline_text(tokens[h1 + 1], " ")

    for n, (start, end, own) in enumerate(_entry_spans(tokens), start=1):
        blocks = list(iter_blocks(tokens[start:end], doc.offset, start))
        if own is None:      # heading entry: the heading's own text is the title
            heading = blocks[0].text.strip() if blocks else ""
        else:                # list entry: the item's first line is the title
            # code is never a title: an item that opens with a fence is titled by its first text
            first = next((b for b in blocks if b.item == own and b.kind != "code"), None)
            heading = first.lines[0].text.strip() if first else ""
        note.entries.append(_entry(n, heading, blocks, own, item_parents(tokens[start:end], start)))
    if not note.entries:
        note.problems.append("no entries: no level-2 heading and no top-level list item"
                             if doc.front.body.strip() else "the note is empty")
    return note
