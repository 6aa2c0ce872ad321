"""The team's decision on an item, which a morning reader looks for first ("不锚，不进队。（Tom）", "Verdict: anchor it
in §3.3"): the last clause of the team's own entries and cards about the item that decides (``[markers] decided``),
not one asking for a decision (``undecided``: "锚不锚今天定"), with where it was written.

A Chinese word decides where it leads its part of the clause (after a comma or a colon, maybe after 先, 就 … or the
item's own name): "不锚，不进队", "建议：§3.1，进队列", "LaxRank 进队列"; not "方法：请求先进队列" (a method),
"如果不锚" (a condition), "ForeLoad 不锚" under another item. An English one is a whole phrase: "I would not anchor
it", not "don't anchor on the p50 numbers".

The knowledge doc records the team's decisions too, in its history ("KernCast、GraphKeep 不锚：和已锚的 …",
"Lathe 2.5.0 升级归 Omer，不进文档"): ``doc_decisions`` reads its deciding clauses once a night, each with the names
it decides of, and ``decision_of`` gives an item the team's last word: the doc's new lines, its notes and cards,
the doc's older lines."""
from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from kb.arxiv_id import find_arxiv_ids
from kb.names import TOKEN, coined, coined_names, name_key, title_name
from kb.text import phrase_at, url_spans
from pipeline.brief.claim_forms import releases_named
from pipeline.brief.model import Candidate
from pipeline.brief.rules import Rules

__all__ = ["team_decision", "DocDecisions", "doc_decisions", "decision_of"]

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
    if not any(w in low for w in rules.decided):   # most clauses hold no decided word: nothing to read
        return False
    spans = url_spans(low)   # a link's "?" asks nothing
    bare = "".join(ch for i, ch in enumerate(low) if not any(a <= i < b for a, b in spans))
    if any(w in bare for w in rules.undecided):
        return False
    for word in rules.decided:
        if word.isascii():
            if phrase_at(low, word) >= 0:
                return True
            continue
        for part in _PART.split(low):
            at = part.find(word)
            if at >= 0 and _a_lead(part[:at].strip(), own):
                return True
    return False


def _a_lead(lead: str, own: set[str]) -> bool:
    """What stands before a decided word in its part: nothing, an adverb or a lead word, or the item's own name."""
    lead = _unled(lead)
    return lead in ("", *_LEADS) or lead in own


# --- the doc's own decisions ---------------------------------------------------------------------------------------

# A name a doc's clause decides of: a release ("Lathe 2.5.0"), an arXiv ID, or a coined name; a list of them joined by
# 、, commas or "and"; a section number or an ID in brackets after a name ("ChordPD（§2.4）") is the name's.
_RELEASE = rf"{TOKEN}\s+[vV]?\d+(?:\.\d+)+"
_NAME = rf"(?:{_RELEASE}|\d{{4}}\.\d{{4,5}}(?:v\d+)?|{TOKEN})"
_SEP = r"\s*(?:[、,，/&]|和|与|及|\band\b)\s*"
_NAMES = re.compile(rf"{_NAME}(?:{_SEP}{_NAME})*")
_BRACKETED = re.compile(r"\s*(?:（[^（）]*）|\([^()]*\))")
_DOC_VERSION = re.compile(r"[vV]\d+(?:\.\d+)*")   # "v341（Nov 20）：…" opens a history line; it names no item
_DOC_PART = re.compile(r"[，,：:]")   # a list of names stays one part ("KernCast、GraphKeep 不锚")


@dataclass
class DocDecisions:
    """The doc's deciding clauses, read once a night (``doc_decisions``), and where the doc is, as they are cited."""

    clauses: list[tuple[frozenset[str], str, bool]] = field(default_factory=list)   # (names, clause, line is new)
    where: str = ""   # "organized/knowledge/inference.md v341"


def doc_decisions(lines: list[str], new: Collection[str], rules: Rules, where: str) -> DocDecisions:
    """The deciding clauses of the doc's lines (``KnowledgeDoc.remarks``: its history, its notes), in the doc's order,
    each with the folded names it decides of and whether its line is ``new`` (written since the previous briefing):
    the names leading the part its ``decided`` word is in ("KernCast、GraphKeep 不锚"), or, where the word leads its
    part, those the nearest part before it opens with ("Lathe 2.5.0 升级归 Omer，不进文档"). Not a clause asking
    (``undecided``), nor one whose word follows other words ("周四进队列的 WireQuant …")."""
    out = DocDecisions(where=where)
    for line in lines if rules.decided else ():
        if not any(w in line.casefold() for w in rules.decided):
            continue
        for clause in _clauses(line):
            clause = _within_brackets(clause.replace("**", "").strip(" -*•>\t\n。；;！!."))
            for said in _per_name(clause, rules):
                names = _decided_of(said, rules)
                if names:
                    out.clauses.append((names, said, line in new))
    return out


def _per_name(clause: str, rules: Rules) -> list[str]:
    """``clause`` cut before each part whose own decided word a list of names leads: "MossKV 不锚，FernKV 入锚 §2.1"
    decides of two items, each by its own word; "Lathe 2.5.0 升级归 Omer，不进文档" and "FernKV、MossKV 不锚：和已锚的
    PageKV 重复" stay whole (their later parts lead with no name)."""
    cuts = [m.end() for m in _DOC_PART.finditer(clause)]
    starts = [0] + [at for at, end in zip(cuts, [*cuts[1:], len(clause)]) if _names_decide(clause[at:end], rules)]
    return [clause[a:b].strip(" ，,：:") for a, b in zip(starts, [*starts[1:], len(clause)])]


