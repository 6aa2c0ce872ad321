"""The SQLite store file as users meet it: damaged, made by an older kb, in a folder they may not write,
backed up to a folder that is not there; a migration that fails leaves the store as it was."""
from __future__ import annotations

import contextlib
import errno
import gc
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kb.errors import NoStore, StoreError
from kb.store import Store
from kb.store.backend_sqlite import migrate
from kb.store.migrations import MIGRATIONS, Migration
from tests.reliability.support import kb_inproc, one_error_line


def kb(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return kb_inproc("--home", str(ws), *args)


def _store(ws: Path) -> Path:
    return ws / ".kb" / "kb.sqlite"


def _closed(path: Path) -> None:
    """As after every connection closed: no -wal or -shm beside the store."""
    for p in path.parent.iterdir():
        if p.name.endswith(("-wal", "-shm")):
            p.unlink()


@contextlib.contextmanager
def immutable(*paths: Path) -> Iterator[None]:
    """``chattr +i``: unwritable for root too (where the file system supports it)."""
    def chattr(flag: str) -> bool:
        try:
            return subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, timeout=10).returncode == 0
        except (OSError, subprocess.SubprocessError):
            return False
    if not chattr("+i"):
        chattr("-i")
        pytest.skip("chattr +i is not available on this file system")
    try:
        yield
    finally:
        chattr("-i")


# The latest migration that changes the tables, and the data-only ones after it (``Migration.data_only``).
SCHEMA_LATEST = max(i for i, m in enumerate(MIGRATIONS) if not m.data_only)


def _older_store(path: Path, upto: int = len(MIGRATIONS) - 1) -> None:
    """A store as the kb before migration ``upto`` (by default the latest) left it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, MIGRATIONS[:upto])
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def _applied(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [r[0] for r in conn.execute("SELECT name FROM migrations ORDER BY rowid")]
    finally:
        conn.close()


def _open_connections(path: Path) -> list[sqlite3.Connection]:
    """The sqlite3 connections of this process that have ``path`` open."""
    found = []
    for obj in gc.get_objects():
        if isinstance(obj, sqlite3.Connection):
            try:
                files = [row[2] for row in obj.execute("PRAGMA database_list")]
            except sqlite3.ProgrammingError:   # closed
                continue
            if str(path.resolve()) in files:
                found.append(obj)
    return found


def test_a_store_with_damaged_pages_is_refused_in_one_line_and_left_as_it_was(workspace: Path) -> None:
    """The header is whole (so it is no "cut short" file) but every page after it is junk: read and write
    commands say the file is malformed and change nothing."""
    path = _store(workspace)
    Store.open(path).close()
    _closed(path)
    data = path.read_bytes()
    path.write_bytes(data[:100] + b"\xab" * (len(data) - 100))
    damaged = path.read_bytes()
    gc.disable()   # a connection the failed open left open stays open, whenever the collector would have run
    try:
        for args in (["db", "status"], ["ingest", "workspace"]):
            result = kb(workspace, *args)
            assert result.returncode == 1, (args, result.stdout, result.stderr)
            assert one_error_line(result.stderr) == (f"kb: error: cannot open store {path}: database disk image "
                                                     "is malformed (restore it from a backup (kb db backup makes "
                                                     "one) or move it away to start a new store)")
            assert not _open_connections(path), args
    finally:
        gc.enable()
    assert path.read_bytes() == damaged


def test_a_store_made_by_an_older_kb_is_migrated_by_a_read_command_of_a_user_who_may_write(workspace: Path) -> None:
    path = _store(workspace)
    _older_store(path)
    result = kb(workspace, "db", "status")
    assert result.returncode == 0, result.stderr
    assert f"schema: {MIGRATIONS[-1].name}" in result.stdout
    assert _applied(path) == [m.name for m in MIGRATIONS]


def test_a_store_made_by_an_older_kb_names_its_migration_to_a_user_who_may_only_read(workspace: Path) -> None:
    path = _store(workspace)
    _older_store(path, SCHEMA_LATEST)
    with immutable(path, path.parent):
        result = kb(workspace, "db", "status")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        f"kb: error: the store {path} needs migration {', '.join(m.name for m in MIGRATIONS[SCHEMA_LATEST:])} "
        "(made by an older kb); run `kb nightly` once as a user who can write it")
    assert _applied(path) == [m.name for m in MIGRATIONS[:SCHEMA_LATEST]]


def test_a_user_who_may_only_read_reads_a_store_lacking_only_data_only_migrations(workspace: Path) -> None:
    """m022 asks only for files to be read again: a member who upgraded kb before the writer did was
    locked out of every read command until the writer's next nightly (QA, 2026-12-04)."""
    data_only = [m for m in MIGRATIONS if m.data_only]
    assert data_only
    lacking = data_only[-1]                      # a store made by every migration but the latest data-only one
    path = _store(workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, tuple(m for m in MIGRATIONS if m is not lacking))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    with immutable(path, path.parent):
        result = kb(workspace, "db", "status")
    assert result.returncode == 0, result.stderr
    assert sorted(_applied(path)) == sorted(m.name for m in MIGRATIONS if m is not lacking)   # left to the writer
    assert kb(workspace, "db", "status").returncode == 0 and sorted(_applied(path)) == sorted(m.name for m in MIGRATIONS)


