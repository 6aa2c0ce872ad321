"""Knowledge docs and their anchors: each version read, and which paper or URL is anchored where.

Anchors carry history (first seen, last seen, ended), so a re-read doc updates them in
place and an ID that left a section ends its anchor instead of deleting it.
"""
from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from kb.errors import ConfigError
from kb.records import KnowledgeDoc
from kb.sections import section_key, section_matches
from kb.store.db import Store
from kb.store.rows import Tx, row
from kb.text import normalize_url, strip_anchor_syntax


# --------------------------------------------------------------------------- writes
def save_knowledge_doc(tx: Tx, doc: KnowledgeDoc, content_hash: str, day: str) -> dict[str, int]:
    """Record this version of a doc and bring its anchors up to date; return counts.

    ``day`` is the run's date (injected, never the wall clock): an anchor with no
    date written on its line is anchored on the day kb first saw it.
    """
    sections = [{"number": s.number, "title": s.title, "level": s.level, "parent": s.parent} for s in doc.sections]
    tx.upsert("doc_versions", [row("doc_versions", doc, content_hash=content_hash, read_on=day, sections=sections)],
              ["topic", "content_hash"], update=[])
    tx.insert("doc_readings", [row("doc_readings", topic=doc.topic, content_hash=content_hash, read_on=day)])
    existing = {(r.section, r.subject): dict(r._mapping)
                for r in tx.run("SELECT * FROM anchors WHERE topic = :t", {"t": doc.topic})}
    seen: dict[tuple[str, str], dict[str, Any]] = {}
    for s in doc.sections:
        for a in s.anchors:
            subject = a.arxiv_id or a.url
            if subject and (s.number, subject) not in seen:
                seen[(s.number, subject)] = {"section": s.number, "subject": subject, "ref": a}
    rows, counts = [], {"anchors": len(seen), "new": 0, "ended": 0}
    # On the first reading of a doc, an undated anchor predates kb: its date is unknown, not today.
    baseline = not existing
    moved = _open_dates({k: r for k, r in existing.items() if k not in seen})
    for key, found in seen.items():
        old = existing.get(key)
        a = found["ref"]
        first = old["first_seen"] if old else day
        counts["new"] += old is None
        # Written on the line wins; else what it was; a line moved to another section keeps its subject's
        # date (H2O from §3.3 to §2.5 was not anchored today); a truly new anchor is dated today (unless
        # baseline); a date written but impossible ("2026-02-30") is unknown, not the day kb saw it.
        if a.date_unreadable:
            derived = None
        elif old:
            derived = old["anchored_on"]
        elif found["subject"] in moved:
            derived = moved[found["subject"]]
        else:
            derived = None if baseline else first
        rows.append(row("anchors", a, topic=doc.topic, section=found["section"], subject=found["subject"],
                        url=None if a.arxiv_id else a.url, anchored_on=a.anchored_on or derived,
                        first_seen=first, last_seen=day, ended_on=None, doc_version=doc.version))
    # a date the line no longer gives is kept until today: a past day counts the anchor with that day's date
    changed = [row("anchor_dates", anchor_id=old["id"], until_day=day, anchored_on=old["anchored_on"])
               for r in rows if (old := existing.get((r["section"], r["subject"]))) is not None
               and old["anchored_on"] != r["anchored_on"] and old["ended_on"] is None]
    if changed:
        tx.insert("anchor_dates", changed)
    tx.upsert("anchors", rows, ["topic", "section", "subject"])
    gone = [k for k, old in existing.items() if k not in seen and old["ended_on"] is None]
    tx.run("UPDATE anchors SET ended_on = :d WHERE topic = :t AND section = :s AND subject = :x",
           [{"d": day, "t": doc.topic, "s": s, "x": x} for s, x in gone])
    counts["ended"] = len(gone)
    return counts


def _open_dates(left: dict[tuple[str, str], dict[str, Any]]) -> dict[str, str | None]:
    """Subject → its anchoring date among the open anchors this reading ends (the earliest; unknown if any
    is): where a subject that left its section takes its date to. One still in its section that is also
    written in a new one was anchored there today."""
    out: dict[str, str | None] = {}
    for (_, subject), r in left.items():
        if r["ended_on"] is None:
            if subject in out:
                out[subject] = None if out[subject] is None or r["anchored_on"] is None \
                    else min(out[subject], r["anchored_on"])
            else:
                out[subject] = r["anchored_on"]
    return out


