"""kb while the nightly writes: readers, hand edits from other hosts, two nightlies on one database, a
nightly killed, a new database opened by several processes at once — on both backends where both apply."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.reliability.support import DAY, OPEN_STORE, REPO, dump, nightly_process, one_error_line, sample_on
from tests.reliability.support import kb_inproc as kb

D = DAY.isoformat()


# --------------------------------------------------------------------------- while the nightly writes
def _waiting_for(signal: Path, proc: subprocess.Popen, timeout: float = 60) -> None:
    import time
    deadline = time.monotonic() + timeout
    while not signal.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else proc.returncode
        assert time.monotonic() < deadline, "the nightly never reached the moment under test"
        time.sleep(0.02)


# The nightly pauses right after reading a flag's stored status, inside its write transaction: a
# resolution made then must wait for the nightly and survive it (a lost update otherwise).
FLAGS_PRELUDE = """
import pathlib, time, kb.store.rows as rows
_run = rows.Tx.run
def run(self, sql, params=None):
    out = _run(self, sql, params)
    signal = pathlib.Path({signal!r})
    if sql.startswith("SELECT id, status, evidence_hash") and "FROM flags" in sql and not signal.exists():
        signal.with_suffix(".tmp").write_text(params["f"])
        signal.with_suffix(".tmp").rename(signal)
        time.sleep(2.0)
    return out
rows.Tx.run = run
"""
# The nightly pauses after reading the knowledge doc, before saving it: a `kb anchor` done then is
# the doc's newer version, which the nightly must save instead of the one it read.
ANCHOR_PRELUDE = """
import pathlib, time, pipeline.ingest.workspace as w
_decode = w._decode
def decode(data, rel):
    if rel.endswith("knowledge/inference.md") and not pathlib.Path({signal!r}).exists():
        pathlib.Path({signal!r}).touch()
        time.sleep(2.0)
    return _decode(data, rel)
