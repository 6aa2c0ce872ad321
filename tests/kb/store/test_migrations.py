"""Migrations run on open, an old store is brought up to date, a foreign file is refused."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kb.errors import StoreError
from kb.store import Store
from kb.store.backend_sqlite import migrate
from kb.store.migrations import M001_INITIAL, MIGRATIONS


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


# The column types each backend gives what the SQLModel classes declare (``pg_ddl``).
_TYPES = {"sqlite": {str: "TEXT", int: "INTEGER", float: "REAL"},
          "postgresql": {str: "text", int: "bigint", float: "double precision"}}


def _python_type(sql_type) -> type:
    from sqlalchemy import Float, Integer, String
    sql_type = getattr(sql_type, "impl_instance", sql_type)   # SQLModel's AutoString decorates a String
    return next(t for base, t in ((String, str), (Integer, int), (Float, float)) if isinstance(sql_type, base))


def _declared(store: Store, table: str) -> list[tuple[str, str]]:
    if store.dialect == "sqlite":
        return [(r[1], r[2]) for r in store.query(f"PRAGMA table_info({table})")]
    return [tuple(r) for r in store.query("SELECT column_name, data_type FROM information_schema.columns WHERE "
                                          "table_schema = current_schema() AND table_name = ? "
                                          "ORDER BY ordinal_position", (table,))]


def test_sqlmodel_tables_match_the_migrated_schema(store: Store) -> None:
    """Column for column, in order, and of the type the class declares, on both backends."""
    from kb.store.schema import SQLModel
    for name, table in SQLModel.metadata.tables.items():
        assert store.columns(name) == [c.name for c in table.columns], name
        want = [(c.name, _TYPES[store.dialect][_python_type(c.type)]) for c in table.columns]
        assert _declared(store, name) == want, name


def test_integers_beyond_32_bits_are_kept_on_both_backends(store: Store) -> None:
    """A card numbered by a timestamp (202610081230-…), upvotes above 2³¹: SQLite kept them, PostgreSQL
    refused them ("integer out of range": the values went as 32-bit)."""
    big = 202610081230
    with store.transaction() as tx:
        tx.insert("briefings", [{"topic": "t", "date": "2026-10-08", "lang": "en", "format": "md", "path": None,
                                 "content_hash": "h", "net_new": big, "increments": 2**62, "data": "{}"}])
    assert [tuple(r) for r in store.query("SELECT net_new, increments FROM briefings")] == [(big, 2**62)]


def test_both_backends_record_every_migration(store: Store) -> None:
    assert store.schema_version() == [m.name for m in MIGRATIONS]
    assert store.status()["schema_version"] == MIGRATIONS[-1].name


def test_text_sorts_by_its_bytes_on_both_backends(store: Store) -> None:
    """kb's ORDER BY gives SQLite's order on PostgreSQL whatever the server's locale ("C" collation)."""
    words = ["b", "B", "a", "É", "e", "推理", "_x", "Z", "10", "9"]
    with store.transaction() as tx:
        tx.insert("id_checks", [{"arxiv_id": w, "status": "found", "checked_on": "2026-10-08"} for w in words])
    assert [r[0] for r in store.query("SELECT arxiv_id FROM id_checks ORDER BY arxiv_id")] == sorted(
        words, key=lambda w: w.encode())


