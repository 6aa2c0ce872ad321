"""The work queue: ``organized/queue/work-queue.md`` → ``WorkQueue``.

A numbered list, best first; each item reads
``1. 2610.10507 RECAST — 0.5/5 — agent (inference adjacent)``: rank, an arXiv ID or a
URL, a title, a score ``x/5`` and free text. The rank is the number written in front of
the item (CommonMark would renumber ``1. 1. 1.``; the team's number is what counts).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.arxiv_id import parse_arxiv_id
from kb.citations import find_cited_ids
from kb.records import QueueItem

from .markdown import Block, TextLine, iter_blocks, parse_document
from .textscan import find_urls

__all__ = ["WorkQueue", "parse_queue"]

_SCORE_RE = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*/\s*5(?![\d.])")
# Strong separators first: when a line uses — – or |, a plain "-" belongs to the title
# ("Self-Evolving"); only lines without them are split on a spaced hyphen.
_STRONG_SEP = re.compile(r"\s*(?:—|–|\|)\s*")
_WEAK_SEP = re.compile(r"\s+-\s+")
_LEAD_STRIP = "*_`[](),;:：、"


@dataclass
class WorkQueue:
    """What ``parse_queue`` returns: the items in document order and what was wrong."""

    path: str
    items: list[QueueItem] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _lead(text: str, links: list[str]) -> tuple[str | None, str | None, str]:
    """``(arxiv_id, url, rest)``: the item's paper, by the ID or URL it starts with (else the
    first linked or written ID, else the first link), and the text left for the fields."""
    words = text.split(None, 2)
    candidates = []
    if words:
        candidates.append((words[0], text.split(None, 1)[1] if len(words) > 1 else ""))
    if len(words) > 1 and words[0].lower().rstrip(":：") == "arxiv":   # "arXiv: 2610.10507"
        candidates.append((words[0] + words[1], words[2] if len(words) > 2 else ""))
    for word, rest in candidates:
        word = word.strip(_LEAD_STRIP)
        aid = parse_arxiv_id(word)
        if aid:
            return aid.id, None, rest
        if re.match(r"https?://", word, re.I):
            return None, word, rest
    # Not at the start: a linked title, or an ID further on.
    for href in links:
        aid = parse_arxiv_id(href)
        if aid:
            return aid.id, None, text
    ids = find_cited_ids(text)
    if ids:
        return ids[0].id, None, text
    url = links[0] if links else None
    return None, url, text


def _fields(rest: str) -> tuple[str, float | None, str]:
    """``(title, score, note)`` from the text after the ID."""
    sep = _STRONG_SEP if _STRONG_SEP.search(rest) else _WEAK_SEP
    parts = [p.strip() for p in sep.split(rest.strip(" -—–|"))]
    parts = [p for p in parts if p]
    score = None
    for i, part in enumerate(parts):
        m = _SCORE_RE.search(part)
        if not m:
            continue
        score = float(m[1])
        before, after = part[:m.start()].strip(), part[m.end():].strip()
        if i == 0 and before:          # no separators: "RECAST 0.5/5 agent"
            parts[0:1] = [before] + ([after] if after else [])
        elif re.sub(r"(?i)score|分|[\s:：()（）]", "", before + after) == "":
            del parts[i]               # the field is only the score
        break
    title = parts[0] if parts else ""
    return title, score, " — ".join(parts[1:])


def _item(rank: int, block: Block | None) -> tuple[QueueItem, list[str]]:
    text = " ".join(tl.text.strip() for tl in block.lines) if block else ""
    hrefs = [l.href for tl in (block.lines if block else []) for l in tl.links]
    aid, url, rest = _lead(text, hrefs)
    if aid is None and url is None:
        bare = find_urls(TextLine(text))
        url = bare[0][0] if bare else None
    title, score, note = _fields(rest)
    problems = []
    if aid is None and url is None:
        problems.append(f"rank {rank}: no arXiv ID or URL in {text!r}")
    if score is None:
        problems.append(f"rank {rank}: no x/5 score")
    elif not 0 <= score <= 5:
        problems.append(f"rank {rank}: score {score:g}/5 is out of range")
        score = None
    return QueueItem(rank=rank, arxiv_id=aid, url=url, title=title, score=score, note=note), problems


def _lists(tokens: list, first_para: dict[int, Block]) -> list[tuple[list[int], list[Block | None]]]:
    """Per top-level numbered list: the ranks as written and each item's first paragraph.

    ``1. 1. 1.`` (Markdown's lazy numbering) is read as 1, 2, 3: a list whose numbers are
    all the same was not numbered by hand.
    """
    lists: list[tuple[list[int], list[Block | None]]] = []
    for i, tok in enumerate(tokens):
        if tok.type == "ordered_list_open" and tok.level == 0:
            lists.append(([], []))
        elif tok.type == "list_item_open" and tok.level == 1 and tok.markup in (".", ")") and lists:
            lists[-1][0].append(int(tok.info) if tok.info.isdigit() else 0)
            lists[-1][1].append(first_para.get(i))
    for ranks, _ in lists:
        if len(ranks) > 1 and len(set(ranks)) == 1:
            ranks[:] = range(ranks[0], ranks[0] + len(ranks))
    return lists


def parse_queue(text: str, path: str) -> WorkQueue:
    """Read the work queue: every item of the top-level numbered lists, in order.

    Returns a ``WorkQueue`` (items + problems); never raises.
    """
    doc = parse_document(text)
    queue = WorkQueue(path=path, problems=list(doc.front.problems))
    tokens = doc.tokens
    first_para = {}
    for b in iter_blocks(tokens, doc.offset):
        if b.kind == "paragraph" and b.item is not None:
            first_para.setdefault(b.item, b)
    seen: set[int] = set()
    for ranks, paras in _lists(tokens, first_para):
        for rank, para in zip(ranks, paras):
            item, problems = _item(rank, para)
            queue.items.append(item)
            queue.problems += problems
            if rank in seen:
                queue.problems.append(f"rank {rank} appears more than once")
            seen.add(rank)
    if not queue.items:
        queue.problems.append("no numbered list items found")
    return queue