# --------------------------------------------------------------------------- reads
# An anchor counts for day D when it was anchored by D (its written date, else the day kb first saw it), in
# the doc of day D (``current_doc_version``): the lines kb had read by D that had not ended by then, so a
# past day rebuilt later sees the doc as it was, with its own section numbers; the next version's lines (a
# renumbered section, a line written later with an earlier date) are not that day's. A day before kb's first
# reading has no doc of its own; its doc is the one on disk, whose lines count from their dates.
# The date it counts from is the one its line gave on D: a date a later reading changed (a future date
# corrected) is the one kept in anchor_dates until that reading.
_DATE_ON = ("(CASE WHEN EXISTS (SELECT 1 FROM anchor_dates d WHERE d.anchor_id = a.id AND d.until_day > ?) "
            "THEN (SELECT d.anchored_on FROM anchor_dates d WHERE d.anchor_id = a.id AND d.until_day > ? "
            "ORDER BY d.until_day, d.id LIMIT 1) ELSE a.anchored_on END)")
_READ_BY = " AND coalesce(a.first_seen, a.anchored_on) <= ? AND (a.ended_on IS NULL OR a.ended_on > ?)"


def _date_on(day: str | None) -> tuple[str, tuple]:
    """The SQL expression (on alias ``a``) and its parameters for an anchor's date on ``day`` (now, without one)."""
    return ("a.anchored_on", ()) if day is None else (_DATE_ON, (day, day))


def _as_of(store: Store, topic: str, day: str | None) -> tuple[str, tuple]:
    """The SQL condition (on alias ``a``) and its parameters for the anchors of ``topic`` that hold on ``day``
    (now, without one)."""
    if day is None:
        return "a.ended_on IS NULL", ()
    date, params = _date_on(day)
    dated = f"coalesce({date}, a.first_seen) <= ?"
    if _read_by(store, topic, day):
        return dated + _READ_BY, (*params, day, day, day)
    return dated + " AND a.ended_on IS NULL", (*params, day)


def _read_by(store: Store, topic: str, day: str) -> bool:
    """Whether kb had read ``topic``'s doc on or before ``day``."""
    return bool(store.query("SELECT 1 FROM doc_readings WHERE topic = ? AND read_on <= ? LIMIT 1", (topic, day)))


@dataclass(frozen=True)
class DocVersion:
    topic: str
    path: str
    version: str | None
    version_date: str | None
    cited_count: int | None
    sections: list[dict[str, Any]]
    read_on: str | None = None                      # the day kb first read this version
    problems: list[str] = field(default_factory=list)   # what that reading found
    remarks: list[str] | None = None                # its lines that anchor nothing (None: not kept, before m030)


def docs_read_as(store: Store) -> dict[str, str]:
    """Topic → the content hash of its doc's last reading, which its anchors are of. A doc whose text is not
    its topic's last reading is unread for that topic, unchanged though it is: kb.toml names it under a
    new slug, or under an old one again after it changed."""
    return {r[0]: r[1] for r in store.query(
        "SELECT topic, content_hash FROM doc_readings WHERE id IN (SELECT max(id) FROM doc_readings GROUP BY topic)")}


def current_doc_version(store: Store, topic: str, day: str | None = None) -> DocVersion | None:
    """The version of a topic's knowledge doc that is on disk now (the one whose content the store last
    read), else the newest recorded. A doc reverted to an earlier text is that earlier version again.

    With ``day``, the version as of that day, for its briefing: the one read last on or before it (a
    revert is a reading), else the one on disk. A past day rebuilt after the doc's next version is read
    keeps its own baseline and section numbers."""
    if day is not None:
        rows = store.query(
            "SELECT d.topic, d.path, d.version, d.version_date, d.cited_count, d.sections, d.read_on, d.problems, "
            "d.remarks FROM doc_readings r JOIN doc_versions d "
            "ON d.topic = r.topic AND d.content_hash = r.content_hash "
            "WHERE r.topic = ? AND r.read_on <= ? ORDER BY r.read_on DESC, r.id DESC LIMIT 1", (topic, day))
        if rows:
            return _doc_version(rows[0])
    rows = store.query(
        "SELECT d.topic, d.path, d.version, d.version_date, d.cited_count, d.sections, d.read_on, d.problems, "
        "d.remarks FROM doc_versions d JOIN workspace_files w ON w.path = d.path AND w.content_hash = d.content_hash "
        "WHERE d.topic = ? UNION ALL SELECT * FROM (SELECT topic, path, version, version_date, cited_count, "
        "sections, read_on, problems, remarks FROM doc_versions WHERE topic = ? ORDER BY id DESC LIMIT 1) AS latest",
        (topic, topic))
    return _doc_version(rows[0]) if rows else None


