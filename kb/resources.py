"""Locate kb's shipped files (templates/, data/) from a checkout or an installed copy.

The design keeps ``templates/`` and ``data/`` at the top level of the repository.
An editable install or a checkout finds them beside the ``kb`` package; a wheel
installs them under ``<prefix>/share/kb/`` (see pyproject's data-files). A
workspace may override a file by putting one at the same relative path under
``<workspace>/.kb/overrides/``.
"""
from __future__ import annotations

import sys
from pathlib import Path

from kb.errors import KBError

_CHECKOUT = Path(__file__).resolve().parent.parent


def resource_roots(workspace: Path | None = None) -> list[Path]:
    """Folders searched for a shipped file, most specific first."""
    roots = []
    if workspace is not None:
        roots.append(workspace / ".kb" / "overrides")
    roots += [_CHECKOUT, Path(sys.prefix) / "share" / "kb"]
    return roots


def find_resource(relative: str, workspace: Path | None = None) -> Path:
    """Path of ``relative`` (e.g. ``templates/briefing.zh.md.j2``) in the first root that has it."""
    for root in resource_roots(workspace):
        candidate = root / relative
        if candidate.is_file():
            return candidate
    raise KBError(f"kb's file {relative} is missing from this installation (looked in "
                  + ", ".join(str(r) for r in resource_roots(workspace)) + ")")


def read_resource(relative: str, workspace: Path | None = None) -> str:
    return find_resource(relative, workspace).read_text(encoding="utf-8")
