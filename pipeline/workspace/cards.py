"""Paper cards: ``organized/paper_cards/<NNN>-<YYMM>-<NNNNN>.md`` → ``Card``.

The file name and the front matter both name the paper. When they disagree that is a
finding for the team (``Card.findings``: a ``card-id-mismatch`` about the front matter's ID, "file name
says …"), never a crash, and the front matter's ID is the one kept.
"""
from __future__ import annotations

import re
from datetime import date, time
from pathlib import PurePosixPath

from kb.arxiv_id import parse_arxiv_id
from kb.records import CARD_ID_MISMATCH, MAX_INT, Card, Finding

from .markdown import FrontMatter, fm_bool, fm_int, fm_list, fm_str, inline_text, parse_document

__all__ = ["parse_card", "card_file_id"]

_NAME_RE = re.compile(r"^(?P<n>\d+)-(?P<yymm>\d{4})-(?P<num>\d{4,5})(?:v\d+)?\.md$", re.I)
# created: as written, with a space instead of the T tolerated
_CREATED_RE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?$")


def card_file_id(name: str) -> tuple[int | None, str | None]:
    """``(NNN, "YYMM.NNNNN")`` from a card's file name; ``(None, None)`` when it does not fit."""
    m = _NAME_RE.match(name)
    if not m or int(m["n"]) > MAX_INT:     # a number no store column holds does not fit either
        return None, None
    aid = parse_arxiv_id(f"{m['yymm']}.{m['num']}")
    return int(m["n"]), aid.id if aid else None


def _arxiv_id(card: Card, fm: FrontMatter) -> None:
    """The front matter's ID, read from the raw scalar: YAML would turn 2610.10000 into a
    float and drop its trailing zeros."""
    if "arxiv_id" not in fm.data:
        card.arxiv_id = card.file_id
        missing = "no arxiv_id in the front matter" if fm.present else "no front matter"
        card.problems.append(f"{missing}; arxiv_id taken from the file name: {card.file_id}"
                             if card.file_id else f"{missing} and none in the file name")
        return
    raw = fm.raw_scalar("arxiv_id")
    aid = parse_arxiv_id(raw) if raw else None
    if aid is None:
        card.problems.append(f"arxiv_id {raw if raw is not None else fm.data['arxiv_id']!r} is not an arXiv ID")
        card.arxiv_id = card.file_id
        return
    card.arxiv_id = aid.id
    if card.file_id and card.file_id != aid.id:
        card.findings.append(Finding(CARD_ID_MISMATCH, aid.id,
                                     f"file name says {card.file_id} but arxiv_id is {aid.id}"))


def _created(value: object, problems: list[str]) -> str | None:
    text = fm_str(value)
    if not text:
        return None
    m = _CREATED_RE.match(text)
    if not m:
        problems.append(f"created {text!r} is not an ISO date or date-time")
        return text
    try:   # the form is right; is it a day and a time that exist (not 2026-02-30, 25:00)?
        date.fromisoformat(m[1])
        if m[2]:
            time.fromisoformat(m[2])
    except ValueError:
        problems.append(f"created {text!r} is no such {'date-time' if m[2] else 'date'}: the card's date is unknown")
        return None
    return f"{m[1]}T{m[2]}" if m[2] else m[1]


def _fields(card: Card, fm: FrontMatter) -> None:
    data, problems = fm.data, card.problems
    card.title = fm_str(data.get("title")) or ""
    card.created = _created(data.get("created"), problems)
    card.source = fm_str(data.get("source")) or None
    if data.get("hf_upvotes") is not None:
        card.hf_upvotes = fm_int(data["hf_upvotes"])
        if card.hf_upvotes is None or card.hf_upvotes < 0:
            problems.append(f"hf_upvotes {data['hf_upvotes']!r} is not a count")
            card.hf_upvotes = None
    topics = fm_list(data.get("topics"))
    if topics is None:
        problems.append(f"topics {data['topics']!r} is not a list")
    card.topics = topics or []
    if data.get("primary_topic") is not None:
        card.primary_topic = fm_bool(data["primary_topic"])
        if card.primary_topic is None:
            problems.append(f"primary_topic {data['primary_topic']!r} is not true or false")


def parse_card(text: str, path: str) -> Card:
    """Read one paper card. ``path`` is workspace-relative; never raises."""
    name = PurePosixPath(path.replace("\\", "/")).name
    number, file_id = card_file_id(name)
    card = Card(path=path, number=number, file_id=file_id)
    if number is None:
        card.problems.append(f"file name {name!r} is not <NNN>-<YYMM>-<NNNNN>.md")
    elif file_id is None:
        card.problems.append(f"file name {name!r} does not spell a valid arXiv ID")

    doc = parse_document(text)
    card.problems += doc.front.problems
    _arxiv_id(card, doc.front)
    _fields(card, doc.front)
    card.body = doc.front.body.strip()
    if not card.title:
        # liberal: a card without a title field often starts with "# Title"
        toks = doc.tokens
        h1 = next((i for i, t in enumerate(toks) if t.type == "heading_open" and t.tag == "h1"), None)
        if h1 is not None and h1 + 1 < len(toks):
            card.title = inline_text(toks[h1 + 1], " ")
    return card
