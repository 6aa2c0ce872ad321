"""Read-side queries over the store: plain, portable SQL on the DB-API connection."""
from __future__ import annotations

import json
from typing import Any

from kb.arxiv_id import parse_arxiv_id
from kb.errors import NotFound
from kb.mdsafe import md_text
from kb.store import Store


def _j(value: str | None) -> Any:
    return json.loads(value) if value else []


def db_status(store: Store) -> dict[str, Any]:
    """Schema version and per-table row counts."""
    applied = store.schema_version()
    return {"path": str(store.path), "schema_version": applied[-1] if applied else None,
            "migrations": applied, "counts": store.counts()}


def get_paper(store: Store, ident: str) -> dict[str, Any]:
    """Everything the store knows about one paper, given its ID in any common form."""
    aid = parse_arxiv_id(ident)
    if aid is None:
        raise NotFound(f"{ident!r} is not an arXiv ID (forms: 2607.09701, arXiv:2607.09701v2, "
                       "https://arxiv.org/abs/…, hep-th/9901001)")
    rows = store.query("SELECT * FROM papers WHERE arxiv_id = ?", (aid.id,))
    mentions = store.query(
        "SELECT origin_kind, origin, entry, version, seen_on FROM mentions WHERE subject = ? "
        "ORDER BY seen_on, origin, entry", (aid.id,))
    anchors = store.query(
        "SELECT topic, section, anchored_on, first_seen, last_seen, ended_on, label FROM anchors "
        "WHERE arxiv_id = ? ORDER BY topic, section", (aid.id,))
    if not rows and not mentions and not anchors:
        raise NotFound(f"{aid.id} is not in the store")
    paper: dict[str, Any] = {"arxiv_id": aid.id}
    if rows:
        r = dict(rows[0])
        paper.update(r, authors=_j(r["authors"]), categories=_j(r["categories"]))
    else:
        paper.update(title=None, note="known only from mentions or anchors; not yet resolved")
    paper["versions"] = [dict(v) for v in store.query(
        "SELECT version, date FROM paper_versions WHERE arxiv_id = ? ORDER BY version", (aid.id,))]
    paper["sources"] = [dict(s) for s in store.query(
        "SELECT source, seen_on, kind, version, upvotes, url FROM sightings WHERE arxiv_id = ? "
        "ORDER BY seen_on, source, kind", (aid.id,))]
    paper["changes"] = [dict(c) for c in store.query(
        "SELECT version, field, source FROM paper_changes WHERE arxiv_id = ? ORDER BY id", (aid.id,))]
    paper["anchors"] = [dict(a) for a in anchors]
    paper["mentions"] = [dict(m) for m in mentions]
    paper["cards"] = [dict(c) for c in store.query(
        "SELECT path, title, created, hf_upvotes, primary_topic FROM cards WHERE arxiv_id = ? OR file_id = ? "
        "ORDER BY path", (aid.id, aid.id))]
    paper["tags"] = [dict(t, terms=_j(t["terms"])) for t in store.query(
        "SELECT topic, score, terms FROM tags WHERE subject_kind = 'paper' AND subject = ? "
        "ORDER BY score DESC, topic", (aid.id,))]
    rel = store.query("SELECT relevance FROM classifications WHERE subject_kind = 'paper' AND subject = ?",
                      (aid.id,))
    paper["relevance"] = rel[0]["relevance"] if rel else None
    paper["flags"] = [dict(f) for f in store.query(
        "SELECT id, rule, status, subject FROM flags WHERE subject = ? OR evidence LIKE ? ORDER BY id",
        (aid.id, f'%"{aid.id}"%'))]
    return paper


def format_paper_md(p: dict[str, Any]) -> str:
    """A paper card as Markdown for the terminal; everything from outside is escaped (kb.mdsafe)."""
    t = md_text
    lines = [f"# {t(p['arxiv_id'])}" + (f" — {t(p['title'])}" if p.get("title") else "")]
    if p.get("authors"):
        lines.append("Authors: " + ", ".join(t(a) for a in p["authors"]))
    lines += [f"{k}: {t(p[k])}" for k in ("latest_version", "primary_category", "published", "updated",
                                          "first_seen", "doi", "journal_ref", "relevance") if p.get(k)]
    if p.get("abstract"):
        lines += ["", t(p["abstract"])]
    for title, key, fmt in (
        ("Versions", "versions", lambda v: f"v{v['version']} {t(v['date'] or '')}"),
        ("Sources", "sources", lambda s: f"{t(s['seen_on'])} {t(s['source'])} {t(s['kind'])}"
         + (f" {s['upvotes']}▲" if s["upvotes"] is not None else "")),
        ("Anchors", "anchors", lambda a: f"{t(a['topic'])} §{t(a['section'])} anchored {t(a['anchored_on'] or '?')}"
         + (f" (ended {t(a['ended_on'])})" if a["ended_on"] else "")),
        ("Mentions", "mentions", lambda m: t(m["origin"]) + (f" entry {m['entry']}" if m["entry"] else "")),
        ("Cards", "cards", lambda c: t(c["path"])),
        ("Tags", "tags", lambda g: f"{t(g['topic'])} {g['score']:.2f} ({t(', '.join(g['terms']))})"),
        ("Flags", "flags", lambda f: f"#{f['id']} {t(f['rule'])} [{t(f['status'])}]"),
    ):
        if p.get(key):
            lines += ["", f"## {title}"] + [f"- {fmt(x)}" for x in p[key]]
    return "\n".join(lines)


