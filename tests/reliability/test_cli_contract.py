"""The CLI contract: one line and the documented exit code for every bad argument, crashes told
apart from failures, manual runs kept manual, the store never silently replaced, IDs in every form."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.support import DAY, dump, one_error_line
from tests.reliability.support import kb as full_kb
from tests.reliability.support import kb_inproc as kb

D = DAY.isoformat()
HOLDOUT = Path(__file__).resolve().parents[1] / "data" / "classifier_holdout.jsonl"

# (arguments after --home, exit code, words the one line must carry)
BAD_ARGUMENTS = [
    (["nightly", "--date", "2026-13-01"], 2, "not a date"),
    (["nightly", "--date", "0001-01-01"], 2, "from 1991 to 9998"),
    (["nightly", "--date", "9999-12-31"], 2, "from 1991 to 9998"),      # was an OverflowError (exit 70)
    (["brief", "--date", "9999-12-31", "--preview"], 2, "from 1991 to 9998"),
    (["nightly", "--wait", "nan"], 2, "expected seconds"),
    (["brief", "--topic", "nope"], 2, "no topic 'nope'"),
    (["brief", "--lang", "xx"], 2, "'xx' is not one of"),
    (["brief", "--format", "pdf"], 2, "'pdf' is not one of"),
    (["query", "anchored", "--section", "9"], 2, "no such section"),
    (["query", "anchored", "--section", "x.y"], 2, "expected a section number"),
    (["query", "anchored", "--topic", "nope"], 2, "no topic 'nope'"),
    (["query", "anchored", "--since", "yesterday"], 2, "not a date"),
    (["query", "papers", "--since", "2026-10-09", "--until", "2026-10-01"], 2, "is after --until"),   # was "(none)"
    (["query", "anchored", "--until", "2026-10-01", "--since", "2026-10-09"], 2, "is after --until"),
    (["query", "papers", "--source", "nope"], 2, "no source 'nope'"),
    (["query", "papers", "--topic", "nope"], 2, "no topic of the taxonomy"),
    (["show", "not-an-id"], 2, "is not an arXiv ID"),            # bad input is a usage error (was 1)
    (["show", "2601.00001"], 1, "not in the store"),
    (["db", "backup", "backups/"], 2, "a folder; name the file"),          # once wrote a file named "backups"
    (["flags", "show", "x3"], 2, "a flag's number"),
    (["search", "x", "--limit", "0"], 2, "--limit"),
    (["search", "x", "--limit", "99999999999999999999"], 2, "--limit"),
    (["search", " "], 2, "nothing to search for"),                            # was "(none)", exit 0   # was an OverflowError (exit 70)
    (["anchor", "2610.09701", "--section", "9"], 2, "no section §9"),
    (["anchor", "not-an-id", "--section", "1.1"], 2, "neither an arXiv ID nor a URL"),   # was 1
    (["audit", "--topic", "nope"], 2, "no topic 'nope'"),
    (["flags", "--rule", "nope"], 2, "expected one of"),
    (["flags", "show", "9999"], 1, "no flag #9999"),
    (["flags", "resolve", "9999", "--as", "verified"], 1, "no flag #9999"),
    (["flags", "resolve", "--as", "verified"], 2, "give a flag number"),
    (["flags", "resolve", "--topic", "inference", "--as", "open"], 2, "reopens one flag"),   # said "1 flags … open"
    (["ingest", "blogs", "--feed", "nope"], 2, "no blog feed named 'nope' in kb.toml (blog feeds: vllm-blog, llm-d, lmcache)"),
    (["ingest", "blogs", "--feed", "arxiv"], 2, "not a blog feed"),
    (["ingest", "blogs", "--from-file", "x.xml"], 2, "needs --feed"),
    (["ingest", "arxiv", "--from-file", "missing.xml"], 1, "arxiv: failed"),
    (["ingest", "arxiv-bulk", "missing.jsonl"], 1, "arxiv-bulk: failed"),
    (["eval", "classifier", "missing.jsonl"], 2, "missing.jsonl"),
    (["classify", "--bogus"], 2, "No such option"),
    (["db", "status", "--format", "xml"], 2, "'xml' is not one of"),
    (["sources", "status", "--format", "xml"], 2, "'xml' is not one of"),
    (["init"], 2, "Missing argument"),
    (["init", ""], 2, "an empty path"),                         # made a workspace of the folder it ran in
    (["explain", "nothing#9"], 1, "is not in the store"),
    (["nosuchcommand"], 2, "No such command"),
    (["label", "--uncertain", "3", "--since", "2026-02-30"], 2, "not a date"),
    (["eval", "classifier", str(HOLDOUT), "--model-file", "missing.npz"], 2, "missing.npz"),
]


@pytest.mark.parametrize(("args", "code", "words"), BAD_ARGUMENTS, ids=[" ".join(a) for a, _, _ in BAD_ARGUMENTS])
def test_every_command_with_a_bad_argument_says_one_line_and_its_code(briefed: Path, kept, args, code,
                                                                        words) -> None:
    before = dump(briefed / ".kb" / "kb.sqlite")
    result = kb("--home", str(briefed), *args)
    line = one_error_line(result.stderr)
    prefix = words.split(":")[0] + ":" if args[0] == "ingest" and code == 1 else "kb: error: "   # a source's line
    assert result.returncode == code and line.startswith(prefix) and words in line, (result.returncode, line)
    assert "Traceback" not in result.stderr
    assert kept.rows(before, dump(briefed / ".kb" / "kb.sqlite")) == 0


BLANK_PATHS = [
    ["site", "build", "--out", " "],        # made a site in a folder named " " in the workspace
    ["site", "build", "--out", ""],         # silently built the default site/ instead
    ["export", "bibtex", "--out", " "],     # wrote a .bib file named " " in the workspace
    ["export", "bibtex", "--out", ""],      # silently printed to stdout
    ["db", "backup", " "],                  # wrote the backup as a file named " " where kb ran
    ["db", "copy", "--to", " "],            # "  exists", exit 1
]


@pytest.mark.parametrize("args", BLANK_PATHS, ids=[" ".join(repr(a) for a in args) for args in BLANK_PATHS])
def test_a_blank_path_is_refused_in_one_line_as_kb_brief_refuses_it(briefed: Path, tmp_path: Path, args) -> None:
    """``--out "$DIR"`` with DIR unset: exit 2 and one line, nothing written (``kb brief --out " "``'s rule)."""
    here = tmp_path / "cwd"
    here.mkdir()
    before = sorted(p.name for p in briefed.iterdir())
    result = full_kb("--home", str(briefed), *args, cwd=here)
    line = one_error_line(result.stderr)
    assert result.returncode == 2 and line.startswith("kb: error: ") and "an empty path" in line, (
        result.returncode, result.stdout[:200], result.stderr)
    assert sorted(p.name for p in briefed.iterdir()) == before and not any(here.iterdir())


def test_malformed_eval_input_is_one_line_naming_the_file_and_line(tmp_path: Path, briefed: Path) -> None:
    for body, where in [(b'{"id": "a", "title": "t", "text": "x", "topics": [], "relevance": "none"}\n[1, 2]\n', 2),
                        (b'{"id": "a", "title": "t", "text": 5, "topics": [], "relevance": "none"}\n', 1),
                        (b"not json\n", 1)]:
        data = tmp_path / "labelled.jsonl"
        data.write_bytes(body)
        result = kb("--home", str(briefed), "eval", "classifier", str(data))
        line = one_error_line(result.stderr)
        assert result.returncode == 2 and f"{data}:{where}" in line, line
    data.write_bytes(b"\n\n")     # nothing labelled: no figures (they read as a result of zeros)
    result = kb("--home", str(briefed), "eval", "classifier", str(data))
    line = one_error_line(result.stderr)
    assert result.returncode == 2 and "no labelled items" in line, line


def test_an_internal_error_is_exit_70_with_a_crash_log(briefed: Path) -> None:
    from tests.reliability.support import kb_with_prelude
    boom = "import kb.store.anchors as a\ndef _boom(*a, **k):\n    raise ZeroDivisionError('a bug')\na.query_anchored = _boom\n"
    result = kb_with_prelude(boom, "--home", str(briefed), "query", "anchored")
    line = one_error_line(result.stderr)
    assert result.returncode == 70 and "internal error: ZeroDivisionError: a bug" in line and "kb-crash-" in line
    log = Path(line.split("traceback in ")[1].split(";")[0])
    assert log.is_file() and "ZeroDivisionError" in log.read_text(encoding="utf-8")
    verbose = kb_with_prelude(boom, "--home", str(briefed), "--verbose", "query", "anchored")
    assert verbose.returncode == 70 and "Traceback (most recent call last)" in verbose.stderr


def test_a_file_given_by_mistake_is_never_quoted(briefed: Path, tmp_path: Path, kept) -> None:
    secret = b"machine api.example.org login me password hunter2-very-secret\n"
    netrc = tmp_path / ".netrc"
    netrc.write_bytes(secret)
    for args in (["ingest", "arxiv", "--from-file", str(netrc)], ["ingest", "hf", "--from-file", str(netrc)],
                 ["ingest", "blogs", "--feed", "llm-d", "--from-file", str(netrc)],
                 ["ingest", "arxiv-bulk", str(netrc)]):
        result = kb("--home", str(briefed), *args)
        assert result.returncode == 1
        assert kept.secret_absent(b"hunter2", result.stdout.encode(), result.stderr.encode())
    assert kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet").returncode == 0
    briefings = [p.read_bytes() for p in (briefed / "briefings").iterdir()]
    assert kept.secret_absent(b"hunter2", (briefed / ".kb" / "kb.sqlite").read_bytes(), *briefings)


def test_a_failed_manual_run_does_not_speak_for_the_source(briefed: Path, tmp_path: Path, kept) -> None:
    junk = tmp_path / "mistyped.xml"
    junk.write_bytes(b"<html><body>not a feed</body></html>")
    assert kb("--home", str(briefed), "ingest", "arxiv", "--date", D, "--from-file", str(junk)).returncode == 1
    status = {s["name"]: s for s in json.loads(kb("--home", str(briefed), "sources", "status", "--format",
                                                  "json").stdout)}
    assert status["arxiv"]["last_status"] != "failed" and status["arxiv"]["consecutive_failures"] == 0
    assert kb("--home", str(briefed), "brief", "--date", D).returncode == 0
    briefing = (briefed / "briefings" / f"{D}-inference.md").read_text(encoding="utf-8")
    assert "来源故障" not in briefing
    manual = sqlite3.connect(briefed / ".kb" / "kb.sqlite").execute(
        "SELECT status, manual FROM source_runs WHERE source = 'arxiv' ORDER BY id DESC").fetchone()
    assert manual == ("failed", 1)


def test_a_feed_recording_of_another_kind_is_refused(briefed: Path, kept) -> None:
    """A wrong --feed: the arXiv listing handed to a blog feed stores nothing as posts."""
    before = dump(briefed / ".kb" / "kb.sqlite")
    listing = briefed / "recordings" / "arxiv" / f"{D}-listing.xml"
    result = kb("--home", str(briefed), "ingest", "blogs", "--feed", "llm-d", "--from-file", str(listing))
    assert result.returncode == 1 and "looks like arxiv-rss" in result.stderr
    assert kept.rows(before, dump(briefed / ".kb" / "kb.sqlite")) == 0


@pytest.mark.parametrize("damage", ["empty", "cut-short"])
def test_an_empty_or_cut_short_store_is_refused_never_replaced(briefed: Path, kept, damage: str) -> None:
    db = briefed / ".kb" / "kb.sqlite"
    data = db.read_bytes()
    db.write_bytes(b"" if damage == "empty" else data[: len(data) // 2])
    damaged = db.read_bytes()
    for args in (["db", "status"], ["nightly", "--date", D, "--offline"], ["query", "anchored"]):
        result = kb("--home", str(briefed), *args)
        line = one_error_line(result.stderr)
        assert result.returncode == 1 and ("empty (0 bytes)" in line or "cut short" in line), line
        assert "kb db backup" in line
    assert kept.items(len(damaged), len(db.read_bytes())) == 0 and db.read_bytes() == damaged


def test_a_store_with_a_damaged_page_is_named_by_every_command_never_an_internal_error(
        briefed: Path, tmp_path: Path, kept) -> None:
    """A page of the papers table overwritten (a disk fault): `kb db check` was itself an internal error
    (exit 70), and so was every command that read the page; `kb db backup` copied the damage and said
    "backed up"."""
    db = briefed / ".kb" / "kb.sqlite"
    with sqlite3.connect(db) as con:   # its close checkpoints the WAL: the file alone is the store
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'papers'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    data = bytearray(db.read_bytes())
    data[(root - 1) * size:root * size] = b"\xa5" * size
    db.write_bytes(bytes(data))
    check = kb("--home", str(briefed), "db", "check")
    assert check.returncode == 1 and check.stdout.strip() and "internal error" not in check.stderr, check
    assert check.stdout.splitlines()[1:] == ["tables SQLite cannot read: papers"], check.stdout   # where it is
    for args in (["query", "papers"], ["show", "2610.09701"], ["search", "MoE"]):
        result = kb("--home", str(briefed), *args)
        line = one_error_line(result.stderr)
        assert result.returncode == 1 and "the store is damaged" in line and "kb db check" in line, line
    copy = tmp_path / "backup.sqlite"
    backup = kb("--home", str(briefed), "db", "backup", str(copy))
    assert backup.returncode == 1 and "the copy is damaged" in one_error_line(backup.stderr) and copy.exists()
    assert kept.items(len(data), len(db.read_bytes())) == 0 and db.read_bytes() == bytes(data)


def _papers_root_page(db: Path) -> tuple[int, int]:
    """(root page of the papers table, page size), the WAL checkpointed into the file by the close."""
    with sqlite3.connect(db) as con:
        root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'papers'").fetchone()[0]
        size = con.execute("PRAGMA page_size").fetchone()[0]
    con.close()
    return root, size


def _damage(data: bytearray, how: str, root: int, size: int) -> None:
    if how == "not-a-database":                # something else saved over it
        data[:] = b"# notes\nnot a database at all\n" * (len(data) // 30)
    elif how == "header":                      # the magic string kept, the rest of the 100-byte header junk
        data[16:100] = b"\xa5" * 84
    elif how == "schema-page":                 # page 1 past its header: the schema's own page
        data[100:size] = b"\xa5" * (size - 100)
    elif how == "index-page":                  # the page after the papers table's root: one of its index's
        data[root * size:(root + 1) * size] = b"\x00" * size
    elif how == "file-tail":                   # the last pages zeroed (a write lost at the end of the file)
        data[-4 * size:] = b"\x00" * (4 * size)


@pytest.mark.parametrize("how", ["not-a-database", "header", "schema-page", "index-page", "file-tail"])
def test_kb_db_check_of_a_damaged_store_file_says_what_is_wrong(briefed: Path, kept, how: str) -> None:
    """`kb db check` on a store file damaged elsewhere than a table's root page (case 88): it says, in a
    line or a few, that the store is damaged and how, and exits 1 (a finding, not an internal error). A
    header whose page size is junk was reported as "cut short (5,016 of 62,332,607,707,200 bytes)"."""
    db = briefed / ".kb" / "kb.sqlite"
    root, size = _papers_root_page(db)
    data = bytearray(db.read_bytes())
    _damage(data, how, root, size)
    db.write_bytes(bytes(data))
    check = kb("--home", str(briefed), "db", "check")
    said = (check.stdout + check.stderr).strip().splitlines()
    assert check.returncode == 1 and 1 <= len(said) <= 6, check
    assert "Traceback" not in check.stderr and "internal error" not in check.stderr, check
    assert str(db) in said[0] and "cut short" not in said[0], said
    assert any(w in said[0] for w in ("damaged", "malformed", "not a SQLite database")), said
    if check.stderr.strip():                   # the store would not open: one line with the way out
        assert one_error_line(check.stderr).startswith("kb: error: ")
    assert kept.items(len(data), len(db.read_bytes())) == 0 and db.read_bytes() == bytes(data)


def test_kb_db_check_and_backup(briefed: Path, tmp_path: Path, kept) -> None:
    assert kb("--home", str(briefed), "db", "check").stdout.strip() == "ok"
    copy = tmp_path / "backup.sqlite"
    assert kb("--home", str(briefed), "db", "backup", str(copy)).returncode == 0
    assert kept.rows(dump(briefed / ".kb" / "kb.sqlite"), dump(copy)) == 0
    again = kb("--home", str(briefed), "db", "backup", str(copy))
    assert again.returncode == 2 and "exists" in one_error_line(again.stderr)   # as --out of an existing file
    # never among the team's files: the next nightly would find a binary "note" in inbox/
    team = briefed / "inbox" / "jay" / "backup.md"
    refused = kb("--home", str(briefed), "db", "backup", str(team))
    assert refused.returncode != 0 and "the team's file" in one_error_line(refused.stderr) and not team.exists()


@pytest.mark.parametrize("form", ["arXiv 2610.09701", "arXiv:2610.09701v1", "arxiv.org/abs/2610.09701",
                                  "https://huggingface.co/papers/2610.09701", "10.48550/arXiv.2610.09701"])
def test_ids_in_every_form_notes_use(briefed: Path, form: str) -> None:
    shown = kb("--home", str(briefed), "show", form, "--format", "json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["arxiv_id"] == "2610.09701"
    found = kb("--home", str(briefed), "search", form, "--format", "ids")
    assert found.stdout.split() == ["2610.09701"]


def test_a_bulk_file_that_is_another_document_is_refused_not_empty(briefed: Path) -> None:
    for rel, root in [("recordings/arxiv/2026-10-08-listing.xml", "<rss>"), ("recordings/blogs/llm-d.xml", "<feed>")]:
        result = kb("--home", str(briefed), "ingest", "arxiv-bulk", str(briefed / rel))
        line = one_error_line(result.stderr) if result.stderr.strip() else result.stdout.strip()
        assert result.returncode == 1 and "arxiv-bulk: failed" in line and f"not an OAI-PMH harvest: the document is {root}" \
            in line, line


def test_a_nightly_stopped_by_a_config_error_says_one_line(briefed: Path) -> None:
    toml = briefed / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[classify]\nmodel = "learned"\nmodel_file = "models/none.npz"\n',
                    encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == ["kb: error: kb.toml: classify.model_file: models/none.npz does not exist"]
    log = max((briefed / ".kb" / "logs").glob("nightly-*.log"))
    assert "nightly stopped: kb.toml: classify.model_file" in log.read_text(encoding="utf-8")
    toml.write_text(toml.read_text(encoding="utf-8").replace("models/none.npz", "recordings"), encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet")
    assert "classify.model_file: recordings is a folder" in result.stderr      # not "does not exist"
    toml.write_text(toml.read_text(encoding="utf-8").replace('"recordings"', '"/etc/passwd"'), encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet")
    assert result.returncode == 2 and result.stderr.strip().splitlines() == [   # it named no setting
        f"kb: error: kb.toml: classify.model_file: /etc/passwd: path leads outside the workspace {briefed}"]
    # with the keyword classifier, which reads no model, a mistyped one was said first on the night learned was;
    # unread, it stops nothing
    toml.write_text(toml.read_text(encoding="utf-8").replace('model = "learned"', 'model = "keyword"')
                    .replace('"/etc/passwd"', '"models/none.npz"'), encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline")
    assert result.returncode == 0 and ("kb: warning: kb.toml: classify.model_file: models/none.npz does not exist "
                                       "(the keyword classifier reads no model)") in result.stderr


def test_a_broken_briefing_rules_override_stops_the_night_with_one_line(briefed: Path) -> None:
    """A member's .kb/overrides/data/briefing.toml with a pattern that is no regular expression: the nightly
    stops at the briefing with one line naming the file and the table (exit 2), not an internal error; the
    night runs whole once the override is fixed."""
    override = briefed / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True, exist_ok=True)
    shipped = (Path(__file__).resolve().parents[2] / "data" / "briefing.toml").read_text(encoding="utf-8")
    override.write_text(shipped.replace("recap_patterns = ['", "recap_patterns = ['(", 1), encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    [line] = result.stderr.strip().splitlines()
    assert "overrides/data/briefing.toml: [markers] recap_patterns: a pattern is not a regular expression" in line
    assert not list((briefed / ".kb" / "logs").glob("kb-crash-*"))
    override.write_text(shipped, encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline")
    assert result.returncode == 0 and "brief inference [zh]: briefings/" in result.stdout


def test_a_mistyped_correction_costs_its_line_only(briefed: Path) -> None:
    toml = briefed / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + '\n[classify]\nmodel = "learned"\n', encoding="utf-8")
    labels = briefed / "organized" / "labels" / "inference.jsonl"
    labels.parent.mkdir(parents=True, exist_ok=True)
    labels.write_text('{"id": "arXiv:2610.09701", "relevance": "primery"}\n', encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    warned = [line for line in result.stderr.splitlines() if "inference.jsonl:1" in line]
    assert len(warned) == 1 and "relevance must be" in warned[0] and "line skipped" in warned[0]
    assert "brief inference [zh]: briefings/" in result.stdout    # the night went on to its briefings


def test_briefings_that_is_a_file_is_named_in_one_line(briefed: Path) -> None:
    import shutil
    shutil.rmtree(briefed / "briefings")
    (briefed / "briefings").write_bytes(b"mine")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "briefings is a file, not a folder" in one_error_line(result.stderr)
    assert (briefed / "briefings").read_bytes() == b"mine"
