"""What one briefing is built from, read once: ``load_inputs(ctx, topic)``.

Every read is bounded by the window (its days, its candidates) or by the workspace, so a
night's briefing costs what the night brought, not what the store holds.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from kb.store import Store
from kb.store.anchors import (
    AnchorView,
    anchored_sections,
    current_anchors,
    section_headings,
    section_titles,
    sections_by_subject,
    withdrawn_anchors,
)
from kb.store.briefings import briefed_before, briefing_data
from kb.store.cards import QueueView, queue
from kb.store.flags import STALE, FlagState, flag_states, open_flags_on
from kb.store.notes import NoteView, entries_of_notes, entry_counts, notes_between
from kb.store.papers import PaperText, paper_texts, paper_titles
from kb.store.sources import runs_of_day, troubled_sources
from kb.store.tags import StoredResult, stored_relevance, stored_results
from kb.text import normalize_url, paper_title_key, title_key
from pipeline.brief.collect import cited_anchored, collect_candidates, compute_window
from pipeline.brief.facts import (
    baseline,
    doc_lines_since,
    doc_remarks,
    gather_facts,
    history,
    recent_anchors,
    stored_classifications,
)
from pipeline.brief.kept_claims import KeptClaims
from pipeline.brief.model import Candidate, Window
from pipeline.brief.pool import Listed
from pipeline.brief.rules import Rules, load_rules
from pipeline.brief.verify import Facts
from pipeline.context import RunContext


@dataclass
class NoteSource:
    """A note of the window, as the briefing's list of sources shows it."""

    note: NoteView
    entries: int


@dataclass
class BriefingInputs:
    """Everything ``build_briefing`` needs; nothing in it is read again."""

    topic: str
    day: str
    timezone: str
    top: int
    authors: dict[str, int]
    credibility: dict[str, int]             # per source, as kb.toml says today
    taxonomy: Any
    classify: Any                           # the doc's classifier: f(text, title=…, taxonomy=…) → result
    suggest: Any                            # the doc's sections nearest an item: f(title, text, sections) → numbers
    classify_for: Any                       # f(keys) → the doc's classifier for an item with those keys
    rules: Rules
    window: Window
    candidates: list[Candidate]
    listed: dict[str, Listed]               # the window's papers kept as rows, not items (``pool``'s docstring)
    stored: dict[str, StoredResult]         # the classify stage's results, by paper ID or entry:path#N
    unstored: dict[str, StoredResult]       # candidate papers the classify stage has not tagged yet, as it would
    paper_titles: dict[str, str]            # the store's title of every cited paper
    facts: Facts
    anchors: dict[str, list[str]]           # anchored subject → its sections
    anchored: list[AnchorView]              # the doc's current anchors
    withdrawn: dict[str, list[tuple[str, str | None]]]   # subject → (section, doc version) it was anchored in
                                                         # until the team withdrew it
    anchored_stored: dict[str, StoredResult]  # the classify stage's results for anchored papers
    briefed: dict[str, str]                 # key a candidate may carry → the first briefing that had it
    section_titles: dict[str, str]
    baseline: dict[str, Any]
    history: list[int]
    continuing: list[dict[str, Any]]
    notes: list[NoteSource] = field(default_factory=list)
    queue: list[QueueView] = field(default_factory=list)
    runs: list[dict[str, Any]] = field(default_factory=list)
    workspace_error: str | None = None      # why the day's read of the team's files failed, if it did
    troubled: list[dict[str, Any]] = field(default_factory=list)
    previous: dict[str, Any] | None = None  # the data of the previous briefing of the topic (window.previous)
    flag_states: dict[str, FlagState] = field(default_factory=dict)   # the topic's stored flags, by fingerprint
    doc_version: str | None = None   # the doc's version on the day, and its lines the previous briefing's had not
    doc_new_lines: list[tuple[str, str]] = field(default_factory=list)   # (line, what it adds)
    # where the doc is ("organized/knowledge/inference.md v341") and its lines that anchor nothing: its decisions
    doc_remarks: tuple[str, list[str]] = ("", [])
    corrections: list[tuple[str, str]] = field(default_factory=list)   # the team's entries with a correction word
    # the team's entries citing a page: place, heading and text, URL
    sourced: list[tuple[str, str, str]] = field(default_factory=list)
    open_flags: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)   # read when any is there
    flagged_entries: dict[str, str] = field(default_factory=dict)   # the open asides' entries, when a note may speak
    # whom a card's primary_topic speaks for: the docs that anchor its paper, or else the main doc
    main_doc: bool = True
    one_doc: bool = True   # the workspace has one knowledge doc: a note's "建议：§2.2" can mean no other
    anchored_elsewhere: set[str] = field(default_factory=set)          # subjects the workspace's other docs anchor
    judged: Any = None   # ``classify``'s judgements kept between nights (``memo.JudgedTexts``): saved after the build
    kept_claims: Any = None   # the texts' claims kept between nights (``kept_claims.KeptClaims``): saved after it


