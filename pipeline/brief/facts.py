"""Gather what the verification rules and the briefing need from the store, once per briefing.

Everything here is bounded by the day's candidates or the workspace (mentions, anchors,
cards): nothing reads a whole backfilled table.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kb.arxiv_id import find_impossible_ids
from kb.names import title_name
from kb.store import Store
from kb.store.anchors import (
    AnchorView,
    anchored_between,
    anchored_subject_count,
    current_doc_version,
    section_titles,
)
from kb.store.briefings import net_new_history
from kb.store.cards import card_mismatches, mentions_as_of, queue
from kb.store.papers import existing_ids, paper_texts, paper_titles, texts_before, unknown_to_arxiv
from kb.store.tags import StoredResult, stored_results
from kb.text import strip_anchor_syntax
from pipeline.brief.claim_words import ClaimWords, SaidOf
from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.collect import QUEUE_PATH
from pipeline.brief.conditions import ConditionWords
from pipeline.brief.doc_lines import new_lines
from pipeline.brief.likeness import AnchoredNames, Names, OverlapWords
from pipeline.brief.model import Window
from pipeline.brief.words import WordCounts, count_words


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
    word_counts: WordCounts = field(default_factory=lambda: WordCounts([]))   # texts holding each word (stemmed)
    texts_counted: int = 0       # the doc's anchors and the day's relevant items the counts were taken over
    # The texts a word's rarity is counted over, read the first time a boundary needs it (``word_rarity``): a
    # night whose shown papers share no topic with their sections' anchors reads none of them.
    rarity_texts: Callable[[], list[str]] | None = None
    section_topics: dict[str, set[str]] = field(default_factory=dict)  # section → topics that map to it
    speedup_texts: list[tuple[str, str]] = field(default_factory=list)  # (where, text): the doc's own figures
    # (arXiv ID, where, the paper's name, its abstract) of each known paper the window cites by ID and whose title
    # coins a name: a note copying a paper's figure ("ShardLoad … 上线快 4.7×", the abstract's 4.1x) is compared with it
    cited_abstracts: list[tuple[str, str, str, str]] = field(default_factory=list)
    # arXiv ID → its abstract before a version of the window replaced it: a note quoting v1's figure against v2's
    # abstract quotes an earlier version, not wrongly
    earlier_abstracts: dict[str, str] = field(default_factory=dict)
    # arXiv ID → (where, its anchor line's label): what the doc says of each paper it anchors, figures and all
    anchor_lines: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    quantities: dict[str, str] = field(default_factory=dict)   # keyword → the quantity it names (briefing.toml)
    said_of: SaidOf = field(default_factory=SaidOf)            # the words before a quantity a value is said of
    claim_words: ClaimWords = field(default_factory=ClaimWords)   # which numbers are compared ([claim_words])
    anchored_names: Names = field(default_factory=lambda: AnchoredNames(()))   # the doc's papers by name and ID
    doc_path: str = ""           # the knowledge doc's file in the workspace (where an anchor is written)
    # (as written, why, where, the line's title): something written like an arXiv ID on the work queue that
    # cannot be one ("https://huggingface.co/papers/2600.18472 LenBait: …"); no queue line is an item. Where is
    # the queue's file, its line found by its title: the queue is rewritten daily, and a rank in the evidence
    # would reopen a dismissed flag each time the line moved
    queue_bad_ids: list[tuple[str, str, str, str]] = field(default_factory=list)
    # each of those IDs → the stored papers it could be a slip of (ID → title; ``near_stored_ids``)
    queue_near: dict[str, dict[str, str]] = field(default_factory=dict)
    # the same of each bare number a digit short of an ID that the team's notes and cards write ("2610.1635")
    short_near: dict[str, dict[str, str]] = field(default_factory=dict)
    overlap_words: OverlapWords = field(default_factory=OverlapWords)   # "和 X 是同一件事" ([overlap_words])
    quoting: list[str] = field(default_factory=list)   # a source says it copies the paper's figures ("从摘要抄的")
    other_setup: list[str] = field(default_factory=list)   # a line says it measured otherwise ("卡和 batch 都不一样")
    announced: list[str] = field(default_factory=list)   # a paper still to come ("还没放出来", "will be posted")
    hearsay: list[str] = field(default_factory=list)     # someone else's word passed on ("群里有人说", "I heard")
    measured_by_us: list[str] = field(default_factory=list)   # the author's own run ("我用 curl 脚本", "we measured")
    conditions: ConditionWords = field(default_factory=ConditionWords)   # what a figure is measured on ("H100")
    # ``read_claims`` answering from the claims kept between nights (``kept_claims.KeptClaims.wrap``), when set
    kept_claims: Callable[[str, str], list[Claim]] | None = None
    # the window's papers kept as rows, not items (``pool.Listed``): ID → title, for the likely IDs of a slip
    listed: dict[str, str] = field(default_factory=dict)
    # a paper no item of the day is, written by name beside another known paper's ID: its ID → {that ID: (that
    # paper's title, where)} (``pool.Pool.miscited_elsewhere``)
    miscited_elsewhere: dict[str, dict[str, tuple[str, list[str]]]] = field(default_factory=dict)

    def read_claims(self, text: str, where: str, about: str | None = None) -> list[Claim]:
        """The claims written in ``text`` (from ``where``), read with the words of data/briefing.toml; ``about``:
        the system the text is about (a paper's name, for its abstract), each unnamed value's subject."""
        return claims_in(text, where, self.quantities, self.said_of, self.claim_words, about=about)


    def word_rarity(self) -> tuple[WordCounts, int]:
        """``(word_counts, texts_counted)``, counted over ``rarity_texts`` the first time they are asked for."""
        if self.rarity_texts is not None:
            self.word_counts, self.texts_counted = count_words(self.rarity_texts())
            self.rarity_texts = None
        return self.word_counts, self.texts_counted


DOC_PLACE = "knowledge doc"   # how a figure's place names the doc's own line: "knowledge doc §1.(1)"


def stored_classifications(store: Store, model_hash: str, papers: set[str], entries: set[str], *,
                           doc: str) -> dict[str, StoredResult]:
    """The classify stage's results for these papers (by ID) and note entries (``entry:path#N``), as
    ``doc``'s model judged them."""
    out: dict[str, StoredResult] = dict(stored_results(store, model_hash, "paper", papers, doc=doc))
    out |= {f"entry:{k}": v for k, v in stored_results(store, model_hash, "entry", entries, doc=doc).items()}
    return out


def gather_facts(store: Store, topic: str, taxonomy: Any, until: str, cited: set[str],
                 quantities: dict[str, str] | None = None, *, anchored: list[AnchorView],
                 since: str | None = None, said_of: SaidOf | None = None,
                 claim_words: ClaimWords | None = None, short: set[str] = frozenset()) -> Facts:
    """Which cited IDs the store knows, mentions per ID and card mismatches (up to ``until``: a later day
    never leaks into an earlier briefing; the mismatches of cards written after ``since``), the sections
    each topic maps to, the doc's own figures (from ``anchored``: the doc's anchors on ``until``,
    ``current_anchors``), and the stored papers each of ``short`` (numbers a digit short of an ID, written bare
    by the team) could be."""
    f = Facts(quantities=dict(quantities or {}), said_of=said_of or SaidOf(),
              claim_words=claim_words or ClaimWords())
    f.mentions = mentions_as_of(store, until)
    f.known_ids = existing_ids(store, cited | set(f.mentions))
    f.unknown_to_arxiv = unknown_to_arxiv(store)
    # a card's mismatch is an item of the window it was written in; one written earlier stays in `kb audit`
    # and its flag stays open (carried) until the team closes it, without being raised again every day
    f.card_mismatches = card_mismatches(store, until, since)
    f.queue_bad_ids = [(written, why, QUEUE_PATH, q.title) for q in queue(store, until)
                       for written, why in find_impossible_ids(" ".join(x for x in (q.url, q.title) if x))]
    f.queue_near = near_stored_ids(store, {written for written, *_ in f.queue_bad_ids})
    f.short_near = near_stored_ids(store, short)
    f.cited_abstracts = cited_abstracts(store, f.known_ids & cited, until)
    if since:
        f.earlier_abstracts = {i: t["abstract"] for i, t in texts_before(store, f.known_ids & cited, since[:10],
                                                                         until).items() if t.get("abstract")}
    titles = section_titles(store, topic, until)
    for t in taxonomy.topics:
        sec = taxonomy.section_for(t, titles)
        if sec:
            f.section_topics.setdefault(sec.lstrip("§"), set()).add(t)
    doc = current_doc_version(store, topic, until)
    if doc:   # the doc's places carry no version: the team bumps it with every edit, and a flag it closed on the
        # doc's figures would reopen with each (the evidence is the flag's identity)
        f.speedup_texts.append((DOC_PLACE, "\n".join(a.label for a in anchored)))
        for a in anchored:
            if a.arxiv_id and a.label:
                f.anchor_lines.setdefault(a.arxiv_id, []).append((f"{DOC_PLACE} §{a.section}", a.label))
    return f


def add_anchored_topics(f: Facts, anchors: list[AnchorView], sections: set[str], taxonomy: Any, classify: Any,
                        stored: dict[str, StoredResult]) -> None:
    """What the items anchored in ``sections`` are about (topics, matched terms): the briefing needs it
    only for the sections of the increments it shows, so only those are classified. What the doc says each
    anchored item is (``anchor_text``) is kept for every anchor: a word's rarity is counted over the doc."""
    for a in anchors:
        f.anchored_texts.setdefault(a.subject, anchor_text(a))
    for a in anchors:
        if a.section not in sections or a.section in f.anchored_topics and any(
                s == a.subject for s, *_ in f.anchored_topics[a.section]):
            continue
        result = stored.get(a.arxiv_id or "")
        if result is None:
            text = " ".join(x for x in (a.title, a.abstract) if x) or a.label
            result = classify(text, title=a.title or "", taxonomy=taxonomy)
        f.anchored_topics.setdefault(a.section, []).append(
            (a.subject, a.title or a.label, {t.topic for t in result.tags},
             {term for t in result.tags for term in t.terms}))


def cited_abstracts(store: Store, ids: set[str], day: str) -> list[tuple[str, str, str, str]]:
    """``(arXiv ID, its arXiv address, the paper's name, its abstract)`` of each of ``ids`` whose title coins a name,
    as the paper read on ``day`` (``texts_before``: a past day rebuilt after a v2 compares the abstract of that
    night)."""
    texts, before = paper_texts(store, ids), texts_before(store, ids, day)
    out = []
    for arxiv_id in sorted(texts):
        t, old = texts[arxiv_id], before.get(arxiv_id, {})
        name, abstract = title_name(old.get("title", t.title)), old.get("abstract", t.abstract)
        if name and abstract:
            out.append((arxiv_id, f"https://arxiv.org/abs/{arxiv_id}", name, abstract))
    return out


def anchor_text(a: AnchorView) -> str:
    """What an anchored item is: its paper's title when the store has it and the team's words for it on
    its line (without the ID, URL and date that anchor it). Not its abstract: an abstract's words on
    batch sizes and acceptance rates are shared by most papers of a field, a title and a label name what
    the paper does."""
    return "\n".join(x for x in dict.fromkeys((a.title, strip_anchor_syntax(a.label))) if x)


STRONG_TERM = 1.0   # the taxonomy's "supporting" weight: below it a term is only a hint


class SectionTerms:
    """The taxonomy terms that describe a doc's sections and an item's title, to tell which of a topic's
    sections an item joins (``placing.nearest_section``).

    A section is its heading and its own anchored items (each item's title, abstract and the team's
    label), read with the briefing's classifier. Every topic's terms count, tagged or not, since a short
    label rarely reaches a tag; a topic's ``strong`` terms are those of weight 1 or more, since the
    taxonomy's weaker words ("kv", "cache") need company and say nothing about a section on their own.
    Computed when first asked.
    """

    def __init__(self, anchors: list[AnchorView], titles: dict[str, str], taxonomy: Any, classify: Any) -> None:
        self._classify, self._taxonomy = classify, taxonomy
        self._titles: dict[str, list[str]] = {}
        for number, title in titles.items():
            self._titles.setdefault(number.lstrip("§"), []).append(title)
        self._anchors: dict[str, list[AnchorView]] = {}
        for a in anchors:
            self._anchors.setdefault(a.section, []).append(a)
        self._cache: dict[str, frozenset[str]] = {}

    def section(self, number: str) -> frozenset[str]:
        """The terms of section ``number`` (as written, without §)."""
        if number not in self._cache:
            self._cache[number] = frozenset().union(*(self._terms(t, x) for t, x in self._texts(number)))
        return self._cache[number]

    def _texts(self, number: str) -> list[tuple[str, str]]:
        """(title, text) of the section's heading and of each item anchored in it."""
        out = [(title, "") for title in self._titles.get(number, [])]
        for a in self._anchors.get(number, []):
            label = strip_anchor_syntax(a.label)
            out.append((a.title or label, " ".join(x for x in (label, a.abstract) if x)))
        return out

    def title(self, title: str) -> frozenset[str]:
        """The terms of an item's title: what the item is about, not the details of its abstract."""
        return self._terms(title, "")

    def strong(self, topic: str) -> frozenset[str]:
        """The topic's terms of weight 1 or more."""
        t = self._taxonomy.topics.get(topic)
        return frozenset(term for term, w in (t.terms.items() if t else ()) if w >= STRONG_TERM)

    def _terms(self, title: str, text: str) -> frozenset[str]:
        result = self._classify(text, title=title, taxonomy=self._taxonomy)
        return frozenset(term for t in [*result.tags, *getattr(result, "below_threshold", [])] for term in t.terms)


def baseline(store: Store, topic: str, day: str, since: str | None = None) -> dict[str, Any]:
    """The knowledge doc's latest version, its date, the hand-kept 引→N and kb's own count of anchors on ``day``;
    and, when that version was first read after ``since`` (in the window), the problems its reading found that the
    version of ``since`` did not have (``standing``: how many it had; a doc the team edits daily repeated "§1.(1)
    and §1.1 differ only by parentheses" every morning, the day 17 and 19 readers' noise; `kb audit` lists all)."""
    count = anchored_subject_count(store, topic, day)
    doc = current_doc_version(store, topic, day)
    if doc is None:
        return {"path": None, "version": None, "version_date": None, "cited_hand": None, "cited_kb": count,
                "problems": []}
    read_now = doc.read_on is not None and (since is None or doc.read_on > since)
    problems = doc.problems if read_now else []
    then = current_doc_version(store, topic, since) if problems and since else None
    # the version of the window's start, if kb had read one by then (else the one on disk: today's, new to all)
    read_before = then is not None and then.read_on is not None and then.read_on <= since
    new = new_problems(problems, then.problems if read_before else [])
    return {"path": doc.path, "version": doc.version, "version_date": doc.version_date,
            "cited_hand": doc.cited_count, "cited_kb": count, "problems": new,
            **({"standing": len(problems) - len(new)} if len(new) < len(problems) else {})}


def new_problems(now: list[str], before: list[str]) -> list[str]:
    """The problems of ``now`` that ``before`` did not have, compared without their lines and reading days; one
    written once more than before (a third "§2.1 is written twice") is new."""
    seen = Counter(_without_lines(p) for p in before)
    new = []
    for p in now:
        if seen[_without_lines(p)] > 0:
            seen[_without_lines(p)] -= 1
        else:
            new.append(p)
    return new


def _without_lines(problem: str) -> str:
    """A doc problem as it stays when lines are added above it ("line 35: §1.(1) and §1.1 (line 28) …") and the doc
    is read again another day (an anchoring date "is after 2026-10-12, the day the doc was read")."""
    return re.sub(r"\bis after \d{4}-\d{2}-\d{2}", "is after", re.sub(r"\blines? \d+", "line", problem))


def doc_lines_since(store: Store, topic: str, day: str, previous: str | None
                    ) -> tuple[str | None, list[tuple[str, str]]]:
    """The doc's version on ``day`` and its lines that anchor nothing which its version on ``previous`` (the
    previous briefing's day) did not have (``doc_lines.new_lines``)."""
    now = current_doc_version(store, topic, day)
    then = current_doc_version(store, topic, previous) if previous else None
    if now is None or then is None:
        return None, []
    return now.version, new_lines(now.remarks, then.remarks)


def doc_remarks(store: Store, topic: str, day: str) -> tuple[str, list[str]]:
    """Where the doc is, as a decision in it is cited ("organized/knowledge/inference.md v341"), and its lines that
    anchor nothing as of ``day`` (its history, where the team records what it decided), [] before kb kept them."""
    now = current_doc_version(store, topic, day)
    if now is None:
        return "", []
    return " ".join(p for p in (now.path, now.version) if p), now.remarks or []


def recent_anchors(store: Store, topic: str, window: Window, previous: dict[str, Any] | None = None
                   ) -> list[dict[str, Any]]:
    """Anchors made since the day before the window opened: the continuing anchors of this round — less those the
    previous briefing already listed as continuing (a Monday's window from Friday's cut-off read Friday's anchors,
    which Friday's §4 had listed, again)."""
    listed = {a.get("arxiv_id") for a in (previous or {}).get("arxiv_ids", []) if a.get("status") == "continuing"}
    return [{"arxiv_id": a.arxiv_id, "section": a.section, "anchored_on": a.anchored_on, "label": a.label,
             "title": a.title} for a in anchored_between(store, topic, window.start[:10], window.end[:10])
            if a.arxiv_id not in listed]


def history(store: Store, topic: str, day: str) -> list[int]:
    """NET-new counts of earlier briefings, oldest first."""
    return net_new_history(store, topic, day)


def near_stored_ids(store: Store, written_ids: set[str]) -> dict[str, dict[str, str]]:
    """Of each impossible ID written (``2600.18472``), the stored papers it could be a slip of, by ID with their
    titles: one digit changed, two neighbours swapped, or a digit dropped or added at the end. From the store,
    not the day's items, so the answer does not change from one day to the next."""
    near = {w: _slips(w) for w in written_ids}
    stored = existing_ids(store, {i for ids in near.values() for i in ids})
    titles = paper_titles(store, stored)
    return {w: {i: titles.get(i, "") for i in sorted(ids & stored)} for w, ids in near.items()}


def _slips(written: str) -> set[str]:
    """Every ID ``written`` is one slip away from: a digit changed, two neighbouring digits swapped, the first
    four digits after the dot with one more or none (a superset: ``verify`` keeps those its rule accepts)."""
    out = {written[:k] + d + written[k + 1:] for k, ch in enumerate(written) if ch.isdigit() for d in "0123456789"}
    out |= {written[:k] + written[k + 1] + written[k] + written[k + 2:] for k in range(len(written) - 1)
            if "." not in written[k:k + 2]}
    prefix = written[:written.index(".") + 5]
    return (out | {prefix} | {prefix + d for d in "0123456789"}) - {written}
