"""Section numbers of knowledge docs (``§2.3``, ``§2.3.1``, ``§1.(9)``): read, compare, match.

Numbers compare in their written form, part by part: ``1.(1)`` and ``1.1`` are two sections
(a doc may well hold both), ``2.3`` contains ``2.3.1`` but not ``2.30``, and ``§10`` is not
``§1.0``. Only the spelling that cannot change meaning is folded: full-width digits and
brackets, spaces, leading zeros and a § in front.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from kb.arxiv_id import clean_text

_PART = re.compile(r"(\d{1,4})|\((\d{1,4})\)")


@lru_cache(maxsize=4096)   # a doc has a few dozen sections; queries compare them thousands of times
def section_parts(number: str) -> tuple[str, ...] | None:
    """``"§1.(09)"`` → ``("1", "(9)")``: a section number's parts as written (None if not one)."""
    text = clean_text(number).strip().lstrip("§").strip().rstrip(".")
    if not text:
        return None
    parts = []
    for raw in text.split("."):
        m = _PART.fullmatch(raw.strip())
        if m is None:
            return None
        parts.append(str(int(m[1])) if m[1] else f"({int(m[2])})")
    return tuple(parts)


def normalize_section(number: str) -> str | None:
    """The canonical spelling of a section number (``"§ 1.(09)"`` → ``"1.(9)"``)."""
    parts = section_parts(number)
    return ".".join(parts) if parts else None


def section_key(number: str) -> tuple[tuple[int, int], ...] | None:
    """A sort key: numerically, part by part, a plain part before a parenthesised one of the same value."""
    parts = section_parts(number)
    if parts is None:
        return None
    return tuple((int(p.strip("()")), p.startswith("(")) for p in parts)


def section_matches(number: str, query: str) -> bool:
    """True when section ``number`` is ``query`` or lies inside it, comparing written parts.

    "2.3" matches "2.3" and "2.3.1" but not "2.30"; "1.1" does not match "1.(1)".
    """
    n, q = section_parts(number), section_parts(query)
    return n is not None and q is not None and n[:len(q)] == q


def confusable(a: str, b: str) -> bool:
    """Two different numbers that read alike once parentheses are dropped (``1.(1)`` and ``1.1``)."""
    pa, pb = section_parts(a), section_parts(b)
    return (pa is not None and pb is not None and pa != pb
            and tuple(p.strip("()") for p in pa) == tuple(p.strip("()") for p in pb))


_SECTION_REF = re.compile(r"§\s*((?:\d{1,4}|\(\d{1,4}\))(?:\s*\.\s*(?:\d{1,4}|\(\d{1,4}\)))*)")


def without_section_numbers(text: str) -> str:
    """``text`` with every ``§N`` written in it ("§2.3", "§1.(9)") replaced by a space."""
    return _SECTION_REF.sub(" ", text)


def stated_sections(text: str, markers: list[str], negations: Sequence[str] = (), not_negations: Sequence[str] = (),
                    window: int = 24) -> list[str]:
    """Section numbers an author asks for in ``text``: a ``§N`` at most ``window`` characters after
    one of ``markers`` ("建议：§3.1", "建议归入 §2.3", "→ §1.(9)", "属于新的 §3.3 …"), in order.

    A ``§N`` the author only cites ("see §2.1 for background") has no marker before it on its line and is
    not a request; nor is one whose nearest marker has one of ``negations`` right before it ("不属于 §2.1",
    "上次误归入 §2.1") unless it is part of a word in ``not_negations`` ("特别建议"). Markers are matched
    ignoring case.
    """
    return _sections_with(True, text, markers, negations, not_negations, window)


def refused_sections(text: str, markers: list[str], negations: Sequence[str] = (),
                     not_negations: Sequence[str] = (), window: int = 24) -> list[str]:
    """Section numbers an author rules out in ``text``: a ``§N`` whose nearest marker is negated ("别归
    §3.2", "不属于 §2.1", "上次误归入 §2.1"). kb never suggests them for the item."""
    return _sections_with(False, text, markers, negations, not_negations, window)


def _sections_with(asked: bool, text: str, markers: Sequence[str], negations: Sequence[str],
                   not_negations: Sequence[str], window: int) -> list[str]:
    text = clean_text(text)
    low = text.casefold()
    found: list[str] = []
    for m in _SECTION_REF.finditer(text):
        before = low[max(0, m.start() - window):m.start()]
        # a marker on an earlier line is that line's: "70B 冷启动 41 s → 6 s" asks for nothing of the next
        # line's "和 §2.4 的 WarmStart 不冲突"
        before = before[before.rfind("\n") + 1:]
        if _stance(before, markers, negations, not_negations) is asked:
            number = normalize_section(m[1])
            if number and number not in found:
                found.append(number)
    return found


def _inside_word(text: str, at: int, mark: str, word: str) -> bool:
    """Is the ``mark`` found at ``at`` part of ``word`` as written there ("归" of 回归, 归一化, 归纳)?"""
    start = at - word.find(mark)
    return mark in word and start >= 0 and text[start:start + len(word)] == word


def _stance(before: str, markers: Sequence[str], negations: Sequence[str], not_negations: Sequence[str]
            ) -> bool | None:
    """Does the text ``before`` a § ask for it (True: its nearest marker), rule it out (False: the marker
    taken back by a negation before it), or neither (None: no marker)?"""
    at, mark = max(((before.rfind(k), k) for k in markers), default=(-1, ""))
    if at < 0 or any(_inside_word(before, at, mark, w) for w in not_negations):
        return None      # no marker, or one inside another word ("性能回归 §3.2": a regression; "归一化")
    # a negation that ends where the marker starts ("误归入", "别放到"; "不建议归入": markers run together)
    lead = before[:at].rstrip()
    while (joined := next((k for k in markers if k and lead.endswith(k)), None)) is not None:
        lead = lead[:-len(joined)].rstrip()
    return not any(lead.endswith(n) for n in negations) or any(lead.endswith(w) for w in not_negations)
