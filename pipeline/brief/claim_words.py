"""The words of data/briefing.toml that read claims (``[said_of]``, ``[claim_words]``, ``[compared]``, the
``[quantities]`` keywords), compiled once into the patterns ``claims.claims_in`` reads a text with."""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from pipeline.brief.entities import compared_before, compared_pattern, word_pattern

__all__ = ["SaidOf", "ClaimWords", "Keywords", "keywords_of", "NAME", "RELEASED"]

NAME = r"[A-Za-z][A-Za-z0-9]*(?:[-+.][A-Za-z0-9]+)*"     # a system's coined name as a claim's subject writes it
# … perhaps with the release it speaks of ("Lathe 2.4.3", "vLLM v0.6.2"): one release's figure is not another's
RELEASED = NAME + r"(?:\s+[vV]?\d+(?:\.\d+)+)?"
# After a [compared] word, a named baseline ("vs vLLM: 2.1×"): the value over it (``_baseline``); the words of a
# baseline's own value ("from 1.9 s", "over 2.1×") are [claim_words] baseline's.
_NAMED_BASELINE = r"(?:\s*" + RELEASED + r"\s*[:：,，]?)?"
# The arrows of a change, written between the value it starts from and the one it goes to ("1.9 s → 0.8 s");
# its words ("300 ms 降到 200 ms", "1.9 s to 0.8 s") are [claim_words] changed_to's (``_changed_to``).
_ARROWS = r"→|->|=>|⇒"


@dataclass(frozen=True)
class SaidOf:
    """The words between a value and the quantity it is said of, named after it (``[said_of]`` in
    data/briefing.toml): a connector, then at most one article ("adds 6% to TTFT", "4% to the time per output
    token"). None: a quantity after its value is read only when written right after it ("1.53x slowdown"), or
    after one of the ``comparatives`` ("1.24x more tokens per joule", "31% lower p99 latency")."""

    connectors: tuple[str, ...] = ()
    articles: tuple[str, ...] = ()
    comparatives: tuple[str, ...] = ()


@dataclass(frozen=True)
class ClaimWords:
    """The words ``[claim_words]`` in data/briefing.toml gives, lower-cased: ``not_names``, capitalised words
    before a number that name no system ("About 2.1×", "Peak 46 GB/s"); ``baseline``, the words before a
    baseline's value ("from 1.9 s", "over 2.1×", "从 1.9 s"); ``changed_to``, the words between the value a
    change starts from and the one it goes to ("1.9 s to 0.8 s", "300 ms 降到 200 ms"); ``compared``, the words
    (``[compared]``) after which a name is a baseline ("vs vLLM: 2.1×", "相比 vLLM 吞吐 2.1×"). None of them:
    every capitalised word may name a system and only a value in brackets or before an arrow is left out."""

    not_names: frozenset[str] = frozenset()
    baseline: tuple[str, ...] = ()
    changed_to: tuple[str, ...] = ()
    compared: tuple[str, ...] = ()
    beside: tuple[tuple[str, str], ...] = ()          # (word, quantity): read only right beside a value ("快 1.6×")
    units: tuple[tuple[str, tuple[str, ...]], ...] = ()   # (quantity, the units it is measured in)
    reporting: tuple[str, ...] = ()      # verbs whose subject's figure follows ("HydraRoute lowered p99 TTFT by 21%")
    by: tuple[str, ...] = ()             # between the quantity and its value after such a verb
    not_subject_after: tuple[str, ...] = ()   # before a name that is not the verb's subject ("into vLLM reduces")
    approximately: tuple[str, ...] = ()  # between such a verb and its value ("Lathe 2.4.3 adds about 3% to p99 TTFT")
    paper_words: tuple[str, ...] = ()    # what a name owns that speaks for it ("PaceSpec's paper says 2.2x")
    other_measures: tuple[str, ...] = ()  # measures no quantity compares ("energy", "accuracy"): their figures are none
    misquoted: tuple[str, ...] = ()       # before a figure the author says was written wrong ("昨天写成 … 0.9 s")


_NEVER = re.compile(r"(?!)")


