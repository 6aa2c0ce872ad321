"""Forms a figure is written in that say what it is before any word does (``claims.claims_in``): a range
("1.6–2.1×", "between 20% and 35%"), read as one figure, and a memory size written beside a GPU ("an A100 40GB"),
the device's, not a measurement; the system a factor is over ("1.7× over FlashAttention-2"); and the release a line's
figures are of, named where the line starts or by the heading above it ("**Lathe 2.5.0**" in a pasted changelog).
"""
from __future__ import annotations

import re
from collections import deque

from kb.names import coined
from pipeline.brief.claim_words import NAME

__all__ = ["NUMBER", "device_memory", "over_named", "range_low", "released_over", "releases_named",
           "under_another_release", "without_other_releases"]

# A number as written: "1,234.5" is one (1–3 digits and groups of three, else digits), starting with a digit outside any
# alternation, so the regex engine skips to the digits in C.
NUMBER = r"\d(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?"

# A range's first figure, right before its last ("1.6–2.1×", "3.72x-4.86x", "1.22 to 2.00 times", "between 20% and
# 35%", "24-36 μs"): a unit of its own, if any, the last's; not part of a name, a version or a power ("Llama-3-8B",
# "10^3"). A dash joins the two (an em dash only tight: "batch 64 — 2.1×" sets a condition off); "to", 至 and 到 join
# only factors and shares ("1.9 s to 0.8 s", "降了 30% 到 1.2 s" are changes).
_LOW = r"(?<![\w.,^-])(?P<v>" + NUMBER + r")(?:\s*(?P<u>[xX×%]|倍|\$?\\times\$?))?"
_RANGE_LOW = re.compile(r"(?:" + _LOW + r"(?P<c>\s*(?:-{1,2}|–|~|～)\s*|—|\s*(?P<w>至|到)\s*|\s+(?P<to>to)\s+)"
                        r"|between\s+" + _LOW.replace("?P<", "?P<b") + r"\s+and\s+)$", re.I)
_FROM = re.compile(r"(?<![A-Za-z])from(?![A-Za-z])|从", re.I)


def range_low(before: str, last: re.Match[str], baseline: re.Pattern[str]) -> re.Match[str] | _Low | None:
    """The first figure of the range whose last is ``last`` (a ``claims._VALUE`` match) written right after
    ``before``, or None: it is smaller than the last, in its unit if it writes one, and starts no change ("from 30% to
    20%", "从 30% 到 20%", "from 1.2x at batch size 1 to 3.4x": ``baseline``, the [claim_words] baseline words, right
    before it, or "from" before it in the clause when a word joins the two)."""
    m = _RANGE_LOW.search(before, max(0, len(before) - 40))
    if m is None:
        return None
    low = _Low(m) if m["bv"] else m
    unit = _kind(last["u"])
    worded = m["w"] or m["to"]
    if (low["u"] and _kind(low["u"]) != unit) or (worded and unit not in ("×", "%")) \
            or float(low["v"].replace(",", "")) >= float(last["v"].replace(",", "")) \
            or baseline.search(before[:m.start()]) or (worded and _FROM.search(before, 0, m.start())):
        return None
    return low


def _kind(unit: str) -> str:
    """A factor's or a share's unit however written ("x", "倍", "times", "$\\times$" → "×"; "percent" → "%")."""
    low = unit.lower()
    return "×" if low in ("x", "×", "倍") or "times" in low else "%" if low == "%" or low.startswith("per") else unit


class _Low:
    """A "between A and B" match read as a range's first figure (its groups named as the other form's)."""

    def __init__(self, m: re.Match[str]) -> None:
        self._m = m

    def __getitem__(self, group: str) -> str | None:
        return self._m["b" + group]

    def start(self, group: str | int = 0) -> int:
        return self._m.start("b" + group) if isinstance(group, str) else self._m.start()


# A GPU written right before or after a memory size that is a GPU's capacity: the device's ("an A100 40GB",
# "H100-80GB", "80GB A100s"); not "峰值显存 H100 62 GB" (measured on one), nor a number format's ("BF16 140 GB").
_DEVICE = r"(?!(?:FP|BF|INT|TF)\d)(?:[A-Z]{1,3}\d{2,4}[A-Z]?|MI\d{3}X?)"
_DEVICE_BEFORE = re.compile(r"(?<![A-Za-z0-9])" + _DEVICE + r"(?:\s+(?:SXM\d?|PCIe))?[\s-]*$")
_DEVICE_AFTER = re.compile(r"\s*" + _DEVICE + r"(?![a-z])")
_CAPACITIES = {16, 24, 32, 40, 48, 64, 80, 94, 96, 128, 141, 144, 180, 192, 256, 288}   # GB of the GPUs sold


