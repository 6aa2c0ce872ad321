"""The SQLite backend: the file ``.kb/kb.sqlite`` in WAL mode.

Opening checks that an existing file is a whole SQLite database (a store is never silently
replaced), creates a new one under a temporary name and links it into place, and runs the
pending migrations. A store can be opened read-only (``mode=ro``), which works on a workspace
the user cannot write; when the folder does not even allow SQLite its ``-shm`` file, the
file is read as ``immutable`` and every read is checked against a writer appearing meanwhile.
"""
from __future__ import annotations

import errno
import logging
import os
import sqlite3
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from kb.errors import ConfigError, NoStore, ReadOnlyStore, StoreError
from kb.fsutil import pid_alive, sync_folder
from kb.store.migrations import LEDGER, MIGRATIONS, Migration, pending, readable_without, statements_for

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

log = logging.getLogger(__name__)

_SQLITE_MAGIC = b"SQLite format 3\x00"
_RESTORE = "restore it from a backup (kb db backup makes one) or move it away to start a new store"
READ_COMMANDS = "show, search, query, flags, audit, explain, label, sources status and db status work without it"


def check_is_sqlite(path: Path) -> None:
    """Refuse a file that exists but is not a whole SQLite database, before SQLite touches it:
    a store is never silently replaced (an empty or cut-short file is history lost, not a new store)."""
    if path.parent.exists() and not path.parent.is_dir():
        raise StoreError(f"{path.parent} is not a folder; kb keeps its store {path.name} there")
    if path.is_dir():
        raise StoreError(f"{path} is a folder, not a SQLite database; refusing to use it")
    if not path.exists():
        return
    if not path.is_file():   # a FIFO or device: opening it to read the header would wait, or read no store
        raise StoreError(f"{path} is not a plain file, not a SQLite database; refusing to use it")
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
    if len(head) == 100 and _page_size(head) is None:   # the size it records would be junk too
        raise StoreError(f"{path} is damaged: its header gives no valid page size "
                         f"({int.from_bytes(head[16:18], 'big')})", hint=_RESTORE)
    if len(head) == 100 and size < _header_size(head) and not _wal_holds_pages(path):
        raise StoreError(f"{path} is cut short ({size:,} of {_header_size(head):,} bytes)", hint=_RESTORE)


