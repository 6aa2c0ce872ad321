"""Locate kb's shipped files (``templates/``, ``data/``) wherever kb is installed.

The repository keeps ``templates/`` and ``data/`` at its top level (the design card). A
wheel installs them as the package data of ``kb.templates`` and ``kb.data`` (pyproject's
``package-dir``), found with ``importlib.resources`` whatever the install scheme
(``--user``, a venv, a system prefix); a checkout or an editable install finds them
beside the ``kb`` package. A workspace may override a file by putting one at the same
relative path under ``<workspace>/.kb/overrides/``.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from kb.errors import KBError

_CHECKOUT = Path(__file__).resolve().parent.parent
_PACKAGES = {"templates": "kb.templates", "data": "kb.data"}


def _installed(folder: str) -> Path | None:
    """The folder of installed package data (``kb.templates``, ``kb.data``), if this kb has one."""
    try:
        root = resources.files(_PACKAGES[folder])
    except (ModuleNotFoundError, KeyError):
        return None
    # A data folder without __init__.py is a namespace package: its root is a MultiplexedPath,
    # not a path; the folder its files are in is.
    child = next(iter(root.iterdir()), None)
    return Path(str(child)).parent if child is not None else None


def resource_roots(relative: str, workspace: Path | None = None) -> list[Path]:
    """Where ``relative`` (``templates/…`` or ``data/…``) is looked for, most specific first."""
    folder = relative.split("/", 1)[0]
    roots = [workspace / ".kb" / "overrides" / folder] if workspace is not None else []
    installed = _installed(folder)
    if installed is not None:
        roots.append(installed)
    roots.append(_CHECKOUT / folder)
    return roots


def find_resource(relative: str, workspace: Path | None = None) -> Path:
    """Path of ``relative`` (e.g. ``templates/briefing.zh.md.j2``) in the first root that has it."""
    rest = relative.split("/", 1)[1]
    roots = resource_roots(relative, workspace)
    for root in roots:
        candidate = root / rest
        if candidate.is_file():
            return candidate
    raise KBError(f"kb's file {relative} is missing from this installation (looked in "
                  + ", ".join(str(r) for r in roots) + ")")


def read_resource(relative: str, workspace: Path | None = None) -> str:
    """The text of a resource (a workspace's override first), without a byte-order mark an editor put there."""
    return find_resource(relative, workspace).read_text(encoding="utf-8").removeprefix("\ufeff")


def read_toml_resource(relative: str, workspace: Path | None = None) -> tuple[Path, dict]:
    """``(path, table)`` of a TOML resource (a workspace's override first). An override that does not read
    is the workspace's configuration: a ConfigError naming the file (exit 2), never an internal error."""
    path = find_resource(relative, workspace)
    return path, read_toml_file(path)[1]


def read_toml_file(path: Path) -> tuple[str, dict]:
    """``(text, table)`` of a TOML file. One that is not UTF-8 or not TOML is a ConfigError (exit 2) saying
    ``file:line: …`` (``kb.errors``' helpers): never the decoder's traceback, never the file's contents. An
    editor's byte-order mark is no part of the TOML."""
    import tomllib

    from kb.errors import ConfigError, toml_error, utf8_error
    try:
        text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise utf8_error(path, e) from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise toml_error(path, e, text) from None
