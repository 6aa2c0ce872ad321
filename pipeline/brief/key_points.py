"""An item's key points, quoted from its sources and never written by kb (``key_points``): the team's bullets, the
sentences of a post or an abstract that carry its facts, each unit a line of its own."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from kb.records import Point
from kb.sections import stated_sections, without_section_numbers
from pipeline.brief.by_paper import cites_its_own, cites_only_others
from pipeline.brief.claim_forms import releases_named, under_another_release, without_other_releases
from pipeline.brief.model import Candidate

__all__ = ["TEAM_KINDS", "key_points", "units"]

_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+")


def key_points(c: Candidate, section_markers: list[str], routing: list[re.Pattern[str]] = (), limit: int = 6
               ) -> list[dict[str, Any]]:
    """Key points quoted from the sources, never written by kb.

    The team's bullets first, each with the tables and sub-items under it (not one that only asks for a
    section, "→ §3.1", "建议：§2.5": the increment's suggested section says it); then the sentences of a
    post that carry the item's facts (parameters, measurements), never a line citing only other papers (a recap
    table's rows of the week's other papers); with neither, its lines citing it, else the first sentences (of a
    paper alone, its abstract's). Of a release's item, not a line of another release's changelog pasted with it
    ("**Lathe 2.4.3**" under "**Lathe 2.5.0**": ``_of_another_release``).
    """
    own = releases_named(c.title)
    team = [p for p in c.points if (p.blocks or not _only_a_section(p.text, section_markers, routing))
            and not _of_another_release(p.text, c.texts, own)]
    written = {line for p in team for line in p.lines()}
    # a line of a note is a unit of its own (an entry without bullets is lines, not one sentence), but a
    # soft-wrapped line of English prose continues the one before it
    # a line citing other papers' IDs and none of the item's (a recap table's row of another paper) is theirs
    sentences = [(s, t) for t in c.texts if t for unit in units(without_other_releases(t, own))
                 for s in _SENTENCE.split(unit) if s and not cites_only_others(s, c.arxiv_ids)]
    quoted = [(s, t) for s, t in sentences if _adds_a_fact(s, c.facts, written)][:2]
    if not team and not quoted:   # the lines citing the item first (its row of a recap's table), else the opening
        quoted = [(s, t) for s, t in sentences if cites_its_own(s, c.arxiv_ids)][:2] or sentences[:2]
    # a sentence quoted from a public source says which (an abstract's, a post's): beside the team's bullets, the
    # reader tells the paper's "2.4x" from a note's "2.6x"
    origin = {s.text: {"kind": s.kind, "name": s.name} for s in c.sources if s.text and s.kind not in TEAM_KINDS}
    points = [p.as_json() for p in team] + [Point(s).as_json() | ({"from": origin[t]} if t in origin else {})
                                            for s, t in quoted]
    return points[:limit]


TEAM_KINDS = ("entry", "card")   # the team's own writing: its bullets are the key points, unattributed


def _of_another_release(line: str, texts: Iterable[str], own: set[str]) -> bool:
    """Is ``line``, where the first of ``texts`` holding it writes it, another release's than the item's (``own``,
    ``claim_forms.releases_named``): labelled with it, or under its heading in a pasted changelog
    (``claim_forms.under_another_release``)? An item naming no release keeps every line."""
    for text in texts if own else ():
        at = text.find(line)
        if at >= 0:
            return under_another_release(text, at, own)
    return False


def _only_a_section(line: str, markers: list[str], routing: list[re.Pattern[str]] = ()) -> bool:
    """Is a team's line its author's section request and nothing else ("→ §1.(1)", "Suggest §2.2.")? Or that and
    the note's bookkeeping, each clause of the rest one of ``routing`` (who reads it, when, its priority: "Jay 看，
    → §2.4", "建议：§3.5，下午建卡")? One that says more ("建议：§2.4，二期短请求多，可以试", "单卡就能跑") is a
    point."""
    if not stated_sections(line, markers):
        return False
    rest = without_section_numbers(line.casefold())
    for marker in sorted(markers, key=len, reverse=True):
        rest = rest.replace(marker, " ")
    clauses = [c for c in (c.strip(" \t:：()（）") for c in _CLAUSE.split(rest)) if re.sub(r"[\W_]", "", c)]
    return all(any(p.fullmatch(c) for p in routing) for c in clauses)


_CLAUSE = re.compile(r"[，,；;。.、]")


def _adds_a_fact(sentence: str, facts: list[str], written: set[str]) -> bool:
    """Whether a sentence of the sources carries a fact that the team's bullets shown above do not:
    one inside a bullet, or made of bullets and a source line ("来源：URL" and the bullets under it,
    read as one sentence), would only repeat them."""
    if any(sentence in line for line in written):
        return False
    rest = sentence
    for line in sorted(written, key=len, reverse=True):
        rest = rest.replace(line, " ")
    return any(f in rest for f in facts)


_WRAPPED = re.compile(r"^[a-z0-9(]")    # a line that continues a sentence: it starts in lower case
_CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")   # a line of Chinese (with its full-width marks)


def units(text: str) -> list[str]:
    """``text`` as its lines, whitespace collapsed; a line starting in lower case (or a digit) after a line
    of English prose that ends mid-sentence is the same sentence, wrapped ("…1.9× throughput⏎over S-LoRA …").
    A line of Chinese is a unit of its own: "…逐出到 CPU 内存⏎128K 上下文：…" are two bullets' lines."""
    units: list[str] = []
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line:
            continue
        if (units and _WRAPPED.match(line) and not _CJK.search(units[-1])
                and not units[-1].endswith((".", "!", "?", ":"))):
            units[-1] += " " + line
        else:
            units.append(line)
    return units
