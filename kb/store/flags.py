"""Verification flags: open, refresh, close; a flag closed by the team stays closed until new evidence."""
from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from kb.errors import NotFound
from kb.store.db import Store
from kb.store.rows import Tx, chunks, dumps, row
from kb.text import boundary_context

STATUSES = ("open", "verified", "dismissed")   # what a team member may set
STALE = "stale"                                # set by kb: the files the evidence cites are gone
RULES = ("unsourced-claim", "boundary", "id-conflict", "number-conflict", "unresolved-id", "date-inconsistency",
         "impossible-id")


def evidence_hash(evidence: dict[str, Any]) -> str:
    return hashlib.sha256(dumps(evidence).encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class FlagState:
    """What the store knows of a flag before a briefing raises it again."""

    status: str
    evidence_hash: str
    closed_after: str | None = None     # the briefing after which the team closed it
    closures: Mapping[str, str] = field(default_factory=dict)   # evidence hash → the team's status on it
    signed: Mapping[str, str] | None = None   # the figures shown with their sign at the last sync (m024)
    first_seen: str | None = None             # the day a briefing first raised it

    @classmethod
    def of(cls, status: str, evidence_hash: str, closed_after: str | None, closures: str | None,
           signed: str | None = None, first_seen: str | None = None) -> FlagState:
        """A state from its stored columns (``closures`` and ``signed`` as the JSON the columns hold)."""
        return cls(status, evidence_hash, closed_after, json.loads(closures or "{}"),
                   json.loads(signed) if signed else None, first_seen)


_STATE_COLUMNS = "status, evidence_hash, closed_after, closures, signed, first_seen"


def status_after(stored: FlagState | None, new_hash: str) -> str:
    """The status a flag raised again gets: a closed flag stays closed while its evidence is unchanged;
    new evidence reopens it, and evidence that came back reopens a stale one. Each closure of the team's
    holds for the evidence it was made on: when that evidence is back (a note moved away and back), so is it."""
    if stored is None:
        return "open"
    if new_hash in stored.closures:
        return stored.closures[new_hash]
    if stored.status == STALE or stored.evidence_hash != new_hash:
        return "open"
    return stored.status


def flag_states(store: Store, topic: str) -> dict[str, FlagState]:
    """fingerprint (without the topic) → the stored state of each of the topic's flags."""
    return {_without_topic(r[0], topic): FlagState.of(*r[1:]) for r in store.query(
        f"SELECT fingerprint, {_STATE_COLUMNS} FROM flags WHERE topic = ? ORDER BY id", (topic,))}


def sync_flag(tx: Tx, *, rule: str, fingerprint: str, topic: str, subject: str,
              evidence: dict[str, Any], day: str, signed: Mapping[str, str] | None = None) -> tuple[int, str]:
    """Create or refresh a flag; return (id, status).

    A flag closed by the team (verified, dismissed) stays closed while its
    evidence is unchanged; new evidence reopens it, and the evidence it was
    closed on, back again, closes it again (``status_after``). ``signed`` (the
    briefing's ``context.signed``: a figure of the evidence → as written with its
    sign) is kept beside the evidence for ``get_flag``; it is no part of the identity.
    """
    h = evidence_hash(evidence)
    shown = dumps(dict(signed)) if signed else None
    found = tx.run(f"SELECT id, {_STATE_COLUMNS} FROM flags WHERE fingerprint = :f", {"f": fingerprint}).first()
    if found is None:
        tx.insert("flags", [row("flags", rule=rule, fingerprint=fingerprint, topic=topic, subject=subject,
                                evidence=evidence, evidence_hash=h, status="open", first_seen=day, last_seen=day,
                                signed=shown)])
        new_id = tx.run("SELECT id FROM flags WHERE fingerprint = :f", {"f": fingerprint}).scalar_one()
        return new_id, "open"
    status = status_after(FlagState.of(*found[1:]), h)
    # A past day rebuilt (kb brief --date D) shows the flag as it was then but changes nothing of it: the
    # evidence, status and last sighting stay the latest night's, so tomorrow's reopens nothing.
    tx.run("UPDATE flags SET evidence = :e, evidence_hash = :h, status = :s, last_seen = :d, subject = :subj, "
           "signed = :g WHERE id = :i AND (last_seen IS NULL OR last_seen <= :d)",
           {"e": dumps(evidence), "h": h, "s": status, "d": day, "subj": subject, "g": shown, "i": found.id})
    return found.id, status


# Closed after the topic's latest briefing (the one the team read); reopening forgets it.
_CLOSED_AFTER = ("CASE WHEN CAST(:s AS TEXT) = 'open' THEN NULL ELSE "
                 "(SELECT max(b.date) FROM briefings b WHERE b.topic = flags.topic) END")


def resolve_flag(tx: Tx, flag_id: int, status: str, note: str | None) -> None:
    """Close (or reopen) a flag by hand."""
    if not _resolve(tx, status, note, "id = :i", {"i": flag_id}):
        raise NotFound(f"no flag #{flag_id}")


def resolve_many(tx: Tx, status: str, note: str | None, *, rule: str | None, topic: str | None) -> int:
    """Close every open flag of a rule and/or topic at once; return how many."""
    return _resolve(tx, status, note, "status = 'open' AND (CAST(:r AS TEXT) IS NULL OR rule = :r) "
                    "AND (CAST(:t AS TEXT) IS NULL OR topic = :t)", {"r": rule, "t": topic})


def _resolve(tx: Tx, status: str, note: str | None, where: str, params: dict[str, Any]) -> int:
    """Set the team's status on the flags ``where`` selects; return how many. A closure is remembered
    with the evidence it is made on (beside the team's earlier ones); opening a flag by hand forgets them."""
    found = tx.run(f"SELECT id, evidence_hash, closures FROM flags WHERE {where}", params).all()
    rows = [{"i": fid, "s": status, "n": note,
             "c": dumps({} if status == "open" else {**json.loads(closures or "{}"), h: status})}
            for fid, h, closures in found]
    tx.run(f"UPDATE flags SET status = :s, note = coalesce(:n, note), closed_after = {_CLOSED_AFTER}, "
           "closures = :c WHERE id = :i", rows)
    return len(rows)


def mark_stale(tx: Tx, flag_ids: list[int]) -> None:
    """Close flags whose evidence is gone (the team's files they cite were deleted)."""
    tx.run("UPDATE flags SET status = 'stale' WHERE id = :i AND status = 'open'", [{"i": i} for i in flag_ids])


def raised_only_on(store: Store, topic: str, day: str) -> list[int]:
    """Ids of the topic's open flags first and last seen on ``day``: raised by that day's builds alone."""
    return [r[0] for r in store.query("SELECT id FROM flags WHERE topic = ? AND status = 'open' AND first_seen = ? "
                                      "AND last_seen = ? ORDER BY id", (topic, day, day))]


def open_flags_citing(store: Store, topic: str) -> list[tuple[int, str, dict[str, Any]]]:
    """(id, fingerprint without the topic, evidence) of the topic's open flags."""
    return [(r[0], _without_topic(r[1], topic), json.loads(r[2])) for r in store.query(
        "SELECT id, fingerprint, evidence FROM flags WHERE topic = ? AND status = 'open' ORDER BY id", (topic,))]


def open_flags_on(store: Store, topic: str, day: str) -> list[tuple[int, str, dict[str, Any]]]:
    """(id, fingerprint without the topic, evidence) of the topic's flags raised before ``day`` and open on it: open
    now, or closed by the team after ``day``'s briefing (``closed_after``), so a past day rebuilt reads what it read."""
    return [(r[0], _without_topic(r[1], topic), json.loads(r[2])) for r in store.query(
        "SELECT id, fingerprint, evidence FROM flags WHERE topic = ? AND first_seen < ? AND (status = 'open' OR "
        "(status IN ('verified', 'dismissed') AND closed_after >= ?)) ORDER BY id", (topic, day, day))]


def _without_topic(fingerprint: str, topic: str) -> str:
    """A stored fingerprint (``topic:rule:subject``) as a briefing's flag has it (``rule:subject``)."""
    return fingerprint.removeprefix(f"{topic}:")


# The context a stored flag's rule derives from its evidence alone (the others' need the day's inputs).
_CONTEXT_OF = {"boundary": boundary_context}


def flag_context(rule: str, evidence: Any, signed: str | None) -> dict[str, Any]:
    """The context a stored flag's briefing shows beside it, where the store has it: what the evidence alone
    gives (a boundary's anchored title), and the figures written with their sign as its last sync kept them
    (``signed``, the column's JSON; a flag not synced since m024 has none, its figures are shown unsigned).
    One definition for `kb flags show` and the list `kb flags` prints."""
    derive = _CONTEXT_OF.get(rule)
    context = derive(evidence) if derive and isinstance(evidence, dict) else {}
    if signed:
        context["signed"] = json.loads(signed)
    return context


def _with_context(row: Mapping[str, Any]) -> dict[str, Any]:
    """A flag's row (its ``signed`` column included) as a flag: the evidence decoded, its context beside it."""
    flag = dict(row)
    signed = flag.pop("signed")
    flag["evidence"] = json.loads(flag["evidence"])
    flag["context"] = flag_context(flag["rule"], flag["evidence"], signed)
    return flag


_FLAG_COLUMNS = "id, rule, topic, subject, status, note, first_seen, last_seen, evidence, signed"


def get_flag(store: Store, flag_id: int) -> dict[str, Any]:
    """One flag with its evidence and its context (``flag_context``)."""
    rows = store.query(f"SELECT {_FLAG_COLUMNS} FROM flags WHERE id = ?", (flag_id,))
    if not rows:
        raise NotFound(f"no flag #{flag_id}")
    return _with_context(rows[0])


def known_flags(store: Store, fingerprints: list[str]) -> dict[str, tuple[int, FlagState, str | None]]:
    """fingerprint → (id, stored state, last seen) of the flags already stored."""
    out = {}
    for i in range(0, len(fingerprints), 500):
        part = fingerprints[i:i + 500]
        for r in store.query(f"SELECT fingerprint, id, last_seen, {_STATE_COLUMNS} FROM flags WHERE fingerprint "
                             f"IN ({','.join('?' * len(part))})", tuple(part)):
            out[r[0]] = (r[1], FlagState.of(*r[3:]), r[2])
    return out


def statuses_now(store: Store, ids: list[int]) -> dict[int, tuple[str, str | None]]:
    """id → (status, note) of the flags as the store has them now."""
    return {fid: (status, note) for part in chunks(ids) for fid, status, note in store.query(
        f"SELECT id, status, note FROM flags WHERE id IN ({','.join('?' * len(part))})", tuple(part))}


def flag_notes(store: Store, ids: list[int]) -> dict[int, str]:
    """id → the note the team left when it closed the flag (flags without one are left out)."""
    out: dict[int, str] = {}
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        for fid, note in store.query(f"SELECT id, note FROM flags WHERE note IS NOT NULL AND id IN "
                                     f"({','.join('?' * len(part))})", tuple(part)):
            out[fid] = note
    return out


def list_flags(store: Store, *, only_open: bool = False, rule: str | None = None,
               topic: str | None = None, topics: Collection[str] | None = None) -> list[dict[str, Any]]:
    """Verification flags with their evidence (JSON-decoded) and context (as ``get_flag`` gives them), newest
    evidence first; ``topics`` keeps those docs' flags only."""
    sql = (f"SELECT {_FLAG_COLUMNS} FROM flags "
           "WHERE (? = 0 OR status = 'open') AND (? IS NULL OR rule = ?) AND (? IS NULL OR topic = ?)")
    return [_with_context(r) for r in store.query(sql + " ORDER BY last_seen DESC NULLS LAST, id",
                                                   (int(only_open), rule, rule, topic, topic))
            if topics is None or r["topic"] in topics]
