"""Numbers with units read from a text, each with the quantity it measures and its subject (``figures.py``
compares them across sources).

A claim is a value with its unit (×, %, ms, s, GB/s, tokens/s …), the quantity it measures (from a
keyword before it: TTFT, throughput/吞吐, bandwidth/带宽 … — ``[quantities]`` in
data/briefing.toml) and its subject: the coined name written right before the number
("Mooncake 46.1 GB/s"), else the item the text is about. What is not read as a claim: a value in
parentheses (a condition: "（不复用时 1.9 s）"), a baseline ("from 1.9 s", "over 2.1×") and the value a
change starts from ("1.9 s to 0.8 s").
"""
from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from kb.arxiv_id import find_arxiv_ids
from kb.names import coined
from pipeline.brief.claim_forms import NUMBER, device_memory, over_named, range_low, released_over
from pipeline.brief.claim_words import NAME, RELEASED, ClaimWords, Keywords, SaidOf, keywords_of
from pipeline.brief.entities import ID_WRITTEN
from pipeline.brief.words import FUNCTION_WORDS

# A × (or x) written against a device, a parallel degree or a digit counts things, it measures nothing:
# "8×H100", "TP4×DP2", "4096×4096", "0.10 x86" ("1.8× A100" and "2.1× 8 GPUs", with a space, are speed-ups).
_COUNTED = r"(?![A-Za-z]+\d|\d)"
# "6.2 times" is a factor only before what it multiplies or compares ("times faster", "times the throughput"); "run
# 5 times" counts runs. LaTeX writes a factor "5.0$\\times$" (abstracts).
_TIMES_WHAT = (r"\s+(?:faster|slower|higher|lower|more|less|fewer|smaller|larger|greater|better|speed-?ups?|"
               r"improvements?|reductions?|the|as)\b")
# A value and its unit: "1,234.5" is one value (``claim_forms.NUMBER``), "1.84k tok/s" 1,840 tokens/s.
_VALUE = re.compile(r"(?P<v>" + NUMBER + r")(?P<k>[kK](?=\s*tok))?\s*(?P<u>×" + _COUNTED
                    + r"|[xX](?![A-Za-z])" + _COUNTED + r"|\$?\\times\$?" + _COUNTED + r"|times(?=" + _TIMES_WHAT + r")"
                    + r"|倍|%|percent\b|per cent\b"
                    + r"|ms\b|[µμ]s|us\b|s(?![A-Za-z/])|秒|GB/s|Gb/s|MB/s|TB/s|tokens?/s|tok/s|GiB|GB\b"
                    + r"|bits?\s+per\s+weight\b|bpw\b|bits?\b)")
# A clause ends at 。；;！!？?，or a newline, or at . , after a non-digit before a space or the end ("46.1" goes on).
# Written as one character class first, so the scan skips to candidates instead of trying each position.
_CLAUSE = re.compile(r"[。；;！!？?\n.,，](?:(?<=[。；;！!？?\n，])|(?<=\D[.,])(?=\s|$))")
# "NAME [(ID)] [的|'s] [a few CJK characters]" ending where a quantity's keyword starts ("Mooncake 传输" + "带宽",
# "KVShield（2610.14012）的代价是" + "TTFT", "升到 Lathe 2.4.3 以后" + "TTFT").
_NAME_AT_END = re.compile(r"(?<![A-Za-z0-9.+-])(?P<name>" + RELEASED + r")"
                          r"(?:\s*[（(]\s*" + ID_WRITTEN + r"\s*[)）])?"
                          r"(?:'s|\s*的)?\s*[\u4e00-\u9fff]{0,3}\s*$")
# The name right before a number: a whole word ("Llama-3.1-70B", not the "B" of "70B").
_NAME_BEFORE = re.compile(r"(?<![A-Za-z0-9.+-])(?P<name>" + RELEASED + r")\s*[:：]?\s*$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*$", re.I)
_UNIT = {"x": "×", "×": "×", "倍": "×", "times": "×", "percent": "%", "per cent": "%",
         "ms": "s", "µs": "s", "μs": "s", "us": "s", "s": "s", "秒": "s", "token/s": "tokens/s",
         "tokens/s": "tokens/s", "tok/s": "tokens/s", "bpw": "bit", "bits": "bit"}
