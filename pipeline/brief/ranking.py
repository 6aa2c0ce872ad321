"""How the briefing orders what it shows and how dense the day was: tiers (what a reader needs first), the
category order of §2, and the density level against the trailing briefings."""
from __future__ import annotations

import re
from typing import Any

from pipeline.brief.model import Candidate
from pipeline.brief.rules import Rules

__all__ = ["CATEGORY_ORDER", "RELEVANCE_ORDER", "measured", "tier", "rank", "density"]


CATEGORY_ORDER = {"engineering": 0, "net-new": 1, "confirmation": 2}


RELEVANCE_ORDER = {"primary": 0, "adjacent": 1, "none": 2}


_VERSION = re.compile(r"v?\d+(?:\.\d+)+", re.I)


def measured(c: Candidate) -> bool:
    """The item carries a measurement or a setting, not only a release's version number."""
    return any(not _VERSION.fullmatch(f.strip()) for f in c.facts)


def tier(c: Candidate) -> int:
    """How much a reader needs the item, before its score: what is new and central first — what the
    team itself brought in, then the team's observations awaiting verification, then what only public
    sources carry — then what is adjacent, then confirmations, recaps last."""
    team = any(s.kind in ("entry", "card") for s in c.sources)
    fresh = c.category == "net-new" or (c.category == "engineering" and measured(c))
    if fresh and c.relevance == "primary":
        return 0 if team else 2
    # an item the team keeps out of the doc is last whatever it carries: never one of §2's increments
    if c.category == "confirmation" and (c.markers or c.unsourced) and not (c.recap or c.excluded or c.anchored_in):
        return 1 if team else 4
    if fresh or c.category == "engineering":
        return 3
    return 6 if c.recap or c.excluded else 5


def rank(cands: list[Candidate], top: int) -> list[Candidate]:
    """The ``top`` best by tier, then score, shown grouped by category (each by tier, then score)."""
    best = sorted(cands, key=lambda c: (tier(c), -c.score, c.key))[:top]
    return sorted(best, key=lambda c: (CATEGORY_ORDER[c.category], tier(c), -c.score, c.key))


def density(net_new: int, history: list[int], rules: Rules) -> dict[str, Any]:
    """The day's density level from its NET-new count, against the trailing 7 briefings when there are any."""
    recent = history[-7:]
    baseline = _median(recent) if recent else 0     # of two counts, their mean
    if baseline:   # a ratio needs something to divide by; a quiet history falls back to the absolute scale
        ratio = net_new / baseline
        level = [lvl for lim, lvl in rules.density_ratio if ratio >= lim][-1]
        return {"level": level, "net_new": net_new, "previous": history[-1], "median7": baseline,
                "basis": "ratio", "ratio": round(ratio, 2), "window": len(recent)}
    level = [lvl for lim, lvl in rules.density_absolute if net_new >= lim][-1]
    return {"level": level, "net_new": net_new, "previous": None, "median7": None, "basis": "absolute",
            "ratio": None, "window": 0}


def _median(values: list[int]) -> float:
    """``statistics.median`` of a few counts, without loading ``statistics`` (and its ``fractions`` and
    ``decimal``) in every nightly: the middle one, or the mean of the two in the middle."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
