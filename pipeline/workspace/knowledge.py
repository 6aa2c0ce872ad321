"""Knowledge docs: ``organized/knowledge/<topic>.md`` → ``KnowledgeDoc``.

The doc carries a hand-kept ``version:`` line and numbered sections. A section is a
heading of any level, ATX (``### §2.3 …``) or setext (underlined), whose text starts with
a section number: ``§2.3``, ``§1.(9)``, or a bare ``5.`` / ``2.3`` followed by a title. It
runs until the next heading of the same or higher level, so ``§2.3`` contains ``§2.3.1``.
Numbers are kept as written (``1.(1)`` and ``1.1`` are two sections; ``kb.sections``).
Every arXiv ID or URL written on a line of a section's own body is anchored there, with the
``(anchored YYYY-MM-DD)`` date of that line when one is written; text struck through
(``~~…~~``, the usual way to un-anchor) anchors nothing. What a careful reader would query —
a number written twice, two numbers that differ only by parentheses, an anchoring date that
is impossible or after the day the doc is read — is a problem naming its line.
"""
from __future__ import annotations

import re

from kb.arxiv_id import ArxivId, clean_text
from kb.citations import find_cited_ids
from kb.dates import calendar_date, month_number
from kb.records import AnchorRef, KnowledgeDoc, Section
from kb.sections import confusable, normalize_section, section_matches, section_parts
from kb.text import ANCHORED_RE

from .markdown import Block, Link, ParsedDoc, TextLine, iter_blocks, parse_document
from .textscan import find_dates, find_impossible_dates, find_urls

__all__ = ["parse_knowledge", "section_matches", "find_section", "find_sections", "own_end_line"]

# The number must end the word: "§2.3 Title", "§2.3. Title", "§1.(9)安全" but not "§2.x", "§2.3a".
# ASCII digits only, so that full-width forms fall through to the NFKC-folded retry.
_SECTION_RE = re.compile(
    r"^§\s*(?P<num>(?:[0-9]+|\([0-9]+\))(?:\.(?:[0-9]+|\([0-9]+\)))*)(?=\.?(?:$|[^A-Za-z0-9.(]))(?P<rest>.*)$",
    re.S)
_VERSION_LINE_RE = re.compile(r"^\s*version\s*[:：]\s*(?P<rest>.*)$", re.I)
_VERSION_RE = re.compile(r"^\s*(?P<v>v?\d+(?:\.\d+)*[a-z]?)(?![\w.])", re.I)
_CITED_RE = re.compile(r"(?:引|cited|citations?)\s*(?:→|->|[:：])\s*(?P<n>\d+)", re.I)
_MONTH_DAY_RE = re.compile(
    r"(?<![A-Za-z])(?P<mon>Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s*(?P<d>\d{1,2})(?!\d)", re.I)
_YEAR_RE = re.compile(r"(?<![\d.])(?P<y>(?:19|20)\d{2})(?![\d.])")
# A section heading without §: "5. Long-context serving", "2.3 Routing" — a number of at most
# three parts, then a title (a year such as "2026 roadmap" has four digits in one part and no dot).
_BARE_SECTION_RE = re.compile(r"^(?P<num>\d{1,2}(?:\.(?:\d{1,2}|\(\d{1,2}\))){0,2})(?:\.\s*|\s+)(?P<rest>\S.*)?$", re.S)


def find_sections(doc: KnowledgeDoc, number: str) -> list[Section]:
    """Every section whose number is ``number`` as written (``1.9`` does not find ``1.(9)``)."""
    parts = section_parts(number)
    return [s for s in doc.sections if parts is not None and section_parts(s.number) == parts]


def find_section(doc: KnowledgeDoc, number: str) -> Section | None:
    """The section numbered ``number``; None if there is none or the number is written twice."""
    found = find_sections(doc, number)
    return found[0] if len(found) == 1 else None


def own_end_line(doc: KnowledgeDoc, section: Section) -> int:
    """Last line of a section's own body: before its first subsection, else its end."""
    child = next((s for s in doc.sections if s.parent == section.number
                  and section.line < s.line <= section.end_line), None)
    return child.line - 1 if child else section.end_line