def _connect_before(path: Path, migration: str) -> sqlite3.Connection:
    """A new SQLite store at ``path`` migrated up to just before ``migration``."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, MIGRATIONS[:[m.name for m in MIGRATIONS].index(migration)])
    return conn


def test_an_index_written_before_m011_is_rebuilt_from_the_tokens(tmp_path: Path) -> None:
    """A store whose FTS5 rows hold segment() text (emoji were tokens) is indexed again on open."""
    from kb.store.fts import index_text, segment
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m011_fts_tokens")
    conn.execute("INSERT INTO papers (arxiv_id, title, abstract, authors) VALUES ('2607.09701', 'SlimWise 推理', "
                 "'🟢 prefill/decode', '[\"Ada Li\"]')")
    conn.execute("INSERT INTO search_index (rowid, kind, ref, title, body) SELECT rowid, 'paper', arxiv_id, ?, ? "
                 "FROM papers", (segment("SlimWise 推理"), segment("🟢 prefill/decode Ada Li")))
    conn.close()
    with Store.open(path) as s:
        assert "m011_fts_tokens" in s.schema_version()
        rows = s.query("SELECT ref, title, body FROM search_index")
        assert [tuple(r) for r in rows] == [("2607.09701", index_text("SlimWise 推理"),
                                             index_text("🟢 prefill/decode Ada Li"))]
        assert "🟢" not in rows[0]["body"] and rows[0]["body"] == "prefill decode ada li"


def test_an_index_rebuilt_in_several_batches_holds_every_document_once(tmp_path: Path, monkeypatch) -> None:
    """A store of more documents than one batch (5,000: m011 on a large store, ``kb db copy`` into a file)."""
    import kb.store.migrations as migrations
    from kb.store.migrations import reindex_tokens
    monkeypatch.setattr(migrations, "REINDEX_BATCH", 2)
    with Store.open(tmp_path / "kb.sqlite") as s:
        for i in range(1, 6):
            s.conn.execute("INSERT INTO papers (arxiv_id, title, abstract, authors) VALUES (?, ?, 'KV cache', '[]')",
                           (f"2610.{i:05d}", f"Paper {i}"))
        reindex_tokens(s.conn)
        assert sorted(r[0] for r in s.query("SELECT ref FROM search_index")) == [f"2610.{i:05d}" for i in range(1, 6)]


def _notes_store_before(tmp_path: Path, migration: str, points: str) -> Path:
    """A store migrated up to just before ``migration``, with a note (one entry, its ``points`` JSON)
    and a card recorded as read."""
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, migration)
    conn.execute("INSERT INTO workspace_files (path, kind, content_hash) VALUES ('inbox/a/2026-10-08-n.md', 'note', 'h')")
    conn.execute("INSERT INTO workspace_files (path, kind, content_hash) VALUES ('organized/paper_cards/c.md', 'card', 'h')")
    conn.execute("INSERT INTO note_entries (path, number, heading, text, points) VALUES "
                 "('inbox/a/2026-10-08-n.md', 1, 'h', 't', ?)", (points,))
    conn.close()
    return path


def test_notes_read_before_m013_are_read_again_and_their_old_points_still_load(tmp_path: Path) -> None:
    """Points written as plain strings (before they kept their tables) load as text-only points, and the
    notes' readings get a hash no file has, so the next ingest stores their tables (and forgets a note that
    is gone: its row stays)."""
    from kb.records import Point
    from kb.store.notes import entries_of
    path = _notes_store_before(tmp_path, "m013_point_blocks", '["三种后端："]')
    with Store.open(path) as s:
        assert [tuple(r) for r in s.query("SELECT path, content_hash FROM workspace_files WHERE kind = 'note'")] == [
            ("inbox/a/2026-10-08-n.md", "")]
        assert entries_of(s, "inbox/a/2026-10-08-n.md")[0].points == [Point("三种后端：")]


def test_notes_read_before_m015_are_read_again_and_their_points_load_without_code(tmp_path: Path) -> None:
    """Points stored with tables and nested items but before code blocks were kept load as they were, and
    the notes' readings get a hash no file has, so the next ingest stores the code under their bullets."""
    from kb.records import Inline, Point, PointBlock
    from kb.store.notes import entries_of
    path = _notes_store_before(tmp_path, "m015_point_code",
                               '[{"text": "配置：", "code": [], "blocks": [{"kind": "list", "rows": [], '
                               '"items": [[1, {"text": "a", "code": []}]]}]}]')
    with Store.open(path) as s:
        assert "m015_point_code" in s.schema_version()
        assert [tuple(r) for r in s.query("SELECT path, content_hash FROM workspace_files WHERE kind = 'note'")] == [
            ("inbox/a/2026-10-08-n.md", "")]
        assert entries_of(s, "inbox/a/2026-10-08-n.md")[0].points == [
            Point("配置：", (), (PointBlock("list", items=((1, Inline("a")),)),))]


def test_a_write_that_failed_leaves_no_gap_in_the_numbers(store) -> None:
    """A flag's number is what the team types (`kb flags resolve 3`): a transaction rolled back (or a
    writer killed) must not use numbers up, on PostgreSQL as on SQLite (max(id) + 1)."""
    from kb.store.flags import sync_flag

    def flag(tx, name: str) -> int:
        return sync_flag(tx, rule="boundary", fingerprint=name, topic="inference", subject=name, evidence={},
                         day="2026-10-08")[0]
    with store.transaction() as tx:
        assert flag(tx, "first") == 1
    with pytest.raises(RuntimeError), store.transaction() as tx:
        assert flag(tx, "rolled back") == 2
        raise RuntimeError("the writer fails before it commits")
    with store.transaction() as tx:
        assert flag(tx, "second") == 2
    assert [tuple(r) for r in store.query("SELECT id, fingerprint FROM flags ORDER BY id")] == [
        (1, "first"), (2, "second")]


