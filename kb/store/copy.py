"""``kb db copy``: a whole store into a new one, SQLite to PostgreSQL, PostgreSQL to SQLite (or alike).

Every table is copied row for row with its ids (a flag keeps its number), the migrations' record
with the dates they were applied, the ledger and the flags; the search index is rebuilt on the
target from the copied rows, in the target's own form. The source is read in one snapshot (a
copy taken during a nightly is of one moment) and only read, so a member who may only read the
team's database can copy it to a file. The target is written in one transaction and the row
counts of every table are compared before it commits: a copy is whole or it is not there. A
SQLite target is a new file, linked into place once complete; a PostgreSQL target is an empty
database (kb's tables may exist, empty: an earlier kb opened it).
"""
from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, ReadOnlyStore, StoreError
from kb.store.db import TABLES, Store, is_postgres_url
from kb.store.migrations import ID_TABLES

BATCH = 2000


@dataclass
class CopyReport:
    source: str
    target: str
    counts: dict[str, int] = field(default_factory=dict)
    documents: int = 0          # search index rows rebuilt on the target


def _batches(rows: Iterable[Any], size: int = BATCH) -> Iterator[list[tuple[Any, ...]]]:
    it = iter(rows)
    while batch := [tuple(r) for r in itertools.islice(it, size)]:
        yield batch


class _SqliteTarget:
    """A new SQLite file, written under a temporary name and linked into place when whole."""

    def __init__(self, dest: Path) -> None:
        if dest.exists():
            raise ConfigError(f"{dest} exists; kb db copy writes a new file")   # what was asked, like --out's
        if not dest.parent.is_dir():
            raise StoreError(f"{dest.parent} is not a folder")
        self.dest = dest
        self.tmp = dest.with_name(f".{dest.name}.{os.getpid()}.copy")
        self.tmp.unlink(missing_ok=True)
        self.store = Store.open(self.tmp)
        self.conn = self.store.conn
        self.conn.execute("BEGIN IMMEDIATE")

    def insert(self, table: str, cols: list[str], rows: Iterable[Any]) -> None:
        sql = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})"
        for batch in _batches(rows):
            self.conn.executemany(sql, batch)

    def applied_at(self, when: dict[str, str]) -> None:
        self.conn.executemany("UPDATE migrations SET applied_at = ? WHERE name = ?", [(v, k) for k, v in when.items()])

    def rebuild_index(self) -> int:
        from kb.store.migrations import reindex_tokens
        reindex_tokens(self.conn)
        return self.count("search_index")

    def count(self, table: str) -> int:
        return self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def commit(self) -> None:
        self.conn.execute("COMMIT")
        self.store.close()
        try:
            os.link(self.tmp, self.dest)
        except FileExistsError:
            raise StoreError(f"{self.dest} appeared while the copy was written; the copy is left out") from None
        finally:
            self.tmp.unlink(missing_ok=True)

    def abort(self) -> None:
        try:
            self.conn.execute("ROLLBACK")
        finally:
            self.store.close()
            self.tmp.unlink(missing_ok=True)


class _PgTarget:
    """An empty PostgreSQL database, written in one transaction (COPY) under kb's write lock."""

    def __init__(self, url: str) -> None:
        from kb.store.backend_pg import KEY, WRITE, connect
        from kb.store.pg_urls import redact
        try:
            store = Store.open(url)   # kb's tables, migrated
        except ReadOnlyStore:
            raise StoreError(f"{redact(url)}: this role may not create or write kb's tables; kb db copy --to needs "
                             "the writer role, into an empty database (docs/team.md)") from None
        try:
            held = {t: n for t, n in store.counts().items() if n}
            docs = store.query("SELECT count(*) FROM search_index")[0][0]
        finally:
            store.close()
        if held or docs:
            some = ", ".join(f"{n} {t}" for t, n in list(held.items())[:3]) or f"{docs} indexed documents"
            raise StoreError(f"{store.where} is not empty ({some}); kb db copy writes into an empty database")
        self.where = store.where
        self.raw = connect(url, autocommit=False)
        self.raw.execute("SELECT pg_advisory_xact_lock(%s, %s)", (KEY, WRITE))

    def insert(self, table: str, cols: list[str], rows: Iterable[Any]) -> None:
        with self.raw.cursor().copy(f"COPY {table} ({', '.join(cols)}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(tuple(row))

    def applied_at(self, when: dict[str, str]) -> None:
        with self.raw.cursor() as cur:
            for name, at in when.items():
                cur.execute("UPDATE migrations SET applied_at = %s WHERE name = %s", (at, name))

    def rebuild_index(self) -> int:
        from kb.store.pg_reindex import rebuild
        for table in ID_TABLES:   # the next id after the copied ones
            self.raw.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                             f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")
        return rebuild(self.raw)

    def count(self, table: str) -> int:
        return self.raw.execute(f"SELECT count(*) FROM {table}").fetchone()[0]

    def commit(self) -> None:
        self.raw.commit()
        self.raw.close()

    def abort(self) -> None:
        try:
            self.raw.rollback()
        finally:
            self.raw.close()


def _same(source: Store, target: str) -> bool:
    if is_postgres_url(target):
        return source.url is not None and source.url.rstrip("/") == target.rstrip("/")
    return source.path is not None and Path(target).resolve() == source.path.resolve()


def copy_store(source: Store, target: str) -> CopyReport:
    """Copy ``source`` (open, read-only is enough) into ``target``: a postgresql:// URL or a new file."""
    if _same(source, target):
        raise ConfigError("kb db copy --to names the store being copied")   # a usage error, as an existing file is
    if "://" in target and not is_postgres_url(target):
        raise ConfigError(f"--to {target.split('://')[0]}://…: a postgresql:// URL or a file path")
    out = _PgTarget(target) if is_postgres_url(target) else _SqliteTarget(Path(target).expanduser().resolve())
    report = CopyReport(source.where, getattr(out, "where", None) or str(getattr(out, "dest", target)))
    try:
        with source.snapshot():
            for table in TABLES:
                cols = source.columns(table)
                out.insert(table, cols, source.stream(f"SELECT {', '.join(cols)} FROM {table}"))
                report.counts[table] = source.query(f"SELECT count(*) FROM {table}")[0][0]
            when = {r[0]: r[1] for r in source.query("SELECT name, applied_at FROM migrations")}
        out.applied_at(when)
        report.documents = out.rebuild_index()
        copied = {t: out.count(t) for t in TABLES}
        wrong = [f"{t}: {copied[t]} of {n}" for t, n in report.counts.items() if copied[t] != n]
        expected_docs = sum(copied[t] for t in ("papers", "posts", "note_entries"))
        if wrong or report.documents != expected_docs or out.count("migrations") != len(when):
            raise StoreError("the copy's row counts differ from the store's (" + "; ".join(
                wrong or [f"search index: {report.documents} of {expected_docs}"]) + "); nothing was written")
    except BaseException:
        out.abort()
        raise
    out.commit()
    return report
