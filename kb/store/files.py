"""Writes for the team's workspace files: notes, entries, mentions, cards, queue, knowledge docs.

Each file's rows are replaced as a whole when its content hash changes, except
anchors: they carry history (first seen, last seen, ended), so a re-read doc
updates them in place and an ID that left a section ends its anchor instead of
deleting it.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from kb.arxiv_id import parse_arxiv_id
from kb.records import Card, KnowledgeDoc, Note, QueueItem
from kb.store.common import delete_fts, dumps, replace_fts, upsert
from kb.store.schema import (Anchor, CardRow, DocVersion, Mention, NoteEntryRow, NoteRow, QueueItemRow,
                             WorkspaceFile)


def record_file(conn: Connection, path: str, kind: str, content_hash: str, problems: list[str]) -> None:
    upsert(conn, WorkspaceFile.__table__, [{"path": path, "kind": kind, "content_hash": content_hash,
                                            "problems": dumps(problems)}], ["path"])


def forget_file(conn: Connection, path: str) -> None:
    """Remove what a file that no longer exists contributed (anchors keep their history)."""
    _clear_origin(conn, path)
    for table in ("notes", "cards", "queue_items", "workspace_files"):
        conn.execute(text(f"DELETE FROM {table} WHERE path = :p"), {"p": path})


def _clear_origin(conn: Connection, path: str) -> None:
    ids = [r[0] for r in conn.execute(text("SELECT id FROM note_entries WHERE path = :p"), {"p": path})]
    delete_fts(conn, "entry", ids)
    conn.execute(text("DELETE FROM note_entries WHERE path = :p"), {"p": path})
    conn.execute(text("DELETE FROM mentions WHERE origin = :p"), {"p": path})


def _mention(subject: str, origin_kind: str, origin: str, entry: int, seen_on: str | None) -> dict[str, Any]:
    aid = parse_arxiv_id(subject)
    return {"subject": aid.id if aid else subject, "arxiv_id": aid.id if aid else None,
            "version": aid.version if aid else None, "origin_kind": origin_kind, "origin": origin,
            "entry": entry, "seen_on": seen_on}


def add_mentions(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Insert mentions, once per (origin, entry, subject)."""
    upsert(conn, Mention.__table__, rows, ["origin_kind", "origin", "entry", "subject"], update=[])


def save_note(conn: Connection, note: Note) -> None:
    """Replace a note's row, its entries (indexed for search) and their mentions."""
    _clear_origin(conn, note.path)
    upsert(conn, NoteRow.__table__, [{"path": note.path, "author": note.author, "timestamp": note.timestamp,
                                       "title": note.title, "credibility": note.credibility,
                                       "tags": dumps(note.tags)}], ["path"])
    day = note.timestamp[:10]
    entries, mentions = [], []
    for e in note.entries:
        entries.append({"path": note.path, "number": e.number, "heading": e.heading, "text": e.text,
                        "points": dumps(e.points), "upvotes": dumps(e.upvotes), "markers": dumps(e.markers),
                        "urls": dumps([asdict(u) for u in e.urls])})
        subjects = list(dict.fromkeys(e.arxiv_ids + [u.url for u in e.urls if not parse_arxiv_id(u.url)]))
        mentions += [_mention(s, "entry", note.path, e.number, day) for s in subjects]
    if entries:
        conn.execute(NoteEntryRow.__table__.insert(), entries)
    add_mentions(conn, mentions)
    stmt = text("SELECT id, number, heading, text FROM note_entries WHERE path = :p")
    replace_fts(conn, "entry", [(rid, f"{note.path}#{n}", h, t) for rid, n, h, t in conn.execute(stmt, {"p": note.path})])


