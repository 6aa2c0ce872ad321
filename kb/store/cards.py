"""Paper cards and the work queue: the team's own records of papers, with the mentions they make."""
from __future__ import annotations

import json
from dataclasses import dataclass

from kb.records import Card, QueueItem
from kb.store.db import Store
from kb.store.notes import add_mentions, clear_origin, mention_row
from kb.store.rows import Tx, row


def save_card(tx: Tx, card: Card) -> None:
    """Replace a card's row and its mention of the paper (both IDs when file name and front matter disagree)."""
    clear_origin(tx, card.path)
    primary = None if card.primary_topic is None else int(card.primary_topic)
    tx.upsert("cards", [row("cards", card, primary_topic=primary)], ["path"])
    ids = list(dict.fromkeys(i for i in (card.arxiv_id, card.file_id) if i))
    add_mentions(tx, [mention_row(i, "card", card.path, 0, (card.created or "")[:10] or None) for i in ids])


def save_queue(tx: Tx, path: str, items: list[QueueItem], day: str | None) -> None:
    """Replace the queue's ranks."""
    clear_origin(tx, path)
    tx.run("DELETE FROM queue_items WHERE path = :p", {"p": path})
    # Ranks written twice (two lists each starting at 1) would overwrite each other on the
    # (path, rank) key: then the order in the file is the rank, and nothing is dropped.
    ranks = [i.rank for i in items]
    if len(set(ranks)) < len(ranks):
        ranks = list(range(1, len(items) + 1))
    tx.upsert("queue_items", [row("queue_items", i, path=path, rank=r) for r, i in zip(ranks, items)], ["path", "rank"])
    add_mentions(tx, [mention_row(i.arxiv_id or i.url, "queue", path, r, day)
                      for r, i in zip(ranks, items) if i.arxiv_id or i.url])


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
    return [CardView(*r[:-1], tuple(_json_list(r[-1]))) for r in store.query(
        "SELECT path, file_id, arxiv_id, title, created, hf_upvotes, primary_topic, body, topics FROM cards "
        "ORDER BY path")]


def _json_list(text: str | None) -> list[str]:
    try:
        value = json.loads(text or "[]")
    except ValueError:
        return []
    return [str(v) for v in value] if isinstance(value, list) else []


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


def queue(store: Store) -> list[QueueView]:
    """The work queue, best first."""
    return [QueueView(*r) for r in store.query("SELECT rank, arxiv_id, url, title, score FROM queue_items "
                                               "ORDER BY rank")]


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
