"""The CLI's shared pieces: the progress bar a person at a terminal sees (and the output it leaves alone)."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import kb.cli.common as common
import pipeline.ingest.workspace as workspace_ingest
from tests.reliability.support import kb_inproc


def test_at_a_terminal_a_long_read_shows_a_bar_on_stderr_then_removes_it(sample_workspace: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = io.StringIO()
    monkeypatch.setattr(common, "wants_progress", lambda: True)          # stderr is a terminal
    monkeypatch.setattr(common, "_stderr_console", lambda: Console(file=terminal, force_terminal=True, width=100))
    monkeypatch.setattr(workspace_ingest, "PROGRESS_FROM", 1)            # the sample is small
    result = kb_inproc("ingest", "workspace", "--date", "2026-10-08")
    assert result.returncode == 0, result.stderr
    files = int(result.stdout.split("parsed ")[1].split(",")[0])
    shown = terminal.getvalue()
    assert "workspace files" in shown and f"{files}/{files}" in shown   # the bar counted every file
    assert shown.endswith("\x1b[2K")                                      # and was erased when done
    assert result.stdout.startswith(f"workspace: ok — parsed {files}, new {files}") and result.stderr == ""


@pytest.mark.parametrize("args", [("nightly", "--offline"), ("brief",)])
def test_a_day_after_today_is_not_briefed(sample_workspace: Path, args: tuple[str, ...]) -> None:
    """A mistyped year (2062 for 2026) was briefed and became the latest briefing: the one `kb flags
    resolve` rewrites and the next day compares with (QA, 2026-12-04)."""
    result = kb_inproc(*args, "--date", "2062-10-08")
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "2062-10-08 has not begun" in result.stderr
    assert not (sample_workspace / "briefings").exists()
    assert kb_inproc("ingest", "workspace").returncode == 0    # a store to preview from (a read makes none)
    assert kb_inproc("brief", "--date", "2062-10-08", "--preview").returncode == 0   # a preview records nothing


def test_a_day_briefed_may_be_the_workspace_s_tomorrow_not_later(sample_workspace: Path) -> None:
    """A crontab's ``--date $(date +%F)`` on a host whose zone is a day ahead of the workspace's is kept."""
    import datetime as dt

    import typer

    from kb.workspace import open_workspace
    ws, today = open_workspace(str(sample_workspace)), dt.date(2026, 10, 8)
    assert common.briefed_day("2026-10-09", ws, today) == dt.date(2026, 10, 9)
    # it said "a day is briefed once it has begun", which tomorrow, accepted, has not
    with pytest.raises(typer.BadParameter, match=r"^2026-10-10 has not begun \(2026-10-08 in Asia/Shanghai\): "
                                                 r"a day is briefed from its eve on, not earlier$"):
        common.briefed_day("2026-10-10", ws, today)
