"""kb as real processes: killed mid-write, run twice at once, terminated while writing a briefing."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kb.workspace import init_workspace
from pipeline.context import open_context
from pipeline.ingest.bulk import ingest_bulk_file
from tests.reliability.support import DAY, OPEN_STORE, REPO, dump, integrity, kb, kb_env, kb_popen

D = DAY.isoformat()
BULK = ("papers", "paper_versions", "sightings")


def _kaggle_50k(path: Path, rng: random.Random) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(50_000):
            versions = [{"version": f"v{v}", "created": f"Mon, {v} Jan 2024 10:00:00 GMT"}
                        for v in range(1, 2 + rng.randrange(3))]
            fh.write(json.dumps({
                "id": f"24{1 + i // 20000:02d}.{i % 20000:05d}", "title": f"Paper {i}: {rng.choice(['KV', 'MoE', '推理'])}",
                "abstract": "We serve models. " * rng.randrange(2, 12), "categories": rng.choice(["cs.DC", "cs.LG cs.DC"]),
                "authors": "A. Author and B. Author", "versions": versions,
                "authors_parsed": [["Author", "A.", ""], ["Author", "B.", ""]], "update_date": "2024-01-05",
            }, ensure_ascii=False) + "\n")
    return path


def _papers(db: Path) -> int:
    if not db.exists():   # killed before the store was linked into place: a plain connect would make an empty file
        return 0
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.5)
        try:
            return conn.execute("SELECT count(*) FROM papers").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_kill_9_during_bulk_ingest_then_rerun(tmp_path: Path, kept) -> None:
    rng = random.Random(20261008)
    data = _kaggle_50k(tmp_path / "arxiv-metadata.jsonl", rng)
    clean_ws, ws = tmp_path / "clean", tmp_path / "ws"
    init_workspace(clean_ws)
    init_workspace(ws)
    clean = open_context(str(clean_ws), DAY)
    assert ingest_bulk_file(clean, data, batch=2000).parsed == 50_000
    expected = dump(clean.store.path, BULK)
    clean.store.close()
    db = ws / ".kb" / "kb.sqlite"
    args = ["-m", "kb.cli", "--home", str(ws), "--quiet", "ingest", "arxiv-bulk", str(data), "--batch", "2000"]
    killed_at, errors = [], []
    for round_ in range(2):
        proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                env=kb_env(), cwd=REPO)
        if round_ == 0:                       # a random moment: start-up, migrations or the first batches
            time.sleep(rng.uniform(0.2, 1.0))
        else:                                 # a random point of the file
            target, deadline = rng.randrange(4_000, 46_000), time.monotonic() + 60
            while _papers(db) < target and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(rng.uniform(0, 0.05))
        proc.kill()
        proc.wait(30)
        errors.append(proc.stderr.read().decode(errors="replace")[-300:])   # said only if the run ended by itself
        proc.stderr.close()
        count = _papers(db)
        killed_at.append((proc.returncode, count))
        assert kept.store(db) == "ok"
        assert count % 2000 == 0 or count == 50_000          # whole batches, never half of one
    assert any(rc == -signal.SIGKILL and 0 < n < 50_000 for rc, n in killed_at), (killed_at, errors)
    result = kb(*args[2:], timeout=120)
    assert result.returncode == 0, result.stderr
    final = dump(db, BULK)
    assert kept.rows(expected, final) == 0
    assert final == expected                                   # the same store a clean run made
    assert integrity(db) == "ok" and kept.store(db) == "ok"


def _sample(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    return root


def _nightly(ws: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kb.cli", "nightly", "--home", str(ws), "--date", D, "--offline",
                             "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=kb_env(), cwd=REPO)


def test_two_nightlies_at_once(tmp_path: Path, briefed: Path, kept) -> None:
    reference = dump(briefed / ".kb" / "kb.sqlite")
    for wait in ("0", "60"):
        ws = _sample(tmp_path, f"ws-wait-{wait}")
        procs = [_nightly(ws, "--wait", wait) for _ in range(2)]
        outs = [p.communicate(timeout=120) for p in procs]
        codes = sorted(p.returncode for p in procs)
        if wait == "0":
            assert codes in ([0, 0], [0, 75]), (codes, outs)
            for p, (_, err) in zip(procs, outs):
                if p.returncode == 75:
                    assert "locked by another kb nightly" in err and len(err.strip().splitlines()) == 1
        else:
            assert codes == [0, 0], outs                         # the second waited its turn
        db = ws / ".kb" / "kb.sqlite"
        assert kept.store(db) == "ok"
        after = dump(db)
        assert kept.rows(reference, after) == 0 and after == reference


def test_processes_opening_a_fresh_store_at_the_same_moment(tmp_path: Path, kept) -> None:
    """The race under two nightlies on a new workspace: every process migrates the same fresh store."""
    code = OPEN_STORE.format(repo=str(REPO))
    for round_ in range(4):
        db = tmp_path / f"r{round_}" / "kb.sqlite"
        db.parent.mkdir()
        start = time.time() + 0.5
        procs = [subprocess.Popen([sys.executable, "-c", code, str(db), str(start)], stderr=subprocess.PIPE,
                                  text=True) for _ in range(4)]
        errors = [p.communicate(timeout=60)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0, 0], errors
        conn = sqlite3.connect(db)
        names = [r[0] for r in conn.execute("SELECT name FROM migrations")]
        conn.close()
        assert len(names) == len(set(names))
        assert kept.store(db) == "ok"


def test_stale_lock_from_a_killed_nightly(tmp_path: Path, briefed: Path, kept) -> None:
    rng = random.Random(75)
    reference = dump(briefed / ".kb" / "kb.sqlite")
    ws = _sample(tmp_path, "ws")
    lock = ws / ".kb" / "nightly.lock"
    proc = _nightly(ws)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if lock.exists() and str(proc.pid) in lock.read_text():
            break
        time.sleep(0.005)
    time.sleep(rng.uniform(0, 0.3))
    proc.kill()
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert json.loads(lock.read_text())["pid"] == proc.pid           # the dead run's lock is still there
    assert kept.store(ws / ".kb" / "kb.sqlite") == "ok"
    result = kb("nightly", "--home", str(ws), "--date", D, "--offline", "--quiet", "--wait", "0")
    assert result.returncode == 0, result.stderr
    log = sorted((ws / ".kb" / "logs").glob("nightly-*.log"))[-1].read_text()
    assert f"took over a stale lock left by pid {proc.pid}" in log
    after = dump(ws / ".kb" / "kb.sqlite")
    assert kept.rows(reference, after) == 0 and after == reference
    assert kept.store(ws / ".kb" / "kb.sqlite") == "ok"


@pytest.mark.parametrize("junk", [b"[1, 2]", b'{"pid": "me"}', b'{"pid": -1}', b"[" * 100_000, b"\xff\xfe\x00"],
                         ids=["list", "pid-string", "pid-negative", "deep", "binary"])
def test_a_lock_file_full_of_junk(workspace: Path, kept, junk: bytes) -> None:
    """Whatever is in the lock file, the flock decides: junk is an unknown holder, never a crash."""
    from pipeline.lock import workspace_lock
    lock = workspace / ".kb" / "nightly.lock"
    lock.write_bytes(junk)
    with workspace_lock(lock) as info:
        assert json.loads(lock.read_text())["pid"] == os.getpid() and "stale" not in info
    assert lock.read_bytes() == b""                                     # released clean
    kept.items(1, 1)


SLOW_FSYNC = """
import os, time
_fsync = os.fsync
def fsync(fd):
    time.sleep(0.4)          # widen the window between the temp file and the rename
    return _fsync(fd)
