"""Build a day's briefing for one topic from its inputs: a ``Briefing``, whose ``as_dict()`` is the JSON
contract and everything the templates show.

``build_briefing(inputs)`` reads nothing: what it needs was loaded by
``pipeline.brief.inputs.load_inputs``. The flags it raises get their stored ids and
statuses afterwards (``pipeline.brief.flags.sync_flags``).
"""
from __future__ import annotations

import json
from collections import Counter
from datetime import date
from typing import Any

from kb.arxiv_id import find_arxiv_ids
from kb.labels import card_speaks_for
from kb.names import short_name
from kb.text import strip_anchor_syntax
from pipeline.brief.decisions import doc_decisions
from pipeline.brief.doc_lines import corrected_flags, flags_named, sourced_flags
from pipeline.brief.facts import SectionTerms, add_anchored_topics
from pipeline.brief.inputs import BriefingInputs
from pipeline.brief.judge import KnownTitles, hold_back_known_figures, judge, read_facts
from pipeline.brief.key_points import key_points
from pipeline.brief.likeness import AnchoredNames, likeness
from pipeline.brief.model import Briefing, Candidate, Flag, SourceRef, Window
from pipeline.brief.pool import one_paper_listed_twice
from pipeline.brief.ranking import RELEVANCE_ORDER, density, rank, tier
from pipeline.brief.since import since_previous
from pipeline.brief.verify import run_rules
from pipeline.brief.words import candidate_text
from pipeline.classify.sections import heading_path

OTHERS_LISTED = 15   # the Markdown lists every NET-new and engineering item, and confirmations up to this many


def _arxiv_url(arxiv_id: str | None) -> str | None:
    return f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else None


def _source_dict(s: SourceRef) -> dict[str, Any]:
    return {"kind": s.kind, "name": s.name, "path": s.path, "entry": s.entry, "url": s.url, "date": s.date,
            "credibility": s.credibility}


def _increment(c: Candidate, same_section: list[dict[str, Any]], touches: list[str], known: set[str], rules,
               questioned: set[str]) -> dict[str, Any]:
    return {
        "arxiv_id": c.arxiv_id, "resolved": c.arxiv_id in known if c.arxiv_id else None,
        # whether §3 has a flag on one of its IDs: only then does its ID line send the reader there
        "id_flagged": bool(questioned & set(c.arxiv_ids)),
        "url": c.url if not c.arxiv_id else None, "title": c.title, "category": c.category,
        "relevance": c.relevance, "topics": c.topics, "suggested_section": c.suggested_section,
        "sources": [_source_dict(s) for s in c.sources],
        "points": key_points(c, rules.section_markers, rules.routing), "why": c.why,
        "anchored_in": [f"§{s}" for s in c.anchored_in], "other_ids": [i for i in c.arxiv_ids if i != c.arxiv_id],
        "replaced": c.replaced or None,   # "v2 on today's listing": its figures may have changed
        "withdrawn": c.withdrawn,         # … its authors' withdrawal
        "facts": c.facts[:6], "markers": c.markers, "card_relevance": c.card_relevance, "score": c.score,
        "decision": c.decision,   # the team's last word on what becomes of it ("不锚，不进队"), the doc's or a note's
        # the section the anchors beside it are of: the one suggested, or where a settled item would have gone
        "relation": {"same_section": same_section, "touches": touches,
                     "section": f"§{c.section}" if c.section else None},
        # the post's own title where the team's heading names an item without a paper (an English briefing heads
        # it so: "Lathe 2.3.1: FP8 KV Cache Fixed on H20, …" for Jay's "Lathe 2.3.1：H20 上的 FP8 KV cache 修好了")
        "post_title": c.post_title if c.post_title and c.post_title != c.title and not c.arxiv_id else None,
    }


def flagged_ids(flags: list[Flag]) -> set[str]:
    """The arXiv IDs the day's flags name in their evidence (an ID conflict's, an unresolved or impossible one's …)."""
    return {a.id for f in flags for a in find_arxiv_ids(json.dumps(f.evidence, ensure_ascii=False))}


