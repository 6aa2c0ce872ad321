"""Which items name the same system: one subject, whatever ID, language or title form each source uses.

Papers coin names ("FlashPD: Fused Prefill-Decode Attention …"), and the team writes them in
many forms: ``FlashPD（2610.11824）``, ``HydraRoute — 2610.12077``, ``SpecMesh: …`` in the middle of
Chinese text, ``2610.12770 HydraRoute: …`` in the queue. Every place that ties a coined name to an
arXiv ID is collected; a name tied to several IDs of which at most one is known to the store is one
system written with a wrong ID somewhere — its items become one candidate that carries every ID,
so the ID conflict is raised once, naming every ID and every place. Two known papers that share a
name stay apart: they are different papers. A name written beside the ID of a known paper whose title
does not carry it, when another known paper is titled with that name, is a citation of the wrong paper
(``TreeDraft（2610.08810）`` where arXiv's 2610.08810 is *TeraTune: …*): ``miscited``.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

from kb.arxiv_id import parse_arxiv_id
from kb.names import TOKEN, coined, name_key, title_name

# An arXiv ID as the team writes it beside a name ("arXiv:2610.11824", "2610.11824v2"), its digits the ``id`` group.
ID_WRITTEN = r"(?:arXiv\s*[:：. ]\s*)?(?P<id>\d{4}\.\d{4,5}(?:v\d+)?)"
# A name starting after a letter is never the one found: the match from that letter comes first (and no
# match ends in a letter). Saying so spares the engine a try from every letter of every word.
_WORD_START = r"(?<![A-Za-z])"
_PAIRS = [
    re.compile(rf"{_WORD_START}(?P<name>{TOKEN})\s*[（(]\s*{ID_WRITTEN}\s*[)）]", re.I),      # FlashPD（2610.11824）
    re.compile(rf"{_WORD_START}(?P<name>{TOKEN})\s*(?:[—–:：,，]|--)\s*{ID_WRITTEN}", re.I),   # HydraRoute: 2610.12077
    re.compile(rf"(?<![\d.]){ID_WRITTEN}\s+(?P<name>{TOKEN})\s*[:：—–]", re.I),      # 2610.12770 HydraRoute: …
]
# Every pair holds one; most texts hold none, and are done at once. (A first digit of its own gives the
# engine a character to skip to.)
_ANY_ID = re.compile(r"\d\d{3}\.\d{4}")


def word_pattern(word: str, *, start: bool = False, end: bool = False) -> str:
    """One word of data/briefing.toml's word lists as a pattern, its spaces any run of white space ("compared
    to"), that starts (``start``) and/or ends (``end``) a word where that edge is an ASCII letter or digit: "to"
    is not the start of "token", "over" not the end of "Turnover", "same as" not in "same assumption"; 降到
    needs no space."""
    def bound(edge: str, wanted: bool) -> str:
        return r"\b" if wanted and edge.isascii() and edge.isalnum() else ""
    return bound(word[:1], start) + re.escape(word).replace(r"\ ", r"\s+") + bound(word[-1:], end)


def compared_pattern(words: tuple[str, ...]) -> str:
    """The words that compare with what follows them (``[compared] words``: "vs", "than", "相比" …) as one
    pattern, longest first, each a word's start: a name after one is a baseline ("vs vLLM", "相比 SGLang"),
    here and in the claims' numbers (pipeline.brief.claims). None: a pattern that matches nothing."""
    if not words:
        return r"(?!)"
    return "(?:" + "|".join(word_pattern(w, start=True) for w in sorted(words, key=len, reverse=True)) + ")"


@lru_cache(maxsize=16)
def compared_before(words: tuple[str, ...]) -> re.Pattern[str]:
    """A compared word at the end of the text searched (up to a name): compiled once per word list, when a
    briefing first reads it, never at import."""
    return re.compile(compared_pattern(words) + r"\s*$", re.I)


