"""Calendar dates as kb writes them (``YYYY-MM-DD``), from parts found in sources and notes."""
from __future__ import annotations

from datetime import date

__all__ = ["MONTHS", "calendar_date"]

# English month abbreviations → month number; callers match a month name on its first three letters.
MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}


def calendar_date(year: str | int, month: str | int, day: str | int, *, earliest: int = 1) -> str | None:
    """``YYYY-MM-DD`` for a real calendar date from ``earliest`` on, else None.

    Sources pass ``earliest=1900``: year 1 (Hugo's zero date) and the like are
    placeholders nobody published on. The team's own notes are taken as written.
    """
    try:
        y, m, d = int(year), int(month), int(day)
        return date(y, m, d).isoformat() if y >= earliest else None
    except ValueError:
        return None
