"""The store: open it (check, migrate, tune) and hand out connections, on either backend.

The store is the SQLite file ``.kb/kb.sqlite`` (``kb.store.backend_sqlite``) or, when
``[store] url`` / ``KB_STORE_URL`` names one, a PostgreSQL database
(``kb.store.backend_pg``). Both are spoken to the same way: reads go through a plain DB-API
connection (``Store.query`` with ``?`` placeholders; psycopg directly on PostgreSQL) so that
query commands start fast and import no ORM; writes go through SQLAlchemy Core
(``Store.transaction()``), imported only when something is written. The few differences of
dialect stay in this package.
"""
from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import ReadOnlyStore, StoreError
from kb.store.migrations import MIGRATIONS

if TYPE_CHECKING:  # SQLAlchemy is imported lazily: read-only commands never pay for it
    from sqlalchemy.engine import Engine

    from kb.store.rows import Tx

TABLES = (
    "papers", "paper_versions", "paper_changes", "sightings", "posts", "post_versions", "sources", "source_runs",
    "workspace_files", "notes", "note_entries", "mentions", "cards", "queue_items", "queue_readings",
    "doc_versions", "doc_readings", "anchors", "anchor_dates", "tags", "classifications", "doc_relevance",
    "classify_queue", "flags", "briefings", "briefed_items", "id_checks",
)


def is_postgres_url(target: object) -> bool:
    """Does ``target`` name a PostgreSQL database (``postgresql://…``, ``postgres://…``)?"""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


