"""Markdown that is safe to show: everything that came from outside is escaped.

One line, no raw HTML, Markdown syntax and table pipes backslash-escaped (a backslash before
``<`` and before an ``&`` that would start an entity, never ``&lt;`` or ``&amp;``: a Markdown
file is read as text too, where an entity is noise),
nothing at the start that would open a block, and links only for http(s) URLs. Used by
the briefings and by ``kb show --format md``.
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

_MD_SPECIAL = re.compile(r"([\\`*\[\]|<])")
# ``&`` opens a character reference only before ``name;`` / ``#123;`` / ``#x1F;``: only there is it escaped.
_ENTITY_START = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
# ``_`` opens emphasis only at a word's edge (intraword ``VLLM_X_Y`` stays readable as written).
_EDGE_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")
# What would start a block if the text began a line or followed a bullet: heading, quote, list, rule.
_LEADING_BLOCK = re.compile(r"^(#{1,6}(?=\s|$)|>|[-+=](?=\s|$)|-{3,}|={3,}|\d{1,9}(?=[.)](?:\s|$)))")


def md_text(value: Any) -> str:
    """Inline text from outside, safe in Markdown: one line, Markdown and HTML syntax escaped."""
    s = " ".join(str(value if value is not None else "").split())
    s = _ENTITY_START.sub(r"\\&", _MD_SPECIAL.sub(r"\\\1", s))   # \< opens no tag, \& no entity
    s = _EDGE_UNDERSCORE.sub(r"\\_", s)
    m = _LEADING_BLOCK.match(s)
    if m:   # a digit run keeps its digits, the marker after it is escaped: "1\. step"
        tok = m.group(1)
        s = (tok + "\\" + s[len(tok):]) if tok[0].isdigit() else "\\" + s
    return s


def md_cell(value: Any) -> str:
    """A table cell: like ``md_text`` (pipes are escaped there too)."""
    return md_text(value)


def md_link(url: str | None, label: str | None = None) -> str:
    """A link only for http(s) URLs; anything else (javascript:, data:) is shown as inert text."""
    if not url:
        return md_text(label or "")
    if not re.match(r"https?://", url, re.I):
        return md_text(label or url)
    # Percent-encode whatever could end the link or the line: whitespace, controls, brackets, quotes.
    safe = quote(url, safe="-._~:/?#@!$&'*+,;=%")
    return f"[{md_text(label or url)}]({safe})"
