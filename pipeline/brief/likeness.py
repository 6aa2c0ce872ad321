"""What the team's own lines say an item is like, beside the doc's anchored papers.

"和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事", "Compared with ChunkQuant and KVQuilt in §2.5: same idea",
"so it overlaps nothing anchored in §3.1": a person who read both papers and wrote that one does what the
other does is the best evidence a boundary has, and one who wrote that it overlaps nothing the best
against. The boundary rule (``boundary.boundaries``) takes their word before its own reading of topics and
words, as a section the team asks for wins over kb's suggestion. The words are data/briefing.toml's
``[overlap_words]``.

Such a line compares the item with another paper; it does not say the item repeats what the team has, so
its "同一件事" is no recap marker (``without_comparisons``).
"""
from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Union

from kb.arxiv_id import mask_arxiv_ids
from kb.names import TOKEN, coined, common, title_name
from kb.text import strip_anchor_syntax
from pipeline.brief.entities import word_pattern

if TYPE_CHECKING:
    from kb.store.anchors import AnchorView
    from pipeline.brief.model import Candidate

# A clause: what a person says one thing of. Commas stay inside ("和 MemPilot（预测 + 预取，HBM ↔ CPU）、
# TierKV 都重叠" names both); a sentence end (not the dot of "e.g."/"E.g.", "i.e.", "vs.", "cf.", "et al."), a
# semicolon or a line break ends one.
_CLAUSE = re.compile(r"(?<=[.!?])(?<!(?i:e\.g\.))(?<!(?i:i\.e\.))(?<!vs\.)(?<!cf\.)(?<!\bal\.)\s+|[。；;！？\n]")
# A name as notes write it (a coined word, maybe hyphenated: EAGLE-2) or an arXiv ID.
_NAME_OR_ID = re.compile(r"(?<!\d)(?<!\d\.)\d{4}\.\d{4,5}(?!\d|\.\d)|" + TOKEN)
# The coined name an item is titled with when its title has no colon ("JIL Attack — …" → JIL).
LEADING_NAME = re.compile(r"\s*(" + TOKEN + ")")
GAP = "…"   # in a phrase of [overlap_words]: anything between its parts ("思路…一样")
Names = Union[Mapping[str, str], "AnchoredNames"]   # the doc's anchored papers by name (``name_key``) or ID


# A negation this close before a ``same`` phrase (or a part of one) turns it: at most ``NEGATION_REACH`` words
# or CJK characters between, and no comma or colon ("不是同一件事", "not quite the same as", "不是 HotSwapEP 的翻版";
# not "不仅 batch 更大，和 X 也是同一件事", nor "不需要预测就能做到类似的效果").
NEGATION_REACH = 2
_GAP_TOKEN = re.compile(r"[A-Za-z0-9][\w'’.-]*|[^\x00-\x7f\s]")
_GAP_STOP = re.compile(r"[,，:：]")


