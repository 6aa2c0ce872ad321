"""Pieces shared by the CLI modules: global state, formats, opening the workspace, exit codes."""
from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from datetime import date, datetime, timedelta
from typing import Any, Optional

import typer

from kb.text import without_hidden_controls


class _State:
    home: Optional[str] = None
    quiet: bool = False
    verbose: bool = False


state = _State()


def echo(message: Any = "", *, err: bool = False, nl: bool = True) -> None:
    """Print ``message`` (typer.echo) without hidden controls: a bidi override or a terminal escape in a
    title, a note or a path would make the terminal show other than what is stored. Every line kb prints
    goes through here; the JSON formats have already written them as escapes (``format_json``)."""
    typer.echo(without_hidden_controls(str(message)), err=err, nl=nl)


def open_workspace():
    from kb.workspace import open_workspace as _open
    return _open(state.home)


def configured_topics(ws) -> list[str]:
    """The slugs kb.toml configures: what "every doc" means to a command that lists across docs (a doc
    kb.toml no longer names keeps its rows in the store, unlisted)."""
    return [t.slug for t in ws.config.topics]


def open_store(ws=None, *, write: bool = False):
    """The workspace's store; read-only unless the command writes (a member who may only read
    the workspace runs every read command)."""
    from kb.store import Store
    ws = ws or open_workspace()
    return Store.open(ws.store_target, readonly=not write)


def parse_day(value: str | None, ws) -> date:
    """``--date`` (a date its option's callback checked) or today in the workspace's time zone (the
    CLI is where the clock is read)."""
    if value:
        return date.fromisoformat(value)
    return datetime.now(ws.config.tz).date()


@contextlib.contextmanager
def terminal_progress(label: str, total: int | None = None) -> Iterator[Any]:
    """A progress bar on stderr (rich, which typer brings), removed when the work is done."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    class _Bar:
        def __init__(self, bar: Progress, task: Any) -> None:
            self.bar, self.task = bar, task

        def advance(self, n: int = 1) -> None:
            self.bar.advance(self.task, n)

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, transient=True, console=_stderr_console()) as bar:
        yield _Bar(bar, bar.add_task(label, total=total))


def _stderr_console() -> Any:
    from rich.console import Console
    return Console(stderr=True)


def wants_progress() -> bool:
    """A bar only for a person at a terminal: not under --quiet, not into a pipe, cron mail or log."""
    return not state.quiet and sys.stderr.isatty()


def briefed_day(value: str | None, ws, today: date | None = None) -> date:
    """``--date`` of a command that records the day's briefing: not later than tomorrow in the workspace's
    time zone (``today``: its today, read from the clock unless given). A mistyped year would otherwise
    become the latest briefing, the one `kb flags resolve` rewrites and the next day compares with; a day
    of grace, because a crontab's ``--date $(date +%F)`` is the host's date, which another zone may
    already have turned."""
    day, today = parse_day(value, ws), today or parse_day(None, ws)
    if day > today + timedelta(days=1):
        raise typer.BadParameter(f"{day.isoformat()} has not begun ({today.isoformat()} in {ws.config.tz}): "
                                 "a day is briefed from its eve on, not earlier", param_hint="'--date'")
    return day


@contextlib.contextmanager
def run_context(day: str | None, *, offline: bool = False, write: bool = True, briefs: bool = False) -> Iterator[Any]:
    """The run context of a pipeline command; ``write=False`` for one that only reads (``kb explain``),
    ``briefs`` for one that records the day's briefing (``briefed_day``)."""
    ws = open_workspace()
    today = briefed_day(day, ws) if briefs else parse_day(day, ws)
    with context_of(ws, today, offline=offline, write=write) as ctx:
        yield ctx


@contextlib.contextmanager
def context_of(ws: Any, today: date, *, offline: bool = False, write: bool = True) -> Iterator[Any]:
    """The run context of the open workspace ``ws`` for ``today``: its store is opened here, and
    closed with the run's HTTP client at the end of the block."""
    from kb.store import Store
    from pipeline.context import RunContext
    ctx = RunContext(ws, Store.open(ws.store_target, readonly=not write), today, offline=offline)
    if wants_progress():
        ctx.progress = terminal_progress
    try:
        yield ctx
    finally:
        ctx.close()
        ctx.store.close()


def echo_rows(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None,
              id_key: str = "arxiv_id") -> None:
    from kb.cli.output import format_rows
    out = format_rows(rows, fmt, columns, id_key)
    if out:
        echo(out)


def finish_reports(reports: Sequence[Any]) -> None:
    """Print one line per source; exit 1 if any failed (after all of them ran)."""
    failed = [r for r in reports if r.status == "failed"]
    if not state.quiet or failed:
        for r in reports:
            echo(r.summary(), err=r.status == "failed")
    if failed:
        sys.exit(1)
