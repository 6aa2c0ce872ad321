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
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from itertools import chain

from kb.arxiv_id import find_arxiv_ids
from kb.names import coined
from pipeline.brief.claim_forms import NUMBER, device_memory, over_named, range_low, released_over, stored_size
from pipeline.brief.claim_quantity import (
    A_FIGURE,
    AND,
    FIGURE_AFTER,
    IMPLIED,
    first_measured_in,
    keyword_right_before,
    last_keyword,
    new_predicate,
    quantity_after,
    readings,
)
from pipeline.brief.claim_words import NAME, RELEASED, ClaimWords, Keywords, SaidOf, keywords_of
from pipeline.brief.conditions import LOAD_WORDS, PERCENTILE, TARGET_AFTER, TARGET_BEFORE, sentence_bounds
from pipeline.brief.entities import ID_WRITTEN

# A × (or x) written against a device, a parallel degree or a digit counts things, it measures nothing:
# "8×H100", "TP4×DP2", "4096×4096", "0.10 x86" ("1.8× A100" and "2.1× 8 GPUs", with a space, are speed-ups).
_COUNTED = r"(?![A-Za-z]+\d|\d)"
# "6.2 times" is a factor only before what it multiplies or compares ("times faster", "times the throughput"); "run
# 5 times" counts runs. LaTeX writes a factor "5.0$\\times$" (abstracts).
_TIMES_WHAT = (r"\s+(?:faster|slower|higher|lower|more|less|fewer|smaller|larger|greater|better|speed-?ups?|"
               r"improvements?|reductions?|the|as)\b")
# A value and its unit: "1,234.5" is one value (``claim_forms.NUMBER``), "1.84k tok/s" 1,840 tokens/s.
_VALUE = re.compile(r"(?P<v>" + NUMBER + r")(?P<k>[kK](?=\s*tok))?\s*"
                    r"(?:(?:decode|prefill|output|generated)\s+(?=tokens?/s|tok/s))?"   # "860 decode tokens/s"
                    r"(?P<u>×" + _COUNTED
                    + r"|[xX](?![A-Za-z])" + _COUNTED + r"|\$?\\times\$?" + _COUNTED + r"|times(?=" + _TIMES_WHAT + r")"
                    + r"|倍|%|percent\b|per cent\b"
                    + r"|ms\b|[µμ]s|us\b|s(?![A-Za-z/])|秒|GB/s|Gb/s|MB/s|TB/s|tokens?/s|tok/s|GiB|GB\b"
                    + r"|bits?\s+per\s+weight\b|bpw\b|bits?\b)")
# A clause ends at 。；;！!？?，or a newline, or at . , after a non-digit before a space or the end ("46.1" goes on),
# or at a digit's . before a capital ("… 620 ms at p99. LullKV delivers …"). Written as one character class first,
# so the scan skips to candidates instead of trying each position.
_CLAUSE = re.compile(r"[。；;！!？?\n.,，](?:(?<=[。；;！!？?\n，])|(?<=\D[.,])(?=\s|$)|(?<=\d\.)(?=\s+[A-Z]))")
# "NAME [(ID)] [的|'s] [a few CJK characters]" ending where a quantity's keyword starts ("Mooncake 传输" + "带宽",
# "KVShield（2610.14012）的代价是" + "TTFT", "升到 Lathe 2.4.3 以后" + "TTFT").
_NAME_AT_END = re.compile(r"(?<![A-Za-z0-9.+-])(?P<name>" + RELEASED + r")"
                          r"(?:\s*[（(]\s*" + ID_WRITTEN + r"\s*[)）])?"
                          r"(?:'s|\s*的)?\s*[\u4e00-\u9fff]{0,3}\s*$")
