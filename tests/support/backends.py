"""The two store backends the suites run on: the SQLite file, and a PostgreSQL database.

A test asks for ``backend`` (or a module for ``module_backend``) and runs once per backend, ids
``[sqlite]`` and ``[postgresql]``. On PostgreSQL each use gets a fresh, empty database of the
session's throwaway server (``tests.support.pg_server``); a workspace is pointed at it through
its kb.toml (``[store] url``), so kb processes started by the test use it too. When no server
can be started the PostgreSQL half skips, with one reason for all.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgresql")


@dataclass
class Backend:
    name: str
    url: str | None = None          # the PostgreSQL database; None on SQLite

    @property
    def is_pg(self) -> bool:
        return self.name == "postgresql"

    def use(self, ws: Path) -> Path:
        """Point the workspace ``ws`` at this backend's store (kb.toml's ``[store] url``)."""
        if self.url:
            cfg = ws / "kb.toml"
            cfg.write_text(cfg.read_text(encoding="utf-8") + f'\n[store]\nurl = "{self.url}"\n', encoding="utf-8")
        return ws

    def target(self, ws: Path) -> str | Path:
        """Where the workspace ``ws``'s store is on this backend."""
        return self.url or ws / ".kb" / "kb.sqlite"

    def open(self, ws: Path, **kw: Any):
        from kb.store import Store
        return Store.open(self.target(ws), **kw)


def make_backend(request: pytest.FixtureRequest, name: str) -> Backend:
    if name == "sqlite":
        return Backend("sqlite")
    server = request.getfixturevalue("pg_server")
    url = server.create_database()
    request.addfinalizer(lambda: server.drop_database(url))
    return Backend("postgresql", url)


# Columns that say what the file system looked like, not what was read: a file's stat changes with a copy
# (new inodes) and is kept only once the file has settled (pipeline.ingest.workspace.kept_key).
VOLATILE = {"workspace_files": ("stat_key",)}


def dump(store, *, skip: tuple[str, ...] = ("source_runs",)) -> dict[str, list[tuple]]:
    """Every row of every data table of an open store, sorted, less ``VOLATILE`` columns: what must come out
    the same."""
    from kb.store.db import TABLES
    from kb.store.rows import table
    out = {}
    for t in (t for t in TABLES if t not in skip):
        columns = ", ".join(c.name for c in table(t).columns if c.name not in VOLATILE[t]) if t in VOLATILE else "*"
        out[t] = sorted((tuple(r) for r in store.query(f"SELECT {columns} FROM {t}")), key=repr)
    return out