@dataclass(frozen=True)
class Keywords:
    """The ``[quantities]`` keywords, lower-cased once: ``(keyword, quantity)`` in the file's order, the
    same longest first, and the set of them; ``[said_of]``'s words as the two patterns that read them."""

    pairs: tuple[tuple[str, str], ...]
    longest_first: tuple[str, ...]
    words: frozenset[str]
    said_of: re.Pattern[str] | None = None           # after a value, before the quantity it is said of
    said_of_earlier: re.Pattern[str] | None = None   # after an earlier figure, right before a keyword
    comparative: re.Pattern[str] = _NEVER            # "more", "lower": between a value and its quantity
    article: re.Pattern[str] = _NEVER                # "the", at the start of the text after a value ("2.3x the …")
    not_names: frozenset[str] = frozenset()          # [claim_words] not_names
    baseline: re.Pattern[str] = _NEVER               # before a baseline's value, at the end of the text before it
    changed_to: re.Pattern[str] = _NEVER             # after the value a change starts from, at the start of the rest
    compared_before: re.Pattern[str] = _NEVER        # a [compared] word at the end of the text before a name
    beside_before: re.Pattern[str] = _NEVER          # a [quantities_beside] word right before a value
    beside_after: re.Pattern[str] = _NEVER           # … or just after it ("120 ms 内恢复")
    beside: tuple[tuple[str, str], ...] = ()
    units: tuple[tuple[str, tuple[str, ...]], ...] = ()
    name_verb: re.Pattern[str] = _NEVER              # "NAME [(…)] VERB [pNN]" at the end of the text before a keyword
    verb_value: re.Pattern[str] = _NEVER             # "NAME [(…)] VERB [about]" at the end of the text before a value
    by: frozenset[str] = frozenset()
    not_subject_after: re.Pattern[str] = _NEVER      # a word before a name that is no verb's subject ("into vLLM")
    other_each: re.Pattern[str] = _NEVER             # a [claim_words] other_measures word (group ``w``)
    other_after: re.Pattern[str] = _NEVER            # … or one right after a value, maybe after a comparative
    misquoted: re.Pattern[str] = _NEVER              # a [claim_words] misquoted word, anywhere before a value


