"""The briefing's symbols in HTML, readable on a machine without an emoji font.

⭐ is the only carrier of a source's credibility and 🟢🟠🟡 of an item's category; where no
emoji font is installed they draw as empty boxes. In HTML each is therefore written as text
a plain font has (★☆, "4/5", "[NEW]") beside the emoji, which is kept but hidden from screen
readers. Only text between tags is rewritten, never an attribute: the input is HTML that
markdown-it produced with raw HTML off, so ``<`` and ``>`` inside text are already escaped.
"""
from __future__ import annotations

import html
import re

# emoji → (css name, its text, what it means per language). The text is ASCII in both languages:
# it must read where no font but a basic Latin one is installed, and the zh briefing says NET-new too.
MARKS: dict[str, tuple[str, str, dict[str, str]]] = {
    "🟢": ("net-new", "[NEW]", {"zh": "NET-new：从未锚定也未简报过", "en": "NET-new: never anchored nor briefed"}),
    "🟠": ("engineering", "[ENG]", {"zh": "工程增量", "en": "engineering increment"}),
    "🟡": ("confirmation", "[CONF]", {"zh": "确认或回顾", "en": "confirmation or recap"}),
    "⚠️": ("warning", "[!]", {"zh": "注意", "en": "warning"}),
    "⚠": ("warning", "[!]", {"zh": "注意", "en": "warning"}),
}
_STARS_RE = re.compile("⭐{1,5}")
_MARK_RE = re.compile("|".join(re.escape(k) for k in sorted(MARKS, key=len, reverse=True)))
_TAG_RE = re.compile(r"(<[^>]*>)")


def stars_html(n: int) -> str:
    """``★★★★☆ 4/5``: filled and empty stars (in every common font) and the number as text."""
    return (f'<span class="stars" title="{n}/5" aria-hidden="true">{"★" * n}{"☆" * (5 - n)}</span>'
            f'<span class="stars-text"> {n}/5</span>')


def mark_html(emoji: str, lang: str) -> str:
    css, label, meanings = MARKS[emoji]
    meaning = meanings.get(lang, meanings["en"])
    return (f'<span class="mark mark-{css}" title="{html.escape(meaning)}">'
            f'<span class="emoji" aria-hidden="true">{emoji}</span>{html.escape(label)}</span>')


def _text(segment: str, lang: str) -> str:
    segment = _STARS_RE.sub(lambda m: stars_html(len(m[0])), segment)
    return _MARK_RE.sub(lambda m: mark_html(m[0], lang), segment)


def readable_marks(body: str, lang: str) -> str:
    """``body`` (HTML) with every star run and category emoji in its text given a text form.

    A code block (``<pre>``) is left as written: a ⭐ in a pasted command is the command's, not a
    credibility, and must copy out of the page as the team wrote it.
    """
    out, in_pre = [], False
    for part in _TAG_RE.split(body):
        if part.startswith("<"):
            in_pre = part.startswith("<pre") or (in_pre and not part.startswith("</pre"))
            out.append(part)
        else:
            out.append(part if in_pre else _text(part, lang))
    return "".join(out)
