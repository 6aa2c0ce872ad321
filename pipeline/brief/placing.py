"""Where an item goes in the doc: the section the team's text asks for or refuses, else kb's suggestion (the doc's
section models in learned mode, the topics' section hints in keyword mode)."""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

from kb.sections import refused_sections, section_matches, stated_sections
from pipeline.brief.model import Candidate
from pipeline.brief.rules import Rules
from pipeline.classify.classifier import classify as keyword_classify
from pipeline.classify.matcher import TermMatcher

__all__ = ["stated_section", "refused_section_numbers", "off_the_domain", "suggest_section", "hint_ranking",
           "nearest_section"]


def stated_section(c: Candidate, rules: Rules, sections: Collection[str]) -> str | None:
    """The section the team's own text asks for ("建议：§3.1"), when the doc has it: the author's choice wins over
    kb's. Only what the team wrote counts (notes, cards), never an abstract, and its last word: a card written
    after a note ("早上看走眼了 … 建议：§2.1（不放 §2.4）") speaks after the note's "→ §2.4", and a section a later
    line refuses is no longer asked (sources of one time in the briefing's reading order)."""
    team = [s for s in c.sources if s.kind in ("entry", "card")]
    refused_later: set[str] = set()
    for s in sorted(team, key=lambda s: s.date or "", reverse=True):   # a stable sort: ties keep their order
        words = (rules.section_markers, rules.section_negations, rules.section_not_words)
        for number in stated_sections(s.text, *words):
            if number in sections and number not in refused_later:
                return number
        refused_later |= set(refused_sections(s.text, *words))
    return None


def refused_section_numbers(c: Candidate, rules: Rules) -> set[str]:
    """The sections the team's text (notes, cards) says the item does not belong in."""
    return {n for s in c.sources if s.kind in ("entry", "card")
            for n in refused_sections(s.text, rules.section_markers, rules.section_negations,
                                      rules.section_not_words)}


def off_the_domain(c: Candidate, taxonomy: Any, own_field: Collection[str] = ()) -> list[str]:
    """The fields outside the doc's domain that ``c``'s own words name, when they weigh enough to say the item is
    theirs (the taxonomy's ``[off_domain]`` terms at ``off_domain_demote``: "graph attention network", "packet
    decoding"), else nothing. Such an item borrows the doc's words (attention kernels, constrained decoding) for
    another field's work: the doc has no place for it, so kb suggests none. Read with the taxonomy's own words
    whatever the classifier, so the learned one's "adjacent" is told from a keyword trap too. A text that names the
    doc's own field (``own_field``: "LLM serving") is an inference paper using another field's word ("through a
    key-value store", "a convolutional draft model"): it takes two distinct such terms to be theirs."""
    if taxonomy is None or not getattr(taxonomy, "off_domain", None):
        return []
    text = "\n".join(c.titles[1:] + c.texts)
    # most items name no other field: a matcher of those terms alone says so without compiling the whole taxonomy,
    # which a rerun otherwise builds for this question only (an item's off-domain score needs one of them)
    if not _off_domain_terms(tuple(taxonomy.off_domain)).count(f"{c.title}\n{text}"):
        return []
    found = keyword_classify(text, title=c.title, taxonomy=taxonomy)
    if found.off_domain_score < taxonomy.settings.off_domain_demote:
        return []
    terms = list(found.off_domain_terms)
    return terms if len(terms) > 1 or not _names_any(f"{c.title}\n{text}", own_field) else []


@lru_cache(maxsize=4)
def _off_domain_terms(terms: tuple[str, ...]) -> TermMatcher:
    """A matcher of the taxonomy's off-domain terms alone: it finds each wherever the whole taxonomy's would."""
    return TermMatcher(terms)


def _names_any(text: str, words: Collection[str]) -> bool:
    """Does ``text`` hold one of ``words`` (folded): an English one as a whole word ("LLM", not "llmnr")?"""
    low = text.casefold()
    return any(re.search(rf"(?<![\w-]){re.escape(w)}(?!\w)", low) if w.isascii() else w in low for w in words)


def suggest_section(c: Candidate, suggest: Any, sections: Mapping[str, str], taxonomy: Any = None,
                    describe: Any = None) -> str | None:
    """The doc's section nearest to the candidate (``suggest(title, text, sections)`` ranks them, see
    ``pipeline.classify.sections``: each section's heading and what is anchored in it), or None.
    Without ``suggest`` (the keyword classifier): the first of ``hint_ranking``."""
    if suggest is None:
        return next(hint_ranking(c.topics if taxonomy is not None else (), c.title, sections, taxonomy, describe),
                    None)
    ranked = suggest(c.title, "\n".join(c.titles[1:] + c.texts), set(sections))
    return ranked[0] if ranked else None


def hint_ranking(topics: Iterable[str], title: str, sections: Mapping[str, str], taxonomy: Any,
                 describe: Any = None) -> Iterator[str]:
    """The keyword classifier's way to place an item, best first (section numbers as written, without §): its
    topics in turn, strongest first; each topic's sections by their headings (``Taxonomy.sections_for``), the
    one ``describe`` finds nearest first. The briefing takes the first (``suggest_section``), ``kb eval
    sections --method hints`` them all; lazy, so the briefing reads no more topics than it needs."""
    numbered = {f"§{s}": t for s, t in sections.items()}
    seen: set[str] = set()
    for t in topics:
        found = [s.lstrip("§") for s in taxonomy.sections_for(t, numbered)]
        if found:
            first = nearest_section(found, title, t, describe)
            for s in (first, *found):
                if s not in seen:
                    seen.add(s)
                    yield s


def nearest_section(choices: list[str], title: str, topic: str, describe: Any = None) -> str:
    """Of a topic's sections (preferred first), the one whose heading and anchored items share the most of
    the topic's strong terms with the item's title (``describe``: ``facts.SectionTerms``). A topic may own
    several sections (KV cache: the engine's memory management, and compression and eviction), and what
    the team already put in each says which one an item joins; only the topic's own words say it (a
    framework's name or "LLM serving" is in every section). A tie, or nothing to compare, keeps the
    preferred one; so does its own subsection or parent (an item of §2.3.1's subject is §2.3's too: at
    which level to file it is the team's convention, which the preferred order carries, not content)."""
    first = choices[0]
    rivals = [s for s in choices[1:] if not (section_matches(s, first) or section_matches(first, s))]
    if not rivals or describe is None:
        return first
    terms = describe.title(title) & describe.strong(topic)
    return max([first, *rivals], key=lambda s: len(terms & describe.section(s)))   # max keeps the first of equals
