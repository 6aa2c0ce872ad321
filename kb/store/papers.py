"""Papers: metadata merged across sources, versions, field history, sightings, ID checks.

A newer (or equal) version overwrites the metadata a source owns and every change
is recorded in ``paper_changes``; a versionless source (HF, blogs) only fills empty
columns. Every observation is a row of ``sightings`` (source, its own date, kind,
version, upvotes): the provenance of the card.
"""
from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

from kb.arxiv_id import lookup_arxiv_id, parse_arxiv_id
from kb.errors import ConfigError, NotFound
from kb.names import title_name_key
from kb.records import PaperRecord, Sighting
from kb.store.db import Store
from kb.store.fts import paper_document
from kb.store.rows import Tx, chunks, dumps, row
from kb.store.search import index_docs
from kb.store.tags import enqueue
from kb.text import shortened

# Columns a paper's metadata source owns. A newer (or equal) version overwrites
# them; a source that knows no version (HF, blogs) only fills what is empty.
_OWNED = ("title", "authors", "abstract", "categories", "primary_category", "updated",
          "doi", "journal_ref", "comment")
ANNOUNCED = ("new", "cross", "replace", "replace-cross")   # listing sightings: a version on its own date


@dataclass
class WriteCounts:
    new: int = 0
    updated: int = 0
    unchanged: int = 0

    def __iadd__(self, other: WriteCounts) -> WriteCounts:
        self.new, self.updated, self.unchanged = (self.new + other.new, self.updated + other.updated,
                                                  self.unchanged + other.unchanged)
        return self


@dataclass(frozen=True)
class PaperText:
    """What the classifier and the briefing read of a paper."""

    arxiv_id: str
    title: str
    abstract: str
    primary_category: str | None


# --------------------------------------------------------------------------- merge (pure)
def _empty(value: Any) -> bool:
    return value in (None, "", "[]")


def _earliest(*dates: str | None) -> str | None:
    present = [d for d in dates if d]
    return min(present) if present else None


