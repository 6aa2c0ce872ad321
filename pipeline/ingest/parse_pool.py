"""Parsing shared with forked workers when a night brings much to parse.

Parsers are pure (bytes in, records out), so a forked worker can run one over payloads this
process already holds and hand the records back; every write stays in this process. A night
with little to parse (under ``PARALLEL_FROM`` bytes), a machine with one core or no ``fork``
parses in the process. A worker that dies (killed, out of memory) costs time, not records:
what it had not returned is parsed again here; so is a job whose error cannot be pickled back
(a bug's exception holding a generator, a lock …), which then raises here as it is. A worker
never outlives this process (``pipeline.lock.leave_with_parent``): it would hold the nightly's lock.
"""
from __future__ import annotations

import contextlib
import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from typing import Any, Generic, TypeVar

__all__ = ["PARALLEL_FROM", "Parsed", "parsed_ahead", "workers_for"]

T = TypeVar("T")

# From this many bytes to parse, two workers win (bench/README.md, "parse workers"): the heavy
# night's 3.5 MB parse in half the time while this process prepares the store.
PARALLEL_FROM = 1 << 20
MAX_WORKERS = 4

_JOBS: Sequence[Callable[[], object]] = ()   # the forked workers' jobs (inherited, never pickled)


class Parsed(Generic[T]):
    """One job's records: from its worker when it has one, else parsed here when asked for."""

    def __init__(self, job: Callable[[], T], future: Future | None = None) -> None:
        self._job, self._future = job, future

    def result(self) -> T:
        """The job's records; a parser's error is raised here, as it would be in the process."""
        if self._future is not None:
            from concurrent.futures.process import BrokenProcessPool
            try:
                return self._future.result()
            except (BrokenProcessPool, _ParseHere):
                pass   # the worker died, or its error could not travel back: parse here instead
        return self._job()


def workers_for(size: int) -> int:
    """How many forked workers ``size`` bytes of payloads earn (0: parse in this process)."""
    if size < PARALLEL_FROM or not hasattr(os, "fork"):
        return 0
    from pipeline.lock import usable_cores
    cores = usable_cores()
    return min(MAX_WORKERS, cores) if cores > 1 else 0


@contextlib.contextmanager
def parsed_ahead(jobs: Sequence[Callable[[], T]], size: int) -> Iterator[list[Parsed[T]]]:
    """The ``jobs`` (parser calls over ``size`` bytes), started in forked workers when they earn it.

    Within the block, each ``Parsed.result()`` gives a job's records in any order the caller
    likes; the workers fork once, when the first job is sent, so they see every job's payload.
    """
    workers = workers_for(size) if len(jobs) > 1 else 0
    if not workers:
        yield [Parsed(job) for job in jobs]
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    global _JOBS
    _JOBS = jobs
    from pipeline.lock import leave_with_parent
    pool = ProcessPoolExecutor(min(workers, len(jobs)), mp_context=mp.get_context("fork"),
                               initializer=leave_with_parent, initargs=(os.getpid(),))   # never outlive the nightly
    try:
        yield [Parsed(job, _submitted(pool, i)) for i, job in enumerate(jobs)]
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _JOBS = ()


def _submitted(pool: Any, index: int) -> Future | None:
    """Job ``index`` sent to a worker; None when the pool broke already (a worker died before the job was sent:
    submitting to a broken pool raises), so that the job is parsed here."""
    from concurrent.futures.process import BrokenProcessPool
    try:
        return pool.submit(_run_job, index)
    except BrokenProcessPool:
        return None


class _ParseHere(Exception):
    """A worker's job failed with an error that cannot be pickled: run it again in the process, where the
    error is raised as it is (not as the pickling error the pool would send instead)."""


def _run_job(index: int) -> object:
    try:
        return _JOBS[index]()
    except Exception as exc:
        try:
            pickle.dumps(exc)
        except Exception:
            raise _ParseHere() from None
        raise
