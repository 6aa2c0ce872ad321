"""Sources and their health ledger: each source's row (kind, URL, credibility, HTTP validators, the
digest of the last payload saved) and one ``source_runs`` row per run, whatever happened.

Ledger rows are small single-row writes made on every run, changed or not; they go through
the plain DB-API connection, so a nightly with nothing new never imports the ORM.
"""
from __future__ import annotations

import json
from typing import Any

from kb.store.db import Store
from kb.store.rows import Tx, row

RUN_COLUMNS = ("source", "run_date", "started_at", "duration_ms", "status", "http_status", "bytes", "parsed",
               "new", "updated", "skipped", "error", "problems", "manual", "recording")
STALE_RUNS = 3   # a source failing or quiet beyond its habit for this many runs is named in the briefing


# --------------------------------------------------------------------------- writes
def register_source(tx: Tx, name: str, kind: str, url: str | None, credibility: int | None) -> None:
    """Create or update a source's row (its config part; ETag/Last-Modified are kept)."""
    tx.upsert("sources", [row("sources", name=name, kind=kind, url=url, credibility=credibility)], ["name"],
              update=["kind", "url", "credibility"])


def save_validators(tx: Tx, name: str, etag: str | None, last_modified: str | None,
                    digest: str | None = None) -> None:
    """Remember what the next fetch needs to know: ETag, Last-Modified, the payload's digest."""
    tx.run("UPDATE sources SET etag = :e, last_modified = :l, payload_hash = coalesce(:h, payload_hash) "
           "WHERE name = :n", {"e": etag, "l": last_modified, "h": digest, "n": name})


