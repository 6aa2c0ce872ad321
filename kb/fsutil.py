"""Writing files so that a crash never leaves half of one behind."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from kb.errors import KBError


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` through a temp file and a rename: readers see the old file or the new one."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise KBError(f"cannot write {path}: {exc.strerror}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
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
