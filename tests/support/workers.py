"""A nightly killed while its forked workers run: the workers must not outlive it holding its lock."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kb.errors import LockedError
from pipeline.lock import workspace_lock
from tests.reliability.support import kb_env


def assert_no_worker_outlives(script: str, lock: Path, what: str) -> None:
    """Run ``script`` (it takes ``lock``, starts workers, prints their pids, then is killed as cron's timeout
    would kill it) and check the lock is free soon after: the workers share the nightly's open files, its lock
    among them, and left waiting on their queue they held it for good (every later nightly exited 75)."""
    killed = subprocess.Popen([sys.executable, "-c", script, str(lock)], stdout=subprocess.PIPE, text=True,
                              env=kb_env())
    workers: list[int] = []
    try:
        assert killed.stdout is not None
        workers = [int(pid) for pid in killed.stdout.readline().split()]
        assert workers and killed.wait(timeout=30) == -signal.SIGTERM
        with workspace_lock(lock, wait=10):   # the workers are gone with it
            pass
    except LockedError:
        pytest.fail(f"the killed nightly's {what} workers still hold its lock")
    finally:
        killed.kill()
        for pid in workers:   # what the test started, should it have outlived the nightly
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
