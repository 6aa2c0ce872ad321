"""Verification rules: what in the day's material needs a human to check it.

Each rule is a pure function over the judged candidates (plus a few store
lookups passed in as plain data) returning ``Flag``s with their evidence. The
briefing lists them; ``sync_flags`` stores them so that a flag closed by the team
stays closed until its evidence changes.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kb.arxiv_id import find_arxiv_ids, one_slip_apart, parse_arxiv_id
from kb.names import short_name, title_name
from kb.text import a_line_says, words_of
from pipeline.brief.boundary import boundaries
from pipeline.brief.entities import name_id_pairs
from pipeline.brief.facts import Facts
from pipeline.brief.likeness import subject_named
from pipeline.brief.model import Candidate, Flag
from pipeline.brief.numbers import number_conflicts
from pipeline.brief.unsourced import unsourced_claims

RULE_ORDER = ("unsourced-claim", "boundary", "id-conflict", "number-conflict", "unresolved-id", "date-inconsistency",
              "impossible-id")


def listed_twice(cands: list[Candidate], facts: Facts, flagged: set[str]) -> list[Flag]:
    """One full title that a paper the team wrote about and the briefing puts forward shares, under another ID the
    store knows, with a paper of the window (day 21's MuxStream, 2611.04102 and 2611.04510 in one listing: the
    authors submitted it twice). The two stay two papers (``pool.merge_same_titles``: two known papers sharing a
    coined name are two), but which ID to cite is the team's question. A title of fewer than ``_TITLE_WORDS`` words
    may be two papers' ("Attention Sinks"); a title already flagged is not flagged twice; papers the doc has no use
    for raise nothing."""
    key = words_of   # as titles are matched across sources (kb.text): case, punctuation and spacing aside
    asked = {key(c.title): c.title for c in cands if c.put_forward and c.title and set(c.arxiv_ids) & facts.known_ids
             and len(c.title.split()) >= _TITLE_WORDS and any(s.kind in ("entry", "card") for s in c.sources)}
    if not asked:
        return []
    titles = dict(facts.listed) | {i: c.title for c in cands for i in c.arxiv_ids if i in facts.known_ids and c.title}
    by_title: dict[str, list[str]] = {}
    for arxiv_id, title in titles.items():
        if (k := key(title)) in asked:
            by_title.setdefault(k, []).append(arxiv_id)
    out = []
    for k, ids in ((k, sorted(ids)) for k, ids in by_title.items() if len(ids) > 1):
        title = asked[k]
        if title not in flagged:
            out.append(Flag("id-conflict", title, {"ids": {i: facts.mentions.get(i, []) + [STORE_PLACE] for i in ids},
                                                   "resolved": ids, "twice": True}))
    return out


_TITLE_WORDS = 5


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
            out += _each_slip(c.title, evidence)
    out += anchored_name_conflicts(cands, facts)
    return out + listed_twice(cands, facts, {f.subject for f in out} | {f.subject.rsplit(" · ", 1)[0] for f in out})


def _each_slip(title: str, evidence: dict[str, Any]) -> list[Flag]:
    """The ID conflict of an item, one flag for each ID written wrong where the paper's own ID is known and two or
    more are ("2611.31074" in a note, "2612.31047" in a card's file name: two slips, each fixed in its own file,
    each its own flag, named "<title> · <ID>"); else one flag naming them all."""
    resolved, ids = evidence["resolved"], evidence["ids"]
    wrong = [i for i in ids if i not in resolved]
    if len(resolved) != 1 or len(wrong) < 2:
        return [Flag("id-conflict", title, evidence)]
    own = {resolved[0]: ids[resolved[0]]}
    return [Flag("id-conflict", f"{title} · {i}", {**evidence, "ids": {**own, i: ids[i]},
                                                   **({"titles": {i: evidence["titles"][i]}}
                                                      if i in evidence.get("titles", {}) else {})})
            for i in wrong]


def anchored_name_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """A paper the doc anchors, written in the team's lines about the day's items beside an ID the store does
    not know ("和 §10 的 PowerCap（2609.24471）是同一个思路" where §10 anchors 2609.24417 PowerCap), or beside another
    known paper's ID whose title does not carry its name (a recap's "GraphStash（2611.01963）", GraphHold's ID:
    ``Facts.miscited_elsewhere``, with arXiv's title of that ID): one system, two IDs, the doc's line among the
    places. An item carrying both IDs already has its own id-conflict (``id_conflicts``), which names them; a day's
    item written beside another paper's ID is ``miscited`` on it."""
    wrong: dict[str, dict[str, list[str]]] = {}     # anchored subject → {ID written beside its name: where}
    merged = [set(c.written_ids) for c in cands if len(c.written_ids) > 1]
    titles: dict[str, dict[str, str]] = {}          # anchored subject → {another known paper's ID: its title}
    for subject, by_id in facts.miscited_elsewhere.items():
        if not facts.anchored_names.sections_of(subject):
            continue
        for aid, (title, places) in by_id.items():
            if places and not any({subject, aid} <= ids for ids in merged):
                wrong.setdefault(subject, {})[aid] = list(places)
                titles.setdefault(subject, {})[aid] = title
    for c in cands:
        for s in (s for s in c.sources if s.kind in ("entry", "card") and s.text and not s.beside_subject):
            for name, aid in name_id_pairs(s.text, facts.claim_words.compared):
                subject = subject_named(facts.anchored_names, name)
                if subject and parse_arxiv_id(subject) and aid != subject and aid not in facts.known_ids \
                        and not any({subject, aid} <= ids for ids in merged):
                    places = wrong.setdefault(subject, {}).setdefault(aid, [])
                    places += [] if s.key in places else [s.key]
    out = []
    for subject, ids in sorted(wrong.items()):
        # the doc's own lines for it, and its name as the doc gives it: the flag's identity does not follow how
        # a note happened to spell it ("POWERCAP")
        anchors = [f"{facts.doc_path} §{sec}".strip() for sec in facts.anchored_names.sections_of(subject)]
        own = [p for p in [*anchors, *facts.mentions.get(subject, []),
                           *([STORE_PLACE] if subject in facts.known_ids else [])] if p]
        out.append(Flag("id-conflict", facts.anchored_names.name_of(subject) or subject, {
            "ids": {subject: own, **ids}, "resolved": [subject] if subject in facts.known_ids else [],
            "anchored": subject, **({"titles": titles[subject]} if subject in titles else {})}))
    return out


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
    """An ID from a month after the note entry or card citing it (a card's text as much as its front matter:
    "作者 README 里写续作已经挂了 2611.01942" on a card of 2026-10-15); a card whose file name and front matter
    disagree (its file name's later month then no second flag: one slip, day 33's card 519)."""
    out = []
    for path, file_id, fm_id in facts.card_mismatches:
        out.append(Flag("date-inconsistency", path, {"card": path, "file_name_id": file_id, "front_matter_id": fm_id}))
    # a card's file name written with a later month than its front matter is that flag's one slip, not a second one
    said = {(path, file_id) for path, file_id, _ in facts.card_mismatches}
    for c in cands:
        for s in c.sources:
            if s.kind not in ("entry", "card") or not s.date:
                continue
            note_yymm = s.date[2:4] + s.date[5:7]
            # every ID the entry cites (its parser's), or the card names: what this source wrote, not the item's
            # other IDs (day 23's CoDraft, 2611.07015 in Tom's HF link and 2612.07015 in Omer's heading: Omer's slip)
            written = [a.id for a in find_arxiv_ids(s.text)] if s.kind == "card" else []
            for i in dict.fromkeys(list(s.cites) + written):
                aid = parse_arxiv_id(i)
                if aid and not aid.is_old_style and aid.yymm > note_yymm and (s.key, i) not in said:
                    out.append(Flag("date-inconsistency", f"{i} @ {s.key}", {
                        "id": i, "id_month": aid.yymm, "cited_in": s.key, "cited_on": s.date[:10]},
                        context={"announced": True} if _announced(s.text, i, facts.announced) else {}))
    return out