class Store:
    """An open kb store. Use ``Store.open(path or URL)``; close it (or use ``with``)."""

    def __init__(self, path: Path | None, conn: Any, *, dialect: str = "sqlite", url: str | None = None,
                 readonly: bool = False, reader: Any = None, backend: Any = None) -> None:
        self.path = path                  # the SQLite file; None on PostgreSQL
        self._conn = conn                 # the DB-API read connection (``?`` placeholders on both backends)
        self.dialect = dialect            # "sqlite" or "postgresql"
        self.url = url                    # the PostgreSQL URL (its password never printed: ``where``)
        self.readonly = readonly
        self._reader = reader             # SQLite read-only file: checks reads against a writer appearing
        self._backend = backend           # PostgreSQL: connection details, locks
        self._engine: Engine | None = None

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    def open(cls, target: str | Path, *, create: bool = True, readonly: bool = False) -> Store:
        """Open the store at ``target`` (a SQLite file, or a PostgreSQL URL) and run pending migrations.

        ``readonly`` opens it for reading only: it works where the user may not write (a file
        or folder they can only read, a database role granted SELECT) and never writes.
        ``create`` lets a writer make a missing store (a new file, kb's tables in an empty database);
        a read-only open never makes one and raises ``NoStore``: the store would be the reader's, and
        on a shared workspace a reader's file (0644 under umask 0022) locks the team's writer out.
        """
        create = create and not readonly
        if is_postgres_url(target):
            from kb.store.backend_pg import open_postgres
            return open_postgres(cls, str(target), create=create, readonly=readonly)
        from kb.store import backend_sqlite as lite
        path = Path(target)
        if readonly:
            reader = lite.open_readonly(path)
            return cls(path, reader.conn, readonly=True, reader=reader)
        return cls(path, lite.open_writable(path, create_missing=create))

    @property
    def conn(self) -> Any:
        """The DB-API read connection (on PostgreSQL a facade taking ``?`` placeholders, like sqlite3's)."""
        return self._reader.conn if self._reader is not None else self._conn

    @property
    def where(self) -> str:
        """The store as a user should read it: the file's path, or the URL without its password."""
        if self._backend is not None:
            return self._backend.display
        return str(self.path)

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None
        if self._reader is not None:
            self._reader.close()
        else:
            self.conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ writes
    def _writable(self) -> None:
        if self.readonly:
            raise ReadOnlyStore(f"the store {self.where} was opened read-only; this command writes to it")

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._writable()
            if self._backend is not None:
                self._engine = self._backend.make_engine()
            else:
                from kb.store.backend_sqlite import make_engine
                self._engine = make_engine(self.path)
        return self._engine

    def prepare_writes(self) -> None:
        """Load what writing needs (SQLAlchemy, the engine, the tables' SQLModel classes: ~0.4 s in a new
        process) before the first transaction, so that it can happen while other work does."""
        from kb.store.rows import table
        table("papers")
        self.engine  # noqa: B018  (built on first use)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One atomic write batch: everything in the block commits or nothing does.

        Writers run one at a time on either backend (SQLite's BEGIN IMMEDIATE, an advisory lock on
        PostgreSQL), so what a transaction reads is still true when it writes; readers never wait.
        """
        from sqlalchemy.exc import DBAPIError

        from kb.store.rows import Tx
        try:
            with self.engine.begin() as connection:
                yield Tx(connection)
        except DBAPIError as exc:  # disk full, read-only file, constraint, corrupt page: all the store's
            raise self._write_error(exc.orig) from exc

    def _write_error(self, exc: BaseException) -> StoreError:
        if self._backend is not None:
            return self._backend.write_error(exc)
        return StoreError(f"write to {self.where} failed: {exc}")

    # ------------------------------------------------------------------ reads
    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Run a read query (``?`` placeholders); rows behave like tuples and dicts."""
        if self._backend is not None:
            return self._backend.query(sql, params)
        if self._reader is not None:
            return self._reader.run(lambda conn: _sqlite_rows(conn, sql, params))
        return _sqlite_rows(self.conn, sql, params)

    def write_one(self, sql: str, params: tuple[Any, ...] = ()) -> None:
        """One small autocommitted write on the DB-API connection (ledger rows, bookkeeping)."""
        self._writable()
        if self._backend is not None:
            self._backend.write_one(sql, params)
            return
        try:
            self.conn.execute(sql, params)
        except sqlite3.OperationalError as exc:
            raise StoreError(f"write to {self.where} failed: {exc}") from exc

    def exclusive(self, what: str, *, wait: float = 0.0, **kw: Any) -> contextlib.AbstractContextManager[dict]:
        """The database-wide lock of ``what`` (the nightly's, on PostgreSQL: an advisory lock, exit 75
        when another holds it); SQLite's lock is a file beside the store (``pipeline.lock``)."""
        return self._backend.exclusive(what, wait=wait, **kw)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Reads inside the block see one moment of the store, whatever is written meanwhile (a copy
        made during a nightly is a consistent one)."""
        if self._backend is not None:
            with self._backend.snapshot():
                yield
            return
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.conn.execute("COMMIT")

    def stream(self, sql: str) -> Iterator[Any]:
        """The rows of ``sql`` as they are read, never all in memory (inside ``snapshot()`` on PostgreSQL)."""
        if self._backend is not None:
            return self._backend.conn.stream(sql)
        return iter(self.conn.execute(sql))

    def schema_version(self) -> list[str]:
        if self._backend is not None:
            return self._backend.migrations()
        if self._reader is not None:
            return self._reader.migrations()
        from kb.store.backend_sqlite import applied_migrations
        return applied_migrations(self.conn)

    def counts(self) -> dict[str, int]:
        """Row count of every table (for ``kb db status``)."""
        return {t: self.query(f"SELECT count(*) FROM {t}")[0][0] for t in TABLES}

    def columns(self, table: str) -> list[str]:
        """The columns of ``table`` as the migrations made them, in order."""
        if self._backend is not None:
            return self._backend.columns(table)
        from kb.store.backend_sqlite import columns
        return columns(self.conn, table)

    def check(self) -> list[str]:
        """The backend's own check of the store: ``["ok"]`` or what is wrong."""
        if self._backend is not None:
            return self._backend.check()
        from kb.store.backend_sqlite import damage_of
        try:
            found = [r[0] for r in self.query("PRAGMA integrity_check")]
        except Exception as exc:   # a page so damaged that the check itself stops: that is its finding
            if (why := damage_of(exc)) is None:
                raise
            return [f"the store {self.where} is damaged: {why}", *self._damaged_tables()]
        return found if found != ["ok"] else self._search_index_check()

    def _search_index_check(self) -> list[str]:
        """FTS5's own check of the search index, which ``PRAGMA integrity_check`` does not look inside:
        ``["ok"]``, or the damage and the way to rebuild it (the index is made from the store's rows).
        A connection that may not write cannot run it (FTS5 asks for it as an INSERT): not checked."""
        from kb.store.backend_sqlite import damage_of
        try:
            self.query("INSERT INTO search_index(search_index) VALUES('integrity-check')")
        except sqlite3.OperationalError:   # a read-only store
            return ["ok"]
        except Exception as exc:
            if (why := damage_of(exc)) is None:
                raise
            return [f"the store {self.where}'s search index is damaged: {why}; rebuild it from the store's rows: "
                    f"sqlite3 '{self.path}' \"INSERT INTO search_index(search_index) VALUES('rebuild')\""]
        return ["ok"]

    def _damaged_tables(self) -> list[str]:
        """SQLite's check table by table, once the whole check stopped at a damaged page: one line naming
        the tables it cannot read, then what it finds wrong in the others (nothing when the schema is gone)."""
        from kb.store.backend_sqlite import damage_of

        def rows(sql: str) -> list[str] | None:
            try:
                return [r[0] for r in self.query(sql)]
            except Exception as exc:
                if damage_of(exc) is None:
                    raise
                return None
        unreadable: list[str] = []
        wrong: list[str] = []
        for name in rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") or ():
            found = rows('PRAGMA integrity_check("{}")'.format(name.replace('"', '""')))
            if found is None:
                unreadable.append(name)
            else:
                wrong += [f"table {name}: {line}" for line in found if line != "ok"]
        return ([f"tables SQLite cannot read: {', '.join(unreadable)}"] if unreadable else []) + wrong

    def backup(self, dest: Path) -> list[str]:
        """A consistent copy of the store at ``dest`` while it is in use (SQLite's online backup); what
        SQLite finds wrong in the copy (nothing for a sound store)."""
        if self._backend is not None:
            raise StoreError("kb db backup copies a SQLite store; for PostgreSQL use pg_dump, or "
                             "`kb db copy --to FILE.sqlite` (docs/team.md)")
        from kb.store.backend_sqlite import backup
        return backup(self.conn, dest)

    def status(self) -> dict[str, Any]:
        """Schema version and per-table row counts (``kb db status``)."""
        applied = self.schema_version()
        return {"path": self.where, "backend": self.dialect, "schema_version": applied[-1] if applied else None,
                "migrations": applied, "counts": self.counts()}


def _sqlite_rows(conn: Any, sql: str, params: tuple[Any, ...]) -> list[Any]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, params).fetchall()


def latest_schema() -> str:
    """The name of the newest migration this kb knows."""
    return MIGRATIONS[-1].name
