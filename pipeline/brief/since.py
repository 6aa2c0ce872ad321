"""What changed since the previous briefing of the same topic: the header's "较上一期" block.

Pure: the previous briefing's recorded data, the flags' stored states and today's items and flags
in; the figures out, once, for the templates and the JSON (``since_previous``). The first briefing
of a topic has nothing to compare with: ``None``.
"""
from __future__ import annotations

from typing import Any

from kb.names import title_name
from kb.store.flags import FlagState, evidence_hash, status_after
from kb.store.sources import NOT_RUN
from kb.text import normalize_url
from pipeline.brief.model import Flag

FRESH = ("net-new", "engineering")
CLOSED_BY_TEAM = ("verified", "dismissed")


def _key(item: dict[str, Any]) -> str | None:
    """The subject an item of a briefing is anchored under: its arXiv ID, else its normalised URL."""
    return item.get("arxiv_id") or (normalize_url(item["url"]) if item.get("url") else None)


def now_anchored(previous: dict[str, Any], anchors: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The previous briefing's NET-new and engineering items that are anchored today, in its order."""
    out: list[dict[str, Any]] = []
    for item in previous.get("increments", []) + previous.get("others", []):
        key = _key(item)
        if item.get("category") in FRESH and key in anchors and key not in [a["key"] for a in out]:
            out.append({"key": key, "arxiv_id": item.get("arxiv_id"), "title": item.get("title"),
                        "name": title_name(item.get("title")),   # "TwirlQ 2610.26230": a reader knows it by name
                        "sections": [f"§{s}" for s in anchors[key]]})
    return out


def _statuses_today(flags: list[Flag], states: dict[str, FlagState]) -> dict[str, str]:
    """fingerprint → the status the briefing shows for each of today's flags (the rule ``sync_flags`` applies)."""
    return {f.fingerprint: status_after(states.get(f.fingerprint), evidence_hash(f.evidence)) for f in flags}


def flag_changes(previous: dict[str, Any], flags: list[Flag], states: dict[str, FlagState],
                 day: str, again: list[str] | None = None) -> dict[str, int]:
    """Flags opened (new or reopened), raised again (open from an earlier briefing, not the previous one), closed,
    and carried since the previous briefing. Closed are the
    ones the team closed after reading it and those it showed open that are closed now (the team's, or
    stale: their files are gone); carried, the flags of earlier briefings that today's items do not raise
    again and that are still open — not seeing a contradiction again does not settle it."""
    now = _statuses_today(flags, states)
    today = {fp for fp, status in now.items() if status == "open"}
    before = {f"{f['kind']}:{f['subject']}" for f in previous.get("flags", []) if f.get("status") == "open"}
    since = previous["date"]
    by_team = {fp for fp, s in states.items()
               if s.status in CLOSED_BY_TEAM and s.closed_after and since <= s.closed_after < day}
    gone = (before | by_team) - today
    # a flag raised today has today's status (a closure back with its evidence is closed); the others, the stored one
    still_open = {fp for fp in gone if fp not in by_team
                  and now.get(fp, states[fp].status if fp in states else "open") == "open"}
    # and those of briefings before it, open still: "N from earlier briefings still open" is the backlog, and
    # the previous briefing's alone left out every older flag nobody has closed (`kb flags --open` lists them)
    older = {fp for fp, s in states.items() if s.status == "open" and s.first_seen and s.first_seen < day
             and fp not in now and fp not in before}
    # raised today, open since an earlier briefing than the previous one and never closed by the team: raised
    # again, not opened (a flag the team closed and new evidence reopened is opened again)
    again = set(raised_again(previous, flags, states, day) if again is None else again)
    return {"opened": len(today - before - again), "again": len(again), "closed": len(gone - still_open),
            "carried": len(still_open | older)}


def raised_again(previous: dict[str, Any], flags: list[Flag], states: dict[str, FlagState], day: str) -> list[str]:
    """The flags (``rule:subject``) raised today that have been open since a briefing before the previous one and
    that the team never closed: raised again, not opened (a flag the team closed and new evidence reopened is
    opened again). A flag keeps its number while its question does (day 22's TierKV v2 against the doc's 3.1×
    is #338, opened on LMCache's 2.2×): the briefing names them."""
    today = {fp for fp, status in _statuses_today(flags, states).items() if status == "open"}
    before = {f"{f['kind']}:{f['subject']}" for f in previous.get("flags", []) if f.get("status") == "open"}
    return sorted(fp for fp in today - before if fp in states and states[fp].first_seen
                  and states[fp].first_seen < day and not states[fp].closures)


def source_changes(previous: dict[str, Any], sources: list[dict[str, Any]]) -> dict[str, list[str]]:
    """Public sources that failed in the previous briefing and answered today, and those failing anew."""
    def failed(items: list[dict[str, Any]]) -> set[str]:
        return {s["name"] for s in items if s.get("kind") == "source" and s.get("status") == "failed"}
    ran = {s["name"] for s in sources if s.get("kind") == "source" and s.get("status") != NOT_RUN}
    was, now = failed(previous.get("sources", [])), failed(sources)
    return {"recovered": sorted((was - now) & ran), "failed": sorted(now - was)}


def since_previous(previous: dict[str, Any] | None, *, net_new: int, previous_net_new: int | None,
                   anchors: dict[str, list[str]], flags: list[Flag], states: dict[str, FlagState],
                   sources: list[dict[str, Any]], day: str,
                   doc_named: dict[str, Any] | None = None,
                   corrected: list[dict[str, Any]] | None = None,
                   sourced: list[dict[str, Any]] | None = None) -> dict[str, Any] | None:
    """The block's figures: NET-new now and then, the previous briefing's new items now anchored,
    flags opened and closed, sources recovered and failing anew; and ``doc_named``, the open flags of earlier
    briefings the doc's new lines name (``doc_lines.flags_named``) and those a note corrects the figure of
    (``doc_lines.corrected_flags``) or gives a source for (``doc_lines.sourced_flags``), when there are any."""
    if previous is None:
        return None
    anchored = now_anchored(previous, anchors)
    again = raised_again(previous, flags, states, day)
    return {"previous": previous["date"], "net_new": net_new, "previous_net_new": previous_net_new,
            "now_anchored": anchored, "now_anchored_count": len(anchored),
            "flags": flag_changes(previous, flags, states, day, again), "sources": source_changes(previous, sources),
            **({"raised_again": again} if again else {}),
            **({"doc_named": doc_named} if doc_named and doc_named["lines"] else {}),
            **({"corrected": corrected} if corrected else {}), **({"sourced": sourced} if sourced else {})}
