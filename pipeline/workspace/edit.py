"""Minimal edits to a knowledge doc the team also edits by hand.

``insert_anchor_line`` adds exactly one line and leaves every other byte alone: line
endings (LF, CRLF, CR), a missing final newline, odd spacing. The team reviews the
change as a diff (``unified_diff``), so a noisy rewrite would hide the one line that
matters and trample their formatting.
"""
from __future__ import annotations

import difflib
import re
from typing import Any

from kb.errors import KBError, NotFound
from kb.records import KnowledgeDoc, Section

from .knowledge import find_section, own_end_line, parse_knowledge
from .markdown import ParsedDoc, parse_document, split_lines

__all__ = ["insert_anchor_line", "unified_diff"]

_ITEM_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+]|(?P<num>\d{1,9})[.)])(?P<space>[ \t]*)")


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]


def _bullet(line: str) -> str:
    """The prefix for a new item after ``line`` (an item's first line): same indentation,
    marker and spacing; an ordered marker counts on (``9.`` → ``10.``, ``09.`` → ``10.``)."""
    m = _ITEM_RE.match(line.rstrip("\r\n"))
    if not m:
        return "- "
    marker = m["marker"]
    if m["num"] is not None:
        digits = m["num"]
        nxt = str(int(digits) + 1)
        marker = (nxt.zfill(len(digits)) if digits.startswith("0") else nxt) + marker[-1]
    return m["indent"] + marker + (m["space"] or " ")


def _last_filled(lines: list[str], first: int, last: int) -> int:
    """The last non-blank 1-based line in ``first..last`` (``first`` if all are blank)."""
    for n in range(last, first, -1):
        if lines[n - 1].strip():
            return n
    return first


def _own_list(parsed: ParsedDoc, section: Section, own_end: int) -> tuple[int, int, int] | None:
    """The section's own last top-level list as ``(first line, last line, list_open index)``."""
    found = None
    for i, tok in enumerate(parsed.tokens):
        if tok.type in ("bullet_list_open", "ordered_list_open") and tok.level == 0 and tok.map:
            first = tok.map[0] + parsed.offset + 1
            if section.line < first <= own_end:
                found = (first, min(tok.map[1] + parsed.offset, own_end), i)
    return found


def _last_item_line(parsed: ParsedDoc, list_open: int) -> int:
    """First line of the last item of the list opened at token ``list_open``."""
    line, depth = 0, 0
    for tok in parsed.tokens[list_open + 1:]:
        depth += tok.nesting
        if depth < 0:                       # the list's own close
            break
        if tok.type == "list_item_open" and depth == 1 and tok.map:
            line = tok.map[0] + parsed.offset + 1
    return line


def _doc_bullet(parsed: ParsedDoc) -> str:
    """The doc's own bullet style (its first bullet list's marker and spacing), else ``- ``."""
    for tok in parsed.tokens:
        if tok.type == "bullet_list_open" and tok.level == 0 and tok.map:
            return _bullet(parsed.lines[tok.map[0] + parsed.offset]).lstrip(" \t")
    return "- "


def _read(text: str) -> tuple[ParsedDoc, KnowledgeDoc]:
    """The doc's tokens and what they say, from one parse."""
    parsed = parse_document(text)
    return parsed, parse_knowledge(text, "", "", parsed=parsed)


def _insertion(parsed: ParsedDoc, doc: KnowledgeDoc, number: str) -> tuple[int, str]:
    """``(after_line, prefix)``: the 1-based line to insert after, and the bullet prefix."""
    section = find_section(doc, number)
    if section is None:
        listed = ", ".join(f"§{s.number}" for s in doc.sections) or "none"
        raise NotFound(f"no section §{number} in the doc", hint=f"its sections: {listed}")
    own_end = own_end_line(doc, section)
    own = _own_list(parsed, section, own_end)
    if own is not None:
        first, last, list_open = own
        return _last_filled(parsed.lines, first, last), _bullet(parsed.lines[_last_item_line(parsed, list_open) - 1])
    # no list of its own: after its last line (a setext heading's underline included)
    heading_end = next((t.map[1] + parsed.offset for t in parsed.tokens if t.type == "heading_open"
                        and t.map and t.map[0] + parsed.offset + 1 == section.line), section.line)
    return _last_filled(parsed.lines, heading_end, own_end), _doc_bullet(parsed)


def insert_anchor_line(text: str, section_number: str, line_text: str) -> str:
    """``text`` with one list item ``line_text`` added at the end of the section's own list.

    The item goes after the last item of the section's own (last top-level) list, before
    its first subsection, in the style of that list's items; with no list there, after
    the section's own last line, bulleted like the doc's other lists (else ``- …``).
    Every other byte is unchanged.
    Raises ``kb.errors.NotFound`` (listing the doc's sections) when there is no such
    section, and ``kb.errors.KBError`` when one line cannot be added without changing how
    the doc reads (right above a setext heading, say); ``ValueError`` if ``line_text``
    spans lines.
    """
    if "\n" in line_text or "\r" in line_text:
        raise ValueError("line_text must be a single line")
    old_parsed, old_doc = _read(text)
    after, prefix = _insertion(old_parsed, old_doc, section_number)
    lines = split_lines(text)
    new = prefix + line_text
    if after >= len(lines) and not _ending(lines[-1] if lines else ""):
        # the doc has no final newline: keep it that way, end the old last line instead
        nl = next((_ending(l) for l in reversed(lines) if _ending(l)), "\n")
        result = text + nl + new
    else:
        nl = _ending(lines[after - 1]) if after >= 1 else "\n"
        cut = sum(len(l) for l in lines[:after])
        result = text[:cut] + new + nl + text[cut:]
    _verify(old_parsed, old_doc, result, section_number, after + 1)
    return result


def _verify(old_parsed: ParsedDoc, before: KnowledgeDoc, new: str, number: str, line: int) -> None:
    """Refuse an insertion that would change the doc's structure.

    One line cannot always be added safely: right above a setext heading's text it would
    swallow the heading, inside an unclosed fence it would be code. Rather than write a
    doc that reads differently, say so and let a person add the blank line.
    """
    parsed, after = _read(new)
    is_item = any(t.type == "list_item_open" and t.map and t.map[0] + parsed.offset + 1 == line
                  for t in parsed.tokens)
    home = None
    for s in after.sections:
        if s.line < line <= s.end_line:
            home = s
    same = [s.number for s in before.sections] == [s.number for s in after.sections]
    same = same and _headings(old_parsed) == _headings(parsed)   # a setext heading kept as one
    if not (is_item and same and home is not None and home.number == find_section(before, number).number):
        raise KBError(f"cannot add a list item to §{number} without changing the doc's structure",
                      hint=f"add a blank line near line {line - 1} by hand and retry")


def _headings(parsed: Any) -> list[tuple[str, str]]:
    """Every heading of a document, numbered or not, as (level tag, text)."""
    tokens = parsed.tokens
    return [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]


def unified_diff(old: str, new: str, path: str) -> str:
    """A ``git diff``-style unified diff of ``path`` (``a/…`` → ``b/…``); "" when equal."""
    if old == new:
        return ""
    out = []
    for line in difflib.unified_diff(split_lines(old), split_lines(new), f"a/{path}", f"b/{path}"):
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)