def merge_paper(old: dict[str, Any] | None, rec: PaperRecord, source: str
                ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The row after ``rec`` is applied to ``old``, and the field changes to record."""
    incoming = row("papers", rec, title=rec.title.strip(), abstract=rec.abstract.strip(),
                   authors=rec.authors or [], categories=rec.categories or [])
    v1_date = min((d for _, d in rec.versions if d), default=None)
    if old is None:
        incoming.update(latest_version=rec.version, published=_earliest(rec.published, v1_date), first_seen=None,
                        name_key=title_name_key(incoming["title"]))
        return incoming, []
    merged = dict(old)
    newest = rec.version is not None and (old["latest_version"] is None or rec.version >= old["latest_version"])
    changes = []
    for col in _OWNED:
        new, cur = incoming[col], old[col]
        if _empty(new) or new == cur:
            continue
        if _empty(cur) or newest:
            merged[col] = new
            if not _empty(cur):
                changes.append(row("paper_changes", arxiv_id=rec.arxiv_id, version=rec.version, field=col,
                                   old_value=cur, new_value=new, source=source))
    if rec.version is not None and (old["latest_version"] or 0) < rec.version:
        merged["latest_version"] = rec.version
    merged["published"] = _earliest(old["published"], rec.published, v1_date)
    merged["name_key"] = title_name_key(merged["title"])
    return merged, changes


# --------------------------------------------------------------------------- writes
def _load(tx: Tx, ids: list[str]) -> dict[str, dict[str, Any]]:
    return {r["arxiv_id"]: dict(r) for r in map(lambda r: r._mapping,
                                                  tx.select_in("SELECT * FROM papers WHERE arxiv_id IN :values", ids))}


def save_papers(tx: Tx, records: list[PaperRecord], source: str) -> WriteCounts:
    """Merge ``records`` into the papers table; keep version dates and field history; index the text."""
    counts = WriteCounts()
    merged: dict[str, dict[str, Any]] = {}
    old_rows = _load(tx, sorted({r.arxiv_id for r in records}))
    changes: list[dict[str, Any]] = []
    versions: dict[tuple[str, int], str | None] = {}
    for rec in records:
        base = merged.get(rec.arxiv_id, old_rows.get(rec.arxiv_id))
        merged_row, ch = merge_paper(base, rec, source)
        merged[rec.arxiv_id] = merged_row
        changes += ch
        for n, d in rec.versions:
            versions[(rec.arxiv_id, n)] = d or versions.get((rec.arxiv_id, n))
        if rec.version is not None:
            versions.setdefault((rec.arxiv_id, rec.version), rec.updated)
    dirty = []
    for aid, merged_row in merged.items():
        if aid not in old_rows:
            counts.new += 1
        elif merged_row != old_rows[aid]:
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        dirty.append(merged_row)
    tx.upsert("papers", dirty, ["arxiv_id"])
    tx.insert("paper_changes", changes)
    _save_versions(tx, versions)
    _index(tx, dirty, new={a for a in merged if a not in old_rows})
    enqueue(tx, "paper", [r["arxiv_id"] for r in dirty])
    return counts


def _save_versions(tx: Tx, versions: dict[tuple[str, int], str | None]) -> None:
    rows = [row("paper_versions", arxiv_id=a, version=n, date=d) for (a, n), d in sorted(versions.items())]
    # A known date is never replaced by an unknown one, nor by a later announcement of the same version.
    tx.upsert("paper_versions", rows, ["arxiv_id", "version"],
              set_={"date": "CASE WHEN paper_versions.date IS NULL OR excluded.date < paper_versions.date "
                            "THEN excluded.date ELSE paper_versions.date END"})


def _index(tx: Tx, rows: list[dict[str, Any]], new: set[str]) -> None:
    """Index the written rows; a new paper has no old entry to delete."""
    docs = [(r["arxiv_id"], *paper_document(r["title"], r["abstract"], r["authors"])) for r in rows]
    index_docs(tx, "paper", docs, fresh=new)


def add_sightings(tx: Tx, sightings: list[Sighting]) -> None:
    """Record sightings (idempotent on paper, source, date, kind) and what they say of first-seen and versions."""
    if not sightings:
        return
    tx.upsert("sightings", [row("sightings", s) for s in sightings], ["arxiv_id", "source", "seen_on", "kind"],
              update=["version", "upvotes", "url"])
    first: dict[str, str] = {}
    for s in sightings:
        first[s.arxiv_id] = min(first.get(s.arxiv_id, s.seen_on), s.seen_on)
    by_day: dict[str, list[str]] = {}   # a night's sightings fall on a few days: one statement per day
    for arxiv_id, day in first.items():
        by_day.setdefault(day, []).append(arxiv_id)
    for day, ids in sorted(by_day.items()):
        tx.run_in("UPDATE papers SET first_seen = :d "
                  "WHERE arxiv_id IN :values AND (first_seen IS NULL OR first_seen > :d)", ids, d=day)
    # A listing announces a version on its own date: that is the version's date when nothing better is known.
    announced = {(s.arxiv_id, s.version): s.seen_on for s in sightings if s.version and s.kind in ANNOUNCED}
    known = {r[0] for r in tx.select_in("SELECT arxiv_id FROM papers WHERE arxiv_id IN :values",
                                        sorted({a for a, _ in announced}))}
    _save_versions(tx, {k: d for k, d in announced.items() if k[0] in known})


def save_id_checks(tx: Tx, found: list[str], unknown: list[str], day: str) -> None:
    """Remember what the arXiv API said about cited IDs (found / unknown) and when."""
    rows = [row("id_checks", arxiv_id=i, status="found", checked_on=day) for i in found]
    rows += [row("id_checks", arxiv_id=i, status="unknown", checked_on=day) for i in unknown]
    tx.upsert("id_checks", rows, ["arxiv_id"])


# --------------------------------------------------------------------------- reads
def _in(store: Store, sql: str, ids: Iterable[str]) -> list[Any]:
    """Rows of ``sql`` (with one ``IN ({marks})``) for ``ids``, asked in chunks."""
    out: list[Any] = []
    for part in chunks(sorted(set(ids))):
        out += store.query(sql.format(marks=",".join("?" * len(part))), tuple(part))
    return out


def existing_ids(store: Store, ids: Iterable[str]) -> set[str]:
    """Which of ``ids`` the store has metadata for (an indexed look-up per ID, never a scan)."""
    return {r[0] for r in _in(store, "SELECT arxiv_id FROM papers WHERE arxiv_id IN ({marks})", ids)}


def paper_texts(store: Store, ids: Iterable[str]) -> dict[str, PaperText]:
    """Title, abstract and category of the given papers."""
    return {r[0]: PaperText(*r) for r in _in(
        store, "SELECT arxiv_id, title, abstract, primary_category FROM papers WHERE arxiv_id IN ({marks})", ids)}


def paper_titles(store: Store, ids: Iterable[str], as_of: str | None = None) -> dict[str, str]:
    """The store's title of each of ``ids`` that has one; with ``as_of``, the title it had on that day
    (``texts_before``)."""
    out = {r[0]: r[1] for r in _in(store, "SELECT arxiv_id, title FROM papers WHERE arxiv_id IN ({marks}) "
                                   "AND title <> ''", ids)}
    if as_of is not None:
        out.update((i, t["title"]) for i, t in texts_before(store, out, as_of).items() if t.get("title"))
    return out


def papers_named(store: Store, keys: Iterable[str]) -> dict[str, dict[str, str]]:
    """Folded coined name → {ID: title} of every stored paper titled with it (``FlashPD: …``; indexed)."""
    out: dict[str, dict[str, str]] = {}
    for key, aid, title in _in(store, "SELECT name_key, arxiv_id, title FROM papers WHERE name_key IN ({marks})",
                               keys):
        out.setdefault(key, {})[aid] = title
    return out


def paper_metadata(store: Store, ids: Iterable[str]) -> dict[str, dict[str, Any]]:
    """What a citation needs of each of ``ids`` the store has: title, authors, dates, category, DOI…"""
    out = {}
    for r in _in(store, "SELECT arxiv_id, latest_version, title, authors, abstract, primary_category, published, "
                 "updated, doi, journal_ref FROM papers WHERE arxiv_id IN ({marks})", ids):
        out[r[0]] = dict(r) | {"authors": _j(r["authors"]) or []}
    return out


def title_of(store: Store, arxiv_id: str) -> str:
    """The paper's title from the store, else from the team's card for it, else ""."""
    rows = store.query("SELECT title FROM papers WHERE arxiv_id = ? AND title <> '' UNION ALL "
                       "SELECT title FROM cards WHERE arxiv_id = ? AND title <> ''", (arxiv_id, arxiv_id))
    return rows[0][0] if rows else ""


def unknown_to_arxiv(store: Store) -> set[str]:
    """IDs the arXiv API answered "no such paper" for."""
    return {r[0] for r in store.query("SELECT arxiv_id FROM id_checks WHERE status = 'unknown'")}


def ids_to_resolve(store: Store, recheck_before: str) -> list[str]:
    """IDs the team's notes, cards and queue cite that the store has no metadata for: never asked
    about, or answered "unknown" on or before ``recheck_before``."""
    rows = store.query(
        "SELECT DISTINCT m.arxiv_id FROM mentions m WHERE m.arxiv_id IS NOT NULL AND m.origin_kind IN "
        "('entry', 'card', 'queue') AND NOT EXISTS (SELECT 1 FROM papers p WHERE p.arxiv_id = m.arxiv_id) "
        "AND NOT EXISTS (SELECT 1 FROM id_checks c WHERE c.arxiv_id = m.arxiv_id AND "
        "(c.status = 'found' OR c.checked_on > ?)) ORDER BY m.arxiv_id", (recheck_before,))
    return [r[0] for r in rows]


@dataclass(frozen=True)
class SightingView:
    """A sighting with its paper's title and abstract, as the briefing reads it."""

    arxiv_id: str
    source: str
    seen_on: str
    kind: str
    version: int | None
    upvotes: int | None
    url: str | None
    title: str | None
    abstract: str | None


def sightings_between(store: Store, first_day: str, last_day: str, *,
                      skip_kinds: tuple[str, ...] = ("bulk", "api", "blog")) -> list[SightingView]:
    """Sightings dated ``first_day`` … ``last_day`` (indexed by date; a backfill's kinds left out), each paper's
    title and abstract as they were on ``last_day`` (``texts_before``)."""
    marks = ",".join("?" * len(skip_kinds))
    rows = [SightingView(*r) for r in store.query(
        "SELECT s.arxiv_id, s.source, s.seen_on, s.kind, s.version, s.upvotes, s.url, p.title, p.abstract "
        "FROM sightings s LEFT JOIN papers p ON p.arxiv_id = s.arxiv_id "
        f"WHERE s.seen_on >= ? AND s.seen_on <= ? AND s.kind NOT IN ({marks}) "
        "ORDER BY s.arxiv_id, s.source, s.seen_on", (first_day, last_day, *skip_kinds))]
    then = texts_before(store, {r.arxiv_id for r in rows}, last_day)
    return [replace(r, **then[r.arxiv_id]) if r.arxiv_id in then else r for r in rows]


def texts_before(store: Store, ids: Iterable[str], day: str, until: str | None = None) -> dict[str, dict[str, str]]:
    """Of ``ids``, those whose title or abstract a version dated after ``day`` (and, with ``until``, not after it)
    changed: field → the text it had on ``day`` (the replaced text of the first such change). A past day rebuilt
    after a v2 retitled a paper shows the title of that night."""
    out: dict[str, dict[str, str]] = {}
    for part in chunks(sorted(set(ids))):
        marks = ",".join("?" * len(part))
        for arxiv_id, field_name, old in store.query(
                "SELECT c.arxiv_id, c.field, c.old_value FROM paper_changes c JOIN paper_versions v "
                f"ON v.arxiv_id = c.arxiv_id AND v.version = c.version WHERE c.arxiv_id IN ({marks}) "
                "AND c.field IN ('title', 'abstract') AND v.date > ? AND v.date <= ? "
                "ORDER BY c.arxiv_id, c.field, c.version, c.id", (*part, day, until or "9999-12-31")):
            out.setdefault(arxiv_id, {}).setdefault(field_name, old)
    return out


_SOURCES = {"sqlite": "group_concat(DISTINCT s.source)", "postgresql": "string_agg(DISTINCT s.source, ',')"}


def query_papers(store: Store, *, since: str | None = None, until: str | None = None, source: str | None = None,
                 topic: str | None = None, relevance: str | None = None) -> list[dict[str, Any]]:
    """Papers seen by a source within [since, until] (the sources' own dates), by arXiv ID.

    A function of what was ingested, not of when: no fetch timestamps appear.
    """
    where, params = ["1 = 1"], []
    for cond, value in (("s.seen_on >= ?", since), ("s.seen_on <= ?", until), ("s.source = ?", source)):
        if value:
            where.append(cond)
            params.append(value)
    sql = ("SELECT p.arxiv_id, p.latest_version AS version, p.title, p.primary_category, p.published, "
           f"p.abstract, min(s.seen_on) AS seen_on, {_SOURCES[store.dialect]} AS sources "
           "FROM papers p JOIN sightings s ON s.arxiv_id = p.arxiv_id "
           f"WHERE {' AND '.join(where)} ")
    if topic:
        sql += ("AND EXISTS (SELECT 1 FROM tags t WHERE t.subject_kind = 'paper' AND t.subject = p.arxiv_id "
                "AND t.topic = ?) ")
        params.append(topic)
    if relevance:
        sql += ("AND EXISTS (SELECT 1 FROM classifications c WHERE c.subject_kind = 'paper' "
                "AND c.subject = p.arxiv_id AND c.relevance = ?) ")
        params.append(relevance)
    sql += "GROUP BY p.arxiv_id ORDER BY p.arxiv_id"
    rows = [dict(r) for r in store.query(sql, tuple(params))]
    for r in rows:
        r["sources"] = sorted(set((r["sources"] or "").split(","))) if r["sources"] else []
        r["url"] = f"https://arxiv.org/abs/{r['arxiv_id']}"
    return rows


def _j(value: str | None) -> Any:
    return json.loads(value) if value else []


def get_paper(store: Store, ident: str, *, topics: Collection[str] | None = None) -> dict[str, Any]:
    """Everything the store knows about one paper, given its ID in any common form.

    ``topics`` keeps the anchors and flags of those docs only (the CLI's docs kb.toml configures now): a doc
    renamed or taken out of kb.toml keeps its rows in the store, frozen at its last reading, and they would
    list every anchor twice after a rename, or anchors the team has since removed."""
    aid = lookup_arxiv_id(ident)
    if aid is None:
        raise ConfigError(f"{shortened(ident, 80)!r} is not an arXiv ID (forms: 2607.09701, arXiv:2607.09701v2, "
                       "https://arxiv.org/abs/…, hep-th/9901001)")
    rows = store.query("SELECT * FROM papers WHERE arxiv_id = ?", (aid.id,))
    mentions = store.query(
        "SELECT origin_kind, origin, entry, version, seen_on FROM mentions WHERE subject = ? "
        "ORDER BY seen_on NULLS FIRST, origin, entry", (aid.id,))
    anchors = store.query(
        "SELECT topic, section, doc_version, anchored_on, first_seen, last_seen, ended_on, label FROM anchors "
        "WHERE arxiv_id = ? ORDER BY topic, section", (aid.id,))
    shown = [a for a in anchors if topics is None or a["topic"] in topics]
    if not rows and not mentions and not shown:
        if anchors:
            raise NotFound(f"{aid.id} is anchored only in docs kb.toml does not configure now "
                           f"({', '.join(sorted({a['topic'] for a in anchors}))})")
        raise NotFound(f"{aid.id} is not in the store")
    paper: dict[str, Any] = {"arxiv_id": aid.id}
    if rows:
        r = dict(rows[0])
        paper.update(r, authors=_j(r["authors"]), categories=_j(r["categories"]))
    else:
        paper.update(title=None, note="known only from mentions or anchors; not yet resolved")
    paper["versions"] = [dict(v) for v in store.query(
        "SELECT version, date FROM paper_versions WHERE arxiv_id = ? ORDER BY version", (aid.id,))]
    paper["sources"] = [dict(s) for s in store.query(
        "SELECT source, seen_on, kind, version, upvotes, url FROM sightings WHERE arxiv_id = ? "
        "ORDER BY seen_on, source, kind", (aid.id,))]
    paper["changes"] = [dict(c) for c in store.query(
        "SELECT version, field, source FROM paper_changes WHERE arxiv_id = ? ORDER BY id", (aid.id,))]
    paper["anchors"] = [dict(a) for a in shown]
    paper["mentions"] = [dict(m) for m in mentions]
    paper["cards"] = [dict(c) for c in store.query(
        "SELECT path, title, created, hf_upvotes, primary_topic FROM cards WHERE arxiv_id = ? OR file_id = ? "
        "ORDER BY path", (aid.id, aid.id))]
    paper["tags"] = [dict(t, terms=_j(t["terms"])) for t in store.query(
        "SELECT topic, score, terms FROM tags WHERE subject_kind = 'paper' AND subject = ? "
        "ORDER BY score DESC, topic", (aid.id,))]
    rel = store.query("SELECT relevance FROM classifications WHERE subject_kind = 'paper' AND subject = ?",
                      (aid.id,))
    paper["relevance"] = rel[0]["relevance"] if rel else None
    # in learned mode each doc judges the paper for itself (its labels, the team's corrections): what its
    # briefing keeps, which the general judgement above may not be
    paper["relevance_by_doc"] = {r["doc"]: r["relevance"] for r in store.query(
        "SELECT doc, relevance FROM doc_relevance WHERE subject_kind = 'paper' AND subject = ? ORDER BY doc",
        (aid.id,)) if topics is None or r["doc"] in topics}
    # LIKE narrows the flags to those whose evidence holds the ID; the paper's are those where the subject or a
    # whole string of the evidence (a key, a value) is the ID, any version of it (2610.12345v2 is the paper),
    # not text that holds the ID among other words nor an ID another one begins with.
    paper["flags"] = [{k: f[k] for k in ("id", "rule", "status", "subject")} for f in store.query(
        "SELECT id, rule, status, subject, topic, evidence FROM flags WHERE subject LIKE ? OR evidence LIKE ? "
        "ORDER BY id", (f"%{aid.id}%", f"%{aid.id}%"))
        if (topics is None or f["topic"] in topics)
        and any(_is_id(s, aid.id) for s in (f["subject"], *_strings(f["evidence"])))]
    return paper


def _is_id(text: str, arxiv_id: str) -> bool:
    """Whether ``text`` is, whole, the paper ``arxiv_id`` written in an ID's form (``2610.12345``,
    ``2610.12345v2``, ``arXiv:2610.12345``, its arxiv.org URL)."""
    if text == arxiv_id:
        return True
    return arxiv_id in text and (parsed := parse_arxiv_id(text)) is not None and parsed.id == arxiv_id


def _strings(evidence: str) -> set[str]:
    """Every string of a flag's JSON evidence, keys and values, at any depth."""
    out: set[str] = set()
    todo: list[Any] = [json.loads(evidence)]
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, dict):
            out.update(value)
            todo += value.values()
        elif isinstance(value, list):
            todo += value
    return out


__all__ = ["ANNOUNCED", "PaperText", "SightingView", "WriteCounts", "add_sightings", "dumps", "existing_ids",
           "get_paper", "ids_to_resolve", "merge_paper", "paper_texts", "query_papers", "save_id_checks",
           "save_papers", "sightings_between", "title_of", "unknown_to_arxiv"]