def _citable_ids(relevant: list[Candidate], continuing: list[dict[str, Any]], known: set[str],
                 questioned: set[str] = frozenset()) -> list[dict[str, Any]]:
    """§4: every NET-new paper of the day (best first), then every continuing anchor, each ID once
    (an ID anchored in two sections is one row naming both). A new paper whose ID the store does not
    know (no listing, HF or API record: SpecMesh's two IDs) says so: it is not citable yet."""
    new = sorted((c for c in relevant if c.arxiv_id and c.category == "net-new"),
                 key=lambda c: (tier(c), -c.score, c.key))
    rows = [{"arxiv_id": c.arxiv_id, "title": c.title, "section": f"§{c.section}" if c.section else None,
             "status": "new", "resolved": c.arxiv_id in known, "id_flagged": c.arxiv_id in questioned} for c in new]
    seen: dict[str, dict[str, Any]] = {}
    for a in continuing:
        row = seen.get(a["arxiv_id"])
        if row is None:
            seen[a["arxiv_id"]] = row = {"arxiv_id": a["arxiv_id"], "title": a["title"] or strip_anchor_syntax(
                a["label"]), "section": f"§{a['section']}", "status": "continuing", "anchored_on": a["anchored_on"]}
            rows.append(row)
        elif f"§{a['section']}" not in row["section"].split("、"):
            row["section"] += f"、§{a['section']}"
    return rows


def _counts(items: int, relevant: list[Candidate], shown: list[Candidate],
            arxiv_ids: list[dict[str, Any]]) -> dict[str, int]:
    """Every number the briefing prints, computed once: header, §2, §4 and §5 read them from here. ``items``: the
    window's, those kept as rows (``pool.Listed``) counted."""
    def n(items, test) -> int:
        return sum(1 for c in items if test(c))

    def fresh(c: Candidate) -> bool:
        return c.category != "confirmation"
    return {"candidates": items, "relevant": len(relevant), "shown": len(shown),
            "shown_fresh": n(shown, fresh), "shown_confirmation": n(shown, lambda c: not fresh(c)),
            "net_new": n(relevant, lambda c: c.category == "net-new"),
            "engineering": n(relevant, lambda c: c.category == "engineering"),
            "confirmation": n(relevant, lambda c: c.category == "confirmation"),
            "new_from_team": n(relevant, lambda c: fresh(c) and any(s.kind in ("entry", "card") for s in c.sources)),
            "new_ids": sum(a["status"] == "new" for a in arxiv_ids),
            "continuing_ids": sum(a["status"] == "continuing" for a in arxiv_ids)}


def _relation(c: Candidate, facts, taxonomy, topic: str, sections: dict[str, str], bounded: set[str] = frozenset()
              ) -> tuple[list[dict[str, Any]], list[str]]:
    """Anchored items of the suggested section, closest first, and the doc's sections the item touches. Those the
    team's own lines compare the item with ("和 §2.2 的 EarlyQuit 没本质区别", "Different from TwirlQ") and those a
    boundary flag of the day sets it against (``bounded``) come first, whatever they share: the reader wants the
    paper the team had in mind, or section 3 asks about, beside the item."""
    anchored = facts.anchored_topics.get(c.section or "", [])
    said = likeness(c, facts.anchored_names, facts.overlap_words)
    first = {*said.same, *said.different, *bounded}
    ranked = sorted(anchored, key=lambda a: (a[0] not in first, -len(set(c.topics) & a[2]), -len(c.terms & a[3]),
                                             a[0]))
    same = [{"subject": s, "title": strip_anchor_syntax(t)} for s, t, _, _ in ranked if s not in c.subjects][:3]
    touches = sorted({sec for t in c.topics if (sec := taxonomy.section_for(t, sections)) and sec in sections})
    return same, touches


def window_days(window: Window) -> int:
    """How many days the window spans (a Monday's, from Friday's cut-off: 3), which the density's comparison with
    one-day windows says."""
    return max(1, (date.fromisoformat(window.end[:10]) - date.fromisoformat(window.start[:10])).days)


