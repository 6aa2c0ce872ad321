"""Helpers shared by the store's write modules: portable UPSERT, JSON columns, FTS rows."""
from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Table, text
from sqlalchemy.engine import Connection

from kb.store.fts import segment

CHUNK = 500  # IDs per IN (...) query: well under SQLite's bound-parameter limit

# FTS rows share one rowid space; each kind gets its own range of it.
FTS_KIND_BASE = {"paper": 0, "entry": 1 << 40, "post": 2 << 40}


def dumps(value: Any) -> str:
    """JSON for a TEXT column: stable key order, real Unicode (no \\u escapes)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


def upsert(conn: Connection, table: Table, rows: list[dict[str, Any]], keys: Sequence[str],
           update: Sequence[str] | None = None, set_: dict[str, Any] | None = None) -> None:
    """INSERT … ON CONFLICT (keys) DO UPDATE SET the ``update`` columns (all non-key by default).

    Only the named columns change on conflict, so columns other writers own
    (anchors, flags, what the team set by hand) survive a re-ingest.
    """
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    stmt = insert(table)
    cols = list(update) if update is not None else [c for c in rows[0] if c not in keys]
    if set_ is not None:  # explicit SET expressions (e.g. keep-the-earliest rules)
        stmt = stmt.on_conflict_do_update(index_elements=list(keys), set_=set_)
    elif cols:
        stmt = stmt.on_conflict_do_update(index_elements=list(keys),
                                          set_={c: stmt.excluded[c] for c in cols})
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
    conn.execute(stmt, rows)


def replace_fts(conn: Connection, kind: str, docs: list[tuple[int, str, str, str]],
                fresh: set[int] = frozenset()) -> None:
    """Replace the index rows of (rowid, ref, title, body) documents of one kind.

    ``fresh`` rowids were just created and have nothing to delete (a delete in FTS5
    costs a lookup per row, which is most of a first ingest's indexing time).
    """
    if not docs:
        return
    base = FTS_KIND_BASE[kind]
    ids = [{"rid": base + rid} for rid, *_ in docs if rid not in fresh]
    if ids:
        conn.execute(text("DELETE FROM search_index WHERE rowid = :rid"), ids)
    conn.execute(
        text("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (:rid, :kind, :ref, :title, :body)"),
        [{"rid": base + rid, "kind": kind, "ref": ref, "title": segment(title), "body": segment(body)}
         for rid, ref, title, body in docs],
    )


def delete_fts(conn: Connection, kind: str, rowids: Iterable[int]) -> None:
    base = FTS_KIND_BASE[kind]
    params = [{"rid": base + r} for r in rowids]
    if params:
        conn.execute(text("DELETE FROM search_index WHERE rowid = :rid"), params)
