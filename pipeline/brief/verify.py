"""Verification rules: what in the day's material needs a human to check it.

Each rule is a pure function over the judged candidates (plus a few store
lookups passed in as plain data) returning ``Flag``s with their evidence. The
briefing lists them; ``sync_flags`` stores them so that a flag closed by the team
stays closed until its evidence changes.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kb.arxiv_id import parse_arxiv_id
from pipeline.brief.entities import title_name
from pipeline.brief.model import Candidate, Flag

RULE_ORDER = ("unsourced-claim", "boundary", "id-conflict", "number-conflict", "unresolved-id", "date-inconsistency",
              "impossible-id")
_SPEEDUP = re.compile(r"\b([A-Z][A-Za-z0-9-]{2,})\s+(\d+(?:\.\d+)?)\s*[×x](?![\w])")
# A system's name (SEIS, CascadeEP, vLLM-style) — not a plain capitalised word such as "Throughput".
_PLAIN_WORD = re.compile(r"^[A-Z][a-z]+$")


@dataclass
class Facts:
    """What the rules need from the store, gathered once."""

    known_ids: set[str] = field(default_factory=set)            # papers with metadata in the store
    unknown_to_arxiv: set[str] = field(default_factory=set)     # IDs the API answered "no such paper" for
    mentions: dict[str, list[str]] = field(default_factory=dict)  # arXiv ID → "path 条目N" / card / source
    card_mismatches: list[tuple[str, str, str]] = field(default_factory=list)  # (path, file id, front-matter id)
    anchored_topics: dict[str, list[tuple[str, str, set[str], set[str]]]] = field(default_factory=dict)
    # section → [(subject, title, topics, terms)] of items anchored there
    section_topics: dict[str, set[str]] = field(default_factory=dict)  # section → topics that map to it
    speedup_texts: list[tuple[str, str]] = field(default_factory=list)  # (where, text) to scan for N× claims


def _where(c: Candidate) -> list[str]:
    return [s.key for s in c.sources]


def unsourced_claims(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Claims marked ⚠/待核实, and numeric claims from sources below ⭐⭐⭐⭐ with nothing to check them against."""
    out = []
    for c in cands:
        best = max((s.credibility for s in c.sources), default=3)
        weak = best < 4 and c.facts and not c.arxiv_ids and not c.url
        if not (c.markers or weak):
            continue
        lines = [p for p in c.points if any(m in p for m in c.markers)] if c.markers else c.facts
        out.append(Flag("unsourced-claim", c.title, {
            "markers": c.markers, "claims": lines[:3], "sources": _where(c), "arxiv_ids": c.arxiv_ids,
            "credibility": best}))
    return out


def id_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """One title under two or more arXiv IDs across sources."""
    out = []
    for c in cands:
        if len(c.arxiv_ids) > 1:
            out.append(Flag("id-conflict", c.title, {
                "ids": {i: facts.mentions.get(i, []) + (["store: listing/API metadata"] if i in facts.known_ids else [])
                        for i in c.arxiv_ids},
                "resolved": [i for i in c.arxiv_ids if i in facts.known_ids]}))
    return out


def number_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """The same quantity for the same item with different values: upvotes of one day, N× speed-ups."""
    out = []
    for c in cands:
        values = sorted({v for v, _ in c.upvotes})
        if len(values) > 1:
            out.append(Flag("number-conflict", f"{c.title} · upvotes", {
                "quantity": "HF upvotes", "values": {str(v): [w for x, w in c.upvotes if x == v] for v in values}}))
    claims: dict[str, dict[str, list[str]]] = {}
    for where, text in facts.speedup_texts + [(s, t) for c in cands for s, t in zip(_where(c), c.texts)]:
        for name, value in _SPEEDUP.findall(text or ""):
            if _PLAIN_WORD.match(name):
                continue
            claims.setdefault(name, {}).setdefault(value, [])
            if where not in claims[name][value]:
                claims[name][value].append(where)
    for name, by_value in sorted(claims.items()):
        if len(by_value) > 1:
            out.append(Flag("number-conflict", f"{name} · speed-up", {
                "quantity": "speed-up (×)", "values": dict(sorted(by_value.items()))}))
    return out