def device_memory(before: str, value: float, after: str) -> bool:
    """Is the memory size ``value`` (GB) between ``before`` and ``after`` a GPU's ("an A100 40GB", "80GB A100s")?"""
    return value in _CAPACITIES and (_DEVICE_BEFORE.search(before) is not None
                                     or _DEVICE_AFTER.match(after) is not None)


# A release: a name and its version ("Lathe 2.5.0", "vLLM v0.6.2"), maybe the version it was upgraded to ("vLLM 0.6.2 →
# 0.7.0": the figures are 0.7.0's); a model and its size is none ("Llama 3.1 70B：", "Qwen 2.5 (72B, TP4)": the model a
# figure was measured on).
_RELEASE = NAME + r"\s+[vV]?\d+(?:\.\d+)+(?:\s*(?:→|->|=>|to|到)\s*[vV]?(?P<to>\d+(?:\.\d+)+))?"
_MODEL_SIZE = re.compile(r"[\s(（,，]\d+(?:\.\d+)?[BM]\b")
# A line that labels what follows with a release: "Lathe 2.5.0 的 changelog：…", "Lathe 2.5.0 release notes: …"
_LABEL = re.compile(r"\s*(?:[-*>]\s*)*(?P<name>" + _RELEASE + r")(?P<rest>(?:\s*的|['’]s)?[^:：\n]{0,16})[:：]")
# A line naming a release alone, maybe bold or a Markdown heading, maybe with its date: a changelog's section heading
# ("> **Lathe 2.5.0** (2026-11-19)", "### vLLM 0.7.0", or "Lathe 2.5.0 (2026-11-19)" as a note's entry keeps it)
_HEADING = re.compile(r"\s*(?:>\s*)*(?:#{1,6}\s+)?(?:\*\*)?(?P<name>" + _RELEASE + r")(?:\*\*)?"
                      r"(?P<rest>\s*(?:[(（][^)）\n]{0,30}[)）])?)\s*$")
# the team speaking in a line after a pasted changelog: its own measurement, not the release's figure
_TEAM_SPEAKS = re.compile(r"我们|咱们|(?<![A-Za-z])(?:our|we)(?![A-Za-z])", re.I)
_HEADING_REACH = 8   # lines above a figure a release's heading is looked for (a changelog's section)


def released_over(text: str, at: int) -> str | None:
    """The release the figure at ``at`` is of when no name is written by it: the one its line starts by labelling
    ("Lathe 2.5.0 的 changelog：CUDA graph 覆盖到 batch 256，decode TPOT −7.8%"), else the one a heading above it
    names, the nearest within a changelog's section ("**Lathe 2.5.0**" over "- decode: … median TPOT −8.7%"): not
    past a blank line, another section's heading or a line the team speaks in."""
    start = text.rfind("\n", 0, at) + 1
    m = _LABEL.match(text, start)
    if m is not None and m.end() <= at:
        return _release(m)
    if _TEAM_SPEAKS.search(text, start, at):
        return None
    for _ in range(_HEADING_REACH):
        if start == 0:
            return None
        start = text.rfind("\n", 0, start - 1) + 1
        line = text[start:text.find("\n", start) if "\n" in text[start:] else len(text)]
        if (h := _HEADING.match(line)) is not None:
            return _release(h)
        if not line.strip() or line.lstrip().startswith("#"):   # another paragraph or section: not the release's
            return None
    return None


def releases_named(title: str) -> set[str]:
    """The releases a title names ("Lathe 2.5.0 changelog（GitHub release 原文照贴）" → Lathe 2.5.0), as they compare
    (``_release_key``); none for a model and its size."""
    found = (_release(m) for m in re.finditer(rf"(?P<name>{_RELEASE})(?P<rest>[^\n]{{0,12}})", title))
    return {_release_key(r) for r in found if r}


def under_another_release(text: str, at: int, own: set[str]) -> bool:
    """Is the line of ``text`` at ``at`` another release's than ``own`` (``releases_named``), by the release its line
    is labelled with or the changelog heading above it (``released_over``)? A pasted changelog keeps the sections
    of earlier releases below the one the item is about ("**Lathe 2.4.3**" under "**Lathe 2.5.0**"). A line labelled
    with another release that writes the item's own version too compares the two ("Lathe 2.4.3 vs 2.5.0：TPOT 11.6 →
    10.9 ms", "Lathe 2.4.3 的 FP8 回归：2.5.0 修了"): the team's measurement of the upgrade, the item's."""
    if not own:
        return False
    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
    end = len(text) if end < 0 else end
    release = released_over(text, end)   # the whole line read: "我们…" is the team's own
    if release is None or _is_own(release, own):
        return False
    return not (_LABEL.match(text, start, end) and _names_own_version(text[start:end], own))