# The name right before a number: a whole word ("Llama-3.1-70B", not the "B" of "70B").
_NAME_BEFORE = re.compile(r"(?<![A-Za-z0-9.+-])(?P<name>" + RELEASED + r")\s*[:：]?\s*$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)*$", re.I)
# a factor of the load a figure is measured under ("under a 4x burst", "4 倍突发下"): a condition, no measurement
_LOAD_AFTER = re.compile(r"\s*" + LOAD_WORDS, re.I)
# what a speed in gigabits a second is the speed of, when it is a link's ("200 Gb/s NICs", "100 Gb/s 以太网")
_LINKS = (r"NICs?|RoCE|Ethernet|InfiniBand|IB|links?|rails?|ports?|networks?|fabric|switch(?:es)?|"
          r"以太网|网卡|网络|链路|交换机")
_LINK_AFTER = re.compile(r"\s*(?:的\s*)?(?:" + _LINKS + r")(?![A-Za-z])", re.I)
_LINK_BEFORE = re.compile(r"(?<![A-Za-z])(?:" + _LINKS + r")[^，,；;。\d]{0,6}$", re.I)   # "网卡是 400 Gb/s"
_OWN_NOUN = re.compile(r"\s*(?:of|的)\s")   # "20% of the GPU hours": the value's own whole after it
_THINKING = "thinking tokens"
_SAVING = re.compile(r"sav|cut|reduc|trim|shorten|fewer|省|减|少|降", re.I)   # a saving said before the share saved




def _names(text: str, at: int, name: str) -> bool:
    """May a bare factor at position ``at`` of ``text`` be ``name``'s? Not in a sentence of others' figures that does
    not name it ("Speculative decoding methods top out at 1.8x"; "we", "our", "it" name it)."""
    start, end = sentence_bounds(text, at)
    sentence = text[start:end].casefold()
    return name.casefold() in sentence or _OURS.search(sentence) is not None or not _OTHERS.search(text, start, at)


_OURS = re.compile(r"\b(?:we|our|it)\b")
_OTHERS = re.compile(r"\b(?:existing|prior|previous|conventional|current|state-of-the-art|baselines?|methods|"
                     r"approaches|systems|techniques|frameworks|engines)\b", re.I)
_UNIT = {"x": "×", "×": "×", "倍": "×", "times": "×", "percent": "%", "per cent": "%",
         "ms": "s", "µs": "s", "μs": "s", "us": "s", "s": "s", "秒": "s", "token/s": "tokens/s",
         "tokens/s": "tokens/s", "tok/s": "tokens/s", "bpw": "bit", "bits": "bit", "Gb/s": "GB/s"}
# A sign written right before a value ("−44%", "-22%", "+25%"): part of the figure as written. The minus sign
# (U+2212) is one wherever it stands; a hyphen or plus only where no letter, digit or dot precedes it, so a
# range ("30-40%") or a name ("Llama-3") keeps its hyphen.
_SIGN_BEFORE = re.compile(r"(?:−|(?<![0-9A-Za-z.])[-+])$")
# A value is compared in its unit's base: a bandwidth in gigabits a second is an eighth of one in gigabytes ("21.4 Gb/s"
# written for a paper's "21.4 GB/s" is another figure, as "2.1 s" for "2.1 ms" is).
_SCALE = {"ms": 1e-3, "µs": 1e-6, "μs": 1e-6, "us": 1e-6, "Gb/s": 1 / 8}
# A width in bits is only ever a quantized model's bits per weight here, said so by its unit ("2.75 bpw", "2.75 bits
# per weight") or by a keyword right before it ("每个权重 3.25 bit"); "2/3/4 bit", "the KV cache at 2 bits" are none.
_BITS = "bits per weight"
_PER_WEIGHT = re.compile(r"bpw|bits?\s+per\s+weight")


@dataclass(frozen=True)
class Claim:
    subject: str | None      # a coined name written before the value, else None: the item itself
    quantity: str            # ttft, throughput, bandwidth, speedup …
    unit: str                # ×, s, GB/s, tokens/s …
    value: float
    written: str             # as written, sign and all: "2.4×", "380 ms", "−44%"
    where: str
    over: str | None = None  # the named system a factor is over ("2.3x faster than FlashAttention-2"), if written
    # where the value stands in the text it was read from (start, end), for the conditions around it
    # (``conditions.py``); not part of what the claim says
    span: tuple[int, int] = field(default=(-1, -1), compare=False)
    # the subject is the one the text is about (``claims_in``'s ``about``), no name written before the value
    implied: bool = field(default=False, compare=False)


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


