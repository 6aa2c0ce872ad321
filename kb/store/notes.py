"""The team's files as the store knows them: which were read (and their hashes), inbox notes,
their entries (indexed for search) and the mentions of papers and URLs every origin makes.

A file's rows are replaced as a whole when its content changes; a file that is gone
takes its rows with it (anchors, in ``kb.store.anchors``, keep their history instead).
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.records import Finding, Note, Point
from kb.store.db import Store
from kb.store.rows import Tx, chunks, row
from kb.store.search import index_docs, unindex
from kb.store.tags import enqueue

FILE_TABLES = ("notes", "cards", "queue_items", "workspace_files")


# --------------------------------------------------------------------------- writes
def record_file(tx: Tx, path: str, kind: str, content_hash: str, problems: list[str],
                findings: Sequence[Finding] = (), stat_key: str | None = None) -> None:
    """The file's reading: its hash, its problems (text) and its findings (kept with their kind and
    subject, as JSON objects after the problems' strings); ``stat_key``, the file's stat as it was read
    (``file_readings``), None when the next reading must read it whatever its stat."""
    kept = [*problems, *({"kind": f.kind, "subject": f.subject, "text": f.text} for f in findings)]
    tx.upsert("workspace_files", [row("workspace_files", path=path, kind=kind, content_hash=content_hash,
                                      problems=kept, stat_key=stat_key)], ["path"])


def record_stat_keys(store: Store, keys: dict[str, str | None]) -> None:
    """The stat each of these files has, read again and found unchanged (a file touched, a key not yet kept):
    bookkeeping, one autocommitted statement per chunk, so a night that learns only its files' stats opens no
    write transaction."""
    for part in chunks(sorted(keys.items())):
        cases = " ".join("WHEN ? THEN ?" for _ in part)
        store.write_one(f"UPDATE workspace_files SET stat_key = CASE path {cases} END "
                        f"WHERE path IN ({','.join('?' * len(part))})",
                        (*(v for item in part for v in item), *(path for path, _ in part)))


def forget_file(tx: Tx, path: str) -> None:
    """Remove what a file that no longer exists contributed (anchors keep their history)."""
    clear_origin(tx, path)
    for name in FILE_TABLES:
        tx.run(f"DELETE FROM {name} WHERE path = :p", {"p": path})


def clear_origin(tx: Tx, path: str) -> None:
    """Drop a file's note entries (and their index rows) and every mention it made."""
    unindex(tx, "entry", [f"{path}#{r[0]}" for r in tx.run("SELECT number FROM note_entries WHERE path = :p",
                                                             {"p": path})])
    tx.run("DELETE FROM note_entries WHERE path = :p", {"p": path})
    tx.run("DELETE FROM mentions WHERE origin = :p", {"p": path})


def mention_row(subject: str, origin_kind: str, origin: str, entry: int, seen_on: str | None) -> dict[str, Any]:
    """A mention of a paper (any ID form: stored canonical, with its version) or of a URL."""
    aid = parse_arxiv_id(subject)
    return row("mentions", subject=aid.id if aid else subject, arxiv_id=aid.id if aid else None,
               version=aid.version if aid else None, origin_kind=origin_kind, origin=origin, entry=entry,
               seen_on=seen_on)


def add_mentions(tx: Tx, rows: list[dict[str, Any]]) -> None:
    """Insert mentions, once per (origin, entry, subject)."""
    tx.upsert("mentions", rows, ["origin_kind", "origin", "entry", "subject"], update=[])


def save_note(tx: Tx, note: Note) -> None:
    """Replace a note's row, its entries (indexed for search) and their mentions."""
    clear_origin(tx, note.path)
    tx.upsert("notes", [row("notes", note)], ["path"])
    day = note.timestamp[:10]
    entries, mentions = [], []
    for e in note.entries:
        entries.append(row("note_entries", e, path=note.path, urls=[{"url": u.url, "date": u.date} for u in e.urls],
                           cites=e.arxiv_ids, bad_ids=[list(b) for b in e.bad_ids],
                           points=[p.as_json() for p in e.points]))
        subjects = list(dict.fromkeys(e.arxiv_ids + [u.url for u in e.urls if not parse_arxiv_id(u.url)]))
        mentions += [mention_row(s, "entry", note.path, e.number, day) for s in subjects]
    tx.insert("note_entries", entries)
    add_mentions(tx, mentions)
    index_docs(tx, "entry", [(f"{note.path}#{e['number']}", e["heading"], e["text"]) for e in entries])
    enqueue(tx, "entry", [f"{note.path}#{e.number}" for e in note.entries])


# --------------------------------------------------------------------------- reads
def file_readings(store: Store) -> dict[str, tuple[str, str | None]]:
    """Every workspace file read so far: its content hash and its stat as it was read (``record_file``)."""
    return {r[0]: (r[1], r[2]) for r in store.query("SELECT path, content_hash, stat_key FROM workspace_files")}


