"""Writes for public sources: papers (merged across sources), sightings, posts, the health ledger."""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, select, text
from sqlalchemy.engine import Connection

from kb.records import PaperRecord, PostRecord, Sighting
from kb.store.common import chunks, dumps, replace_fts, upsert
from kb.store.schema import Paper, PaperChange, PaperVersion, Post, SightingRow, Source

# Columns a paper's metadata source owns. A newer (or equal) version overwrites
# them; a source that knows no version (HF, blogs) only fills what is empty.
_OWNED = ("title", "authors", "abstract", "categories", "primary_category", "updated",
          "doi", "journal_ref", "comment")


@dataclass
class WriteCounts:
    new: int = 0
    updated: int = 0
    unchanged: int = 0


def _record_row(rec: PaperRecord) -> dict[str, Any]:
    return {
        "title": rec.title.strip(), "authors": dumps(rec.authors) if rec.authors else "[]",
        "abstract": rec.abstract.strip(), "categories": dumps(rec.categories) if rec.categories else "[]",
        "primary_category": rec.primary_category, "updated": rec.updated, "doi": rec.doi,
        "journal_ref": rec.journal_ref, "comment": rec.comment,
    }


def _empty(value: Any) -> bool:
    return value in (None, "", "[]")


def _earliest(*dates: str | None) -> str | None:
    present = [d for d in dates if d]
    return min(present) if present else None