# A sign written right before a value ("−44%", "-22%", "+25%"): part of the figure as written. The minus sign
# (U+2212) is one wherever it stands; a hyphen or plus only where no letter, digit or dot precedes it, so a
# range ("30-40%") or a name ("Llama-3") keeps its hyphen.
_SIGN_BEFORE = re.compile(r"(?:−|(?<![0-9A-Za-z.])[-+])$")
_SCALE = {"ms": 1e-3, "µs": 1e-6, "μs": 1e-6, "us": 1e-6}
# A width in bits is only ever a quantized model's bits per weight here, said so by its unit ("2.75 bpw", "2.75 bits
# per weight") or by a keyword right before it ("每个权重 3.25 bit"); "2/3/4 bit", "the KV cache at 2 bits" are none.
_BITS = "bits per weight"
_PER_WEIGHT = re.compile(r"bpw|bits?\s+per\s+weight")
_IMPLIED = {"GB/s": "bandwidth", "Gb/s": "bandwidth", "MB/s": "bandwidth", "TB/s": "bandwidth",
            "tokens/s": "throughput", "GiB": "memory", "GB": "memory"}


@dataclass(frozen=True)
class Claim:
    subject: str | None      # a coined name written before the value, else None: the item itself
    quantity: str            # ttft, throughput, bandwidth, speedup …
    unit: str                # ×, s, GB/s, tokens/s …
    value: float
    written: str             # as written, sign and all: "2.4×", "380 ms", "−44%"
    where: str
    over: str | None = None  # the named system a factor is over ("2.3x faster than FlashAttention-2"), if written


_BRACKET = re.compile(r"[(（\[)）\]]")


def _parenthesised(text: str, pos: int) -> bool:
    """Is ``pos`` inside brackets opened before it (a closing one without its opening is ignored)? Only the
    brackets are walked, not every character."""
    depth = 0
    for ch in _BRACKET.findall(text, 0, pos):
        if ch in "(（[":
            depth += 1
        elif depth:
            depth -= 1
    return depth > 0


def _last_keyword(before: str, keywords: Keywords) -> tuple[str, int] | None:
    """The quantity of the keyword written last in ``before``, and where that keyword starts."""
    low = before.lower()
    best, at = None, (-1, 0)
    for word, quantity in keywords.pairs:
        i = low.rfind(word)
        # the keyword ending last, then the longest: "p99 latency" is not plain "latency"
        if i >= 0 and (i + len(word), len(word)) > at:
            best, at = quantity, (i + len(word), len(word))
    return (best, at[0] - at[1]) if best else None


def quantity_before(text: str, at: int, quantities: dict[str, str]) -> str | None:
    """The quantity ``text`` names last before position ``at``: its ``[quantities]`` keyword that ends last there
    (the longer of two: "p99 latency", not "latency"), as a claim's value is read."""
    found = _last_keyword(text[:at], keywords_of(tuple(quantities.items())))
    return found[0] if found else None


def _own_keyword_before(before: str, keywords: Keywords, found: tuple[str, int] | None) -> str | None:
    """The quantity of the keyword written last before a value (``found``: ``_last_keyword``'s), unless an earlier
    figure is said of it: in "adds 6% to TTFT and 4% to …" the TTFT before 4% is the 6%'s; in "TTFT drops 40% to the
    latency of a cache hit" the TTFT is the 40%'s own, whatever keyword follows."""
    # a keyword an earlier figure is said of: "6% to TTFT" (and "6% to the TTFT"), right before the keyword
    earlier = keywords.said_of_earlier
    if found is None or (earlier is not None and earlier.search(before, 0, found[1])):
        return None
    # … or one an earlier figure after it has taken: in "lowers the hit rate by 4% and adds 2% to p99 TTFT" the hit
    # rate is the 4%'s, and the 2% is said of what follows it
    if _FIGURE_AFTER.search(before, found[1]) and keywords.said_of is not None:
        return None
    return found[0]


