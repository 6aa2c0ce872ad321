"""The Atom feed of one topic's briefings, written with feedgen (RFC 4287 as a maintained library sees it).

Deterministic so a rerun writes nothing: no "now" anywhere — the feed's ``updated`` is its newest
briefing's, each entry's is its day's cut-off in the workspace's zone. Ids are tag URIs (RFC 4151)
under the workspace's contact address, stable for as long as the topic and date are. Links are
relative to the feed (``2026-10-08.html`` beside ``feed.xml``), which feed readers resolve
against the feed's own URL, so the site keeps working wherever it is served from.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from kb.text import counted
from kb.workspace import Workspace
from pipeline.brief.render import level_filter
from pipeline.site.archive import Day

FEED_ENTRIES = 30     # a month of briefings: feed readers poll; the archive is the site itself


def _when(ws: Workspace, day: str) -> datetime:
    return ws.config.cutoff_at(datetime.fromisoformat(day).date())


def _summary(day: Day, lang: str, level: Callable[[str, str], str]) -> str:
    c = day.counts
    if lang == "zh":
        text = (f"密度 {c['density']} · NET-new {c['net_new']} · 增量 {c['increments']} · "
                f"待核实 {c['open_flags']} · arXiv {c['arxiv_ids']}")
    else:
        text = (f"density {level(c['density'], lang)} · NET-new {c['net_new']} · "
                f"{counted(c['increments'], 'increment')} · {counted(c['open_flags'], 'open flag')} · "
                f"{counted(c['arxiv_ids'], 'arXiv ID')}")
    return text + (f" — {day.top_title}" if day.top_title else "")


def atom_feed(ws: Workspace, topic: str, days: list[Day], page: Callable[[str], str]) -> bytes:
    """The feed of ``topic``'s latest FEED_ENTRIES briefings (first language), newest first."""
    from feedgen.feed import FeedGenerator
    lang = ws.config.languages[0]
    contact = ws.config.contact
    level = level_filter(ws.root)
    fg = FeedGenerator()
    fg.id(f"tag:{contact},2026:kb/{topic}")
    fg.title(f"kb · {topic}")
    fg.author({"name": "kb", "email": contact})
    fg.link(href="feed.xml", rel="self")
    fg.link(href="index.html", rel="alternate")
    fg.language("zh-CN" if lang == "zh" else lang)
    fg.updated(_when(ws, days[-1].date))
    for day in days[-FEED_ENTRIES:]:          # feedgen puts the entry added last first
        fe = fg.add_entry()
        fe.id(f"tag:{contact},{day.date}:kb/{topic}")
        fe.title(f"{topic} · {day.date}")
        fe.link(href=page(day.date), rel="alternate")
        fe.updated(_when(ws, day.date))
        fe.summary(_summary(day, lang, level))
        fe.content(day.bodies[lang], type="html")
    return fg.atom_str(pretty=True)
