"""Paper cards and the work queue: the team's own records of papers, with the mentions they make."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.records import Card, QueueItem
from kb.store.db import Store
from kb.store.notes import add_mentions, clear_origin, mention_row, mentions_until
from kb.store.rows import Tx, row


def save_card(tx: Tx, card: Card) -> None:
    """Replace a card's row and its mention of the paper (both IDs when file name and front matter disagree)."""
    clear_origin(tx, card.path)
    primary = None if card.primary_topic is None else int(card.primary_topic)
    tx.upsert("cards", [row("cards", card, primary_topic=primary)], ["path"])
    ids = list(dict.fromkeys(i for i in (card.arxiv_id, card.file_id) if i))
    add_mentions(tx, [mention_row(i, "card", card.path, 0, (card.created or "")[:10] or None) for i in ids])


def save_queue(tx: Tx, path: str, items: list[QueueItem], day: str | None) -> None:
    """Replace the queue's ranks, and keep the reading as the queue of ``day`` (``queue(store, day)``). Each
    item's mention is dated the first day a kept reading had it: re-reading a re-ranked queue does not
    move an item the team queued days ago to today."""
    clear_origin(tx, path)
    tx.run("DELETE FROM queue_items WHERE path = :p", {"p": path})
    # Ranks written twice (two lists each starting at 1) would overwrite each other on the
    # (path, rank) key: then the order in the file is the rank, and nothing is dropped.
    ranks = [i.rank for i in items]
    if len(set(ranks)) < len(ranks):
        ranks = list(range(1, len(items) + 1))
    tx.upsert("queue_items", [row("queue_items", i, path=path, rank=r) for r, i in zip(ranks, items)], ["path", "rank"])
    first: dict[str, str] = {}
    if day is not None:
        _keep_reading(tx, path, day, [[r, i.arxiv_id, i.url, i.title, i.score] for r, i in zip(ranks, items)])
        for read_on, kept in tx.run("SELECT read_on, items FROM queue_readings WHERE path = :p ORDER BY read_on, id",
                                    {"p": path}):
            for _, arxiv_id, url, *_ in _json_rows(kept):
                first.setdefault(arxiv_id or url or "", read_on)
    add_mentions(tx, [mention_row(i.arxiv_id or i.url, "queue", path, r, first.get(i.arxiv_id or i.url or "", day))
                      for r, i in zip(ranks, items) if i.arxiv_id or i.url])


def forget_queue(tx: Tx, path: str, day: str) -> None:
    """A queue file read before is gone: from ``day`` on, the queue it held is empty."""
    if tx.run("SELECT 1 FROM queue_readings WHERE path = :p LIMIT 1", {"p": path}).first() is not None:
        _keep_reading(tx, path, day, [])


def _keep_reading(tx: Tx, path: str, day: str, items: list[list[Any]]) -> None:
    """The queue ``path`` held when read on ``day`` (a second reading that day replaces the first)."""
    tx.run("DELETE FROM queue_readings WHERE path = :p AND read_on = :d", {"p": path, "d": day})
    tx.insert("queue_readings", [row("queue_readings", path=path, read_on=day, items=items)])


@dataclass(frozen=True)
class CardView:
    path: str
    file_id: str | None
    arxiv_id: str | None
    title: str
    created: str | None
    hf_upvotes: int | None
    primary_topic: int | None
    body: str
    topics: tuple[str, ...] = ()


def cards(store: Store) -> list[CardView]:
    """Every card, by path."""
    return [CardView(*r[:-1], tuple(str(v) for v in _json_list(r[-1]))) for r in store.query(
        "SELECT path, file_id, arxiv_id, title, created, hf_upvotes, primary_topic, body, topics FROM cards "
        "ORDER BY path")]


