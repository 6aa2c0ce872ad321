"""Verification flags: open, refresh, close; a flag closed by the team stays closed until new evidence."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from kb.errors import ConfigError, NotFound
from kb.store.db import Store
from kb.store.rows import Tx, dumps, row

STATUSES = ("open", "verified", "dismissed")


def evidence_hash(evidence: dict[str, Any]) -> str:
    return hashlib.sha256(dumps(evidence).encode("utf-8")).hexdigest()[:16]


def sync_flag(tx: Tx, *, rule: str, fingerprint: str, topic: str, subject: str,
              evidence: dict[str, Any], day: str) -> tuple[int, str]:
    """Create or refresh a flag; return (id, status).

    A flag closed by the team (verified, dismissed) stays closed while its
    evidence is unchanged; new evidence reopens it.
    """
    h = evidence_hash(evidence)
    found = tx.run("SELECT id, status, evidence_hash FROM flags WHERE fingerprint = :f", {"f": fingerprint}).first()
    if found is None:
        tx.insert("flags", [row("flags", rule=rule, fingerprint=fingerprint, topic=topic, subject=subject,
                                evidence=evidence, evidence_hash=h, status="open", first_seen=day, last_seen=day)])
        new_id = tx.run("SELECT id FROM flags WHERE fingerprint = :f", {"f": fingerprint}).scalar_one()
        return new_id, "open"
    status = found.status if found.evidence_hash == h else "open"
    tx.run("UPDATE flags SET evidence = :e, evidence_hash = :h, status = :s, last_seen = :d, subject = :subj "
           "WHERE id = :i", {"e": dumps(evidence), "h": h, "s": status, "d": day, "subj": subject, "i": found.id})
    return found.id, status


def resolve_flag(tx: Tx, flag_id: int, status: str, note: str | None) -> None:
    """Close (or reopen) a flag by hand."""
    if status not in STATUSES:
        raise ConfigError(f"--as {status!r}: expected one of {', '.join(STATUSES)}")
    done = tx.run("UPDATE flags SET status = :s, note = coalesce(:n, note) WHERE id = :i",
                  {"s": status, "n": note, "i": flag_id})
    if done.rowcount == 0:
        raise NotFound(f"no flag #{flag_id}")


def known_flags(store: Store, fingerprints: list[str]) -> dict[str, tuple[int, str, str, str | None]]:
    """fingerprint → (id, status, evidence hash, last seen) of the flags already stored."""
    out = {}
    for i in range(0, len(fingerprints), 500):
        part = fingerprints[i:i + 500]
        for fp, fid, status, h, last in store.query(
                f"SELECT fingerprint, id, status, evidence_hash, last_seen FROM flags WHERE fingerprint IN "
                f"({','.join('?' * len(part))})", tuple(part)):
            out[fp] = (fid, status, h, last)
    return out


def list_flags(store: Store, *, only_open: bool = False) -> list[dict[str, Any]]:
    """Verification flags with their evidence (JSON-decoded), newest evidence first."""
    sql = "SELECT id, rule, topic, subject, status, note, first_seen, last_seen, evidence FROM flags"
    if only_open:
        sql += " WHERE status = 'open'"
    rows = [dict(r) for r in store.query(sql + " ORDER BY last_seen DESC, id")]
    for r in rows:
        r["evidence"] = json.loads(r["evidence"])
    return rows
