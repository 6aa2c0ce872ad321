"""``WordCounts``: a word's count as tokenising every text would give it, found by searching only the texts
that hold its letters (``pipeline.brief.words``)."""
from __future__ import annotations

import random
import re

from pipeline.brief.words import WordCounts, content_words

_TOKEN = re.compile(r"[a-z][a-z0-9]*")


def _by_tokenising(texts: list[str]) -> dict[str, int]:
    """Each text tokenised whole: how many texts hold each content word (the plain definition)."""
    counts: dict[str, int] = {}
    for text in texts:
        for word in {w for t in _TOKEN.findall(text.lower()) for w in content_words(t)}:
            counts[word] = counts.get(word, 0) + 1
    return counts


_PIECES = [*"abcdeiloprsy0123 -_./é中ſİ٣²", "ies", "ing", "ed", "es", "model", "Models", "caching", "cached",
           "3model", "a3model", "policies", "policy", "planning", "plan", "x86", "٣model", "²model", "the", "KV"]


def test_every_count_is_the_one_tokenising_every_text_gives() -> None:
    rng = random.Random(11)
    texts = ["".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 30))) for _ in range(2500)]
    texts += ["Caching policies for KV caches: planning, planned, plans", "3models and a3model; x86 models"]
    expected = _by_tokenising(texts)
    counts = WordCounts(texts)
    assert expected and all(counts.get(w) == n for w, n in expected.items())
    for word in ("polic", "cach", "plan", "model", "zzz", "y", "ies"):
        assert counts.get(word) == expected.get(word, 0), word
    limited = WordCounts(texts)
    for word, n in expected.items():
        assert limited.get(word, limit=3) == min(n, 3)
        assert limited.get(word) == n   # a count stopped at its limit is taken up again when asked whole
