"""Full-text search over papers, note entries and posts: the index's writes and the ranked search.

One FTS5 table (``search_index``, migration m002) holds every kind of document; each kind
has its own range of rowids. Text goes in through ``kb.store.fts.segment`` (CJK runs as
overlapping bigrams) and queries through ``to_match_query``, so 推理 matches 推理框架.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kb.arxiv_id import find_arxiv_ids
from kb.store.db import Store
from kb.store.fts import segment, to_match_query

if TYPE_CHECKING:
    from kb.store.rows import Tx

# FTS rows share one rowid space; each kind gets its own range of it.
KIND_BASE = {"paper": 0, "entry": 1 << 40, "post": 2 << 40}


def index_docs(tx: Tx, kind: str, docs: list[tuple[int, str, str, str]], fresh: set[int] = frozenset()) -> None:
    """Replace the index rows of (rowid, ref, title, body) documents of one kind.

    ``fresh`` rowids were just created and have nothing to delete (a delete in FTS5
    costs a lookup per row, which is most of a first ingest's indexing time).
    """
    if not docs:
        return
    base = KIND_BASE[kind]
    tx.run("DELETE FROM search_index WHERE rowid = :rid", [{"rid": base + rid} for rid, *_ in docs if rid not in fresh])
    tx.run("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (:rid, :kind, :ref, :title, :body)",
           [{"rid": base + rid, "kind": kind, "ref": ref, "title": segment(title), "body": segment(body)}
            for rid, ref, title, body in docs])


def unindex(tx: Tx, kind: str, rowids: Iterable[int]) -> None:
    base = KIND_BASE[kind]
    tx.run("DELETE FROM search_index WHERE rowid = :rid", [{"rid": base + r} for r in rowids])


MERGE_PAGES = 500   # pages of segment merging a night does (FTS5 'merge'); bounded whatever the index's size


def merge_some(store: Store, pages: int = MERGE_PAGES) -> None:
    """Do a bounded amount of the index's segment merging (automerge is off, m009), autocommitted."""
    store.write_one("INSERT INTO search_index (search_index, rank) VALUES ('merge', ?)", (pages,))


def search(store: Store, text: str, *, limit: int = 20) -> list[dict[str, Any]]:
    """Full-text search (bm25) over papers, note entries and posts; Chinese words included.

    An arXiv ID in the query (any form) also finds that paper, whatever its text says.
    """
    out: list[dict[str, Any]] = []
    ids = [a.id for a in find_arxiv_ids(text)]
    for aid in ids:
        rows = store.query("SELECT title, abstract FROM papers WHERE arxiv_id = ?", (aid,))
        if rows:
            out.append({"kind": "paper", "ref": aid, "title": rows[0][0], "snippet": snippet(rows[0][1], []),
                        "score": None, "arxiv_id": aid})
    match = to_match_query(text) if not ids else ""
    if not match:
        return out[:limit]
    rows = store.query("SELECT kind, ref, bm25(search_index) AS rank FROM search_index WHERE search_index MATCH ? "
                       "ORDER BY rank, ref LIMIT ?", (match, limit))
    words = [w for w in text.split() if w]
    for r in rows:
        title, body = _original(store, r["kind"], r["ref"])
        item = {"kind": r["kind"], "ref": r["ref"], "title": title, "snippet": snippet(body or title, words),
                "score": round(-r["rank"], 4)}
        if r["kind"] == "paper":
            item["arxiv_id"] = r["ref"]
        out.append(item)
    return out


def _original(store: Store, kind: str, ref: str) -> tuple[str, str]:
    """The stored (unsegmented) title and body behind an index row."""
    if kind == "paper":
        rows = store.query("SELECT title, abstract FROM papers WHERE arxiv_id = ?", (ref,))
    elif kind == "post":
        rows = store.query("SELECT title, summary FROM posts WHERE key = ?", (ref,))
    else:
        path, _, number = ref.rpartition("#")
        rows = store.query("SELECT heading, text FROM note_entries WHERE path = ? AND number = ?", (path, int(number)))
    return (rows[0][0] or "", rows[0][1] or "") if rows else ("", "")


def snippet(text: str, words: list[str], width: int = 60) -> str:
    """About ``width`` characters around the first query word, which is marked with [ ]."""
    flat = " ".join((text or "").split())
    low = flat.lower()
    hits = [(low.find(w.lower()), w) for w in words if low.find(w.lower()) >= 0]
    if not hits:
        return flat[:width] + ("…" if len(flat) > width else "")
    pos, word = min(hits)
    start = max(0, pos - width // 2)
    end = min(len(flat), pos + len(word) + width // 2)
    return (("…" if start else "") + flat[start:pos] + "[" + flat[pos:pos + len(word)] + "]"
            + flat[pos + len(word):end] + ("…" if end < len(flat) else ""))
