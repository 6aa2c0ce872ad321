"""Calendar dates as kb writes them (``YYYY-MM-DD``), from parts found in sources and notes."""
from __future__ import annotations

from datetime import date

__all__ = ["calendar_date", "month_number"]

# English month abbreviations → month number; callers match a month name on its first three letters.
_MONTHS = {m: i for i, m in enumerate("jan feb mar apr may jun jul aug sep oct nov dec".split(), start=1)}


def month_number(name: str) -> int | None:
    """The month of an English month name or abbreviation (``Sep``, ``september``), else None.

    Case-folded, as a case-insensitive regex matched it: ``re.I`` lets ``ſ`` (long s)
    stand for ``s``, so ``ſep`` is September here too, not a KeyError.
    """
    return _MONTHS.get(name[:3].casefold())


def calendar_date(year: str | int, month: str | int, day: str | int, *, earliest: int = 1) -> str | None:
    """``YYYY-MM-DD`` for a real calendar date from ``earliest`` on, else None.

    Sources pass ``earliest=1900``: year 1 (Hugo's zero date) and the like are
    placeholders nobody published on. The team's own notes are taken as written.
    """
    try:
        y, m, d = int(year), int(month), int(day)
        return date(y, m, d).isoformat() if y >= earliest else None
    except (TypeError, ValueError):   # TypeError: a part that is None (an unknown month name)
        return None
