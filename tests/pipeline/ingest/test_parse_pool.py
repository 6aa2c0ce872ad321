"""Parsing shared with forked workers (``pipeline.ingest.parse_pool``): the same records as in the process,
a parser's error raised where the records are asked for, a dead worker costing time only, and a night
parsed either way giving the same store and the same briefings."""
from __future__ import annotations

import filecmp
import os
import shutil
import sqlite3
import textwrap
from pathlib import Path

import pytest

import pipeline.ingest.parse_pool as pool
from kb.errors import ParseError
from tests.reliability.support import kb_inproc
from tests.support.workers import assert_no_worker_outlives


@pytest.fixture
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)


def test_a_small_night_a_single_core_or_a_single_job_parses_in_the_process(monkeypatch: pytest.MonkeyPatch,
                                                                          two_cores: None) -> None:
    assert pool.workers_for(pool.PARALLEL_FROM - 1) == 0
    assert pool.workers_for(pool.PARALLEL_FROM) == 2
    with pool.parsed_ahead([os.getpid], pool.PARALLEL_FROM) as (only,):
        assert only.result() == os.getpid()          # one job: nothing to share
    monkeypatch.setattr(pool.os, "sched_getaffinity", lambda _pid: {0})
    assert pool.workers_for(10 * pool.PARALLEL_FROM) == 0


def test_workers_give_each_jobs_records_and_see_what_the_process_held(two_cores: None) -> None:
    payloads = [f"payload {n}".encode() * 1000 for n in range(5)]   # held before the workers fork
    jobs = [lambda b=b: (os.getpid(), b.decode()[:9]) for b in payloads]
    with pool.parsed_ahead(jobs, pool.PARALLEL_FROM) as parsed:
        results = [p.result() for p in reversed(parsed)][::-1]   # asked for in any order
    assert [text for _, text in results] == [f"payload {n}" for n in range(5)]
    assert os.getpid() not in {pid for pid, _ in results}


def test_a_parsers_error_is_raised_where_its_records_are_asked_for(two_cores: None) -> None:
    def broken() -> None:
        raise ParseError("feed 'x' is not well-formed XML (line 3)")

    with pool.parsed_ahead([broken, lambda: "fine"], pool.PARALLEL_FROM) as (bad, good):
        with pytest.raises(ParseError, match="not well-formed XML"):
            bad.result()
        assert good.result() == "fine"


class _Unsent(Exception):
    """A bug's exception carrying what cannot be pickled (here a generator): it cannot travel back from a worker."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.rest = (n for n in range(3))


def test_a_parsers_error_that_cannot_be_pickled_is_raised_as_it_is(two_cores: None) -> None:
    """Not "cannot pickle 'generator' object" in the source's report: the job is parsed again here, where
    the parser's own error is raised (with its traceback)."""
    def bug() -> None:
        raise _Unsent("entry 3 has no title")

    with pool.parsed_ahead([bug, lambda: "fine"], pool.PARALLEL_FROM) as (bad, good):
        with pytest.raises(_Unsent, match="entry 3 has no title"):
            bad.result()
        assert good.result() == "fine"


def test_a_worker_that_dies_costs_time_not_records(two_cores: None) -> None:
    parent = os.getpid()

    def dies_in_a_worker() -> str:
        if os.getpid() != parent:
            os._exit(1)   # as the kernel's OOM killer would end it
        return "parsed here"

    with pool.parsed_ahead([dies_in_a_worker, lambda: "also here"], pool.PARALLEL_FROM) as parsed:
        assert [p.result() for p in parsed] == ["parsed here", "also here"]


def test_a_worker_that_dies_before_the_next_job_is_sent_costs_no_job(two_cores: None,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies at once breaks the pool before the next job is sent, and sending to a broken pool
    raises: the test above failed so about once in 25 runs ("A child process terminated abruptly"). Here the
    pool breaks at the second job, as it would after such a death: that job and the rest are parsed here."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    sent = ProcessPoolExecutor.submit

    def breaks_at_the_second(self, fn, index):
        if index >= 1:
            raise BrokenProcessPool("A child process terminated abruptly, the process pool is not usable anymore")
        return sent(self, fn, index)
    monkeypatch.setattr(ProcessPoolExecutor, "submit", breaks_at_the_second)
    with pool.parsed_ahead([lambda: "first", lambda: "second", lambda: "third"], pool.PARALLEL_FROM) as parsed:
        assert [p.result() for p in parsed] == ["first", "second", "third"]


# A nightly (here its lock and its parse, nothing else) killed while its workers parse
_KILLED_MID_PARSE = textwrap.dedent("""
    import multiprocessing, os, signal, sys, time
    from pathlib import Path
    import pipeline.ingest.parse_pool as pool
    from pipeline.lock import workspace_lock
    pool.workers_for = lambda size: 2
    def job():
        time.sleep(0.5)
        return b"x" * 1_000_000   # more than a pipe holds: a worker would wait on it forever
    with workspace_lock(Path(sys.argv[1])):
        with pool.parsed_ahead([job, job, job], 0):
            print(*(p.pid for p in multiprocessing.active_children()), flush=True)
            time.sleep(0.2)
            os.kill(os.getpid(), signal.SIGTERM)   # as cron's timeout ends it
            time.sleep(10)
""")


def test_a_nightly_killed_while_workers_parse_leaves_no_worker_holding_its_lock(tmp_path: Path) -> None:
    """The workers share the nightly's open files, its lock among them: left waiting on their queue after it
    died, they held the lock for good and every later nightly exited 75 ("locked by another kb nightly")."""
    assert_no_worker_outlives(_KILLED_MID_PARSE, tmp_path / ".kb" / "nightly.lock", "parse")


def _night(home: Path) -> None:
    result = kb_inproc("--home", str(home), "nightly", "--offline", "--date", "2026-10-08")
    assert result.returncode == 0, result.stderr


def _papers(home: Path) -> list[tuple]:
    return sqlite3.connect(home / ".kb" / "kb.sqlite").execute(
        "SELECT arxiv_id, title, abstract, authors FROM papers ORDER BY arxiv_id").fetchall()


def test_a_night_parsed_by_workers_stores_and_briefs_what_one_parsed_in_the_process(
        sample_workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, two_cores: None) -> None:
    forked = tmp_path / "forked"
    shutil.copytree(sample_workspace, forked)
    _night(sample_workspace)
    monkeypatch.setattr(pool, "PARALLEL_FROM", 0)
    _night(forked)
    assert _papers(forked) == _papers(sample_workspace) and _papers(forked)
    written = sorted(p.name for p in (sample_workspace / "briefings").iterdir())
    assert written and sorted(p.name for p in (forked / "briefings").iterdir()) == written
    _, mismatch, errors = filecmp.cmpfiles(sample_workspace / "briefings", forked / "briefings", written, shallow=False)
    assert not mismatch and not errors
