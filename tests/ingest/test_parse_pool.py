"""Parse jobs in worker processes: same outcomes as in-process, and never worse when the pool fails."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from kb.errors import ParseError
from pipeline.ingest.parse_pool import MIN_PARALLEL_BYTES, Outcome, choose_workers, run_jobs

PARENT = os.getpid()


def _square(n: int):
    return lambda: n * n


def _pid_after(seconds: float):
    def job() -> int:
        time.sleep(seconds)
        return os.getpid()
    return job


def test_outcomes_come_back_in_the_order_of_the_jobs() -> None:
    jobs = [_square(n) for n in range(12)]
    sizes = list(range(12))   # largest first to the workers: the order of outcomes must not follow it
    parallel = run_jobs(jobs, workers=2, sizes=sizes)
    inline = run_jobs(jobs, workers=0)
    assert [o.get() for o in parallel] == [o.get() for o in inline] == [n * n for n in range(12)]


def test_workers_do_the_parsing_while_this_process_does_its_own_work() -> None:
    waited = []
    outcomes = run_jobs([_pid_after(0.2) for _ in range(4)], workers=2,
                        while_waiting=lambda: waited.append(time.sleep(0.1)))
    assert waited == [None]
    pids = {o.get() for o in outcomes}
    assert pids - {PARENT}, "no job ran in a worker process"
    assert all(o.seconds >= 0.2 for o in outcomes)


def test_a_jobs_own_error_comes_back_as_its_outcome_and_the_others_are_kept() -> None:
    def broken() -> None:
        raise ParseError("feed 'x' is not well-formed XML")
    outcomes = run_jobs([_square(3), broken, _square(4)], workers=2)
    assert outcomes[0].get() == 9 and outcomes[2].get() == 16
    with pytest.raises(ParseError, match="not well-formed"):
        outcomes[1].get()


def _let_workers_start() -> None:
    time.sleep(0.3)   # so that no job is still waiting to be taken back by this process


def test_a_worker_that_dies_costs_nothing_its_job_runs_here(caplog) -> None:
    def dies_in_a_worker() -> str:
        if os.getpid() != PARENT:
            os._exit(9)   # as a worker killed by the OOM killer would
        return "parsed here"
    outcomes = run_jobs([dies_in_a_worker, _square(5), _square(6)], workers=1, sizes=[10, 1, 1],
                        while_waiting=_let_workers_start)
    assert [o.get() for o in outcomes] == ["parsed here", 25, 36]
    assert "could not run in a worker (BrokenProcessPool" in caplog.text


def test_a_result_that_cannot_cross_processes_is_computed_here(caplog) -> None:
    def unpicklable():
        return lambda: "a closure does not pickle"
    outcomes = run_jobs([unpicklable, _square(2)], workers=1, while_waiting=_let_workers_start)
    assert outcomes[0].get()() == "a closure does not pickle" and outcomes[1].get() == 4
    assert "could not run in a worker" in caplog.text


class _Stubborn(Exception):
    """An exception that cannot be rebuilt from its args (as some libraries' are)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a} {b}")


def test_an_error_that_cannot_be_rebuilt_comes_back_by_name_and_breaks_nothing(caplog) -> None:
    def stubborn() -> None:
        raise _Stubborn("entities", "forbidden")
    outcomes = run_jobs([stubborn, _square(7)], workers=1, while_waiting=_let_workers_start)
    with pytest.raises(RuntimeError, match="_Stubborn: entities forbidden"):
        outcomes[0].get()
    assert outcomes[1].get() == 49
    assert "could not run in a worker" not in caplog.text   # the pool did not break: nothing ran twice


def test_no_pool_to_be_had_means_parsing_here(monkeypatch, caplog) -> None:
    import concurrent.futures

    def no_pool(*args, **kwargs):
        raise OSError(24, "Too many open files")
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", no_pool)
    outcomes = run_jobs([_square(2), _square(3)], workers=2)
    assert [o.get() for o in outcomes] == [4, 9]
    assert "parse workers unavailable" in caplog.text


def test_a_failing_head_start_costs_only_itself(caplog) -> None:
    def fails() -> None:
        raise OSError("the store is on a read-only disk")
    outcomes = run_jobs([_square(2), _square(3)], workers=1, while_waiting=fails)
    assert [o.get() for o in outcomes] == [4, 9]
    assert "read-only disk" in caplog.text and "parse workers unavailable" not in caplog.text


# Ctrl-C while two workers each hold a 5-second job: the process must end at once, workers too.
_INTERRUPTED = """
import os, sys, time
from pipeline.ingest.parse_pool import run_jobs
def job():
    print(os.getpid(), flush=True)
    time.sleep(5)
def interrupt():
    time.sleep(0.5)
    raise KeyboardInterrupt
try:
    run_jobs([job] * 4, workers=2, while_waiting=interrupt)
except KeyboardInterrupt:
    sys.exit(130)
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see which processes are alive")
def test_an_interrupt_ends_the_process_and_its_workers_without_waiting_for_their_jobs() -> None:
    import subprocess
    import sys
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _INTERRUPTED], capture_output=True, text=True, timeout=60)
    elapsed = time.monotonic() - t0
    workers = [int(pid) for pid in done.stdout.split()]
    try:
        assert done.returncode == 130, done.stderr
        assert workers, "no job started in a worker"
        assert elapsed < 4.0, f"the process waited {elapsed:.1f} s for jobs it had handed out (each takes 5 s)"
        assert not any(map(_alive, workers))
    finally:
        _kill(workers)


def test_an_unexpected_exception_is_an_outcome_too() -> None:
    def bug() -> None:
        raise KeyError("title")
    [outcome] = run_jobs([bug], workers=0)
    assert isinstance(outcome, Outcome) and isinstance(outcome.error, KeyError)


@pytest.mark.parametrize(("setting", "payload", "jobs", "cpus", "expected"), [
    (None, MIN_PARALLEL_BYTES - 1, 22, 8, 0),      # a light night: starting workers costs more than it saves
    (None, MIN_PARALLEL_BYTES, 22, 2, 1),          # one CPU for kb itself, one for a worker
    (None, MIN_PARALLEL_BYTES, 22, 16, 4),         # never more than four
    (None, MIN_PARALLEL_BYTES, 2, 16, 2),          # never more than the jobs
    (None, 10 * MIN_PARALLEL_BYTES, 22, 1, 0),     # one CPU: no workers
    (0, 10 * MIN_PARALLEL_BYTES, 22, 8, 0),        # configured off
    (3, 10, 22, 1, 3),                             # configured: as asked, whatever the night
    (3, 10, 1, 8, 0),                              # one job: nothing to do side by side
])
def test_choose_workers(monkeypatch, setting, payload, jobs, cpus, expected) -> None:
    monkeypatch.setattr("pipeline.ingest.parse_pool.available_cpus", lambda: cpus)
    monkeypatch.setattr("sys.platform", "linux")
    assert choose_workers(setting, payload, jobs) == expected


def test_no_automatic_workers_where_forking_is_unsafe(monkeypatch) -> None:
    monkeypatch.setattr("pipeline.ingest.parse_pool.available_cpus", lambda: 8)
    monkeypatch.setattr("sys.platform", "darwin")
    assert choose_workers(None, 10 * MIN_PARALLEL_BYTES, 22) == 0
    assert choose_workers(2, 10 * MIN_PARALLEL_BYTES, 22) == 2   # asked for: as asked


# A kb process that holds the workspace lock (as the nightly does), hands a long job to a
# worker, prints the worker's PID and waits.
_HOLDER = """
import fcntl, os, sys, time
from pipeline.ingest.parse_pool import run_jobs
lock = open(sys.argv[1], "w")
fcntl.flock(lock, fcntl.LOCK_EX)
def job():
    print(os.getpid(), flush=True)
    time.sleep(60)
run_jobs([job, job], workers=1, while_waiting=lambda: time.sleep(60))
"""


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see which processes are alive")
def test_workers_leave_when_kb_is_killed_and_never_keep_the_lock(tmp_path: Path) -> None:
    import fcntl
    import signal
    import subprocess
    import sys
    lock = tmp_path / "nightly.lock"
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(lock)], stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        worker = int(holder.stdout.readline())
        assert worker != holder.pid and Path(f"/proc/{worker}").exists()
        holder.send_signal(signal.SIGKILL)   # kill -9 of the nightly in the middle of parsing
        holder.wait(timeout=10)
        deadline = time.monotonic() + 5
        while _alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(worker), "a worker outlived its kb process"
        with lock.open("w") as fh:   # the next nightly gets the lock at once
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        holder.kill()
        holder.wait(timeout=10)
        _kill([worker])


def _kill(pids: list[int]) -> None:
    """Leave no process behind, whatever the test found."""
    import signal
    for pid in pids:
        if pid and _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"   # a zombie has exited; init reaps it
