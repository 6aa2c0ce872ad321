"""Rows built from the one table description (``kb.store.schema``) and the write transaction.

Every write module builds its rows with ``row(table, record, **values)``: the columns are
the SQLModel class's, so a row can neither miss a column nor invent one, and list or dict
values become the JSON text the column holds. ``Tx`` is what ``Store.transaction()``
yields: statements, inserts and upserts by table name, with the dialect kept here.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Table
    from sqlalchemy.engine import Connection, Result

CHUNK = 500  # IDs per IN (...) query: well under SQLite's bound-parameter limit
MIN_BULK_ROWS = 16   # PostgreSQL: from this many rows, one COPY or one unnest statement instead of one per row


def dumps(value: Any) -> str:
    """JSON for a TEXT column: stable key order, real Unicode (no \\u escapes)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


@cache
def table(name: str) -> Table:
    """The SQLAlchemy table of the SQLModel class named ``name`` (``papers``, ``anchors`` …)."""
    from kb.store import schema
    for model in vars(schema).values():
        if getattr(model, "__tablename__", None) == name and hasattr(model, "__table__"):
            return model.__table__
    raise KeyError(f"no table {name!r} in kb.store.schema")


_COMPILED: dict[tuple[str, tuple[Any, ...]], tuple[str, tuple[str, ...] | None]] = {}


def _compiled(dialect: Any, key: tuple[Any, ...], build: Callable[[], Any]) -> tuple[str, tuple[str, ...] | None]:
    """The driver's SQL of a statement and, for a positional paramstyle, the names in order."""
    cached = _COMPILED.get((dialect.name, key))
    if cached is None:
        compiled = build().compile(dialect=dialect)
        order = tuple(compiled.positiontup) if compiled.positional else None
        cached = _COMPILED[(dialect.name, key)] = (str(compiled), order)
    return cached


def _bind(name: str) -> Any:
    from sqlalchemy import bindparam as make
    return make(name)


@cache
def _columns(name: str) -> tuple[tuple[str, Any], ...]:
    """(column, default) of a table; the primary key's integer id is left to the database."""
    out = []
    for col in table(name).columns:
        if col.primary_key and col.name == "id":
            continue
        default = col.default.arg if col.default is not None and not callable(col.default.arg) else None
        out.append((col.name, default))
    return tuple(out)


@cache
def _column_names(name: str) -> frozenset[str]:
    return frozenset(c for c, _ in _columns(name))


def row(name: str, record: Any = None, /, **values: Any) -> dict[str, Any]:
    """A row of table ``name``: each column from ``values``, else the attribute of ``record`` of the
    same name, else the column's default. Lists and dicts become JSON."""
    if not values.keys() <= _column_names(name):
        raise KeyError(f"{name} has no column {sorted(values.keys() - _column_names(name))[0]!r}")
    out: dict[str, Any] = {}
    for col, default in _columns(name):
        if col in values:
            value = values[col]
        elif record is not None:
            value = getattr(record, col, default)
        else:
            value = default
        if isinstance(value, (list, tuple, dict)):
            value = dumps(value)
        out[col] = value
    return out