def test_a_data_only_migration_changes_no_table() -> None:
    from kb.store.migrations import statements_for
    for m in MIGRATIONS:
        if m.data_only:
            sql = [s.lstrip().split()[0].upper() for d in ("sqlite", "postgresql") for s in statements_for(m, d)]
            assert set(sql) <= {"DELETE", "UPDATE"} and m.then is None, m.name


def test_a_sqlite_file_with_no_tables_yet_becomes_the_store_on_first_read(workspace: Path) -> None:
    """A valid SQLite file with nothing in it (``sqlite3 kb.sqlite 'PRAGMA user_version = 1'``) holds no
    history to lose: it is made the store, as a missing one is."""
    path = _store(workspace)
    path.parent.mkdir(exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    result = kb(workspace, "db", "status")
    assert result.returncode == 0, result.stderr
    assert f"schema: {MIGRATIONS[-1].name}" in result.stdout
    assert _applied(path) == [m.name for m in MIGRATIONS]


def test_no_store_yet_in_a_folder_this_user_may_not_write(workspace: Path) -> None:
    """A member who may only read a workspace that has no store yet: a read command says there is none
    and how one is made, a write command that it cannot be created; nothing is left in the folder."""
    folder = workspace / ".kb"
    folder.mkdir(exist_ok=True)
    before = sorted(p.name for p in folder.iterdir())
    with immutable(folder):
        status = kb(workspace, "db", "status")
        ingest = kb(workspace, "ingest", "workspace")
    assert status.returncode == 1 and one_error_line(status.stderr) == (
        f"kb: error: no store yet at {folder / 'kb.sqlite'}; run `kb nightly` (or `kb ingest …`) to make it")
    assert ingest.returncode == 1 and one_error_line(ingest.stderr) == (
        f"kb: error: cannot create the store {folder / 'kb.sqlite'}: {folder} is not writable")
    assert sorted(p.name for p in folder.iterdir()) == before


def test_a_store_whose_folder_this_user_may_not_write_is_refused_for_writing_only(workspace: Path) -> None:
    """SQLite keeps its -wal and -shm beside the store: a writable file in an unwritable folder cannot be
    written either, and the refusal says which; read commands still work."""
    path = _store(workspace)
    Store.open(path).close()
    _closed(path)
    with immutable(path.parent):
        ingest = kb(workspace, "ingest", "workspace")
        status = kb(workspace, "db", "status")
    assert ingest.returncode == 1
    line = one_error_line(ingest.stderr)
    assert line.startswith(f"kb: error: this command writes to the store {path}, which this user can only read "
                           "(.kb/ is not writable); ")
    assert status.returncode == 0 and f"schema: {MIGRATIONS[-1].name}" in status.stdout


def test_a_store_this_user_may_not_read_is_named_in_one_line(workspace: Path, monkeypatch) -> None:
    """(Root reads every file, so the refusal of the file's mode is made here.)"""
    path = _store(workspace)
    Store.open(path).close()
    real_open = Path.open

    def open_(self: Path, *args, **kw):
        if self == path:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kw)
    monkeypatch.setattr(Path, "open", open_)
    result = kb(workspace, "db", "status")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == f"kb: error: cannot read the store {path}: Permission denied"