_DAMAGED = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def damage_of(exc: BaseException | None) -> str | None:
    """What SQLite said of a damaged store file (a corrupt page, a page that is no database's), found in
    ``exc`` or the errors it wraps (SQLAlchemy keeps the driver's in ``orig``); None for anything else."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        # the extended codes too: damage inside the search index is SQLITE_CORRUPT_VTAB
        if str(getattr(exc, "sqlite_errorname", None)).startswith(_DAMAGED):
            return str(exc)
        exc = getattr(exc, "orig", None) or exc.__cause__ or exc.__context__
    return None


def damaged_store(why: str) -> StoreError:
    """The one line for a store SQLite finds damaged while a command reads it."""
    return StoreError(f"the store is damaged ({why}); `kb db check` shows what SQLite finds", hint=_RESTORE)


def _page_size(head: bytes) -> int | None:
    """The page size the file header records; None when it is none SQLite writes (a power of two from
    512 to 65536, the last stored as 1): the header is damaged."""
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    return page if 512 <= page <= 65536 and page & (page - 1) == 0 else None


def _header_size(head: bytes) -> int:
    """The database size the file header records (page size × page count), when the count is valid."""
    page = _page_size(head) or 0
    pages, counter, valid_for = (int.from_bytes(head[i:i + 4], "big") for i in (28, 24, 92))
    return page * pages if counter == valid_for else 0


def _wal(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def _wal_holds_pages(path: Path) -> bool:
    wal = _wal(path)
    return wal.exists() and wal.stat().st_size > 0


def no_store(path: Path) -> NoStore:
    """The one line for a workspace with no store file yet: what makes one (``kb init`` makes none)."""
    return NoStore(f"no store yet at {path}; run `kb nightly` (or `kb ingest …`) to make it")


def check_writable(path: Path) -> None:
    """Refuse, in one line, to write a store this user can only read: the file itself, its -wal and -shm
    (left by another member's read, which SQLite makes with the store's mode and that member as owner),
    or the folder where SQLite keeps them beside it. A symbolic link or anything but a plain file under
    the -wal or -shm name is refused first (StoreError): SQLite would write the store's pages through it.

    Asked of the system (``access``), never by opening the files: closing a descriptor of the store drops every
    SQLite lock this process holds on it, and an open of a FIFO planted under that name would wait."""
    beside = (_wal(path), path.with_name(path.name + "-shm"))
    for f in beside:
        if (planted := _not_plain_file(f)) is not None:
            raise StoreError(f"refusing to write the store {path}: {planted}; move it away (SQLite makes its own)")
    reason = next((r for f in (path, *beside) if (r := _unwritable(f)) is not None), None)
    if reason is None and path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        reason = f"{path.parent.name}/ is not writable"
    if reason:
        raise ReadOnlyStore(f"this command writes to the store {path}, which this user can only read ({reason}); "
                            f"{READ_COMMANDS}")


def _not_plain_file(f: Path) -> str | None:
    """Why ``f`` (a -wal or -shm name) is not a file SQLite may write, or None (a plain file, or none)."""
    try:
        mode = f.lstat().st_mode
    except OSError:   # not there; or not to be seen, which the writability check says
        return None
    if stat.S_ISLNK(mode):
        return f"{f.name} is a symbolic link, not a file of SQLite's"
    if not stat.S_ISREG(mode):
        return f"{f.name} is not a plain file"
    return None


def _unwritable(f: Path) -> str | None:
    """Why this user may not write ``f``, or None: writable, or not there. ``os.access`` says only yes or no
    (the mode bits, an immutable file, a read-only file system all read as no, and so does a file that is not
    there), so the file must be there before and after it is asked: another process opening the same store
    makes its -wal and -shm, and removes them at its last close, while this one looks."""
    try:
        before = os.stat(f)
    except OSError:
        return None
    if os.access(f, os.W_OK):
        return None
    try:
        after = os.stat(f)
    except OSError:
        return None   # gone meanwhile
    same = (before.st_dev, before.st_ino) == (after.st_dev, after.st_ino)
    return f"{f.name} is not writable by this user" if same else None


def create(path: Path) -> None:
    """Make a new store under a temporary name and link it into place: ``kb.sqlite`` is never an
    empty file on its way to being a store, so an empty one can be refused as damage. Of two
    processes creating the same store, the first link wins and the other opens it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(path.parent, os.W_OK):
            raise ReadOnlyStore(f"cannot create the store {path}: {path.parent} is not writable")
        _sweep_dead_creations(path)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        tmp.unlink(missing_ok=True)
        try:
            _migrate_new(tmp)
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
        finally:   # whatever stopped it (a failed migration, a full disk, Ctrl-C): no half-made file stays
            tmp.unlink(missing_ok=True)
        sync_folder(path.parent)   # the new name, not only the synced file, survives a power cut
    except OSError as exc:
        cls = ReadOnlyStore if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else StoreError
        raise cls(f"cannot create the store {path}: {exc.strerror}") from exc
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot create the store {path}: {exc}") from exc


def _migrate_new(tmp: Path) -> None:
    """Run every migration on the new file ``tmp`` and sync it to disk whole.

    No one else can see the file before it is linked into place, and a process killed meanwhile leaves
    only a temporary file (removed by the next creation, ``_sweep_dead_creations``): its migrations need
    no journal file and no sync each, only the one sync of the whole file before the link.

    The file is made here with mode 0666 less the umask, as every file kb writes: SQLite's own 0644 kept
    the store (and its -wal and -shm, which take the store's mode) from the team's group under
    ``UMask=0002``, so a member of the writer's group could not anchor or resolve a flag."""
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666))
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode = MEMORY")
        conn.execute("PRAGMA synchronous = OFF")
        migrate(conn)
    finally:
        conn.close()
    _sync_file(tmp)


_CREATION_GONE_AFTER = 600   # seconds: a creation takes well under one; a PID is only this machine's


def _sweep_dead_creations(path: Path) -> None:
    """Remove the temporary files of creations of ``path`` whose process is gone (killed before its
    link: SIGKILL, a power cut); a creation still running is left alone: its process is alive, or its
    file is recent (another machine's, on a shared folder, whose PID says nothing here)."""
    prefix, suffix = f".{path.name}.", ".new"
    for leftover in path.parent.glob(f"{prefix}*{suffix}"):
        pid = leftover.name[len(prefix):-len(suffix)]
        try:
            old = time.time() - leftover.stat().st_mtime > _CREATION_GONE_AFTER
        except OSError:
            continue
        if old and pid.isdigit() and int(pid) != os.getpid() and not pid_alive(int(pid)):
            leftover.unlink(missing_ok=True)