def _follow_ups(shown: list[Candidate], rules) -> list[dict[str, Any]]:
    """What the sources themselves say to do next ("下次精读时补", "TODO") for the day's increments."""
    out = []
    for c in shown:
        for line in (line for p in c.points for line in p.lines()):
            said = line.lower()
            if any(m in said for m in rules.followup) and not any(m in said for m in rules.followup_not):
                out.append({"title": c.title, "name": short_name(c.title), "point": line,
                            "sources": [s.key for s in c.sources]})
    return out


def _sources_checked(inputs: BriefingInputs, relevant: list[Candidate]) -> list[dict[str, Any]]:
    """Every source and workspace file of the window, what it contributed, and its status."""
    out: list[dict[str, Any]] = []
    cands = inputs.candidates
    # What a source contributed is listed best first: primary before adjacent, then by score.
    relevant = sorted(relevant, key=lambda c: (RELEVANCE_ORDER[c.relevance], c.category == "confirmation",
                                               -c.score, c.key))
    by_path: dict[str, list[Candidate]] = {}
    by_source: dict[str, list[Candidate]] = {}
    for c in relevant:   # each item once under each file and source it came from, in the order above
        for path in dict.fromkeys(s.path for s in c.sources if s.path):
            by_path.setdefault(path, []).append(c)
        for name in dict.fromkeys(s.name for s in c.sources if s.kind != "entry"):
            by_source.setdefault(name, []).append(c)
    # the team's asides (no paper of any topic, a figure of theirs the first doc's briefing asks a source for)
    asides: dict[str, int] = {}
    for c in cands:
        for path in dict.fromkeys(s.path for s in c.sources if s.path) if c.aside else ():
            asides[path] = asides.get(path, 0) + 1
    for ns in inputs.notes:
        n = ns.note
        mine = by_path.get(n.path, [])
        out.append({"name": n.path, "kind": "note", "status": "ok",
                    "credibility": n.credibility or inputs.authors.get(n.author.casefold(), 3),
                    "counts": {"entries": ns.entries, "relevant": len(mine),
                               "increments": sum(c.category != "confirmation" for c in mine),
                               "asides": asides.get(n.path, 0)},
                    "contributed": [c.title for c in mine][:6]})
    cards = [c for c in cands if any(s.kind == "card" for s in c.sources)]
    if cards:
        shown = set(map(id, relevant))
        mine = [c for c in cards if id(c) in shown]
        out.append({"name": "organized/paper_cards/", "kind": "cards", "status": "ok", "credibility": None,
                    "counts": {"cards": len(cards), "primary": sum(c.card_relevance == "primary" for c in cards),
                               "relevant": len(mine),
                               "increments": sum(c.category != "confirmation" for c in mine)},
                    "contributed": [c.title for c in mine][:6]})
    if inputs.queue:
        out.append({"name": "organized/queue/work-queue.md", "kind": "queue", "status": "ok", "credibility": None,
                    "counts": {"items": len(inputs.queue), "relevant": 0, "increments": 0},
                    "contributed": [" ".join(x for x in (q.arxiv_id or q.url, q.title) if x)   # not "None …"
                                    for q in inputs.queue[:3]]})
    in_window = Counter(name for c in cands for name in {s.name for s in c.sources if s.kind != "entry"})
    in_window.update(name for row in inputs.listed.values() for name in row.sources)
    for run in inputs.runs:
        credibility = inputs.credibility.get(run["source"], run["credibility"])
        mine = by_source.get(run["source"], [])
        out.append({"name": run["source"], "kind": "source", "status": run["status"],
                    "credibility": credibility, "error": run["error"],
                    # an offline rerun reads the same recording again: not a server's 304
                    "same_recording": bool(run.get("recording")) and run["status"] == "not-modified",
                    # What the source carried, not what this store happened to lack: a rerun gives the same counts.
                    "counts": {"parsed": run["parsed"], "window": in_window[run["source"]], "relevant": len(mine),
                               "increments": sum(c.category != "confirmation" for c in mine)},
                    "contributed": [c.title for c in mine][:6]})
    return out


