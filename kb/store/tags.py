"""Writes for classification results: topic tags with evidence, and relevance per subject."""
from __future__ import annotations

from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from kb.store.common import dumps, upsert
from kb.store.schema import ClassificationRow, TagRow


def classified_inputs(conn: Connection) -> dict[tuple[str, str], tuple[str, str]]:
    """(subject_kind, subject) → (taxonomy_hash, input_hash) of the last classification."""
    rows = conn.execute(text("SELECT subject_kind, subject, taxonomy_hash, input_hash FROM classifications"))
    return {(k, s): (t, i) for k, s, t, i in rows}


def save_classification(conn: Connection, kind: str, subject: str, relevance: str,
                        tags: list[tuple[str, float, list[str]]], taxonomy_hash: str, input_hash: str) -> None:
    """Replace a subject's tags and relevance (tags as (topic, score, matched terms))."""
    conn.execute(text("DELETE FROM tags WHERE subject_kind = :k AND subject = :s"), {"k": kind, "s": subject})
    rows: list[dict[str, Any]] = [{"subject_kind": kind, "subject": subject, "topic": t, "score": round(score, 4),
                                   "terms": dumps(terms), "taxonomy_hash": taxonomy_hash} for t, score, terms in tags]
    if rows:
        conn.execute(TagRow.__table__.insert(), rows)
    upsert(conn, ClassificationRow.__table__, [{"subject_kind": kind, "subject": subject, "relevance": relevance,
                                                "taxonomy_hash": taxonomy_hash, "input_hash": input_hash}],
           ["subject_kind", "subject"])