# --------------------------------------------------------------------------- version line
def _version(doc: KnowledgeDoc, rest: str) -> None:
    spans = []
    m = _VERSION_RE.match(rest)
    if m:
        doc.version = m["v"]
        spans.append(m.span("v"))
    else:
        doc.problems.append(f"version line has no version number: {rest.strip()!r}")
    cited = _CITED_RE.search(rest)
    if cited:
        doc.cited_count = int(cited["n"])
        spans.append(cited.span())
    dates = find_dates(rest)
    if dates:
        doc.version_date = dates[0][0]
        spans.append(dates[0][1:])
    else:
        md, year = _MONTH_DAY_RE.search(rest), _YEAR_RE.search(rest)
        if md and year:
            # "Oct 08 … 2026": a month and day, with the year elsewhere on the line
            doc.version_date = calendar_date(year["y"], month_number(md["mon"]), md["d"])
            spans += [md.span(), year.span()]
        elif md:
            doc.problems.append(f"version date {md[0]!r} has no year on the line")
    doc.version_note = _leftover(rest, spans)


def _leftover(text: str, spans: list[tuple[int, int]]) -> str:
    """The version line minus what was read from it, separators tidied, parens unwrapped."""
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + text[end:]
    parts = [p.strip(" \t,;，；") for p in re.split(r"[·|]", text)]
    note = " · ".join(p for p in parts if p)
    if len(note) >= 2 and note[0] in "(（" and note[-1] in ")）" and \
            note.count("(") + note.count("（") == 1:
        note = note[1:-1].strip()
    return note


# --------------------------------------------------------------------------- sections
def _section_number(text: str) -> tuple[str, str] | None:
    """(number, title) of a heading that starts a section, else None."""
    for candidate in (text, clean_text(text)):   # as written; full-width (§２.３, §1.（9）) if need be
        m = _SECTION_RE.match(candidate) if candidate.startswith("§") else _BARE_SECTION_RE.match(candidate)
        if m:
            return normalize_section(m["num"]) or m["num"], (m["rest"] or "").strip().lstrip(".:：、—–-").strip()
    return None


def _sections(doc: KnowledgeDoc, parsed: ParsedDoc) -> None:
    heads = []   # (line, last heading line, level, inline text)
    for b in iter_blocks(parsed.tokens, parsed.offset):
        if b.kind == "heading" and not b.nested:   # a heading quoted in a blockquote is not one
            heads.append((b.line, b.lines[-1].line, int(b.tag[1]), b.text.strip()))
    lines = parsed.lines
    total = len(lines)
    for k, (line, last, level, text) in enumerate(heads):
        found = _section_number(text)
        if found is None:
            if clean_text(text).startswith("§"):
                doc.problems.append(f"line {line}: heading {text!r} starts with § but has no section number")
            continue
        number, title = found
        stop = next((h[0] for h in heads[k + 1:] if h[2] <= level), total + 1)
        end = stop - 1
        while end > last and not lines[end - 1].strip():   # trailing blank lines are nobody's
            end -= 1
        parent = next((s.number for s in reversed(doc.sections)
                       if s.level < level and s.end_line >= line), None)
        _check_number(doc, number, line)
        doc.sections.append(Section(number, title, level, line, end, parent))


def _check_number(doc: KnowledgeDoc, number: str, line: int) -> None:
    for s in doc.sections:
        if s.number == number:
            doc.problems.append(f"line {line}: section §{number} is written twice (also line {s.line}); "
                                "its anchors are merged and `kb anchor` refuses it until one is renumbered")
        elif confusable(s.number, number):
            doc.problems.append(f"line {line}: §{number} and §{s.number} (line {s.line}) differ only by "
                                "parentheses: they are two sections")


# --------------------------------------------------------------------------- anchors
def _units(blocks: list[Block]) -> list[TextLine]:
    """Lines that can anchor: a list item's paragraph as one unit, other paragraphs line by
    line, table rows, and headings that are not sections. Code is never anchored."""
    units = []
    for b in blocks:
        if b.kind == "code" or (b.kind == "heading" and _section_number(b.text.strip()) is not None):
            continue
        units += [_joined(b.lines, b.line)] if b.kind == "paragraph" and b.item is not None else b.lines
    return units


def _joined(lines: list[TextLine], first: int) -> TextLine:
    """A list item's lines as one unit: text joined by spaces, links and struck spans moved along."""
    text, links, struck = "", [], []
    for tl in lines:
        shift = len(text) + (1 if text else 0)
        text += (" " if text else "") + tl.text
        links += [Link(l.href, l.start + shift, l.end + shift) for l in tl.links]
        struck += [(s + shift, e + shift) for s, e in tl.struck]
    return TextLine(text, links, first, struck)


