"""The conditions a figure is given under, where one source gives one quantity of one system several values.

An abstract that writes "saves 38% of thinking tokens on DeepSeek-R1-Distill-Qwen-32B and 29% on QwQ-32B" or
"1.31x … on NVLink-connected H100 GPUs; on PCIe-connected L40S GPUs … the gain is 1.72x" gives each value under
its own condition: a model, a GPU, an interconnect (``[conditions]`` in data/briefing.toml, and model names
with their size, "Llama-3.1-70B", "70B"), or an item of a list read with "respectively" ("2.7%, 4.6% and 8.3%
… for JSON-schema, regular-expression and EBNF grammars, respectively"). A line elsewhere that names one of
those conditions beside its own value speaks of that value alone: "PCIe 的 L40S 上 … 1.31×"
gives PCIe the NVLink figure (``figures.conflicts``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

__all__ = ["ConditionWords", "fold", "sized_model", "value_conditions"]

# a model written with its size ("QwQ-32B", "DeepSeek-R1-Distill-Qwen-32B", "Llama-3.1-70B", "Qwen2.5-7B"), or
# the size alone ("a 70B model")
_MODEL = r"[A-Za-z][\w.]*(?:-[\w.]+)*-(?:\d+x)?\d+(?:\.\d+)?B|\d+(?:\.\d+)?B"
# where a sentence ends: a value's conditions are read within its sentence
_SENTENCE_END = re.compile(r"[。！？!?\n]|\.(?=\s|$)")
# a condition written after its value is introduced by one of these ("29% on QwQ-32B", "3.8 s for a 70B model")
_AFTER_WORD = re.compile(r"\b(?:on|for|with|at|under|using|across|over|via)\b|[（(]", re.I)
# a load level ("a 4x burst", "4 倍突发"): compared by its factor alone
_LOAD = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?:x|×|倍)\s*(?:bursts?|load|traffic|突发|负载|流量)", re.I)
# a figure, however written: the conditions of a value are not read past another's ("1.17× on H100 (1.35× on H20)")
_FIGURE = re.compile(r"(?<![A-Za-z\d.])\d(?:[\d.,]*\d)?\s*(?:%|×|[xX]\b|倍|ms\b|s\b|秒|GB/s|GB\b|tokens?/s|tok/s)"
                     r"(?!\s*(?:bursts?|load|traffic|突发|负载|流量))")
# where the words after a value stop being its own: its clause's end, or another figure
_STOP_AFTER = re.compile(r"[;；,，]|" + _FIGURE.pattern)
# the list a sentence's "respectively" reads its values against: "for A, B and C, respectively"
_RESPECTIVELY = re.compile(r"\b(?:for|on|with|in|under|across)\s+(?:the\s+)?(?P<items>[^;。]+?),?\s+respectively",
                           re.I)
_ITEM_SPLIT = re.compile(r"\s*(?:,\s*and\s+|,\s*or\s+|,|\band\b|\bor\b|、|和)\s*")


@dataclass(frozen=True)
class ConditionWords:
    """``[conditions]``: the devices and links a figure may be measured on, as written (case-insensitive), and
    other spellings of them (``aliases``: "以太网" is Ethernet)."""

    terms: tuple[str, ...] = ()
    aliases: tuple[tuple[str, str], ...] = ()

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """A device, a link, a model with its size or a load level, as a whole word (a plural or a hyphened suffix
        may follow: "H100s", "NVLink-connected")."""
        words = "|".join(re.escape(t) for t in sorted(self.terms, key=len, reverse=True))
        alternatives = "|".join(x for x in (words, _MODEL, _LOAD.pattern) if x)
        return re.compile(rf"(?<![\w.-])(?:{alternatives})(?=s?(?![\w.]))", re.I)

    def said(self, part: str) -> str:
        """``part`` folded (``fold``), with the canonical spelling of each alias and load level it writes: what a
        condition's forms (``_forms``) are looked for in."""
        low = part.casefold()
        return "".join([fold(part), *(fold(canonical) for alias, canonical in self.aliases if alias.casefold() in low),
                        *(_load_key(m["n"]) for m in _LOAD.finditer(part))])


def sized_model(name: str) -> bool:
    """Is ``name`` a model written with its size ("Llama-3.1-70B", "QwQ-32B"), a condition a figure is measured
    under rather than a system it measures?"""
    return re.fullmatch(_MODEL, name.strip(), re.I) is not None


