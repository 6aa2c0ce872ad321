"""The words of what is written about a paper that can say what it does: the ``boundary`` rule's
mechanism overlap (``boundary.mechanism_overlap``) compares them and counts how rare each is."""
from __future__ import annotations

import re

from kb.text import stem
from pipeline.brief.model import Candidate

# Words that say how a sentence runs, not what a paper does.
FUNCTION_WORDS = frozenset("""about above across after against all also among and any are based been before being
below between both but can could does doing down during each either even every for from further had has have
having here how into its itself just more most much must new non not now off once only other our out over own
per same should show shows shown since some such than that the their them then there these they this those
through thus too under until upon use used uses using very via was way ways were what when where which while
who whom why will with within without would yet""".split())
_WORD = re.compile(r"[a-z][a-z0-9]*")


def content_words(text: str, skip: set[str] = frozenset()) -> dict[str, str]:
    """The words of ``text`` that can say what a paper does, stemmed (``kb.text.stem``: "replicates" and
    "replication" are one word), each with the first spelling it was written in (lower case): Latin letters
    only, three or more, no function word, none of ``skip`` (case folded: the items' own names)."""
    out: dict[str, str] = {}
    # each distinct word once: an abstract repeats its words, and every text of the doc and the day is read
    for w in dict.fromkeys(_WORD.findall(text.lower())):
        if _says_something(w) and w not in skip:
            out.setdefault(stem(w), w)
    return out


def _says_something(word: str) -> bool:
    """A lower-case word ``content_words`` keeps: Latin letters only, three or more, no function word."""
    return len(word) >= 3 and word.isalpha() and word not in FUNCTION_WORDS


class WordCounts:
    """How many of the texts hold each content word (stemmed, as ``content_words`` gives it), counted for a
    word when it is first asked about, and only as far as asked (``limit``). A night asks about the few words a
    shown item shares with its section's anchors; tokenising every anchor of the doc and item of the day to
    count all their words cost more than the rest of the boundary rule.

    A text holds a word when one of its tokens (``_WORD``'s, lower case) says something and stems to it. The
    stemmer only cuts a suffix (or writes "ies" as "y"), so such a token starts with the word (less a final "y"):
    only texts holding those letters are tokenised, and only their tokens that start with them."""

    def __init__(self, texts: list[str]) -> None:
        self._texts = [t.lower() for t in texts]
        self._exact: dict[str, int] = {}
        self._at_least: dict[str, int] = {}   # a count stopped at its limit

    def get(self, word: str, default: int = 0, *, limit: int | None = None) -> int:
        """How many texts hold ``word``; with ``limit``, at most ``limit`` (counting stops there)."""
        if word in self._exact:
            n = self._exact[word]
        elif limit is not None and self._at_least.get(word, -1) >= limit:
            n = limit
        else:
            n = self._count(word, limit)
        n = n if limit is None else min(n, limit)
        return n or default

    def _count(self, word: str, limit: int | None) -> int:
        probe = word[:-1] if word.endswith("y") else word
        n = 0
        for text in self._texts:
            if probe and probe in text and _holds(text, probe, word):
                n += 1
                if limit is not None and n >= limit:
                    self._at_least[word] = n
                    return n
        self._exact[word] = n
        return n


_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _holds(text: str, probe: str, word: str) -> bool:
    """Does lower-case ``text`` hold a token of ``_WORD``'s that starts with ``probe`` and says ``word``? A token
    starts at a letter after something that is no letter or digit, or after digits that follow such a thing."""
    at = text.find(probe)
    while at >= 0:
        start = at
        while start and text[start - 1].isdigit() and text[start - 1].isascii():
            start -= 1
        if not start or text[start - 1] not in _ALNUM:
            end = at + len(probe)
            while end < len(text) and text[end] in _ALNUM:
                end += 1
            token = text[at:end]
            if _says_something(token) and stem(token) == word:
                return True
        at = text.find(probe, at + 1)
    return False


def count_words(texts: list[str]) -> tuple[WordCounts, int]:
    """How many of ``texts`` hold each content word (``WordCounts``), and how many texts: the rarity
    ``mechanism_overlap`` reads, over every anchor of the doc and item of the day."""
    return WordCounts(texts), len(texts)


def candidate_text(c: Candidate) -> str:
    """Everything written about an item: its titles, the abstract and posts, the team's lines."""
    return "\n".join([c.title, *c.titles, *c.texts, *(line for p in c.points for line in p.lines())])