def test_a_backup_into_a_folder_that_is_not_there_fails_in_one_line_and_writes_nothing(workspace: Path,
                                                                                       tmp_path: Path) -> None:
    Store.open(_store(workspace)).close()
    dest = tmp_path / "gone" / "kb-backup.sqlite"
    result = kb(workspace, "db", "backup", str(dest))
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (f"kb: error: {dest.parent} is not a folder; kb db backup writes its "
                                             "file into an existing one")   # was SQLite's "unable to open database file"
    assert not dest.parent.exists()


def test_open_without_create_refuses_a_missing_store_and_makes_nothing(tmp_path: Path) -> None:
    """``Store.open(path, create=False)`` (bench/query.py): a missing store is not made."""
    path = tmp_path / "kb.sqlite"
    with pytest.raises(NoStore, match=r"^no store yet at .*kb\.sqlite; run `kb nightly` \(or `kb ingest …`\) to make it$"):
        Store.open(path, create=False)
    assert list(tmp_path.iterdir()) == []


def test_a_migration_that_fails_leaves_the_store_at_the_one_before(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    Store.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    broken = Migration("m999_broken", ("CREATE TABLE half_made (x INTEGER)", "INSERT INTO no_such_table VALUES (1)"))
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        migrate(conn, (*MIGRATIONS, broken))
    assert not conn.in_transaction
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_made'").fetchone()[0] == 0
    conn.close()
    assert _applied(path) == [m.name for m in MIGRATIONS]
    with Store.open(path) as s:            # and it opens as before
        assert s.check() == ["ok"]


def test_a_log_left_by_a_writer_that_stopped_is_named_to_a_user_who_may_only_read(workspace: Path) -> None:
    """A killed writer leaves its -wal (its last writes) and no -shm; a member who may not create the -shm
    cannot read those writes, and is told what clears it. A writer's open applies the log; then they can."""
    path = _store(workspace)
    Store.open(path).close()
    wal = path.with_name("kb.sqlite-wal")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("INSERT INTO sources (name, kind, url) VALUES ('left-in-the-log', 'blog', 'https://example.org')")
    conn.commit()
    log = wal.read_bytes()
    conn.close()                      # checkpoints and removes the log: put it back, as a kill leaves it
    wal.write_bytes(log)
    path.with_name("kb.sqlite-shm").unlink(missing_ok=True)
    gc.disable()   # what the failed open leaves open stays open, whenever the collector would have run
    try:
        with immutable(path, wal, path.parent):
            result = kb(workspace, "sources", "status")
        assert not _open_connections(path)
    finally:
        gc.enable()
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        f"kb: error: cannot open store {path} read-only (unable to open database file): a writer left "
        "kb.sqlite-wal beside it and this user may not create kb.sqlite-shm; run `kb nightly` once as a user "
        "who can write it")
    assert kb(workspace, "ingest", "workspace").returncode == 0     # the writer's open
    assert not wal.exists()
    with immutable(path, path.parent), Store.open(path, readonly=True) as s:
        assert s.query("SELECT name FROM sources WHERE name = 'left-in-the-log'")


def test_a_store_whose_path_is_not_utf8_opens_read_only(tmp_path: Path) -> None:
    """Under LC_ALL=C a workspace under /tmp/知识 reaches Python as surrogate escapes (as does any file name
    that is not UTF-8): the read-only open quoted it as UTF-8 text and failed with an internal error."""
    import os
    folder = tmp_path / os.fsdecode(b"ws-\xe7\x9f-\xff")            # bytes no UTF-8 decoder takes
    folder.mkdir()
    path = folder / "kb.sqlite"
    with Store.open(path) as s:
        s.query("SELECT 1")
    with Store.open(path, readonly=True) as s:
        assert s.query("SELECT count(*) FROM migrations")[0][0] > 0


def test_check_names_the_tables_a_damaged_page_belongs_to(workspace: Path) -> None:
    """A table's page so damaged that SQLite's whole check stops at it: the check said only "the store is
    damaged: database disk image is malformed"; it names the table that cannot be read, not the sound ones."""
    path = _store(workspace)
    store = Store.open(path)
    root = store.query("SELECT rootpage FROM sqlite_master WHERE name = 'papers'")[0][0]
    size = store.query("PRAGMA page_size")[0][0]
    store.close()
    _closed(path)
    data = bytearray(path.read_bytes())
    data[(root - 1) * size:root * size] = b"\xa5" * size
    path.write_bytes(bytes(data))
    with Store.open(path) as store:
        found = store.check()
    assert found[0] == f"the store {path} is damaged: database disk image is malformed", found
    assert found[1:] == ["tables SQLite cannot read: papers"], found