def candidate_keys(c: Candidate) -> set[str]:
    """Every key by which an earlier briefing may have put ``c`` forward."""
    keys = set(c.arxiv_ids) | {normalize_url(u) for u in c.urls}
    return keys | {k for t in c.titles for k in (title_key(t), paper_title_key(t)) if k}


def load_inputs(ctx: RunContext, topic: str, *, top: int | None = None) -> BriefingInputs:
    """Read what the briefing of ``topic`` for ``ctx.today`` is built from."""
    from pipeline.classify.engine import load_engine, load_workspace_taxonomy
    from pipeline.classify.memo import JudgedTexts
    cfg, store, day = ctx.config, ctx.store, ctx.today.isoformat()
    taxonomy = load_workspace_taxonomy(ctx)
    engine = load_engine(ctx)   # relevance is the doc's: its model, adapted to its anchors and labels
    judged = JudgedTexts(ctx.workspace.root, engine.hash, topic)   # last night's judgements of the same texts
    window = compute_window(store, topic, ctx.today, cfg.cutoff)
    credibility = ctx.sources.credibility()
    rules = load_rules(ctx.workspace.root)
    anchored = current_anchors(store, topic, day)
    collected = collect_candidates(store, window, author_credibility=cfg.authors, source_credibility=credibility,
                                   tz=cfg.tz, compared=rules.claim_words.compared,
                                   settled=settled_papers(store, engine.hash, topic, anchored))
    cands = collected.candidates
    cands += cited_anchored(cands, {a.arxiv_id for a in anchored if a.arxiv_id})
    cited = {i for c in cands for i in c.arxiv_ids}
    entries = {k for c in cands for k in c.entry_keys}
    stored = stored_classifications(store, engine.hash, cited, entries, doc=topic)
    keys = {k for c in cands for k in candidate_keys(c)}
    day_runs = runs_of_day(store, day)
    facts = gather_facts(store, topic, taxonomy, day, cited, rules.quantities, anchored=anchored,
                         since=window.start, said_of=rules.said_of, claim_words=rules.claim_words,
                         short={written for c in cands for written, *_ in c.short_ids})
    kept_claims = KeptClaims(ctx.workspace.root, rules.quantities, rules.said_of, rules.claim_words,
                             doc=topic)
    facts.kept_claims = kept_claims.wrap(facts.read_claims)
    facts.listed = {i: row.title for i, row in collected.listed.items()}
    facts.miscited_elsewhere = collected.miscited_elsewhere
    facts.known_ids |= facts.listed.keys()   # each was classified: the store has it
    facts.doc_path = next((t.doc for t in cfg.topics if t.slug == topic), "")
    doc_version, doc_new_lines = doc_lines_since(store, topic, day, window.previous)
    said = (*rules.correction, *rules.settled)   # a cheap first sieve
    corrections = list({s.key: s.text for c in cands for s in c.sources if s.kind == "entry" and s.text
                        and any(w in s.text.casefold() for w in said)}.items())
    sourced = list({s.key: (s.key, f"{c.title}\n{s.text}", s.url) for c in cands for s in c.sources
                    if s.kind == "entry" and s.text and s.url and not s.beside_subject}.values())
    open_flags = open_flags_on(store, topic, day) if doc_new_lines or corrections or sourced else []
    in_window = [n for n in notes_between(store, window.start[:10], window.end[:10]) if window.contains(n.timestamp)]
    counts = entry_counts(store, [n.path for n in in_window])
    notes = [NoteSource(n, counts.get(n.path, 0)) for n in in_window]
    previous = briefing_data(store, topic, window.previous) if window.previous else None
    return BriefingInputs(
        topic=topic, day=day, timezone=cfg.timezone, top=top or cfg.briefing_top, authors=cfg.authors,
        credibility=credibility, taxonomy=taxonomy, classify=judged.wrap(engine.for_doc(topic)),
        suggest=engine.section_suggester(section_headings(store, topic, day), anchored, topic, kept=judged),
        classify_for=lambda keys: judged.wrap(engine.for_doc(topic, keys), engine.correction(topic, keys)),
        judged=judged,
        rules=rules, window=window,
        candidates=cands, listed=collected.listed, stored=stored,
        unstored=_as_the_stage_would(engine, topic, paper_texts(store, cited - set(stored)), judged),
        paper_titles=paper_titles(store, cited, day),
        facts=facts, kept_claims=kept_claims,
        anchors=sections_by_subject(anchored), anchored=anchored,
        withdrawn=withdrawn_anchors(store, topic, day, keys),
        anchored_stored=stored_results(store, engine.hash, "paper",
                                       {a.arxiv_id for a in anchored if a.arxiv_id and a.paper_known},
                                       doc=topic),
        briefed=briefed_before(store, topic, day, keys),
        section_titles=section_titles(store, topic, day), baseline=baseline(store, topic, day, since=window.start[:10]),
        history=history(store, topic, day), continuing=recent_anchors(store, topic, window, previous),
        notes=notes, queue=queue(store, day), runs=[r for r in day_runs if r["source"] != "workspace"],
        workspace_error=next((r["error"] for r in day_runs if r["source"] == "workspace" and r["status"] == "failed"),
                             None),
        troubled=troubled_sources(store, until=day),
        previous=previous,
        doc_version=doc_version, doc_new_lines=doc_new_lines, doc_remarks=doc_remarks(store, topic, day),
        corrections=corrections, sourced=sourced,
        open_flags=open_flags, flagged_entries=_entries_of_asides(store, open_flags) if corrections or sourced else {},
        flag_states=_states_tonight(store, topic), main_doc=topic == cfg.topics[0].slug, one_doc=len(cfg.topics) == 1,
        anchored_elsewhere={k for t in cfg.topics if t.slug != topic for k in anchored_sections(store, t.slug, day)})


