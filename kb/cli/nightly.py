"""`kb nightly`: the command a crontab line runs."""
from __future__ import annotations

import math
import sys
from typing import Annotated

import typer

from kb.cli.common import briefed_day, context_of, echo, open_workspace, state
from kb.cli.options import Day, Home, Quiet


def _check_wait(value: float) -> float:
    if not math.isfinite(value) or not 0 <= value <= 86_400:
        raise typer.BadParameter(f"{value!r}: expected seconds from 0 to 86400")
    return value


def nightly_cmd(day: Day = None,
                offline: Annotated[bool, typer.Option("--offline", help="Recordings and the workspace only; "
                                                      "no network.")] = False,
                wait: Annotated[float, typer.Option("--wait", callback=_check_wait, help="Seconds to wait for "
                                                    "another nightly holding the lock (then exit 75).")] = 0.0,
                quiet: Quiet = False, home: Home = None) -> None:
    """Sources → workspace → resolve → classify → verify → briefings → the site ([site] dir), safe to run unattended.

    Exit codes: 0 all well; 1 a source failed (briefings written, naming it); 2 configuration or usage
    error; 70 an internal error (the line names the crash log); 75 another nightly holds the lock;
    130 interrupted.
    """
    from pipeline.nightly import run_log, run_unattended
    state.home = str(home) if home else state.home
    state.quiet = quiet or state.quiet
    ws = open_workspace()
    today = briefed_day(day, ws)
    # The run log first: a store that cannot be opened is the night's failure, and its log says so.
    with run_log(ws.root, today) as logged, context_of(ws, today, offline=offline) as ctx:
        ctx.run_log = logged
        report = run_unattended(ctx, wait=wait)
    if report.exit_code or not state.quiet:
        echo(report.summary(), err=bool(report.exit_code))
    sys.exit(report.exit_code)
