"""Knowledge docs: ``organized/knowledge/<topic>.md`` → ``KnowledgeDoc``.

The doc carries a hand-kept ``version:`` line and ``§``-numbered sections. A section is
a heading whose text starts with ``§`` and a dotted number (parts may be parenthesised:
``§1.(9)``); it runs until the next heading of the same or higher level, so ``§2.3``
contains ``§2.3.1``. Every arXiv ID or URL written on a line of a section's own body
(not its subsections') is anchored there, with the ``(anchored YYYY-MM-DD)`` date of
that line when one is written.
"""
from __future__ import annotations

import re

from kb.arxiv_id import clean_text, find_arxiv_ids
from kb.dates import calendar_date, month_number
from kb.records import AnchorRef, KnowledgeDoc, Section
from kb.sections import section_key, section_matches

from .markdown import Block, Link, ParsedDoc, TextLine, iter_blocks, parse_document
from .textscan import find_dates, find_urls

__all__ = ["parse_knowledge", "section_matches", "find_section", "section_key", "own_end_line"]

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
_ANCHORED_RE = re.compile(r"[(（]\s*(?:anchored|锚定)(?:\s+on)?\s*[:：]?\s*(?P<when>[^)）]*)[)）]", re.I)


def find_section(doc: KnowledgeDoc, number: str) -> Section | None:
    """The first section whose number is ``number`` (``1.9`` finds ``1.(9)``)."""
    key = section_key(number)
    return next((s for s in doc.sections if key is not None and section_key(s.number) == key), None)


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
def _sections(doc: KnowledgeDoc, parsed: ParsedDoc) -> None:
    heads = []   # (line, last heading line, level, inline text)
    for b in iter_blocks(parsed.tokens, parsed.offset):
        if b.kind == "heading" and not b.nested:   # a heading quoted in a blockquote is not one
            heads.append((b.line, b.lines[-1].line, int(b.tag[1]), b.text.strip()))
    lines = parsed.lines
    total = len(lines)
    for k, (line, last, level, text) in enumerate(heads):
        if not text.startswith("§"):
            continue
        # as written first; full-width digits or brackets (§２.３, §1.（9）) only if need be
        m = _SECTION_RE.match(text) or _SECTION_RE.match(clean_text(text))
        if not m:
            doc.problems.append(f"line {line}: heading {text!r} starts with § but has no section number")
            continue
        stop = next((h[0] for h in heads[k + 1:] if h[2] <= level), total + 1)
        end = stop - 1
        while end > last and not lines[end - 1].strip():   # trailing blank lines are nobody's
            end -= 1
        parent = next((s.number for s in reversed(doc.sections)
                       if s.level < level and s.end_line >= line), None)
        title = m["rest"].strip().lstrip(".:：、—–-").strip()
        doc.sections.append(Section(m["num"], title, level, line, end, parent))


# --------------------------------------------------------------------------- anchors
def _units(blocks: list[Block]) -> list[TextLine]:
    """Lines that can anchor: a list item's paragraph as one unit, other paragraphs line by
    line, table rows, and headings that are not sections. Code is never anchored."""
    units = []
    for b in blocks:
        if b.kind == "code" or (b.kind == "heading" and clean_text(b.text).strip().startswith("§")):
            continue
        if b.kind == "paragraph" and b.item is not None:
            links = []
            text = ""
            for tl in b.lines:
                shift = len(text) + (1 if text else 0)
                text += (" " if text else "") + tl.text
                links += [Link(l.href, l.start + shift, l.end + shift) for l in tl.links]
            units.append(TextLine(text, links, b.line))
        else:
            units += b.lines
    return units


def _anchors(unit: TextLine) -> list[AnchorRef]:
    label = unit.text.strip()
    when = _ANCHORED_RE.search(unit.text)
    dates = find_dates(when["when"]) if when else []
    on = dates[0][0] if dates else None
    refs: list[AnchorRef] = []
    ids: set[str] = set()
    for source in [unit.text, *(l.href for l in unit.links)]:
        for aid in find_arxiv_ids(source):
            if aid.id not in ids:
                ids.add(aid.id)
                refs.append(AnchorRef(arxiv_id=aid.id, label=label, anchored_on=on, line=unit.line))
    urls: set[str] = set()
    for url, _, _ in find_urls(unit):
        # a URL that names a paper (arxiv.org/abs/…, hf.co/papers/…) is anchored by its ID
        if url not in urls and not find_arxiv_ids(url):
            urls.add(url)
            refs.append(AnchorRef(url=url, label=label, anchored_on=on, line=unit.line))
    return refs


def parse_knowledge(text: str, path: str, topic: str) -> KnowledgeDoc:
    """Read a knowledge doc: version line, § sections and their anchors; never raises."""
    parsed = parse_document(text)
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
        if home is not None:
            home.anchors += _anchors(unit)
    return doc


_URL_OR_DATE = re.compile(r"https?://\S+|[(（]\s*(?:anchored|锚定)[^)）]*[)）]", re.I)


def strip_anchor_syntax(text: str) -> str:
    """``text`` without what this parser reads as anchoring: arXiv IDs, URLs and "(anchored …)" dates.

    Used both ways: to show an anchor line as a title, and to write an outside title into a
    doc without it anchoring anything by itself.
    """
    text = _URL_OR_DATE.sub(" ", " ".join(text.split()))
    for aid in find_arxiv_ids(text):
        text = text.replace(aid.versioned, " ").replace(aid.id, " ")
    return " ".join(text.split()).strip(" —-")