def record_run(store: Store, run: dict[str, Any]) -> None:
    """Append one health-ledger row (``RUN_COLUMNS``; problems as a list), autocommitted."""
    values = dict(run, problems=json.dumps(run.get("problems") or [], ensure_ascii=False))
    cols = [c for c in RUN_COLUMNS if values.get(c) is not None]   # the rest keep their column defaults
    store.write_one(f"INSERT INTO source_runs ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    tuple(values[c] for c in cols))


# --------------------------------------------------------------------------- reads
# A manual run (files the user named) that failed says something about those files, not about
# the configured source: it is left out of the source's health and of the day's briefing.
# A run's status: ok, empty, not-modified, failed, or not-run (offline with no recording: nothing read).
NOT_RUN = "not-run"
# The rows that speak for a source's health: not the user's own --from-file failures, and not runs that
# read nothing (an offline run of a source with no recording).
_SPEAKS = f"NOT (manual = 1 AND status = 'failed') AND status <> '{NOT_RUN}'"
# The rows a day's briefing lists: those, and the not-run ones (it says the source was not checked).
_LISTED = "NOT (manual = 1 AND status = 'failed')"


def validators(store: Store, name: str, url: str) -> tuple[str | None, str | None]:
    """The ETag and Last-Modified stored for ``name`` fetched from ``url``."""
    rows = store.query("SELECT etag, last_modified FROM sources WHERE name = ? AND url = ?", (name, url))
    return (rows[0][0], rows[0][1]) if rows else (None, None)


def payload_hash(store: Store, source: str) -> str | None:
    """The digest of the last payload this source saved."""
    rows = store.query("SELECT payload_hash FROM sources WHERE name = ?", (source,))
    return rows[0][0] if rows else None


def runs_of_day(store: Store, day: str) -> list[dict[str, Any]]:
    """Each source's ledger row for the run date, the source's latest attempt of that day, with its
    stored credibility. A rerun that found nothing changed (304, same bytes) still describes the
    day's content: such a row never hides an earlier one that read it, but it does replace a failure."""
    rows = store.query(f"SELECT * FROM source_runs WHERE run_date = ? AND {_LISTED} ORDER BY id", (day,))
    last: dict[str, dict[str, Any]] = {}
    for r in rows:
        # The latest attempt speaks for the day, except that "nothing changed" never hides an earlier
        # read of that day (after a failure it is the recovery: the content is what was last read), and
        # "not run" (an offline rerun) hides nothing.
        before = last.get(r["source"])
        if before is None or _speaks_after(r["status"], before["status"]):
            last[r["source"]] = dict(r)
    cred = {r[0]: r[1] for r in store.query("SELECT name, credibility FROM sources")}
    return [{**v, "credibility": cred.get(k)} for k, v in sorted(last.items())]


def _speaks_after(status: str, before: str) -> bool:
    """Does a later run of the same day with ``status`` speak for the day instead of one with ``before``?"""
    if status == NOT_RUN:
        return False
    if status == "not-modified":
        return before in ("failed", NOT_RUN)
    return True


def _staleness(runs: list[Any]) -> tuple[int, int]:
    """(quiet runs since the last new item, how many the source usually goes without one).

    Runs that recorded an empty day (arXiv weekends and holidays: the listing said
    there were no announcements), failed runs and offline runs that read the recording they read before
    (nothing was asked of the source: its silence is unknown) are not counted as quiet.
    """
    by_day: dict[str, Any] = {}   # one entry per run date (several runs of one day count once), oldest first
    for r in reversed(runs):
        if r["status"] == "not-modified" and r["recording"]:
            continue
        if r["status"] in ("ok", "not-modified"):
            prev = by_day.get(r["run_date"])
            by_day[r["run_date"]] = r if prev is None or r["new"] or not prev["new"] else prev
    counted = list(by_day.values())
    gaps, since = [], None
    for n, r in enumerate(counted):
        if r["new"]:
            if since is not None:
                gaps.append(n - since)
            since = n
    quiet = len(counted) - 1 - since if since is not None else len(counted)
    usual = sorted(gaps)[len(gaps) // 2] if gaps else 1
    return quiet, usual


def sources_status(store: Store, *, until: str | None = None) -> list[dict[str, Any]]:
    """Per source: last run, last success, last failure, consecutive failures, staleness.

    ``until`` limits the ledger to runs dated up to that day (a past briefing is rebuilt
    from what was known then). Several runs of one day count as one run of that day.
    """
    out = []
    # "new" is what the run brought that the store lacked or had otherwise: a day's HF papers, which the
    # arXiv listing brought first, are all updates, and HF was named stale every day it delivered
    by_source: dict[str, list[Any]] = {}
    for r in store.query("SELECT source, run_date, started_at, status, new + updated AS new, error, problems, "
                         f"recording FROM source_runs WHERE run_date <= ? AND {_SPEAKS} ORDER BY source, id DESC",
                         (until or "9999",)):
        by_source.setdefault(r["source"], []).append(r)
    meta = {r["name"]: r for r in store.query("SELECT name, kind, credibility FROM sources")}
    for name, runs in by_source.items():
        consecutive, days = 0, set()
        for r in runs:   # newest first; a day's last run says how that day went
            if r["run_date"] in days:
                continue
            days.add(r["run_date"])
            if r["status"] != "failed":
                break
            consecutive += 1
        ok = [r for r in runs if r["status"] != "failed"]
        failed = [r for r in runs if r["status"] == "failed"]
        with_new = [r for r in runs if r["new"]]
        quiet, usual = _staleness(runs)
        out.append({
            "name": name, "kind": meta[name]["kind"] if name in meta else None,
            "credibility": meta[name]["credibility"] if name in meta else None,
            "last_status": runs[0]["status"], "last_run": runs[0]["run_date"],
            "last_success": ok[0]["run_date"] if ok else None,
            "last_failure": failed[0]["run_date"] if failed else None,
            "last_error": failed[0]["error"] if failed else None,
            "consecutive_failures": consecutive,
            "last_new": with_new[0]["run_date"] if with_new else None,
            "last_problems": json.loads(runs[0]["problems"] or "[]"),
            "quiet_runs": quiet, "usual_quiet_runs": usual,
            "stale": quiet >= max(STALE_RUNS, 2 * usual) and name != "workspace",
            "runs": len(runs),
        })
    return out


def troubled_sources(store: Store, *, until: str | None = None) -> list[dict[str, Any]]:
    """Sources failing for STALE_RUNS days in a row, or stale: what the briefing names at its top."""
    out = []
    for s in sources_status(store, until=until):
        if s["consecutive_failures"] >= STALE_RUNS:
            out.append({"name": s["name"], "kind": "failing", "failures": s["consecutive_failures"],
                        "error": s["last_error"]})
        elif s["stale"]:
            out.append({"name": s["name"], "kind": "stale", "quiet_runs": s["quiet_runs"],
                        "usual_quiet_runs": s["usual_quiet_runs"]})
    return out
