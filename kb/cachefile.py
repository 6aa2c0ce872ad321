"""kb's own JSON caches in a workspace (``.kb/cache/…``, ``.kb/models/…``): read back, or written, as shortcuts only.

A cache is never the cause of a failed run: one that is missing, damaged, not a plain file (a FIFO, whose
read would wait) or a symbolic link (which kb never wrote) reads as none; one that cannot be written (a
member who may only read ``.kb/``, a full disk) is said at info level and means working again next run. The
cache's own name is never followed (``unfollowed_inside``): a link in its place is replaced, never written
through to the file it leads to (a team's note).
"""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from kb.errors import KBError
from kb.fsutil import write_atomically
from kb.workspace import unfollowed_inside

log = logging.getLogger(__name__)


def read_cache(root: Path, relative: str) -> Any:
    """The JSON value kb kept at ``relative`` under ``root``, or None when there is none to trust."""
    try:
        path = unfollowed_inside(root, relative)
        if path.is_symlink() or not path.is_file():
            return None
        return json.loads(path.read_bytes())
    except (OSError, ValueError, KBError):
        return None


def write_cache(root: Path, relative: str, value: Any, *, what: str, sort_keys: bool = True) -> None:
    """Keep ``value`` as JSON at ``relative`` under ``root`` (``what`` names it in the info line when it cannot
    be written). ``sort_keys=False`` keeps the value's own key order (where order means something)."""
    try:
        body = json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"))
    except (TypeError, ValueError):   # a value JSON cannot hold (a TOML date): not kept, worked out again
        return
    try:
        write_atomically(unfollowed_inside(root, relative), body.encode("utf-8"), durable=False)
    except (OSError, KBError) as exc:
        log.info("%s not kept: %s", what, exc)