def _sentence(text: str, at: int) -> tuple[int, int]:
    """The bounds of the sentence holding position ``at``."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, 0, at)), default=0)
    m = _SENTENCE_END.search(text, at)
    return start, m.start() if m else len(text)


def _terms(text: str, words: ConditionWords) -> list[str]:
    return [m.group() for m in words.pattern.finditer(text)]


def value_conditions(text: str, spans: Sequence[tuple[int, int]], words: ConditionWords,
                     among: set[str] | None = None) -> list[tuple[str, ...]]:
    """The conditions each value (its ``spans`` in ``text``, in order) is given under: those a "respectively"
    list assigns it; else those written after it in its clause, before any other figure, after "on", "for",
    "with" … or in brackets ("29% on QwQ-32B", "38%（R1）"); else those written before it since the last figure of
    its sentence ("on PCIe-connected L40S GPUs, … the gain is 1.72x", "QwQ-32B 省 29%"). The conditions are
    ``words``' terms and models, or, with ``among``, those of ``among`` the same words name ("JSON schema 下").
    """
    out: list[tuple[str, ...]] = []
    taken = 0   # where the words a value before took after it end: they are not the next value's
    for i, (start, end) in enumerate(spans):
        s_start, s_end = _sentence(text, start)
        listed = _respectively(text, spans, i, (s_start, s_end))
        if listed is not None and among is None:
            out.append(listed)
            continue
        after = text[end:s_end]
        after = after[:m.start()] if (m := _STOP_AFTER.search(after)) else after   # its own clause and figure
        lead = _AFTER_WORD.search(after)
        begin = max(s_start, taken, *(end_ for _, end_ in spans[:i] if s_start <= end_ <= start))
        before = text[begin:start]
        before = before[max((m.end() for m in _FIGURE.finditer(before)), default=0):]
        found = _named(after[lead.start():], words, among) if lead else ()
        taken = end + len(after) if found else taken
        out.append(found or _named(before, words, among))
    return out


def _named(part: str, words: ConditionWords, among: set[str] | None) -> tuple[str, ...]:
    if among is None:
        return tuple(m.group() for m in words.pattern.finditer(part))
    said = words.said(part)
    return tuple(sorted(c for c in among if any(f and f in said for f in _forms(c))))


def _respectively(text: str, spans: Sequence[tuple[int, int]], i: int, sentence: tuple[int, int]
                  ) -> tuple[str, ...] | None:
    """The item a "respectively" list after the sentence's values gives value ``i`` (its n-th value, the n-th
    item), when the list holds as many items as the sentence has values; else None."""
    inside = [k for k, (b, _) in enumerate(spans) if sentence[0] <= b < sentence[1]]
    m = _RESPECTIVELY.search(text, spans[inside[-1]][1], sentence[1]) if len(inside) >= 2 else None
    if m is None:
        return None
    items = [x for x in _ITEM_SPLIT.split(m["items"]) if x]
    if len(items) != len(inside):
        return None
    item = items[inside.index(i)]
    return (_head(item),)


def _head(item: str) -> str:
    """An item of a list without the noun the list shares ("JSON-schema" of "EBNF grammars"'s list: the last item
    carries the noun; the words of each are compared, ``mentioned``)."""
    return item.split()[0] if len(item.split()) > 1 else item


def fold(text: str) -> str:
    """``text`` without spaces, hyphens or case, as conditions are compared ("JSON schema" is "JSON-schema"); a
    load level by its factor ("a 4x burst" is "4 倍突发")."""
    m = _LOAD.fullmatch(text.strip())
    return _load_key(m["n"]) if m else re.sub(r"[\W_]", "", text).casefold()


def _load_key(factor: str) -> str:
    return f"<load {float(factor):g}>"   # no folded text holds "<" or a space


def _forms(condition: str) -> tuple[str, ...]:
    """The ways a line may write ``condition``: whole, or a model's name without its leading parts
    ("R1-Distill-Qwen-32B" for "DeepSeek-R1-Distill-Qwen-32B"), keeping its size and one part before it."""
    if _LOAD.fullmatch(condition.strip()):
        return (fold(condition),)
    parts = condition.split("-")
    return tuple(dict.fromkeys(fold("-".join(parts[k:])) for k in range(max(1, len(parts) - 1))))