def name_id_pairs(text: str | None, compared: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(name, canonical ID) for every place in ``text`` that writes a coined name beside an ID; ``compared``
    the words after which a name is a baseline's (``[compared] words`` of data/briefing.toml)."""
    out: list[tuple[str, str]] = []
    if not text or _ANY_ID.search(text) is None:
        return out
    after_compared = compared_before(compared)
    for n, rx in enumerate(_PAIRS):
        for m in rx.finditer(text):
            aid = parse_arxiv_id(m["id"])
            # "对比 SGLang，2610.12077 的 …": the ID after a compared name is the paper's, not the baseline's;
            # in parentheses ("相比 FlashPD（2610.11824）") it is the name's own
            compared_name = n == 1 and after_compared.search(text, 0, m.start("name"))
            if aid is not None and coined(m["name"]) and not compared_name:
                out.append((m["name"], aid.id))
    return out


class NameIndex:
    """Coined name → the IDs it is written with, and where; ``compared`` the words after which a name written
    beside an ID is a baseline's, not the ID's (``[compared] words``)."""

    def __init__(self, compared: tuple[str, ...] = ()) -> None:
        self.compared = compared
        self.ids: dict[str, dict[str, list[str]]] = {}
        self.spelling: dict[str, str] = {}
        self.in_text: set[str] = set()   # IDs written beside a name in a text (not a title's own name)
        self.bracketed: set[tuple[str, str]] = set()   # (folded name, ID) written "Name（ID）" in a text

    def add(self, name: str, arxiv_id: str, where: str) -> None:
        k = name_key(name)
        self.spelling.setdefault(k, name)
        places = self.ids.setdefault(k, {}).setdefault(arxiv_id, [])
        if where not in places:
            places.append(where)

    def add_text(self, text: str | None, where: str) -> None:
        pairs = name_id_pairs(text, self.compared)
        for name, aid in pairs:
            self.add(name, aid, where)
            self.in_text.add(aid)
        if pairs:   # the one form that ties the ID to the name beyond doubt ("GraphStash，2611.01963 还没看" does not)
            self.bracketed |= {(name_key(m["name"]), a.id) for m in _PAIRS[0].finditer(text)
                               if (a := parse_arxiv_id(m["id"]))}

    def add_title(self, title: str | None, arxiv_id: str | None, where: str) -> None:
        name = title_name(title)
        if name and arxiv_id:
            self.add(name, arxiv_id, where)

    def ids_to_title(self) -> set[str]:
        """The IDs whose titles matter here: every ID of a name written with several, and every ID a text
        writes beside a name (is the paper titled with it?)."""
        return {i for by_id in self.ids.values() if len(by_id) > 1 or self.in_text & by_id.keys() for i in by_id}

    def unexplained(self, titles: Mapping[str, str]) -> set[str]:
        """Names (folded) written beside a known paper's ID whose title does not carry them, with no ID
        of a paper titled with them: the store is asked which paper they name."""
        out = set()
        for k, by_id in self.ids.items():
            titled = any(name_key(title_name(titles.get(i)) or "") == k for i in by_id)
            if not titled and any(i in titles and k not in titles[i].casefold() for i in by_id):
                out.add(k)
        return out

    def written_only_with_unknown_ids(self, titles: Mapping[str, str]) -> set[str]:
        """Names (folded) written beside IDs the store has no title for, and beside no other ("QuietLane（2610.29004）",
        its ID's digits swapped): the store is asked which paper they name, whose ID the note slipped."""
        return {k for k, by_id in self.ids.items() if by_id and not any(i in titles for i in by_id)}

    def one_system_many_ids(self, known: set[str], leave_out: Iterable[str] = ()
                            ) -> Iterable[tuple[str, list[str]]]:
        """(name, IDs) of names written with several IDs, at most one of them known to the store; the IDs in
        ``leave_out`` (other papers') are not the name's."""
        other = set(leave_out)
        for k, by_id in sorted(self.ids.items()):
            ids = sorted((i for i in by_id if i not in other), key=lambda i: (i not in known, i))
            if len(ids) > 1 and sum(i in known for i in ids) <= 1:
                yield self.spelling[k], ids

    def miscited(self, titles: Mapping[str, str], named: Mapping[str, Iterable[str]] | None = None
                 ) -> Iterable[tuple[str, str, dict[str, list[str]]]]:
        """(name, the ID of the paper titled with it, {ID of another known paper: where the name is written
        beside it}) — ``titles`` are the store's titles of the known IDs, ``named`` the stored papers titled
        with each ``unexplained`` name (the day's items need not hold the named paper). Only a name exactly
        one known paper is titled with counts (``TreeDraft: …``), and only IDs whose titles do not carry the
        name at all (``TreeDraft-2: …`` or a title that says TreeDraft is a follow-up, not a wrong citation)."""
        for k, by_id in sorted(self.ids.items()):
            owners = {i for i in by_id if name_key(title_name(titles.get(i)) or "") == k}
            owners |= set((named or {}).get(k, ()))
            if len(owners) != 1:
                continue
            (own,) = owners
            wrong = {i: places for i, places in by_id.items()
                     if i != own and i in titles and k not in titles[i].casefold()}
            if wrong:
                yield self.spelling[k], own, wrong