def test_a_damaged_search_index_is_named_by_the_check_and_by_a_search(workspace: Path) -> None:
    """Damage inside the FTS5 index is SQLITE_CORRUPT_VTAB, an extended code: a search was an internal
    error, and `kb db check` said "ok" (PRAGMA integrity_check does not look inside FTS5). Both name it;
    the index rebuilt from the store's rows is whole again."""
    import random
    import sqlite3

    from kb.store.backend_sqlite import damage_of
    path = _store(workspace)
    with Store.open(path) as store, store.transaction() as tx:
        tx.run("INSERT INTO search_index(kind, ref, title, body) VALUES (:k, :r, :t, :b)",
               [{"k": "paper", "r": f"2610.{i:05d}", "t": f"MoE serving {i}", "b": "expert parallel decode"}
                for i in range(300)])
    noise = random.Random(7)   # the same damage every run: SQLite's randomblob() now and then left a readable leaf
    with sqlite3.connect(path, isolation_level=None) as con:
        leaves = con.execute("SELECT id, length(block) FROM search_index_data WHERE id > 10").fetchall()
        con.executemany("UPDATE search_index_data SET block = ? WHERE id = ?", [(noise.randbytes(n), i) for i, n in leaves])
    con.close()
    with Store.open(path) as store:
        with pytest.raises(sqlite3.DatabaseError) as raised:
            store.query("SELECT count(*) FROM search_index WHERE search_index MATCH 'moe'")
        assert damage_of(raised.value) == "database disk image is malformed"
        [found] = store.check()
        assert found.startswith(f"the store {store.where}'s search index is damaged: ") and "'rebuild'" in found
        store.query("INSERT INTO search_index(search_index) VALUES('rebuild')")
        assert store.check() == ["ok"]


def test_a_new_store_is_synced_whole_before_it_takes_its_name(tmp_path: Path, monkeypatch) -> None:
    """The new file is migrated with no journal and no sync per migration (no one can open it before its
    link), so the one sync of the whole file must come before the link gives it the store's name."""
    import os

    from kb.store.backend_sqlite import create
    events: list[tuple[str, int]] = []
    real_fsync, real_link = os.fsync, os.link

    def fsync(fd: int) -> None:
        events.append(("fsync", os.fstat(fd).st_ino))
        real_fsync(fd)

    def link(src, dst, **kw) -> None:
        events.append(("link", os.stat(src).st_ino))
        real_link(src, dst, **kw)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "link", link)
    create(tmp_path / "kb.sqlite")
    store = (tmp_path / "kb.sqlite").stat().st_ino
    assert [e for e in events if e[1] == store] == [("fsync", store), ("link", store)]
    assert _applied(tmp_path / "kb.sqlite") == [m.name for m in MIGRATIONS]


def test_a_new_store_s_name_is_synced_after_its_link(tmp_path: Path, monkeypatch) -> None:
    """The link gives the synced file its name, but the name is the folder's: without a sync of the folder a
    power cut after the link could leave no kb.sqlite. The folder is synced once the name is there."""
    import stat

    from kb.store.backend_sqlite import create
    folder, real_fsync = tmp_path / ".kb", os.fsync
    synced: list[bool] = []   # for each folder synced: did the store have its name then?

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            assert os.fstat(fd).st_ino == folder.stat().st_ino
            synced.append((folder / "kb.sqlite").exists() and not list(folder.glob(".kb.sqlite.*.new")))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    create(folder / "kb.sqlite")
    assert synced == [True]


def test_a_folder_the_system_will_not_sync_does_not_fail_the_creation(tmp_path: Path, monkeypatch) -> None:
    """Some systems refuse to sync a folder (EINVAL) or to open one: the store is made all the same."""
    import stat

    from kb.store.backend_sqlite import create
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "Invalid argument")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    create(tmp_path / "kb.sqlite")
    assert _applied(tmp_path / "kb.sqlite") == [m.name for m in MIGRATIONS]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kb.sqlite"]


