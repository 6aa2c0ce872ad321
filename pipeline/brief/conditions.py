"""The conditions a figure is given under, where one source gives one quantity of one system several values.

An abstract that writes "saves 38% of thinking tokens on DeepSeek-R1-Distill-Qwen-32B and 29% on QwQ-32B" or
"1.31x … on NVLink-connected H100 GPUs; on PCIe-connected L40S GPUs … the gain is 1.72x" gives each value under
its own condition: a model, a GPU, an interconnect, a precision, a phase … (``[conditions]`` in data/briefing.toml,
and model names with their size, "Llama-3.1-70B", "70B"), a load level ("a 4x burst"), a count, a percentile, a
dataset, a quality target or a memory budget, a baseline ("against round-robin routing"), a share ("a fifth of the
traffic"), or an item of a list read with "respectively" ("2.7%, 4.6% and 8.3% … for JSON-schema, regular-expression
and EBNF grammars, respectively"). A line elsewhere that names one of those conditions beside its own value speaks
of that value alone: "PCIe 的 L40S 上 … 1.31×" gives PCIe the NVLink figure (``figures.conflicts``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

__all__ = ["LOAD_WORDS", "PERCENTILE", "TARGET_AFTER", "TARGET_BEFORE", "ConditionWords", "fold", "sentence_bounds",
           "sized_model", "value_conditions"]

# a model written with its size ("QwQ-32B", "DeepSeek-R1-Distill-Qwen-32B", "Llama-3.1-70B", "Qwen2.5-7B"), or
# the size alone ("a 70B model")
_MODEL = r"[A-Za-z][\w.]*(?:-[\w.]+)*-(?:\d+x)?\d+(?:\.\d+)?B|\d+(?:\.\d+)?B"
# a dataset, a trace or a workload by its proper name, right after "on" or "in" ("31% on HotpotQA and 19% on Natural
# Questions"): up to four capitalised words, not a part of the text ("in Table 2") nor a vendor before its device
# ("on NVIDIA H100 GPUs" is the H100)
_NAMED = (r"(?:(?<=\bon )|(?<=\bin )|(?<=\bon the )|(?<=\bin the ))"
          r"(?!(?:Table|Figure|Fig|Section|Appendix|NVIDIA|AMD|Google|Intel|Apple|Qualcomm|Huawei)\b)"
          r"(?-i:[A-Z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?:\s+[A-Z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*){0,3})")
# an image's resolution ("for 448×448 images"). Not a batch size: a source's figure at batch 128 against the paper's
# at batch 64 is still a conflict to read (day 24's CoDraft)
_RESOLUTION = r"\d{2,5}\s*[×xX]\s*\d{2,5}"
# a degree of parallelism ("with TP=2 … with TP=8", "EP 16", "TP2")
_PARALLEL = r"(?:TP|PP|EP|DP)\s*=?\s*\d+"
# … each as one spelling ("TP2" is "TP=2", "448x448" is "448×448")
_SPELLED = re.compile(rf"(?P<res>{_RESOLUTION})|(?P<par>{_PARALLEL})", re.I)
# a percentile a latency is given at ("140 ms at p50 and 620 ms at p99"; "p99 TTFT 只有 140 ms")
PERCENTILE = r"[pP]\d{2,3}(?:\.\d)?"
# a quality target a figure is reached at ("at a quality target of 95% … 58%", "质量目标定在 99%", "99% 的质量目标"):
# its percentage is the condition's, no figure of the paper's
TARGET = (r"(?:(?:quality|accuracy)\s+)?target\s+of\s+(?P<t1>\d+(?:\.\d+)?)\s*%"
          r"|目标\s*(?:定在|设在|设为|设成|为|是)?\s*(?P<t2>\d+(?:\.\d+)?)\s*%"
          r"|(?P<t3>\d+(?:\.\d+)?)\s*%\s*(?:的\s*)?(?:质量)?目标"
          r"|(?P<t4>\d+(?:\.\d+)?)\s*%\s+(?:quality|accuracy)\s+target")
# … or a memory budget ("With a 40 GB GPU memory budget … 14%; with a 16 GB budget, … 37%", "显存预算压到 16 GB")
BUDGET = (r"(?P<b1>\d+(?:\.\d+)?)\s*GB\s+(?:(?:GPU|HBM)\s+)?(?:memory\s+)?budget"
          r"|budget\s+of\s+(?P<b2>\d+(?:\.\d+)?)\s*GB|预算\s*(?:压到|降到|设为|设成|为|是|只有)?\s*(?P<b3>\d+(?:\.\d+)?)\s*GB")
_TARGET = re.compile(rf"{TARGET}|{BUDGET}", re.I)
# … the words around a value that make it a target's or a budget's, no figure of the paper's ("target of 95%",
# "99% 质量目标", "a 16 GB budget", "预算压到 16 GB")
TARGET_BEFORE = re.compile(r"(?:target\s+of|目标\s*(?:定在|设在|设为|设成|为|是)?|budget\s+of|"
                           r"预算\s*(?:压到|降到|设为|设成|为|是|只有)?)\s*$", re.I)
TARGET_AFTER = re.compile(r"\s*(?:的\s*)?(?:质量)?目标|\s+(?:quality|accuracy)\s+target|"
                          r"\s+(?:(?:GPU|HBM)\s+)?(?:memory\s+)?budget", re.I)
# a share of the work a figure is given at ("when long prompts make up a fifth of the traffic … half of it")
_SHARE_WORD = r"(?:an?\s+)?(?:half|third|quarter|fifth|tenth)|(?:two|three)[\s-]+(?:thirds|quarters|fifths)"
_SHARE = _SHARE_WORD + r"(?=\s+of\b)"
# the baseline a figure is measured against ("Against round-robin routing, … 47%; against least-loaded routing, …
# 19%"): its first word ("比 least-loaded 路由" says it)
_BASELINE = re.compile(r"(?:against|compared\s+(?:with|to)|relative\s+to)\s+(?:the\s+|an?\s+)?"
                       r"(?P<b>[A-Za-z][\w.]*(?:-[\w.]+)*)", re.I)
# where a sentence ends: a value's conditions are read within its sentence
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
# a condition written after its value is introduced by one of these ("29% on QwQ-32B", "3.8 s for a 70B model",
# "2,310 tokens/s per H100")
_AFTER_WORD = re.compile(r"\b(?:on|in|for|with|at|under|using|across|over|via|per|when|once|if|against|compared|"
                         r"relative)\b|[（(]", re.I)
# a condition named only as what another is set against ("比起 H100，L40S 上 …", "than on A100"): not the value's
_CONTRAST = re.compile(r"(?:比起|相比于?|对比|不同于|\bthan(?:\s+on)?|\bvs\.?|\bversus|\bcompared\s+(?:to|with)|"
                       r"\bover)\s*$", re.I)
# what a factor before it is the load of ("a 4x burst", "4 倍突发"): a load level, compared by its factor alone
LOAD_WORDS = r"(?:bursts?|load|traffic|突发|负载|流量)(?![A-Za-z])"
_LOAD = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?:x|×|倍)\s*" + LOAD_WORDS, re.I)
# a figure, however written: the conditions of a value are not read past another's ("1.17× on H100 (1.35× on H20)")
_FIGURE = re.compile(r"(?<![A-Za-z\d.])\d(?:[\d.,]*\d)?\s*(?:%|×|[xX]\b|倍|ms\b|s\b|秒|GB/s|GB\b|tokens?/s|tok/s)"
                     r"(?!\s*" + LOAD_WORDS + r"|\d)")   # not "448×448", a resolution
# a clause's end, and a semicolon's, within a sentence
_CLAUSE_BREAK = re.compile(r"[;；,，]")
_SEMICOLON = re.compile(r"[;；]")
# where the words after a value stop being its own: its clause's end, or another figure
_STOP_AFTER = re.compile(_CLAUSE_BREAK.pattern + "|" + _FIGURE.pattern)
# the list a sentence's "respectively" reads its values against: "for A, B and C, respectively"
_RESPECTIVELY = re.compile(r"\b(?:for|on|with|in|under|across)\s+(?:the\s+)?(?P<items>[^;。]+?),?\s+respectively",
                           re.I)
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*and\s+|,\s*or\s+|,|\band\b|\bor\b|、|和)\s*")


@dataclass(frozen=True)
class ConditionWords:
    """``[conditions]``: the devices and links a figure may be measured on, as written (case-insensitive), other
    spellings of them (``aliases``: "以太网" is Ethernet), and the things a count condition counts (``counts``: a
    word as written → the thing, "轮" → "turn": "in 16-turn sessions" is "16 轮的会话")."""

    terms: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()
    counts: tuple[tuple[str, str], ...] = ()
    verbs: frozenset[str] = frozenset()   # terms whose "-s" form is a verb ("PaceSpec decodes 2.2x faster"): none
    weak: tuple[str, ...] = ()   # a phase, a cache state, a workload: a value's condition only where no other is

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A term (a device, a link, a precision; a weak one: a phase, a cache state, a workload), a model with its
        size, a load level, a count ("4-turn", "16K-token"), a percentile, a resolution, a degree of parallelism or
        a dataset's name after "on" or "in", as a whole word (a plural or a hyphened suffix may follow: "H100s",
        "NVLink-connected")."""
        words = "|".join(re.escape(t) + (r"(?!s\b)" if t.casefold() in self.verbs else "")
                         for t in sorted((*self.terms, *self.weak), key=len, reverse=True))
        alternatives = "|".join(x for x in (words, _MODEL, _LOAD.pattern, self._count.pattern, PERCENTILE,
                                            _RESOLUTION, _PARALLEL, TARGET, BUDGET, _SHARE, _BASELINE.pattern,
                                            _NAMED) if x)
        # … ending a word, or a sentence ("by 2.7x with TP=8."), not a longer name ("v5e.1")
        return re.compile(rf"(?<![\w.-])(?:{alternatives})(?=s?(?!\w|\.\w))", re.I)

    @cached_property
    def _count(self) -> re.Pattern[str]:
        """A number of things counted ("4-turn", "16K-token", "16 轮", "16K 的 prompt"); without counts, nothing."""
        if not self.counts:
            return re.compile(r"(?!)")
        things = "|".join(re.escape(w) for w, _ in sorted(self.counts, key=lambda c: len(c[0]), reverse=True))
        return re.compile(rf"(?P<cn>\d+(?:\.\d+)?)\s*(?P<ck>[KkM])?(?:-|\s*(?:的\s*)?)(?P<cu>{things})", re.I)

    def canonical(self, condition: str) -> str:
        """A count as one spelling for every language ("16 轮" and "16-turn" are "16-turn"), a resolution or a degree of
        parallelism as one spelling ("448x448" is "448×448", "TP2" "TP=2"), a quality target as "target 95%", a share
        without its article ("a fifth" is "fifth"), a baseline as "vs" and its first word; anything else as it is."""
        if target := _TARGET.fullmatch(condition.strip()):
            if budget := target["b1"] or target["b2"] or target["b3"]:
                return f"budget {budget} GB"
            return f"target {target['t1'] or target['t2'] or target['t3'] or target['t4']}%"
        if baseline := _BASELINE.fullmatch(condition.strip()):
            return f"vs {baseline['b']}"
        if re.fullmatch(_SHARE_WORD, condition.strip(), re.I):   # "a fifth" is "fifth", "two thirds" "two-thirds"
            words = condition.casefold().replace("-", " ").split()
            return "-".join(words[-2:]) if words[0] in ("two", "three") else words[-1]
        if spelled := _SPELLED.fullmatch(condition.strip()):
            digits = re.findall(r"\d+", spelled.group())
            return "×".join(digits) if spelled["res"] else f"{spelled.group()[:2].upper()}={digits[0]}"
        m = self._count.fullmatch(condition.strip())
        if m is None:
            return condition
        thing = dict((w.casefold(), t) for w, t in self.counts)[m["cu"].casefold()]
        return f"{m['cn']}{(m['ck'] or '').upper()}-{thing}"

    @cached_property
    def _terms(self) -> frozenset[str]:
        return frozenset(t.casefold() for t in (*self.terms, *self.weak))

    @cached_property
    def _weak(self) -> frozenset[str]:
        return frozenset(w.casefold() for w in self.weak)

    def strongest(self, found: tuple[str, ...]) -> tuple[str, ...]:
        """``found`` less its weak conditions (``weak``) when it holds another."""
        return tuple(f for f in found if f.casefold() not in self._weak) or found

    def is_weak(self, condition: str) -> bool:
        """Is ``condition`` one of the weak ones (a phase, a cache state, a workload, an hour, a language)?"""
        return condition.casefold() in self._weak

    def is_term(self, name: str) -> bool:
        """Is ``name`` one of the devices or links ("L40S", "H100"), a condition rather than a system?"""
        return name.strip().casefold() in self._terms

    def said(self, part: str) -> str:
        """``part`` folded (``fold``), with the canonical spelling of each alias and load level it writes: what a
        condition's forms (``_forms``) are looked for in, each between separators."""
        low = part.casefold()
        return "".join([fold(part), *(fold(canonical) for alias, canonical in self.aliases if alias.casefold() in low),
                        *(_load_key(m["n"]) for m in _LOAD.finditer(part)),
                        *(fold(self.canonical(m.group())) for m in (*self._count.finditer(part),
                                                                     *_SPELLED.finditer(part),
                                                                     *_TARGET.finditer(part)))])