# a figure as the rules below look for one in a clause's text: a number and its unit, however written
_A_FIGURE = r"\d(?:[\d.,]*\d)?\s*(?:%|×|[xX]\b|倍|times\b|ms\b|s\b|GB/s|GB\b|tokens?/s)"
_FIGURE_AFTER = re.compile(_A_FIGURE)


def _subject(before: str, keywords: Keywords) -> str | None:
    """The system named right before a number ("Mooncake 46.1", "TierKV 3.1×", "DeepEP-v2: 2.1x"), or
    before the quantity it measures ("Mooncake 传输带宽 46.1 GB/s", "Mooncake's bandwidth: 46.1"), or the subject
    of a reporting verb before it ("HydraRoute (2610.12077) reports p99 TTFT −35%"), if any."""
    m = _NAME_BEFORE.search(before)
    if m is not None and m["name"].lower() not in keywords.words and m["name"].lower() not in keywords.by:
        if name := _a_name(m["name"], keywords):
            return name
    m = _named_quantity(before, keywords) or _verb_subject(before, keywords)   # "… TTFT by 21%", "adds about 3%"
    return _a_name(m["name"], keywords) if m is not None else None


def _a_name(name: str, keywords: Keywords) -> str | None:
    """``name`` if it may name a system: coined or capitalised, not a version, a keyword or a ``not_names`` word
    ("Table 2.1" names no release of a system called "Table")."""
    word = name.split()[0]
    if _VERSION.match(name) or word.lower() in keywords.not_names or name.lower() in keywords.words:
        return None
    return name if coined(word) or word[0].isupper() else None


def _verb_subject(before: str, keywords: Keywords) -> re.Match[str] | None:
    """"NAME [(…)] VERB [by|about]" right before a value ("Lathe 2.4.3 adds about 3% to p99 TTFT"): the verb's
    subject when it is a release or its paper speaks ("PaceSpec's paper says 2.2x"), unless a word before it says the
    name is not ("Integrating FoldQ into vLLM 0.6 adds 3%"). A bare name's "adds 6% to TTFT" stays the item's own,
    as an abstract writes its paper's figures ("VeilServe adds 6% to TTFT"), and "FooServe costs 1.4x" no speed-up."""
    m = keywords.verb_value.search(before)
    if m is None or not (_RELEASE.search(m["name"]) or m["own"]):
        return None
    return None if keywords.not_subject_after.search(before, 0, m.start()) else m


_RELEASE = re.compile(r"\s[vV]?\d")   # a name written with its release ("Lathe 2.4.3")


def _named_quantity(before: str, keywords: Keywords) -> re.Match[str] | None:
    """"NAME [的|'s] [a few CJK characters] KEYWORD [:]" or "NAME [(…)] VERB [pNN] KEYWORD [by]" right before a
    number: the name of what is measured."""
    low = before.lower()
    for word in keywords.longest_first:
        at = low.rfind(word)
        if at < 0:
            continue
        # a keyword written in the plural is the same keyword ("SLO violation" + "s by 38%")
        tail = _PLURAL.sub("", before[at + len(word):]).strip(" \t:：=")
        # after a reporting verb, whose subject is a system's coined name ("It lowered …" is none), the keyword may
        # be followed by "by" or the value's sign ("reports p99 TTFT −35%", "lowered p99 TTFT by 21%")
        bare = tail.rstrip("−+-").rstrip()
        if not bare or bare.lower() in keywords.by:
            head = _PERCENTILE_AT_END.sub("", before[:at])   # "KVShield 的 p99" + "TTFT 多 5.5%"
            m = keywords.name_verb.search(head)
            if m is not None and (not coined(m["name"]) or keywords.not_subject_after.search(head, 0, m.start())):
                return None
            # "KVShield 的 TTFT 多 5.5%": a word of the change between the quantity and its value ([claim_words] by)
            m = m or (_NAME_AT_END.search(head) if not bare or bare.lower() in keywords.by else None)
            if m is None and tail:
                continue
            if (m is None or m["name"].lower() in keywords.not_names
                    or keywords.compared_before.search(head, 0, m.start())
                    or keywords.not_subject_after.search(head, 0, m.start())):
                # "相比 vLLM 吞吐 2.1×": the item's gain over vLLM, not vLLM's own figure; "在 Llama 3.1 上 TTFT
                # 降低 30%": the model it was measured on
                return None
            return m
    return None


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