def _doc_version(r: Any) -> DocVersion:
    return DocVersion(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], json.loads(r[7] or "[]"),
                      json.loads(r[8]) if r[8] is not None else None)


def section_titles(store: Store, topic: str, day: str | None = None) -> dict[str, str]:
    """``§number`` → title of the current doc's sections (as of ``day``), in the doc's order."""
    doc = current_doc_version(store, topic, day)
    return {"§" + s["number"]: s["title"] for s in doc.sections} if doc else {}


def section_headings(store: Store, topic: str, day: str | None = None) -> list[tuple[str, str]]:
    """``(number, title)`` of every section heading of the current doc (as of ``day``), in order: a number
    written on two headings (a doc problem) is listed twice."""
    doc = current_doc_version(store, topic, day)
    return [(s["number"], s["title"]) for s in doc.sections] if doc else []


@dataclass(frozen=True)
class AnchorView:
    """A current anchor: where it is, what it names, and its paper's title and abstract if known (on the
    day asked for: ``paper_known``)."""

    section: str
    subject: str
    arxiv_id: str | None
    url: str | None
    label: str
    anchored_on: str | None
    title: str | None
    abstract: str | None
    paper_known: bool = False


def current_anchors(store: Store, topic: str, as_of: str | None = None) -> list[AnchorView]:
    """Every anchor of ``topic`` that holds now (or, given ``as_of``, on that day), by section and subject.

    With ``as_of``, an anchored paper is known only if kb had seen it by then: a past day rebuilt after the
    store learned the paper's title and abstract describes the anchor by its line, as that night did."""
    cond, params = _as_of(store, topic, as_of)
    date, date_params = _date_on(as_of)
    seen, seen_params = ("", ()) if as_of is None else (" AND (p.first_seen IS NULL OR p.first_seen <= ?)", (as_of,))
    return [AnchorView(*r[:8], paper_known=bool(r[8])) for r in store.query(
        f"SELECT a.section, a.subject, a.arxiv_id, a.url, a.label, {date}, p.title, p.abstract, "
        f"p.arxiv_id IS NOT NULL FROM anchors a LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id{seen} "
        f"WHERE a.topic = ? AND {cond} ORDER BY a.section, a.subject", (*date_params, *seen_params, topic, *params))]


def _sections_of(store: Store) -> dict[tuple[str, str], dict[str, Any]]:
    """(topic, section number) → section info, from each topic's current doc version."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    topics = [r[0] for r in store.query("SELECT DISTINCT topic FROM doc_versions ORDER BY topic")]
    for doc in filter(None, (current_doc_version(store, t) for t in topics)):
        for s in doc.sections:
            out[(doc.topic, s["number"])] = {**s, "doc_version": doc.version}
    return out


def query_anchored(store: Store, *, topic: str | None = None, section: str | None = None,
                   since: str | None = None, until: str | None = None,
                   include_ended: bool = False, topics: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Anchored arXiv IDs (and URLs) with their section, date and the doc version that holds them.

    ``topics`` keeps those docs only (the CLI's "every configured doc": one kb.toml no longer names
    keeps its rows in the store, unlisted).

    ``section`` "2.3" also matches its subsections; dates bound the anchoring date. ``until`` keeps an
    anchor with no date from the day kb first saw it, as a briefing of that day counts it (its date is
    unknown, not later); ``since`` asks for anchors dated from a day, which an undated one is not.
    """
    if section is not None and section_key(section) is None:
        raise ConfigError(f"--section {section!r}: expected a section number such as 2.3 or 1.(9)")
    where, params = ["1 = 1"], []
    if not include_ended:
        where.append("a.ended_on IS NULL")
    for cond, value in (("a.topic = ?", topic), ("a.anchored_on >= ?", since),
                        ("coalesce(a.anchored_on, a.first_seen) <= ?", until)):
        if value:
            where.append(cond)
            params.append(value)
    rows = store.query(
        "SELECT a.arxiv_id, a.url, a.topic, a.section, a.anchored_on, a.doc_version, a.first_seen, a.last_seen, "
        "a.ended_on, a.label, p.title FROM anchors a LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id "
        f"WHERE {' AND '.join(where)}", tuple(params))
    sections = _sections_of(store)
    if section is not None and not any(section_matches(num, section) for (t, num) in sections
                                       if (topic is None or t == topic) and (topics is None or t in topics)):
        raise ConfigError(f"--section {section!r}: no such section in the knowledge doc"
                          + (f" of topic {topic!r}" if topic else "s"))
    out = []
    for r in rows:
        if section and not section_matches(r["section"], section) or topics is not None and r["topic"] not in topics:
            continue
        info = sections.get((r["topic"], r["section"]), {})
        out.append({"arxiv_id": r["arxiv_id"], "url": r["url"], "topic": r["topic"], "section": "§" + r["section"],
                    "section_title": info.get("title"), "anchored_on": r["anchored_on"],
                    "doc_version": r["doc_version"], "title": r["title"] or strip_anchor_syntax(r["label"]) or None,
                    "label": r["label"],
                    "first_seen": r["first_seen"], "last_seen": r["last_seen"], "ended_on": r["ended_on"]})
    out.sort(key=lambda a: (a["topic"], section_key(a["section"]) or (), a["anchored_on"] or "",
                            a["arxiv_id"] or a["url"] or ""))
    return out


