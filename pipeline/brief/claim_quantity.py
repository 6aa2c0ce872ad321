"""Which quantity a value measures, read from the words around it in its clause (``claims.py`` reads the values).

The keyword written last before the value ("p99 TTFT 380 ms"), else the quantity the value is said of after it
("adds 6% to TTFT"), else what its unit says (GB/s is a bandwidth), else a keyword right after it ("1.53x
slowdown"), the quantity a factor multiplies ("2.3x the decode throughput"), a word beside it ("快 1.6×"), or a
named speed-up — each reading in turn (``readings``), the first whose unit fits kept (``first_measured_in``).
The keywords are ``[quantities]`` and ``[quantity_units]`` in data/briefing.toml.
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator

from pipeline.brief.claim_forms import over_named
from pipeline.brief.claim_words import Keywords, keywords_of
from pipeline.brief.conditions import PERCENTILE
from pipeline.brief.words import FUNCTION_WORDS

IMPLIED = {"GB/s": "bandwidth", "Gb/s": "bandwidth", "MB/s": "bandwidth", "TB/s": "bandwidth",
            "tokens/s": "throughput", "GiB": "memory", "GB": "memory"}


def last_keyword(before: str, keywords: Keywords) -> tuple[str, int] | None:
    """The quantity of the keyword written last in ``before``, and where that keyword starts; not a quantity held
    fixed ("同样的命中率下 … 少占 43% 的内存", "at the same hit rate"), which is the figure's condition."""
    low = before.lower()
    best, at = None, (-1, 0)
    for word, quantity in keywords.pairs:
        i = _last_word_start(low, word)
        # the keyword ending last, then the longest: "p99 latency" is not plain "latency"
        if i >= 0 and (i + len(word), len(word)) > at and not _held_fixed(low, i, i + len(word)):
            best, at = quantity, (i + len(word), len(word))
    return (best, at[0] - at[1]) if best else None


def _last_word_start(low: str, word: str) -> int:
    """Where ``word`` is last written in ``low`` starting a word, if it starts with an ASCII letter or digit (the
    "tpot" of "HotpotQA" is none), or -1."""
    i = low.rfind(word)
    while i > 0 and word[:1].isascii() and word[:1].isalnum() and low[i - 1].isascii() and low[i - 1].isalnum():
        i = low.rfind(word, 0, i)
    return i


def _held_fixed(low: str, start: int, end: int) -> bool:
    """Is the keyword at ``start:end`` a quantity the figure is measured at ("命中率下", not "下降"; "at the same")?"""
    return _HELD_AFTER.match(low, end) is not None or _HELD_BEFORE.search(low, 0, start) is not None


# "命中率下": at that hit rate; not a fall ("下降", "下来了", "下到 120 ms")
_HELD_AFTER = re.compile(r"\s*下(?![降滑跌调来到去探行])")
# "同样的命中率", "at the same hit rate"; not "同样 TTFT 降了 38%" (likewise)
_HELD_BEFORE = re.compile(r"(?:\bat\s+(?:the\s+|an?\s+)?(?:same|equal|matched|fixed|iso)(?:-|\s+)"
                          r"|同样的\s*|相同的\s*)$")


def quantity_before(text: str, at: int, quantities: dict[str, str]) -> str | None:
    """The quantity ``text`` names last before position ``at``: its ``[quantities]`` keyword that ends last there
    (the longer of two: "p99 latency", not "latency"), as a claim's value is read."""
    found = last_keyword(text[:at], keywords_of(tuple(quantities.items())))
    return found[0] if found else None


def _own_keyword_before(before: str, keywords: Keywords, found: tuple[str, int] | None) -> str | None:
    """The quantity of the keyword written last before a value (``found``: ``last_keyword``'s), unless an earlier
    figure is said of it: in "adds 6% to TTFT and 4% to …" the TTFT before 4% is the 6%'s; in "TTFT drops 40% to the
    latency of a cache hit" the TTFT is the 40%'s own, whatever keyword follows."""
    # a keyword an earlier figure is said of: "6% to TTFT" (and "6% to the TTFT"), right before the keyword
    earlier = keywords.said_of_earlier
    if found is None or (earlier is not None and earlier.search(before, 0, found[1])):
        return None
    # … or one an earlier figure after it has taken: in "lowers the hit rate by 4% and adds 2% to p99 TTFT" the hit
    # rate is the 4%'s, and the 2% is said of what follows it
    if FIGURE_AFTER.search(before, found[1]) and keywords.said_of is not None:
        return None
    return found[0]


