"""What a briefing was built from, as one digest: the nightly reuses a briefing whose inputs did not change.

The digest covers kb's version, the templates and rules files, the taxonomy, the
relevant configuration, and the store state a briefing reads (papers, sightings,
posts, the team's files, anchors, flags, earlier briefings, the day's ledger).
It is conservative: anything that could change the output changes the digest.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from kb import __version__
from kb.resources import find_resource
from kb.queries import troubled_sources
from pipeline.brief.build import configured_credibility
from pipeline.brief.facts import source_runs
from pipeline.context import RunContext

# One row each, cheap aggregates; order matters only for stability.
_STATE_QUERIES = (
    "SELECT count(*), coalesce(max(rowid), 0) FROM papers",
    "SELECT count(*), coalesce(max(id), 0) FROM paper_changes",
    "SELECT count(*), coalesce(max(id), 0) FROM sightings",
    "SELECT count(*), coalesce(max(rowid), 0) FROM posts",
    "SELECT count(*), coalesce(max(id), 0) FROM mentions",
    "SELECT group_concat(path || ':' || content_hash, ',') FROM (SELECT path, content_hash FROM workspace_files "
    "ORDER BY path)",
    "SELECT group_concat(id || ':' || status || ':' || evidence_hash, ',') FROM (SELECT id, status, evidence_hash "
    "FROM flags ORDER BY id)",
    "SELECT count(*), count(ended_on), coalesce(max(id), 0) FROM anchors",
    "SELECT group_concat(taxonomy_hash || ':' || n, ',') FROM (SELECT taxonomy_hash, count(*) AS n FROM "
    "classifications GROUP BY taxonomy_hash ORDER BY taxonomy_hash)",
    "SELECT count(*), coalesce(max(checked_on), '') FROM id_checks",
    "SELECT group_concat(name || ':' || coalesce(credibility, ''), ',') FROM (SELECT name, credibility FROM sources "
    "ORDER BY name)",
)


def _file_digest(relative: str, workspace: Path) -> str:
    return hashlib.sha256(find_resource(relative, workspace).read_bytes()).hexdigest()


def briefing_inputs(ctx: RunContext, topic: str, taxonomy_hash: str) -> str:
    """The digest of everything the briefing of ``topic`` for ``ctx.today`` depends on."""
    cfg = ctx.config
    day = ctx.today.isoformat()
    parts: list[Any] = [
        __version__, day, topic, taxonomy_hash,
        [_file_digest(f, ctx.workspace.root) for f in ("templates/briefing.zh.md.j2", "templates/briefing.en.md.j2",
                                                        "templates/briefing.css", "data/briefing.toml")],
        [cfg.timezone, cfg.languages, cfg.cutoff, cfg.briefing_top, sorted(cfg.authors.items()),
         sorted(configured_credibility(cfg).items()), [(t.slug, t.doc) for t in cfg.topics]],
        troubled_sources(ctx.store, until=day),
    ]
    for sql in _STATE_QUERIES:
        parts.append(list(ctx.store.query(sql)[0]))
    parts.append([list(r) for r in ctx.store.query(
        "SELECT date, lang, format, content_hash FROM briefings WHERE topic = ? AND date < ? "
        "ORDER BY date, lang, format", (topic, day))])
    # The public sources' rows the briefing shows (the workspace is covered by its files' hashes).
    parts.append([(r["source"], r["status"], r["parsed"], r["error"], r["credibility"])
                  for r in source_runs(ctx.store, day) if r["source"] != "workspace"])
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def reusable(ctx: RunContext, topic: str, lang: str, fmt: str, inputs: str) -> dict[str, Any] | None:
    """The stored briefing row if it was built from ``inputs`` and its file is still as written; else None."""
    rows = ctx.store.query("SELECT path, content_hash, increments, net_new, inputs_hash FROM briefings "
                           "WHERE topic = ? AND date = ? AND lang = ? AND format = ?",
                           (topic, ctx.today.isoformat(), lang, fmt))
    if not rows or rows[0]["inputs_hash"] != inputs or not rows[0]["path"]:
        return None
    path = ctx.workspace.root / rows[0]["path"]
    if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != rows[0]["content_hash"]:
        return None
    return dict(rows[0])