def _positional(rows: Sequence[Mapping[str, Any]], order: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """Each row's values in the statement's order, as the driver takes them (picked in C, row after row)."""
    if len(order) == 1:
        return [(r[order[0]],) for r in rows]
    return list(map(itemgetter(*order), rows))


class Tx:
    """One write transaction (``Store.transaction()``): SQL by text, rows by table name."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    @property
    def dialect(self) -> str:
        return self.conn.dialect.name

    def run(self, sql: str, params: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None) -> Result:
        """A statement with ``:named`` parameters; a list of parameter sets runs it for each."""
        from sqlalchemy import text
        if isinstance(params, Sequence):
            if params:
                self._many(("text", sql), lambda: text(sql), params)
            return None  # type: ignore[return-value]   (an executemany has no rows to return)
        return self.conn.execute(text(sql), params or {})

    def _many(self, key: tuple[Any, ...], build: Callable[[], Any], rows: Sequence[Mapping[str, Any]]) -> None:
        """Run one statement for each row through the driver's own executemany.

        The statement is compiled once per dialect and shape (``key``) and the rows go to the driver
        as they are: SQLAlchemy's per-row parameter processing is most of a night's write time, and
        kb's rows need none (``row`` already made every value a str, int, float or None). On
        PostgreSQL, where each statement costs a message both ways, a batch of new rows goes as one
        COPY and a batch of upserts as one statement over arrays (``kb.store.pg_bulk``) when it can.
        """
        sql, order = _compiled(self.conn.dialect, key, build)
        if key[0] in ("insert", "upsert") and self.dialect == "postgresql" and len(rows) >= MIN_BULK_ROWS:
            from kb.store import pg_bulk
            if key[0] == "insert":
                if (copied := pg_bulk.rows_for_copy(table(key[1]), self.conn.dialect, key[2], rows)) is not None:
                    self.copy_rows(key[1], key[2], copied)
                    return
            elif (bulk := pg_bulk.unnest_statement(table(key[1]), self.conn.dialect, sql, key[2], rows, key[3],
                                                   updates=bool(key[4]) or key[5] is not None)) is not None:
                self.conn.exec_driver_sql(*bulk)
                return
        self.conn.exec_driver_sql(sql, _positional(rows, order) if order else list(rows))

    def _in_chunks(self, sql: str, values: Sequence[Any], params: dict[str, Any]) -> Iterable[Result]:
        """``sql`` run once per chunk of ``values``, its ``IN :values`` list being that chunk."""
        from sqlalchemy import bindparam, text
        stmt = text(sql).bindparams(bindparam("values", expanding=True))
        for part in chunks(list(values)):
            yield self.conn.execute(stmt, {"values": list(part), **params})

    def select_in(self, sql: str, values: Sequence[Any], **params: Any) -> list[Any]:
        """Rows of ``sql`` whose ``IN :values`` list is ``values``, asked in chunks."""
        return [r for result in self._in_chunks(sql, values, params) for r in result]

    def run_in(self, sql: str, values: Sequence[Any], **params: Any) -> None:
        """A statement with an ``IN :values`` list (a DELETE, an UPDATE) run once per chunk of ``values``:
        one statement where an executemany would send one per row."""
        for _ in self._in_chunks(sql, values, params):
            pass

    def copy_rows(self, name: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
        """PostgreSQL: new rows (no key of theirs in the table) through COPY, in this transaction. The
        driver's errors come out as SQLAlchemy's, as a statement's would (``Store.transaction`` maps them)."""
        from psycopg import Error
        from sqlalchemy.exc import DBAPIError
        sql = f"COPY {name} ({', '.join(columns)}) FROM STDIN"
        raw = self.conn.connection.driver_connection
        try:
            with raw.cursor() as cur, cur.copy(sql) as copy:
                for r in rows:
                    copy.write_row(r)
        except Error as exc:
            raise DBAPIError.instance(sql, None, exc, Error) from exc

    def insert(self, name: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            cols = tuple(rows[0])
            self._many(("insert", name, cols), lambda: table(name).insert().values({c: _bind(c) for c in cols}),
                       rows)

    def upsert(self, name: str, rows: list[dict[str, Any]], keys: Sequence[str],
               update: Sequence[str] | None = None, set_: dict[str, str] | None = None) -> None:
        """INSERT … ON CONFLICT (keys) DO UPDATE SET the ``update`` columns (all non-key by default).

        Only the named columns change on conflict, so columns other writers own (anchors,
        flags, what the team set by hand) survive a re-ingest. Never INSERT OR REPLACE,
        which deletes the row and everything other writers put in it.
        """
        if not rows:
            return
        columns = tuple(rows[0])
        cols = tuple(update) if update is not None else tuple(c for c in columns if c not in keys)
        sets = tuple(sorted(set_.items())) if set_ is not None else None
        build = functools.partial(self._upsert_statement, name, columns, keys, cols, set_)
        self._many(("upsert", name, columns, tuple(keys), cols, sets), build, rows)

    def _upsert_statement(self, name: str, columns: Sequence[str], keys: Sequence[str], cols: Sequence[str],
                          set_: dict[str, str] | None) -> Any:
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        else:
            from sqlalchemy.dialects.sqlite import insert
        stmt = insert(table(name)).values({c: _bind(c) for c in columns})
        if set_ is not None:  # explicit SET expressions (e.g. keep-the-earliest rules)
            from sqlalchemy import text
            return stmt.on_conflict_do_update(index_elements=list(keys),
                                              set_={k: text(v) for k, v in set_.items()})
        if cols:
            return stmt.on_conflict_do_update(index_elements=list(keys), set_={c: stmt.excluded[c] for c in cols})
        return stmt.on_conflict_do_nothing(index_elements=list(keys))
