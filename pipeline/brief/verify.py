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
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.names import coined, title_name
from kb.text import boundary_context
from pipeline.brief.claims import Claim, ClaimWords, SaidOf, claims_in, conflicts, unsigned
from pipeline.brief.likeness import LEADING_NAME, Names, OverlapWords, leading_name, likeness
from pipeline.brief.model import Candidate, Flag
from pipeline.brief.words import candidate_text, content_words, count_words

RULE_ORDER = ("unsourced-claim", "boundary", "id-conflict", "number-conflict", "unresolved-id", "date-inconsistency",
              "impossible-id")


@dataclass
class Facts:
    """What the rules need from the store, gathered once."""

    known_ids: set[str] = field(default_factory=set)            # papers with metadata in the store
    unknown_to_arxiv: set[str] = field(default_factory=set)     # IDs the API answered "no such paper" for
    mentions: dict[str, list[str]] = field(default_factory=dict)  # arXiv ID → "path 条目N" / card / source
    card_mismatches: list[tuple[str, str, str]] = field(default_factory=list)  # (path, file id, front-matter id)
    anchored_topics: dict[str, list[tuple[str, str, set[str], set[str]]]] = field(default_factory=dict)
    # section → [(subject, title, topics, terms)] of items anchored there
    anchored_texts: dict[str, str] = field(default_factory=dict)
    # subject → what each anchored item of the doc is (its title, its line's label: ``facts.anchor_text``)
    section_headings: dict[str, str] = field(default_factory=dict)   # section → its heading with its parents'
    word_counts: dict[str, int] = field(default_factory=dict)   # word (stemmed) → texts holding it (``count_words``)
    texts_counted: int = 0       # the doc's anchors and the day's relevant items the counts were taken over
    # The texts a word's rarity is counted over, read the first time a boundary needs it (``word_rarity``):
    # most nights every boundary is a topic overlap, and reading every text of the doc and the day is not free.
    rarity_texts: Callable[[], list[str]] | None = None
    section_topics: dict[str, set[str]] = field(default_factory=dict)  # section → topics that map to it
    speedup_texts: list[tuple[str, str]] = field(default_factory=list)  # (where, text): the doc's own figures
    quantities: dict[str, str] = field(default_factory=dict)   # keyword → the quantity it names (briefing.toml)
    said_of: SaidOf = field(default_factory=SaidOf)            # the words before a quantity a value is said of
    claim_words: ClaimWords = field(default_factory=ClaimWords)   # which numbers are compared ([claim_words])
    anchored_names: Names = field(default_factory=dict)   # the doc's anchored papers by name and ID (likeness)
    overlap_words: OverlapWords = field(default_factory=OverlapWords)   # "和 X 是同一件事" ([overlap_words])
    # ``read_claims`` answering from the claims kept between nights (``kept_claims.KeptClaims.wrap``), when set
    kept_claims: Callable[[str, str], list[Claim]] | None = None

    def read_claims(self, text: str, where: str) -> list[Claim]:
        """The claims written in ``text`` (from ``where``), read with the words of data/briefing.toml."""
        return claims_in(text, where, self.quantities, self.said_of, self.claim_words)


    def word_rarity(self) -> tuple[dict[str, int], int]:
        """``(word_counts, texts_counted)``, counted over ``rarity_texts`` the first time they are asked for."""
        if self.rarity_texts is not None:
            self.word_counts, self.texts_counted = count_words(self.rarity_texts())
            self.rarity_texts = None
        return self.word_counts, self.texts_counted


def _where(c: Candidate) -> list[str]:
    return [s.key for s in c.sources]