def build_briefing(inputs: BriefingInputs) -> Briefing:
    """Everything a briefing of ``inputs.topic`` for ``inputs.day`` says (deterministic)."""
    classify = inputs.classify
    taxonomy, rules, topic, window = inputs.taxonomy, inputs.rules, inputs.topic, inputs.window
    cands, facts = inputs.candidates, inputs.facts
    stored = {**inputs.stored, **inputs.unstored}
    section_titles = inputs.section_titles
    # Looked up for every candidate, so built once.
    known_titles = KnownTitles(inputs.paper_titles, inputs.anchored)
    sections = {s.lstrip("§"): t for s, t in section_titles.items()}
    describe = SectionTerms(inputs.anchored, section_titles, taxonomy, classify)
    facts.anchored_names, facts.overlap_words = AnchoredNames(inputs.anchored), rules.overlap_words
    facts.quoting, facts.announced, facts.hearsay = rules.quoting, rules.announced, rules.hearsay
    facts.other_setup, facts.measured_by_us = rules.other_setup, rules.measured_by_us
    facts.conditions = rules.conditions
    where, remarks = inputs.doc_remarks   # the doc's decisions, read once, by the names they decide of
    decided = doc_decisions(remarks, {line for line, _ in inputs.doc_new_lines}, rules, where)
    for c in cands:
        # a team correction of one of the item's IDs decides its relevance (kb label)
        mine = inputs.classify_for(c.label_keys)
        judge(c, classify=mine, taxonomy=taxonomy, doc=topic, anchors=inputs.anchors, briefed=inputs.briefed,
              known_ids=facts.known_ids, rules=rules, stored=stored, sections=sections,
              known_titles=known_titles, withdrawn=inputs.withdrawn, suggest=inputs.suggest, describe=describe,
              anchored_names=facts.anchored_names, one_doc=inputs.one_doc, doc_decided=decided,
              card_speaks=lambda c: card_speaks_for(bool(c.anchored_in), any(
                  i in inputs.anchored_elsewhere for i in c.arxiv_ids), inputs.main_doc))
    relevant = [c for c in cands if c.relevance != "none"]
    for c in relevant:
        hold_back_known_figures(c, rules, facts.kept_claims or facts.read_claims, facts.anchor_lines,
                                facts.anchored_names)
    for c in cands:
        if c.card_relevance and not card_speaks_for(bool(c.anchored_in), any(
                i in inputs.anchored_elsewhere for i in c.arxiv_ids), inputs.main_doc):
            c.card_relevance = None
    shown = rank(relevant, inputs.top)
    for c in shown:
        read_facts(c, rules)
    # Verify what the briefing puts forward: the shown increments, every NET-new or engineering
    # item, and anything carrying a verification marker, a figure nobody can check, or two IDs.
    checked = [c for c in relevant if c in shown or c.category != "confirmation" or c.markers or c.unsourced
               or c.same_as or c.decided_out or len(c.written_ids) > 1]
    # the team's asides (``judge.is_aside``) belong to no topic: the first doc's briefing asks for their figures'
    # sources and their marked claims' (a ⭐4 author's figure with nothing marked is taken as written)
    asked = {id(c) for c in cands if c.relevance == "none" and c.aside and (c.unsourced or c.markers)}
    for c in cands:
        c.aside = inputs.main_doc and id(c) in asked
    checked += [c for c in cands if c.aside]
    for c in checked:
        c.put_forward = True
    # Overlap with what is anchored is worth a reading for the increments the briefing puts forward.
    add_anchored_topics(facts, inputs.anchored, {c.section for c in shown if c.section}, taxonomy, classify,
                        {**inputs.anchored_stored, **stored})
    facts.section_headings = {n: heading_path(sections, n) for n in sections}
    facts.rarity_texts = lambda: [*facts.anchored_texts.values(), *(candidate_text(c) for c in relevant)]
    flags = run_rules(checked, facts, cands, shown=[c for c in checked if c in shown])
    relevant, shown = one_paper_listed_twice(relevant, shown, flags)
    net_new = sum(c.category in ("net-new", "engineering") for c in relevant)
    questioned = flagged_ids(flags)
    bounded: dict[str, set[str]] = {}   # the anchored papers each increment's boundary flags name
    for f in flags:
        if f.rule == "boundary":
            bounded.setdefault(f.evidence["new_title"], set()).add(f.evidence["anchored"])
    increments = []
    for c in shown:
        same, touches = _relation(c, facts, taxonomy, topic, section_titles, bounded.get(c.title, set()))
        increments.append(_increment(c, same, touches, facts.known_ids, rules, questioned))
    arxiv_ids = _citable_ids(relevant, inputs.continuing, inputs.facts.known_ids, questioned)
    sources = _sources_checked(inputs, relevant)
    # Every other relevant item, NET-new and engineering first (the density counts them); the Markdown (and
    # the html made from it) lists those and confirmations up to OTHERS_LISTED, the JSON all of them.
    rest = sorted((c for c in relevant if c not in shown),
                  key=lambda c: (c.category == "confirmation", tier(c), RELEVANCE_ORDER[c.relevance], -c.score, c.key))
    fresh = sum(c.category != "confirmation" for c in rest)
    others = [{"arxiv_id": c.arxiv_id, "url": _arxiv_url(c.arxiv_id) or c.url, "title": c.title,
               "category": c.category, "relevance": c.relevance, "why": c.why,
               "sources": [_source_dict(s) for s in c.sources],
               "suggested_section": c.suggested_section} for c in rest]
    # not one the day's flags question as a repeat of an anchored paper (a boundary flag): the best of the others,
    # by the tier the increments are ranked by, then score (a confirmation awaiting checks is not the day's best
    # beside a NET-new paper the team wrote about)
    questioned = {f.evidence["new_title"] for f in flags if f.rule == "boundary"}
    top_item = max((c for c in shown if c.title not in questioned), key=lambda c: (-tier(c), c.score, c.key),
                   default=None)
    # Compared with the previous briefing as the density is: its NET-new count is the history's last.
    raised = {f.fingerprint for f in flags}
    since = since_previous(inputs.previous, net_new=net_new, previous_net_new=(inputs.history or [None])[-1],
                           anchors=inputs.anchors, flags=flags, states=inputs.flag_states, sources=sources,
                           day=inputs.day, doc_named={"version": inputs.doc_version, "lines": flags_named(
                               inputs.doc_new_lines, inputs.open_flags, raised, rules.quantities)},
                           corrected=corrected_flags(inputs.corrections, inputs.open_flags, raised, rules.correction,
                                                     inputs.flagged_entries, rules.quantities, rules.settled,
                                                     rules.unsettled),
                           sourced=sourced_flags(inputs.sourced, inputs.open_flags, raised, inputs.flagged_entries,
                                                 rules.quantities, rules.sourced, rules.unsourced))
    return Briefing(
        topic=topic, date=inputs.day, timezone=inputs.timezone,
        section_titles=section_titles,
        topic_titles={t: {"zh": taxonomy.topics[t].title_zh, "en": taxonomy.topics[t].title_en}
                      for t in sorted(taxonomy.topics)},
        follow_ups=_follow_ups(shown, rules),
        top_item={"title": top_item.title, "why": top_item.why} if top_item else None,
        stale_sources=inputs.troubled,
        window={"start": window.start, "end": window.end, "previous_briefing": window.previous},
        baseline=inputs.baseline,
        density=density(net_new, inputs.history, rules) | {"days": window_days(window)},
        since_previous=since,
        counts=_counts(len(cands) + len(inputs.listed), relevant, shown, arxiv_ids),
        increments=increments, others=others, others_total=len(others),
        others_listed=fresh + min(len(others) - fresh, OTHERS_LISTED),
        flags=flags,
        arxiv_ids=arxiv_ids, sources=sources,
        failing_sources=[s for s in sources if s["status"] == "failed"],
        team_files_error=inputs.workspace_error,
    )
