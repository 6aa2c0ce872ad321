"""Writing files so that a crash never leaves half of one behind."""
from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from kb.errors import KBError


def pid_alive(pid: int) -> bool:
    """Is a process with this PID running (or beyond our permission to signal, which means it is)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def _sweep_leftovers(path: Path) -> None:
    """Remove temp files of ``path`` left by writers that died before their rename.

    A process killed between writing its temp file and renaming it (SIGKILL, SIGTERM
    without a handler, a power cut) leaves ``.<name>.<pid>.<random>.tmp`` behind; the
    pid says whose it was, so only the temp files of processes that are gone are removed
    and a concurrent writer's file is never touched.
    """
    pattern = re.compile(rf"^\.{re.escape(path.name)}\.(\d+)\.[^.]+\.tmp$")
    try:
        names = os.listdir(path.parent)
    except OSError:
        return
    for name in names:
        m = pattern.match(name)
        if m and int(m[1]) != os.getpid() and not pid_alive(int(m[1])):
            try:
                os.unlink(path.parent / name)
            except OSError:
                pass


def write_atomically(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data`` through a temp file and a rename: readers see the old file or the new one.

    ``durable`` also flushes the file to disk before the rename. Derived files that the next run
    compares byte for byte and rewrites (the archive site's pages) skip it: a fsync per page was
    two thirds of a year's site build, and a page a power cut truncated is repaired next run.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _sweep_leftovers(path)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise KBError(f"cannot write {path}: {exc.strerror}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise KBError(f"cannot write {path}: {exc.strerror}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