def _readings(before: str, after: str, unit: str, subject: str | None, keywords: Keywords) -> Iterator[str | None]:
    """The quantity a value may be of, by each reading in turn (lazily: most values stop at the first)."""
    tail = before[-60:]
    found = _last_keyword(tail, keywords)
    mine = not _an_earlier_figures_keyword(tail, keywords, found)
    yield _own_keyword_before(tail, keywords, found) if mine else None
    yield _quantity_said_of(after, keywords)
    yield found[0] if found and mine else _IMPLIED.get(unit)   # any keyword before it, else what its unit says
    yield _quantity_after(after, keywords)
    yield _multiple_of(before, after, keywords) if unit == "×" else None
    yield _quantity_beside(before, after, keywords)
    # "SEIS 3.27×", "1.7× over FlashAttention-2": a named speed-up, or one over a named system
    yield "speed-up" if unit == "×" and (subject or over_named(after, right_after=True)) else None


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
    return m is not None and (m["w"] is None or m["w"].lower() in keywords.words)


_BETWEEN_KEYWORD_AND_VALUE = " \t:：=+-−"   # what may stand between a keyword and its value ("TPOT: −5%")
# a figure, then maybe another keyword, ending where a keyword starts ("4.86x TTFT " + "speedup", "2.1× " + "吞吐";
# not "6% to " + "TTFT")
_FIGURE_THEN_WORD = re.compile(_A_FIGURE + r"\s*(?:(?P<w>[A-Za-z][\w-]*)\s+)?$")


def _first_measured_in(unit: str, keywords: Keywords, readings: Iterable[str | None]) -> str | None:
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
    return _IMPLIED.get(unit) if misfit else None


def _quantity_after(after: str, keywords: Keywords) -> str | None:
    """A keyword written right after the number ("1.53x slowdown", "2.1× 吞吐"), or after a comparative
    ("1.24x more tokens per joule")."""
    low = after.lower()
    if m := _LIST_NEXT.match(low):   # "12.42x and 8.4x speedup": the list's quantity, named after its last figure
        low = low[m.end():]
    if m := keywords.comparative.match(low):
        low = low[m.end():]
    if m := _CHANGE_IN.match(low):   # "10-20x gains in inference throughput", "a 35% reduction in p99 TTFT"
        return _quantity_after(low[m.end():], keywords)
    hits = [(low.find(w), -len(w), w, q) for w, q in keywords.pairs if 0 <= low.find(w) <= 3]
    if not hits:
        return _keyword_among_words(low, keywords)
    at, _, word, quantity = min(hits)   # the first written, of two there the longer ("p99 latency", not "p99")
    bare = _PERCENTILE.match(low, at)
    if bare and bare.end() - at >= len(word):   # a percentile alone before what it is of ("lower p99 TTFT")
        return _quantity_after(low[bare.end():], keywords) or quantity
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
    the latency of a single request", "under 5x the TTFT SLO"): a target, no measurement."""
    m = keywords.article.match(after)
    if m is None:
        return None
    multiplied = _OF_OR_COMMA.split(after[m.end():], 1)[0]   # "the TTFT SLO" of "the TTFT SLO, …"
    if _SLO.search(before[-60:]) or _SLO.search(multiplied):
        return None
    return _keyword_among_words(after[m.end():].lower(), keywords)


_SLO = re.compile(r"\bSLOs?\b", re.I)
_OF_OR_COMMA = re.compile(r",|，|\sof\s")


def _keyword_right_before(before: str, keywords: Keywords) -> str | None:
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


# How much of a clause after a value is read: the quantity it is said of ("… to the time per output token").
AFTER = 40
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


_PERCENTILE = re.compile(r"p\d{2,3}(?:\.\d)?\s+")
_PLURAL = re.compile(r"^e?s\b")
_PERCENTILE_AT_END = re.compile(r"(?<![A-Za-z0-9])[pP]\d{2,3}(?:\.\d)?\s*$")