def settled_papers(store: Any, model_hash: str, doc: str, anchored: list[AnchorView]
                   ) -> Callable[[set[str]], set[str]]:
    """``f(ids)``: those of the window's listed papers the doc has no use for — the classify stage judged them
    ``none`` for it (with today's model) and the doc anchors none of them. ``collect_candidates`` keeps them as
    rows unless the window's writing reaches them."""
    mine = {a.arxiv_id for a in anchored if a.arxiv_id}

    def settled(ids: set[str]) -> set[str]:
        judged = stored_relevance(store, model_hash, "paper", ids - mine, doc=doc)
        return {i for i, relevance in judged.items() if relevance == "none"}
    return settled


def _as_the_stage_would(engine: Any, topic: str, papers: dict[str, PaperText], judged: Any) -> dict[str, StoredResult]:
    """Papers the classify stage has not tagged yet, classified as it would store them and as the briefing reads
    what it stored (``topic``'s judgement): the team's corrections included, so that a briefing does not depend on
    whether ``kb classify`` ran first. Kept between nights with the doc's other judgements (``judged``)."""
    if not papers:   # the nightly's case: its classify stage ran first
        return {}
    from kb.store.tags import read_back
    from pipeline.classify.memo import Judged, stage_key
    from pipeline.classify.stage import classify_papers
    order = [papers[k] for k in sorted(papers)]
    keys = [stage_key(p.title, p.abstract, p.primary_category, engine.correction(topic, [p.arxiv_id])) for p in order]

    def judge(missing: list[int]) -> list[Judged]:
        return [Judged.of(read_back(c, topic)) for c in classify_papers(engine, [order[n] for n in missing])]
    return {p.arxiv_id: StoredResult(j.relevance, list(j.tags)) for p, j in zip(order, judged.recall(keys, judge))}


def _states_tonight(store: Any, topic: str) -> dict[str, FlagState]:
    """The topic's stored flags as tonight's sync leaves those not raised again: stale where every team
    file their evidence cites is gone (``flags.evidence_gone``), so "since the previous briefing" counts
    them as closed. A flag raised again is not stale; the block counts only flags not raised again."""
    from pipeline.brief.flags import evidence_gone
    states = flag_states(store, topic)
    for _, fingerprint in evidence_gone(store, topic):
        if fingerprint in states:
            s = states[fingerprint]
            states[fingerprint] = replace(s, status=STALE)
    return states


def _entries_of_asides(store: Store, open_flags: list[tuple[int, str, dict[str, Any]]]) -> dict[str, str]:
    """The text of each note entry (``path#n``) an open unsourced claim named by its figures was raised on."""
    places = {p for _, fingerprint, evidence in open_flags if fingerprint.startswith("unsourced-claim:")
              and " · " in fingerprint for p in evidence.get("sources", []) if "#" in p}
    by_note = entries_of_notes(store, sorted({p.rsplit("#", 1)[0] for p in places}))
    return {f"{path}#{e.number}": e.text for path, entries in by_note.items() for e in entries}
