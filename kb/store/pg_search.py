"""Full-text search on PostgreSQL: FTS5's matches and bm25 ranking, reproduced.

The index (migration m002's PostgreSQL counterpart) holds per document a tsvector that kb
builds from exactly the tokens FTS5 gets (``kb.store.fts``), and its token count. The corpus
totals bm25 needs are rows of ``search_stats``: each writer adds its own delta row (no row is
fought over by concurrent writers), and the nightly adds them up (``COMPACT_STATS``). The query
computes FTS5's idf per word and ``kb_bm25`` per matching row, so a search returns the same
documents in the same order with the same scores as on SQLite (PostgreSQL's own rankers have no
idf: ``ts_rank_cd`` shares 3 to 13 of bm25's top 20).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.store.fts import phrase_tsqueries, to_tsvector_literal

if TYPE_CHECKING:
    from kb.store.db import Store
    from kb.store.rows import Tx


def _add_stats(tx: Tx, docs: int, tokens: int) -> None:
    if docs or tokens:
        tx.run("INSERT INTO search_stats (ndocs, ntok) VALUES (:d, :t)", {"d": docs, "t": tokens})


def index_documents(tx: Tx, kind: str, docs: list[tuple[str, str, str]]) -> None:
    """Replace the index rows of (ref, title, body) documents of one kind, and the totals."""
    old = tx.select_in("DELETE FROM search_index WHERE kind = :kind AND ref IN :values RETURNING ntok",
                       [ref for ref, _, _ in docs], kind=kind)
    rows = [(kind, ref, *to_tsvector_literal(title, body)) for ref, title, body in docs]
    tx.copy_rows("search_index", ("kind", "ref", "tsv", "ntok"), rows)   # their old rows are gone (above)
    _add_stats(tx, len(rows) - len(old), sum(r[3] for r in rows) - sum(r[0] for r in old))


def unindex_documents(tx: Tx, kind: str, refs: list[str]) -> None:
    old = tx.select_in("DELETE FROM search_index WHERE kind = :kind AND ref IN :values RETURNING ntok", refs,
                       kind=kind)
    _add_stats(tx, -len(old), -sum(r[0] for r in old))


# The writers' delta rows added up into one (rows inserted by a transaction still open are not
# seen, so not deleted: they stay to be added next time).
COMPACT_STATS = ("WITH gone AS (DELETE FROM search_stats RETURNING ndocs, ntok) INSERT INTO search_stats "
                 "(ndocs, ntok) SELECT coalesce(sum(ndocs), 0), coalesce(sum(ntok), 0) FROM gone")

# FTS5's idf per word, log((N - n + 0.5) / (n + 0.5)) with 1e-6 when not positive, and avgdl
# (tokens / documents), both in float8 as FTS5 computes them. The totals are read in a CTE so that
# the plan does not depend on search_stats' statistics.
SEARCH = """
WITH words AS (SELECT pq, ord FROM unnest(CAST(? AS tsquery[])) WITH ORDINALITY AS u(pq, ord)),
     totals AS (SELECT coalesce(sum(ndocs), 0)::bigint AS n, coalesce(sum(ntok), 0)::float8 AS tok
                  FROM search_stats),
     idf AS (SELECT array_agg(CASE WHEN x > 0 THEN x ELSE 1e-6 END ORDER BY ord) AS idf
               FROM words, LATERAL (SELECT ln(((SELECT n FROM totals) - count(*) + 0.5::float8)
                                              / (count(*) + 0.5::float8)) AS x
                                      FROM search_index WHERE tsv @@ words.pq) AS hits)
SELECT s.kind, s.ref, kb_bm25(s.tsv, s.ntok, CAST(? AS tsquery[]), (SELECT idf FROM idf),
                              (SELECT tok / greatest(n, 1) FROM totals)) AS score
  FROM search_index s
 WHERE s.tsv @@ CAST(? AS tsquery)
 ORDER BY score DESC, s.ref
 LIMIT ?"""



def ranked(store: Store, text: str, limit: int) -> list[tuple[str, str, float]]:
    """(kind, ref, bm25 score) of the best ``limit`` documents holding every word of ``text``."""
    words = phrase_tsqueries(text)
    if not words:
        return []
    rows: list[Any] = store.query(SEARCH, (words, words, " & ".join(words), limit))
    return [(r[0], r[1], r[2]) for r in rows]
