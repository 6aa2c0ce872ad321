"""Forms a figure is written in that say what it is before any word does (``claims.claims_in``): a range
("1.6–2.1×", "between 20% and 35%"), read as one figure, and a memory size written beside a GPU ("an A100 40GB"),
the device's, not a measurement; and the release a line's figures are of, named where the line starts or by the
heading above it ("**Lathe 2.5.0**" in a pasted changelog).
"""
from __future__ import annotations

import re

from pipeline.brief.claim_words import NAME

__all__ = ["device_memory", "range_low", "released_over"]

# A range's first figure, right before its last ("1.6–2.1×", "3.72x-4.86x", "1.22 to 2.00 times", "between 20% and
# 35%"): a unit of its own, if any, a factor's or a share's (a time or a size before "to" starts a change: "1.9 s to
# 0.8 s"); not part of a name or a version ("Llama-3-8B").
_LOW = r"(?<![\w.,-])(?P<v>\d(?:\d{0,2}(?:,\d{3})+|\d*)(?:\.\d+)?)\s*(?P<u>[xX×%]|倍|\$?\\times\$?)?\s*"
_RANGE_LOW = re.compile(r"(?:" + _LOW + r"(?:-{1,2}|[–—~～至到]|to)|between\s+" + _LOW.replace("?P<", "?P<b")
                        + r"and)\s*$", re.I)


def range_low(before: str, baseline: re.Pattern[str]) -> re.Match[str] | _Low | None:
    """The first figure of a range the value after ``before`` ends, or None; not a change's ("from 30% to 20%",
    "从 30% 到 20%": ``baseline``, the [claim_words] baseline words, before it)."""
    m = _RANGE_LOW.search(before, max(0, len(before) - 40))
    if m is None or baseline.search(before[:m.start()]):
        return None
    return _Low(m) if m["bv"] else m


class _Low:
    """A "between A and B" match read as a range's first figure (its groups named as the other form's)."""

    def __init__(self, m: re.Match[str]) -> None:
        self._m = m

    def __getitem__(self, group: str) -> str | None:
        return self._m["b" + group]

    def start(self, group: str | int = 0) -> int:
        return self._m.start("b" + group) if isinstance(group, str) else self._m.start()


# A GPU written right before or after a memory size: the device's ("an A100 40GB", "H100-80GB", "80GB A100s").
_DEVICE = r"(?:[A-Z]{1,3}\d{2,4}[A-Z]?|MI\d{3}X?)"
_DEVICE_BEFORE = re.compile(r"(?<![A-Za-z0-9])" + _DEVICE + r"(?:\s+(?:SXM\d?|PCIe))?[\s-]*$")
_DEVICE_AFTER = re.compile(r"\s*" + _DEVICE + r"(?![a-z])")


def device_memory(before: str, after: str) -> bool:
    """Is the memory size between ``before`` and ``after`` a GPU's ("an A100 40GB", "H100-80GB", "80GB A100s")?"""
    return _DEVICE_BEFORE.search(before) is not None or _DEVICE_AFTER.match(after) is not None


# A release: a name and its version ("Lathe 2.5.0", "vLLM v0.6.2").
_RELEASE = NAME + r"\s+[vV]?\d+(?:\.\d+)+"
# A line that labels what follows with a release: "Lathe 2.5.0 的 changelog：…", "Lathe 2.5.0 release notes: …"
_LABEL = re.compile(r"\s*(?:[-*>]\s*)*(?P<name>" + _RELEASE + r")(?:\s*的|['’]s)?[^:：\n]{0,16}[:：]")
# A line naming a release alone, maybe bold or a Markdown heading, maybe with its date: a changelog's section heading
# ("> **Lathe 2.5.0** (2026-11-19)", "### vLLM 0.7.0", or "Lathe 2.5.0 (2026-11-19)" as a note's entry keeps it)
_HEADING = re.compile(r"\s*(?:>\s*)*(?:#{1,6}\s+)?(?:\*\*)?(?P<name>" + _RELEASE + r")(?:\*\*)?"
                      r"\s*(?:[(（][^)）\n]{0,30}[)）])?\s*$")
_TEAM_SPEAKS = re.compile(r"\s*(?:[-*>]\s*)*(?:我们|咱们|我|our\b|we\b)", re.I)
_HEADING_REACH = 8   # lines above a figure a release's heading is looked for (a changelog's section)


def released_over(text: str, at: int) -> str | None:
    """The release the figure at ``at`` is of when no name is written by it: the one its line starts by labelling
    ("Lathe 2.5.0 的 changelog：CUDA graph 覆盖到 batch 256，decode TPOT −7.8%"), else the one a heading above it
    names, the nearest within a changelog's section ("**Lathe 2.5.0**" over "- decode: … median TPOT −8.7%")."""
    start = text.rfind("\n", 0, at) + 1
    m = _LABEL.match(text, start)
    if m is not None and m.end() <= at:
        return m["name"]
    if _TEAM_SPEAKS.match(text, start):   # the team's own line after a pasted changelog: not the release's figure
        return None
    for _ in range(_HEADING_REACH):
        if start == 0:
            return None
        start = text.rfind("\n", 0, start - 1) + 1
        line = text[start:text.find("\n", start) if "\n" in text[start:] else len(text)]
        if (h := _HEADING.match(line)) is not None:
            return h["name"]
        if line.lstrip().startswith("#"):   # another section's heading: its figures are not the release's
            return None
    return None