# a figure as the rules below look for one in a clause's text: a number and its unit, however written
A_FIGURE = r"\d(?:[\d.,]*\d)?\s*(?:%|×|[xX]\b|倍|times\b|ms\b|s\b|GB/s|GB\b|tokens?/s)"
FIGURE_AFTER = re.compile(A_FIGURE)


def _quantity_beside(before: str, after: str, keywords: Keywords) -> str | None:
    """A ``[quantities_beside]`` word right next to the value ("快 1.6×", "120 ms 内恢复"): a word that says
    little alone ("快" in "快照"), read only where no ``[quantities]`` keyword names the value's quantity."""
    if _NEARLY.match(after) or _NEARLY_BEFORE.search(before):   # "快 80% 了", "已经快 80%": nearly, not faster
        return None
    m = keywords.beside_before.search(before) or keywords.beside_after.match(after)
    return dict(keywords.beside).get(m["w"].lower()) if m else None


# "快" is also "nearly": "复现快 80% 了", "已经快 80%", "快 80% 左右" say how far along, not how much faster
_NEARLY = re.compile(r"^\s*(?:了|左右)")
_NEARLY_BEFORE = re.compile(r"(?:都|已经|就)\s*快\s*$")


def readings(before: str, after: str, unit: str, subject: str | None, keywords: Keywords) -> Iterator[str | None]:
    """The quantity a value may be of, by each reading in turn (lazily: most values stop at the first)."""
    tail = before[-60:]
    found = last_keyword(tail, keywords)
    mine = not _an_earlier_figures_keyword(tail, keywords, found)
    yield _own_keyword_before(tail, keywords, found) if mine else None
    yield _quantity_said_of(after, keywords)
    # any keyword before it ("TTFT drops from 380 ms to 120 ms"), else what its unit says; not past an earlier
    # figure and a new predicate ("… first token in 3.6 s and keeps it warm for 300 s": no start-up time)
    yield found[0] if found and mine and not _after_a_new_predicate(tail, found[1]) else IMPLIED.get(unit)
    yield quantity_after(after, keywords)
    yield _multiple_of(before, after, keywords) if unit == "×" else None
    yield _quantity_beside(before, after, keywords)
    # "SEIS 3.27×", "1.7× over FlashAttention-2": a named speed-up, or one over a named system
    yield "speed-up" if unit == "×" and (subject or over_named(after, right_after=True)) else None


def _after_a_new_predicate(before: str, keyword_at: int) -> bool:
    """Does a conjunction starting a new predicate follow the last figure written after the keyword at
    ``keyword_at`` ("in 3.6 s and keeps it warm for")? The keyword is that figure's, not the next value's."""
    last = deque(FIGURE_AFTER.finditer(before, keyword_at), maxlen=1)
    return bool(last) and new_predicate(before[last[0].end():])


def new_predicate(between: str) -> bool:
    """Does ``between`` (the words after a figure) join with a conjunction a new predicate, a word not of a list
    ("and keeps it warm for", not "and on", "and the")? Without a conjunction, nothing is joined."""
    joined = deque(AND.finditer(between), maxlen=1)
    if not joined:
        return False
    word = _FIRST_WORD.match(between, joined[0].end())
    return word is not None and word[1].casefold() not in _LIST_WORDS


AND = re.compile(r"\band\b|和|及|、")
_FIRST_WORD = re.compile(r"\s*([a-z][a-z-]*)")   # a lower-case word starting what follows the conjunction
# the words a list's next item may start with: articles, possessives and prepositions ("and within 16.1 s over …")
_LIST_WORDS = frozenset({"a", "an", "the", "its", "their", "on", "for", "in", "at", "with", "within", "under", "per",
                         "by", "over", "to", "from", "across", "via", "into", "during", "after", "before", "below",
                         "above", "up", "around", "about", "as", "without"})


