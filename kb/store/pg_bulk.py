"""Many upserts in one statement on PostgreSQL: ``INSERT … SELECT * FROM unnest(arrays) ON CONFLICT …``.

An executemany sends one Bind/Execute per row, and psycopg and the server each pay per message;
a heavy night writes some 30,000 rows. Here a batch of rows becomes one array per column and one
statement with the same ``ON CONFLICT`` clause as the row-by-row form, so it writes the same rows.
(New rows without a conflict clause go by COPY: ``Tx.copy_rows``.)

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
        kind = _KINDS.get(sql_type.split("(")[0])
        if kind is None:
            return None
        out.append((sql_type, kind))
    return tuple(out)


def _array(values: list[Any], kind: str) -> list[Any] | None:
    """The column's values as one array's elements, or None when they do not all fit its type."""
    if kind == _TEXT:
        return values if all(v is None or type(v) is str for v in values) else None
    if kind == _INT:
        return values if all(v is None or type(v) is int for v in values) else None
    if all(v is None or type(v) in (int, float) for v in values):
        return [None if v is None else float(v) for v in values]
    return None


def unnest_statement(table: Table, dialect: Any, row_sql: str, columns: tuple[str, ...],
                     rows: Sequence[Mapping[str, Any]], conflict_keys: Sequence[str], *,
                     updates: bool) -> tuple[str, tuple[list[Any], ...]] | None:
    """The one-statement form of ``row_sql`` (kb's compiled ``INSERT … VALUES … [ON CONFLICT …]`` for
    ``columns``) and its arrays, or None where it would not write exactly what row by row writes."""
    types = _column_types(table, dialect, columns)
    if types is None:
        return None
    if updates:
        keys = {tuple(r[k] for k in conflict_keys) for r in rows}
        if len(keys) != len(rows):
            return None
    arrays = []
    for name, (_, kind) in zip(columns, types, strict=True):
        array = _array([r[name] for r in rows], kind)
        if array is None:
            return None
        arrays.append(array)
    _, on, conflict = row_sql.partition(" ON CONFLICT ")
    casts = ", ".join(f"%s::{sql_type}[]" for sql_type, _ in types)
    sql = f"INSERT INTO {table.name} ({', '.join(columns)}) SELECT * FROM unnest({casts})"
    return (sql + on + conflict if on else sql), tuple(arrays)
