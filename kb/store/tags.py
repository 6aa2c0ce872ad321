"""Writes for classification results: topic tags with evidence, and relevance per subject."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from kb.store.common import dumps, upsert
from kb.store.schema import ClassificationRow, TagRow


@dataclass
class Classified:
    """One subject's classification, ready to store."""

    kind: str                          # paper, post, entry
    subject: str
    relevance: str
    input_hash: str
    tags: list[tuple[str, float, list[str]]] = field(default_factory=list)  # (topic, score, matched terms)


def save_classifications(conn: Connection, items: list[Classified], taxonomy_hash: str) -> None:
    """Replace the tags and relevance of a batch of subjects, in three set-based statements."""
    if not items:
        return
    conn.execute(text("DELETE FROM tags WHERE subject_kind = :k AND subject = :s"),
                 [{"k": c.kind, "s": c.subject} for c in items])
    rows: list[dict[str, Any]] = [{"subject_kind": c.kind, "subject": c.subject, "topic": t, "score": round(score, 4),
                                   "terms": dumps(terms), "taxonomy_hash": taxonomy_hash}
                                  for c in items for t, score, terms in c.tags]
    if rows:
        conn.execute(TagRow.__table__.insert(), rows)
    upsert(conn, ClassificationRow.__table__,
           [{"subject_kind": c.kind, "subject": c.subject, "relevance": c.relevance, "taxonomy_hash": taxonomy_hash,
             "input_hash": c.input_hash} for c in items], ["subject_kind", "subject"])