def _an_earlier_figures_keyword(before: str, keywords: Keywords, found: tuple[str, int] | None) -> bool:
    """Is the keyword written last before a value (``found``) an earlier figure's, named right after it ("3.72x-4.86x
    TTFT speedup and 3.93x higher throughput": the speed-up is the 4.86x's)? Not "TTFT 380 ms, TPOT 30 ms"."""
    if found is None:
        return False
    low = before.lower()
    end = found[1] + max(len(w) for w, _ in keywords.pairs if low.startswith(w, found[1]))
    if not before[end:].strip(_BETWEEN_KEYWORD_AND_VALUE):
        return False   # written right before this value: its own ("TTFT 380 ms TPOT 32 ms", "显存 −30%")
    m = _FIGURE_THEN_WORD.search(before, 0, found[1])
    if m is not None and (m["w"] is None or m["w"].lower() in keywords.words):
        return True
    # a percentile the earlier figure is at ("140 ms at p50 and 620 ms at p99": p50 is the 140 ms's)
    at_percentile = _PERCENTILE.match(before.lower(), found[1]) is not None
    return at_percentile and _FIGURE_AT.search(before, 0, found[1]) is not None


_BETWEEN_KEYWORD_AND_VALUE = " \t:：=+-−"   # what may stand between a keyword and its value ("TPOT: −5%")
# a figure, then maybe another keyword, ending where a keyword starts ("4.86x TTFT " + "speedup", "2.1× " + "吞吐";
# not "6% to " + "TTFT")
_FIGURE_THEN_WORD = re.compile(A_FIGURE + r"\s*(?:(?P<w>[A-Za-z][\w-]*)\s+)?$")
_FIGURE_AT = re.compile(A_FIGURE + r"\s*(?:at|@)\s*$")


def first_measured_in(unit: str, keywords: Keywords, readings: Iterable[str | None]) -> str | None:
    """The first quantity ``readings`` give (in the order they are tried) that ``unit`` measures
    (``[quantity_units]``; a quantity not listed takes any unit): "SnapServe recovers 3× faster" is no recovery time
    but a speed-up. A reading of another unit's quantity that none after it replaces yields what the unit says ("in
    GPU memory and sustains 5,600 tokens/s": a throughput, no memory size), else nothing ("a recovery rate of 92%")."""
    units = dict(keywords.units)
    misfit = False
    for quantity in readings:
        if quantity is None:
            continue
        if quantity not in units or unit in units[quantity]:
            return quantity
        misfit = True
    return IMPLIED.get(unit) if misfit else None


def quantity_after(after: str, keywords: Keywords) -> str | None:
    """A keyword written right after the number ("1.53x slowdown", "2.1× 吞吐"), or after a comparative
    ("1.24x more tokens per joule")."""
    low = after.lower()
    if m := _LIST_NEXT.match(low):   # "12.42x and 8.4x speedup": the list's quantity, named after its last figure
        low = low[m.end():]
    if m := keywords.comparative.match(low):
        low = low[m.end():]
    if m := _CHANGE_IN.match(low):   # "10-20x gains in inference throughput", "a 35% reduction in p99 TTFT"
        return quantity_after(low[m.end():], keywords)
    hits = [(low.find(w), -len(w), w, q) for w, q in keywords.pairs if 0 <= low.find(w) <= 3]
    if not hits:
        return _keyword_among_words(low, keywords)
    at, _, word, quantity = min(hits)   # the first written, of two there the longer ("p99 latency", not "p99")
    bare = _PERCENTILE.match(low, at)
    if bare and bare.end() - at >= len(word):   # a percentile alone before what it is of ("lower p99 TTFT")
        return quantity_after(low[bare.end():], keywords) or quantity
    return quantity


# the next figures of a list the value starts ("12.42x and 8.4x", "2.37x, 2.85x or 3.1x")
_LIST_NEXT = re.compile(r"^(?:\s*(?:,\s*(?:and\s+|or\s+)?|and\s+|or\s+|/\s*)\d[\d.,]*\s*"
                        r"(?:%|×|x\b|倍|times\b|percent\b))+")
