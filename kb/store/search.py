"""Full-text search over papers, note entries and posts: the index's writes and the ranked search.

One index holds every kind of document, the same tokens on both backends (``kb.store.fts``):
on SQLite an FTS5 table (migration m002) whose rowids give each kind its own range, on
PostgreSQL a tsvector table with FTS5's bm25 written in SQL (``kb.store.pg_search``). Queries
go through ``to_match_query`` (or its tsquery twin), so 推理 matches 推理框架 on both, and
``kb search`` ranks, cuts and quotes the same documents whichever store it reads.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kb.arxiv_id import find_arxiv_ids, mask_arxiv_ids
from kb.citations import written_id
from kb.store.db import Store
from kb.store.fts import KIND_BASE, index_text, to_match_query
from kb.text import shortened

if TYPE_CHECKING:
    from kb.store.rows import Tx

# The row each kind's document belongs to, for its FTS5 rowid (papers and posts: SQLite's own rowid).
_ROWIDS = {"paper": "SELECT rowid, arxiv_id FROM papers WHERE arxiv_id IN :values",
           "post": "SELECT rowid, key FROM posts WHERE key IN :values"}


def _rowids(tx: Tx, kind: str, refs: list[str]) -> dict[str, int]:
    """ref → FTS5 rowid of the documents' rows (which must exist)."""
    if kind != "entry":
        return {ref: KIND_BASE[kind] + rowid for rowid, ref in tx.select_in(_ROWIDS[kind], refs)}
    out: dict[str, int] = {}
    for path in sorted({ref.rpartition("#")[0] for ref in refs}):   # a note's entries: one indexed look-up
        for rowid, number in tx.run("SELECT id, number FROM note_entries WHERE path = :p", {"p": path}):
            out[f"{path}#{number}"] = KIND_BASE["entry"] + rowid
    return out


def index_docs(tx: Tx, kind: str, docs: list[tuple[str, str, str]], fresh: Iterable[str] = ()) -> None:
    """Replace the index rows of (ref, title, body) documents of one kind.

    ``fresh`` refs were just created and have nothing to delete (a delete in FTS5
    costs a lookup per row, which is most of a first ingest's indexing time).
    """
    if not docs:
        return
    if tx.dialect == "postgresql":
        from kb.store.pg_search import index_documents
        index_documents(tx, kind, docs)
        return
    rowids = _rowids(tx, kind, [ref for ref, _, _ in docs])
    fresh = set(fresh)
    tx.run("DELETE FROM search_index WHERE rowid = :rid", [{"rid": rowids[ref]} for ref, _, _ in docs
                                                           if ref not in fresh])
    tx.run("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (:rid, :kind, :ref, :title, :body)",
           [{"rid": rowids[ref], "kind": kind, "ref": ref, "title": index_text(title), "body": index_text(body)}
            for ref, title, body in docs])


def unindex(tx: Tx, kind: str, refs: Iterable[str]) -> None:
    """Remove the index rows of these documents (before their rows are deleted)."""
    refs = list(refs)
    if not refs:
        return
    if tx.dialect == "postgresql":
        from kb.store.pg_search import unindex_documents
        unindex_documents(tx, kind, refs)
        return
    tx.run("DELETE FROM search_index WHERE rowid = :rid", [{"rid": r} for r in _rowids(tx, kind, refs).values()])


MERGE_PAGES = 500   # pages of segment merging a night does (FTS5 'merge'); bounded whatever the index's size


def merge_some(store: Store, pages: int = MERGE_PAGES) -> None:
    """Bounded upkeep of the index, autocommitted: on SQLite some of FTS5's segment merging (automerge
    is off, m009); on PostgreSQL the totals bm25 needs, added up into one row."""
    if store.dialect == "postgresql":
        from kb.store.pg_search import COMPACT_STATS
        store.write_one(COMPACT_STATS)
        return
    store.write_one("INSERT INTO search_index (search_index, rank) VALUES ('merge', ?)", (pages,))


def merge_backlog(store: Store, pages: int = 2000) -> None:
    """Merge the index until FTS5 finds no level worth merging, autocommitted: after a backfill.

    A backfill's many batches leave many segments. With automerge off, the first level to reach
    16 segments is merged whole inside whichever insert comes next — the next night's, whatever
    that night's size (on a freshly backfilled store of 200k papers the night's insert took 2.3 s
    instead of 0.2 s). Merging here makes the backfill pay for its own segments; the cost follows
    what is unmerged, not the store. A no-op on PostgreSQL, whose index has no segments.
    """
    if store.dialect == "postgresql":
        return
    while True:
        before = store.conn.total_changes
        store.write_one("INSERT INTO search_index (search_index, rank) VALUES ('merge', ?)", (pages,))
        if store.conn.total_changes - before < 2:   # FTS5's sign that the merge found nothing to do
            return