w._decode = decode
"""


def _on(backend, briefed: Path) -> Path:
    """The briefed sample with its store on ``backend`` (copied there with kb db copy)."""
    if backend.is_pg:
        assert kb("--home", str(briefed), "db", "copy", "--to", backend.url).returncode == 0
        backend.use(briefed)
    return briefed


def test_flags_resolved_by_hand_during_a_nightly_stay_resolved(briefed: Path, tmp_path: Path, backend, kept) -> None:
    from kb.store import Store
    from kb.workspace import open_workspace
    from tests.reliability.support import kb as kb_process
    from tests.reliability.support import kb_popen
    ws = _on(backend, briefed)
    with Store.open(open_workspace(ws).store_target) as store, store.transaction() as tx:
        tx.run("UPDATE flags SET last_seen = '2026-10-07'")   # so that tonight's run refreshes every flag
    signal = tmp_path / "in-sync"
    night = kb_popen("nightly", "--home", str(ws), "--date", D, "--offline", "--quiet",
                     prelude=FLAGS_PRELUDE.format(signal=str(signal)))
    try:
        _waiting_for(signal, night)
        with Store.open(open_workspace(ws).store_target, readonly=True) as store:   # the flag being refreshed
            syncing = store.query("SELECT id FROM flags WHERE fingerprint = ?", (signal.read_text(),))[0][0]
        ids = sorted({syncing, 1 if syncing != 1 else 2})
        resolved = [kb_process("--home", str(ws), "flags", "resolve", str(n), "--as", "dismissed", "--note",
                               "checked by hand") for n in ids]
    finally:
        night.wait(120)
    assert night.returncode == 0, night.stderr.read()
    assert [r.returncode for r in resolved] == [0, 0], [r.stderr for r in resolved]
    flags = {f["id"]: f for f in json.loads(kb("--home", str(ws), "flags", "--format", "json").stdout)}
    assert kept.items(2, sum(flags[n]["status"] == "dismissed" and flags[n]["note"] == "checked by hand"
                             for n in ids)) == 0
    assert all(f["last_seen"] == D for f in flags.values())   # the nightly did refresh them all


def test_an_anchor_added_during_a_nightly_is_kept(briefed: Path, tmp_path: Path, backend, kept) -> None:
    from tests.reliability.support import kb as kb_process
    from tests.reliability.support import kb_popen
    ws = _on(backend, briefed)
    doc = ws / "organized" / "knowledge" / "inference.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n", encoding="utf-8")   # so the nightly reads it again
    signal = tmp_path / "doc-read"
    night = kb_popen("nightly", "--home", str(ws), "--date", D, "--offline", "--quiet",
                     prelude=ANCHOR_PRELUDE.format(signal=str(signal)))
    try:
        _waiting_for(signal, night)
        anchored = kb_process("--home", str(ws), "anchor", "2610.09342", "--section", "2.3", "--date", D)
    finally:
        night.wait(120)
    assert night.returncode == 0, night.stderr.read()
    assert anchored.returncode == 0, anchored.stderr
    assert "2610.09342" in doc.read_text(encoding="utf-8")
    rows = json.loads(kb("--home", str(ws), "query", "anchored", "--section", "2.3", "--format", "json").stdout)
    assert kept.items(1, sum(r["arxiv_id"] == "2610.09342" and r["ended_on"] is None for r in rows)) == 0
    assert "2610.09342" in kb("--home", str(ws), "query", "anchored", "--format", "ids").stdout


# --------------------------------------------------------------------------- a team on PostgreSQL
def _pg_dump(url: str) -> dict[str, list[tuple]]:
    from kb.store import Store
    from tests.support.backends import dump as store_dump
    with Store.open(url, readonly=True) as store:
        return store_dump(store)


def _sample(tmp_path: Path, name: str, url: str) -> Path:
    return sample_on(url, tmp_path / name)


def _nightly(ws: Path, *extra: str) -> subprocess.Popen:
    return nightly_process(ws, D, *extra)


def test_two_machines_nightlies_on_one_database(briefed: Path, tmp_path: Path, pg_server, kept) -> None:
    """Two workspaces (two machines) share one PostgreSQL store: their nightlies never run at once — one
    exits 75 naming the other, or with --wait runs after it — and the store is the one a single SQLite
    nightly makes, row for row."""
    reference = dump(briefed / ".kb" / "kb.sqlite")
    for wait in ("0", "240"):   # the second waits for the first however slow a loaded machine makes it
        url = pg_server.create_database()
        try:
            procs = [_nightly(_sample(tmp_path, f"machine-{n}-wait-{wait}", url), "--wait", wait) for n in (1, 2)]
            outs = [p.communicate(timeout=600) for p in procs]
            codes = sorted(p.returncode for p in procs)
            if wait == "0":
                assert codes in ([0, 0], [0, 75]), (codes, outs)
                for p, (_, err) in zip(procs, outs):
                    if p.returncode == 75:
                        assert "locked by another kb nightly (pid " in one_error_line(err)
            else:
                assert codes == [0, 0], outs
            after = _pg_dump(url)
            assert kept.rows(reference, after) == 0 and after == reference
        finally:
            pg_server.drop_database(url)


# The nightly stops inside a write transaction, right after its ``{n}``-th batch of rows went to the
# server, and waits there to be killed: a kill at a known moment mid-write, however fast the night runs.
KILL_PRELUDE = """
import pathlib, time, kb.store.rows as rows
_many = rows.Tx._many
calls = [0]
def many(self, *args):
    _many(self, *args)
    calls[0] += 1
    if calls[0] == {n}:
        pathlib.Path({signal!r}).touch()
        time.sleep(120)
