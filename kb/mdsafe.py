"""Markdown that is safe to show: everything that came from outside is escaped.

One line, no raw HTML, Markdown syntax and table pipes backslash-escaped (a backslash before
``<`` and before an ``&`` that would start an entity, never ``&lt;`` or ``&amp;``: a Markdown
file is read as text too, where an entity is noise),
nothing at the start that would open a block, and links only for http(s) URLs; code blocks
as fences their content cannot close (``md_code_block``). Used by the briefings and by
``kb show --format md``.
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


_ANY_SPECIAL = re.compile(r"[\\`*\[\]|<&_]")   # a character one of the three patterns above escapes


def _escaped(s: str) -> str:
    """Markdown and HTML syntax in ``s`` backslash-escaped (\\< opens no tag, \\& no entity)."""
    if _ANY_SPECIAL.search(s) is None:   # most titles and notes: nothing to escape
        return s
    s = _ENTITY_START.sub(r"\\&", _MD_SPECIAL.sub(r"\\\1", s))
    return _EDGE_UNDERSCORE.sub(r"\\_", s)


def _no_leading_block(s: str) -> str:
    """``s`` with what would open a block at its start escaped."""
    m = _LEADING_BLOCK.match(s)
    if m:   # a digit run keeps its digits, the marker after it is escaped: "1\. step"
        tok = m.group(1)
        s = (tok + "\\" + s[len(tok):]) if tok[0].isdigit() else "\\" + s
    return s


def md_text(value: Any) -> str:
    """Inline text from outside, safe in Markdown: one line, Markdown and HTML syntax escaped."""
    return _no_leading_block(_escaped(" ".join(str(value if value is not None else "").split())))


def _code_span(code: str, cell: bool) -> str:
    """``code`` as a code span: a fence longer than any backtick run in it, padded where it starts or ends
    with a backtick. Code holding ``<`` or an entity is shown as escaped text in backticks instead, so a
    Markdown briefing never carries a raw tag or entity, even where Markdown would keep it inert."""
    code = " ".join(code.splitlines())
    if "<" in code or _ENTITY_START.search(code):
        return _escaped("`" + code + "`")
    fence = "`" * (max((len(r) for r in re.findall(r"`+", code)), default=0) + 1)
    pad = " " if code[:1] == "`" or code[-1:] == "`" or (code[:1] == " " and code[-1:] == " ") else ""
    # in a table cell a pipe ends the cell even inside code; GFM reads \\| there as the pipe itself
    return f"{fence}{pad}{code.replace('|', chr(92) + '|') if cell else code}{pad}{fence}"


def md_inline(value: Any, cell: bool = False) -> str:
    """Like ``md_text``, for text that remembers its code spans (``{"text", "code": [[start, end]]}``
    or an object with those attributes): the spans are shown as code again, the rest escaped."""
    text = value.get("text", "") if isinstance(value, dict) else getattr(value, "text", value)
    spans = value.get("code", ()) if isinstance(value, dict) else getattr(value, "code", ())
    text = str(text if text is not None else "")
    out, at = [], 0
    for start, end in sorted((max(a, 0), min(b, len(text))) for a, b in spans):
        if start < at or start >= end or not text[start:end].strip():
            continue        # overlapping, empty or blank: left as text
        out += [_escaped(re.sub(r"\s+", " ", text[at:start])), _code_span(text[start:end], cell)]
        at = end
    out.append(_escaped(re.sub(r"\s+", " ", text[at:])))
    return _no_leading_block("".join(out).strip())


_BACKTICKED = re.compile(r"`([^`\n]+)`")


def md_backticked(value: Any) -> str:
    """Like ``md_inline``, for a message that marks its code with backticks as kb's own messages do
    ("… `kb anchor` refuses it …"): each `…` pair is shown as a code span, the rest escaped as
    ``md_text`` escapes it. A backtick left without its pair is escaped, so it shows as itself."""
    text = " ".join(str(value if value is not None else "").split())
    plain, spans, at = "", [], 0
    for m in _BACKTICKED.finditer(text):
        plain += text[at:m.start()]
        spans.append((len(plain), len(plain) + len(m[1])))
        plain += m[1]
        at = m.end()
    return md_inline({"text": plain + text[at:], "code": spans})


def md_cell(value: Any) -> str:
    """A table cell: like ``md_text`` (pipes are escaped there too)."""
    return md_text(value)


def md_inline_cell(value: Any) -> str:
    """A table cell that keeps its code spans (``md_inline``; pipes escaped inside the code too)."""
    return md_inline(value, cell=True)


def md_link(url: str | None, label: str | None = None) -> str:
    """A link only for http(s) URLs; anything else (javascript:, data:) is shown as inert text."""
    if not url:
        return md_text(label or "")
    if not re.match(r"https?://", url, re.I):
        return md_text(label or url)
    # Percent-encode whatever could end the link or the line: whitespace, controls, brackets, quotes.
    safe = quote(url, safe="-._~:/?#@!$&'*+,;=%")
    return f"[{md_text(label or url)}]({safe})"


# A fence's language word: what highlighters know (python, c++, objective-c, yaml.j2), nothing that could
# end the info string or carry markup. Anything else is dropped: the code is still shown, unlabelled.
_LANG = re.compile(r"[A-Za-z0-9_+.-]{1,20}")


def md_code_block(lines: Any, lang: str | None = "", indent: str = "") -> str:
    """Code from outside as a fenced block, every line prefixed with ``indent`` (to sit inside a list item).

    The content is kept exactly as written: nothing in it is escaped, because nothing in it can act.
    The fence is a run of backticks longer than any run in the content (three at least), so no line of
    the content can close it and what follows is never read as Markdown; ``lang`` is kept only when it
    is one plain word (``_LANG``). A blank line of the content gets the indent too, so it stays inside
    the item and a later pass that folds runs of blank lines cannot shorten the code. markdown-it
    escapes the content in the html briefing like any fenced block.
    """
    body = [str(line) for line in (lines or ())]
    longest = max((len(run) for line in body for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    word = lang if isinstance(lang, str) and _LANG.fullmatch(lang) else ""
    return "\n".join([f"{indent}{fence}{word}", *(indent + line for line in body), indent + fence])