@dataclass(frozen=True)
class OverlapWords:
    """``[overlap_words]``, lower-cased: phrases saying an item does what a named paper does (``same``), does
    something else (``different``), or overlaps nothing anchored (``nothing``); and the words that, right
    before a ``same`` phrase, say the opposite (``negations``: "不是", "not")."""

    same: tuple[str, ...] = ()
    different: tuple[str, ...] = ()
    nothing: tuple[str, ...] = ()
    negations: tuple[str, ...] = ()
    repeat: tuple[str, ...] = ()    # the ``same`` phrases that say a repeat, not a likeness ("一回事", "same thing")
    every: tuple[str, ...] = ()     # words of every anchored paper: apart from them all is ``nothing`` ("哪一篇都")

    @functools.cached_property
    def repeats(self) -> OverlapWords:
        """These words with ``same`` only the ``repeat`` phrases: a clause they call "same" says the item repeats
        the paper it names ("和今早刚锚的 PrimeCtx 基本是一回事"), not that it is like it ("类似", "a variant of")."""
        return OverlapWords(self.repeat, self.different, self.nothing, self.negations, self.repeat, self.every)

    @functools.cached_property
    def _negation(self) -> re.Pattern[str] | None:
        words = sorted(self.negations, key=len, reverse=True)
        return re.compile("|".join(word_pattern(w, start=True, end=True) for w in words)) if words else None

    @functools.cached_property
    def _any_phrase(self) -> re.Pattern[str] | None:
        # each phrase by its longest part, which any clause holding the phrase holds: "is…rebadged" by "rebadged",
        # not by an "is" nearly every English clause holds; a phrase's space is any run of white space, as
        # ``word_pattern`` reads it
        longest = {max(p.split(GAP), key=len) for p in (*self.same, *self.different, *self.nothing)} - {""}
        return re.compile("|".join(word_pattern(p) for p in sorted(longest))) if longest else None

    def verdict(self, clause: str) -> str | None:
        """``"nothing"``, ``"different"``, ``"same"`` or None for a lower-cased clause. A negation is read
        first: "不重叠" holds "重叠"; a ``same`` phrase right after a negation word ("不是同一件事", "no overlap
        with") says ``"different"``."""
        if self._any_phrase is None or self._any_phrase.search(clause) is None:   # most clauses hold no phrase
            return None
        if any(phrase_spans(clause, p) for p in self.nothing):
            return "nothing"
        for p in self.different:
            spans = phrase_spans(clause, p)
            if spans is None:
                continue
            if any(self._negated(clause, start) for start, _ in spans):   # "没什么不一样": not apart, so no verdict
                return None
            # apart from every anchored paper: "和 §3.5 已锚的哪一篇都差着十万八千里" overlaps nothing
            return "nothing" if self._of_every(clause) else "different"
        negated = False
        for p in self.same:
            spans = phrase_spans(clause, p)
            if spans is None:
                continue
            if not any(self._negated(clause, start) for start, _ in spans):
                return "same"
            negated = True
        # "not the same as any of the anchored papers" overlaps nothing, "不是一回事" is apart
        return ("nothing" if self._of_every(clause) else "different") if negated else None

    def _of_every(self, clause: str) -> bool:
        """Does the clause speak of every anchored paper ("哪一篇都", "any of the anchored")?"""
        return any(phrase_spans(clause, p) for p in self.every)

    def _negated(self, clause: str, start: int) -> bool:
        """Whether a negation word ends close enough before ``start`` (``NEGATION_REACH``) to turn what follows."""
        if self._negation is None:
            return False
        ends = [m.end() for m in self._negation.finditer(clause, 0, start)]
        if not ends:
            return False
        gap = clause[ends[-1]:start]
        return not _GAP_STOP.search(gap) and len(_GAP_TOKEN.findall(gap)) <= NEGATION_REACH