def without_other_releases(text: str, own: set[str]) -> str:
    """``text`` without what it writes of releases other than ``own``: a changelog heading naming another one and
    the lines under it (``under_another_release``). ``text`` itself when ``own`` names none."""
    if not own:
        return text
    kept, at = [], 0
    for line in text.split("\n"):
        heading = _HEADING.match(line)
        other = heading is not None and (r := _release(heading)) is not None and not _is_own(r, own)
        if not (other or under_another_release(text, at, own)):
            kept.append(line)
        at += len(line) + 1
    return "\n".join(kept)


def _is_own(release: str, own: set[str]) -> bool:
    """Is ``release`` one of ``own``, a release written with fewer parts naming its series: a title's "Lathe 2.5"
    is the changelog's "Lathe 2.5.0" (and its 2.5.1), not "Lathe 2.4.3" nor "Lathe 2.50"."""
    key = _release_key(release)
    return any(key == o or key.startswith(o + ".") or o.startswith(key + ".") for o in own)


def _names_own_version(line: str, own: set[str]) -> bool:
    """Does ``line`` write the version of one of ``own`` ("2.5.0" of "lathe 2.5.0"), or of its series ("2.5.1" of
    "lathe 2.5"), as a whole number?"""
    return any(re.search(rf"(?<![\d.]){re.escape(o.rsplit(' ', 1)[-1])}(?:\.\d+)*(?!\d)", line) for o in own)


def _release_key(release: str) -> str:
    """A release as releases compare: case and spacing aside, no "v" before its version ("vLLM v0.7.0")."""
    return re.sub(r"\s+[vV](?=\d)", " ", " ".join(release.split())).casefold()


def _release(m: re.Match[str]) -> str | None:
    """The release ``m`` names (the version upgraded to, when it names two), or None for a model and its size."""
    if _MODEL_SIZE.search(m["name"] + m["rest"]):
        return None
    if m["to"]:
        return re.sub(r"\s+[vV]?\d+(?:\.\d+)+.*$", "", m["name"]) + " " + m["to"]
    return m["name"]


# the system a factor is over, named a few words after it ("1.7× over FlashAttention-2", "2.3x faster than vLLM's
# kernel", "2.1× higher throughput vs SGLang")
_OVER_NAMED = re.compile(r"\s*(?:[A-Za-z][\w-]*\s+){0,3}?(?:over|than|vs\.?|versus)\s+(?P<name>" + NAME + r")", re.I)
_OVER_RIGHT_AFTER = re.compile(r"\s*(?:over|vs\.?|versus)\s+(?P<name>" + NAME + r")", re.I)


def over_named(after: str, *, right_after: bool = False) -> str | None:
    """The system a factor is over, named by its coined name a few words after it (``_OVER_NAMED``; ``right_after``:
    with no word between, "1.7× over FlashAttention-2"), or None: "2× more often than the throughput suggests" and
    "4.1x sooner than loading from …" name none."""
    m = (_OVER_RIGHT_AFTER if right_after else _OVER_NAMED).match(after)
    return m["name"] if m is not None and coined(m["name"]) and not _DTYPE.match(m["name"]) else None


# a number format, no system: "3.5× over FP16" compresses, "2× over INT8" is a format's figure
_DTYPE = re.compile(r"(?:FP|BF|INT|UINT|TF|MXFP|NVFP)\d|W\d+A\d+|E\dM\d", re.I)


# a size of what is kept in storage, written in the clause before it ("对象存储上 … 一共 1,311 GB", "adapter 仓库 …")
_STORED = re.compile(r"对象存储|网盘|硬盘|磁盘|仓库|目录|\bdu\b|object storage|\bon disk\b|director(?:y|ies)", re.I)
_CLAUSE_BREAK = re.compile(r"[，；。,;]")
_MEMORY_WORD = re.compile(r"显存|内存|memory|HBM|KV", re.I)   # … unless memory is named after the store


def stored_size(before: str) -> bool:
    """Is a size written after a word of storage in its clause ("对象存储上 … 一共 1,311 GB"), no memory named since
    ("模型目录挪到本地 NVMe 后冷启动 38 s，每卡峰值占用 71 GB" is a GPU's)?"""
    before = before[max((m.end() for m in _CLAUSE_BREAK.finditer(before)), default=0):]
    found = deque(_STORED.finditer(before), maxlen=1)
    return bool(found) and not _MEMORY_WORD.search(before, found[0].end())