def test_a_creation_that_fails_leaves_no_temporary_file(tmp_path: Path, monkeypatch) -> None:
    """A migration that fails on the new file (here: a disk that fills) is one line, and the half-made
    `.kb.sqlite.PID.new` (migrated unsynced, never linked) is removed, not left in .kb/ for good."""
    from kb.store import backend_sqlite

    def fail(conn, *args, **kw) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(backend_sqlite, "migrate", fail)
    with pytest.raises(StoreError, match="cannot create the store .*: database or disk is full"):
        backend_sqlite.create(tmp_path / "kb.sqlite")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_creation_killed_before_its_link_is_swept_by_the_next(tmp_path: Path) -> None:
    """A process killed mid-creation leaves its temporary file under its PID; the next creation removes
    it (its process is gone, its file old) and keeps a running one's, and a recent one's (another machine's
    on a shared folder: its PID means nothing here)."""
    from kb.store.backend_sqlite import create
    done = subprocess.Popen(["true"])
    done.wait()
    dead, recent = (tmp_path / f".kb.sqlite.{done.pid}.new", tmp_path / f".kb.sqlite.{done.pid}0.new")
    running = tmp_path / f".kb.sqlite.{os.getppid()}.new"
    for leftover in (dead, recent, running):
        leftover.write_bytes(b"SQLite format 3\x00half")
    for leftover in (dead, running):
        os.utime(leftover, (0, 0))
    create(tmp_path / "kb.sqlite")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["kb.sqlite", running.name, recent.name])


@pytest.mark.parametrize("name", ["kb.sqlite-wal", "kb.sqlite-shm"])
@pytest.mark.parametrize("planted", ["fifo", "symlink"])
def test_something_else_than_a_file_under_the_wal_or_shm_name_is_refused_in_one_line(workspace: Path, name: str,
                                                                                     planted: str) -> None:
    """A FIFO (which an open would wait on, or SQLite write its pages into) or a symbolic link (SQLite would write
    the store's pages wherever it points) under SQLite's own names beside the store: refused before any write,
    with one line naming it; the link's target is left as it was."""
    from kb.store.backend_sqlite import check_writable
    path = _store(workspace)
    Store.open(path).close()
    _closed(path)
    target = workspace / "elsewhere"
    target.write_bytes(b"the team's")
    if planted == "fifo":
        os.mkfifo(path.with_name(name))
    else:
        path.with_name(name).symlink_to(target)
    with pytest.raises(StoreError) as caught:
        check_writable(path)
    assert str(caught.value).startswith(f"refusing to write the store {path}: {name} is ")
    assert "\n" not in str(caught.value) and target.read_bytes() == b"the team's"


def test_a_fifo_in_the_stores_place_is_refused_in_one_line_not_waited_on(workspace: Path) -> None:
    import signal

    from kb.store.backend_sqlite import check_is_sqlite
    path = _store(workspace)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("reading the store's header waited on a FIFO"))
    signal.alarm(5)
    try:
        with pytest.raises(StoreError) as caught:
            check_is_sqlite(path)
    finally:
        signal.alarm(0)
    assert str(caught.value) == f"{path} is not a plain file, not a SQLite database; refusing to use it"


def test_a_wal_this_user_may_not_write_is_named(workspace: Path) -> None:
    """Asked of the system (access(2)), not by opening the file."""
    from kb.errors import ReadOnlyStore
    from kb.store.backend_sqlite import check_writable
    path = _store(workspace)
    Store.open(path).close()
    _closed(path)
    wal = path.with_name("kb.sqlite-wal")
    wal.write_bytes(b"")
    with immutable(wal), pytest.raises(ReadOnlyStore, match=r"\(kb\.sqlite-wal is not writable by this user\)"):
        check_writable(path)


@pytest.mark.parametrize("race", ["made", "removed"])
def test_a_wal_another_process_makes_or_removes_while_it_is_checked_is_not_called_unwritable(
        workspace: Path, race: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two nightlies opening one fresh store: SQLite makes the -wal and -shm at one's first open and removes them at
    its last close, between the other's questions; access(2) of a file that is not there reads as "not writable"."""
    import kb.store.backend_sqlite as lite
    path = _store(workspace)
    Store.open(path).close()
    _closed(path)
    wal = path.with_name("kb.sqlite-wal")
    if race == "removed":
        wal.write_bytes(b"")
    real = os.access

    def access(p, mode, *args, **kw):
        if Path(p) == wal:   # the answer of this moment; then the other process makes or removes the file
            answer = real(p, mode, *args, **kw)
            wal.touch() if race == "made" else wal.unlink()
            return answer
        return real(p, mode, *args, **kw)
    monkeypatch.setattr(lite.os, "access", access)
    lite.check_writable(path)   # no ReadOnlyStore
