"""The health ledger and per-source state, written through the plain DB-API connection.

These are small single-row writes made on every run, changed or not; keeping them off
SQLAlchemy lets a nightly with nothing new finish without importing the ORM at all.
The SQL is portable (qmark parameters are the only SQLite-ism; see docs/architecture.md).
"""
from __future__ import annotations

import json
from typing import Any

from kb.store.db import Store

RUN_COLUMNS = ("source", "run_date", "started_at", "duration_ms", "status", "http_status", "bytes", "parsed",
               "new", "updated", "skipped", "error", "problems")


def record_run(store: Store, run: dict[str, Any]) -> None:
    """Append one health-ledger row (``RUN_COLUMNS``; problems as a list)."""
    row = dict(run, problems=json.dumps(run.get("problems") or [], ensure_ascii=False))
    cols = [c for c in RUN_COLUMNS if row.get(c) is not None]   # the rest keep their column defaults
    store.write_one(f"INSERT INTO source_runs ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    tuple(row[c] for c in cols))


def payload_hash(store: Store, source: str) -> str | None:
    """The digest of the last payload this source saved."""
    rows = store.query("SELECT payload_hash FROM sources WHERE name = ?", (source,))
    return rows[0]["payload_hash"] if rows else None
