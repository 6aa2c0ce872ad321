"""The PostgreSQL backend: a team's store on a database server.

Reads go through psycopg directly, on an autocommit connection spoken to like sqlite3's
(``PgConnection``: ``?`` placeholders, rows by index and by name), so a query command pays
for psycopg and nothing else. Writes go through SQLAlchemy Core (``postgresql+psycopg``); every
write transaction first takes a transaction-scoped advisory lock, so kb's writers run one at a
time as they do on SQLite (whatever a transaction reads is still true when it writes: a flag
resolved or an anchor added from another machine during a nightly is neither lost nor
overwritten), while readers never wait (MVCC). The nightly holds a session advisory lock instead
of the lock file. Migrations run under their own advisory lock, each in a transaction.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
import socket
import time
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from kb.errors import ConfigError, LockedError, NoStore, ReadOnlyStore, StoreError, StoreUnreachable
from kb.store.migrations import ID_TABLES, LEDGER, MIGRATIONS, Migration, pending, readable_without, statements_for
from kb.store.pg_urls import redact, scrub, sqlalchemy_url

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

# Advisory lock keys: (KEY, what). KEY is "kb" in ASCII, so other applications' locks on a shared
# database are not mistaken for kb's.
KEY = 0x6B62
NIGHTLY, WRITE, MIGRATE = 1, 2, 3
WRITE_WAIT_S = 120      # a writer waits this long for another one to finish (SQLite's busy_timeout: 10 s)
READ_COMMANDS = "show, search, query, flags, audit, explain, label, sources status and db status work without it"


def _cleanup_noise_to_run_log(record: logging.LogRecord) -> bool:
    """psycopg logs a WARNING for an error it ignored while cleaning up after another one (the pipeline or
    rollback of a connection that died): kb raises that other one as its one line, so this goes to the run
    log only (the ``console`` mark of ``pipeline.context.RUN_LOG_ONLY``, which ``kb.cli`` reads)."""
    if str(record.msg).startswith("error ignored"):
        record.console = False
    return True


logging.getLogger("psycopg").addFilter(_cleanup_noise_to_run_log)
log = logging.getLogger(__name__)


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError:
        raise StoreError("the store is a PostgreSQL database, and psycopg is not installed: "
                         "pip install 'kb[postgres]' (or psycopg[binary])") from None
    return psycopg


# The SQLSTATEs of a server going away: class 08 (connection exception) and the shutdowns of class 57.
# OperationalError alone is too wide: a lock timeout, a cancelled query or a full disk are one statement's.
_SERVER_GONE = ("57P01", "57P02", "57P03")


def connection_lost(exc: BaseException) -> bool:
    """Is ``exc`` the loss of the connection (the server stopped or crashed, the network dropped), which
    every later statement would meet too, rather than the failure of one statement?"""
    psycopg = _psycopg()
    if not isinstance(exc, psycopg.OperationalError):
        return False
    state = exc.sqlstate   # None: psycopg's own ("server closed the connection", "the connection is closed")
    return state is None or state.startswith("08") or state in _SERVER_GONE


# ---------------------------------------------------------------------------- reads like sqlite3
@lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """kb's SQL for psycopg: ``?`` placeholders become ``%s``, a literal ``%`` becomes ``%%``
    (quoted strings in the SQL are left as they are)."""
    parts = re.split(r"('(?:[^']|'')*')", sql)
    return "".join(p if i % 2 else p.replace("%", "%%").replace("?", "%s") for i, p in enumerate(parts))


# A sequence is not rolled back with its transaction: the ids a failed or killed writer took would
# be skipped, and the store's numbers (a flag's, shown to the team) would differ from a SQLite
# store's after the same nights. Under the write lock, each write transaction starts from
# max(id) + 1, as SQLite numbers its rows. Not source_runs: its rows are written outside these
# transactions (the run's ledger row, whatever became of the run), so its sequence only moves on.
NEXT_IDS = "SELECT " + ", ".join(
    f"setval(pg_get_serial_sequence('{t}', 'id'), coalesce((SELECT max(id) FROM {t}), 0) + 1, false)"
    for t in ID_TABLES if t != "source_runs")


def try_write_lock() -> str:
    """The write lock if no other writer holds it (true), else false at once: ``begin_write`` then waits."""
    return f"SELECT pg_try_advisory_xact_lock({KEY}, {WRITE})"


def after_write_lock() -> str:
    """What a write transaction runs once it holds the lock: its lock timeout, then the id sequences, in a
    statement of their own (one that took the lock read max(id) in a snapshot from before another writer's
    commit, and numbered a row twice)."""
    return f"SET LOCAL lock_timeout = '{WRITE_WAIT_S}s'; {NEXT_IDS}"


def begin_write() -> str:
    """What a write transaction runs when another writer holds the lock: its lock timeout, the write lock
    (waited for), then the id sequences."""
    return f"SET LOCAL lock_timeout = '{WRITE_WAIT_S}s'; SELECT pg_advisory_xact_lock({KEY}, {WRITE}); {NEXT_IDS}"


class Row(tuple):
    """A result row like ``sqlite3.Row``: a tuple that also answers ``row["column"]`` and ``keys()``."""

    __slots__ = ()
    _index: dict[str, int] = {}

    def __getitem__(self, key: Any) -> Any:
        return tuple.__getitem__(self, self._index[key] if isinstance(key, str) else key)

    def keys(self) -> list[str]:
        return list(self._index)


@lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> type[Row]:
    return type("Row", (Row,), {"__slots__": (), "_index": {n: i for i, n in enumerate(names)}})


def _row_factory(cursor: Any) -> Callable[[Sequence[Any]], Any]:
    if cursor.description is None:
        return tuple
    return _row_class(tuple(c.name for c in cursor.description))


class PgConnection:
    """The read connection, spoken to like a sqlite3 connection (``execute``, ``executemany``)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        cur = self.raw.cursor()
        cur.execute(translate(sql), tuple(params))
        return cur

    def executemany(self, sql: str, seq: Sequence[Sequence[Any]]) -> Any:
        cur = self.raw.cursor()
        rows = [tuple(p) for p in seq]
        if rows:
            cur.executemany(translate(sql), rows)
        return cur

    def stream(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Any]:
        """Rows of ``sql`` fetched as they are read (a server-side cursor, inside a transaction)."""
        with self.raw.cursor(name=f"kb_stream_{id(sql)}") as cur:
            cur.itersize = 2000
            cur.execute(translate(sql), tuple(params))
            yield from cur

    def close(self) -> None:
        self.raw.close()