os.fsync = fsync
"""


def _tmps(folder: Path) -> list[Path]:
    return sorted(folder.glob(".*.tmp"))


def test_sigterm_during_a_briefing_write(briefed: Path, kept) -> None:
    rng = random.Random(15)
    folder = briefed / "briefings"
    target = folder / f"{D}-inference.en.md"
    args = ["--home", str(briefed), "brief", "--date", D, "--lang", "en"]
    assert kb(*args).returncode == 0                  # the new briefing, made as the killed runs make it
    new = target.read_bytes()
    old = b"# the old briefing, whole\n" + b"an older line\n" * 2000
    mid_write = 0
    for i in range(8):
        absent = i % 4 == 3
        if absent:
            target.unlink(missing_ok=True)
        else:
            target.write_bytes(old)
        proc = kb_popen(*args, prelude=SLOW_FSYNC)
        if i % 2 == 0:                    # wait for the temp file, then strike inside the write
            deadline = time.monotonic() + 30
            while not [t for t in _tmps(folder) if f".{proc.pid}." in t.name] and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.002)
            mid_write += proc.poll() is None
            time.sleep(rng.uniform(0, 0.3))
        else:                             # a random moment of the whole run
            time.sleep(rng.uniform(0.05, 1.5))
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
        proc.stderr.close()
        state = target.read_bytes() if target.exists() else None
        assert state in ((None, new) if absent else (old, new)), f"round {i}: a torn briefing ({len(state or b'')} bytes)"
        assert len(_tmps(folder)) <= 1, _tmps(folder)            # at most the killed writer's own
        assert kept.store(briefed / ".kb" / "kb.sqlite") == "ok"
        kept.items(1, int(state in (old, new) or (absent and state is None)))
    assert mid_write >= 3
    assert kb(*args).returncode == 0
    assert target.read_bytes() == new and _tmps(folder) == []      # a later run sweeps the leftovers