_PLURAL = re.compile(r"^e?s\b")
_PERCENTILE_AT_END = re.compile(r"(?<![A-Za-z0-9])" + PERCENTILE + r"\s*$")


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
        starts = m.start() - len(before) + (low.start("v") if low is not None else len(before))
        if low is not None:     # the range is read as one figure, written where it starts
            before = before[:low.start()]
        carried = _carried(out[-1] if out else None, before, m, after) or _said_again(out, text, before, m)
        release = released_over(text, m.start())   # a release's changelog line is the release's, written as such
        claim = _claim(before, m, after, table, release or about, where, signed=low is None, carried=carried,
                       about_named=release is not None or about is None or _names(text, m.start(), about))
        if claim is None:
            continue
        if release is not None:
            claim = replace(claim, implied=False)
        if low is not None:   # one figure: its value the range's end, written as the range (``figures.span``)
            claim = replace(claim, written=f"{low['v']}–{claim.written}", span=(starts, claim.span[1]))
        out.append(claim)
    return out


def _carried(last: Claim | None, before: str, m: re.Match[str], after: str) -> Claim | None:
    """The claim before value ``m`` in its clause (``before``) whose quantity a list carries to it, if any ("in 3.8 s
    and a Llama-3.1-8B endpoint in 0.9 s", "38% … on R1 and 29% on QwQ-32B"): joined by a conjunction, no figure
    between, no new predicate after it (``new_predicate``: "… and keeps it warm for 300 s"), nothing the value is a
    share of after it ("and 20% of the GPU hours")."""
    if last is None or last.span[1] > m.start() or m.start() - last.span[1] > len(before):
        return None
    between = before[len(before) - (m.start() - last.span[1]):]
    if not AND.search(between) or FIGURE_AFTER.search(between) or _OWN_NOUN.match(after):
        return None
    return None if new_predicate(between) else last


def _said_again(out: list[Claim], text: str, before: str, m: re.Match[str]) -> Claim | None:
    """The claim before value ``m`` in its sentence whose quantity "it" carries to it ("time per output token rises by
    only 14% …; with a 16 GB budget, it rises by 37%"), if the value's clause says so and names none."""
    last = out[-1] if out else None
    if last is None or not _IT_AGAIN.search(before) or sentence_bounds(text, m.start())[0] > last.span[0]:
        return None
    return last


# a clause whose subject is the last figure's quantity again: "it rises by", "it cuts it by", "it adds"
_IT_AGAIN = re.compile(r"(?:^|[\s,;])it\s+(?:\w+\s+){0,1}(?:rises|falls|drops|grows|increases|decreases|"
                       r"climbs|shrinks|cuts|reduces|lowers|raises|adds)\s+(?:it\s+|them\s+)?(?:only\s+)?(?:by\s*)?$",
                       re.I)


