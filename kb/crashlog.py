"""Where a traceback goes when the console shows one line: a crash log in the workspace's ``.kb/logs/``
(else the system's temporary folder). Used by the CLI for a command's own bug and by a source's
bracket for a bug in one source (the run goes on)."""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path


def write_crash_log(text: str, home: str | Path | None) -> Path | None:
    """Write ``text`` (a traceback) to a new crash log; its path, or None when it cannot be written."""
    folder = Path(home) / ".kb" / "logs" if home else Path(tempfile.gettempdir())
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"kb-crash-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{time.monotonic_ns()}.log"
        path.write_text(text, encoding="utf-8")
        return path
    except OSError:
        return None
