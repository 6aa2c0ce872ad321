"""Keys that let one item be recognised across sources: a URL without its dressing, a title reduced to words."""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from kb.arxiv_id import find_arxiv_ids

_WORDS = re.compile(r"[^\w]+")


def normalize_url(url: str) -> str:
    """``https://www.Example.org/post.html/`` → ``example.org/post``: the same page however it was written."""
    u = url.strip().rstrip("/.,;)）").lower()
    u = re.sub(r"^https?://(www\.)?", "", u)
    return re.sub(r"\.html?$", "", u)


def title_key(title: str | None) -> str | None:
    """A title reduced for matching across sources: lower case, words only; None when too short to trust."""
    key = " ".join(_WORDS.sub(" ", (title or "").lower()).split())
    return f"title:{key}" if len(key) >= 20 else None


def briefed_keys(data: dict[str, Any]) -> list[str]:
    """What a briefing put forward, as keys a later day matches its candidates by: every ID
    spelling, the URL and the title of each increment and other item."""
    keys: dict[str, None] = {}
    for inc in data.get("increments", []) + data.get("others", []):
        for key in (inc.get("arxiv_id"), *inc.get("other_ids", []),
                    normalize_url(inc["url"]) if inc.get("url") else None, title_key(inc.get("title"))):
            if key:
                keys.setdefault(key, None)
    return list(keys)


_HEADING_NOISE = re.compile(r"^\s*(?:\d+|[一二三四五六七八九十]+)\s*[.、)）]\s*"
                            r"|\s*[—–-]+\s*(?:▲\s*\d+|\d+\s*▲|\d+\s*upvotes?)\s*$"
                            r"|\s*(?:⚠️?|待核实|待确认)\s*", re.I)


def clean_heading(heading: str) -> str:
    """An entry heading without its number, upvote tail and verification markers."""
    return " ".join(_HEADING_NOISE.sub(" ", heading).split())


# A URL ends at a space or at the bracket that closes it ("[2610.01234](https://…/2610.01234)（锚定 …）").
_URL_OR_DATE = re.compile(r"https?://[^\s)）\]>]+|[(（]\s*(?:anchored|锚定)[^)）]*[)）]", re.I)
# What the link and ID syntax leave once its URL and ID are gone: "arXiv:", then "[ ]( )".
_ARXIV_PREFIX = re.compile(r"\barxiv\s*:?(?=\s*(?:[\])）—–|]|$))", re.I)
_LINK_TEXT = re.compile(r"\[([^\]]*)\]\(\s*\)")   # [label](url) without its url: the label
_SPACE_BEFORE_PUNCT = re.compile(r" ([:：,，;；.])")
_EMPTY_BRACKETS = re.compile(r"\[\s*\]|\(\s*\)|（\s*）|<\s*>")


@lru_cache(maxsize=16384)
def strip_anchor_syntax(text: str) -> str:
    """``text`` without what this parser reads as anchoring: arXiv IDs, URLs and "(anchored …)" dates.

    Used both ways: to show an anchor line as a title, and to write an outside title into a
    doc without it anchoring anything by itself. Cached: a briefing asks for each anchor's label
    in several places.
    """
    text = _URL_OR_DATE.sub(" ", " ".join(text.split()))
    for aid in find_arxiv_ids(text):
        text = text.replace(aid.versioned, " ").replace(aid.id, " ")
    text = _EMPTY_BRACKETS.sub(" ", _LINK_TEXT.sub(r"\1", _ARXIV_PREFIX.sub(" ", text)))
    return _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join(text.split())).strip(" —-:：·|")
