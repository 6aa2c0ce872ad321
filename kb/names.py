"""Coined names of systems: the word a paper's title starts with before its colon.

Papers coin names (``FlashPD: Fused Prefill-Decode Attention …``) and the team writes them
beside IDs in many forms; the store keeps each paper's name folded (``papers.name_key``) so a
name written in a note can be looked up among every stored paper, not only the day's.
"""
from __future__ import annotations

import re
from functools import lru_cache

# A coined name: letters and digits, perhaps joined by - or +, with a capital inside it, a digit, or
# all capitals (FlashPD, DeepEP-v2, KVQuilt, DISCO) — not a plain word such as "Serving".
TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*"
_TITLE_NAME = re.compile(rf"^\s*(?P<name>{TOKEN})\s*[:：]\s*\S")
# Words written before an ID that name no system: status and note-taking words (TODO: 2610.08812), and the
# hardware and field words notes are full of.
_COMMON = frozenset("""arxiv paper papers note notes blog post llm llms gpu gpus cpu api github hf the and
using with for via towards toward kv moe todo tbd fyi wip new nb ps re fwd update draft read done""".split())


def coined(name: str) -> bool:
    """Is ``name`` a system's coined name rather than a word?"""
    if len(name) < 3 or name.casefold() in _COMMON:
        return False
    inner_capital = any(ch.isupper() for ch in name[1:])
    return inner_capital or any(ch.isdigit() for ch in name) or (name.isupper() and len(name) >= 3)


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