def test_papers_stored_before_m016_get_their_coined_names(tmp_path: Path) -> None:
    """``papers.name_key`` is filled for the papers already stored; a title without a coined name has none."""
    from kb.store.papers import papers_named
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m016_paper_names")
    conn.execute("INSERT INTO papers (arxiv_id, title) VALUES ('2610.08812', 'TreeDraft: Token Trees for Serving'), "
                 "('2610.08810', 'Towards Reliable Summarization')")
    conn.close()
    with Store.open(path) as s:
        assert [tuple(r) for r in s.query("SELECT arxiv_id, name_key FROM papers ORDER BY arxiv_id")] == [
            ("2610.08810", None), ("2610.08812", "treedraft")]
        assert papers_named(s, ["treedraft", "teratune"]) == {"treedraft": {"2610.08812": "TreeDraft: Token Trees "
                                                                                          "for Serving"}}


def test_doc_versions_stored_before_m017_get_their_reading_s_problems(tmp_path: Path) -> None:
    """The version on disk gets the problems its file's last reading recorded; an older one gets none."""
    from kb.store.anchors import current_doc_version
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m017_doc_problems")
    doc = "organized/knowledge/inference.md"
    conn.execute("INSERT INTO doc_versions (topic, path, version, content_hash, read_on) VALUES "
                 "('inference', ?, 'v310', 'h1', '2026-10-08'), ('inference', ?, 'v311', 'h2', '2026-10-09')", (doc, doc))
    conn.execute("INSERT INTO workspace_files (path, kind, content_hash, problems) VALUES (?, 'knowledge', 'h2', ?)",
                 (doc, '["line 109: section \u00a73.4 is written twice (also line 106)"]'))
    conn.close()
    with Store.open(path) as s:
        assert current_doc_version(s, "inference", "2026-10-09").problems == [
            "line 109: section §3.4 is written twice (also line 106)"]
        assert current_doc_version(s, "inference", "2026-10-08").problems == []


def test_doc_readings_before_m020_are_each_version_s_first_and_a_reverted_doc_s_last(tmp_path: Path) -> None:
    """Before m020 a version kept its first reading only; a doc on disk that is not its topic's latest first
    reading was reverted after all of them: from the day after the latest, each day keeps its version."""
    from kb.store.anchors import current_doc_version
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m020_doc_readings")
    doc = "organized/knowledge/inference.md"
    conn.execute("INSERT INTO doc_versions (topic, path, version, content_hash, read_on) VALUES "
                 "('inference', ?, 'v310', 'h1', '2026-10-08'), ('inference', ?, 'v311', 'h2', '2026-10-09')", (doc, doc))
    conn.execute("INSERT INTO workspace_files (path, kind, content_hash) VALUES (?, 'knowledge', 'h1')", (doc,))
    conn.close()
    with Store.open(path) as s:
        assert [tuple(r) for r in s.query("SELECT content_hash, read_on FROM doc_readings ORDER BY id")] == [
            ("h1", "2026-10-08"), ("h2", "2026-10-09"), ("h1", "2026-10-10")]
        # the 9th was briefed with v311, as before the migration: the revert came later, on a day not recorded
        assert [current_doc_version(s, "inference", f"2026-10-{d}").version for d in ("08", "09", "10")] == [
            "v310", "v311", "v310"]


