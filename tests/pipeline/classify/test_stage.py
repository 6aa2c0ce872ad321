"""The classify stage's parallel path: forked workers store exactly what one process stores."""
from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import textwrap
from pathlib import Path

import pytest

from kb.errors import KBError
from pipeline.classify import stage
from tests.reliability.support import kb_inproc
from tests.support.paths import SAMPLE
from tests.support.workers import assert_no_worker_outlives

DAY = "2026-10-08"


def _kb(home: Path, *args: str) -> str:
    result = kb_inproc("--home", str(home), *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def _stored(home: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(home / ".kb" / "kb.sqlite") as db:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
                for table in ("classifications", "tags", "doc_relevance")}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the parallel path forks")
def test_two_workers_store_what_one_process_stores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    _kb(home, "ingest", "all", "--offline", "--date", DAY)
    # Small batches, so several are in flight and their order matters; the threshold lowered to the sample.
    monkeypatch.setattr(stage, "BATCH", 3)
    monkeypatch.setattr(stage, "PARALLEL_FROM", 10**9)    # one process, whatever the sample's size
    one = _kb(home, "classify", "--all")
    serial = _stored(home)
    assert len(serial["classifications"]) > 3 * 3        # more than three batches' worth

    monkeypatch.setattr(stage, "PARALLEL_FROM", 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    total = len(serial["classifications"])
    assert stage._workers(total) == 2
    with sqlite3.connect(home / ".kb" / "kb.sqlite") as db:   # nothing left over from the serial run
        for table in serial:
            db.execute(f"DELETE FROM {table}")
    used: list[int] = []
    judge = stage._judge

    def spy(engine, batches, workers):
        used.append(workers)
        return judge(engine, batches, workers)

    monkeypatch.setattr(stage, "_judge", spy)
    two = _kb(home, "classify", "--all")
    assert used == [2]
    assert _stored(home) == serial
    assert two == one


def test_workers_get_even_batches_of_at_most_batch() -> None:
    assert stage._batch_size(2598, 1) == stage.BATCH
    assert stage._batch_size(2598, 2) == 1299             # 1,299 + 1,299, not 2,000 + 598
    assert stage._batch_size(2599, 2) == 1300
    assert stage._batch_size(6000, 2) == 1500             # 4 × 1,500 over 2 workers, not 3 × 2,000
    assert stage._batch_size(5000, 4) == 1250
    assert stage._batch_size(200_000, 2) == stage.BATCH  # a backfill still goes in bounded batches
    for total in (2, 999, 2598, 4001, 6000, 20_001, 200_000):
        size = stage._batch_size(total, 2)
        batches = -(-total // size)
        assert size <= stage.BATCH and batches % 2 == 0, (total, size)   # each worker the same number
    assert stage._batch_size(1, 2) == 1


def test_a_night_of_a_few_hundred_subjects_is_judged_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    assert stage._workers(stage.PARALLEL_FROM - 1) == 1   # forking costs more than it saves below the threshold
    assert stage._workers(stage.PARALLEL_FROM) == (2 if hasattr(os, "fork") else 1)


def test_a_note_removed_before_classify_leaves_nothing_queued(tmp_path: Path) -> None:
    home = tmp_path / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    _kb(home, "ingest", "all", "--offline", "--date", DAY)
    _kb(home, "classify")
    note = home / "inbox" / "jay" / "2026-10-09-later.md"
    note.write_text("## 1. KV cache offload\n\n- 2610.08812 is worth a look\n", encoding="utf-8")
    _kb(home, "ingest", "workspace")
    note.unlink()                     # written, queued, then removed before the night classified it
    _kb(home, "ingest", "workspace")
    db = home / ".kb" / "kb.sqlite"
    with sqlite3.connect(db) as con:
        queued = con.execute("SELECT subject FROM classify_queue").fetchall()
    assert ("inbox/jay/2026-10-09-later.md#1",) in queued
    _kb(home, "classify")
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM classify_queue").fetchone() == (0,)


class _DiesOnThirdBatch:
    """An engine whose worker is killed (as the OOM killer would) on the third batch it is given."""

    def __init__(self) -> None:
        self.parent = os.getpid()

    def judge_many(self, items: list, keys: list) -> list:
        if os.getpid() != self.parent and items == ["third"]:
            os.kill(os.getpid(), signal.SIGKILL)
        return [f"judged {i}" for i in items]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the parallel path forks")
def test_a_killed_worker_fails_the_stage_with_one_line_instead_of_hanging() -> None:
    """multiprocessing.Pool waited forever for a SIGKILLed worker's batch, holding the nightly's lock."""
    batches = [(["first"], [1]), (["second"], [2]), (["third"], [3]), (["fourth"], [4])]
    def hung(*_: object) -> None:
        raise TimeoutError("the stage still waits for the dead worker")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)                                       # a hang fails this test, not the whole suite
    try:
        got = []
        with pytest.raises(KBError, match="a classify worker died"):
            for judged in stage._judge(_DiesOnThirdBatch(), iter(batches), 2):
                got.append(judged)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    # what was judged before is handed on in order (a batch still running when its pool broke is lost with it)
    assert got == [["judged first"], ["judged second"]][:len(got)]


# A nightly (its lock and the classify stage's workers, nothing else) killed while its workers judge
_KILLED_MID_JUDGING = textwrap.dedent("""
    import multiprocessing, os, signal, sys, time
    from pathlib import Path
    from pipeline.classify import stage
    from pipeline.lock import workspace_lock
    class Slow:
        def judge_many(self, items, keys):
            time.sleep(0.5)
            return ["x" * 1_000_000]   # more than a pipe holds: a worker would wait on it forever
    batches = iter([(["a"], [1]), (["b"], [2]), (["c"], [3]), (["d"], [4])])
    with workspace_lock(Path(sys.argv[1])):
        judged = stage._judge(Slow(), batches, 2)
        next(judged)
        print(*(p.pid for p in multiprocessing.active_children()), flush=True)
        os.kill(os.getpid(), signal.SIGTERM)   # as cron's timeout ends it
        time.sleep(10)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the parallel path forks")
def test_a_nightly_killed_while_workers_judge_leaves_no_worker_holding_its_lock(tmp_path: Path) -> None:
    """The workers share the nightly's open files, its lock among them: left waiting on their queue after it
    died, they held the lock for good and every later nightly exited 75 ("locked by another kb nightly")."""
    assert_no_worker_outlives(_KILLED_MID_JUDGING, tmp_path / ".kb" / "nightly.lock", "classify")