@dataclass(frozen=True)
class NoteView:
    path: str
    author: str
    timestamp: str
    title: str
    credibility: int | None


@dataclass
class EntryView:
    path: str
    number: int
    heading: str
    text: str
    points: list[Point] = field(default_factory=list)
    upvotes: list[int] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    urls: list[dict[str, Any]] = field(default_factory=list)
    subject: str | None = None
    cites: list[str] = field(default_factory=list)
    bad_ids: list[list[str]] = field(default_factory=list)


def notes_between(store: Store, first_day: str, last_day: str) -> list[NoteView]:
    """Notes whose timestamp (local time) falls on ``first_day`` … ``last_day`` (the caller cuts the hours)."""
    return [NoteView(*r) for r in store.query(
        "SELECT path, author, timestamp, title, credibility FROM notes WHERE timestamp >= ? AND timestamp < ? "
        "ORDER BY timestamp, path", (first_day, last_day + "~"))]


def entries_of(store: Store, path: str) -> list[EntryView]:
    """A note's entries in order, their JSON columns decoded."""
    return entries_of_notes(store, [path]).get(path, [])


def entries_of_notes(store: Store, paths: list[str]) -> dict[str, list[EntryView]]:
    """Each note's entries in order (one query for a window's notes, not one per note)."""
    out: dict[str, list[EntryView]] = {}
    for part in chunks(sorted(set(paths))):
        for r in store.query("SELECT path, number, heading, text, points, upvotes, markers, urls, subject, cites, "
                             f"bad_ids FROM note_entries WHERE path IN ({','.join('?' * len(part))}) "
                             "ORDER BY path, number", tuple(part)):
            out.setdefault(r[0], []).append(EntryView(r[0], r[1], r[2], r[3], [Point.load(p) for p in json.loads(r[4])],
                                                      *map(json.loads, r[5:8]), r[8], json.loads(r[9]),
                                                      json.loads(r[10])))
    return out


def entry_counts(store: Store, paths: list[str]) -> dict[str, int]:
    """How many entries each note has (a note without any: absent)."""
    out: dict[str, int] = {}
    for part in chunks(sorted(set(paths))):
        out.update((path, n) for path, n in store.query(
            f"SELECT path, count(*) FROM note_entries WHERE path IN ({','.join('?' * len(part))}) GROUP BY path",
            tuple(part)))
    return out


def mentions_until(store: Store, day: str, *, except_kind: str = "") -> dict[str, list[str]]:
    """arXiv ID → where the team cited it (``path#N`` for entries, the file or post key otherwise),
    counting only what was dated on or before ``day``: a later day never leaks into an earlier briefing.
    ``except_kind``: an origin kind left out (the queue, whose places as of a day ``cards.mentions_as_of``
    reads from its readings)."""
    out: dict[str, list[str]] = {}
    for aid, kind, origin, entry in store.query(
            "SELECT arxiv_id, origin_kind, origin, entry FROM mentions WHERE arxiv_id IS NOT NULL "
            "AND (seen_on IS NULL OR seen_on <= ?) AND origin_kind <> ? ORDER BY origin, entry", (day, except_kind)):
        where = f"{origin}#{entry}" if kind == "entry" else origin
        places = out.setdefault(aid, [])
        if where not in places:
            places.append(where)
    return out


def file_problems(store: Store) -> list[tuple[str, str]]:
    """(workspace path, problem) for every problem the last read of a team file found, by path: the text of
    those of no known kind (``file_findings`` gives the others)."""
    return [(path, p) for path, p in _file_problems(store) if isinstance(p, str)]


def file_findings(store: Store) -> list[tuple[str, Finding]]:
    """(workspace path, finding) for every finding of a known kind the last read of a team file found."""
    return [(path, Finding(p["kind"], p["subject"], p["text"])) for path, p in _file_problems(store)
            if isinstance(p, dict)]


def problem_counts(store: Store) -> dict[str, int]:
    """Workspace path → how many problems (of any kind) the last read of that team file found."""
    return {path: len(json.loads(problems)) for path, problems in store.query(
        "SELECT path, problems FROM workspace_files WHERE problems <> '[]'")}


def _file_problems(store: Store) -> list[tuple[str, Any]]:
    out = []
    for path, problems in store.query("SELECT path, problems FROM workspace_files WHERE problems <> '[]' "
                                      "ORDER BY path"):
        out += [(path, p) for p in json.loads(problems)]
    return out


def impossible_ids(store: Store) -> list[tuple[str, int, str, str]]:
    """(note path, entry number, what is written, why it cannot be an arXiv ID), by path and entry."""
    out = []
    for path, number, bad in store.query("SELECT path, number, bad_ids FROM note_entries WHERE bad_ids <> '[]' "
                                         "ORDER BY path, number"):
        out += [(path, number, written, why) for written, why, *_ in json.loads(bad)]
    return out
