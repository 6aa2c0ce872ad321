"""The SQLite store: open (check, migrate, tune) and hand out connections.

Reads go through a plain DB-API connection (``Store.conn``) so that query
commands start fast and their SQL stays portable; writes go through SQLAlchemy
Core (``Store.transaction()``), imported only when something is written. Both sit
on one file in WAL mode. Every SQLite-specific statement lives in this package.
"""
from __future__ import annotations

import contextlib
import logging
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import StoreError
from kb.store.migrations import MIGRATIONS, applied_migrations, migrate

if TYPE_CHECKING:  # SQLAlchemy is imported lazily: read-only commands never pay for it
    from sqlalchemy.engine import Connection, Engine

    from kb.store.rows import Tx

log = logging.getLogger(__name__)

_SQLITE_MAGIC = b"SQLite format 3\x00"
TABLES = (
    "papers", "paper_versions", "paper_changes", "sightings", "posts", "sources", "source_runs",
    "workspace_files", "notes", "note_entries", "mentions", "cards", "queue_items",
    "doc_versions", "anchors", "tags", "classifications", "doc_relevance", "classify_queue", "flags", "briefings",
    "briefed_items", "id_checks",
)


_RESTORE = "restore it from a backup (kb db backup makes one) or move it away to start a new store"


def _check_is_sqlite(path: Path) -> None:
    """Refuse a file that exists but is not a whole SQLite database, before SQLite touches it:
    a store is never silently replaced (an empty or cut-short file is history lost, not a new store)."""
    if path.parent.exists() and not path.parent.is_dir():
        raise StoreError(f"{path.parent} is not a folder; kb keeps its store {path.name} there")
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a SQLite database; refusing to use it")
    if not path.exists():
        return
    try:
        size = path.stat().st_size
        with path.open("rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {exc.strerror}") from exc
    if size == 0:
        raise StoreError(f"{path} is empty (0 bytes), not a kb store", hint=_RESTORE)
    if head[:16] != _SQLITE_MAGIC:
        raise StoreError(f"{path} is not a SQLite database; refusing to open or overwrite it")
    if len(head) == 100 and size < _header_size(head) and not _wal_holds_pages(path):
        raise StoreError(f"{path} is cut short ({size:,} of {_header_size(head):,} bytes)", hint=_RESTORE)


def _header_size(head: bytes) -> int:
    """The database size the file header records (page size × page count), when the count is valid."""
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    pages, counter, valid_for = (int.from_bytes(head[i:i + 4], "big") for i in (28, 24, 92))
    return page * pages if counter == valid_for else 0


def _wal_holds_pages(path: Path) -> bool:
    wal = path.with_name(path.name + "-wal")
    return wal.exists() and wal.stat().st_size > 0


def _create(path: Path) -> None:
    """Make a new store under a temporary name and link it into place: ``kb.sqlite`` is never an
    empty file on its way to being a store, so an empty one can be refused as damage. Of two
    processes creating the same store, the first link wins and the other opens it."""
    import os
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        tmp.unlink(missing_ok=True)
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            migrate(conn)
        finally:
            conn.close()
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the store {path}: {exc.strerror}") from exc
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot create the store {path}: {exc}") from exc


def _tune(conn: sqlite3.Connection) -> None:
    conn.execute("PRAGMA busy_timeout = 10000")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")


def _use_wal(conn: sqlite3.Connection, wait: float = 10.0) -> None:
    """Switch to WAL. The switch needs the file to itself and SQLite does not wait for that
    (busy_timeout does not apply): when another process is creating the same fresh store,
    try again for a while instead of failing with "database is locked"."""
    deadline = time.monotonic() + wait
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Store:
    """An open kb store. Use ``Store.open(path)``; close it (or use ``with``)."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn
        self._engine: Engine | None = None

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, path: str | Path, *, create: bool = True) -> Store:
        """Open (creating if allowed) the store at ``path`` and run pending migrations."""
        path = Path(path)
        _check_is_sqlite(path)
        if not path.exists():
            if not create:
                raise StoreError(f"no store at {path}; run `kb ingest …` or `kb init` first")
            _create(path)
        try:
            conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            _tune(conn)
            _use_wal(conn)
            applied = migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open store {path}: {exc}") from exc
        if applied:
            log.info("store %s: applied migrations %s", path, ", ".join(applied))
        return cls(path, conn)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writes
    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._engine = _make_engine(self.path)
        return self._engine

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One atomic write batch: everything in the block commits or nothing does."""
        from sqlalchemy.exc import DBAPIError

        from kb.store.rows import Tx
        try:
            with self.engine.begin() as connection:
                yield Tx(connection)
        except DBAPIError as exc:  # disk full, read-only file, constraint, corrupt page: all the store's
            raise StoreError(f"write to {self.path} failed: {exc.orig}") from exc

    # ------------------------------------------------------------------ reads
    def query(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """Run a read query on the DB-API connection; rows behave like tuples and dicts."""
        cur = self.conn.cursor()
        cur.row_factory = sqlite3.Row
        return cur.execute(sql, params).fetchall()

    def write_one(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """One small autocommitted write on the DB-API connection (ledger rows, bookkeeping)."""
        try:
            self.conn.execute(sql, params)
        except sqlite3.OperationalError as exc:
            raise StoreError(f"write to {self.path} failed: {exc}") from exc

    def schema_version(self) -> list[str]:
        return applied_migrations(self.conn)

    def counts(self) -> dict[str, int]:
        """Row count of every table (for ``kb db status``)."""
        return {t: self.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}

    def check(self) -> list[str]:
        """SQLite's integrity check: ``["ok"]`` or what is wrong."""
        return [r[0] for r in self.conn.execute("PRAGMA integrity_check")]

    def backup(self, dest: Path) -> None:
        """A consistent copy of the store at ``dest`` while it is in use (SQLite's online backup)."""
        if dest.exists():
            raise StoreError(f"{dest} exists; kb db backup writes a new file")
        try:
            target = sqlite3.connect(dest)
            with target:
                self.conn.backup(target)
            target.close()
        except sqlite3.Error as exc:
            dest.unlink(missing_ok=True)
            raise StoreError(f"backup to {dest} failed: {exc}") from exc

    def status(self) -> dict[str, Any]:
        """Schema version and per-table row counts (``kb db status``)."""
        applied = self.schema_version()
        return {"path": str(self.path), "schema_version": applied[-1] if applied else None,
                "migrations": applied, "counts": self.counts()}


def _make_engine(path: Path) -> Engine:
    from sqlalchemy import create_engine, event

    engine = create_engine(f"sqlite:///{path}")

    # pysqlite opens transactions lazily and never for DDL; take control so that
    # engine.begin() really is BEGIN … COMMIT around the whole batch.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.isolation_level = None
        _tune(dbapi_conn)

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def latest_schema() -> str:
    """The name of the newest migration this kb knows."""
    return MIGRATIONS[-1].name
