"""The day's flags against the stored ones: ids and statuses, what changed, what went stale.

A flag closed by the team stays closed while its evidence is unchanged; new evidence reopens
it, and the team's closure holds again when the evidence it was made on is back. A flag whose
evidence is gone — every team file it cites was deleted — closes as ``stale``, and opens again
if the same evidence comes back.
"""
from __future__ import annotations

import re
from typing import Any

from pipeline.brief.model import Flag
from pipeline.context import RunContext

_TEAM_PATH = re.compile(r"^((?:inbox|organized)/[^#\s]+?)(?:#\d+)?$")


def sync_flags(ctx: RunContext, topic: str, flags: list[Flag], *, whole: bool = True) -> list[dict[str, Any]]:
    """Give each flag its stored id and status (writing only what is new or changed), close the
    topic's flags whose evidence is gone, and return the flags as the briefing's data.

    An open flag that only an earlier build of this same day raised (first and last seen today) and this
    build does not is closed as stale too: a night run again after a failed source (the listing missing,
    so the team's IDs were unresolved) would otherwise keep that night's false flags open for good. Only a
    ``whole`` build of the topic's latest day says so (not ``briefing_data(top=…)``, which checks fewer items,
    nor a past day rebuilt, which changes nothing of the flags)."""
    from kb.store.flags import evidence_hash, known_flags, raised_only_on, status_after
    day = ctx.today.isoformat()
    known = known_flags(ctx.store, [f"{topic}:{f.fingerprint}" for f in flags])
    changed = []
    for f in flags:
        stored = known.get(f"{topic}:{f.fingerprint}")
        h = evidence_hash(f.evidence)
        if stored and stored[2] == day and stored[1].evidence_hash == h and stored[1].signed == _signed(f) \
                and status_after(stored[1], h) == stored[1].status:      # tonight's sync already wrote it
            f.id, f.status = stored[0], stored[1].status
        else:
            changed.append(f)
    raised = {f.id for f in flags} | {known[k][0] for k in known}
    gone = _evidence_gone(ctx, topic, raised)
    if whole and is_latest_day(ctx, topic):
        gone += [i for i in raised_only_on(ctx.store, topic, day) if i not in raised and i not in gone]
    if changed or gone:
        from kb.store.flags import mark_stale, sync_flag
        with ctx.store.transaction() as tx:
            for f in changed:
                f.id, f.status = sync_flag(tx, rule=f.rule, fingerprint=f"{topic}:{f.fingerprint}", topic=topic,
                                           subject=f.subject, evidence=f.evidence, day=day, signed=_signed(f))
            mark_stale(tx, gone)
    from kb.store.flags import flag_notes
    notes = flag_notes(ctx.store, [f.id for f in flags if f.status != "open" and f.id is not None])
    return [flag_dict(f, notes.get(f.id)) for f in flags]


def is_latest_day(ctx: RunContext, topic: str) -> bool:
    """Whether ``ctx.today`` is the topic's latest briefed day (or a new one): not a past day rebuilt."""
    from kb.store.briefings import latest_date
    latest = latest_date(ctx.store, topic)
    return latest is None or latest <= ctx.today.isoformat()


def closed_meanwhile(ctx: RunContext, topic: str, flags: list[dict[str, Any]]) -> bool:
    """Whether a flag the briefing data shows has another status or note in the store now: a member's `kb flags
    resolve` while the nightly rendered, whose own rewrite the nightly's older data then overwrote. Only the
    latest day's (a past day shows its flags as they were then, and `kb flags resolve` rewrites the latest)."""
    from kb.store.flags import statuses_now
    if not is_latest_day(ctx, topic):
        return False
    now = statuses_now(ctx.store, [f["id"] for f in flags if f["id"] is not None])

    def shown(status: str, note: str | None) -> tuple[str, str | None]:
        return status, (note if status != "open" else None)   # the briefing shows a closed flag's note only
    return any(shown(*now.get(f["id"], (f["status"], f["note"]))) != shown(f["status"], f["note"]) for f in flags
               if f["id"] is not None)


def _signed(f: Flag) -> dict[str, str] | None:
    """The figures the briefing shows with their sign (``context.signed``), kept with the stored flag so
    `kb flags show` shows them so too; None when there are none."""
    return f.context.get("signed") or None


def preview_flags(ctx: RunContext, topic: str, flags: list[Flag]) -> list[dict[str, Any]]:
    """The flags as ``sync_flags`` would return them, writing nothing: a stored flag keeps its id and, while
    its evidence is unchanged, its status; a flag the store has not seen is open and has no id yet."""
    from kb.store.flags import evidence_hash, flag_notes, known_flags, status_after
    known = known_flags(ctx.store, [f"{topic}:{f.fingerprint}" for f in flags])
    for f in flags:
        stored = known.get(f"{topic}:{f.fingerprint}")
        f.id = stored[0] if stored else None
        f.status = status_after(stored[1] if stored else None, evidence_hash(f.evidence))
    notes = flag_notes(ctx.store, [f.id for f in flags if f.status != "open" and f.id is not None])
    return [flag_dict(f, notes.get(f.id)) for f in flags]


def _evidence_gone(ctx: RunContext, topic: str, raised: set[int | None]) -> list[int]:
    """Open flags of ``topic`` not raised today whose cited team files all no longer exist."""
    return [fid for fid, _ in evidence_gone(ctx.store, topic) if fid not in raised]


def evidence_gone(store: Any, topic: str) -> list[tuple[int, str]]:
    """(id, fingerprint) of the topic's open flags whose cited team files all no longer exist: those not
    raised again go stale tonight (read before the build too, so the briefing counts them as closed)."""
    from kb.store.flags import open_flags_citing
    from kb.store.notes import file_readings
    candidates = open_flags_citing(store, topic)
    if not candidates:
        return []
    present = set(file_readings(store))
    gone = []
    for fid, fingerprint, evidence in candidates:
        cited = set(team_files(evidence))
        if cited and not cited & present:
            gone.append((fid, fingerprint))
    return gone


def team_files(value: Any) -> list[str]:
    """The workspace files (notes, cards, the queue) an evidence structure cites, anywhere in it."""
    if isinstance(value, str):
        m = _TEAM_PATH.match(value.strip())
        return [m[1]] if m else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in team_files(k) + team_files(v)]
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in team_files(v)]
    return []


def flag_dict(f: Flag, note: str | None = None) -> dict[str, Any]:
    """A stored flag as the briefing shows it: labelled by its id, the number every ``kb flags`` command takes."""
    f.label = f"#{f.id}" if f.id is not None else ""
    return {"id": f.id, "label": f.label, "kind": f.rule, "subject": f.subject, "evidence": f.evidence,
            "context": f.context, "status": f.status, "note": note}
