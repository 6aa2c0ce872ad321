"""The team's decision on an item, which a morning reader looks for first ("不锚，不进队。（Tom）", "Verdict: anchor it
in §3.3"): the last clause of the team's own entries and cards about the item that decides (``[markers] decided``),
not one asking for a decision (``undecided``: "锚不锚今天定"), with where it was written.

A Chinese word decides where it leads its part of the clause (after a comma or a colon, maybe after 先, 就 … or the
item's own name): "不锚，不进队", "建议：§3.1，进队列", "LaxRank 进队列"; not "方法：请求先进队列" (a method),
"如果不锚" (a condition), "ForeLoad 不锚" under another item. An English one is a whole phrase: "I would not anchor
it", not "don't anchor on the p50 numbers"."""
from __future__ import annotations

import re
from typing import Any

from kb.names import coined_names
from kb.text import url_spans
from pipeline.brief.model import Candidate
from pipeline.brief.rules import Rules

__all__ = ["team_decision"]

_ENDS = "。；;！!？?\n"
_PART = re.compile(r"[，,：:、]")
# what may stand before a Chinese decided word in its part: an adverb or a lead ("先进队列", "结论：不锚")
_LEADS = ("先", "就", "再", "也", "暂", "暂时", "还是", "那就", "所以", "建议", "结论", "决定", "我建议")
_ABBREVIATION = re.compile(r"(?:\b(?:e\.g|i\.e|cf|vs|fig|al|etc|approx)|\b[A-Za-z]|\d)$", re.I)


def team_decision(c: Candidate, rules: Rules) -> dict[str, Any] | None:
    """``{"text", "where"}``: the clause of the team's last word on ``c`` that decides what becomes of it, or None.
    The team's entries and cards in time order; of one source, its last deciding clause."""
    if not rules.decided:
        return None
    own = {m[0].casefold() for t in c.titles for m in coined_names(t)}
    said = []
    for s in c.sources:
        if s.kind not in ("entry", "card") or s.beside_subject or not s.text:
            continue
        for n, clause in enumerate(_clauses(s.text)):
            if _decides(clause, rules, own):
                said.append(((s.date or "", n), clause.replace("**", "").strip(" -*•\t\n。；;！!."), s.key))
    if not said:
        return None
    _, text, where = max(said, key=lambda x: x[0])   # the last written; of one source, its last clause
    return {"text": text, "where": where}


def _clauses(text: str) -> list[str]:
    """``text`` cut after 。；;！!？? or a line's end, or after ". " that ends no abbreviation ("e.g. ", "Fig. ") nor a
    number; a link's "?" cuts nothing."""
    in_link = {i for a, b in url_spans(text) for i in range(a, b)}
    out, at = [], 0
    for i, ch in enumerate(text):
        end = ch in _ENDS and i not in in_link
        end = end or (ch == "." and text[i + 1:i + 2] in (" ", "") and i not in in_link
                      and not _ABBREVIATION.search(text[max(0, i - 8):i]))
        if end:
            out.append(text[at:i + 1])
            at = i + 1
    return [c for c in [*out, text[at:]] if c.strip()]


def _decides(clause: str, rules: Rules, own: set[str]) -> bool:
    """Does the clause decide, by a ``decided`` word leading its part (Chinese) or a whole phrase (English), and
    ask nothing?"""
    low = clause.casefold()
    spans = url_spans(low)   # a link's "?" asks nothing
    bare = "".join(ch for i, ch in enumerate(low) if not any(a <= i < b for a, b in spans))
    if any(w in bare for w in rules.undecided):
        return False
    for word in rules.decided:
        if word.isascii():
            if re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", low):
                return True
            continue
        for part in _PART.split(low):
            at = part.find(word)
            if at >= 0 and _a_lead(part[:at].strip(), own):
                return True
    return False


def _a_lead(lead: str, own: set[str]) -> bool:
    """What stands before a decided word in its part: nothing, an adverb or a lead word, or the item's own name."""
    for word in _LEADS:
        lead = lead.removesuffix(word).strip()
    return lead in ("", *_LEADS) or lead in own