def _announced(text: str | None, arxiv_id: str, words: list[str]) -> bool:
    """Does the line writing ``arxiv_id`` say the paper is still to come ("扩展版会以 2612.00688 挂出，现在还没放出来")?
    No one knows an arXiv ID before the paper is submitted: the advice is to wait for arXiv, not to fix a typo."""
    return a_line_says(text or "", arxiv_id, words)


def impossible_ids(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Something written as an arXiv ID that cannot exist (month 00 or 13+, the wrong number of digits):
    never a paper; flagged with where it is written and, as the likely ones, the known IDs it could
    be a slip of — one that starts the same way (a digit dropped or added at the end), or one a single
    digit or two neighbouring digits swapped away (``2614.00123`` for 2610.00123) — the paper with the
    item's name first. The items' notes and cards (the day's known IDs), and the work queue's lines
    (``Facts.queue_bad_ids``) whose IDs no item writes (the store's IDs near it, ``Facts.queue_near``: a queue
    line is read every day, and the day's items would change its evidence, reopening a closed flag daily)."""
    known = facts.listed | {i: c.title for c in cands for i in c.arxiv_ids if i in facts.known_ids}
    written_where = [(c.title, bad, known) for c in cands for bad in c.bad_ids]
    # an ID a day's item already writes is flagged there: the queue's line (read every day) must not take its place
    in_items = {written for _, (written, _, _), _ in written_where}
    written_where += [(title, (written, why, where), facts.queue_near.get(written, {}))
                      for written, why, where, title in facts.queue_bad_ids if written not in in_items]
    # a bare number a digit short of its month's IDs is one only when a stored paper's ID is it with a digit more
    for c in cands:
        for written, why, where in c.short_ids:
            longer = {i: t for i, t in facts.short_near.get(written, {}).items()
                      if len(i) == len(written) + 1 and i.startswith(written)}
            if longer:
                written_where.append((c.title, (written, why, where), longer))
    return [_impossible(written, why, where, title, near) for title, (written, why, where), near in written_where]


def _impossible(written: str, why: str, where: str, title: str, near: dict[str, str]) -> Flag:
    """The flag of ``written`` at ``where`` (the item or line titled ``title``), its likely IDs among ``near``
    (known ID → its title)."""
    name = title_name(title) or (title.split("：")[0].split(":")[0].strip() if title else "")
    digits = written.split(".")[0] + "." + written.split(".")[1][:4]
    slips = (i for i in sorted(near) if i != written and (i.startswith(digits) or one_slip_apart(i, written)))
    likely = sorted(slips, key=lambda i: not (name and near[i].casefold().startswith(name.casefold())))
    return Flag("impossible-id", written, {"id": written, "why": why, "cited_in": where, "title": title,
                                          "likely": likely[:3]},
                context={"likely_names": {i: short_name(near[i]) for i in likely[:3] if near[i]}} if likely else {})


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