def claims_in(text: str, where: str, keywords: dict[str, str], said_of: SaidOf = SaidOf(),
              claim_words: ClaimWords = ClaimWords(), *, about: str | None = None) -> list[Claim]:
    """Every claim written in ``text`` (from one source, ``where``): ``keywords`` the ``[quantities]``,
    ``said_of`` the ``[said_of]`` and ``claim_words`` the ``[claim_words]`` words of data/briefing.toml.
    ``about``: the system the text is about (a paper's name, for its abstract), the subject of every value no
    other name is written before."""
    out: list[Claim] = []
    table = keywords_of(tuple(keywords.items()), said_of, claim_words)
    if "÷" in (text or ""):   # "KV memory ÷3.2" is a reduction 3.2× (the same length: every position stays)
        text = _DIVIDED.sub(lambda m: f"{m['n']}×", text)
    values = list(_values_in_clauses(text or ""))
    ranges = {m.start(): low for before, m, _ in values if (low := range_low(before, m, table.baseline)) is not None}
    lows = {m.start() - len(before) + low.start("v") for (before, m, _), low in
            ((v, ranges[v[1].start()]) for v in values if v[1].start() in ranges)}
    for before, m, after in values:
        if m.start() in lows:   # a range's first figure: read with its last ("1.6–2.1×")
            continue
        low = ranges.get(m.start())
        if low is not None:     # the range is read as one figure, written where it starts
            before = before[:low.start()]
        claim = _claim(before, m, after, table, released_over(text, m.start()) or about, where, signed=low is None)
        if claim is None:
            continue
        if low is not None:   # one figure: its value the range's end, written as the range (``figures.span``)
            claim = replace(claim, written=f"{low['v']}–{claim.written}")
        out.append(claim)
    return out


def _claim(before: str, m: re.Match[str], after: str, table: Keywords, about: str | None, where: str, *,
           signed: bool = True) -> Claim | None:
    """The claim the value ``m`` makes, written between ``before`` and ``after`` in its clause, or None."""
    if (_parenthesised(before, len(before)) or (table.baseline.search(before) and not _BOUND.search(before))
            or table.changed_to.match(after)):
        return None
    if m["u"] == "X" and (before[-1:].isalpha() or re.fullmatch(r"\d{3,}", m["v"])):
        return None   # "MI325X", "Ryzen 9 7950X": a device's model, no factor
    if before.endswith(("^", "^{")) or _OVER_A_FIGURE.search(before):
        return None   # "$10^3\times$": a power's exponent; "to 62% over 45% for LRU": the baseline's figure
    raw_unit = ("×" if "times" in m["u"] else m["u"].lower()) if m["u"] not in (
        "GB/s", "Gb/s", "MB/s", "TB/s", "GiB", "GB") else m["u"]
    per_weight = _PER_WEIGHT.fullmatch(raw_unit) is not None
    unit = "bit" if per_weight else _UNIT.get(raw_unit, raw_unit)
    if unit == "bit" and not (per_weight or _keyword_right_before(before, table) == _BITS):
        return None
    if unit in ("GB", "GiB") and device_memory(before, float(m["v"].replace(",", "")), after):
        return None   # "an A100 40GB", "80GB A100s": the device's memory, a setting
    cell, row_subject = _in_table_row(before)
    subject = _subject(cell, table) or row_subject or about
    quantity = _BITS if unit == "bit" else _first_measured_in(unit, table, _readings(before, after, unit, subject,
                                                                                     table))
    if quantity is None or _of_another_measure(before, after, unit, table):
        return None   # "2890x energy reduction", "energy consumption by 14.3%": not a quantity kb compares
    value = float(m["v"].replace(",", "")) * _SCALE.get(raw_unit, 1.0) * (1000 if m["k"] else 1)
    # the value compared is the figure without its sign: "−38%" and "reduces … by 38%" say the same
    sign = found.group() if signed and (found := _SIGN_BEFORE.search(before[-2:])) else ""
    over = over_named(after) if unit == "×" else None
    return Claim(subject, quantity, unit, round(value, 9), sign + m.group().strip(), where, over)


