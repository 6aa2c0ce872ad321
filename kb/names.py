"""Coined names of systems: the word a paper's title starts with before its colon.

Papers coin names (``FlashPD: Fused Prefill-Decode Attention …``) and the team writes them
beside IDs in many forms; the store keeps each paper's name folded (``papers.name_key``) so a
name written in a note can be looked up among every stored paper, not only the day's.
"""
from __future__ import annotations

import re
from functools import lru_cache

from kb.text import clean_heading, shortened, strip_anchor_syntax

# A coined name: letters and digits, perhaps joined by - or +, with a capital inside it, a digit, or
# all capitals (FlashPD, DeepEP-v2, KVQuilt, DISCO) — not a plain word such as "Serving".
TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*"
_TITLE_NAME = re.compile(rf"^\s*(?P<name>{TOKEN})\s*[:：]\s*\S")
# Words written before an ID that name no system: status and note-taking words (TODO: 2610.08812), and the
# hardware and field words notes are full of.
_COMMON = frozenset("""arxiv paper papers note notes blog post llm llms gpu gpus cpu api github hf the and
using with for via towards toward kv moe todo tbd fyi wip new nb ps re fwd update draft read done""".split())


def common(word: str) -> bool:
    """Is ``word`` one that names no system (a status, note-taking, hardware or field word: "TODO", "GPU")?"""
    return word.casefold() in _COMMON


def coined(name: str) -> bool:
    """Is ``name`` a system's coined name rather than a word?"""
    if len(name) < 3 or common(name):
        return False
    inner_capital = any(ch.isupper() for ch in name[1:])
    return inner_capital or any(ch.isdigit() for ch in name) or (name.isupper() and len(name) >= 3)


_TOKEN_RE = re.compile(TOKEN)


def coined_names(text: str) -> list[re.Match[str]]:
    """Every coined name written in ``text`` (``coined``), as matches: where each is, for a reader that asks what
    comes before it ("比 LoftKV", the name nearest before an ID)."""
    return [m for m in _TOKEN_RE.finditer(text) if coined(m[0])]


def name_key(name: str) -> str:
    """A name as names are compared: case folded."""
    return name.casefold()


@lru_cache(maxsize=65536)   # a briefing asks for the name of each title in several places
def title_name(title: str | None) -> str | None:
    """The coined name a title starts with, before its colon (``FlashPD: Fused …`` → FlashPD)."""
    m = _TITLE_NAME.match(title or "")
    return m["name"] if m and coined(m["name"]) else None


def title_name_key(title: str | None) -> str | None:
    """The folded coined name of ``title`` (what ``papers.name_key`` holds), or None."""
    name = title_name(title)
    return name_key(name) if name else None


SHORT = 28   # characters of a title without a name, as a short mention calls it
# The head of a title before its colon or dash, when short: "Lathe 2.3.1：H20 上的 FP8 …" → "Lathe 2.3.1"
_HEAD = re.compile(r"^\s*([^:：—–]{2,28}?)\s*(?:[:：]|\s[—–-]{1,2}\s)")


def short_name(title: str | None) -> str:
    """What a short mention calls an item (a follow-up, a likely ID): its coined name ("ShelfCtx"), else the head
    of its title before a colon or dash, else its title shortened."""
    shown = clean_heading(strip_anchor_syntax(title or "") or title or "")
    if name := title_name(shown):
        return name
    m = _HEAD.match(shown)
    return m[1] if m else shortened(shown, SHORT)
