"""Gather what the verification rules and the briefing need from the store, once per briefing."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kb.queries import current_doc_version, known_arxiv_ids
from kb.store import Store
from pipeline.brief.model import Window
from pipeline.brief.verify import Facts


@dataclass
class StoredTag:
    topic: str
    score: float
    terms: tuple[str, ...]


@dataclass
class StoredResult:
    """A classification the classify stage already stored, shaped like the classifier's result."""

    relevance: str
    tags: list[StoredTag] = field(default_factory=list)


def stored_classifications(store: Store, taxonomy_hash: str) -> dict[str, StoredResult]:
    """Papers' relevance and tags from the classify stage, when made with this taxonomy."""
    def key(kind: str, subject: str) -> str:
        return subject if kind == "paper" else f"entry:{subject}"   # papers by ID, note entries by path#N
    out = {key(r["subject_kind"], r["subject"]): StoredResult(r["relevance"]) for r in store.query(
        "SELECT subject_kind, subject, relevance FROM classifications WHERE subject_kind IN ('paper', 'entry') "
        "AND taxonomy_hash = ?", (taxonomy_hash,))}
    for r in store.query("SELECT subject_kind, subject, topic, score, terms FROM tags WHERE subject_kind IN "
                         "('paper', 'entry') AND taxonomy_hash = ? ORDER BY subject_kind, subject, score DESC, topic",
                         (taxonomy_hash,)):
        k = key(r["subject_kind"], r["subject"])
        if k in out:
            out[k].tags.append(StoredTag(r["topic"], r["score"], tuple(json.loads(r["terms"]))))
    return out


def gather_facts(store: Store, topic: str, taxonomy: Any, classify: Any, until: str,
                 stored: dict[str, StoredResult] | None = None, known_ids: set[str] | None = None) -> Facts:
    """Known IDs, mentions per ID (up to ``until``: a later day never leaks into an earlier briefing),
    card mismatches, anchored items' topics per section."""
    f = Facts()
    f.known_ids = known_arxiv_ids(store) if known_ids is None else known_ids
    f.unknown_to_arxiv = {r[0] for r in store.query("SELECT arxiv_id FROM id_checks WHERE status = 'unknown'")}
    for r in store.query("SELECT arxiv_id, origin_kind, origin, entry FROM mentions WHERE arxiv_id IS NOT NULL "
                         "AND (seen_on IS NULL OR seen_on <= ?) ORDER BY origin, entry", (until,)):
        where = f"{r['origin']}#{r['entry']}" if r["origin_kind"] == "entry" else r["origin"]
        f.mentions.setdefault(r["arxiv_id"], [])
        if where not in f.mentions[r["arxiv_id"]]:
            f.mentions[r["arxiv_id"]].append(where)
    f.card_mismatches = [(r["path"], r["file_id"], r["arxiv_id"]) for r in store.query(
        "SELECT path, file_id, arxiv_id FROM cards WHERE file_id IS NOT NULL AND arxiv_id IS NOT NULL "
        "AND file_id <> arxiv_id ORDER BY path")]
    for t in taxonomy.topics:
        sec = taxonomy.section_for(t, topic)
        if sec:
            f.section_topics.setdefault(sec.lstrip("§"), set()).add(t)
    doc = current_doc_version(store, topic)
    if doc:
        f.speedup_texts.append((f"knowledge doc {doc['version']}", _anchor_labels(store, topic)))
    return f


def add_anchored_topics(f: Facts, store: Store, topic: str, sections: set[str], taxonomy: Any, classify: Any,
                        stored: dict[str, StoredResult]) -> None:
    """What the items anchored in ``sections`` are about (topics, matched terms): the briefing needs it
    only for the sections of the increments it shows, so only those are classified."""
    rows = store.query("SELECT a.section, a.subject, a.arxiv_id, a.label, p.title, p.abstract FROM anchors a "
                       "LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id WHERE a.topic = ? AND a.ended_on IS NULL "
                       "ORDER BY a.section, a.subject", (topic,))
    for r in rows:
        if r["section"] not in sections or r["section"] in f.anchored_topics and any(
                s == r["subject"] for s, *_ in f.anchored_topics[r["section"]]):
            continue
        result = stored.get(r["arxiv_id"] or "")
        if result is None:
            text = " ".join(x for x in (r["title"], r["abstract"]) if x) or r["label"]
            result = classify(text, title=r["title"] or "", taxonomy=taxonomy)
        f.anchored_topics.setdefault(r["section"], []).append(
            (r["subject"], r["title"] or r["label"], {t.topic for t in result.tags},
             {term for t in result.tags for term in t.terms}))


def _anchor_labels(store: Store, topic: str) -> str:
    """Every current anchor line of the doc: the team's own figures (e.g. "SEIS 3.27×") live there."""
    rows = store.query("SELECT label FROM anchors WHERE topic = ? AND ended_on IS NULL", (topic,))
    return "\n".join(r["label"] for r in rows)


def baseline(store: Store, topic: str) -> dict[str, Any]:
    """The knowledge doc's latest version, its date, the hand-kept 引→N and kb's own count of anchors."""
    current = current_doc_version(store, topic)
    rows = [current] if current else []
    count = store.query("SELECT count(DISTINCT subject) FROM anchors WHERE topic = ? AND ended_on IS NULL",
                        (topic,))[0][0]
    if not rows:
        return {"path": None, "version": None, "version_date": None, "cited_hand": None, "cited_kb": count}
    r = rows[0]
    return {"path": r["path"], "version": r["version"], "version_date": r["version_date"],
            "cited_hand": r["cited_count"], "cited_kb": count}


def recent_anchors(store: Store, topic: str, window: Window) -> list[dict[str, Any]]:
    """Anchors made since the day before the window opened: the continuing anchors of this round."""
    since = window.start[:10]
    return [dict(r) for r in store.query(
        "SELECT a.arxiv_id, a.section, a.anchored_on, a.label, p.title FROM anchors a LEFT JOIN papers p "
        "ON p.arxiv_id = a.arxiv_id WHERE a.topic = ? AND a.ended_on IS NULL AND a.arxiv_id IS NOT NULL "
        "AND a.anchored_on >= ? AND a.anchored_on <= ? ORDER BY a.anchored_on, a.arxiv_id",
        (topic, since, window.end[:10]))]


def history(store: Store, topic: str, day: str) -> list[int]:
    """NET-new counts of earlier briefings, oldest first."""
    rows = store.query("SELECT date, net_new FROM briefings WHERE topic = ? AND date < ? AND format = 'json' "
                       "ORDER BY date", (topic, day))
    return [r["net_new"] for r in rows]


def source_runs(store: Store, day: str) -> list[dict[str, Any]]:
    """Each source's ledger row for the run date: the last one that read content.

    A rerun that found nothing changed (304, same bytes) writes a "not-modified" row; the
    briefing still describes the content of the day, so such a row never hides the one
    that read it.
    """
    rows = store.query("SELECT * FROM source_runs WHERE run_date = ? ORDER BY id", (day,))
    last: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["status"] != "not-modified" or r["source"] not in last:
            last[r["source"]] = dict(r)
    cred = {r["name"]: r["credibility"] for r in store.query("SELECT name, credibility FROM sources")}
    return [{**v, "credibility": cred.get(k)} for k, v in sorted(last.items())]
