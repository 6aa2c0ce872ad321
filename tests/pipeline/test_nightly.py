"""kb nightly as cron runs it: real processes, lock, exit codes, logs, idempotence — on both backends."""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kb import __version__
from tests.reliability.support import kb_inproc, kb_with_prelude
from tests.support.backends import Backend
from tests.support.backends import dump as dump_store
from tests.support.paths import FIXTURES, SAMPLE
from tests.support.server import Reply

DAY = "2026-10-08"


@pytest.fixture
def ws(sample_workspace: Path, backend: Backend) -> Path:
    """The sample workspace with its store on each backend in turn."""
    return backend.use(sample_workspace)


def open_store(ws: Path):
    """The workspace's store, wherever its kb.toml says it is."""
    from kb.store import Store
    from kb.workspace import open_workspace
    return Store.open(open_workspace(ws).store_target, readonly=True)


def kb(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb.cli", *args], capture_output=True, text=True, cwd=cwd,
                          env={k: v for k, v in os.environ.items() if k != "KB_HOME"}, timeout=120)


def nightly(ws: Path, *extra: str) -> subprocess.CompletedProcess:
    return kb("nightly", "--home", str(ws), "--date", DAY, "--offline", *extra)


def dump(ws: Path) -> str:
    """Every table except the ledger and the run-time columns: what a rerun must leave unchanged."""
    with open_store(ws) as store:
        return "\n".join(f"{t}: {rows!r}" for t, rows in dump_store(store).items())


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_demo_run_writes_both_briefings_and_a_rerun_is_idempotent(ws: Path) -> None:
    first = nightly(ws)
    assert first.returncode == 0, first.stderr
    zh = ws / "briefings" / f"{DAY}-inference.md"
    en = ws / "briefings" / f"{DAY}-inference.en.md"
    assert f"briefings/{DAY}-inference.md" in first.stdout and zh.is_file() and en.is_file()
    assert "density high" in first.stdout and "高" not in first.stdout   # the console speaks English throughout
    before = (dump(ws), digest(zh), digest(en))
    second = nightly(ws, "--quiet")
    assert second.returncode == 0 and second.stdout == "" and second.stderr == ""
    assert (dump(ws), digest(zh), digest(en)) == before
    assert "workspace: ok — parsed 0" in nightly(ws).stdout  # only changed files re-read


def test_a_failed_source_exits_1_and_the_briefing_names_it(ws: Path) -> None:
    (ws / "recordings" / "blogs" / "lmcache.xml").write_bytes(b"<rss><channel><item><title>cut")
    result = nightly(ws, "--quiet")
    assert result.returncode == 1
    assert "lmcache: failed" in result.stderr  # --quiet still reports failures
    text = (ws / "briefings" / f"{DAY}-inference.md").read_text(encoding="utf-8")
    assert "来源故障：lmcache" in text


def test_a_broken_source_fails_alone(ws: Path) -> None:
    (ws / "recordings" / "blogs" / "lmcache.xml").write_bytes(b"<rss><channel><item><title>cut")
    result = nightly(ws)
    out = result.stdout + result.stderr   # a run with a failure prints its summary on stderr
    assert result.returncode == 1
    assert "— feed 'lmcache' is not well-formed XML" in out and "lmcache: failed — parsed 0" in out
    assert "llm-d: ok" in out and "vllm-blog: ok" in out and "arxiv: ok" in out
    with open_store(ws) as store:
        ledger = [tuple(r) for r in store.query("SELECT source, status FROM source_runs ORDER BY id")]
    assert ("lmcache", "failed") in ledger and ("llm-d", "ok") in ledger


def test_a_second_nightly_waits_then_exits_75(sample_workspace: Path) -> None:
    lock = sample_workspace / ".kb" / "nightly.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        held.write(json.dumps({"pid": os.getpid(), "started": "earlier"}))
        held.flush()
        result = nightly(sample_workspace, "--wait", "0.5")
    assert result.returncode == 75
    assert "locked by another kb nightly" in result.stderr and str(os.getpid()) in result.stderr
    assert not (sample_workspace / "briefings" / f"{DAY}-inference.md").exists()


def test_a_second_nightly_on_the_same_database_waits_then_exits_75(sample_workspace: Path, pg_fresh_url: str) -> None:
    """On PostgreSQL the lock is the database's (an advisory lock): a nightly of another machine, here
    a session holding it, keeps this one out; the line names who holds it."""
    import psycopg
    backend = Backend("postgresql", pg_fresh_url)
    ws = backend.use(sample_workspace)

    from kb.store.backend_pg import KEY, NIGHTLY
    with psycopg.connect(backend.url, autocommit=True,
                         application_name="kb nightly: pid 4242 on other-host, since 22:30:00") as held:
        assert held.execute("SELECT pg_try_advisory_lock(%s, %s)", (KEY, NIGHTLY)).fetchone()[0]
        result = nightly(ws, "--wait", "0.5")
    assert result.returncode == 75, result.stderr
    assert "locked by another kb nightly (pid 4242 on other-host, since 22:30:00)" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (ws / "briefings" / f"{DAY}-inference.md").exists()
    assert nightly(ws).returncode == 0   # released with its session