def save_card(conn: Connection, card: Card) -> None:
    """Replace a card's row and its mention of the paper (both IDs when file name and front matter disagree)."""
    _clear_origin(conn, card.path)
    row = {k: getattr(card, k) for k in ("path", "number", "file_id", "arxiv_id", "title", "created", "source",
                                          "hf_upvotes", "body")}
    row.update(topics=dumps(card.topics),
               primary_topic=None if card.primary_topic is None else int(card.primary_topic))
    upsert(conn, CardRow.__table__, [row], ["path"])
    ids = list(dict.fromkeys(i for i in (card.arxiv_id, card.file_id) if i))
    add_mentions(conn, [_mention(i, "card", card.path, 0, (card.created or "")[:10] or None) for i in ids])


def save_queue(conn: Connection, path: str, items: list[QueueItem], day: str | None) -> None:
    """Replace the queue's ranks."""
    _clear_origin(conn, path)
    conn.execute(text("DELETE FROM queue_items WHERE path = :p"), {"p": path})
    # Ranks written twice (two lists each starting at 1) would overwrite each other on the
    # (path, rank) key: then the order in the file is the rank, and nothing is dropped.
    ranks = [i.rank for i in items]
    if len(set(ranks)) < len(ranks):
        ranks = list(range(1, len(items) + 1))
    rows = [{"path": path, "rank": r, "arxiv_id": i.arxiv_id, "url": i.url, "title": i.title,
             "score": i.score, "note": i.note} for r, i in zip(ranks, items)]
    upsert(conn, QueueItemRow.__table__, rows, ["path", "rank"])
    add_mentions(conn, [_mention(i.arxiv_id or i.url, "queue", path, r, day)
                        for r, i in zip(ranks, items) if i.arxiv_id or i.url])


def save_knowledge_doc(conn: Connection, doc: KnowledgeDoc, content_hash: str, day: str) -> dict[str, int]:
    """Record this version of a doc and bring its anchors up to date; return counts.

    ``day`` is the run's date (injected, never the wall clock): an anchor with no
    date written on its line is anchored on the day kb first saw it.
    """
    sections = [{"number": s.number, "title": s.title, "level": s.level, "parent": s.parent} for s in doc.sections]
    upsert(conn, DocVersion.__table__, [{"topic": doc.topic, "path": doc.path, "version": doc.version,
                                         "version_date": doc.version_date, "cited_count": doc.cited_count,
                                         "content_hash": content_hash, "read_on": day,
                                         "sections": dumps(sections)}], ["topic", "content_hash"], update=[])
    existing = {(r.section, r.subject): dict(r._mapping) for r in conn.execute(
        text("SELECT * FROM anchors WHERE topic = :t"), {"t": doc.topic})}
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for s in doc.sections:
        for a in s.anchors:
            subject = a.arxiv_id or a.url
            if subject and (s.number, subject) not in seen:
                seen[(s.number, subject)] = {"topic": doc.topic, "section": s.number, "subject": subject,
                                             "arxiv_id": a.arxiv_id, "url": None if a.arxiv_id else a.url,
                                             "label": a.label, "anchored_on": a.anchored_on}
    rows, counts = [], {"anchors": len(seen), "new": 0, "ended": 0}
    # On the first reading of a doc, an undated anchor predates kb: its date is unknown, not today.
    baseline = not existing
    for key, row in seen.items():
        old = existing.get(key)
        first = old["first_seen"] if old else day
        counts["new"] += old is None
        # Written on the line wins; else what it was; a truly new anchor is dated today (unless baseline).
        derived = old["anchored_on"] if old else (None if baseline else first)
        rows.append({**row, "anchored_on": row["anchored_on"] or derived,
                     "first_seen": first, "last_seen": day, "ended_on": None, "doc_version": doc.version})
    upsert(conn, Anchor.__table__, rows, ["topic", "section", "subject"])
    gone = [k for k, old in existing.items() if k not in seen and old["ended_on"] is None]
    if gone:
        conn.execute(text("UPDATE anchors SET ended_on = :d WHERE topic = :t AND section = :s AND subject = :x"),
                     [{"d": day, "t": doc.topic, "s": s, "x": x} for s, x in gone])
    counts["ended"] = len(gone)
    return counts