def _names_decide(part: str, rules: Rules) -> bool:
    """Does a list of names lead a decided word in ``part`` ("FernKV 入锚 §2.1")?"""
    low = part.casefold()
    return any((at := phrase_at(low, word)) > 0 and _name_list(_unled(part[:at])) for word in rules.decided)


def decision_of(c: Candidate, doc: DocDecisions | None, rules: Rules) -> dict[str, Any] | None:
    """The decision shown under ``c``, the team's last word: a clause of the doc's new lines naming it (what the team
    recorded since the previous briefing), else its notes' and cards' (``team_decision``), else an older clause of the
    doc. A doc's is ``{"text", "where", "in_doc", "against"}``; ``against``: it keeps the item out of the doc (a
    ``decided_against`` word and no other decided word: "不进队，直接入锚" is for). What the doc anchors it has decided
    already: only the team's word is shown under it."""
    own = _own_names(c) if doc is not None and doc.clauses and not c.anchored_in else frozenset()
    found = [(new, text) for names, text, new in doc.clauses if names & own] if own else []
    latest = next((text for new, text in reversed(found) if new), None)
    said = None if latest else team_decision(c, rules)
    text = latest or (None if said else next((text for _, text in reversed(found)), None))
    if text is None:
        return said
    return {"text": text, "where": doc.where, "in_doc": True, "against": _against(text, rules)}


def _decided_of(clause: str, rules: Rules) -> frozenset[str]:
    """The names ``clause`` decides of (folded), or none."""
    if any(w in clause.casefold() for w in rules.undecided):
        return frozenset()
    parts = _DOC_PART.split(clause)
    for n, part in enumerate(parts):
        low = part.casefold()
        for word in rules.decided:
            at = phrase_at(low, word)
            if at < 0:
                continue
            lead = _unled(part[:at])
            # a word leading its part decides of what the clause spoke of before it, the nearest part opening with names
            names = _name_list(lead) if lead else next(filter(None, map(_opening_names, reversed(parts[:n]))), None)
            if names:
                return names
    return frozenset()


def _unled(lead: str) -> str:
    """What stands before a decided word without the adverbs and lead words next to it ("MossKV 先" → MossKV)."""
    lead = lead.strip()
    for leading in _LEADS:
        lead = lead.removesuffix(leading).strip()
    return lead


def _name_list(text: str) -> frozenset[str]:
    """The names ``text`` is a list of and nothing else, or none."""
    text = _BRACKETED.sub("", text).strip()
    return _names(text) if _NAMES.fullmatch(text) else frozenset()


def _opening_names(part: str) -> frozenset[str]:
    """The names a part of a clause opens with, followed by a space or its end ("Lathe 2.5.0 升级归 Omer"), not by
    the rest of a word."""
    part = part.strip()
    m = _NAMES.match(part)
    return _names(m[0]) if m and part[m.end():m.end() + 1] in ("", " ", "\t") else frozenset()


def _names(text: str) -> frozenset[str]:
    """A list's names, folded: releases (as ``claim_forms.releases_named`` writes them), IDs without their version
    ("2612.00001v2" is the paper 2612.00001) and coined names (not a plain word, nor a doc's version "v341")."""
    found = (n.strip() for n in re.split(_SEP, _BRACKETED.sub("", text)))
    return frozenset(_name_key(n) for n in found if n and not _DOC_VERSION.fullmatch(n)
                     and (find_arxiv_ids(n) or re.fullmatch(_RELEASE, n) or coined(n)))


def _name_key(name: str) -> str:
    """A name as the doc's clauses and an item's names compare: a release's key, an ID's without its version."""
    ids = find_arxiv_ids(name)
    if ids and ids[0].id in name:
        return ids[0].id
    releases = releases_named(name) if re.fullmatch(_RELEASE, name) else set()
    return next(iter(releases), None) or name_key(name)


def _own_names(c: Candidate) -> frozenset[str]:
    """What a doc's line calls ``c`` (folded): its title's coined name, its IDs, the release its title names — of an
    upgrade ("Lathe 2.5.0 → 2.5.1 升级") the one upgraded to: a decision on 2.5.0 is not one on the upgrade."""
    title = c.title or (c.titles[0] if c.titles else "")
    names = {name_key(n) for n in (title_name(title), *c.arxiv_ids) if n}
    return frozenset(names | releases_named(title))


def _against(text: str, rules: Rules) -> bool:
    """Does the deciding clause keep its item out of the doc, and say nothing for it?"""
    low = text.casefold()
    if not any(w in low for w in rules.decided_against) or any(w in low for w in rules.deferred):
        return False   # a decision put off ("先不锚，周五再定") keeps nothing out yet
    # the queue's and the cards' words (``decided_aside``: "不锚，不进队") say neither way
    for word in sorted([*rules.decided_against, *rules.decided_aside], key=len, reverse=True):
        low = low.replace(word, " ")
    return not any(w in low for w in rules.decided)


def _within_brackets(clause: str) -> str:
    """``clause`` without what lies past its brackets: up to one it closes without opening (a version line's
    "(…；Lathe 2.5.0 不进文档) · 引→579"), or before one it opens and a clause's end cut ("重复（周四定的；…）")."""
    opened: list[int] = []
    for i, ch in enumerate(clause):
        if ch in "(（":
            opened.append(i)
        elif ch in ")）":
            if not opened:
                return clause[:i].strip()
            opened.pop()
    return clause[:opened[0]].strip() if opened else clause
