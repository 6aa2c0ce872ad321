"""The CLI of the foundation: init, db status, show, version, errors and exit codes."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb import __version__
from kb.cli import app
from kb.records import PaperRecord
from kb.store import Store, latest_schema
from kb.store.papers import save_papers
from tests.support.paths import REPO


def test_version(runner: CliRunner) -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"kb {__version__}"


def test_init_then_db_status_json_has_zero_counts(runner: CliRunner, tmp_path: Path) -> None:
    ws = tmp_path / "w"
    assert runner.invoke(app, ["init", str(ws)]).exit_code == 0
    assert (ws / "kb.toml").is_file() and (ws / "inbox").is_dir()
    Store.open(ws / ".kb" / "kb.sqlite").close()   # as the first nightly or ingest makes it (a read makes none)
    result = runner.invoke(app, ["--home", str(ws), "db", "status", "--format", "json"])
    assert result.exit_code == 0, result.output
    status = json.loads(result.output)
    assert status["schema_version"] == latest_schema()
    assert status["counts"]["papers"] == 0 and set(status["counts"].values()) == {0}


def test_init_keeps_an_existing_config(runner: CliRunner, tmp_path: Path) -> None:
    ws = tmp_path / "w"
    ws.mkdir()
    (ws / "kb.toml").write_text("# mine\n")
    runner.invoke(app, ["init", str(ws)])
    assert (ws / "kb.toml").read_text() == "# mine\n"


def test_init_says_when_the_config_it_keeps_does_not_read(runner: CliRunner, tmp_path: Path) -> None:
    """"already complete", exit 0, over a kb.toml that every next command refused."""
    ws = tmp_path / "w"
    ws.mkdir()
    (ws / "kb.toml").write_text("hi\n")
    result = runner.invoke(app, ["init", str(ws)])
    assert result.exit_code == 2 and "kb.toml kept as it is, but it does not read:" in result.output
    assert "kb.toml:1: not valid TOML" in result.output and (ws / "kb.toml").read_text() == "hi\n"


def test_show_resolves_any_form_to_the_same_card(runner: CliRunner, workspace: Path) -> None:
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as c:
        save_papers(c, [PaperRecord("2607.09701", 2, "SlimWise", ["Ada Li"], "MoE", ["cs.DC"], "cs.DC")], "arxiv")
    outs = []
    for form in ("https://arxiv.org/pdf/2607.09701v2.pdf", "arXiv:2607.09701"):
        result = runner.invoke(app, ["show", form, "--format", "json"])
        assert result.exit_code == 0, result.output
        outs.append(json.loads(result.output))
    assert outs[0] == outs[1] and outs[0]["title"] == "SlimWise"
    md = runner.invoke(app, ["show", "2607.09701"])
    assert md.output.startswith("# 2607.09701 — SlimWise")


def test_show_unknown_paper_is_one_line_and_exit_1(runner: CliRunner, workspace: Path) -> None:
    Store.open(workspace / ".kb" / "kb.sqlite").close()
    result = runner.invoke(app, ["show", "2607.09701"])
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit) or "not in the store" in str(result.exception)


def test_bad_config_exits_2_naming_file_line_and_key(tmp_path: Path) -> None:
    import subprocess
    import sys
    ws = tmp_path / "w"
    ws.mkdir()
    (ws / "kb.toml").write_text("[workspace]\n\n[arxiv]\nbogus = 1\n")
    proc = subprocess.run([sys.executable, "-m", "kb.cli", "--home", str(ws), "db", "status"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"kb: error: {ws / 'kb.toml'}:4: arxiv.bogus: unknown key "
                                                "(known: api_url, categories, credibility, recording, url)"]
    assert "Traceback" not in proc.stderr


def test_not_sqlite_store_is_a_clear_error_and_untouched(tmp_path: Path) -> None:
    import subprocess
    import sys
    ws = tmp_path / "w"
    subprocess.run([sys.executable, "-m", "kb.cli", "init", str(ws)], check=True, capture_output=True)
    junk = b"\x00\x01 not a database"
    (ws / ".kb" / "kb.sqlite").write_bytes(junk)
    proc = subprocess.run([sys.executable, "-m", "kb.cli", "--home", str(ws), "db", "status"],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "not a SQLite database" in proc.stderr
    assert (ws / ".kb" / "kb.sqlite").read_bytes() == junk


def _commands(typer_app, prefix=()):
    import typer.main
    group = typer.main.get_command(typer_app)
    stack = [(prefix, group)]
    while stack:
        path, cmd = stack.pop()
        subs = getattr(cmd, "commands", None)
        if subs:
            stack += [(path + (name,), sub) for name, sub in subs.items()]
        else:
            yield " ".join(path), cmd


def test_every_command_has_help_and_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for name, cmd in _commands(app):
        assert (cmd.help or "").strip(), f"kb {name} has no help text"
        assert re.search(rf"`kb {re.escape(name)}\b", readme), f"kb {name} is not in README.md"


def test_ctrl_c_is_one_line_and_exit_130(tmp_path: Path, monkeypatch, capsys) -> None:
    """typer turned the interrupt into a silent exit 130: nothing said what stopped the run."""
    import pytest

    import kb.workspace
    from kb.cli import main

    def interrupted(_path: Path) -> None:
        raise KeyboardInterrupt
    monkeypatch.setattr(kb.workspace, "init_workspace", interrupted)
    with pytest.raises(SystemExit) as stop:
        main(["init", str(tmp_path / "ws")])
    assert stop.value.code == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == "kb: error: interrupted"


def test_a_crash_log_goes_into_the_workspace_found_from_the_current_folder(tmp_path: Path, monkeypatch,
                                                                           capsys) -> None:
    """No --home, no KB_HOME: kb found the workspace from the current folder, yet wrote the crash log to
    /tmp (it looked at --home and KB_HOME only). Outside any workspace the temporary folder is right."""
    import tempfile

    import pytest

    import kb.store.anchors
    import pipeline.classify.labelling
    from kb.cli import main
    from kb.workspace import init_workspace

    def bug(*_args: object, **_kw: object) -> None:
        raise ZeroDivisionError("a bug")

    def crash_log(*args: str) -> Path:
        with pytest.raises(SystemExit) as stop:
            main(list(args))
        line = capsys.readouterr().err.strip().splitlines()[-1]
        assert stop.value.code == 70 and "internal error: ZeroDivisionError: a bug" in line, line
        return Path(line.split("traceback in ")[1].split(";")[0])

    ws, temp = tmp_path / "ws", tmp_path / "temp"
    init_workspace(ws)
    Store.open(ws / ".kb" / "kb.sqlite").close()
    temp.mkdir()
    monkeypatch.delenv("KB_HOME", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setattr(kb.store.anchors, "query_anchored", bug)
    monkeypatch.setattr(pipeline.classify.labelling, "eval_items", bug)
    monkeypatch.chdir(ws / "inbox")
    assert crash_log("query", "anchored").parent == ws.resolve() / ".kb" / "logs"
    monkeypatch.chdir(tmp_path)
    assert crash_log("eval", "classifier", "labelled.jsonl").parent == temp


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_output_that_cannot_be_written_is_one_line_not_an_internal_error(tmp_path: Path) -> None:
    """`kb db status > /dev/full` was "internal error: OSError" (exit 70) with a crash log written."""
    import subprocess
    import sys
    ws = tmp_path / "ws"
    subprocess.run([sys.executable, "-m", "kb.cli", "init", str(ws)], check=True, capture_output=True)
    Store.open(ws / ".kb" / "kb.sqlite").close()
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "kb.cli", "--home", str(ws), "db", "status"],
                              stdout=full, stderr=subprocess.PIPE, text=True, cwd=REPO)
    assert (proc.returncode, proc.stderr) == (1, "kb: error: cannot write the output: No space left on device\n")
    assert not list((ws / ".kb").rglob("kb-crash-*"))


def test_a_terminal_that_cannot_spell_a_title_gets_escapes_not_an_internal_error(workspace: Path) -> None:
    """Under a Latin-1 locale (here PYTHONIOENCODING=latin-1) `kb show` of a paper with a Chinese title was
    "internal error: UnicodeEncodeError" (exit 70) at the "—" of its first line; what the encoding has no
    byte for is written as an escape, as Python writes stderr, and the rest as the terminal reads it."""
    import os
    import subprocess
    import sys
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as c:
        save_papers(c, [PaperRecord("2607.09701", 1, "SlimWise 推理 für MoE", ["Ada Li"], "MoE", ["cs.DC"],
                                    "cs.DC")], "arxiv")
    proc = subprocess.run([sys.executable, "-m", "kb.cli", "show", "2607.09701"], capture_output=True, cwd=REPO,
                          env=os.environ | {"PYTHONIOENCODING": "latin-1"})
    assert (proc.returncode, proc.stderr) == (0, b"")
    assert proc.stdout.decode("latin-1").splitlines()[0] == "# 2607.09701 \\u2014 SlimWise \\u63a8\\u7406 für MoE"
    assert not list((workspace / ".kb").rglob("kb-crash-*"))


def test_init_writes_commented_store_and_site_blocks_that_uncomment_to_valid_keys(runner: CliRunner,
                                                                                   tmp_path: Path) -> None:
    """A team moving to PostgreSQL (docs/team.md) finds [store] url in the generated kb.toml, commented out."""
    from kb.config import parse_config
    ws = tmp_path / "w"
    assert runner.invoke(app, ["init", str(ws)]).exit_code == 0
    text = (ws / "kb.toml").read_text(encoding="utf-8")
    default = parse_config(text, ws / "kb.toml")
    assert default.store_url == "" and default.site_dir is None          # commented: the defaults hold
    uncommented = re.sub(r"(?m)^# (\[(?:store|site)\]|url = \"postgresql://|dir = )", r"\1", text)
    cfg = parse_config(uncommented, ws / "kb.toml")
    assert cfg.store_url.startswith("postgresql://") and ":" not in cfg.store_url.split("//", 1)[1].split("@")[0]
    assert cfg.site_dir == "site"


def test_nightly_help_names_every_exit_code_and_stage_docs_nightly_md_documents(runner: CliRunner) -> None:
    """`kb nightly --help` is what a cron author reads: the codes of docs/nightly.md, and the site stage."""
    text = " ".join(runner.invoke(app, ["nightly", "--help"]).output.split())
    documented = (REPO / "docs" / "nightly.md").read_text(encoding="utf-8")
    for code, words in (("70", "internal error"), ("75", "lock"), ("130", "interrupted")):
        assert re.search(rf"\b{code}\b", documented), code          # one of the docs' own codes
        assert re.search(rf"\b{code}\b[^;]*{words}", text), (code, text)
    assert "site" in text.split("Exit codes")[0]


def test_bulk_batch_of_zero_is_refused_as_a_usage_error(runner: CliRunner, workspace: Path, tmp_path: Path) -> None:
    # --batch 0 used to mean one transaction per record: a backfill hundreds of times slower, silently.
    bulk = tmp_path / "b.jsonl"
    bulk.write_text('{"id": "2401.00001", "title": "A", "abstract": "B"}\n', encoding="utf-8")
    result = runner.invoke(app, ["--home", str(workspace), "ingest", "arxiv-bulk", str(bulk), "--batch", "0"])
    assert result.exit_code == 2
    assert "--batch" in result.output and "Traceback" not in result.output


def test_a_bulk_file_broken_after_one_record_says_so_in_the_singular(runner: CliRunner, workspace: Path,
                                                                      tmp_path: Path) -> None:
    """"(after 1 records)": the count of what was read before the file broke is English."""
    bulk = tmp_path / "b.xml"
    bulk.write_text('<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/">'
                    '<ListRecords>\n<record><metadata><arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2610.04444</id>'
                    '<title>A</title><abstract>x</abstract></arXiv></metadata></record>\n<record><metadata><arXiv',
                    encoding="utf-8")
    result = runner.invoke(app, ["--home", str(workspace), "ingest", "arxiv-bulk", str(bulk)])
    assert result.exit_code == 1 and "(after 1 record)" in result.output, result.output


@pytest.mark.parametrize("args", [["--home", "", "db", "status"], ["--home", " ", "db", "status"],
                                  ["nightly", "--home", "", "--offline"]], ids=["empty", "blank", "nightly"])
def test_an_empty_home_is_named_as_empty(runner: CliRunner, workspace: Path, args: list[str]) -> None:
    """``--home "$W"`` with W unset said ". is not a kb workspace (no kb.toml)": the folder kb ran in, not the
    empty value the user wrote, and a workspace found there would have been used instead."""
    result = runner.invoke(app, args)
    message = result.output + str(result.exception)
    assert result.exit_code == 2 and "'--home': an empty path" in message and ". is not" not in message, message


def test_backup_and_copy_print_the_absolute_path_they_wrote(runner: CliRunner, workspace: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative FILE is the current folder's, not the workspace's: the line says where it went."""
    Store.open(workspace / ".kb" / "kb.sqlite").close()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    home = ["--home", str(workspace)]
    backup = runner.invoke(app, [*home, "db", "backup", "b.sqlite"])
    assert backup.exit_code == 0 and backup.output.rstrip().endswith(f" to {elsewhere / 'b.sqlite'}"), backup.output
    copy = runner.invoke(app, [*home, "db", "copy", "--to", "c.sqlite"])
    assert copy.exit_code == 0 and f" to {elsewhere / 'c.sqlite'}: " in copy.output, copy.output
    assert (elsewhere / "b.sqlite").is_file() and (elsewhere / "c.sqlite").is_file()