def _json_list(text: str | None) -> list[Any]:
    """A stored JSON list; anything else (bad JSON, another type) reads as empty."""
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def card_mismatches(store: Store, until: str | None = None, since: str | None = None) -> list[tuple[str, str, str]]:
    """(path, file name's ID, front matter's ID) of cards whose two IDs disagree; with ``until`` (a day),
    only cards created on or before it (or undated), as the card's mentions count: a card written later
    never leaks into an earlier briefing. With ``since`` (a window's exclusive start, local
    ``YYYY-MM-DDTHH:MM``), only cards created after it, or undated: a briefing's items are its window's
    (a bare date counts as its end of day, as ``Window.contains`` reads it)."""
    where, params = "", []
    if until is not None:
        where += " AND (created IS NULL OR substr(created, 1, 10) <= ?)"
        params.append(until)
    if since is not None:
        where += (" AND (created IS NULL OR (CASE WHEN length(created) = 10 THEN created || 'T23:59' "
                  "ELSE substr(created, 1, 16) END) > ?)")
        params.append(since)
    return [tuple(r) for r in store.query(
        "SELECT path, file_id, arxiv_id FROM cards WHERE file_id IS NOT NULL AND arxiv_id IS NOT NULL "
        f"AND file_id <> arxiv_id{where} ORDER BY path", tuple(params))]


@dataclass(frozen=True)
class QueueView:
    rank: int
    arxiv_id: str | None
    url: str | None
    title: str
    score: float | None


def queue(store: Store, day: str | None = None) -> list[QueueView]:
    """The work queue, best first: now, or as of ``day``, each queue file as kb read it last on or before that
    day (a file kb had not read by then counts as it is now, as a knowledge doc does)."""
    if day is None:
        return [QueueView(*r) for r in store.query("SELECT rank, arxiv_id, url, title, score FROM queue_items "
                                                   "ORDER BY rank")]
    rows = [tuple(i) for items in _queue_files(store, day).values() for i in items]
    return [QueueView(*r) for r in sorted(rows, key=lambda r: r[0])]


def _queue_files(store: Store, day: str) -> dict[str, list[list[Any]]]:
    """Each queue file's items ``[rank, arxiv_id, url, title, score]`` as kb read it last by ``day``; a file kb
    had not read by then, as it is now."""
    now: dict[str, list[list[Any]]] = {}
    for path, *item in store.query("SELECT path, rank, arxiv_id, url, title, score FROM queue_items ORDER BY rank"):
        now.setdefault(path, []).append(item)
    for (path,) in store.query("SELECT DISTINCT path FROM queue_readings"):
        last = store.query("SELECT items FROM queue_readings WHERE path = ? AND read_on <= ? "
                           "ORDER BY read_on DESC, id DESC LIMIT 1", (path, day))
        if last:
            now[path] = _json_rows(last[0][0])
    return now


def mentions_as_of(store: Store, day: str) -> dict[str, list[str]]:
    """``mentions_until(day)``, the queue's places taken from the queue as kb read it by ``day``: an item the
    team queued then and removed later still counts for that day (its mention row went with the re-read)."""
    out = mentions_until(store, day, except_kind="queue")
    for path, items in _queue_files(store, day).items():
        for _, arxiv_id, url, *_ in items:
            found = parse_arxiv_id(arxiv_id or url or "")
            if found is None:
                continue
            places = out.setdefault(found.id, [])
            if path not in places:   # in the order of the other places (by origin)
                places.insert(next((n for n, p in enumerate(places) if p.split("#")[0] > path), len(places)), path)
    return out


def _json_rows(text: str | None) -> list[list[Any]]:
    """A kept queue reading's items ``[rank, arxiv_id, url, title, score]``."""
    return [v for v in _json_list(text) if isinstance(v, list) and len(v) == 5]


@dataclass(frozen=True)
class CardLabel:
    """What a card says about its paper, for the classifier: the team's topics and relevance."""

    arxiv_id: str | None
    title: str
    topics: tuple[str, ...]
    primary: bool | None          # the card's primary_topic; None when it says nothing
    body: str
    abstract: str | None


def card_labels(store: Store) -> list[CardLabel]:
    """Every card's topics and relevance with its paper's abstract when the store has it, by path."""
    out = []
    for aid, title, topics, primary, body, abstract in store.query(
            "SELECT c.arxiv_id, c.title, c.topics, c.primary_topic, c.body, p.abstract FROM cards c "
            "LEFT JOIN papers p ON p.arxiv_id = c.arxiv_id ORDER BY c.path"):
        out.append(CardLabel(aid, title or "", tuple(json.loads(topics or "[]")),
                             None if primary is None else bool(primary), body or "", abstract))
    return out