def test_flags_closed_before_m021_keep_their_closure_with_its_evidence(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m021_flag_closures")
    conn.execute("INSERT INTO flags (rule, fingerprint, subject, evidence_hash, status) VALUES "
                 "('boundary', 'inference:boundary:a', 'a', 'h1', 'dismissed'), "
                 "('boundary', 'inference:boundary:b', 'b', 'h2', 'open')")
    conn.close()
    with Store.open(path) as s:
        assert [tuple(r) for r in s.query("SELECT subject, closures FROM flags ORDER BY id")] == [
            ("a", '{"h1": "dismissed"}'), ("b", "{}")]


def test_a_postgresql_store_made_before_m016_gets_names_and_doc_problems(pg_fresh_url: str) -> None:
    """m016's and m017's fills run on PostgreSQL too, through kb's facade over psycopg."""
    from kb.store.anchors import current_doc_version
    from kb.store.backend_pg import PgBackend, connect
    from kb.store.backend_pg import migrate as pg_migrate
    from kb.store.papers import papers_named
    backend = PgBackend(pg_fresh_url, connect(pg_fresh_url))
    pg_migrate(backend, MIGRATIONS[:[m.name for m in MIGRATIONS].index("m016_paper_names")])
    backend.raw.execute("INSERT INTO papers (arxiv_id, title) VALUES ('2610.08812', 'TreeDraft: Token Trees')")
    backend.raw.execute("INSERT INTO doc_versions (topic, path, version, content_hash, read_on) VALUES "
                        "('inference', 'd.md', 'v311', 'h2', '2026-10-09')")
    backend.raw.execute("INSERT INTO workspace_files (path, kind, content_hash, problems) VALUES "
                        "('d.md', 'knowledge', 'h2', '[\"line 109: section §3.4 is written twice\"]')")
    backend.raw.close()
    with Store.open(pg_fresh_url) as s:
        assert papers_named(s, ["treedraft"]) == {"treedraft": {"2610.08812": "TreeDraft: Token Trees"}}
        assert current_doc_version(s, "inference", "2026-10-09").problems == ["line 109: section §3.4 is written twice"]


def test_briefed_keys_stored_before_m018_keep_titles_only_of_items_without_an_id(tmp_path: Path) -> None:
    """A paper put forward by ID once left its title too, and a different paper with that title was
    "already briefed" the next day; m018 makes every stored briefing's keys again."""
    import json

    from kb.store.briefings import briefed_before
    from kb.text import normalize_url, title_key
    path = tmp_path / "old.sqlite"
    conn = _connect_before(path, "m018_briefed_titles")
    data = {"topic": "inference", "date": "2026-10-08", "increments": [
        {"arxiv_id": "2610.09305", "title": "Fast Serving of Small Models"},
        {"arxiv_id": None, "url": "https://example.org/talk", "title": "TierKV: Tiered KV Cache Offloading"}],
        "others": []}
    conn.execute("INSERT INTO briefings (topic, date, lang, format, content_hash, data) VALUES "
                 "('inference', '2026-10-08', '', 'json', 'h', ?)", (json.dumps(data),))
    conn.executemany("INSERT INTO briefed_items (topic, key, date) VALUES ('inference', ?, '2026-10-08')",
                     [("2610.09305",), (title_key("Fast Serving of Small Models"),)])
    conn.close()
    with Store.open(path) as s:
        keys = [title_key("Fast Serving of Small Models"), title_key("TierKV: Tiered KV Cache Offloading"),
                "2610.09305", normalize_url("https://example.org/talk")]
        assert briefed_before(s, "inference", "2026-10-09", keys) == {
            title_key("TierKV: Tiered KV Cache Offloading"): "2026-10-08", "2610.09305": "2026-10-08",
            normalize_url("https://example.org/talk"): "2026-10-08"}


def test_an_index_made_before_m019_finds_one_chinese_character(tmp_path: Path, pg_fresh_url: str) -> None:
    """m019 indexes every stored document again, with each character of its CJK runs, on both backends."""
    from kb.store.backend_pg import PgBackend, connect
    from kb.store.backend_pg import migrate as pg_migrate
    from kb.store.search import search
    before = MIGRATIONS[:[m.name for m in MIGRATIONS].index("m019_fts_cjk_chars")]
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, before)
    conn.execute("INSERT INTO papers (arxiv_id, title, abstract) VALUES ('2610.55555', '已锚的推理框架', '')")
    conn.execute("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (1, 'paper', '2610.55555', "
                 "'已锚 锚的 的推 推理 理框 框架', '')")          # the bigrams alone, as m018's index held them
    conn.close()
    backend = PgBackend(pg_fresh_url, connect(pg_fresh_url))
    pg_migrate(backend, before)
    backend.raw.execute("INSERT INTO papers (arxiv_id, title, abstract) VALUES ('2610.55555', '已锚的推理框架', '')")
    backend.raw.close()
    for target in (path, pg_fresh_url):
        with Store.open(target) as s:
            assert [r["ref"] for r in search(s, "锚")] == ["2610.55555"], target


def test_the_migrations_that_have_files_read_again_keep_their_rows_on_both_backends(tmp_path: Path,
                                                                                      pg_fresh_url: str) -> None:
    """m010, m013, m015, m022 and m023 have the team's files read again by giving their rows a hash no file has:
    deleting the rows made a file removed before the upgrade one kb never forgets (its ingest forgets the
    files it has rows of that are gone)."""
    from kb.store.backend_pg import PgBackend, connect
    from kb.store.backend_pg import migrate as pg_migrate
    before = MIGRATIONS[:[m.name for m in MIGRATIONS].index("m010_entry_cites")]
    files = [("inbox/a/n.md", "note"), ("organized/queue/work-queue.md", "queue"),
             ("organized/knowledge/inference.md", "knowledge"), ("organized/paper_cards/c.md", "card")]
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, before)
    conn.executemany("INSERT INTO workspace_files (path, kind, content_hash) VALUES (?, ?, 'h')", files)
    conn.close()
    backend = PgBackend(pg_fresh_url, connect(pg_fresh_url))
    pg_migrate(backend, before)
    for p, kind in files:
        backend.raw.execute("INSERT INTO workspace_files (path, kind, content_hash) VALUES (%s, %s, 'h')", (p, kind))
    backend.raw.close()
    for target in (path, pg_fresh_url):
        with Store.open(target) as s:
            assert sorted(tuple(r) for r in s.query("SELECT path, content_hash FROM workspace_files")) == sorted(
                (p, "") for p, _ in files), target