# a figure, then "over": the value after it is what the figure is over ("62% over 45% for LRU")
_OVER_A_FIGURE = re.compile(_A_FIGURE + r"\s+over\s*$")
# "more than 10x", "less than 5%": a bound of the figure, not a baseline after "than" ([compared])
_BOUND = re.compile(r"\b(?:more|less|fewer|greater|no more|no less)\s+than\s*$", re.I)


def _hyphened(text: str, start: int, end: int) -> bool:
    """Is the word at ``start:end`` part of a hyphened word ("non-power-of-two", "accuracy-preserving")?"""
    return text[start - 1:start] == "-" or text[end:end + 1] == "-"


def _of_another_measure(before: str, after: str, unit: str, table: Keywords) -> bool:
    """Is the value of a measure kb does not compare (``[claim_words] other_measures``: energy, accuracy …)? Named
    right after it ("2890x energy reduction", "44.1% energy reduction"), or, when no quantity is named after it, the
    last measure named before it ("reduces energy consumption by up to 2.37x", "accuracy by 2.7%"; not "improves
    accuracy and delivers 2.3x higher throughput")."""
    if unit in _IMPLIED:   # tokens/s, GB/s, GB measure what they say, whatever else the sentence names
        return False
    if (m := table.other_after.match(after)) and not _hyphened(after, m.start("w"), m.end("w")):
        return True
    tail = before[-60:]
    found = next(iter(deque((m for m in table.other_each.finditer(tail)
                             if not _hyphened(tail, m.start("w"), m.end("w"))), maxlen=1)), None)   # the last one
    if found is None or _quantity_after(after, table) is not None:
        return False
    keyword = _last_keyword(before[-60:], table)
    return keyword is None or keyword[1] < found.start("w")


_DIVIDED = re.compile(r"÷(?P<n>\d+(?:\.\d+)?)")   # a factor a quantity is divided by, as a doc's line writes it
_ROW_NAME = re.compile(r"\s*(?P<name>" + NAME + r")")


def _in_table_row(before: str) -> tuple[str, str | None]:
    """A value in a Markdown table row ("| ShardLoad（2610.32751） | §2.1 | 70B replica 上线快 4.7× |", or its cells as
    the note's parser joins them, without the outer bars): the text of its own cell before it, where a name before
    the value is looked for, and the paper the row's first cell names — a coined name with an arXiv ID beside it,
    the row's subject where the value's cell names none (a model, a GPU or a metric in the first cell is a
    condition: "| Llama-3.1-70B | TTFT 380 ms |"). Its quantity is read from the whole row ("| 同样显存下 decode
    吞吐 | 1.5× |"). Elsewhere ``before`` as it is, and no subject."""
    if "|" not in before:
        return before, None
    row = before.lstrip()
    cells = (row[1:] if row.startswith("|") else row).split("|")
    if len(cells) < 2:
        return before, None
    m = _ROW_NAME.match(cells[0])
    paper = m is not None and coined(m["name"]) and bool(find_arxiv_ids(cells[0][m.end():]))
    return cells[-1], m["name"] if paper else None


def _values_in_clauses(text: str) -> Iterator[tuple[str, re.Match[str], str]]:
    """Each value written in ``text`` with its clause's text before it and up to ``AFTER`` characters after it.

    The values are found in the whole text and placed in their clauses (``_CLAUSE``): the same values a
    search clause by clause finds (a clause's match is the text's; one across a clause's end is none),
    without a scan of every clause of a long abstract."""
    values = list(_VALUE.finditer(text))
    if not values:   # most texts: no clause need be cut
        return
    cuts = [(c.start(), c.end()) for c in _CLAUSE.finditer(text)]
    starts = [a for a, _ in cuts]
    for m in values:
        k = bisect.bisect_right(starts, m.start())
        begin = cuts[k - 1][1] if k else 0
        end = cuts[k][0] if k < len(cuts) else len(text)
        if m.end() <= end:
            yield text[begin:m.start()], m, text[m.end():min(m.end() + AFTER, end)]
