"""URLs and calendar dates written in the team's Markdown (a line of a note, a doc's header).

Notes are mostly Chinese and often write text right after a URL or a date without a
space, so both are found by scanning text, not by Markdown syntax alone.
"""
from __future__ import annotations

import re

from kb.dates import calendar_date, month_number
from kb.text import URL_RE, trim_url, url_spans

from .markdown import TextLine

__all__ = ["find_urls", "url_spans", "find_dates", "find_impossible_dates"]

def find_urls(tl: TextLine) -> list[tuple[str, int, int]]:
    """URLs of one line, in order: link targets (http/https) and bare URLs in its text.

    Each is ``(url, start, end)`` with the span of the link text or bare URL in the line.
    Bare URLs inside a link's text (``<https://…>`` autolinks) are the link's, not extra.
    """
    found: list[tuple[str, int, int]] = []
    for link in tl.links:
        if re.match(r"https?://", link.href, re.I):
            found.append((link.href, link.start, link.end))
    for m in URL_RE.finditer(tl.text):
        url = trim_url(m[0])
        end = m.start() + len(url)
        if "." not in url.split("//")[-1] or any(l.start < end and m.start() < l.end for l in tl.links):
            continue
        found.append((url, m.start(), end))
    return sorted(found, key=lambda f: f[1])


_MON = (r"(?P<mon>Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?"
        r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)(?![A-Za-z])\.?")
_DATE_RES = [
    re.compile(r"(?<!\d)(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<!\d)(?P<y>\d{4})/(?P<m>\d{1,2})/(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?<!\d)(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号]"),
    re.compile(r"(?<![A-Za-z])" + _MON + r"\s*(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y>\d{4})(?!\d)", re.I),
    re.compile(r"(?<!\d)(?P<d>\d{1,2})\s+" + _MON + r",?\s+(?P<y>\d{4})(?!\d)", re.I),
]


def _written_dates(text: str):
    """Every date form ``_DATE_RES`` reads in ``text``: ``(match, ISO date or None when no such day)``."""
    for rx in _DATE_RES:
        for m in rx.finditer(text):
            month = m["m"] if "m" in rx.groupindex else month_number(m["mon"])
            yield m, calendar_date(m["y"], month, m["d"])


def find_dates(text: str, mask: list[tuple[int, int]] = ()) -> list[tuple[str, int, int]]:
    """Calendar dates written in ``text`` as ``(ISO date, start, end)``, in order.

    Understands ``2026-04-07``, ``2026/04/07``, ``2026年4月7日``, ``Apr 7, 2026`` and
    ``7 Apr 2026``; impossible dates are skipped; spans overlapping ``mask`` are ignored.
    """
    found: list[tuple[str, int, int]] = []
    for m, iso in _written_dates(text):
        if iso is None or any(s < m.end() and m.start() < e for s, e in mask):
            continue
        if not any(s < m.end() and m.start() < e for _, s, e in found):
            found.append((iso, m.start(), m.end()))
    return sorted(found, key=lambda f: f[1])


def find_impossible_dates(text: str) -> list[str]:
    """Dates ``text`` writes in a form ``find_dates`` reads, with a year, that are no calendar day
    (``2026-02-30``, ``2026年13月1日``, ``Feb 30, 2026``), as written. A day without a year (``10/09``)
    is no such date: it is not read as a date at all."""
    return [m[0] for m, iso in _written_dates(text) if iso is None]
