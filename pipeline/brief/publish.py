"""The day's briefing files: every configured language in every configured format, and the
rewrite that keeps them current when a person changes what they show (`kb flags resolve`).

The nightly and `kb flags resolve` both come here, so the md and the html of a day are always
rendered from the same data in the same run: the html can no longer go stale beside its md.
"""
from __future__ import annotations

from datetime import date
from typing import Any

from kb.store.briefings import data_digest
from pipeline.brief.write import BriefResult, briefing_data, render, write_briefing
from pipeline.context import RunContext


def write_day(ctx: RunContext, topic: str, data: dict[str, Any] | None = None) -> list[BriefResult]:
    """Write ``topic``'s briefing of ``ctx.today`` in every language × format of kb.toml (only changed bytes),
    as the nightly writes it (its header names ``kb nightly``)."""
    data = data if data is not None else briefing_data(ctx, topic)   # the rules run (and flags sync) once
    results: list[BriefResult] = []
    text_formats = {"md", "html"} & set(ctx.config.briefing_formats)
    digest = data_digest(data)
    for lang in ctx.config.languages:
        # md and html of one language come from one Markdown rendering
        markdown = render(data, lang, "md", ctx.workspace.root) if text_formats else None
        results += [write_briefing(ctx, topic, lang=lang, fmt=fmt, data=data, markdown=markdown, digest=digest)
                    for fmt in ctx.config.briefing_formats]
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