def _claim(before: str, m: re.Match[str], after: str, table: Keywords, about: str | None, where: str, *,
           signed: bool = True, carried: Claim | None = None, about_named: bool = True) -> Claim | None:
    """The claim the value ``m`` makes, written between ``before`` and ``after`` in its clause, or None;
    ``carried``: the claim before it in a list, whose quantity is this one's if nothing else names one;
    ``about_named``: the value's sentence names ``about``."""
    if (_parenthesised(before, len(before)) or (table.baseline.search(before) and not _BOUND.search(before))
            or table.changed_to.match(after)):
        return None
    if m["u"] == "X" and (before[-1:].isalpha() or re.fullmatch(r"\d{3,}", m["v"])):
        return None   # "MI325X", "Ryzen 9 7950X": a device's model, no factor
    if table.misquoted.search(before):
        return None   # "昨天笔记里写成 Llama-3.1-70B … 0.9 s": the figure the author says was written wrong
    if m["u"] in ("%", "GB") and (TARGET_BEFORE.search(before) or TARGET_AFTER.match(after)):
        return None   # "at a quality target of 95%", "a 16 GB budget": the target or budget a figure is reached at
    if before.endswith(("^", "^{")) or _OVER_A_FIGURE.search(before):
        return None   # "$10^3\times$": a power's exponent; "to 62% over 45% for LRU": the baseline's figure
    if m["u"] in ("x", "X", "×", "倍") and _LOAD_AFTER.match(after):
        return None   # "under a 4x burst": the load it was measured under
    raw_unit = ("×" if "times" in m["u"] else m["u"].lower()) if m["u"] not in (
        "GB/s", "Gb/s", "MB/s", "TB/s", "GiB", "GB") else m["u"]
    per_weight = _PER_WEIGHT.fullmatch(raw_unit) is not None
    unit = "bit" if per_weight else _UNIT.get(raw_unit, raw_unit)
    if unit == "bit" and not (per_weight or keyword_right_before(before, table) == _BITS):
        return None
    if unit in ("GB", "GiB") and device_memory(before, float(m["v"].replace(",", "")), after):
        return None   # "an A100 40GB", "80GB A100s": the device's memory, a setting
    if unit in ("GB", "GiB") and stored_size(before):
        return None   # "对象存储上 … du 出来一共 1410.52817 GB": what a store holds, no memory a server uses
    if raw_unit == "Gb/s" and (_LINK_AFTER.match(after) or _LINK_BEFORE.search(before)):
        return None   # "On 200 Gb/s NICs", "100 Gb/s 以太网上": the link's speed, a setting
    cell, row_subject = _in_table_row(before)
    subject = _subject(cell, table) or row_subject
    implied, subject = subject is None and about is not None, subject or about
    listed = (carried.quantity,) if carried is not None and carried.unit == unit else ()
    # the paper a text is about is the speed-up's system only in a sentence naming it ("Speculative decoding methods
    # top out at 1.8x" is others' figure)
    named = subject if not implied or about_named else None
    quantity = _BITS if unit == "bit" else first_measured_in(unit, table, chain(readings(before, after, unit,
                                                                                         named, table), listed))
    if quantity == _THINKING and not _SAVING.search(before):
        return None   # "62% of thinking tokens re-verify steps": a share of them, no saving
    if quantity is None or _of_another_measure(before, after, unit, table):
        return None   # "2890x energy reduction", "energy consumption by 14.3%": not a quantity kb compares
    value = float(m["v"].replace(",", "")) * _SCALE.get(raw_unit, 1.0) * (1000 if m["k"] else 1)
    # the value compared is the figure without its sign: "−38%" and "reduces … by 38%" say the same
    sign = found.group() if signed and (found := _SIGN_BEFORE.search(before[-2:])) else ""
    over = over_named(after) if unit == "×" else None
    return Claim(subject, quantity, unit, round(value, 9), sign + m.group().strip(), where, over, m.span(), implied)


# a figure, then "over": the value after it is what the figure is over ("62% over 45% for LRU")
_OVER_A_FIGURE = re.compile(A_FIGURE + r"\s+over\s*$")
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
    if unit in IMPLIED:   # tokens/s, GB/s, GB measure what they say, whatever else the sentence names
        return False
    if (m := table.other_after.match(after)) and not _hyphened(after, m.start("w"), m.end("w")):
        return True
    tail = before[-60:]
    found = next(iter(deque((m for m in table.other_each.finditer(tail)
                             if not _hyphened(tail, m.start("w"), m.end("w"))), maxlen=1)), None)   # the last one
    if found is None or quantity_after(after, table) is not None:
        return False
    keyword = last_keyword(before[-60:], table)
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


# How much of a clause after a value is read: the quantity it is said of ("… to the time per output token").
AFTER = 40


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
