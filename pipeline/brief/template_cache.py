"""Compiled briefing templates kept in the workspace, ``.kb/cache/templates-<key>/``.

Compiling both briefing templates takes a few hundred ms, every night. Jinja's bytecode cache
keeps the compiled code and checks each entry against its template's source, so an
edited template or override is compiled afresh. What the source does not cover is
in the folder's key: kb's and Jinja's versions and the environment's options (an
upgrade that changes them starts a new folder and sweeps the old ones).

The cache is only ever a shortcut: a folder that cannot be made or written, a
damaged entry, or a ``.kb/cache`` that leads outside the workspace means compiling
as if there were no cache, never a failed briefing.
"""
from __future__ import annotations

import hashlib
import logging
import shutil
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def bytecode_cache(workspace: Path | None, options: dict[str, Any]) -> Any:
    """A Jinja bytecode cache for ``workspace`` and these environment ``options``, or None."""
    if workspace is None:
        return None
    import jinja2

    from kb import __version__
    key = hashlib.sha256(repr((__version__, jinja2.__version__, sorted(options.items()))).encode()).hexdigest()
    cache = workspace / ".kb" / "cache"
    folder = cache / f"templates-{key[:12]}"
    try:
        fresh = not folder.is_dir()
        folder.mkdir(parents=True, exist_ok=True)
        if not folder.resolve().is_relative_to(workspace.resolve()):
            log.warning("%s leads outside the workspace: templates are not cached", cache)
            return None
    except OSError as exc:
        log.debug("no template cache (%s)", exc)
        return None
    if fresh:   # a new key: the folders of other kb or Jinja versions will not be read again
        for old in cache.glob("templates-*"):
            if old != folder:
                shutil.rmtree(old, ignore_errors=True)
    return _forgiving(jinja2.FileSystemBytecodeCache)(str(folder))


def _forgiving(base: type) -> type:
    class ForgivingBytecodeCache(base):
        """A cache miss instead of an error: unreadable, damaged or unwritable entries."""

        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception as exc:   # a damaged entry (cut short, garbage): compile instead
                log.debug("template cache entry unreadable (%s); compiling", exc)
                bucket.reset()

        def dump_bytecode(self, bucket: Any) -> None:
            try:
                super().dump_bytecode(bucket)
            except Exception as exc:   # another user's folder, a full disk: the briefing still renders
                log.debug("template cache not written (%s)", exc)
    return ForgivingBytecodeCache