def merge_paper(old: dict[str, Any] | None, rec: PaperRecord, source: str
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The row after ``rec`` is applied to ``old``, and the field changes to record."""
    incoming = _record_row(rec)
    v1_date = min((d for _, d in rec.versions if d), default=None)
    if old is None:
        row = {"arxiv_id": rec.arxiv_id, "latest_version": rec.version, **incoming,
               "published": _earliest(rec.published, v1_date), "first_seen": None}
        return row, []
    row = dict(old)
    newest = rec.version is not None and (old["latest_version"] is None or rec.version >= old["latest_version"])
    changes = []
    for col in _OWNED:
        new, cur = incoming[col], old[col]
        if _empty(new) or new == cur:
            continue
        if _empty(cur) or newest:
            row[col] = new
            if not _empty(cur):
                changes.append({"arxiv_id": rec.arxiv_id, "version": rec.version, "field": col,
                                "old_value": cur, "new_value": new, "source": source})
    if rec.version is not None and (old["latest_version"] or 0) < rec.version:
        row["latest_version"] = rec.version
    row["published"] = _earliest(old["published"], rec.published, v1_date)
    return row, changes


def _load(conn: Connection, ids: list[str]) -> dict[str, dict[str, Any]]:
    table = Paper.__table__
    found: dict[str, dict[str, Any]] = {}
    for part in chunks(ids):
        for r in conn.execute(select(table).where(table.c.arxiv_id.in_(part))).mappings():
            found[r["arxiv_id"]] = dict(r)
    return found


def upsert_papers(conn: Connection, records: list[PaperRecord], source: str) -> WriteCounts:
    """Merge ``records`` into the papers table; keep version dates and field history."""
    counts = WriteCounts()
    merged: dict[str, dict[str, Any]] = {}
    old_rows = _load(conn, sorted({r.arxiv_id for r in records}))
    changes: list[dict[str, Any]] = []
    versions: dict[tuple[str, int], str | None] = {}
    for rec in records:
        base = merged.get(rec.arxiv_id, old_rows.get(rec.arxiv_id))
        row, ch = merge_paper(base, rec, source)
        merged[rec.arxiv_id] = row
        changes += ch
        for n, d in rec.versions:
            versions[(rec.arxiv_id, n)] = d or versions.get((rec.arxiv_id, n))
        if rec.version is not None:
            versions.setdefault((rec.arxiv_id, rec.version), rec.updated)
    dirty = []
    for aid, row in merged.items():
        if aid not in old_rows:
            counts.new += 1
        elif row != old_rows[aid]:
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        dirty.append(row)
    upsert(conn, Paper.__table__, dirty, ["arxiv_id"])
    if changes:
        conn.execute(PaperChange.__table__.insert(), changes)
    _upsert_versions(conn, versions)
    _index_papers(conn, dirty, new={a for a in merged if a not in old_rows})
    return counts


def _upsert_versions(conn: Connection, versions: dict[tuple[str, int], str | None]) -> None:
    rows = [{"arxiv_id": a, "version": n, "date": d} for (a, n), d in sorted(versions.items())]
    # A known date is never replaced by an unknown one, nor by a later announcement of the same version.
    upsert(conn, PaperVersion.__table__, rows, ["arxiv_id", "version"],
           set_={"date": text("CASE WHEN paper_versions.date IS NULL OR excluded.date < paper_versions.date "
                              "THEN excluded.date ELSE paper_versions.date END")})


def _index_papers(conn: Connection, rows: list[dict[str, Any]], new: set[str]) -> None:
    """Index the written rows (only their rowids are read back); a new paper has no old entry to delete."""
    by_id = {r["arxiv_id"]: r for r in rows}
    docs, fresh = [], set()
    for part in chunks(list(by_id)):
        stmt = text("SELECT rowid, arxiv_id FROM papers WHERE arxiv_id IN :ids")
        stmt = stmt.bindparams(bindparam("ids", expanding=True))
        for rowid, aid in conn.execute(stmt, {"ids": list(part)}):
            r = by_id[aid]
            docs.append((rowid, aid, r["title"], r["abstract"] + " " + " ".join(json.loads(r["authors"]))))
            if aid in new:
                fresh.add(rowid)
    replace_fts(conn, "paper", docs, fresh=fresh)


def add_sightings(conn: Connection, sightings: list[Sighting]) -> int:
    """Record sightings (idempotent on paper, source, date, kind); return how many were new."""
    if not sightings:
        return 0
    table = SightingRow.__table__
    before = conn.execute(text("SELECT count(*) FROM sightings")).scalar_one()
    rows = [{"arxiv_id": s.arxiv_id, "source": s.source, "seen_on": s.seen_on, "kind": s.kind,
             "version": s.version, "upvotes": s.upvotes, "url": s.url} for s in sightings]
    upsert(conn, table, rows, ["arxiv_id", "source", "seen_on", "kind"], update=["version", "upvotes", "url"])
    first: dict[str, str] = {}
    for s in sightings:
        first[s.arxiv_id] = min(first.get(s.arxiv_id, s.seen_on), s.seen_on)
    conn.execute(
        text("UPDATE papers SET first_seen = :d WHERE arxiv_id = :a AND (first_seen IS NULL OR first_seen > :d)"),
        [{"a": a, "d": d} for a, d in first.items()])
    # A listing announces a version on its own date: that is the version's date when nothing better is known.
    announced = {(s.arxiv_id, s.version): s.seen_on for s in sightings
                 if s.version and s.kind in ("new", "cross", "replace", "replace-cross")}
    known = set()
    for part in chunks(sorted({a for a, _ in announced})):
        stmt = text("SELECT arxiv_id FROM papers WHERE arxiv_id IN :ids").bindparams(bindparam("ids", expanding=True))
        known |= {r[0] for r in conn.execute(stmt, {"ids": list(part)})}
    _upsert_versions(conn, {k: d for k, d in announced.items() if k[0] in known})
    return conn.execute(text("SELECT count(*) FROM sightings")).scalar_one() - before


def upsert_posts(conn: Connection, posts: list[PostRecord]) -> WriteCounts:
    """Insert or update blog posts keyed by guid/link; index their text."""
    counts = WriteCounts()
    table = Post.__table__
    keys = [p.key for p in posts]
    old: dict[str, dict[str, Any]] = {}
    for part in chunks(keys):
        for r in conn.execute(select(table).where(table.c.key.in_(part))).mappings():
            old[r["key"]] = dict(r)
    rows = {}
    for p in posts:
        rows[p.key] = {"key": p.key, "feed": p.feed, "title": p.title, "url": p.url, "published": p.published,
                       "authors": dumps(p.authors), "summary": p.summary, "tags": dumps(p.tags),
                       "content": p.content}
    dirty = []
    for key, row in rows.items():
        if key not in old:
            counts.new += 1
        elif old[key] != row:
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        dirty.append(row)
    upsert(conn, table, dirty, ["key"])
    docs = []
    for part in chunks([r["key"] for r in dirty]):
        stmt = text("SELECT rowid, key, title, summary || ' ' || content FROM posts WHERE key IN :k").bindparams(
            bindparam("k", expanding=True))
        docs += [tuple(r) for r in conn.execute(stmt, {"k": list(part)})]
    replace_fts(conn, "post", docs)
    return counts


def register_source(conn: Connection, name: str, kind: str, url: str | None, credibility: int | None) -> None:
    """Create or update a source's row (its config part; ETag/Last-Modified are kept)."""
    upsert(conn, Source.__table__, [{"name": name, "kind": kind, "url": url, "credibility": credibility}],
           ["name"], update=["kind", "url", "credibility"])


def save_validators(conn: Connection, name: str, etag: str | None, last_modified: str | None,
                    digest: str | None = None) -> None:
    """Remember what the next fetch needs to know: ETag, Last-Modified, the payload's digest."""
    conn.execute(text("UPDATE sources SET etag = :e, last_modified = :l, payload_hash = coalesce(:h, payload_hash) "
                      "WHERE name = :n"),
                 {"e": etag, "l": last_modified, "h": digest, "n": name})


def record_id_checks(conn: Connection, found: list[str], unknown: list[str], day: str) -> None:
    """Remember what the arXiv API said about cited IDs (found / unknown) and when."""
    from kb.store.schema import IdCheck
    rows = [{"arxiv_id": i, "status": "found", "checked_on": day} for i in found]
    rows += [{"arxiv_id": i, "status": "unknown", "checked_on": day} for i in unknown]
    upsert(conn, IdCheck.__table__, rows, ["arxiv_id"])