rows.Tx._many = many
"""


def test_a_nightly_killed_on_postgresql_leaves_no_lock_and_a_whole_store(briefed: Path, tmp_path: Path,
                                                                         pg_fresh_url: str, kept) -> None:
    """kill -9 mid-write: the server releases the dead session's locks at once (no stale lock to take
    over), every batch is whole or absent, and the next nightly completes the store."""
    import random
    import signal as signals

    from tests.reliability.support import kb_popen
    rng = random.Random(75)
    reference = dump(briefed / ".kb" / "kb.sqlite")
    ws = _sample(tmp_path, "ws", pg_fresh_url)
    signal = tmp_path / "mid-write"
    proc = kb_popen("nightly", "--home", str(ws), "--date", D, "--offline", "--quiet",
                    prelude=KILL_PRELUDE.format(n=rng.randrange(5, 80), signal=str(signal)))
    try:
        _waiting_for(signal, proc)
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    assert proc.returncode == -signals.SIGKILL
    from kb.store import Store
    with Store.open(pg_fresh_url, readonly=True) as store:
        assert store.check() == ["ok"]
        assert store.query("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")[0][0] == 0
    result = _nightly(ws, "--wait", "0")
    out, err = result.communicate(timeout=180)
    assert result.returncode == 0, err
    after = _pg_dump(pg_fresh_url)
    assert kept.rows(reference, after) == 0 and after == reference


def test_processes_opening_a_new_database_at_the_same_moment(pg_server, kept) -> None:
    import time
    code = OPEN_STORE.format(repo=str(REPO))
    for _ in range(3):
        url = pg_server.create_database()
        try:
            start = time.time() + 0.5
            procs = [subprocess.Popen([sys.executable, "-c", code, url, str(start)], stderr=subprocess.PIPE, text=True)
                     for _ in range(4)]
            errors = [p.communicate(timeout=60)[1] for p in procs]
            assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
            names = [r[0] for r in pg_server.execute("SELECT name FROM migrations", url)]
            from kb.store.migrations import MIGRATIONS
            assert kept.items(len(MIGRATIONS), len(names)) == 0 and sorted(names) == sorted(m.name for m in MIGRATIONS)
        finally:
            pg_server.drop_database(url)


READER = """
import contextlib, io, json, pathlib, sys
sys.argv = ["kb"]
from kb.cli import main
stop, home = pathlib.Path(sys.argv_stop), sys.argv_home
COMMANDS = [["search", "推理"], ["query", "anchored", "--format", "ids"], ["query", "papers", "--format", "ids"],
            ["flags", "--format", "json"], ["db", "status", "--format", "json"], ["sources", "status"]]
rounds, errors, last = 0, [], ""
while not stop.exists() or rounds < 2:
    for args in COMMANDS:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(["--home", home, *args])
                code = 0
            except SystemExit as exc:
                code = exc.code or 0
        if code:
            errors.append(f"{' '.join(args)}: exit {code}: {err.getvalue().strip()[:300]}")
        elif args[0] == "search":
            last = out.getvalue()
    rounds += 1
print(json.dumps({"rounds": rounds, "errors": errors[:5], "found": last.count("\\n")}))
"""


def test_readers_during_a_nightly_never_fail(tmp_path: Path, backend, kept) -> None:
    """Four members read in a loop (search, query, flags, status) while the nightly fills a new store:
    no read fails or waits for an error, and the last reads see the night's work."""
    root = tmp_path / "ws"
    shutil.copytree(REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    ws = backend.use(root)
    backend.open(ws).close()                                              # the store exists, empty (a read makes none)
    from tests.reliability.support import kb_env
    stop = tmp_path / "stop"
    code = READER.replace("sys.argv_stop", repr(str(stop))).replace("sys.argv_home", repr(str(ws)))
    readers = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=kb_env(), cwd=REPO) for _ in range(4)]
    night = _nightly(ws)
    out, err = night.communicate(timeout=300)
    stop.touch()
    reports = [json.loads(r.communicate(timeout=120)[0].strip().splitlines()[-1]) for r in readers]
    assert night.returncode == 0, err
    assert [r["errors"] for r in reports] == [[]] * 4
    assert all(r["rounds"] >= 2 and r["found"] > 2 for r in reports), reports
    kept.items(4, sum(not r["errors"] for r in reports))
