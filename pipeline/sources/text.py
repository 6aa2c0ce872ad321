"""Text and date helpers shared by the parsers: whitespace, author lists, feed dates."""
from __future__ import annotations

import re

from kb.dates import calendar_date, month_number
from kb.text import without_hidden_controls

__all__ = ["collapse_ws", "split_authors", "rfc822_date", "iso_date"]


def collapse_ws(text: str | None) -> str:
    """``text`` with every run of whitespace (newlines included) turned into one space, trimmed; control
    characters (NUL and the like), bidi overrides and other hidden characters dropped
    (``kb.text.without_hidden_controls``): a JSON "\\u0000" must not reach the store (C tools stop
    reading a string at a NUL), nor a U+202E a terminal or a briefing."""
    if not text:
        return ""
    return " ".join(without_hidden_controls(text).split())


def _split_outside_parens(text: str, sep: re.Pattern[str]) -> list[str]:
    # Affiliations such as "Zihao Ye (UW, NVIDIA)" must stay whole, so separators
    # inside parentheses are not separators.
    if "(" not in text:   # the common case: no parentheses, the regex splits it all at once
        return sep.split(text)
    parts, depth, start = [], 0, 0
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = sep.match(text, pos)
            if m:
                parts.append(text[start:pos])
                start = pos = m.end()
                continue
        pos += 1
    parts.append(text[start:])
    return parts


_COMMA = re.compile(r",")
_AND = re.compile(r"\s+and\s+", re.I)


def split_authors(text: str | None) -> list[str]:
    """Names from one author string: ``"A, B, and C"``, ``"A, B and C"``, ``"A and B"`` → ``[A, B, C]``.

    Commas and the word "and" separate names, except inside parentheses.
    """
    names: list[str] = []
    for part in _split_outside_parens(collapse_ws(text), _COMMA):
        part = re.sub(r"^and\s+", "", part.strip(), flags=re.I)
        for name in _split_outside_parens(part, _AND):
            name = name.strip()
            if name:
                names.append(name)
    return names


_EARLIEST_YEAR = 1900   # before this, a "date" in a feed is a placeholder (Hugo writes year 1)
_RFC822_RE = re.compile(r"(\d{1,2})\s+([A-Za-z]{3})[a-z]*\.?\s+(\d{4})\b")


def rfc822_date(text: str | None) -> str | None:
    """The calendar date of an RFC 822 date *as written* (``Thu, 24 Sep 2026 00:00:00 -0400`` → ``2026-09-24``).

    No timezone conversion: arXiv's announcement day is the day it writes. A
    two-digit or impossible year gives None rather than a guess (``email.utils``
    would turn ``0001`` into 2001).
    """
    m = _RFC822_RE.search(text or "")
    if not m:
        return None
    # An unknown month name ("24 Foo 2026") is None, which calendar_date answers with None.
    return calendar_date(m[3], month_number(m[2]), m[1], earliest=_EARLIEST_YEAR)


_ISO_RE = re.compile(r"^\s*(\d{4})-(\d{2})-(\d{2})")


def iso_date(text: str | None) -> str | None:
    """The date part of an ISO 8601 stamp (``2026-09-25T00:00:00-04:00`` → ``2026-09-25``), as written."""
    m = _ISO_RE.match(text or "")
    return calendar_date(m[1], m[2], m[3], earliest=_EARLIEST_YEAR) if m else None
