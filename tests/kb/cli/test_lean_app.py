"""A kb process builds the click command of the command it runs only, and says what the whole app says."""
from __future__ import annotations

import pytest
import typer.main

import kb.cli
from kb.cli import _app_for, app, main


def _names(typer_app: typer.Typer) -> list[str | None]:
    return [c.name for c in typer_app.registered_commands] + [g.name for g in typer_app.registered_groups]


@pytest.mark.parametrize("args, names", [
    (["nightly", "--date", "2026-10-08"], ["nightly"]),
    (["--home", "nightly", "-q", "show", "x"], ["show"]),          # a home folder named like a command
    (["--home=w", "--verbose", "query", "anchored"], ["query"]),
    (["-v", "-q", "db", "status"], ["db"]),
])
def test_a_command_runs_with_an_app_of_that_command_alone(args: list[str], names: list[str]) -> None:
    assert _names(_app_for(args)) == names
    assert _names(app) != names


@pytest.mark.parametrize("args", [[], ["--help"], ["--version"], ["nightl"], ["--bogus", "nightly"], ["--home"]])
def test_anything_else_runs_with_the_whole_app(args: list[str]) -> None:
    assert _app_for(args) is app


def test_running_a_command_builds_no_other_command(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    built: list[str] = []
    original = typer.main.get_command_from_info

    def counting(command_info, **kw):
        built.append(command_info.name)
        return original(command_info, **kw)
    monkeypatch.setattr(typer.main, "get_command_from_info", counting)
    with pytest.raises(SystemExit):
        main(["--home", str(tmp_path), "init", str(tmp_path / "w")])
    assert built == ["init"]


@pytest.mark.parametrize("args", [["nightly", "--help"], ["query", "--help"], ["--home", "w", "query", "nope"],
                                  ["nightly", "--bogus"], ["flags", "resolve"]])
def test_the_lean_app_says_what_the_whole_app_says(args: list[str], capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    outputs = []
    for lean in (True, False):
        if not lean:
            monkeypatch.setattr(kb.cli, "_app_for", lambda _args: app)
        with pytest.raises(SystemExit) as exit_:
            main(args)
        outputs.append((exit_.value.code, capsys.readouterr()))
    assert outputs[0] == outputs[1]