@functools.lru_cache(maxsize=1024)
def _phrase_parts(phrase: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """``phrase``'s parts (split at ``GAP``), each with its longest run of non-space (which any text holding the
    part holds as it is: a cheap test before the pattern) and its pattern, a whole word where its edge is an
    ASCII letter or digit (``word_pattern``)."""
    return tuple((max(part.split(), key=len, default=""), re.compile(word_pattern(part, start=True, end=True)))
                 for part in phrase.split(GAP) if part)


def phrase_spans(text: str, phrase: str) -> list[tuple[int, int]] | None:
    """Where ``text`` holds ``phrase``'s parts (split at ``GAP``) in order, each as a whole word where its edge
    is an ASCII letter or digit; None when it does not."""
    parts = _phrase_parts(phrase)
    if any(run not in text for run, _ in parts):
        return None
    at, spans = 0, []
    for _, pattern in parts:
        m = pattern.search(text, at)
        if m is None:
            return None
        spans.append(m.span())
        at = m.end()
    return spans


@dataclass
class Likeness:
    """What the team wrote of one item: the anchored subjects it does the same as (in the order written) and
    where that was said, with the words (``quotes``: where, subjects, statement); those it differs from; whether it
    overlaps nothing anchored."""

    same: list[str] = field(default_factory=list)
    said_in: list[str] = field(default_factory=list)
    quotes: list[tuple[str, tuple[str, ...], str]] = field(default_factory=list, compare=False)   # words, not verdicts
    different: set[str] = field(default_factory=set)
    nothing: bool = False


def leading_name(title: str) -> str | None:
    """The coined name an item's title or anchor label starts with ("TreeDraft: …", "JIL Attack — …")."""
    shown = strip_anchor_syntax(title) or title
    m = LEADING_NAME.match(shown)
    return title_name(shown) or (m[1] if m and coined(m[1]) else None)


class AnchoredNames:
    """``anchored_names(anchors)``, read the first time a clause names something: a night whose team lines
    compare nothing never reads the doc's hundreds of labels."""

    def __init__(self, anchors: Iterable[AnchorView]) -> None:
        self._anchors, self._names = list(anchors), None
        self._phrases: dict[str, str] | None = None
        self._sections: dict[str, list[str]] = {}
        for a in self._anchors:
            self._sections.setdefault(a.subject, [])
            self._sections[a.subject] += [] if a.section in self._sections[a.subject] else [a.section]

    def get(self, key: str) -> str | None:
        """The anchored subject a name kept by ``name_key`` or an arXiv ID names, or None."""
        if self._names is None:
            self._names = anchored_names(self._anchors)
        return self._names.get(key)

    def phrases(self) -> dict[str, str]:
        """``anchored_phrases(anchors)``, read the first time a clause compares without naming a paper."""
        if self._phrases is None:
            self._phrases = anchored_phrases(self._anchors)
        return self._phrases

    def sections_of(self, subject: str) -> list[str]:
        """The sections that anchor ``subject``, in the doc's order."""
        return self._sections.get(subject, [])

    def name_of(self, subject: str) -> str | None:
        """The coined name the doc's anchor of ``subject`` gives it (its paper's title's, else its line's)."""
        return next((n for a in self._anchors if a.subject == subject and (n := _anchor_name(a))), None)


def name_key(name: str) -> str:
    """How ``anchored_names`` keeps a coined name: folded, but a name coined only by its capitals as written
    (FAST, TRACE, PRISM): written otherwise it is a plain word ("a fast path"), while "expertlane" is no word."""
    return name if name.isupper() and not any(ch.isdigit() for ch in name) else name.casefold()


def subject_named(names: Names, word: str) -> str | None:
    """The anchored subject ``word`` (a name as written, or an arXiv ID) names in ``names``, or None."""
    return names.get(word) or names.get(word.casefold())


def anchored_names(anchors: Iterable[AnchorView]) -> dict[str, str]:
    """The doc's anchored papers by what a note calls them: each one's coined name (``name_key``) of its title,
    else of its anchor line's label, and its arXiv ID, to its subject. A name two papers share names neither."""
    names: dict[str, str | None] = {}
    for a in anchors:
        if not a.arxiv_id:
            continue
        names[a.arxiv_id] = a.subject
        if name := _anchor_name(a):
            key = name_key(name) if coined(name) else name   # a plain word ("Autellix") names it as written
            names[key] = a.subject if names.get(key, a.subject) == a.subject else None
    return {k: v for k, v in names.items() if v}


# Where an anchor line's label says what the paper does: after its name and a dash ("EAGLE — feature-level
# drafting"), in parts cut at commas ("chunked prefill, stall-free batching").
_LABEL_DASH = re.compile(r"\s[—–-]{1,2}\s")
_LABEL_PARTS = re.compile(r"[,，、;；（）()]")
_LABEL_NAME = re.compile(r"\s*([A-Z][a-z]{3,})\s+[—–]\s")   # "Autellix — …": one word, then the dash


def anchored_phrases(anchors: Iterable[AnchorView]) -> dict[str, str]:
    """The doc's anchored papers by what their anchor lines say they do (folded), to their subject: a note may
    call a paper by it ("就是 Li et al.（2024）那套 feature-level drafting", EAGLE's label). Only a phrase of two
    words or more and twelve characters or more, that one paper's label holds: "KV cache" says no paper."""
    phrases: dict[str, str | None] = {}
    for a in anchors:
        text = strip_anchor_syntax(a.label) if a.label else ""
        parts = _LABEL_DASH.split(text, maxsplit=1)
        for part in _LABEL_PARTS.split(parts[1]) if len(parts) == 2 else ():
            phrase = " ".join(part.split()).casefold()
            if len(phrase) >= 12 and len(phrase.split()) >= 2:
                phrases[phrase] = a.subject if phrases.get(phrase, a.subject) == a.subject else None
    return {k: v for k, v in phrases.items() if v}


def _anchor_name(a: AnchorView) -> str | None:
    # its title's coined name (no anchor syntax to strip), its label's, or the label's word before a dash, coined or
    # not: the team's name for it ("Autellix — …"; kept as written, so that "router" is no "Router — …")
    m = LEADING_NAME.match(a.title or "")
    label = _LABEL_NAME.match(strip_anchor_syntax(a.label) or a.label) if a.label else None
    return (title_name(a.title) or (m[1] if m and coined(m[1]) else None) if a.title else None) or (
        leading_name(a.label) if a.label else None) or (label[1] if label and not common(label[1]) else None)


def clauses(text: str) -> list[str]:
    """``text`` cut where a person ends one statement (``_CLAUSE``)."""
    return [c for c in _CLAUSE.split(text) if c.strip()]


def named_in(clause: str, names: Names) -> list[str]:
    """The subjects ``clause`` names, in the order written, each once: by coined name or ID, else by what their
    anchor lines say they do (``AnchoredNames.phrases``)."""
    found = [s for m in _NAME_OR_ID.finditer(clause) if (s := subject_named(names, m[0]))]
    if not found and isinstance(names, AnchoredNames):
        folded = " ".join(clause.split()).casefold()
        found = [s for phrase, s in names.phrases().items() if phrase in folded]
    return list(dict.fromkeys(found))


def _parts(clause: str) -> list[str]:
    """``clause`` cut at its commas outside brackets ("MemPilot（预测 + 预取，HBM ↔ CPU）" stays whole)."""
    out, depth, at = [], 0, 0
    for i, ch in enumerate(clause):
        depth += (ch in "（(") - (ch in "）)")
        if depth <= 0 and (ch == "，" or ch == "," and clause[i + 1:i + 2].isspace()):
            out.append(clause[at:i])
            at = i + 1
    return [*out, clause[at:]]


def statements(clause: str, names: Names, words: OverlapWords) -> list[tuple[str, str, list[str]]]:
    """``(text, verdict, subjects named)`` of what ``clause`` says: itself, or, when its comma-joined parts say
    different things ("基本就是 LayerLink 的多网卡版，和 KVCC 的拥塞控制不冲突"), each part that says something,
    a name in a part that says nothing going with the next that does ("和 LayerLink 相比，基本就是同一件事"),
    else the last."""
    verdict = words.verdict(clause.lower())
    if verdict is None:
        return []
    parts = _parts(clause) if "，" in clause or "," in clause else [clause]
    verdicts = [words.verdict(p.lower()) for p in parts] if len(parts) > 1 else [verdict]
    if len({v for v in verdicts if v}) <= 1:
        return [(clause, verdict, named_in(clause, names))]
    out: list[tuple[str, str, list[str]]] = []
    pending: list[str] = []
    for part, said in zip(parts, verdicts):
        pending += named_in(part, names)
        if said:
            out.append((part, said, list(dict.fromkeys(pending))))
            pending = []
    if pending:
        text, said, named = out[-1]
        out[-1] = (text, said, list(dict.fromkeys(named + pending)))
    return out


def likeness(c: Candidate, names: Names, words: OverlapWords) -> Likeness:
    """What the team's note entries and cards about ``c`` say it is like (not a note that only cites it
    beside its own subject: that one speaks of another item). The team's last word counts: a later entry or
    card that says the item is not what an earlier one called it the same as ("收回早上的说法：PoolVerify 和
    VerifyBatch 不是一回事"), or that it overlaps nothing anchored, takes that back; within one source a "nothing"
    speaks of the papers it does not name ("和 X 是同一件事，和其它已锚的都不重叠")."""
    out = Likeness()
    if not (words.same or words.different or words.nothing):
        return out
    own = set(c.subjects)
    said = [(s, [(v, [n for n in named if n not in own], _sections_said(text), text)
                 for clause in clauses(without_ids(s.text, c.miscited))
                 for text, v, named in statements(clause, names, words)])
            for s in c.sources if s.kind in ("entry", "card") and not s.beside_subject and s.text]
    last: dict[str, str] = {}   # subject → its last verdict ("same" or "different"), the sources in time order
    for _, group in itertools.groupby(sorted(said, key=lambda x: _when(x[0].date)), key=lambda x: _when(x[0].date)):
        group = list(group)   # written at one time: what one says takes back nothing another says then
        earlier = [n for n, v in last.items() if v == "same"]
        now: dict[str, str] = {}
        for _, verdicts in group:
            for verdict, named, sections, _ in verdicts:
                if verdict == "nothing" and not named:
                    out.nothing = True
                    # "overlaps nothing anchored in §3.1" speaks of §3.1's papers only
                    gone = [n for n in earlier if not sections or _anchored_in(names, n) & sections]
                    now.update((n, now.get(n, "different")) for n in gone)
                for n in named:
                    now[n] = "same" if verdict == "same" or now.get(n) == "same" else "different"
        last.update(now)
    for s, verdicts in said:   # in the order written
        for verdict, named, _, text in verdicts:
            if verdict != "same":
                continue
            kept = [n for n in named if last.get(n) == "same"]
            out.same += [n for n in kept if n not in out.same]
            if kept and s.key not in out.said_in:
                out.said_in.append(s.key)
            if kept:   # the words themselves, which a boundary flag quotes (less the brackets of a masked ID)
                quote = " ".join(_EMPTY_BRACKETS.sub(" ", text.replace("**", "")).split()).strip(" -*•")
                out.quotes.append((s.key, tuple(kept), quote))
    out.different = {n for n, v in last.items() if v == "different"}
    return out


_SECTION = re.compile(r"§\s*([0-9][0-9.()]*[0-9)])")
_EMPTY_BRACKETS = re.compile(r"[（(]\s*[）)]")


def _sections_said(text: str) -> set[str]:
    """The doc's sections a statement names ("anchored in §3.1" → {"3.1"})."""
    return {m[1].rstrip(".") for m in _SECTION.finditer(text)}


def _anchored_in(names: Names, subject: str) -> set[str]:
    """The sections anchoring ``subject`` (none known: a plain mapping of names, a test's)."""
    return {x.lstrip("§") for x in names.sections_of(subject)} if isinstance(names, AnchoredNames) else set()


def _when(stamp: str | None) -> str:
    """A source's time as the window reads it: a bare date is its day's end; undated, before all."""
    if not stamp:
        return ""
    return stamp[:16] if "T" in stamp else stamp[:10] + "T23:59"


def without_ids(text: str, ids: Collection[str]) -> str:
    """``text`` less these arXiv IDs, in every form kb reads them (``mask_arxiv_ids``): another paper's ID written
    as an item's own ("ScaleShift（2610.14731）", ``Candidate.miscited``) names the item, not that paper, which its
    name still names ("和 NanoQAT 是同一件事")."""
    return mask_arxiv_ids(text, " ", only=ids) if ids else text


def without_comparisons(text: str, names: Names, own: Iterable[str], words: OverlapWords) -> str:
    """``text`` less what compares the item with the doc's anchored papers: a statement (``statements``) that
    it does what another anchored paper does, or something else, or that it overlaps nothing anchored. What
    the recap markers are read in: "和 HotSwapEP 几乎是同一件事" compares, "和已锚的都不重叠" says the item is
    new, "与条目 2 是同一件事" still repeats. Of a clause that is one statement only its parts (at commas)
    that say so or name a paper go: "和 HotSwapEP 是同一件事，只是回顾" keeps "只是回顾"."""
    if not (words.same or words.different or words.nothing):
        return text
    mine = set(own)
    for clause in clauses(text):
        for said, verdict, named in statements(clause, names, words):
            if verdict != "nothing" and not any(n not in mine for n in named):
                continue
            whole = said == clause
            parts = [p for p in _parts(said) if words.verdict(p.lower()) or named_in(p, names)] if whole else []
            for part in parts or [said]:
                text = text.replace(part, " ")
    return text
