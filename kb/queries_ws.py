"""Read-side queries over what the workspace contributed: anchors, search, audit."""
from __future__ import annotations

import json
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.errors import ConfigError
from kb.queries import current_doc_version
from kb.sections import section_key, section_matches
from kb.store import Store
from kb.store.fts import to_match_query


def _sections_of(store: Store) -> dict[tuple[str, str], dict[str, Any]]:
    """(topic, section number) → section info, from each topic's latest doc version."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    topics = [r[0] for r in store.query("SELECT DISTINCT topic FROM doc_versions ORDER BY topic")]
    for r in filter(None, (current_doc_version(store, t) for t in topics)):
        for s in json.loads(r["sections"]):
            out[(r["topic"], s["number"])] = {**s, "doc_version": r["version"]}
    return out


def query_anchored(store: Store, *, topic: str | None = None, section: str | None = None,
                   since: str | None = None, until: str | None = None,
                   include_ended: bool = False) -> list[dict[str, Any]]:
    """Anchored arXiv IDs (and URLs) with their section, date and the doc version that holds them.

    ``section`` "2.3" also matches its subsections; dates bound the anchoring date.
    """
    if section is not None and section_key(section) is None:
        raise ConfigError(f"--section {section!r}: expected a section number such as 2.3 or 1.(9)")
    where, params = ["1 = 1"], []
    if not include_ended:
        where.append("a.ended_on IS NULL")
    for cond, value in (("a.topic = ?", topic), ("a.anchored_on >= ?", since), ("a.anchored_on <= ?", until)):
        if value:
            where.append(cond)
            params.append(value)
    rows = store.query(
        "SELECT a.arxiv_id, a.url, a.topic, a.section, a.anchored_on, a.doc_version, a.first_seen, a.last_seen, "
        "a.ended_on, a.label, p.title FROM anchors a LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id "
        f"WHERE {' AND '.join(where)}", tuple(params))
    sections = _sections_of(store)
    out = []
    for r in rows:
        if section and not section_matches(r["section"], section):
            continue
        info = sections.get((r["topic"], r["section"]), {})
        out.append({"arxiv_id": r["arxiv_id"], "url": r["url"], "topic": r["topic"], "section": "§" + r["section"],
                    "section_title": info.get("title"), "anchored_on": r["anchored_on"],
                    "doc_version": r["doc_version"], "title": r["title"], "label": r["label"],
                    "first_seen": r["first_seen"], "last_seen": r["last_seen"], "ended_on": r["ended_on"]})
    out.sort(key=lambda a: (a["topic"], section_key(a["section"]) or (), a["anchored_on"] or "",
                            a["arxiv_id"] or a["url"] or ""))
    return out


def search(store: Store, text: str, *, limit: int = 20) -> list[dict[str, Any]]:
    """Full-text search (bm25) over papers, note entries and posts; Chinese words included."""
    match = to_match_query(text)
    if not match:
        return []
    rows = store.query("SELECT kind, ref, bm25(search_index) AS rank FROM search_index WHERE search_index MATCH ? "
                       "ORDER BY rank, ref LIMIT ?", (match, limit))
    words = [w for w in text.split() if w]
    out = []
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
    flat = " ".join(text.split())
    low = flat.lower()
    hits = [(low.find(w.lower()), w) for w in words if low.find(w.lower()) >= 0]
    if not hits:
        return flat[:width] + ("…" if len(flat) > width else "")
    pos, word = min(hits)
    start = max(0, pos - width // 2)
    end = min(len(flat), pos + len(word) + width // 2)
    return (("…" if start else "") + flat[start:pos] + "[" + flat[pos:pos + len(word)] + "]"
            + flat[pos + len(word):end] + ("…" if end < len(flat) else ""))


def audit(store: Store, *, topic: str | None = None) -> list[dict[str, Any]]:
    """Findings a curator should look at; each with kind, subject and detail."""
    findings: list[dict[str, Any]] = []
    anchors = query_anchored(store, topic=topic)
    seen: dict[tuple[str, str], list[str]] = {}
    for a in anchors:
        if a["arxiv_id"]:
            seen.setdefault((a["topic"], a["arxiv_id"]), []).append(a["section"])
            aid = parse_arxiv_id(a["arxiv_id"])
            anchored = (a["anchored_on"] or "")[:7].replace("-", "")[2:]
            if aid and not aid.is_old_style and anchored and aid.yymm > anchored:
                findings.append({"kind": "id-after-anchor-date", "subject": a["arxiv_id"],
                                 "detail": f"{a['section']}: ID month {aid.yymm} is after its anchoring date "
                                           f"{a['anchored_on']}"})
    for (t, aid), secs in sorted(seen.items()):
        if len(secs) > 1:
            findings.append({"kind": "duplicate-in-doc", "subject": aid,
                             "detail": f"{t}: anchored in {', '.join(secs)}"})
    for r in store.query("SELECT path, file_id, arxiv_id FROM cards WHERE file_id IS NOT NULL AND arxiv_id IS NOT NULL "
                         "AND file_id <> arxiv_id ORDER BY path"):
        findings.append({"kind": "card-id-mismatch", "subject": r["arxiv_id"],
                         "detail": f"{r['path']}: file name says {r['file_id']}, front matter says {r['arxiv_id']}"})
    findings += _unanchored_but_noticed(store)
    return findings


def _unanchored_but_noticed(store: Store) -> list[dict[str, Any]]:
    rows = store.query(
        "SELECT m.arxiv_id, count(DISTINCT m.origin) AS notes FROM mentions m WHERE m.arxiv_id IS NOT NULL "
        "AND m.origin_kind = 'entry' AND NOT EXISTS (SELECT 1 FROM anchors a WHERE a.arxiv_id = m.arxiv_id "
        "AND a.ended_on IS NULL) GROUP BY m.arxiv_id HAVING count(DISTINCT m.origin) >= 2 ORDER BY m.arxiv_id")
    out = [{"kind": "unanchored-mentioned", "subject": r["arxiv_id"],
            "detail": f"mentioned in {r['notes']} notes, anchored nowhere"} for r in rows]
    rows = store.query(
        "SELECT s.arxiv_id, max(s.upvotes) AS up FROM sightings s WHERE s.upvotes >= 10 AND NOT EXISTS "
        "(SELECT 1 FROM anchors a WHERE a.arxiv_id = s.arxiv_id AND a.ended_on IS NULL) AND EXISTS "
        "(SELECT 1 FROM classifications c WHERE c.subject_kind = 'paper' AND c.subject = s.arxiv_id "
        "AND c.relevance <> 'none') GROUP BY s.arxiv_id ORDER BY s.arxiv_id")
    out += [{"kind": "unanchored-upvoted", "subject": r["arxiv_id"],
             "detail": f"{r['up']} HF upvotes on an inference topic, anchored nowhere"} for r in rows]
    return out
