"""Migrations run on open, an old store is brought up to date, a foreign file is refused."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kb.errors import StoreError
from kb.store import Store
from kb.store.migrations import M001_INITIAL, MIGRATIONS, migrate


def test_new_store_has_every_migration_recorded(tmp_path: Path) -> None:
    with Store.open(tmp_path / "kb.sqlite") as s:
        assert s.schema_version() == [m.name for m in MIGRATIONS]
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_made_by_first_migration_only_is_migrated_on_open(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, (M001_INITIAL,))
    conn.execute("INSERT INTO papers (arxiv_id, title) VALUES ('2607.09701', 'SlimWise')")
    conn.close()
    with Store.open(path) as s:
        assert s.schema_version() == [m.name for m in MIGRATIONS]
        assert s.query("SELECT title FROM papers")[0]["title"] == "SlimWise"
        s.conn.execute("SELECT count(*) FROM search_index").fetchone()  # m002 created it


def test_reopening_applies_nothing_twice(tmp_path: Path) -> None:
    Store.open(tmp_path / "kb.sqlite").close()
    conn = sqlite3.connect(tmp_path / "kb.sqlite", isolation_level=None)
    assert migrate(conn) == []


def test_a_file_that_is_not_sqlite_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    path.write_bytes(b"these are my notes, not a database\n" * 10)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a SQLite database"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_store_from_a_newer_kb_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    Store.open(path).close()
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO migrations (name) VALUES ('m999_future')")
    conn.close()
    with pytest.raises(StoreError, match="newer kb"):
        Store.open(path)


def test_sqlmodel_tables_match_the_migrated_schema(store: Store) -> None:
    from kb.store.schema import SQLModel
    for name, table in SQLModel.metadata.tables.items():
        on_disk = [r[1] for r in store.conn.execute(f"PRAGMA table_info({name})")]
        assert on_disk == [c.name for c in table.columns], name
