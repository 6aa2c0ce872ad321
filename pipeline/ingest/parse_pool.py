"""Run independent parse jobs in worker processes, falling back to this process.

Parsers are pure functions from bytes to records, so the sources of one night can be
parsed side by side: a heavy day's listing, HF answer and twenty feeds are CPU work
(expat, feedparser) that one core does one after another. Workers are forked, so a
job is any zero-argument callable (a closure over the payload): nothing but its
index and its result crosses the process boundary.

Never worse than without workers: a job's own exception comes back as its outcome
(re-raised by ``Outcome.get()`` where the job would have raised); anything the pool
itself could not deliver (a worker killed, a result that does not pickle, no
``fork`` on this platform) makes that job run here, as it would have without a pool.
The workers never touch the store: the parent's SQLite connection is inherited but
unused, and workers leave with ``os._exit`` (no finalizers run on it) — at the latest
when the kb process does, whatever ended it.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kb.errors import KBError

log = logging.getLogger(__name__)

MAX_WORKERS = 4
# Below this many payload bytes a night is parsed faster than workers start and send
# their records back (a heavy day's 3 MB listing: 17 ms to pickle and unpickle its records).
MIN_PARALLEL_BYTES = 1 << 20

_jobs: list[Callable[[], Any]] = []   # set before the fork; each worker reads its job by index


@dataclass
class Outcome:
    """What a job returned or raised, and how long it ran."""

    value: Any = None
    error: BaseException | None = None
    seconds: float = 0.0

    def get(self) -> Any:
        """The job's result; its exception is raised here, in the caller's process."""
        if self.error is not None:
            raise self.error
        return self.value


def _run(job: Callable[[], Any]) -> Outcome:
    t0 = time.perf_counter()
    try:
        return Outcome(job(), None, time.perf_counter() - t0)
    except Exception as exc:   # the job's own failure is its outcome, in a worker as here
        return Outcome(None, exc, time.perf_counter() - t0)


def _run_indexed(index: int) -> Outcome:
    """A job as a worker runs it: its error must survive the trip back to the parent."""
    outcome = _run(_jobs[index])
    exc = outcome.error
    if exc is not None and not isinstance(exc, KBError):
        # A bug or an unforeseen input: the traceback stays here, so it is logged here.
        log.error("a parse job raised an unexpected %s", type(exc).__name__, exc_info=exc)
        if not _round_trips(exc):   # one that cannot be rebuilt would break the whole pool
            outcome.error = RuntimeError(f"{type(exc).__name__}: {exc}")
    return outcome


def _round_trips(exc: BaseException) -> bool:
    import pickle
    try:
        pickle.loads(pickle.dumps(exc))
        return True
    except Exception:
        return False


def _exit_with_parent() -> None:
    """Worker initializer: leave as soon as the kb process is gone (killed, crashed).

    A forked worker holds copies of the parent's files, the workspace lock among them:
    one that outlived a ``kill -9`` of its nightly would keep the next nightly locked out.
    """
    import multiprocessing
    import threading
    from multiprocessing.connection import wait
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])   # readable once the parent's end of the pipe is closed: it exited
        os._exit(1)
    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def available_cpus() -> int:
    """CPUs this process may run on (a container's or taskset's limit, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def choose_workers(setting: int | None, payload_bytes: int, jobs: int) -> int:
    """Worker processes to use: ``setting`` when given (0: none), else automatic.

    Automatic is one worker per CPU beyond the one this process keeps busy (at most
    ``MAX_WORKERS``), and none for a light night, where starting them costs more
    than they save, nor off Linux: macOS's system libraries are not safe to fork
    (which is why Python stopped forking there by default).
    """
    if jobs < 2:
        return 0
    if setting is not None:
        return min(setting, jobs)
    if payload_bytes < MIN_PARALLEL_BYTES or not sys.platform.startswith("linux"):
        return 0
    return max(0, min(MAX_WORKERS, available_cpus() - 1, jobs))


def run_jobs(jobs: list[Callable[[], Any]], *, workers: int, sizes: list[int] | None = None,
             while_waiting: Callable[[], None] | None = None) -> list[Outcome]:
    """Run every job; return their outcomes in the order of ``jobs``.

    With ``workers`` > 0 (and ``fork`` available) the jobs go to that many forked
    processes, largest ``sizes`` first; meanwhile this process calls ``while_waiting``
    (work that does not need the results, such as importing the store's writers),
    then takes back the jobs no worker has started and runs them itself.
    """
    if workers <= 0 or not jobs:
        return [_run(job) for job in jobs]
    import multiprocessing   # only now: a night with nothing to parse does not pay for it
    from concurrent.futures import ProcessPoolExecutor
    if "fork" not in multiprocessing.get_all_start_methods():
        return [_run(job) for job in jobs]
    outcomes: list[Outcome | None] = [None] * len(jobs)
    order = sorted(range(len(jobs)), key=lambda i: -(sizes[i] if sizes else 0))
    global _jobs
    _jobs = jobs
    log.info("running %d parse jobs in %d worker processes", len(jobs), workers)
    pool = None
    interrupted = False
    try:
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_exit_with_parent)
        _share(pool, jobs, order, outcomes, while_waiting)
    except OSError as exc:   # no processes or pipes to be had (limits, memory): this process does the rest
        log.warning("parse workers unavailable (%s); parsing in this process", exc)
    except BaseException:    # Ctrl-C, SystemExit: leave now, not after the jobs handed out
        interrupted = True
        raise
    finally:
        if pool is not None:
            if interrupted:
                _stop_workers(pool)
            pool.shutdown(wait=not interrupted, cancel_futures=True)
        _jobs = []
    return [o if o is not None else _run(jobs[i]) for i, o in enumerate(outcomes)]


def _stop_workers(pool: Any) -> None:
    """End the workers at once: a job already handed out would otherwise hold the exit
    (the executor joins its workers when the interpreter exits)."""
    terminate = getattr(pool, "terminate_workers", None)   # Python 3.14+
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _share(pool: Any, jobs: list[Callable[[], Any]], order: list[int], outcomes: list[Outcome | None],
           while_waiting: Callable[[], None] | None) -> None:
    """Hand the jobs to the pool, do ``while_waiting``, take back what no worker started, collect."""
    futures = {i: pool.submit(_run_indexed, i) for i in order}
    if while_waiting is not None:
        try:
            while_waiting()
        except Exception as exc:   # only a head start: what it meant to do happens later anyway
            log.warning("while parse workers ran: %s: %s", type(exc).__name__, exc)
    for i in reversed(order):   # the smallest jobs are the last a worker would start
        if futures[i].cancel():
            outcomes[i] = _run(jobs[i])
    for i, future in futures.items():
        if outcomes[i] is not None:
            continue
        try:
            outcomes[i] = future.result()
        except Exception as exc:   # the pool failed (a worker died, a result would not pickle)
            log.warning("parse job %d could not run in a worker (%s: %s); running it here",
                        i, type(exc).__name__, exc)