def _anchors(unit: TextLine) -> list[AnchorRef]:
    label = unit.text.strip()
    when = ANCHORED_RE.search(unit.text)
    dates = find_dates(when["when"]) if when else []
    on = dates[0][0] if dates else None
    unreadable = on is None and when is not None and _unreadable_date(when["when"]) is not None
    refs: list[AnchorRef] = []
    ids: set[str] = set()
    found = [(aid, m_start) for aid, m_start in _ids_with_spans(unit.text)]
    found += [(aid, l.start) for l in unit.links for aid, _ in _ids_with_spans(l.href)
              if not unit.is_struck(l.start, max(l.end, l.start + 1))]
    for aid, start in found:
        if aid.id not in ids and not unit.is_struck(start, start + len(aid.id)):
            ids.add(aid.id)
            refs.append(AnchorRef(arxiv_id=aid.id, label=label, anchored_on=on, line=unit.line,
                                  date_unreadable=unreadable))
    urls: set[str] = set()
    for url, start, end in find_urls(unit):
        # a URL that names a paper (arxiv.org/abs/…, hf.co/papers/…) is anchored by its ID; any other
        # (a release tagged 2610.09701) is anchored as itself
        if url not in urls and not find_cited_ids(url) and not unit.is_struck(start, end):
            urls.add(url)
            refs.append(AnchorRef(url=url, label=label, anchored_on=on, line=unit.line, date_unreadable=unreadable))
    return refs


def _ids_with_spans(text: str) -> list[tuple[ArxivId, int]]:
    """arXiv IDs ``text`` cites (none in the address of a page that is not a paper's) with where each is written."""
    out, at = [], 0
    for aid in find_cited_ids(text):
        pos = text.find(aid.id, at)
        pos = text.find(aid.id) if pos < 0 else pos
        out.append((aid, max(pos, 0)))
        at = max(pos, 0) + 1
    return out


def _unreadable_date(when: str) -> str | None:
    """The date an ``(anchored …)`` marker writes that is no calendar day (``2026-02-30``, ``2026/02/30``,
    ``2026年2月30日``, ``Feb 30, 2026``), as written; None when it writes none (``anchored in v3``, ``10/09``)."""
    impossible = find_impossible_dates(when)
    return impossible[0] if impossible else None


def _date_problems(unit: TextLine, on: str | None, today: str | None) -> list[str]:
    """An anchoring date that is no calendar date, or that lies after the day the doc is read."""
    when = ANCHORED_RE.search(unit.text)
    if when is None:
        return []
    if on is None:
        written = _unreadable_date(when["when"])
        if written:
            return [f"line {unit.line}: anchoring date {written} is not a date; the anchor's date is unknown "
                    "(it counts from the day kb first read it)"]
        return []
    if today is not None and on > today:
        return [f"line {unit.line}: anchoring date {on} is after {today}, the day the doc was read; it counts "
                "from that date on"]
    return []


def parse_knowledge(text: str, path: str, topic: str, today: str | None = None, *,
                    parsed: ParsedDoc | None = None) -> KnowledgeDoc:
    """Read a knowledge doc: version line, sections and their anchors; never raises.

    ``today`` is the day the doc is read: an anchoring date after it is a problem to report.
    ``parsed`` is ``parse_document(text)`` when the caller has it (an edit reads the doc's tokens too).
    """
    parsed = parsed or parse_document(text)
    doc = KnowledgeDoc(path=path, topic=topic, problems=list(parsed.front.problems))
    blocks = list(iter_blocks(parsed.tokens, parsed.offset))
    version_line = next((m["rest"] for b in blocks if b.kind != "code" for tl in b.lines
                         if (m := _VERSION_LINE_RE.match(tl.text))), None)
    if version_line is None and "version" in parsed.front.data:
        version_line = str(parsed.front.data["version"])
    if version_line is None:
        doc.problems.append("no version: line")
    else:
        _version(doc, version_line)
    _sections(doc, parsed)
    for unit in _units(blocks):
        # innermost section holding the line: the latest-starting one that still runs
        home = None
        for s in doc.sections:
            if s.line < unit.line <= s.end_line:
                home = s
        refs = _anchors(unit) if home is not None else []
        if home is not None:
            home.anchors += refs
            if refs:
                doc.problems += _date_problems(unit, refs[0].anchored_on, today)
        if not refs and unit.text.strip():
            doc.remarks.append(unit.text.strip())
    return doc