def connect(url: str, *, autocommit: bool = True) -> Any:
    """A psycopg connection to ``url``: JIT off (it cost 300 ms on kb's bm25 query for nothing), kb's name."""
    psycopg = _psycopg()
    from psycopg.conninfo import conninfo_to_dict
    try:
        info = conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:   # the configuration's to mend, as a URL of another scheme is
        raise ConfigError(f"store URL {redact(url)}: {scrub(str(exc).splitlines()[0], url)}") from None
    kwargs = {"options": (str(info.get("options", "")) + " -c jit=off").strip(),
              "application_name": info.get("application_name") or "kb",
              "connect_timeout": info.get("connect_timeout") or 10}
    try:
        return psycopg.connect(url, autocommit=autocommit, cursor_factory=psycopg.ClientCursor,
                               row_factory=_row_factory, **kwargs)
    except psycopg.Error as exc:
        reason = scrub(" ".join(str(exc).split()), url) or type(exc).__name__
        raise StoreError(f"cannot connect to the store {redact(url)}: {reason}") from None


class PgBackend:
    """What the Store needs from PostgreSQL: reads, autocommitted bookkeeping, the write engine, locks."""

    def __init__(self, url: str, raw: Any) -> None:
        self.url = url
        self.display = redact(url)
        self.raw = raw
        self.conn = PgConnection(raw)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except _psycopg().Error as exc:
            raise self.error("read from", exc) from exc

    def write_one(self, sql: str, params: Sequence[Any] = ()) -> None:
        try:
            self.conn.execute(sql, params)
        except _psycopg().Error as exc:
            raise self.write_error(exc) from exc

    def error(self, what: str, exc: BaseException) -> StoreError:
        """A failed read or write in one line; a lost connection is told apart (the run cannot go on)."""
        if connection_lost(exc):
            return self.unreachable(exc)
        return StoreError(f"{what} {self.display} failed: {' '.join(str(exc).split())}")

    def unreachable(self, exc: BaseException) -> StoreUnreachable:
        """The store named as unreachable, with the driver's first line (libpq adds a guess on the next)."""
        said = str(exc).strip().splitlines()
        reason = scrub(" ".join(said[0].split()), self.url) if said else type(exc).__name__
        return StoreUnreachable(f"the store {self.display} is unreachable: {reason}")

    def write_error(self, exc: BaseException) -> StoreError:
        """A failed write in one line; a role that may only read is told so."""
        errors = _psycopg().errors
        if isinstance(exc, (errors.InsufficientPrivilege, errors.ReadOnlySqlTransaction)):
            return ReadOnlyStore(f"this command writes to the store {self.display}, which this role can only "
                                 f"read ({str(exc).splitlines()[0]}); {READ_COMMANDS}")
        if isinstance(exc, errors.LockNotAvailable):
            return StoreError(f"the store {self.display} is busy: another kb command has been writing for "
                              f"{WRITE_WAIT_S} s; try again")
        return self.error("write to", exc)

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        with self.raw.transaction():
            self.raw.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield

    def migrations(self) -> list[str]:
        if self.query("SELECT to_regclass('migrations')")[0][0] is None:
            return []
        return [r[0] for r in self.query("SELECT name FROM migrations ORDER BY name")]

    def columns(self, table: str) -> list[str]:
        return [r[0] for r in self.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = ? ORDER BY ordinal_position", (table,))]

    def can_write(self) -> str | None:
        """Why this role cannot write kb's tables, or None when it can."""
        # A standby, or a database set default_transaction_read_only: every privilege, and no write
        # succeeds (without this, a write command ran, logged its failed ledger row and said "ok").
        if self.query("SELECT current_setting('transaction_read_only')")[0][0] == "on":
            return "the database is read-only: transaction_read_only is on"
        rows = self.query("SELECT c.relname FROM pg_class c WHERE c.relkind = 'r' AND c.relnamespace = "
                          "current_schema()::regnamespace AND c.relname IN ('papers', 'flags', 'anchors', "
                          "'source_runs', 'briefings') AND NOT has_table_privilege(c.oid, 'INSERT, UPDATE, DELETE')")
        return f"no INSERT, UPDATE or DELETE on {', '.join(sorted(r[0] for r in rows))}" if rows else None

    def check(self) -> list[str]:
        """The search index against the tables it indexes, and bm25's totals against the index."""
        problems = []
        for kind, table in (("paper", "papers"), ("post", "posts"), ("entry", "note_entries")):
            rows, docs = self.query(f"SELECT (SELECT count(*) FROM {table}), "
                                    "(SELECT count(*) FROM search_index WHERE kind = ?)", (kind,))[0]
            if rows != docs:
                problems.append(f"search index: {docs} {kind} documents for {rows} rows of {table}")
        n, tok, real_n, real_tok = self.query(
            "SELECT (SELECT coalesce(sum(ndocs), 0)::bigint FROM search_stats), (SELECT coalesce(sum(ntok), 0)"
            "::bigint FROM search_stats), count(*), coalesce(sum(ntok), 0)::bigint FROM search_index")[0]
        if (n, tok) != (real_n, real_tok):
            problems.append(f"search totals: {n} documents / {tok} tokens recorded, {real_n} / {real_tok} indexed")
        return problems or ["ok"]

    def make_engine(self) -> Engine:
        from sqlalchemy import create_engine, event
        engine = create_engine(sqlalchemy_url(self.url), connect_args={
            "options": "-c jit=off", "application_name": "kb", "connect_timeout": 10})

        # One writer at a time, as on SQLite (BEGIN IMMEDIATE): the lock is the transaction's own,
        # released by its COMMIT or ROLLBACK, or by the server when the connection goes.
        # The lock is tried first (free, the sequences follow in a statement of their own); taken, one line says kb
        # waits, and three statements go as one message (no parameters: the simple protocol runs them in order).
        @event.listens_for(engine, "begin")
        def _on_begin(conn: Any) -> None:
            if conn.exec_driver_sql(try_write_lock()).scalar():
                conn.exec_driver_sql(after_write_lock())
                return
            # a member's `kb label` during the nightly's write waited up to WRITE_WAIT_S without a word
            log.warning("waiting for another kb command writing to the store %s (up to %s s)",
                        self.display, WRITE_WAIT_S)
            conn.exec_driver_sql(begin_write())

        return engine

    @contextlib.contextmanager
    def exclusive(self, what: str, *, wait: float = 0.0, sleep: Callable[[float], None] = time.sleep,
                  clock: Callable[[], float] = time.monotonic) -> Iterator[dict]:
        """Hold the database's ``what`` lock (the nightly's) for the block: a session advisory lock,
        released when the run ends or its connection dies; LockedError (exit 75) after ``wait`` s."""
        deadline = clock() + wait
        label = f"{what}: pid {os.getpid()} on {socket.gethostname()[:24]}, since {time.strftime('%H:%M:%S')}"
        # The lock and the holder's name in one statement: another process that finds the lock taken
        # reads who holds it, never the bare connection name of a holder still naming itself.
        while not self.query("SELECT CASE WHEN pg_try_advisory_lock(?, ?) THEN set_config('application_name', ?, "
                             "false) IS NOT NULL ELSE false END", (KEY, NIGHTLY, label[:63]))[0][0]:
            if clock() >= deadline:
                raise LockedError(f"{self.display} is locked by another {what} ({self._holder(sleep)}); "
                                  f"gave up after {wait:g} s")
            sleep(min(0.2, max(0.0, deadline - clock())))
        try:
            yield {}
        finally:
            with contextlib.suppress(Exception):   # a dead connection has released it already
                self.query("SELECT pg_advisory_unlock(?, ?), set_config('application_name', 'kb', false)",
                           (KEY, NIGHTLY))

    def _holder(self, sleep: Callable[[float], None] = time.sleep) -> str:
        """Who holds the nightly's lock, as it names itself (a moment's wait while it has not yet)."""
        for _ in range(5):
            rows = self.query("SELECT a.application_name, a.client_addr FROM pg_locks l JOIN pg_stat_activity a "
                              "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid = ? AND l.objid = ? "
                              "AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = "
                              "current_database())", (KEY, NIGHTLY))
            if rows and rows[0][0] != "kb":
                break
            sleep(0.1)
        if not rows:
            return "holder unknown"
        name, addr = rows[0]
        name = (name or "").split(": ", 1)[-1] or "holder unknown"
        return name + (f", from {addr}" if addr and not str(addr).startswith(("127.", "::1")) else "")

    def close(self) -> None:
        self.raw.close()


# ---------------------------------------------------------------------------- migrations
def migrate(backend: PgBackend, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; return the names applied.
    Several processes opening a new database at once wait for each other (an advisory lock)."""
    raw = backend.raw
    raw.execute("SELECT pg_advisory_lock(%s, %s)", (KEY, MIGRATE))
    owner = _owner_to_become(raw)
    try:
        if owner is not None:
            raw.execute(f"SET ROLE {owner}")
        raw.execute(LEDGER["postgresql"])
        todo = set(pending(backend.migrations(), migrations))
        applied = []
        for m in migrations:
            if m.name not in todo:
                continue
            with raw.transaction():
                for sql in statements_for(m, "postgresql"):
                    raw.execute(sql)
                if m.then is not None and not m.sqlite_only:
                    m.then(backend.conn)
                raw.execute("INSERT INTO migrations (name) VALUES (%s)", (m.name,))
            applied.append(m.name)
        return applied
    finally:
        if owner is not None:
            raw.execute("RESET ROLE")
        raw.execute("SELECT pg_advisory_unlock(%s, %s)", (KEY, MIGRATE))


def _owner_to_become(raw: Any) -> str | None:
    """The database owner's role, quoted, when this login is a member of it but not it (``alice`` in
    ``kb_writer``): kb's tables are then made as the owner, so they belong to the team's writer role
    and its default privileges reach the readers. Made as the member, they would be the member's
    alone, and every other writer and reader would be locked out."""
    row = raw.execute("SELECT pg_get_userbyid(d.datdba), current_user, pg_has_role(current_user, d.datdba, 'MEMBER') "
                      "FROM pg_database d WHERE d.datname = current_database()").fetchone()
    if row is None or row[0] == row[1] or not row[2]:
        return None
    return '"' + str(row[0]).replace('"', '""') + '"'


def open_postgres(store_cls: Any, url: str, *, create: bool, readonly: bool) -> Any:
    """The store in the database ``url``: migrated (a new database gets kb's tables when this role
    may create them), checked for write access unless ``readonly``."""
    psycopg = _psycopg()
    backend = PgBackend(url, connect(url))
    try:
        encoding = backend.raw.execute("SHOW server_encoding").fetchone()[0]
        if str(encoding).upper() not in ("UTF8", "UTF-8"):
            raise StoreError(f"the database {backend.display} is encoded {encoding}, and kb's store needs UTF8 "
                             "(create it with ENCODING 'UTF8' TEMPLATE template0, as docs/team.md does)")
        done = backend.migrations()
        todo = pending(done)
        if todo and not done and not create:
            raise NoStore(f"no kb store in {backend.display} yet; run `kb nightly` to make it, or fill it "
                          "with `kb db copy --to URL` from a SQLite store")
        if todo:
            try:
                migrate(backend)
            except psycopg.errors.InsufficientPrivilege:
                if not done:   # an empty database: not the list of every migration kb has
                    raise ReadOnlyStore(f"no kb store in {backend.display} yet, and this role may not create kb's "
                                        "tables; run `kb nightly` once as the writer role") from None
                if not (readonly and readable_without(todo)):   # else read as it is; the writer applies them
                    raise ReadOnlyStore(f"the store {backend.display} needs migration {', '.join(todo)}, and this "
                                        "role may not make it; run `kb nightly` once as the writer role") from None
            except psycopg.Error as exc:
                raise backend.error("migrating", exc) from exc
        if not readonly and (why := backend.can_write()):
            raise ReadOnlyStore(f"this command writes to the store {backend.display}, which this role can only "
                                f"read ({why}); {READ_COMMANDS}")
    except BaseException:
        backend.close()
        raise
    return store_cls(None, backend.conn, dialect="postgresql", url=url, readonly=readonly, backend=backend)
