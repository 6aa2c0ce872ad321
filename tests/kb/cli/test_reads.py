"""The everyday read commands (`kb flags show`, `kb show`, `kb audit`, `--format ids`) tell the truth."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app
from kb.store import Store
from kb.store.flags import sync_flag


def _boundary(workspace: Path, anchored_title: str) -> None:
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        sync_flag(tx, rule="boundary", fingerprint="inference:boundary:x", topic="inference", subject="x",
                  evidence={"new": "2610.09701", "anchored": "2609.33252", "anchored_title": anchored_title,
                            "section": "§2.3"}, day="2026-10-08")


def test_flags_show_gives_a_boundarys_anchored_title_as_the_briefing_shows_it(runner: CliRunner,
                                                                               workspace: Path) -> None:
    """An anchor with no paper in the store is titled by its line; the briefing shows it without the ID and
    "(anchored …)" (the flag's context), `kb flags show` showed the raw line alone."""
    _boundary(workspace, "2609.33252 CascadeEP — async expert scheduling (anchored 2026-10-07)")
    md = runner.invoke(app, ["flags", "show", "1"])
    assert md.exit_code == 0, md.output
    assert "## Context\n- anchored_title: CascadeEP — async expert scheduling\n" in md.output
    shown = json.loads(runner.invoke(app, ["flags", "show", "1", "--format", "json"]).output)
    assert shown["context"] == {"anchored_title": "CascadeEP — async expert scheduling"}


def test_flags_show_has_no_context_when_the_title_is_shown_as_it_is(runner: CliRunner, workspace: Path) -> None:
    _boundary(workspace, "CascadeEP: Asynchronous Expert Scheduling")
    md = runner.invoke(app, ["flags", "show", "1"]).output
    assert "## Context" not in md and "anchored_title: CascadeEP: Asynchronous Expert Scheduling" in md