def test_backup_writes_where_it_says_a_home_relative_file_too(runner: CliRunner, workspace: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`kb db backup '~/b.sqlite'` (quoted, or from a script) checked and printed the home's file but handed
    SQLite the unexpanded path: "backup to ~/b.sqlite failed: unable to open database file". kb db copy
    --to '~/c.sqlite' wrote it. Both write the file they name; a failure names it by its full path."""
    Store.open(workspace / ".kb" / "kb.sqlite").close()
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    backup = runner.invoke(app, ["--home", str(workspace), "db", "backup", "~/b.sqlite"])
    assert backup.exit_code == 0 and backup.output.rstrip().endswith(f" to {home / 'b.sqlite'}"), backup.output
    assert (home / "b.sqlite").is_file()
    copy = runner.invoke(app, ["--home", str(workspace), "db", "copy", "--to", "~/c.sqlite"])
    assert copy.exit_code == 0 and (home / "c.sqlite").is_file(), copy.output
    missing = runner.invoke(app, ["--home", str(workspace), "db", "backup", "~/nowhere/b.sqlite"])
    assert missing.exit_code == 1 and f"{home / 'nowhere'} is not a folder" in str(missing.exception)


@pytest.mark.parametrize(("args", "hint"), [
    (["show", "2610.09701", "--home", "W"], "kb show: No such option: --home; it is kb's own option: write it "
                                            "before the command (kb --home DIR show …)"),
    (["query", "anchored", "--home=W"], "No such option: --home; it is kb's own option: write it before the "
                                        "command (kb --home DIR query anchored …)"),
    (["flags", "--verbose"], "No such option: --verbose; it is kb's own option: write it before the command "
                             "(kb --verbose flags …)"),
])
def test_a_global_option_after_the_command_says_where_it_goes(tmp_path: Path, capsys, args: list[str],
                                                              hint: str) -> None:
    """The README's cron line is `kb nightly --home DIR` (nightly takes it there too); `kb show ID --home DIR`
    then said only "No such option: --home (Possible options: --help)", and with the hint after click's
    suggestion of --help the line read oddly: the hint replaces the suggestion."""
    from kb.cli import main
    with pytest.raises(SystemExit) as stop:
        main(args)
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and len(err) == 1 and hint in err[0], err
    assert "Possible options" not in err[0], err


def test_an_unknown_option_that_is_no_global_one_gets_no_hint(capsys) -> None:
    from kb.cli import main
    with pytest.raises(SystemExit) as stop:
        main(["show", "2610.09701", "--bogus"])
    err = capsys.readouterr().err.strip()
    assert stop.value.code == 2 and "No such option: --bogus" in err and "kb's own option" not in err