def test_a_stale_lock_from_a_killed_run_is_taken_over(sample_workspace: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    lock = sample_workspace / ".kb" / "nightly.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text(json.dumps({"pid": dead.pid, "started": "2026-10-08T22:30:00"}))
    result = nightly(sample_workspace)
    assert result.returncode == 0, result.stderr
    logs = sorted((sample_workspace / ".kb" / "logs").glob("nightly-*.log"))
    assert f"took over a stale lock left by pid {dead.pid}" in logs[-1].read_text()


def test_logs_keep_the_last_30_runs(ws: Path) -> None:
    logs = ws / ".kb" / "logs"
    logs.mkdir(parents=True)
    for n in range(35):
        (logs / f"nightly-2026-09-{n:02d}-20260901T0000{n:02d}.log").write_text("old\n")
    assert nightly(ws).returncode == 0
    kept = sorted(logs.glob("nightly-*.log"))
    assert len(kept) == 30 and kept[-1].name.startswith(f"nightly-{DAY}")


def test_a_configuration_error_exits_2_with_one_line(ws: Path) -> None:
    cfg = ws / "kb.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + "\n[briefing]\ntopp = 3\n", encoding="utf-8")
    result = nightly(ws)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "kb.toml" in lines[0] and "briefing" in lines[0]


@pytest.mark.parametrize("args", [["nightly", "--help"], ["sources", "status", "--help"]])
def test_help_is_available(args: list[str]) -> None:
    assert kb(*args).returncode == 0


def test_a_rerun_with_nothing_new_reuses_everything_and_a_change_rebuilds(ws: Path) -> None:
    assert nightly(ws).returncode == 0
    zh = ws / "briefings" / f"{DAY}-inference.md"
    first = zh.read_bytes()
    again = nightly(ws)
    assert "arxiv: not-modified" in again.stdout and "(unchanged)" in again.stdout
    assert zh.read_bytes() == first
    # A flag closed by the team changes the briefing: `kb flags resolve` rewrites it (md and html) at once,
    # and the next nightly, which builds it again, finds those bytes current.
    flags = json.loads(kb("--home", str(ws), "flags", "--open", "--format", "json").stdout)
    kb("--home", str(ws), "flags", "resolve", str(flags[0]["id"]), "--as", "dismissed")
    resolved = zh.read_bytes()
    third = nightly(ws)
    assert resolved != first and zh.read_bytes() == resolved and "(unchanged)" in third.stdout
    # A deleted or edited briefing file is written again.
    zh.write_text("edited by hand\n", encoding="utf-8")
    fourth = nightly(ws).stdout
    [zh_line] = [line for line in fourth.splitlines() if "[zh]" in line]
    assert "(unchanged" not in zh_line and "(unchanged" in fourth   # the en file was as written
    assert zh.read_text(encoding="utf-8").startswith("# inference")


# The recorded API answer: 2610.01234 (which the listing brings too) and cond-mat/0412498.
API_ANSWER = (FIXTURES / "sources" / "api_response.xml").read_bytes()


def test_an_online_nightly_asks_the_api_about_the_ids_the_team_cites(workspace: Path, server,
                                                                     http_waits: list[float]) -> None:
    """The stage offline runs skip: IDs a note cites that no source brought are looked up (found, or
    unknown to arXiv), once; the summary says what arXiv answered."""
    (workspace / "kb.toml").write_text(
        '[workspace]\ntimezone = "Asia/Shanghai"\nlanguages = ["en"]\ncontact = "t@example.org"\n'
        '[[topics]]\nslug = "inference"\ndoc = "organized/knowledge/inference.md"\n'
        f'[arxiv]\nurl = "{server.url("/rss")}"\napi_url = "{server.url("/api/query")}"\n[hf]\nenabled = false\n')
    shutil.copy(SAMPLE / "organized" / "knowledge" / "inference.md", workspace / "organized" / "knowledge")
    (workspace / "inbox" / "jay").mkdir()
    (workspace / "inbox" / "jay" / "2026-10-08-cited.md").write_text(
        "# Cited today\n\n## 1. Old and new\n\n- arXiv:cond-mat/0412498, arXiv:2607.09999, arXiv:2607.09998 and arXiv:2610.01234\n",
        encoding="utf-8")
    listing = (FIXTURES / "sources" / "listing_rss_3items.xml").read_bytes()
    server.script("/rss", Reply(200, listing, {"Content-Type": "application/rss+xml"}))
    server.script("/api/query", Reply(200, API_ANSWER, {"Content-Type": "application/atom+xml"}))
    result = kb_inproc("nightly", "--date", DAY)
    assert result.returncode == 0, result.stderr
    assert "  resolve: 1 found, 2 unknown to arXiv" in result.stdout.splitlines()
    assert "  arxiv-api: ok — parsed 2, new 1, updated 1, skipped 0" in result.stdout.splitlines()
    # 2610.01234 came with the listing: only the three IDs no source brought are asked about
    [asked] = server.seen("/api/query?id_list=2607.09998%2C2607.09999%2Ccond-mat%2F0412498&max_results=3")
    assert asked.headers["User-Agent"] == f"kb/{__version__} (+mailto:t@example.org)"
    with open_store(workspace) as store:
        checks = sorted(tuple(r) for r in store.query("SELECT arxiv_id, status FROM id_checks"))
        title = store.query("SELECT title FROM papers WHERE arxiv_id = 'cond-mat/0412498'")[0][0]
    assert checks == [("2607.09998", "unknown"), ("2607.09999", "unknown"), ("cond-mat/0412498", "found")] and title == "An Old Paper"
    server.script("/rss", Reply(200, listing, {"Content-Type": "application/rss+xml"}))
    again = kb_inproc("nightly", "--date", DAY)   # answered today: not asked again (an unscripted request fails)
    assert again.returncode == 0, again.stderr
    assert "resolve:" not in again.stdout and "arxiv-api" not in again.stdout


def test_a_bug_in_a_stage_is_exit_70_and_the_run_log_keeps_its_traceback(sample_workspace: Path) -> None:
    boom = ("import pipeline.classify.stage as s\ndef _boom(ctx):\n    raise ZeroDivisionError('a bug')\n"
            "s.run_classify = _boom\n")
    result = kb_with_prelude(boom, "nightly", "--home", str(sample_workspace), "--date", DAY, "--offline")
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 70 and len(lines) == 1, result.stderr   # printed once, by main
    assert lines[0].startswith("kb: error: internal error: ZeroDivisionError: a bug")
    log = max((sample_workspace / ".kb" / "logs").glob("nightly-*.log")).read_text(encoding="utf-8")
    assert "ERROR pipeline.nightly: nightly failed" in log and "ZeroDivisionError: a bug" in log
    assert "Traceback (most recent call last)" in log


def test_offline_a_source_with_no_recording_is_not_run_not_failed(tmp_path: Path) -> None:
    """A fresh `kb init` workspace has no recordings: `kb nightly --offline` marked all eight default sources
    failed and exited 1 (QA, 2026-12-04). They are named once as not run; a recording named but missing
    is still a failed source."""
    ws = tmp_path / "fresh"
    assert kb("init", str(ws)).returncode == 0
    first = kb("nightly", "--home", str(ws), "--date", DAY, "--offline")
    assert first.returncode == 0, first.stderr
    assert "arxiv: not-run" in first.stdout and "offline, and no recording configured" in first.stdout
    assert "failed" not in first.stdout
    with open_store(ws) as store:
        ledger = [tuple(r) for r in store.query("SELECT source, status FROM source_runs")]
    assert ("arxiv", "not-run") in ledger and ("workspace", "ok") in ledger and len(ledger) == 9
    brief = (ws / "briefings" / f"{DAY}-inference.en.md").read_text(encoding="utf-8")
    assert "| arxiv | not run (offline, no recording) |" in brief        # the briefing says what was not checked
    status = json.loads(kb("--home", str(ws), "sources", "status", "--format", "json").stdout)
    assert [s["name"] for s in status] == ["workspace"]                 # a run that read nothing says nothing of health
    cfg = ws / "kb.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('# recording = "recordings/hf/', 'recording = "recordings/hf/'),
                   encoding="utf-8")
    missing = kb("nightly", "--home", str(ws), "--date", DAY, "--offline")
    assert missing.returncode == 1 and "hf: failed" in missing.stderr