def known_arxiv_ids(store: Store) -> set[str]:
    """IDs of every paper the store has metadata for."""
    return {r[0] for r in store.query("SELECT arxiv_id FROM papers")}


def current_doc_version(store: Store, topic: str) -> dict[str, Any] | None:
    """The version of a topic's knowledge doc that is on disk now (the one whose content the store last
    read), else the newest recorded. A doc reverted to an earlier text is that earlier version again."""
    rows = store.query(
        "SELECT d.* FROM doc_versions d JOIN workspace_files w ON w.path = d.path AND w.content_hash = d.content_hash "
        "WHERE d.topic = ? UNION ALL SELECT * FROM (SELECT * FROM doc_versions WHERE topic = ? ORDER BY id DESC "
        "LIMIT 1)", (topic, topic))
    return dict(rows[0]) if rows else None


def query_papers(store: Store, *, since: str | None = None, until: str | None = None, source: str | None = None,
                 topic: str | None = None, relevance: str | None = None) -> list[dict[str, Any]]:
    """Papers seen by a source within [since, until] (the sources' own dates), by arXiv ID.

    A function of what was ingested, not of when: no fetch timestamps appear.
    """
    where, params = ["1 = 1"], []
    if since:
        where.append("s.seen_on >= ?")
        params.append(since)
    if until:
        where.append("s.seen_on <= ?")
        params.append(until)
    if source:
        where.append("s.source = ?")
        params.append(source)
    sql = ("SELECT p.arxiv_id, p.latest_version AS version, p.title, p.primary_category, p.published, "
           "min(s.seen_on) AS seen_on, group_concat(DISTINCT s.source) AS sources "
           "FROM papers p JOIN sightings s ON s.arxiv_id = p.arxiv_id "
           f"WHERE {' AND '.join(where)} ")
    if topic:
        sql += "AND EXISTS (SELECT 1 FROM tags t WHERE t.subject_kind = 'paper' AND t.subject = p.arxiv_id AND t.topic = ?) "
        params.append(topic)
    if relevance:
        sql += ("AND EXISTS (SELECT 1 FROM classifications c WHERE c.subject_kind = 'paper' "
                "AND c.subject = p.arxiv_id AND c.relevance = ?) ")
        params.append(relevance)
    sql += "GROUP BY p.arxiv_id ORDER BY p.arxiv_id"
    rows = [dict(r) for r in store.query(sql, tuple(params))]
    for r in rows:
        r["sources"] = sorted(set((r["sources"] or "").split(","))) if r["sources"] else []
    return rows


def _staleness(runs: list[Any]) -> tuple[int, int]:
    """(quiet runs since the last new item, how many the source usually goes without one).

    Runs that recorded an empty day (arXiv weekends and holidays: the listing said
    there were no announcements) and failed runs are not counted as quiet.
    """
    # One entry per run date (several runs of one day count once), oldest first.
    by_day: dict[str, Any] = {}
    for r in reversed(runs):
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


STALE_RUNS = 3   # a source failing or quiet beyond its habit for this many runs is named in the briefing


def sources_status(store: Store, *, until: str | None = None) -> list[dict[str, Any]]:
    """Per source: last run, last success, last failure, consecutive failures, staleness.

    ``until`` limits the ledger to runs dated up to that day (a past briefing is rebuilt
    from what was known then). Several runs of one day count as one run of that day.
    """
    out = []
    for src in store.query("SELECT DISTINCT source FROM source_runs ORDER BY source"):
        name = src["source"]
        runs = store.query("SELECT run_date, started_at, status, new, error, problems FROM source_runs "
                           "WHERE source = ? AND run_date <= ? ORDER BY id DESC", (name, until or "9999"))
        if not runs:
            continue
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
        meta = store.query("SELECT kind, credibility FROM sources WHERE name = ?", (name,))
        out.append({
            "name": name, "kind": meta[0]["kind"] if meta else None,
            "credibility": meta[0]["credibility"] if meta else None,
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
            out.append({"name": s["name"], "reason": f"{s['consecutive_failures']} failed runs in a row: "
                                                     f"{s['last_error']}"})
        elif s["stale"]:
            out.append({"name": s["name"], "reason": f"no new items for {s['quiet_runs']} runs "
                                                     f"(usually {s['usual_quiet_runs']})"})
    return out


def list_flags(store: Store, *, only_open: bool = False) -> list[dict[str, Any]]:
    """Verification flags with their evidence (JSON-decoded)."""
    sql = "SELECT id, rule, topic, subject, status, note, first_seen, last_seen, evidence FROM flags"
    if only_open:
        sql += " WHERE status = 'open'"
    rows = [dict(r) for r in store.query(sql + " ORDER BY last_seen DESC, id")]
    for r in rows:
        r["evidence"] = json.loads(r["evidence"])
    return rows
