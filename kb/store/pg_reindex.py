"""PostgreSQL's whole search index made again from the tables (``kb db copy``, migration m019).

Kept apart from ``pg_search`` (the queries and the per-document writes), which imports the store's
own modules: the migrations call this one, and the store's modules may not import each other in a
circle (the import contract in ``.ci/run``).
"""
from __future__ import annotations

import itertools
from typing import Any

from kb.store.fts import documents, to_tsvector_literal


def rebuild(raw: Any) -> int:
    """The whole index from the tables, on a psycopg connection inside its transaction (``kb db copy``):
    documents read through a server-side cursor, written with COPY in batches; one totals row."""
    def stream(sql: str) -> Any:
        with raw.cursor(name="kb_documents") as cur:
            cur.itersize = 2000
            cur.execute(sql)
            yield from cur

    raw.execute("DELETE FROM search_index")
    raw.execute("DELETE FROM search_stats")
    docs, total = 0, 0
    found = documents(stream, rowids=False)
    while batch := list(itertools.islice(found, 2000)):
        with raw.cursor().copy("COPY search_index (kind, ref, tsv, ntok) FROM STDIN") as copy:
            for kind, _, ref, title, body in batch:
                tsv, ntok = to_tsvector_literal(title, body)
                copy.write_row((kind, ref, tsv, ntok))
                docs, total = docs + 1, total + ntok
    raw.execute("INSERT INTO search_stats (ndocs, ntok) VALUES (%s, %s)", (docs, total))
    return docs