def _one_of(words: Iterable[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _baseline(words: ClaimWords) -> re.Pattern[str]:
    """A baseline's value: a [claim_words] baseline word, or a [compared] word and maybe a name, right before it."""
    said = [word_pattern(w, start=True) for w in words.baseline]
    return re.compile(r"(?:" + "|".join([*said, compared_pattern(words.compared) + _NAMED_BASELINE]) + r")\s*$",
                      re.I)


def _changed_to(words: ClaimWords) -> re.Pattern[str]:
    """The value a change starts from: an arrow or a [claim_words] changed_to word, then the value it goes to
    (not "→ §3.3", nor "46.1 GB/s to each GPU")."""
    said = [word_pattern(w, end=True) for w in words.changed_to]
    return re.compile(r"^\s*(?:" + "|".join([_ARROWS, *said]) + r")\s*~?\d", re.I)


def _said_of_words(said_of: SaidOf) -> str | None:
    """``[said_of]``'s words as a pattern: a connector, then maybe an article, each followed by a space."""
    if not said_of.connectors:
        return None
    article = rf"(?:(?:{_one_of(said_of.articles)})\s+)?" if said_of.articles else ""
    return rf"(?:{_one_of(said_of.connectors)})\s+{article}"


def _article(words: tuple[str, ...]) -> re.Pattern[str]:
    """``[said_of]`` articles at the start of the text after a value ("2.3x the decode throughput")."""
    return re.compile(rf"^\s*(?:{_one_of(words)})\s+", re.I) if words else _NEVER


def _comparative(words: tuple[str, ...]) -> re.Pattern[str]:
    """``[said_of]`` comparatives at the start of the text after a value ("more", "lower")."""
    return re.compile(rf"^\s*(?:{_one_of(words)})\b", re.I) if words else _NEVER


@lru_cache(maxsize=16)
def keywords_of(items: tuple[tuple[str, str], ...], said_of: SaidOf = SaidOf(),
              claim_words: ClaimWords = ClaimWords()) -> Keywords:
    pairs = tuple((w.lower(), q) for w, q in items)
    words = _said_of_words(said_of)
    return Keywords(pairs, tuple(sorted((w for w, _ in pairs), key=len, reverse=True)),
                     frozenset(w for w, _ in pairs),
                     re.compile(rf"^\s*{words}", re.I) if words else None,
                     re.compile(rf"\d\S*\s*{words}$", re.I) if words else None,
                     _comparative(said_of.comparatives), _article(said_of.articles),
                     claim_words.not_names, _baseline(claim_words), _changed_to(claim_words),
                     compared_before(claim_words.compared), *_beside(claim_words.beside),
                     claim_words.beside, claim_words.units, _name_verb(claim_words.reporting),
                     _verb_value(claim_words), frozenset(claim_words.by),
                     _word_at_end(claim_words.not_subject_after), *_other_measures(claim_words.other_measures,
                                                                                   said_of.comparatives),
                     misquoted=_misquoted(claim_words.misquoted))


def _misquoted(words: tuple[str, ...]) -> re.Pattern[str]:
    """A [claim_words] misquoted word, as a whole word where its edge is an ASCII letter ("写成", "wrongly")."""
    return re.compile("|".join(word_pattern(w, start=True, end=True) for w in words), re.I) if words else _NEVER


# A name, perhaps with its release, then perhaps a bracket ("HydraRoute (2610.12077)"), as a verb's subject
_NAME_THEN = r"(?<![A-Za-z0-9.+-])(?P<name>" + RELEASED + r")(?:\s*[(（][^()（）]{1,40}[)）])?"


def _name_verb(verbs: tuple[str, ...]) -> re.Pattern[str]:
    """"NAME [(…)] VERB [pNN]" ending where a quantity's keyword starts, the name the clause's subject and the verb
    one of ``[claim_words] reporting`` ("HydraRoute (2610.12077) reports p99" + "TTFT −35%")."""
    if not verbs:
        return _NEVER
    return re.compile(_NAME_THEN + rf"\s+(?:{_one_of(verbs)})(?:\s+p\d\d)?\s*$", re.I)


def _verb_value(words: ClaimWords) -> re.Pattern[str]:
    """"NAME [(…)] ['s] [PAPER] VERB [by|about]" ending where a value starts, the name the verb's subject and the
    value said of a quantity after it ("Lathe 2.4.3 adds about 3% to p99 TTFT"); ``own`` the paper word, when written
    ("PaceSpec's paper says 2.2x", "the PredRoute paper reports 24%": ``[claim_words] paper_words``)."""
    if not words.reporting:
        return _NEVER
    between = rf"(?:\s+(?:{_one_of(words.by + words.approximately)}))?" if words.by or words.approximately else ""
    own = rf"(?:(?:['’]s)?\s+(?P<own>{_one_of(words.paper_words)}))?" if words.paper_words else ""
    return re.compile(_NAME_THEN + own + rf"\s+(?:{_one_of(words.reporting)}){between}\s*$", re.I)



def _other_measures(words: tuple[str, ...], comparatives: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``[claim_words] other_measures`` as the two patterns that read them: each one written (whole words), and
    one starting the text after a value, maybe after a comparative ("2890x energy reduction", "1.6x higher
    accuracy")."""
    if not words:
        return _NEVER, _NEVER
    said = "|".join(word_pattern(w, start=True, end=True) for w in sorted(words, key=len, reverse=True))
    more = rf"(?:(?:{_one_of(comparatives)})\s+)?" if comparatives else ""
    return re.compile(rf"(?P<w>{said})", re.I), re.compile(rf"^\s*{more}(?P<w>{said})", re.I)


def _word_at_end(words: tuple[str, ...]) -> re.Pattern[str]:
    """One of ``words``, a whole word, at the end of a text (spaces after it)."""
    return re.compile(rf"(?<![A-Za-z])(?:{_one_of(words)})\s*$", re.I) if words else _NEVER


def _beside(beside: tuple[tuple[str, str], ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``[quantities_beside]`` words as the two patterns that read them: at the end of the text before a value
    (a "了", "得", "只要" or "只需", spaces and a range's first figure between at most: "快 1.6×", "慢了 2.7×", "快
    2.6–2.9×", "恢复只要 420 ms") and within three characters after it."""
    if not beside:
        return _NEVER, _NEVER
    words = _one_of(w for w, _ in beside)
    # after a value, the word must end a word: "10% 慢节点", "1.5× 快照", "20% 快速路径" are other words
    return (re.compile(rf"(?P<w>{words})(?:[了得]|只要|只需)?\s*(?:\d+(?:\.\d+)?\s*[–—~-]\s*)?$", re.I),
            re.compile(rf"^.{{0,3}}?(?P<w>{words})(?![\u4e00-\u9fff])", re.I))