def _sync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def tune(conn: sqlite3.Connection) -> None:
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


def _close(conn: sqlite3.Connection | None) -> None:
    """Close a connection an open gave up on, now: left to the collector (a connection and its statement
    cache hold each other), it keeps the store open, and a writer's close in this process is then not
    the last one, which leaves the -wal behind."""
    if conn is not None:
        conn.close()


def open_writable(path: Path, *, create_missing: bool) -> sqlite3.Connection:
    """The read connection of a store opened for writing, migrated; created first if allowed."""
    check_is_sqlite(path)
    if not path.exists():
        if not create_missing:
            raise no_store(path)
        create(path)
    check_writable(path)
    conn = None
    try:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        tune(conn)
        _use_wal(conn)
        applied = migrate(conn)
    except sqlite3.DatabaseError as exc:
        _close(conn)
        raise StoreError(f"cannot open store {path}: {exc}", hint=_RESTORE if damage_of(exc) else None) from exc
    if applied:
        log.info("store %s: applied migrations %s", path, ", ".join(applied))
    return conn


class ReadOnlyFile:
    """A store opened read-only: ``mode=ro`` (WAL readers beside the nightly), else ``immutable``.

    ``immutable`` is how SQLite reads a WAL store whose folder does not let this user create the
    ``-shm`` file, which only happens while no connection has the store open. A writer that
    starts during a read changes the file (or creates the ``-wal``): each read is checked
    against that and done again, in ``mode=ro`` once the writer's ``-shm`` exists.
    """

    ATTEMPTS = 5

    def __init__(self, path: Path) -> None:
        check_is_sqlite(path)
        if not path.exists():
            raise no_store(path)
        self.path = path
        self.immutable = False
        self.conn = self._connect()

    def _connect(self) -> sqlite3.Connection:
        # the path's own bytes, percent-quoted: a name that is not UTF-8 (or any non-ASCII name under
        # LC_ALL=C) reaches Python as surrogate escapes, which no UTF-8 text can quote
        uri = "file:" + quote(os.fsencode(self.path.resolve()))
        conn = None
        try:
            conn = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()   # opens the WAL index (-shm)
            self.immutable = False
            return conn
        except sqlite3.OperationalError as exc:
            _close(conn)
            # No -shm can be made ("unable to open", or "readonly" for a user who may not write the
            # folder): with no -wal either, nothing is being written and the file alone is the store.
            # A -wal with no -shm is a writer's that stopped (a running one has its -shm): its last
            # writes are read only through a -shm, and only a writer's open applies them.
            if _wal(self.path).exists():
                raise StoreError(f"cannot open store {self.path} read-only ({exc}): a writer left "
                                 f"{_wal(self.path).name} beside it and this user may not create "
                                 f"{self.path.name}-shm; run `kb nightly` once as a user who can write it") from exc
        except BaseException:
            _close(conn)
            raise
        self.immutable = True
        return sqlite3.connect(uri + "?immutable=1", uri=True, isolation_level=None, check_same_thread=False)

    def _stamp(self) -> tuple[Any, ...]:
        st = self.path.stat()
        return st.st_ino, st.st_size, st.st_mtime_ns, _wal(self.path).exists()

    def run(self, fn: Any) -> Any:
        """``fn(conn)``, on a snapshot no writer changed while it ran."""
        if not self.immutable:
            return fn(self.conn)
        for _ in range(self.ATTEMPTS):
            before = self._stamp()
            if not before[3]:
                result = fn(self.conn)
                if self._stamp() == before:
                    return result
            self.conn.close()
            time.sleep(0.05)
            self.conn = self._connect()
            if not self.immutable:
                return fn(self.conn)
        raise StoreError(f"{self.path} kept changing while it was read; try again")

    def migrations(self) -> list[str]:
        return self.run(applied_migrations)

    def close(self) -> None:
        self.conn.close()


