"""Section numbers of knowledge docs (``§2.3``, ``§2.3.1``, ``§1.(9)``): compare and match them."""
from __future__ import annotations

from functools import lru_cache

from kb.arxiv_id import clean_text


@lru_cache(maxsize=4096)   # a doc has a few dozen sections; queries compare them thousands of times
def section_key(number: str) -> tuple[int, ...] | None:
    """``"1.(9)"`` → ``(1, 9)``; the comparable form of a section number (None if not one)."""
    text = clean_text(number).strip().lstrip("§").strip()
    parts = [p.strip().strip("()").strip() for p in text.split(".")]
    if not text or not all(p.isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def section_matches(number: str, query: str) -> bool:
    """True when section ``number`` is ``query`` or lies inside it.

    "2.3" matches "2.3" and "2.3.1" but not "2.30"; "1.9" matches "1.(9)".
    """
    n, q = section_key(number), section_key(query)
    return n is not None and q is not None and n[:len(q)] == q
