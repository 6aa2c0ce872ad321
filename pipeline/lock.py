"""One nightly at a time per store: an advisory lock in ``.kb/``, or the database's on PostgreSQL.

``flock`` is released by the kernel when its holder dies, so a run killed with
``kill -9`` never blocks the next one; the PID written inside the file only lets
the next run say whose lock it waited for, or that it took over a stale one.
On PostgreSQL the nightlies of several machines share one database, which a lock file
beside one of them cannot guard: the store takes a session advisory lock instead
(released by the server when the run's connection goes), with the same exit 75.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from kb.errors import LockedError, StoreError
from kb.fsutil import pid_alive

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from kb.store import Store

log = logging.getLogger(__name__)


def _holder(path: Path) -> dict:
    try:
        holder = json.loads(path.read_text() or "{}")
    except (OSError, ValueError, RecursionError):
        return {}
    # A lock file someone else wrote junk into is an unknown holder, not a crash.
    if not isinstance(holder, dict):
        return {}
    pid = holder.get("pid")
    if pid is not None and (not isinstance(pid, int) or isinstance(pid, bool) or not 0 < pid < 2**31):
        holder.pop("pid")
    return holder


@contextmanager
def workspace_lock(path: Path, *, wait: float = 0.0, what: str = "kb nightly",
                   sleep: Callable[[float], None] = time.sleep,
                   clock: Callable[[], float] = time.monotonic) -> Iterator[dict]:
    """Hold the lock at ``path`` for the block; wait up to ``wait`` seconds, else raise LockedError (exit 75)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)   # the umask decides who reads it
    except OSError as exc:
        raise StoreError(f"cannot create the lock {path}: {exc.strerror}") from exc
    info: dict = {}
    try:
        deadline = clock() + wait
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if clock() >= deadline:
                    holder = _holder(path)
                    raise LockedError(f"{path.parent.parent} is locked by another {what} "
                                      f"(pid {holder.get('pid', '?')}, since {holder.get('started', '?')}); "
                                      f"gave up after {wait:g} s") from None
                sleep(min(0.2, max(0.0, deadline - clock())))
        previous = _holder(path)
        if previous.get("pid") and previous.get("pid") != os.getpid() and not pid_alive(int(previous["pid"])):
            info["stale"] = previous   # the caller logs it, once its run log is open
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": os.getpid(), "started": time.strftime("%Y-%m-%dT%H:%M:%S")}).encode(), 0)
        try:
            yield info
        finally:
            os.ftruncate(fd, 0)  # any exit of a live run leaves an empty lock file: nothing stale to report
    finally:
        os.close(fd)  # closing releases the flock


def usable_cores() -> int:
    """The processors this process may run on (its affinity, where the system says it): what forked workers share."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def leave_with_parent(parent: int, *, every: float = 0.2) -> None:
    """In a forked worker (a pool's ``initializer``, ``initargs=(os.getpid(),)``): end this process as soon as
    ``parent`` is no longer its parent. A fork shares the parent's open files, the nightly's lock among them (its
    flock, or on PostgreSQL the connection holding the advisory lock), and a pool's idle worker waits on its queue
    forever: a nightly killed mid-stage (cron's timeout, the OOM killer) would leave workers holding the lock, and
    every later nightly would exit 75 until someone killed them by hand."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)   # nothing of the parent's to flush or close: it is gone
    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def nightly_lock(store: Store, lock_file: Path, *, wait: float = 0.0) -> AbstractContextManager[dict]:
    """The lock one nightly holds: ``lock_file`` beside a SQLite store, the database's advisory lock on PostgreSQL."""
    if store.dialect == "postgresql":
        return store.exclusive("kb nightly", wait=wait)
    return workspace_lock(lock_file, wait=wait)
