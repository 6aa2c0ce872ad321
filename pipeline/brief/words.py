"""The words of what is written about a paper that can say what it does: the ``boundary`` rule's
mechanism overlap (``boundary.mechanism_overlap``) compares them and counts how rare each is."""
from __future__ import annotations

import re
from collections import Counter

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


def count_words(texts: list[str]) -> tuple[dict[str, int], int]:
    """How many of ``texts`` hold each content word (``content_words``'s, without their spellings), and how
    many texts: the rarity ``mechanism_overlap`` reads, over every anchor of the doc and item of the day."""
    held = [set(_WORD.findall(text.lower())) for text in texts]
    # each distinct word of all the texts judged and stemmed once; "" for a word that says nothing
    stem_of = {w: stem(w) if _says_something(w) else "" for w in set().union(*held)}
    counts: Counter[str] = Counter()
    for words in held:
        counts.update(set(map(stem_of.__getitem__, words)))
    counts.pop("", None)
    return dict(counts), len(texts)


def candidate_text(c: Candidate) -> str:
    """Everything written about an item: its titles, the abstract and posts, the team's lines."""
    return "\n".join([c.title, *c.titles, *c.texts, *(line for p in c.points for line in p.lines())])