def sized_model(name: str) -> bool:
    """Is ``name`` a model written with its size ("Llama-3.1-70B", "QwQ-32B"), a condition a figure is measured
    under rather than a system it measures?"""
    return re.fullmatch(_MODEL, name.strip(), re.I) is not None


def sentence_bounds(text: str, at: int) -> tuple[int, int]:
    """The bounds of the sentence holding position ``at``."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    m = _SENTENCE_END.search(text, at)
    return start, m.start() if m else len(text)


def value_conditions(text: str, spans: Sequence[tuple[int, int]], words: ConditionWords,
                     among: set[str] | None = None) -> list[tuple[str, ...]]:
    """The conditions each value (its ``spans`` in ``text``, in order) is given under: those a "respectively"
    list assigns it; else those written after it in its clause, before any other figure, after "on", "for",
    "per" … or in brackets ("29% on QwQ-32B", "38%（R1）"); else those written before it since the last figure of
    its sentence ("on PCIe-connected L40S GPUs, … the gain is 1.72x", "QwQ-32B 省 29%"); else those its sentence
    writes before its first value, which every such value shares ("On H100, … 1.9x at 8K and 3.1x at 128K"). A
    sentence's opening setting ("On ShareGPT, … 54% … p50 … 21%", "With int4 weights, …") is every value's up to a
    semicolon, and so is one after its last value where each has its own before it (``_closing_shared``); weak
    conditions yield to strong ones unless they tell the values apart (``_weak_apart``). A
    condition set against another ("比起 H100", "than on A100") is none. The conditions are ``words``' terms and
    models, or, with ``among``, those of ``among`` the same words name ("JSON schema 下")."""
    out: list[tuple[str, ...]] = []
    trailing: list[str | None] = []   # the words before each value whose conditions were written after it
    owned: list[bool] = []   # whether each value has conditions of its own (not its sentence's opening setting)
    taken = 0   # where the words a value before took after it end: they are not the next value's
    for i, (start, end) in enumerate(spans):
        s_start, s_end = sentence_bounds(text, start)
        listed = _respectively(text, spans, i, (s_start, s_end), words)
        if listed is not None and among is None:
            out.append(listed)
            trailing.append(None)
            owned.append(False)
            continue
        after = _own_clause(text[end:s_end])
        lead = _AFTER_WORD.search(after)
        earlier = [e for _, e in spans[:i] if s_start <= e <= start]
        first = min([b for b, _ in spans if s_start <= b < s_end], default=start)
        opening = _OPENING.match(text, s_start, first) if among is None else None
        opening = None if opening and _FIGURE.search(opening.group()) else opening
        # … up to a semicolon ("On a rail-optimized fabric, … 38%; on a two-tier fat-tree fabric, … 17%")
        shared = _named(opening.group(), words, among) if opening and not _SEMICOLON.search(
            text, opening.end(), start) else ()
        before = text[max(opening.end() if opening else s_start, taken, *earlier):start]
        before = before[_last_figure_end(before):]
        found = _named(after[lead.start():], words, among) if lead else ()
        taken = end + len(after) if found else taken
        own = found or _named_before(before, words, among) or (_named(text[s_start:first], words, among)
                                                                if earlier and first < start else ())
        out.append(tuple(dict.fromkeys((*own, *shared))))
        trailing.append(before if found else None)
        owned.append(bool(own))
    out = _closing_shared(text, spans, out, trailing, owned, words, among)
    return out if among is not None else _weak_apart(text, spans, out, words)


def _weak_apart(text: str, spans: Sequence[tuple[int, int]], out: list[tuple[str, ...]],
                words: ConditionWords) -> list[tuple[str, ...]]:
    """Each value's conditions less its weak ones beside a strong one (``ConditionWords.strongest``: "… per GPU in
    decode on NVLink-connected H100 GPUs" is the H100's), unless the weak ones are what tell the sentence's values
    apart: two values of it under different ones ("52% for English prompts and … 29% for Chinese prompts on
    Qwen2.5-72B": the language, not the model every value is measured on)."""
    for inside in _by_sentence(text, spans):
        weak = {frozenset(c for c in out[k] if words.is_weak(c)) for k in inside} - {frozenset()}
        if len(weak) < 2:
            for k in inside:
                out[k] = words.strongest(out[k])
    return out


def _by_sentence(text: str, spans: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The values' indexes, sentence by sentence."""
    found: dict[tuple[int, int], list[int]] = {}
    for i, (start, _) in enumerate(spans):
        found.setdefault(sentence_bounds(text, start), []).append(i)
    return list(found.values())


def _closing_shared(text: str, spans: Sequence[tuple[int, int]], out: list[tuple[str, ...]],
                    trailing: list[str | None], owned: list[bool], words: ConditionWords,
                    among: set[str] | None) -> list[tuple[str, ...]]:
    """Each value given too the setting written after its sentence's last value ("… p99 TTFT by 54% and p50 TTFT by
    21% on ShareGPT": ShareGPT is both's) where that setting cannot be what tells the values apart: every other value
    of the sentence has a condition of its own written before it ("p99", "p50"), none after it. "1.9x on H100 and
    2.4x on A100" writes each value's after it, and in "0.19 s when … hits … and 1.36 s on a miss" the first value has
    none: there the last value's setting stays its own. The last value keeps the condition before it too ("p50")."""
    for inside in _by_sentence(text, spans):
        # … within the last value's clause: "1.9x faster, while its decode on a Jetson Orin is 2.4x faster with int4
        # weights" keeps int4 the Orin's
        while len(inside) > 1 and _CLAUSE_BREAK.search(text, spans[inside[0]][1], spans[inside[-1]][0]):
            inside = inside[1:]
        last, others = inside[-1], inside[:-1]
        if not others or trailing[last] is None or any(trailing[k] is not None or not owned[k] for k in others):
            continue
        closing = out[last]
        out[last] = tuple(dict.fromkeys((*_named(trailing[last], words, among), *closing)))
        for k in others:
            out[k] = tuple(dict.fromkeys((*out[k], *closing)))
    return out


def _own_clause(after: str) -> str:
    """The words after a value that may be its own: to its clause's end or the next figure, not a target's percentage
    ("58% at a quality target of 95% and by 31% …" reads the target)."""
    inside = [m.span() for m in _TARGET.finditer(after)]
    for m in _STOP_AFTER.finditer(after):
        if not any(a <= m.start() < b for a, b in inside):
            return after[:m.start()]
    return after


def _last_figure_end(before: str) -> int:
    """Where the last figure written in ``before`` ends, not one of a condition ("at a target of 99% it cuts …"), or
    0: the words after it are the next value's."""
    ends = [m.end() for m in _FIGURE.finditer(before)]
    if not ends or not _TARGET.search(before):
        return max(ends, default=0)
    inside = [m.span() for m in _TARGET.finditer(before)]
    return max((e for e in ends if not any(a < e <= b for a, b in inside)), default=0)


# a sentence's opening setting, a clause of its own before its first value ("On ShareGPT, ", "With int4 weights, ")
_OPENING = re.compile(r"\s*(?:on|with|for|under|using|across|in|at)\b[^,，。;；]*[,，]", re.I)


def _named_before(before: str, words: ConditionWords, among: set[str] | None) -> tuple[str, ...]:
    """The conditions written before a value. A line's (``among``) are its nearest clause's that names one: in
    "英文摘要里写的：中文 prompt 省 29%" the English is the abstract's, in "我们线上…占一半；摘要说占五分之一流量时…"
    the half is the team's own traffic; "PCIe 的 L40S 上，加速 1.31×" reads the clause before "加速"."""
    if among is None:
        return _named(before, words, among)
    for clause in reversed(_LINE_CLAUSE.split(before)):
        if found := _named(clause, words, among):
            return found
    return ()


_LINE_CLAUSE = re.compile(r"[;；,，:：]")


def _named(part: str, words: ConditionWords, among: set[str] | None) -> tuple[str, ...]:
    """The conditions ``part`` names, less those it sets another against."""
    part = "".join(piece for piece in _uncontrasted(part, words))
    if among is None:   # weak ones too: whether they tell values apart is the sentence's (``_weak_apart``)
        return tuple(words.canonical(m.group()) for m in words.pattern.finditer(part))
    said = words.said(part)
    return tuple(sorted(c for c in among if any(f"|{f}|" in said or f"|{f}s|" in said for f in _forms(c))))


def _uncontrasted(part: str, words: ConditionWords) -> list[str]:
    """``part`` without each condition a contrast word stands right before ("比起 H100", "than on A100")."""
    pieces, at = [], 0
    for m in words.pattern.finditer(part):
        if _CONTRAST.search(part, 0, m.start()):
            pieces.append(part[at:m.start()])
            at = m.end()
    return [*pieces, part[at:]]


def _respectively(text: str, spans: Sequence[tuple[int, int]], i: int, sentence: tuple[int, int],
                  words: ConditionWords) -> tuple[str, ...] | None:
    """The item a "respectively" list gives value ``i`` (its n-th value, the n-th item), when the list holds as many
    items as the sentence has values: written after them ("for A, B and C, respectively") or, as the conditions
    before the first of them ("On H100 and A100 GPUs, … 1.8x and 2.4x …, respectively"). A sentence saying
    "respectively" whose list is not read gives its values no condition (``()``); else None."""
    inside = [k for k, (b, _) in enumerate(spans) if sentence[0] <= b < sentence[1]]
    if len(inside) < 2 or "respectively" not in text[sentence[0]:sentence[1]].casefold():
        return None
    m = _RESPECTIVELY.search(text, spans[inside[-1]][1], sentence[1])
    items = [x for x in _ITEM_SPLIT.split(m["items"]) if x] if m else \
        [t.group() for t in words.pattern.finditer(text, sentence[0], spans[inside[0]][0])]
    if len(items) != len(inside):
        return ()
    return (_head(items, inside.index(i)),)


def _head(items: list[str], k: int) -> str:
    """Item ``k`` of a list; the last without the noun the list shares, when the others are one word each ("EBNF" of
    "JSON-schema, regex and EBNF grammars")."""
    if k == len(items) - 1 and all(len(x.split()) == 1 for x in items[:-1]):
        return items[k].split()[0]
    return items[k]


def fold(text: str) -> str:
    """``text`` lower-cased with every run of what is not a letter, digit or dot as one separator ("|"): conditions
    are compared word by word, however spaced or hyphened ("JSON schema" is "JSON-schema", "H20" is not "H200"); a
    load level by its factor ("a 4x burst" is "4 倍突发")."""
    m = _LOAD.fullmatch(text.strip())
    if m:
        return _load_key(m["n"])
    return "|" + "|".join(re.findall(r"[a-z0-9.]+", text.casefold())) + "|"


def _load_key(factor: str) -> str:
    return f"|<load {float(factor):g}>|"


def _forms(condition: str) -> tuple[str, ...]:
    """The ways a line may write ``condition``, between separators: whole, or a model's name without its leading
    parts ("R1-Distill-Qwen-32B" for "DeepSeek-R1-Distill-Qwen-32B"), keeping its size and one part before it."""
    if _LOAD.fullmatch(condition.strip()):
        return (fold(condition).strip("|"),)
    if condition.startswith("vs "):   # a baseline, by its name ("比 SGLang", "than SGLang")
        return (fold(condition[3:]).strip("|"),)
    parts = fold(condition).strip("|").split("|")
    return tuple(dict.fromkeys("|".join(parts[k:]) for k in range(max(1, len(parts) - 1))))
