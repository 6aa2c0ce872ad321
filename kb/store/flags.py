"""Writes for verification flags: open, refresh, close; a closed flag stays closed until new evidence."""
from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Connection

from kb.errors import ConfigError, NotFound
from kb.store.common import dumps
from kb.store.schema import Flag

STATUSES = ("open", "verified", "dismissed")


def evidence_hash(evidence: dict[str, Any]) -> str:
    return hashlib.sha256(dumps(evidence).encode("utf-8")).hexdigest()[:16]


def sync_flag(conn: Connection, *, rule: str, fingerprint: str, topic: str, subject: str,
              evidence: dict[str, Any], day: str) -> tuple[int, str]:
    """Create or refresh a flag; return (id, status).

    A flag closed by the team (verified, dismissed) stays closed while its
    evidence is unchanged; new evidence reopens it.
    """
    h = evidence_hash(evidence)
    row = conn.execute(text("SELECT id, status, evidence_hash FROM flags WHERE fingerprint = :f"),
                       {"f": fingerprint}).first()
    if row is None:
        conn.execute(Flag.__table__.insert(), [{
            "rule": rule, "fingerprint": fingerprint, "topic": topic, "subject": subject,
            "evidence": dumps(evidence), "evidence_hash": h, "status": "open", "first_seen": day, "last_seen": day}])
        new_id = conn.execute(text("SELECT id FROM flags WHERE fingerprint = :f"), {"f": fingerprint}).scalar_one()
        return new_id, "open"
    status = row.status if row.evidence_hash == h else "open"
    conn.execute(text("UPDATE flags SET evidence = :e, evidence_hash = :h, status = :s, last_seen = :d, "
                      "subject = :subj WHERE id = :i"),
                 {"e": dumps(evidence), "h": h, "s": status, "d": day, "subj": subject, "i": row.id})
    return row.id, status


def resolve_flag(conn: Connection, flag_id: int, status: str, note: str | None) -> None:
    """Close (or reopen) a flag by hand."""
    if status not in STATUSES:
        raise ConfigError(f"--as {status!r}: expected one of {', '.join(STATUSES)}")
    done = conn.execute(text("UPDATE flags SET status = :s, note = coalesce(:n, note) WHERE id = :i"),
                        {"s": status, "n": note, "i": flag_id})
    if done.rowcount == 0:
        raise NotFound(f"no flag #{flag_id}")
