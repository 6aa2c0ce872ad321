"""The day's briefing files: every configured language in every configured format, and the
rewrite that keeps them current when a person changes what they show (`kb flags resolve`).

The nightly, `kb brief` and `kb flags resolve` all come here, so the files of a day are always
rendered from the same data in the same run: no file can go stale beside another, nor beside the
data recorded for the day.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from kb.store.briefings import data_digest
from pipeline.brief.write import NIGHTLY, BriefResult, briefing_data, render, write_briefing
from pipeline.context import RunContext


def write_day(ctx: RunContext, topic: str, data: dict[str, Any] | None = None, *, command: str = NIGHTLY,
              also: tuple[str, str] | None = None) -> list[BriefResult]:
    """Write ``topic``'s briefing of ``ctx.today`` in every language × format of kb.toml (only changed bytes).

    ``command`` is the one writing it, which the Markdown's header names. ``also``: one more
    (language, format) to write when kb.toml does not list it (``kb brief --lang en --format html``).
    """
    data = data if data is not None else briefing_data(ctx, topic)   # the rules run (and flags sync) once
    wanted = [(lang, fmt) for lang in ctx.config.languages for fmt in ctx.config.briefing_formats]
    if also is not None and also not in wanted:
        wanted.append(also)
    results: list[BriefResult] = []
    digest = data_digest(data)
    markdown: dict[str, str] = {}   # md and html of one language come from one Markdown rendering
    for lang, fmt in wanted:
        if fmt != "json" and lang not in markdown:
            markdown[lang] = render(data, lang, "md", ctx.workspace.root, command=command)
        results.append(write_briefing(ctx, topic, lang=lang, fmt=fmt, data=data, markdown=markdown.get(lang),
                                      digest=digest, command=command))
    return results


def refresh_latest(ctx: RunContext, topics: list[str]) -> list[BriefResult]:
    """Rewrite the latest briefing of each topic (its own date, not today's), e.g. after flags were closed.

    It is rewritten as the nightly writes it, so the next nightly finds it current (a day last written
    by ``kb brief`` gets the nightly's header). A topic that was never briefed is left alone: there is
    nothing on disk to go stale.
    """
    from kb.store.briefings import latest_date
    results: list[BriefResult] = []
    for topic in topics:
        day = latest_date(ctx.store, topic)
        if day is None:
            continue
        past = RunContext(ctx.workspace, ctx.store, date.fromisoformat(day), offline=True, now=ctx.now)
        results += write_day(past, topic)
    return results