def open_readonly(path: Path) -> ReadOnlyFile:
    """A store opened for reading only, which must have every migration: one left to apply
    is applied with write access when this user has it, else named in the error (unless each
    one left is ``data_only``: the store is read as it is, and its writer's next run applies them)."""
    reader = None
    try:
        reader = ReadOnlyFile(path)
        pending = reader.run(pending_migrations)
    except sqlite3.DatabaseError as exc:
        if reader is not None:
            reader.close()
        raise StoreError(f"cannot open store {path}: {exc}", hint=_RESTORE if damage_of(exc) else None) from exc
    if pending:
        reader.close()
        try:
            open_writable(path, create_missing=False).close()
        except ReadOnlyStore:
            if not readable_without(pending):
                raise ReadOnlyStore(f"the store {path} needs migration {', '.join(pending)} (made by an older "
                                    "kb); run `kb nightly` once as a user who can write it") from None
        reader = ReadOnlyFile(path)
    return reader


def applied_migrations(conn: sqlite3.Connection) -> list[str]:
    """Names of the migrations this store has recorded, in the order applied (none on a new file;
    nothing is written, so a read-only store can be asked)."""
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").fetchone():
        return []
    return [row[0] for row in conn.execute("SELECT name FROM migrations ORDER BY rowid")]


def pending_migrations(conn: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """The migrations this kb would apply on open; a store written by a newer kb is refused."""
    return pending(applied_migrations(conn), migrations)


def migrate(conn: sqlite3.Connection, migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """Apply every migration not yet recorded, each atomically; return the names applied.

    ``conn`` must be in autocommit mode (``isolation_level=None``) so that the
    explicit BEGIN/COMMIT here are the only transaction boundaries.
    """
    conn.execute(LEDGER["sqlite"])
    todo = set(pending_migrations(conn, migrations))
    applied = []
    for m in migrations:
        if m.name not in todo:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process opening the same fresh store may have applied it while we
            # waited for the write lock: look again inside the transaction.
            if conn.execute("SELECT 1 FROM migrations WHERE name = ?", (m.name,)).fetchone():
                conn.execute("COMMIT")
                continue
            for sql in statements_for(m, "sqlite"):
                conn.execute(sql)
            if m.then is not None:
                m.then(conn)
            conn.execute("INSERT INTO migrations (name) VALUES (?)", (m.name,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        applied.append(m.name)
    return applied


def make_engine(path: Path) -> Engine:
    from sqlalchemy import create_engine, event

    engine = create_engine(f"sqlite:///{path}")

    # pysqlite opens transactions lazily and never for DDL; take control so that
    # engine.begin() really is BEGIN … COMMIT around the whole batch.
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
        dbapi_conn.isolation_level = None
        tune(dbapi_conn)

    # BEGIN IMMEDIATE takes the write lock first: kb's writers run one at a time, and whatever a
    # transaction reads is what it writes over (a flag resolved by hand meanwhile is seen).
    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def backup(conn: sqlite3.Connection, dest: Path) -> list[str]:
    """A consistent copy of the store at ``dest`` while it is in use (SQLite's online backup); returns
    what SQLite's quick check finds wrong in the copy (nothing for a sound one). The backup copies pages
    as they are, so a damaged store makes a damaged copy: kept, for it may be the best there is, and said.

    The file is made here, new, with mode 0666 less the umask, as every file kb writes (SQLite's own would be
    0644 whatever the umask: under ``UMask=0002`` the team's group could not restore from it)."""
    if dest.exists():
        raise ConfigError(f"{dest} exists; kb db backup writes a new file")   # what was asked, like --out's
    if not dest.parent.is_dir():   # SQLite would say only "unable to open database file"; as kb db copy says it
        raise StoreError(f"{dest.parent} is not a folder; kb db backup writes its file into an existing one")
    try:   # SQLite takes an empty file for a new database, and keeps its mode
        os.close(os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666))
    except FileExistsError:   # made meanwhile by someone else: theirs, left alone
        raise ConfigError(f"{dest} exists; kb db backup writes a new file") from None
    except OSError as exc:
        raise StoreError(f"backup to {dest} failed: {exc.strerror}") from None
    try:
        target = sqlite3.connect(dest)
        with target:
            conn.backup(target)
        try:
            found = [r[0] for r in target.execute("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            found = [str(exc)]
        target.close()
    except sqlite3.Error as exc:
        dest.unlink(missing_ok=True)
        raise StoreError(f"backup to {dest} failed: {exc}") from exc
    except BaseException:   # Ctrl-C: the file is kb's, made above; no half copy is left to pass for a backup
        dest.unlink(missing_ok=True)
        raise
    return [] if found == ["ok"] else found


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    """The columns of ``table`` as the migrations made them, in order."""
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