# a change of a quantity named after the word for it ("gains in", "reduction of")
_CHANGE_IN = re.compile(r"^\s*(?:gains?|improvements?|reductions?|drops?|increases?|decreases?|boosts?|savings?|"
                        r"degradations?)\s+(?:in|of)\s+")


def _multiple_of(before: str, after: str, keywords: Keywords) -> str | None:
    """The quantity a factor multiplies, written after it with an article ("serves W4A4 models at 2.3x the decode
    throughput of FP16"): a keyword among the words after the article. Not an objective's scale ("SLOs are set to 5x
    the latency of a single request", "under 5x the TTFT SLO"): a target, no measurement. In Chinese, the quantity
    after "的" in its clause ("2.7× 的 decode 吞吐")."""
    m = keywords.article.match(after)
    if m is None:
        zh = _OF_ZH.match(after)
        found = last_keyword(zh[1], keywords) if zh and not _SLO.search(zh[1]) else None
        return found[0] if found else None
    multiplied = _OF_OR_COMMA.split(after[m.end():], 1)[0]   # "the TTFT SLO" of "the TTFT SLO, …"
    if _SLO.search(before[-60:]) or _SLO.search(multiplied):
        return None
    return _keyword_among_words(after[m.end():].lower(), keywords)


_SLO = re.compile(r"\bSLOs?\b", re.I)
_OF_ZH = re.compile(r"\s*的\s*([^，。；,;是为就要]{1,12})")   # a noun phrase: "的代价是 …" is no multiple
_OF_OR_COMMA = re.compile(r",|，|\sof\s")


def keyword_right_before(before: str, keywords: Keywords) -> str | None:
    """The quantity of a keyword the text before a value ends with (a colon or space between)."""
    tail = before.rstrip(" \t:：=").lower()
    return next((q for w, q in keywords.pairs if tail.endswith(w)), None)


def _keyword_among_words(low: str, keywords: Keywords, words: int = 4) -> str | None:
    """A keyword starting one of the first ``words`` words after a value, only words that say which of the
    quantity it is between ("−38% end-to-end agent latency"): no number or mark, no function word ("30% of the
    memory" is a share of it, "2× more often than the throughput" no throughput)."""
    at = 0
    for _ in range(words):
        m = _WORD_AHEAD.match(low, at)
        if m is None:
            return None
        start = m.start(1)
        found = [(len(w), q) for w, q in keywords.pairs
                 if low.startswith(w, start) and not re.match(r"[\w-]", low[start + len(w):start + len(w) + 1])]
        if found:
            return max(found)[1]
        if len(m[1]) <= 2 or m[1] in FUNCTION_WORDS:
            return None
        at = m.end()
    return None


_WORD_AHEAD = re.compile(r"\s*([a-z][a-z-]*)")


def _quantity_said_of(after: str, keywords: Keywords) -> str | None:
    """The quantity a value is said of, named after it: "adds 6% to TTFT and 4% to the time per output
    token" gives TTFT 6% and TPOT 4% (the keyword before 4% is the 6%'s). Read only when no keyword of
    the value's own is written before it (``_own_keyword_before``)."""
    m = keywords.said_of.match(after) if keywords.said_of is not None else None
    if m is None:
        return None
    rest = after[m.end():].lower()
    hits = [(len(w), q) for w, q in keywords.pairs
            if rest.startswith(w) and not re.match(r"[\w-]", rest[len(w):len(w) + 1])]
    # a percentile before the keyword ("to p99 TTFT") qualifies it: the keyword after it names the quantity
    if (p := _PERCENTILE.match(rest)) is not None:
        hits += [(p.end() + len(w), q) for w, q in keywords.pairs if rest.startswith(w, p.end())
                 and not re.match(r"[\w-]", rest[p.end() + len(w):p.end() + len(w) + 1])]
    return max(hits)[1] if hits else None


_PERCENTILE = re.compile(PERCENTILE + r"\s+")
