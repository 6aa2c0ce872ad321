"""The boundary rule: a new item the briefing shows and a paper anchored in the section suggested for it
that do the same thing, named so that someone reads the two side by side (docs/briefing.md, step 5).

Three kinds of evidence, in this order (an item without a paper, a release post, or one the team's lines set apart
from an anchored paper, the first only):

1. the team's word (``likeness``): a note or card says the new item does what an anchored paper does, or
   that it overlaps nothing anchored;
2. topics and words together: the two share two topics, or one the section is not about, *and* their
   texts share ``MIN_SHARED_WORDS`` rare words (``rare_shared_words``); topics alone are the classifier's
   tags twice over, and a serving paper and a cache attack both tagged "serving systems" do different things;
3. words alone, inside the section's own topic (``mechanism_overlap``).
"""
from __future__ import annotations

from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.text import boundary_context, normalize_url
from pipeline.brief.facts import Facts
from pipeline.brief.likeness import Likeness, OverlapWords, leading_name, likeness
from pipeline.brief.model import Candidate, Flag
from pipeline.brief.words import WordCounts, candidate_text, content_words

Anchored = tuple[str, str, set[str], set[str]]   # (subject, title, topics, terms): ``Facts.anchored_topics``

# A word counts when it is rare in the topic — in at most one text in ten of the doc's anchors and the day's
# other relevant items (``count_words``, less the new item's own text, which always holds its words: else no
# word is rare below 20 texts; the day's other papers, most of them off the topic, would make every word of it
# look rare) — and not the section's own: not in its heading (or its parents'), and held by no more than a
# quarter of its anchors (one, in a section of up to seven), since what many anchors of a section share is
# what every paper of it is about. Two such words shared make an overlap: one is a coincidence as often as
# not ("tree" in two drafting papers' titles). How the constants were chosen, and on which days:
# docs/briefing.md.
RARE_WORD_SHARE = 1 / 10
SECTION_WORD_SHARE = 1 / 4
MIN_SHARED_WORDS = 2