def anchored_subject_count(store: Store, topic: str, as_of: str | None = None) -> int:
    """kb's own count of what the doc anchors (distinct papers and URLs), now or on ``as_of``."""
    cond, params = _as_of(store, topic, as_of)
    return store.query(f"SELECT count(DISTINCT a.subject) FROM anchors a WHERE a.topic = ? AND {cond}",
                       (topic, *params))[0][0]


@dataclass(frozen=True)
class RecentAnchor:
    arxiv_id: str
    section: str
    anchored_on: str | None
    label: str
    title: str | None


def anchored_between(store: Store, topic: str, first_day: str, last_day: str) -> list[RecentAnchor]:
    """Paper anchors dated ``first_day`` … ``last_day``: the continuing anchors of a round, by date, ID and
    section number — sorted here, so both backends give one order (a paper anchored in two
    sections on one day was listed "§2.5、§2.2" on PostgreSQL and "§2.2、§2.5" on SQLite)."""
    cond, params = _as_of(store, topic, last_day)
    date, date_params = _date_on(last_day)
    rows = [RecentAnchor(*r) for r in store.query(
        f"SELECT a.arxiv_id, a.section, {date}, a.label, p.title FROM anchors a LEFT JOIN papers p "
        f"ON p.arxiv_id = a.arxiv_id WHERE a.topic = ? AND {cond} AND a.arxiv_id IS NOT NULL "
        f"AND {date} >= ? AND {date} <= ?",
        (*date_params, topic, *params, *date_params, first_day, *date_params, last_day))]
    return sorted(rows, key=lambda a: (a.anchored_on or "", a.arxiv_id, section_key(a.section) or (), a.section,
                                       a.label))


def withdrawn_anchors(store: Store, topic: str, day: str, subjects: set[str]
                      ) -> dict[str, list[tuple[str, str | None]]]:
    """Of ``subjects``, those whose anchor the team withdrew by ``day`` and did not anchor again →
    the sections they were anchored in (a struck-through line, or a line taken out of the doc), each with
    the doc version that last had it: its number is that version's (v310's §2.3 is v311's §2.4)."""
    if not subjects:
        return {}
    cond, params = _as_of(store, topic, day)
    rows = store.query(
        "SELECT a.subject, a.section, a.doc_version FROM anchors a WHERE a.topic = ? AND a.ended_on IS NOT NULL "
        "AND a.ended_on <= ? AND NOT EXISTS (SELECT 1 FROM anchors b WHERE b.topic = a.topic "
        f"AND b.subject = a.subject AND {cond.replace('a.', 'b.')}) ORDER BY a.subject, a.section",
        (topic, day, *params))
    out: dict[str, list[tuple[str, str | None]]] = {}
    for subject, section, version in rows:
        if subject in subjects and (section, version) not in out.get(subject, []):
            out.setdefault(subject, []).append((section, version))
    return out


def anchored_sections(store: Store, topic: str, as_of: str | None = None) -> dict[str, list[str]]:
    """Every anchor subject (arXiv ID or normalised URL) → its sections, now or on ``as_of``."""
    return sections_by_subject(current_anchors(store, topic, as_of))


def sections_by_subject(anchors: Iterable[AnchorView]) -> dict[str, list[str]]:
    """Each subject of ``anchors`` (arXiv ID or normalised URL) → its sections, in their order."""
    out: dict[str, list[str]] = {}
    for a in anchors:
        out.setdefault(a.arxiv_id or normalize_url(a.url or ""), []).append(a.section)
    return out
