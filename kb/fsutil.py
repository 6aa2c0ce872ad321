"""Writing files so that a crash never leaves half of one behind."""
from __future__ import annotations

import logging
import os
import re
import secrets
from pathlib import Path

from kb.errors import KBError

log = logging.getLogger(__name__)


def pid_alive(pid: int) -> bool:
    """Is a process with this PID running (or beyond our permission to signal, which means it is)?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def sync_folder(folder: Path) -> None:
    """Flush ``folder``'s entries to disk: a file synced before its rename (or link) is on disk, but its
    new name is the folder's, and without this a power cut soon after can bring the old name back (an
    edit reverts, a new file vanishes). Where the system opens or syncs no folder (Windows, some network
    file systems: EINVAL, EACCES …) nothing more can be done and the write stands: a debug line, no error."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        log.debug("the folder %s could not be opened to sync it: %s", folder, exc.strerror)
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        log.debug("the folder %s could not be synced: %s", folder, exc.strerror)
    finally:
        os.close(fd)


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


def _create_temp(path: Path) -> tuple[int, str]:
    """A new temp file beside ``path``, created with mode 0666 so that the umask decides who may read
    it (``tempfile.mkstemp`` forces 0600: a briefing written by the nightly's user would be unreadable
    by the team whatever the service's ``UMask=``)."""
    for _ in range(100):
        tmp = str(path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp name beside {path}")


def _keep_group(fd: int, path: Path) -> None:
    """Give the new file (``fd``) the group of the team file it replaces: a rename would leave it in the
    writer's own group, and the team's other members could no longer edit it (a folder without the setgid
    bit). Where this user may not give that group, the file keeps the user's, as any editor's would."""
    try:
        gid = path.stat().st_gid
        if os.fstat(fd).st_gid != gid:
            os.fchown(fd, -1, gid)
    except OSError:
        pass


def write_atomically(path: Path, data: bytes, *, durable: bool = True, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` through a temp file and a rename: readers see the old file or the new one.

    ``durable`` also flushes the file to disk before the rename and its folder after it (so that the
    new name survives a power cut, not only the bytes). Derived files that the next run
    compares byte for byte and rewrites (the archive site's pages) skip it: a fsync per page was
    two thirds of a year's site build, and a page a power cut truncated is repaired next run.
    The new file's mode is 0666 less the process's umask, like any file the user creates, also when
    it replaces one written with other permissions (the 0600 briefings of earlier versions); ``mode``,
    when given, is the new file's instead (a team file kb edits in place keeps the mode the team gave it, and its
    group).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _sweep_leftovers(path)
        fd, tmp = _create_temp(path)
    except OSError as exc:
        blocked = next((p for p in (path.parent, *path.parent.parents) if p.exists() and not p.is_dir()), None)
        why = f"{blocked} is a file, not a folder" if blocked is not None else exc.strerror
        raise KBError(f"cannot write {path}: {why}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            if mode is not None:
                _keep_group(fh.fileno(), path)
                os.fchmod(fh.fileno(), mode)   # after the chown, which may clear a set-id bit
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise KBError(f"cannot write {path}: {exc.strerror}") from exc
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if durable:   # after the try: the file is in place whatever the folder's sync does
        sync_folder(path.parent)
