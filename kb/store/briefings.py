"""Briefings written: one row per topic, date, language and format, and the day's data as JSON
(``lang = ''``, ``format = 'json'``), which later days read to know what was put forward before."""
from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
from typing import Any

from kb.store.db import Store
from kb.store.rows import Tx, chunks, dumps, row
from kb.text import briefed_keys


def content_hash(text: str) -> str:
    """The hash a briefing row records of its text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def data_digest(data: dict[str, Any]) -> str:
    """The hash the day's data row records of the briefing data."""
    return content_hash(dumps(data))


def record_briefing(tx: Tx, data: dict[str, Any], lang: str, fmt: str, path: str | None, text: str, *,
                    with_data: bool = True) -> None:
    """Remember a written briefing and its data (which later briefings compare against). ``with_data=False``
    when the day's data row already holds this very data (the other files of one night): the data, its
    JSON and its briefed keys are then written once a night, not once per file."""
    net_new, increments = data["density"]["net_new"], len(data["increments"])
    rows = [row("briefings", topic=data["topic"], date=data["date"], lang=lang, format=fmt, path=path,
                content_hash=content_hash(text), net_new=net_new,
                increments=increments, data="{}")]
    if with_data:
        blob = dumps(data)
        rows.append(row("briefings", topic=data["topic"], date=data["date"], lang="", format="json", path=None,
                        content_hash=content_hash(blob), net_new=net_new,
                        increments=increments, data=blob))
    tx.upsert("briefings", rows, ["topic", "date", "lang", "format"])
    if with_data:
        record_briefed(tx, data)


def recorded(store: Store, topic: str, day: str, lang: str, fmt: str) -> tuple[str | None, str] | None:
    """(path, content hash) of the briefing recorded for these keys, if any."""
    rows = store.query("SELECT path, content_hash FROM briefings WHERE topic = ? AND date = ? AND lang = ? "
                       "AND format = ?", (topic, day, lang, fmt))
    return (rows[0][0], rows[0][1]) if rows else None


def previous_date(store: Store, topic: str, day: str) -> str | None:
    """The date of the latest briefing of ``topic`` before ``day``."""
    rows = store.query("SELECT max(date) FROM briefings WHERE topic = ? AND date < ?", (topic, day))
    return rows[0][0] if rows and rows[0][0] else None


def briefing_data(store: Store, topic: str, day: str) -> dict[str, Any] | None:
    """The data recorded with the briefing of ``topic`` on ``day`` (None if there is none)."""
    import json
    rows = store.query("SELECT data FROM briefings WHERE topic = ? AND date = ? AND format = 'json' AND lang = ''",
                       (topic, day))
    return json.loads(rows[0][0]) if rows else None


def net_new_history(store: Store, topic: str, day: str) -> list[int]:
    """NET-new counts of earlier briefings, oldest first."""
    return [r[0] for r in store.query("SELECT net_new FROM briefings WHERE topic = ? AND date < ? "
                                      "AND format = 'json' ORDER BY date", (topic, day))]


def record_briefed(tx: Tx, data: dict[str, Any]) -> None:
    """Replace the briefed keys of this day's briefing."""
    tx.run("DELETE FROM briefed_items WHERE topic = :t AND date = :d", {"t": data["topic"], "d": data["date"]})
    tx.upsert("briefed_items", [row("briefed_items", topic=data["topic"], key=k, date=data["date"])
                                for k in briefed_keys(data)], ["topic", "key", "date"], update=[])


def briefed_before(store: Store, topic: str, day: str, keys: Iterable[str]) -> dict[str, str]:
    """Which of ``keys`` an earlier briefing of ``topic`` put forward → the first such date."""
    out: dict[str, str] = {}
    wanted = sorted(set(keys))
    for part in chunks(wanted):
        for key, first in store.query(
                f"SELECT key, min(date) FROM briefed_items WHERE topic = ? AND date < ? AND key IN "
                f"({','.join('?' * len(part))}) GROUP BY key", (topic, day, *part)):
            out[key] = first
    return out


def latest_date(store: Store, topic: str) -> str | None:
    """The date of the latest briefing of ``topic`` (what `kb flags resolve` rewrites)."""
    rows = store.query("SELECT max(date) FROM briefings WHERE topic = ? AND format = 'json'", (topic,))
    return rows[0][0] if rows and rows[0][0] else None


def archived_days(store: Store) -> list[tuple[str, str, dict[str, Any]]]:
    """(topic, date, data) of every briefing recorded, by topic then date: the archive site's days."""
    import json
    return [(t, d, json.loads(blob)) for t, d, blob in store.query(
        "SELECT topic, date, data FROM briefings WHERE format = 'json' AND lang = '' ORDER BY topic, date")]


def archived_files(store: Store) -> dict[tuple[str, str, str, str], tuple[str, str]]:
    """(topic, date, lang, format) → (path, content hash) of every briefing file written (md, html)."""
    return {(t, d, lang, fmt): (path, digest) for t, d, lang, fmt, path, digest in store.query(
        "SELECT topic, date, lang, format, path, content_hash FROM briefings WHERE format IN ('md', 'html') "
        "AND path IS NOT NULL")}


def briefed_ids(store: Store, *, topic: str | None = None, since: str | None = None,
                topics: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Every arXiv ID a briefing listed as citable (its §4), with topic, date, section and status;
    ``topics`` keeps those docs' briefings only."""
    import json
    out = []
    for t, d, blob in store.query("SELECT topic, date, data FROM briefings WHERE format = 'json' AND lang = '' "
                                  "AND (? IS NULL OR topic = ?) AND (? IS NULL OR date >= ?) ORDER BY date, topic",
                                  (topic, topic, since, since)):
        if topics is not None and t not in topics:
            continue
        for item in json.loads(blob).get("arxiv_ids") or []:
            if item.get("arxiv_id"):
                out.append({"arxiv_id": item["arxiv_id"], "title": item.get("title"), "topic": t, "date": d,
                            "section": item.get("section"), "status": item.get("status")})
    return out