def test_log_rotation_ignores_a_log_another_nightly_removed_meanwhile(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The run log opens before the lock: two nightlies may rotate the same folder at once, and a file the
    other removed between listing and reading its time failed the run's log (review, 2026-12-04)."""
    from pipeline import nightly as nightly_module
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(nightly_module.KEEP_LOGS + 3):
        (logs / f"nightly-2026-10-08-{i:03d}.log").write_text("x")
    gone = logs / "nightly-2026-10-08-gone.log"
    listed = list(logs.glob("nightly-*.log")) + [gone]
    monkeypatch.setattr(Path, "glob", lambda self, pattern: iter(listed))
    nightly_module._keep_latest_logs(logs)
    monkeypatch.undo()
    assert len(list(logs.glob("nightly-*.log"))) == nightly_module.KEEP_LOGS


def test_the_console_summary_says_one_flag_as_one() -> None:
    """A quiet day's line read "0 increments, 1 open flags"."""
    from pipeline.nightly import NightlyReport
    brief = {"topic": "inference", "lang": "en", "paths": ["briefings/d.en.md"], "increments": 1, "open_flags": 1,
             "density": "low"}
    report = NightlyReport(date="2026-10-09", briefings=[brief, {**brief, "increments": 0, "open_flags": 2}])
    assert report.summary().splitlines()[1:] == [
        "  brief inference [en]: briefings/d.en.md — 1 increment, 1 open flag, density low",
        "  brief inference [en]: briefings/d.en.md — 0 increments, 2 open flags, density low"]