def boundaries(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """A new item and a paper anchored in the same section whose contributions overlap enough to need a
    reading (the module's three kinds of evidence; an item without a paper, the team's word only). The team's
    named paper comes with where it was said (``said_in``); a topic overlap names the closest such paper (most
    shared topics, then terms); a mechanism overlap adds the words (``shared_words``)."""
    out = []
    for c in cands:
        if not c.section or c.anchored_in:
            continue
        # A paper shown as a confirmation (the team's line reads it as a recap: "和今早锚的 HotSwapEP 几乎一样") is
        # never anchored all the same: the team's own "it does the same as X" is a boundary to read; the weaker
        # evidence (shared topics, rare words) is for the new papers alone. So is an item without a paper (an
        # engine's release post the team calls "和 §2.1 的 SnapBoot 是同一件事"): the team's word only.
        recap = c.category == "confirmation" or not c.arxiv_id
        if recap and c.briefed_on:
            continue
        said = likeness(c, facts.anchored_names, facts.overlap_words)
        if said.nothing and not said.same:
            continue
        others = [a for a in facts.anchored_topics.get(c.section, [])
                  if a[0] not in c.subjects and a[0] not in said.different]
        words = _Words(c, others, facts)
        # the team's word only, too, where its lines set the item apart from an anchored paper or liken it to one:
        # whoever wrote "和今早刚锚的 KVDedup 不是一回事" or "borrows LayerLink's pipelining" (a paper of another
        # section) weighed it against the doc; the weaker evidence is for items nobody has. A new paper the doc
        # itself keeps out ("KernCast 不锚：…", ``Candidate.decided_out``) is a new paper all the same: its
        # confirmation says the doc settled it, not how it overlaps what is anchored.
        settled_paper = c.decided_out and bool(c.arxiv_id)
        weighed = (recap and not settled_paper) or bool(said.different) or bool(said.same)
        found = _named(said.same, others) or (None if weighed else _by_topics(c, others, facts, words)
                                               or _by_words(others, facts, words))
        if found:
            flag = _flag(c, *found, said_in=said.said_in)
            flag.context.update(_team_verdict(c, said, found[0][0], facts.overlap_words))
            out.append(flag)
    return out


def _team_verdict(c: Candidate, said: Likeness, anchored: str, words: OverlapWords) -> dict[str, Any]:
    """What the team has already said of the pair, which the flag quotes (its context, so that a note reworded
    reopens nothing): the statements of its notes and cards that the item does what ``anchored`` does
    (``team_said``: text and where), ``repeat`` when one says it repeats it (a ``[overlap_words] repeat`` phrase:
    "旧酒新瓶", not "类似"), and the doc's own decision keeping the item out (``doc_decided``: "X 不锚：和已锚的 Y
    重复"). Either leaves the reader nothing to weigh, only the flag to close, not both papers to read."""
    out: dict[str, Any] = {}
    quotes = [{"text": text, "where": where} for where, named, text in said.quotes if anchored in named]
    if quotes:
        out["team_said"] = quotes
        if any(words.repeats.verdict(q["text"].lower()) == "same" for q in quotes):
            out["repeat"] = True
    if c.decided_out and c.decision:
        out["doc_decided"] = {"text": c.decision["text"], "where": c.decision["where"]}
    return out


def _named(same: list[str], others: list[Anchored]) -> tuple[Anchored, list[str], bool] | None:
    """The first anchored paper the team says the item does the same as."""
    return next(((a, [], True) for s in same for a in others if a[0] == s and parse_arxiv_id(s)), None)


class _Words:
    """``rare_shared_words`` of one item, counted the first time a rule asks (most items share no topic)."""

    def __init__(self, c: Candidate, others: list[Anchored], facts: Facts) -> None:
        self._args, self._words = (c, others, facts), None

    def get(self) -> dict[str, dict[str, str]]:
        if self._words is None:
            self._words = rare_shared_words(*self._args)
        return self._words


def _by_topics(c: Candidate, others: list[Anchored], facts: Facts, words: _Words
               ) -> tuple[Anchored, list[str], bool] | None:
    """The anchored paper sharing two topics with ``c``, or one its section is not about, whose text also
    shares rare words with ``c``'s: most shared topics, then terms."""
    own, mine = facts.section_topics.get(c.section or "", set()), set(c.topics)
    topical = [a for a in others if (len(mine & a[2]) >= 2 or (mine & a[2]) - own) and parse_arxiv_id(a[0])]
    if not topical:
        return None
    shared = words.get()
    best = max((a for a in topical if len(shared.get(a[0], ())) >= MIN_SHARED_WORDS),
               key=lambda a: (len(mine & a[2]), len(c.terms & a[3]), a[0]), default=None)
    return (best, [], False) if best else None


def _by_words(others: list[Anchored], facts: Facts, words: _Words) -> tuple[Anchored, list[str], bool] | None:
    """The anchored paper that does what the item does by the words alone (``mechanism_overlap``)."""
    found = _most_shared(others, words.get(), facts.word_counts)
    return (found[0], found[1], False) if found else None


def _flag(c: Candidate, anchored: Anchored, words: list[str], named: bool, said_in: list[str]) -> Flag:
    subject, title, topics, terms = anchored
    # an item without a paper by its address (else its key), never its title: a heading edited or a post corrected
    # in place would make another flag, and the team's closure of this one would not follow it
    new = c.arxiv_id or (normalize_url(c.url) if c.url else c.key)
    evidence = {"new": new, "new_title": c.title, "anchored": subject, "anchored_title": title,
                "section": f"§{c.section}", "shared_topics": sorted(set(c.topics) & topics),
                "shared_terms": sorted(c.terms & terms)}
    if words:   # only a mechanism overlap has them: a topic overlap's evidence (its identity) stays as it was
        evidence["shared_words"] = words
    if named:   # the team's word: where it said so
        evidence["said_in"] = said_in
    # the context `kb flags show` derives again from the stored evidence: one definition of it
    return Flag("boundary", f"{new} ~ {subject}", evidence, context=boundary_context(evidence))


def rare_shared_words(c: Candidate, anchored: list[Anchored], facts: Facts) -> dict[str, dict[str, str]]:
    """For each paper anchored in ``c``'s section, the words its title and label share with all that is written
    about ``c`` that are rare and not the section's own (``RARE_WORD_SHARE``, ``SECTION_WORD_SHARE``): each
    stem, and how the anchored paper spells it. Names never count (an item that names the anchored paper is
    not doing what it does). ``anchored``: the section's other anchored items, papers or not."""
    counts, counted = facts.word_rarity()
    if not anchored or not counted:
        return {}
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
    enough = int(rare) + 2                       # a count that reaches this is not rare: counting stops there
    out = {}
    for a in (a for a in anchored if parse_arxiv_id(a[0]) is not None):
        shared = {w: words[a[0]][w] for w in mine.keys() & words[a[0]].keys()
                  if w not in section and held[w] <= common and counts.get(w, 0, limit=enough) - 1 <= rare}
        if shared:
            out[a[0]] = shared
    return out


def mechanism_overlap(c: Candidate, anchored: list[Anchored], facts: Facts) -> tuple[Anchored, list[str]] | None:
    """The paper anchored in ``c``'s section that does what ``c`` does, and the words that say so, or None:
    the one sharing the most rare words (``rare_shared_words``; the rarer on a tie), if ``MIN_SHARED_WORDS``
    or more. What an anchored item does is its title and label (``Facts.anchored_texts``); the new item's is
    all that is written about it (``candidate_text``)."""
    return _most_shared(anchored, rare_shared_words(c, anchored, facts), facts.word_counts)


def _most_shared(anchored: list[Anchored], words: dict[str, dict[str, str]], counts: WordCounts
                 ) -> tuple[Anchored, list[str]] | None:
    """The anchored paper sharing the most of ``words`` (the rarer on a tie), if ``MIN_SHARED_WORDS`` or more."""
    best = max(words, key=lambda s: (len(words[s]), -sum(counts.get(w, 0) for w in words[s]), s), default=None)
    if best is None or len(words[best]) < MIN_SHARED_WORDS:
        return None
    # the evidence is the flag's identity: the anchored paper's own spelling, in alphabetical order, not the
    # new item's first (a later post can come first) nor the rarest first (the day's counts)
    return next(a for a in anchored if a[0] == best), sorted(words[best].values())