def search(store: Store, text: str, *, limit: int = 20) -> list[dict[str, Any]]:
    """Full-text search (bm25) over papers, note entries and posts; Chinese words included.

    An arXiv ID in the query (any form) also finds that paper, whatever its text says, first. A query of
    IDs alone then lists the note entries and posts citing them (their mentions: any form they wrote,
    ``2610.08812v2`` too); with other words, those words and the ID's canonical digits are searched.
    """
    out: list[dict[str, Any]] = []
    ids = [a.id for a in find_arxiv_ids(text)]
    for aid in ids:
        rows = store.query("SELECT title, abstract FROM papers WHERE arxiv_id = ?", (aid,))
        if rows:
            out.append({"kind": "paper", "ref": aid, "title": rows[0][0], "snippet": snippet(rows[0][1], []),
                        "score": None, "arxiv_id": aid})
    words = _other_words(text) if ids else text
    if ids and not to_match_query(words):
        return (out + _citing(store, ids))[:limit]
    if ids:
        text = " ".join([words, *ids])
    match = to_match_query(text)
    if not match or len(out) >= limit:
        return out[:limit]
    if store.dialect == "postgresql":
        from kb.store.pg_search import ranked
        hits = ranked(store, text, limit)
    else:
        hits = [(r[0], r[1], -r[2]) for r in store.query(
            "SELECT kind, ref, bm25(search_index) AS rank FROM search_index WHERE search_index MATCH ? "
            "ORDER BY rank, ref LIMIT ?", (match, limit))]
    words = [w for w in text.split() if w]
    found = {(r["kind"], r["ref"]) for r in out}
    for kind, ref, score in hits:
        if (kind, ref) in found or len(out) >= limit:
            continue
        title, body = _original(store, kind, ref)
        item = {"kind": kind, "ref": ref, "title": title, "snippet": snippet(body or title, words),
                "score": round(score, 4)}
        if kind == "paper":
            item["arxiv_id"] = ref
        out.append(item)
    return out


_ARXIV_WORD = re.compile(r"\barxiv\b\s*:?", re.I)


def _other_words(text: str) -> str:
    """The query's words besides its arXiv IDs. An ID written whole goes with what it is written with: the
    "https", "org" and "abs" of a pasted arxiv.org link were searched as words (no note has them all), so
    a link found the paper and none of the notes citing it; "arXiv:" goes too. An ID inside other words
    leaves them to be searched."""
    kept = " ".join(w for w in text.split() if written_id(w) is None)
    return _ARXIV_WORD.sub(" ", mask_arxiv_ids(kept, " "))


def _citing(store: Store, ids: list[str]) -> list[dict[str, Any]]:
    """The note entries and posts that cite ``ids``, as search results (indexed by the mention's subject)."""
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for aid in ids:
        for kind, origin, entry in store.query(
                "SELECT origin_kind, origin, entry FROM mentions WHERE subject = ? "
                "AND origin_kind IN ('entry', 'post') ORDER BY origin_kind, origin, entry", (aid,)):
            ref = f"{origin}#{entry}" if kind == "entry" else origin
            if (kind, ref) not in seen:
                seen.add((kind, ref))
                title, body = _original(store, kind, ref)
                out.append({"kind": kind, "ref": ref, "title": title, "snippet": snippet(body or title, [aid]),
                            "score": None})
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


def _find_word(text: str, word: str) -> tuple[int, str] | None:
    """Where ``word`` first occurs in ``text`` as a word ("a" is not the a of "Today"; the index matches
    whole tokens), else inside one (Chinese has no spaces), ignoring case: (position, the word)."""
    whole = re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", text, re.I) if word.isascii() else None
    at = whole.start() if whole else text.lower().find(word.lower())
    return (at, word) if at >= 0 else None


def snippet(text: str, words: list[str], width: int = 60) -> str:
    """About ``width`` characters around the first query word, which is marked with [ ]: whole words, with
    "…" where text was cut (mid-word only where a word is longer than half its side, as in Chinese, which
    has no spaces; ``kb.text.shortened`` cuts the same way)."""
    flat = " ".join((text or "").split())
    hits = [hit for w in words if (hit := _find_word(flat, w)) is not None]
    if not hits:
        return shortened(flat, width + 1)
    pos, word = min(hits)
    after = pos + len(word)
    start = _word_start(flat, max(0, pos - width // 2), pos)
    end = _word_end(flat, min(len(flat), after + width // 2), after)
    before, behind = flat[start:pos].lstrip(), flat[after:end]
    if end < len(flat):
        behind = behind.rstrip(_CUT_PUNCTUATION)
    return (("…" if start else "") + before + "[" + flat[pos:after] + "]"
            + behind + ("…" if end < len(flat) else ""))


# What a cut leaves dangling at its end, as kb.text.shortened strips it.
_CUT_PUNCTUATION = " ,;:·—–-"


def _word_start(flat: str, start: int, limit: int) -> int:
    """``start`` moved forward to the first whole word before ``limit``; kept mid-word when the word it
    falls in reaches past half of ``flat[start:limit]`` (a run of Chinese, a long identifier)."""
    if start == 0 or flat[start - 1] == " ":
        return start
    space = flat.find(" ", start, limit)
    return space + 1 if 0 <= space - start <= (limit - start) // 2 else start


def _word_end(flat: str, end: int, floor: int) -> int:
    """``end`` moved back to the end of the last whole word after ``floor``; kept mid-word when the word it
    falls in reaches back past half of ``flat[floor:end]``."""
    if end >= len(flat) or flat[end] == " ":
        return end
    space = flat.rfind(" ", floor, end)
    return space if space >= floor and end - space <= (end - floor) // 2 else end
