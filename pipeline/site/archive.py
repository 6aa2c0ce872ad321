"""What the site shows, read from the store: each briefing day with its counts and its HTML body per language.

A day's body is taken, in this order, from the html file the nightly wrote, the md file, or the
day's stored data rendered afresh — a file only when its bytes are the ones kb recorded for it
(its SHA-256), so an edited or stale file on disk never reaches the site. The nightly renders
each day's html once; the site reuses it, which keeps a rebuild over a year of briefings fast.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import WorkspaceError
from kb.store import Store
from kb.text import without_hidden_controls
from kb.workspace import Workspace

MAIN_OPEN, MAIN_CLOSE = "<main>\n", "</main>"


@dataclass
class Day:
    """One topic's briefing of one date: its numbers and its HTML body in each language."""

    topic: str
    date: str
    data: dict[str, Any]
    bodies: dict[str, str] = field(default_factory=dict)      # lang → HTML (already escaped)

    @property
    def counts(self) -> dict[str, Any]:
        d = self.data
        return {"density": (d.get("density") or {}).get("level", "—"),
                "net_new": (d.get("density") or {}).get("net_new", 0),
                "increments": len(d.get("increments") or []),
                "relevant": (d.get("counts") or {}).get("relevant", 0),
                "open_flags": sum(f.get("status") == "open" for f in d.get("flags") or []),
                "arxiv_ids": len(d.get("arxiv_ids") or []),
                "failing": len(d.get("failing_sources") or [])}

    @property
    def top_title(self) -> str:
        # stored as the day's data holds it: the team's text as written (a heading with a bidi override)
        return without_hidden_controls((self.data.get("top_item") or {}).get("title") or "")


def load_archive(ws: Workspace, store: Store) -> dict[str, list[Day]]:
    """topic → its briefing days, oldest first, each with a body for every configured language."""
    from kb.store.briefings import archived_days, archived_files
    files = archived_files(store)
    out: dict[str, list[Day]] = {}
    for topic, day, data in archived_days(store):
        entry = Day(topic, day, data)
        for lang in ws.config.languages:
            # a body an older kb rendered may hold hidden controls (lxml refuses them in the feed)
            entry.bodies[lang] = without_hidden_controls(_body(ws, files, entry, lang))
        out.setdefault(topic, []).append(entry)
    return out


def _recorded_text(ws: Workspace, files: dict, key: tuple[str, str, str, str]) -> str | None:
    """The text of a briefing file, if it is on disk with exactly the bytes kb recorded."""
    if key not in files:
        return None
    rel, digest = files[key]
    try:
        data = Path(ws.path(rel)).read_bytes()
    except (OSError, WorkspaceError):
        return None
    return data.decode("utf-8") if hashlib.sha256(data).hexdigest() == digest else None


def _body(ws: Workspace, files: dict, day: Day, lang: str) -> str:
    from pipeline.brief.render import render_html_body
    from pipeline.brief.write import render
    page = _recorded_text(ws, files, (day.topic, day.date, lang, "html"))
    if page is not None and MAIN_OPEN in page and MAIN_CLOSE in page:
        return page[page.index(MAIN_OPEN) + len(MAIN_OPEN):page.rindex(MAIN_CLOSE)]
    md = _recorded_text(ws, files, (day.topic, day.date, lang, "md"))
    if md is None:
        from jinja2 import UndefinedError
        try:
            md = render(day.data, lang, "md", ws.root)   # its writer is not recorded: the nightly's header
        except UndefinedError:   # data an older kb stored, which today's templates cannot show
            return (f'<p class="missing">{day.topic} · {day.date}: this briefing\'s files are gone and its '
                    "stored data is older than this kb's templates; its counts are in the index.</p>\n")
    return render_html_body(md, lang)