def unresolved_ids(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """IDs an item rests on that arXiv does not know (online) or the store lacks (offline)."""
    out = []
    for c in cands:
        # Anchored items are known to the team; an item under two IDs is one id-conflict, not two flags.
        if c.anchored_in or len(c.arxiv_ids) > 1:
            continue
        for i in c.arxiv_ids:
            if i in facts.known_ids:
                continue
            why = "unknown" if i in facts.unknown_to_arxiv else "unresolved"
            out.append(Flag("unresolved-id", i, {"id": i, "why": why, "title": c.title,
                                                 "mentioned_in": facts.mentions.get(i, [])}))
    return out


def date_inconsistencies(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """An ID from a month after the note citing it; a card whose file name and front matter disagree."""
    out = []
    for path, file_id, fm_id in facts.card_mismatches:
        out.append(Flag("date-inconsistency", path, {"card": path, "file_name_id": file_id, "front_matter_id": fm_id}))
    for c in cands:
        for s in c.sources:
            if s.kind != "entry" or not s.date:
                continue
            note_yymm = s.date[2:4] + s.date[5:7]
            for i in dict.fromkeys(c.arxiv_ids + list(s.cites)):   # every ID the entry cites
                aid = parse_arxiv_id(i)
                if aid and not aid.is_old_style and aid.yymm > note_yymm:
                    out.append(Flag("date-inconsistency", f"{i} @ {s.key}", {
                        "id": i, "id_month": aid.yymm, "cited_in": s.key, "cited_on": s.date[:10]}))
    return out


def boundaries(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """A new paper and a paper anchored in the same section whose contributions overlap enough to need a reading.

    Overlap: two or more shared topics, or one shared topic beyond the topics the
    section is about; the closest anchored paper (most shared topics, then terms) is named.
    """
    out = []
    for c in cands:
        if c.category == "confirmation" or not c.section or not c.arxiv_id:
            continue
        own = facts.section_topics.get(c.section, set())
        best = None
        for subject, title, topics, terms in facts.anchored_topics.get(c.section, []):
            shared = set(c.topics) & topics
            if subject in c.subjects or parse_arxiv_id(subject) is None or not (len(shared) >= 2 or shared - own):
                continue
            overlap = sorted(c.terms & terms)
            key = (len(shared), len(overlap), subject)
            if best is None or key > best[0]:
                best = (key, subject, title, sorted(shared), overlap)
        if best:
            _, subject, title, shared, overlap = best
            out.append(Flag("boundary", f"{c.arxiv_id or c.title} ~ {subject}", {
                "new": c.arxiv_id or c.title, "new_title": c.title, "anchored": subject, "anchored_title": title,
                "section": f"§{c.section}", "shared_topics": shared, "shared_terms": overlap}))
    return out


def impossible_ids(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Something written as an arXiv ID that cannot exist (month 00 or 13+, the wrong number of digits):
    never a paper; flagged with where it is written and, when a known paper's ID starts the same way
    and the item is about it, that ID as the likely one."""
    out = []
    known = {i: c.title for c in cands for i in c.arxiv_ids if i in facts.known_ids}
    for c in cands:
        name = title_name(c.title) or (c.title.split("：")[0].split(":")[0].strip() if c.title else "")
        for written, why, where in c.bad_ids:
            digits = written.split(".")[0] + "." + written.split(".")[1][:4]
            # IDs that start the same way, the one whose paper has the item's name first
            likely = sorted((i for i in sorted(known) if i.startswith(digits) and i != written),
                            key=lambda i: not (name and known[i].casefold().startswith(name.casefold())))
            out.append(Flag("impossible-id", written, {"id": written, "why": why, "cited_in": where,
                                                      "title": c.title, "likely": likely[:3]}))
    return out


RULES: dict[str, Callable[[list[Candidate], Facts], list[Flag]]] = {
    "unsourced-claim": unsourced_claims, "boundary": boundaries, "id-conflict": id_conflicts,
    "number-conflict": number_conflicts, "unresolved-id": unresolved_ids, "date-inconsistency": date_inconsistencies,
    "impossible-id": impossible_ids,
}


# Rules about what the team wrote (an ID that cannot exist, or is dated after the note citing it)
# look at every item of the window, relevant to the topic or not: the team's notes must be right.
DATA_RULES = ("date-inconsistency", "impossible-id")


def run_rules(checked: list[Candidate], facts: Facts, window: list[Candidate] | None = None) -> list[Flag]:
    """Every rule, in the briefing's order, labelled T1, T2, …: the judgement rules over ``checked``
    (what the briefing puts forward), the data rules over every item of the ``window``."""
    flags: list[Flag] = []
    for name in RULE_ORDER:
        cands = (window if window is not None else checked) if name in DATA_RULES else checked
        found = {f.fingerprint: f for f in RULES[name](cands, facts)}
        flags += [found[k] for k in sorted(found)]
    for n, f in enumerate(flags, 1):
        f.label = f"T{n}"
    return flags
