"""Many upserts in one statement on PostgreSQL: ``INSERT … SELECT * FROM unnest(arrays) ON CONFLICT …``.

An executemany sends one Bind/Execute per row, and psycopg and the server each pay per message;
a heavy night writes some 30,000 rows. Here a batch of rows becomes one array per column and one
statement with the same ``ON CONFLICT`` clause as the row-by-row form, so it writes the same rows.
New rows without a conflict clause go by COPY (``Tx.copy_rows``), under the same checks.

It is used only where the two forms are known to agree: columns whose Python values travel as
one array type (text, integers, floats), and, for an upsert that updates, no two rows with the
same conflict key (one statement may not update a row twice; row by row, the second row would
update the first's). Anything else goes row by row, as before.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Table

_TEXT, _INT, _FLOAT = "text", "int", "float"
_KINDS = {"VARCHAR": _TEXT, "TEXT": _TEXT, "INTEGER": _INT, "BIGINT": _INT, "SMALLINT": _INT,
          "FLOAT": _FLOAT, "REAL": _FLOAT, "DOUBLE PRECISION": _FLOAT}


@cache
def _column_types(table: Table, dialect: Any, columns: tuple[str, ...]) -> tuple[tuple[str, str], ...] | None:
    """(SQL type, kind) of each column, or None when one of them has no array form here."""
    out = []
    for name in columns:
        sql_type = table.columns[name].type.compile(dialect=dialect)
        kind = _KINDS.get(sql_type)   # not VARCHAR(n): its array cast would cut a long value, an INSERT refuses it
        if kind is None:
            return None
        out.append((sql_type, kind))
    return tuple(out)


_INT_BOUNDS = {"SMALLINT": 2**15, "INTEGER": 2**31, "BIGINT": 2**63}


def _array(values: list[Any], sql_type: str, kind: str) -> list[Any] | None:
    """The column's values as one array's elements, or None when they do not all fit its type as the
    row-by-row statement's cast takes them (a str for text, an int in range for an integer)."""
    if kind == _TEXT:
        return values if all(v is None or type(v) is str for v in values) else None
    if kind == _INT:
        bound = _INT_BOUNDS.get(sql_type, 2**31)
        return values if all(v is None or (type(v) is int and -bound <= v < bound) for v in values) else None
    if all(v is None or type(v) is float or (type(v) is int and abs(v) < 2**53) for v in values):
        return [None if v is None else float(v) for v in values]   # an int beyond 2**53 is no float as written
    return None


def _arrays(table: Table, dialect: Any, columns: tuple[str, ...],
            rows: Sequence[Mapping[str, Any]]) -> tuple[tuple[tuple[str, str], ...], list[list[Any]]] | None:
    """The columns' types and one array of values per column, or None when a value does not fit."""
    types = _column_types(table, dialect, columns)
    if types is None:
        return None
    arrays = []
    for name, (sql_type, kind) in zip(columns, types, strict=True):
        array = _array([r[name] for r in rows], sql_type, kind)
        if array is None:
            return None
        arrays.append(array)
    return types, arrays


def rows_for_copy(table: Table, dialect: Any, columns: tuple[str, ...],
              rows: Sequence[Mapping[str, Any]]) -> list[tuple[Any, ...]] | None:
    """The rows as COPY takes them (a tuple per row), or None where a value would not be read by COPY
    as the row-by-row INSERT's cast reads it (a float in an integer column, an int in a text one)."""
    found = _arrays(table, dialect, columns, rows)
    return None if found is None else list(zip(*found[1], strict=True))


def unnest_statement(table: Table, dialect: Any, row_sql: str, columns: tuple[str, ...],
                     rows: Sequence[Mapping[str, Any]], conflict_keys: Sequence[str], *,
                     updates: bool) -> tuple[str, tuple[list[Any], ...]] | None:
    """The one-statement form of ``row_sql`` (kb's compiled ``INSERT … VALUES … [ON CONFLICT …]`` for
    ``columns``) and its arrays, or None where it would not write exactly what row by row writes."""
    if updates and len({tuple(r[k] for k in conflict_keys) for r in rows}) != len(rows):
        return None
    found = _arrays(table, dialect, columns, rows)
    if found is None:
        return None
    types, arrays = found
    _, on, conflict = row_sql.partition(" ON CONFLICT ")
    casts = ", ".join(f"%s::{sql_type}[]" for sql_type, _ in types)
    sql = f"INSERT INTO {table.name} ({', '.join(columns)}) SELECT * FROM unnest({casts})"
    return (sql + on + conflict if on else sql), tuple(arrays)
