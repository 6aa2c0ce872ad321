"""The PostgreSQL store as users meet it: a URL naming the wrong database or password, a role that may
only read (or not even that), a database that takes no writes (a standby), a writer kept waiting, the
checks and refusals of ``kb db``; kb without psycopg."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from kb.errors import NoStore, StoreError
from kb.store import Store
from tests.reliability.support import kb_inproc, one_error_line
from tests.support.backends import Backend

pytestmark = pytest.mark.usefixtures("pg_server")


def kb(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return kb_inproc("--home", str(ws), *args)


def _on(workspace: Path, url: str) -> Path:
    return Backend("postgresql", url).use(workspace)


def _as(url: str, user: str, password: str) -> str:
    parts = urlsplit(url)
    return parts._replace(netloc=f"{user}:{password}@{parts.hostname}:{parts.port}").geturl()


def _shown(url: str) -> str:
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


def _name(url: str) -> str:
    return urlsplit(url).path.lstrip("/")


@pytest.fixture
def reader(pg_server) -> str:
    """A login role that has been granted nothing: (name, password)."""
    name = f"kb_reader_{id(pg_server) % 10_000}"
    pg_server.execute(f"DROP ROLE IF EXISTS {name}")
    pg_server.execute(f"CREATE ROLE {name} LOGIN PASSWORD 'reader-pw'")
    yield name
    for row in pg_server.execute("SELECT datname FROM pg_database WHERE datname LIKE 'kbt_%'"):
        pg_server.execute(f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {name}", url=_with_db(pg_server, row[0]))
    pg_server.execute(f"DROP OWNED BY {name}")
    pg_server.execute(f"DROP ROLE {name}")


def _with_db(pg_server, db: str) -> str:
    return urlsplit(pg_server.url)._replace(path=f"/{db}").geturl()


def _stored(pg_server, url: str) -> dict[str, int]:
    return {t: pg_server.execute(f"SELECT count(*) FROM {t}", url=url)[0][0]
            for t in ("source_runs", "workspace_files", "migrations")}


def test_a_url_naming_a_database_that_is_not_there_or_the_wrong_password(workspace: Path, pg_fresh_url: str) -> None:
    parts = urlsplit(pg_fresh_url)
    missing = parts._replace(path="/no_such_kb_db").geturl()
    result = kb(_on(workspace, missing), "db", "status")
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert line.startswith(f"kb: error: cannot connect to the store {_shown(missing)}: ")
    assert line.endswith('database "no_such_kb_db" does not exist') and parts.password not in line


def test_a_wrong_password_is_named_and_never_printed(tmp_path: Path, pg_fresh_url: str) -> None:
    from kb.workspace import init_workspace
    ws = tmp_path / "ws"
    init_workspace(ws)
    wrong = _as(pg_fresh_url, urlsplit(pg_fresh_url).username, "not-the-password")
    result = kb(_on(ws, wrong), "db", "status")
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert "password authentication failed" in line and "not-the-password" not in line and ":***@" in line


def test_a_database_not_encoded_utf8_is_refused_before_anything_is_written(workspace: Path, pg_server) -> None:
    """A LATIN1 database took the arXiv listing, then failed mid-nightly with an internal error (exit 70)."""
    import os
    name = f"kbl1_{os.getpid()}"
    pg_server.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'")
    url = urlsplit(pg_server.url)._replace(path=f"/{name}").geturl()
    try:
        result = kb(_on(workspace, url), "nightly", "--date", "2026-10-08", "--offline")
        line = one_error_line(result.stderr)
        assert result.returncode == 1 and "is encoded LATIN1, and kb's store needs UTF8" in line, line
        tables = pg_server.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", url)
        assert tables == [(0,)]                                   # nothing made, nothing written
    finally:
        pg_server.drop_database(name)


def test_a_url_psycopg_cannot_read_is_refused_in_one_line(workspace: Path, pg_fresh_url: str) -> None:
    bad = pg_fresh_url + "?no_such_option=1"
    result = kb(_on(workspace, bad), "db", "status")
    assert result.returncode == 2   # a configuration error, as a value that is no postgresql:// URL
    assert one_error_line(result.stderr) == f'kb: error: store URL {_shown(bad)}: invalid URI query parameter: "no_such_option"'


def test_without_psycopg_a_postgresql_store_says_what_to_install(workspace: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)     # import psycopg raises ImportError
    result = kb(_on(workspace, "postgresql://kb@127.0.0.1:1/kb"), "db", "status")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == ("kb: error: the store is a PostgreSQL database, and psycopg is not "
                                             "installed: pip install 'kb[postgres]' (or psycopg[binary])")


def test_a_role_that_may_not_create_kb_s_tables_in_an_empty_database(workspace: Path, pg_server, pg_fresh_url: str,
                                                                     reader: str, tmp_path: Path) -> None:
    """Not the list of every migration kb has: one line saying there is no store yet (a read command never
    makes one; a write command says this role may not). kb db copy into it says it needs the writer role."""
    pg_server.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC", url=pg_fresh_url)
    url = _as(pg_fresh_url, reader, "reader-pw")
    result = kb(_on(workspace, url), "db", "status")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (f"kb: error: no kb store in {_shown(url)} yet; run `kb nightly` to "
                                             "make it, or fill it with `kb db copy --to URL` from a SQLite store")
    result = kb(workspace, "ingest", "workspace")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (f"kb: error: no kb store in {_shown(url)} yet, and this role may not "
                                             "create kb's tables; run `kb nightly` once as the writer role")
    assert pg_server.execute("SELECT to_regclass('migrations')", url=pg_fresh_url)[0][0] is None


def test_kb_db_copy_into_a_database_this_role_may_only_read(workspace: Path, pg_server, pg_fresh_url: str,
                                                            reader: str, tmp_path: Path) -> None:
    """Its tables are there (the writer made them), this role may only read them: not "may not create"."""
    Store.open(pg_fresh_url).close()
    pg_server.execute(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {reader}", url=pg_fresh_url)
    Store.open(workspace / ".kb" / "kb.sqlite").close()
    url = _as(pg_fresh_url, reader, "reader-pw")
    result = kb(workspace, "db", "copy", "--to", url)
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        f"kb: error: {_shown(url)}: this role may not create or write kb's tables; kb db copy --to needs the "
        "writer role, into an empty database (docs/team.md)")
    assert _stored(pg_server, pg_fresh_url)["workspace_files"] == 0


def test_a_role_granted_nothing_on_kb_s_tables_is_told_which_read_failed(workspace: Path, pg_server,
                                                                         pg_fresh_url: str, reader: str) -> None:
    Store.open(pg_fresh_url).close()
    url = _as(pg_fresh_url, reader, "reader-pw")
    result = kb(_on(workspace, url), "db", "status")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (f"kb: error: read from {_shown(url)} failed: permission denied for "
                                             "table migrations")


def test_a_database_that_takes_no_writes_is_refused_by_write_commands_only(workspace: Path, pg_server,
                                                                          pg_fresh_url: str) -> None:
    """A standby, or ``default_transaction_read_only``: every privilege, and no write succeeds. A write
    command says so in one line before it starts (it once ran, logged its failed ledger row and said
    "ok"); read commands work; nothing is written."""
    ws = _on(workspace, pg_fresh_url)
    assert kb(ws, "ingest", "workspace").returncode == 0
    before = _stored(pg_server, pg_fresh_url)
    pg_server.execute(f'ALTER DATABASE "{_name(pg_fresh_url)}" SET default_transaction_read_only = on')
    for args in (["ingest", "workspace"], ["nightly", "--offline", "--date", "2026-10-08"]):
        result = kb(ws, *args)
        assert result.returncode == 1, (args, result.stdout, result.stderr)
        assert one_error_line(result.stderr) == (
            f"kb: error: this command writes to the store {_shown(pg_fresh_url)}, which this role can only read "
            "(the database is read-only: transaction_read_only is on); show, search, query, flags, audit, "
            "explain, label, sources status and db status work without it")
    status = kb(ws, "db", "status")
    assert status.returncode == 0 and "store: " in status.stdout
    assert _stored(pg_server, pg_fresh_url) == before


def test_a_writer_kept_waiting_by_another_is_told_the_store_is_busy(pg_server, pg_fresh_url: str,
                                                                    monkeypatch) -> None:
    """Another kb command holds the write lock past the wait: the write fails in one line, nothing written."""
    import psycopg

    import kb.store.backend_pg as pg
    monkeypatch.setattr(pg, "WRITE_WAIT_S", 0.05)
    with Store.open(pg_fresh_url) as store, psycopg.connect(pg_fresh_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s, %s)", (pg.KEY, pg.WRITE))
        with pytest.raises(StoreError) as err:
            with store.transaction() as tx:
                tx.run("INSERT INTO sources (name, kind, url) VALUES ('x', 'blog', 'https://example.org')")
        assert str(err.value) == (f"the store {store.where} is busy: another kb command has been writing for "
                                  "0.05 s; try again")
        assert store.query("SELECT count(*) FROM sources")[0][0] == 0


def test_kb_db_check_names_a_search_index_that_lost_a_document(tmp_path: Path, pg_server, pg_fresh_url: str) -> None:
    from tests.reliability.support import sample_on
    ws = sample_on(pg_fresh_url, tmp_path / "sample")
    assert kb(ws, "nightly", "--offline", "--date", "2026-10-08", "--quiet").returncode == 0
    assert kb(ws, "db", "check").stdout == "ok\n"
    papers = pg_server.execute("SELECT count(*) FROM papers", url=pg_fresh_url)[0][0]
    pg_server.execute("DELETE FROM search_index WHERE ctid IN (SELECT ctid FROM search_index WHERE kind = 'paper' "
                      "LIMIT 1)", url=pg_fresh_url)
    result = kb(ws, "db", "check")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == f"search index: {papers - 1} paper documents for {papers} rows of papers"
    assert lines[1].startswith("search totals: ") and len(lines) == 2


def test_kb_db_backup_of_a_postgresql_store_says_what_to_use(workspace: Path, pg_fresh_url: str,
                                                             tmp_path: Path) -> None:
    Store.open(pg_fresh_url).close()
    dest = tmp_path / "b.sqlite"
    result = kb(_on(workspace, pg_fresh_url), "db", "backup", str(dest))
    assert result.returncode == 1
    assert one_error_line(result.stderr) == ("kb: error: kb db backup copies a SQLite store; for PostgreSQL use "
                                             "pg_dump, or `kb db copy --to FILE.sqlite` (docs/team.md)")
    assert not dest.exists()


def test_open_without_create_refuses_an_empty_database_and_makes_nothing(pg_server, pg_fresh_url: str) -> None:
    with pytest.raises(NoStore, match=r"^no kb store in .* yet; run `kb nightly` to make it, or fill it with `kb db copy"):
        Store.open(pg_fresh_url, create=False)
    assert pg_server.execute("SELECT to_regclass('migrations')", url=pg_fresh_url)[0][0] is None


def test_a_writer_kept_waiting_says_so_and_writes_once_the_other_is_done(pg_server, pg_fresh_url: str,
                                                                        caplog) -> None:
    """A member's write during another kb command's waited up to two minutes without a word (a reader's review
    of the team store); it says it waits, then writes."""
    import threading

    import psycopg

    import kb.store.backend_pg as pg
    with Store.open(pg_fresh_url) as store, psycopg.connect(pg_fresh_url, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s, %s)", (pg.KEY, pg.WRITE))
        threading.Timer(0.5, lambda: other.execute("SELECT pg_advisory_unlock(%s, %s)", (pg.KEY, pg.WRITE))).start()
        with caplog.at_level("WARNING", logger="kb.store.backend_pg"), store.transaction() as tx:
            tx.run("INSERT INTO sources (name, kind, url) VALUES ('x', 'blog', 'https://example.org')")
        assert [r.getMessage() for r in caplog.records] == [
            f"waiting for another kb command writing to the store {store.where} (up to 120 s)"]
        assert store.query("SELECT count(*) FROM sources")[0][0] == 1
        caplog.clear()
        with caplog.at_level("WARNING", logger="kb.store.backend_pg"), store.transaction() as tx:
            tx.run("INSERT INTO sources (name, kind, url) VALUES ('y', 'blog', 'https://example.org')")
        assert caplog.records == []                                  # the lock free: no word, one round trip
