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
# What was removed is marked, so that only what the removal left behind goes with it, never a
# title's own "fork()", "[ ]", "on arXiv" or " .NET": an "arXiv:" before a removed ID, a link whose
# URL went ([label](url) keeps its label), brackets that held only removed parts, a space it left
# before a colon or comma.
_GONE = "\x00"
_ARXIV_PREFIX = re.compile(r"\barxiv\s*:?\s*(?=\x00)", re.I)
_LINK_TEXT = re.compile(r"\[([^\]]*)\]\(\s*\x00\s*\)")
_EMPTY_BRACKETS = re.compile(r"[\[(（<][\s\x00]*\x00[\s\x00]*[\])）>]")
_GONE_BEFORE_PUNCT = re.compile(r"\s*\x00[\s\x00]*(?=[:：,，;；])")


@lru_cache(maxsize=16384)
def strip_anchor_syntax(text: str) -> str:
    """``text`` without what this parser reads as anchoring: arXiv IDs, URLs and "(anchored …)" dates.

    Used both ways: to show an anchor line as a title, and to write an outside title into a
    doc without it anchoring anything by itself. Cached: a briefing asks for each anchor's label
    in several places.
    """
    text = _URL_OR_DATE.sub(_GONE, " ".join(text.replace(_GONE, " ").split()))
    for aid in find_arxiv_ids(text):
        text = text.replace(aid.versioned, _GONE).replace(aid.id, _GONE)
    text = _EMPTY_BRACKETS.sub(_GONE, _LINK_TEXT.sub(r"\1", _ARXIV_PREFIX.sub(_GONE, text)))
    text = _GONE_BEFORE_PUNCT.sub("", text)
    return " ".join(text.replace(_GONE, " ").split()).strip(" —-:：·|")
