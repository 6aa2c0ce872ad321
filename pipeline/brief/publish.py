"""The day's briefing files: every configured language in every configured format, and the
rewrite that keeps them current when a person changes what they show (`kb flags resolve`).

The nightly, `kb brief` and `kb flags resolve` all come here, so the files of a day are always
rendered from the same data in the same run: no file can go stale beside another, nor beside the
data recorded for the day.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from kb.errors import KBError
from kb.store.briefings import data_digest
from pipeline.brief.write import NIGHTLY, BriefResult, briefing_data, default_path, render, write_briefing
from pipeline.context import RunContext


def write_day(ctx: RunContext, topic: str, data: dict[str, Any] | None = None, *, command: str = NIGHTLY,
              also: tuple[str, str] | None = None, failed: list[tuple[str, str]] | None = None) -> list[BriefResult]:
    """Write ``topic``'s briefing of ``ctx.today`` in every language × format of kb.toml (only changed bytes).

    ``command`` is the one writing it, which the Markdown's header names. ``also``: one more
    (language, format) to write when kb.toml does not list it (``kb brief --lang en --format html``).
    ``failed``: when given, a file that cannot be written is added to it (its workspace path, the error's
    line) and the others are still written; else the first such error is raised.
    """
    data = data if data is not None else briefing_data(ctx, topic)   # the rules run (and flags sync) once
    wanted = [(lang, fmt) for lang in ctx.config.languages for fmt in ctx.config.briefing_formats]
    if also is not None and also not in wanted:
        wanted.append(also)
    results: list[BriefResult] = []
    digest = data_digest(data)
    markdown: dict[str, str] = {}   # md and html of one language come from one Markdown rendering
    for lang, fmt in wanted:
        try:
            if fmt != "json" and lang not in markdown:
                markdown[lang] = render(data, lang, "md", ctx.workspace.root, command=command)
            results.append(write_briefing(ctx, topic, lang=lang, fmt=fmt, data=data, markdown=markdown.get(lang),
                                          digest=digest, command=command))
        except KBError as exc:
            if failed is None:
                raise
            failed.append((ctx.workspace.relative(default_path(ctx, topic, lang, fmt)), str(exc)))
    return results


@dataclass
class Refreshed:
    """What ``refresh_latest`` did: each file written or found current (``results``), and each one it could not
    write, or topic it could not brief, with the error's line (``failed``)."""
    results: list[BriefResult] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def refresh_latest(ctx: RunContext, topics: list[str]) -> Refreshed:
    """Rewrite the latest briefing of each topic (its own date, not today's), e.g. after flags were closed.

    It is rewritten as the nightly writes it, so the next nightly finds it current (a day last written
    by ``kb brief`` gets the nightly's header). A topic that was never briefed is left alone: there is
    nothing on disk to go stale. A file that cannot be written stops neither the other files of its day
    nor the other topics: what was done and what was not are both returned, so the caller can say which.
    """
    from kb.store.briefings import latest_date
    done = Refreshed()
    for topic in topics:
        day = None
        try:
            if (day := latest_date(ctx.store, topic)) is None:
                continue
            past = RunContext(ctx.workspace, ctx.store, date.fromisoformat(day), offline=True, now=ctx.now)
            done.results += write_day(past, topic, failed=done.failed)
        except KBError as exc:   # its briefing could not be made at all: none of its files was written
            done.failed.append((f"the {topic} briefing" + (f" of {day}" if day else ""), str(exc)))
    return done