def unsourced_claims(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Claims marked ⚠/待核实, and numeric claims from sources below ⭐⭐⭐⭐ with nothing to check them against."""
    out = []
    for c in cands:
        if not (c.markers or c.unsourced):
            continue
        best = max((s.credibility for s in c.sources), default=3)
        written = [line for p in c.points for line in p.lines()]
        lines = [p for p in written if any(m in p for m in c.markers)] if c.markers else c.facts
        context: dict[str, Any] = {"papers": [i for i in c.arxiv_ids if i in facts.known_ids]}
        if not c.markers:   # a bare figure ("25%") says little: the briefing quotes the lines that carry it
            context["said"] = [p for p in written if any(f in p for f in c.facts)][:3]
        out.append(Flag("unsourced-claim", c.title, {
            "markers": c.markers, "claims": lines[:3], "sources": _where(c), "arxiv_ids": c.arxiv_ids,
            "credibility": best}, context=context))
    return out


# The place of an ID the store knows from the arXiv listing or the API: kb's label, in English like the rest
# of the evidence (a briefing in another language says it as data/briefing.toml's [place_names] does).
STORE_PLACE = "store: listing/API metadata"


def id_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """One title under two or more arXiv IDs across sources (a card's file name among them), or its name
    written beside another known paper's ID (``miscited``: there, where the name was written, and arXiv's
    title of that ID)."""
    out = []
    for c in cands:
        written = c.written_ids
        if len(written) > 1 or c.miscited:
            ids = {i: facts.mentions.get(i, []) + ([STORE_PLACE] if i in facts.known_ids else [])
                   for i in written}
            evidence = {"ids": ids, "resolved": [i for i in c.arxiv_ids if i in facts.known_ids]}
            if c.miscited:
                ids.update((i, places) for i, (_, places) in c.miscited.items() if i not in ids)
                evidence["resolved"] = [i for i in evidence["resolved"] if i not in c.miscited]
                evidence["titles"] = {i: title for i, (title, _) in c.miscited.items()}
            out.append(Flag("id-conflict", c.title, evidence))
    return out


def number_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """The same quantity of the same subject with different values in two sources (``pipeline.brief.claims``):
    HF upvotes of one day that a rising count does not explain (``upvotes_disagree``; upvotes that rose
    between days or through a day are a change over time), and measurements with units — within each
    item, and across items for a system named in each."""
    out = []
    # Upvotes drift through a day (a morning note, the nightly's fetch): compared for what the briefing
    # puts forward only, where a difference changes what it says.
    for c in [c for c in cands if c.put_forward]:
        for day in sorted({d[:10] for *_, d in c.upvotes}):
            # a place that writes two counts of one day ("12▲ yesterday, 31▲ now") tells a change, not a conflict
            by_place: dict[str, set[int]] = {}
            stamp: dict[str, str] = {}
            for v, w, d in c.upvotes:
                if d[:10] == day:
                    by_place.setdefault(w, set()).add(v)
                    stamp.setdefault(w, d)
            single = {w: vs.pop() for w, vs in by_place.items() if len(vs) == 1}
            values = sorted(set(single.values()))
            if upvotes_disagree([(v, _time_of(stamp[w])) for w, v in single.items()]):
                out.append(Flag("number-conflict", f"{c.title} · upvotes", {
                    "quantity": "HF upvotes", "day": day,
                    "values": {str(v): [w for w, x in single.items() if x == v] for v in values}}))
    seen: set[tuple[str | None, str, str]] = set()

    claims = facts.kept_claims or facts.read_claims
    claims_of = {id(c): [cl for s in c.sources for cl in claims(s.text, s.key)] for c in cands}
    corrected = {s.key: s.corrected for c in cands for s in c.sources if s.corrected}
    for c in cands:
        found = claims_of[id(c)]
        # The item's own name — its titles' first coined word — is the item itself, not another system it lists.
        names = {m[0].casefold() for t in c.titles
                 if (m := LEADING_NAME.match(t)) and coined(m[0].strip())}
        for subject, quantity, unit, signed in conflicts(found, names):
            seen.add((subject, quantity, unit))
            what = f"{subject} {quantity}" if subject else quantity
            values = _unsigned(signed)
            out.append(Flag("number-conflict", f"{c.title} · {what}", {"quantity": f"{what} ({_shown(unit, values)})",
                                                                    "values": values},
                            context={**_corrections(values, corrected), **_signs(signed),
                                     "measured": _measured(c.title, subject, quantity, _shown(unit, values))}))
    named = [cl for where, text in facts.speedup_texts for cl in claims(text, where)]
    named += [cl for c in cands for cl in claims_of[id(c)]]
    for subject, quantity, unit, signed in conflicts([cl for cl in named if cl.subject], set()):
        if (subject, quantity, unit) not in seen:
            values = _unsigned(signed)
            out.append(Flag("number-conflict", f"{subject} · {quantity}",
                            {"quantity": f"{subject} {quantity} ({_shown(unit, values)})", "values": values},
                            context={**_corrections(values, corrected), **_signs(signed),
                                     "measured": _measured(None, subject, quantity, _shown(unit, values))}))
    return out


def _unsigned(signed: dict[str, list[str]]) -> dict[str, list[str]]:
    """A conflict's values without their signs: the evidence, which a closed flag is compared by, stays the
    figures as kb has always written them (a sign shown is not new evidence, and reopens nothing). Values
    that differ only by their sign ("+25%", "−25%") keep it: without it they are one."""
    bare = [unsigned(v) for v in signed]
    return {(b if bare.count(b) == 1 else v): places for (v, places), b in zip(signed.items(), bare)}


def _signs(signed: dict[str, list[str]]) -> dict[str, Any]:
    """The values written with a sign ("−44%"), as the briefing shows them: which way a figure goes."""
    found = {k: v for k, v in zip(_unsigned(signed), signed) if k != v}
    return {"signed": found} if found else {}


def _measured(item: str | None, system: str | None, quantity: str, unit: str) -> dict[str, str | None]:
    """The parts of a conflicting-numbers flag's subject and quantity (both written in English: they are the
    flag's identity and evidence), so a briefing in another language can say what is measured in its own
    words: the item the flag is raised on (None: a system named in several items), the system named before
    the figures (None: the item itself), the quantity (``[quantities]``' name) and the unit shown."""
    return {"item": item, "system": system, "quantity": quantity, "unit": unit}


def upvotes_disagree(counts: list[tuple[int, str]]) -> bool:
    """Do one day's counts, ``(value, time of day or "")``, disagree? Upvotes only rise: counts that carry a
    time (a note's, a card's; a fetch's is the day's last), taken in time order and never falling, are one
    count rising through the day ("11▲ at 09:00", the evening's card and fetch 12▲). A count without a time
    must equal the others; two counts of one moment must be equal."""
    if len({v for v, _ in counts}) < 2:
        return False
    if any(not t for _, t in counts):
        return True
    ordered = sorted(counts, key=lambda vt: (vt[1], vt[0]))
    return any(b[0] < a[0] or (a[1] == b[1] and a[0] != b[0]) for a, b in zip(ordered, ordered[1:]))


def _time_of(stamp: str) -> str:
    """The time of day a stamp carries ("09:00", "24:00" for a fetch), or "" — 00:00 included, the stamp
    of a note or card dated without a time."""
    t = stamp[11:16]
    return "" if t in ("", "00:00") else t


def _corrections(values: dict[str, list[str]], corrected: dict[str, str]) -> dict[str, Any]:
    """The places of a conflict that are posts corrected in place, and when: their figure is the post's
    current one, and an older note may quote what it said before."""
    found = {w: corrected[w] for places in values.values() for w in places if w in corrected}
    return {"corrected": found} if found else {}


_WRITTEN_UNIT = re.compile(r"^[\d.,\s]+")   # a figure's digits: what is left is its unit


def _shown(unit: str, values: dict[str, list[str]]) -> str:
    """The unit a flag names: the one every value is written in ("380 ms", "412 ms" → ms), else the
    unit they were compared in (seconds for "0.4 s" against "380 ms")."""
    written = {_WRITTEN_UNIT.sub("", v).strip() for v in values}
    return written.pop() if len(written) == 1 and "" not in written else unit


def unresolved_ids(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """IDs an item rests on that arXiv does not know (online) or the store lacks (offline)."""
    out = []
    for c in cands:
        # Anchored items are known to the team; an item under two IDs is one id-conflict, not two flags.
        if c.anchored_in or len(c.written_ids) > 1:
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

    The team's word first (``likeness``): an anchored paper of the section its note or card says the
    new one does the same as is named (the evidence adds where it was said: ``said_in``); a paper
    it says it differs from is never named, and nothing is when it says the new one overlaps nothing.
    Else overlap: two or more shared topics, or one shared topic beyond the topics the
    section is about; the closest anchored paper (most shared topics, then terms) is named.
    Else the same mechanism inside the section's topic (``mechanism_overlap``): the anchored paper
    whose title and label share two rare words with the new paper's text, words the section's
    heading and most of its anchors do not have; the evidence adds them (``shared_words``).
    """
    out = []
    for c in cands:
        if c.category == "confirmation" or not c.section or not c.arxiv_id:
            continue
        said = likeness(c, facts.anchored_names, facts.overlap_words)
        if said.nothing and not said.same:
            continue
        own = facts.section_topics.get(c.section, set())
        mine = set(c.topics)
        others = [a for a in facts.anchored_topics.get(c.section, [])
                  if a[0] not in c.subjects and a[0] not in said.different]
        named = next((a for s in said.same for a in others if a[0] == s and parse_arxiv_id(s)), None)
        best = None
        if named is not None:
            subject, title, topics, terms = named
            best = (None, subject, title, sorted(mine & topics), sorted(c.terms & terms))
        for subject, title, topics, terms in others if best is None else ():
            shared = mine & topics
            # the overlap first: most anchored items share too little, and need no ID parsed
            if not (len(shared) >= 2 or shared - own) or parse_arxiv_id(subject) is None:
                continue
            overlap = sorted(c.terms & terms)
            key = (len(shared), len(overlap), subject)
            if best is None or key > best[0]:
                best = (key, subject, title, sorted(shared), overlap)
        words: list[str] = []
        if best is None and (found := mechanism_overlap(c, others, facts)):
            (subject, title, topics, terms), words = found
            best = (None, subject, title, sorted(mine & topics), sorted(c.terms & terms))
        if best:
            _, subject, title, shared, overlap = best
            evidence = {"new": c.arxiv_id or c.title, "new_title": c.title, "anchored": subject,
                        "anchored_title": title, "section": f"§{c.section}", "shared_topics": shared,
                        "shared_terms": overlap}
            if words:   # only a mechanism overlap has them: a topic overlap's evidence stays as it was
                evidence["shared_words"] = words
            if named is not None:   # the team's word: where it said so
                evidence["said_in"] = said.said_in
            # the context `kb flags show` derives again from the stored evidence: one definition of it
            out.append(Flag("boundary", f"{c.arxiv_id or c.title} ~ {subject}", evidence,
                            context=boundary_context(evidence)))
    return out


# Mechanism overlap (``mechanism_overlap``). A word counts when it is rare in the topic — in at most one text
# in ten of the doc's anchors and the day's other relevant items (``count_words``, less the new item's own
# text, which always holds its words: else no word is rare below 20 texts; the day's other papers, most of
# them off the topic, would make every word of it look rare) — and not the section's own: not in its heading
# (or its parents'), and held by no more than a quarter of its anchors (one, in a section of up to seven),
# since what many anchors of a section share is what every paper of it is about. Two such words shared
# make an overlap: one is a coincidence as often as not ("tree" in two drafting papers' titles).
# How the constants were chosen, and on which days: docs/briefing.md.
RARE_WORD_SHARE = 1 / 10
SECTION_WORD_SHARE = 1 / 4
MIN_SHARED_WORDS = 2

def mechanism_overlap(c: Candidate, anchored: list[tuple[str, str, set[str], set[str]]], facts: Facts
                      ) -> tuple[tuple[str, str, set[str], set[str]], list[str]] | None:
    """The paper anchored in ``c``'s section that does what ``c`` does, and the words that say so, or None.
    ``anchored``: the section's other anchored items (``Facts.anchored_topics``), papers or not.

    What an anchored item does is its title and label (``Facts.anchored_texts``); the new item's is all that
    is written about it (``candidate_text``). Shared words count when rare and not the section's own
    (``RARE_WORD_SHARE``, ``SECTION_WORD_SHARE``); names never count (an item that names the anchored paper
    is not doing what it does). The anchored item sharing the most such words (the rarer on a tie), if
    ``MIN_SHARED_WORDS`` or more; the words as its title and label spell them, in alphabetical order."""
    if not anchored:
        return None
    counts, counted = facts.word_rarity()
    if not counted:
        return None
    names = {n.casefold() for t in [c.title, *(a[1] for a in anchored),
                                    *(facts.anchored_texts.get(a[0], "") for a in anchored)] if (n := leading_name(t))}
    section = set(content_words(facts.section_headings.get(c.section or "", "")))
    words = {a[0]: content_words(facts.anchored_texts.get(a[0]) or a[1], names) for a in anchored}
    held: dict[str, int] = {}
    for w in (w for ws in words.values() for w in ws):
        held[w] = held.get(w, 0) + 1
    common = max(1, int(len(anchored) * SECTION_WORD_SHARE))
    mine = content_words(candidate_text(c), names)
    rare = (counted - 1) * RARE_WORD_SHARE       # the other texts: the new item's own is one of those counted
    best = None
    for a in (a for a in anchored if parse_arxiv_id(a[0]) is not None):
        shared = [w for w in mine.keys() & words[a[0]].keys()
                  if w not in section and held[w] <= common and counts.get(w, 0) - 1 <= rare]
        key = (len(shared), -sum(counts.get(w, 0) for w in shared), a[0])
        if len(shared) >= MIN_SHARED_WORDS and (best is None or key > best[0]):
            # the evidence is the flag's identity: the anchored paper's own spelling, in alphabetical order,
            # not the new item's first (a later post can come first) nor the rarest first (the day's counts)
            best = (key, a, sorted(words[a[0]][w] for w in shared))
    return (best[1], best[2]) if best else None


def impossible_ids(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Something written as an arXiv ID that cannot exist (month 00 or 13+, the wrong number of digits):
    never a paper; flagged with where it is written and, as the likely ones, the day's known IDs it could
    be a slip of — one that starts the same way (a digit dropped or added at the end), or one a single
    digit or two neighbouring digits swapped away (``2614.00123`` for 2610.00123) — the paper with the
    item's name first."""
    out = []
    known = {i: c.title for c in cands for i in c.arxiv_ids if i in facts.known_ids}
    for c in cands:
        name = title_name(c.title) or (c.title.split("：")[0].split(":")[0].strip() if c.title else "")
        for written, why, where in c.bad_ids:
            digits = written.split(".")[0] + "." + written.split(".")[1][:4]
            slips = (i for i in sorted(known) if i != written and (i.startswith(digits) or _one_slip(i, written)))
            likely = sorted(slips, key=lambda i: not (name and known[i].casefold().startswith(name.casefold())))
            out.append(Flag("impossible-id", written, {"id": written, "why": why, "cited_in": where,
                                                      "title": c.title, "likely": likely[:3]}))
    return out


def _one_slip(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` (same length) differ by one character, or by two neighbours swapped."""
    if len(a) != len(b):
        return False
    diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                              and a[diff[1]] == b[diff[0]])


RULES: dict[str, Callable[[list[Candidate], Facts], list[Flag]]] = {
    "unsourced-claim": unsourced_claims, "boundary": boundaries, "id-conflict": id_conflicts,
    "number-conflict": number_conflicts, "unresolved-id": unresolved_ids, "date-inconsistency": date_inconsistencies,
    "impossible-id": impossible_ids,
}


# What each rule looks at. Rules about what the team wrote (an ID that cannot exist, or is dated
# after the note citing it) see every item of the window, relevant to the topic or not: the team's
# notes must be right. Figures that disagree matter for every relevant item, confirmations too.
# The other rules judge what the briefing puts forward.
RULE_SCOPE = {"date-inconsistency": "window", "impossible-id": "window", "number-conflict": "relevant",
              "boundary": "shown"}


def run_rules(checked: list[Candidate], facts: Facts, window: list[Candidate] | None = None,
              shown: list[Candidate] | None = None) -> list[Flag]:
    """Every rule, in the briefing's order: over ``checked`` (what the briefing puts forward), the
    window's relevant items, every item of the ``window``, or the increments ``shown`` in §2
    (``RULE_SCOPE``; ``checked`` when not given). Their labels are their stored ids, given when they are
    stored (``pipeline.brief.flags.sync_flags``)."""
    window = window if window is not None else checked
    scopes = {"window": window, "relevant": [c for c in window if c.relevance != "none"] or checked,
              "shown": shown if shown is not None else checked}
    flags: list[Flag] = []
    for name in RULE_ORDER:
        cands = scopes.get(RULE_SCOPE.get(name, ""), checked)
        found = {f.fingerprint: f for f in RULES[name](cands, facts)}
        flags += [found[k] for k in sorted(found)]
    return flags
