"""Curation findings over the whole store: what a curator should look at, each with kind, subject, detail."""
from __future__ import annotations

from collections.abc import Collection
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.records import CARD_ID_MISMATCH
from kb.store.anchors import query_anchored
from kb.store.cards import card_mismatches
from kb.store.db import Store
from kb.store.notes import file_findings, file_problems, impossible_ids


def audit(store: Store, *, topic: str | None = None, topics: Collection[str] | None = None,
          configured: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Every problem the team's files carry (file and line: the knowledge doc's duplicate or confusable
    section numbers, impossible and future anchoring dates, card mismatches), IDs that cannot exist,
    duplicates, anchors dated before their paper existed, noticed-but-unanchored papers. ``topic`` (or
    ``topics``) keeps those docs' own findings; ``configured`` (the docs kb.toml names now; default: every
    doc the store has read) are the docs where a noticed paper counts as anchored."""
    # a topic's audit leaves out the other docs' own problems (the team's other files are every doc's)
    shown = {topic} if topic is not None else set(topics) if topics is not None else None
    docs = store.query("SELECT DISTINCT topic, path FROM doc_versions") if shown is not None else []
    others = {path for t, path in docs if t not in shown} - {path for t, path in docs if t in shown}
    findings: list[dict[str, Any]] = [{"kind": "file-problem", "subject": path, "detail": problem}
                                      for path, problem in file_problems(store) if path not in others]
    findings += [{"kind": "impossible-id", "subject": written, "detail": f"{path} entry {n}: {why}"}
                 for path, n, written, why in impossible_ids(store)]
    seen: dict[tuple[str, str], list[str]] = {}
    for a in query_anchored(store, topic=topic, topics=topics):
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
    # A card whose file name and front matter disagree is in the cards table and among its file's findings:
    # said once, the table's wording first.
    keyed = [((CARD_ID_MISMATCH, fm_id, path),
              {"kind": CARD_ID_MISMATCH, "subject": fm_id,
               "detail": f"{path}: file name says {file_id}, front matter says {fm_id}"})
             for path, file_id, fm_id in card_mismatches(store)]
    keyed += [((f.kind, f.subject, path), {"kind": f.kind, "subject": f.subject, "detail": f"{path}: {f.text}"})
              for path, f in file_findings(store) if path not in others]
    return findings + said_once(keyed) + _unanchored_but_noticed(store, configured)


def said_once(keyed: list[tuple[tuple[str, str, str], dict[str, Any]]]) -> list[dict[str, Any]]:
    """The findings, each (kind of finding, subject ID, file) once, the first of them kept: how a finding
    is worded never makes it two."""
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for key, finding in keyed:
        seen.setdefault(key, finding)
    return list(seen.values())


def _unanchored_but_noticed(store: Store, configured: Collection[str] | None) -> list[dict[str, Any]]:
    """Papers several notes mention, or many upvoted on an inference topic, that no doc of ``configured``
    anchors now: an anchor in a doc kb.toml no longer names (renamed, taken out) is one nobody reads."""
    in_docs, docs = _in_docs(configured)
    rows = store.query(
        "SELECT m.arxiv_id, count(DISTINCT m.origin) AS notes FROM mentions m WHERE m.arxiv_id IS NOT NULL "
        "AND m.origin_kind = 'entry' AND NOT EXISTS (SELECT 1 FROM anchors a WHERE a.arxiv_id = m.arxiv_id "
        f"AND a.ended_on IS NULL{in_docs}) GROUP BY m.arxiv_id HAVING count(DISTINCT m.origin) >= 2 "
        "ORDER BY m.arxiv_id", docs)
    out = [{"kind": "unanchored-mentioned", "subject": r["arxiv_id"],
            "detail": f"mentioned in {r['notes']} notes, anchored nowhere"} for r in rows]
    rows = store.query(
        "SELECT s.arxiv_id, max(s.upvotes) AS up FROM sightings s WHERE s.upvotes >= 10 AND NOT EXISTS "
        f"(SELECT 1 FROM anchors a WHERE a.arxiv_id = s.arxiv_id AND a.ended_on IS NULL{in_docs}) AND EXISTS "
        "(SELECT 1 FROM classifications c WHERE c.subject_kind = 'paper' AND c.subject = s.arxiv_id "
        "AND c.relevance <> 'none') GROUP BY s.arxiv_id ORDER BY s.arxiv_id", docs)
    out += [{"kind": "unanchored-upvoted", "subject": r["arxiv_id"],
             "detail": f"{r['up']} HF upvotes on an inference topic, anchored nowhere"} for r in rows]
    return out


def _in_docs(configured: Collection[str] | None) -> tuple[str, tuple[str, ...]]:
    """The condition (and its parameters) keeping anchors ``a`` of the ``configured`` docs; none: every doc."""
    if configured is None:
        return "", ()
    docs = tuple(configured)
    return (f" AND a.topic IN ({', '.join('?' * len(docs))})" if docs else " AND 1 = 0"), docs
