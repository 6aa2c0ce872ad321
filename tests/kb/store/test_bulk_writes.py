"""PostgreSQL's batch writes (COPY for new rows, one unnest statement for upserts) write exactly what
row-by-row statements write, and fall back to them where the two would differ."""
from __future__ import annotations

import pytest
from sqlalchemy.dialects import postgresql

from kb.records import PaperRecord, Sighting
from kb.store import Store
from kb.store import rows as store_rows
from kb.store.papers import add_sightings, save_papers
from kb.store.pg_bulk import unnest_statement
from kb.store.rows import table
from kb.store.tags import Classified, save_classifications
from tests.support.backends import dump

PG = postgresql.psycopg.dialect()
UPSERT_SQL = ("INSERT INTO sightings (arxiv_id, source, seen_on, kind) VALUES (%(arxiv_id)s::VARCHAR, "
              "%(source)s::VARCHAR, %(seen_on)s::VARCHAR, %(kind)s::VARCHAR) ON CONFLICT (arxiv_id, source, "
              "seen_on, kind) DO UPDATE SET kind = excluded.kind")
COLUMNS = ("arxiv_id", "source", "seen_on", "kind")
KEYS = COLUMNS


def _rows(n: int, **overrides: object) -> list[dict]:
    return [{"arxiv_id": f"2610.{i:05d}", "source": "arxiv", "seen_on": "2026-10-08", "kind": "new", **overrides}
            for i in range(n)]


def test_an_upsert_batch_becomes_one_statement_with_the_same_conflict_clause() -> None:
    sql, arrays = unnest_statement(table("sightings"), PG, UPSERT_SQL, COLUMNS, _rows(3), KEYS, updates=True)
    assert sql.startswith("INSERT INTO sightings (arxiv_id, source, seen_on, kind) SELECT * FROM unnest(%s::VARCHAR[]")
    assert sql.endswith(" ON CONFLICT (arxiv_id, source, seen_on, kind) DO UPDATE SET kind = excluded.kind")
    assert arrays[0] == ["2610.00000", "2610.00001", "2610.00002"] and arrays[3] == ["new"] * 3


def test_two_rows_updating_one_key_go_row_by_row() -> None:
    """One statement may not update a row twice; row by row the second row updates the first's."""
    twice = _rows(3) + _rows(1)
    assert unnest_statement(table("sightings"), PG, UPSERT_SQL, COLUMNS, twice, KEYS, updates=True) is None
    assert unnest_statement(table("sightings"), PG, UPSERT_SQL, COLUMNS, twice, KEYS, updates=False) is not None


def test_a_value_that_does_not_fit_the_column_array_goes_row_by_row() -> None:
    mixed = _rows(2) + [{**_rows(1)[0], "kind": 7}]
    assert unnest_statement(table("sightings"), PG, UPSERT_SQL, COLUMNS, mixed, KEYS, updates=True) is None


def _night(store: Store) -> None:
    """Writes of a small night: papers (new, then a new version), sightings on two days, classifications."""
    papers = [PaperRecord(f"2610.{i:05d}", 1, f"Paper {i}", ["Ada Li"], f"abstract {i}", ["cs.DC"], "cs.DC",
                          "2026-10-01", None) for i in range(40)]
    with store.transaction() as tx:
        save_papers(tx, papers, "arxiv")
        add_sightings(tx, [Sighting(p.arxiv_id, "arxiv", day, "new", 1) for p in papers
                           for day in ("2026-10-08", "2026-10-07")])
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord(p.arxiv_id, 2, p.title + " v2", p.authors, p.abstract, p.categories,
                                     p.primary_category, p.published, "2026-10-08") for p in papers[:20]], "arxiv")
        save_classifications(tx, [Classified("paper", p.arxiv_id, "primary", [("kv-cache", 0.5, ["kv cache"])],
                                             {"inference": ("primary", [("kv-cache", 0.5, ["kv cache"])])})
                                  for p in papers], "model")
    with store.transaction() as tx:   # reclassified: old tags replaced
        save_classifications(tx, [Classified("paper", p.arxiv_id, "adjacent", [("moe", 0.25, ["moe"])])
                                  for p in papers[:30]], "model")


def test_a_night_written_in_batches_equals_the_same_night_row_by_row(pg_server, monkeypatch) -> None:
    urls = [pg_server.create_database(), pg_server.create_database()]
    try:
        dumps = []
        for url, bulk_from in zip(urls, (store_rows.MIN_BULK_ROWS, 10**9), strict=True):
            monkeypatch.setattr(store_rows, "MIN_BULK_ROWS", bulk_from)
            with Store.open(url) as store:
                _night(store)
                dumps.append(dump(store))
        assert dumps[0] == dumps[1]
        assert len(dumps[0]["tags"]) == 40 and len(dumps[0]["sightings"]) == 80
        assert len(dumps[0]["doc_relevance"]) == 10 and not dumps[0]["classify_queue"]
        assert {r[-1] for r in dumps[0]["paper_versions"]} >= {"2026-10-08"}
    finally:
        for url in urls:
            pg_server.drop_database(url)


@pytest.mark.parametrize("n", [1, 40])
def test_first_seen_is_the_earliest_day_whatever_the_batch(store: Store, n: int) -> None:
    ids = [f"2610.{i:05d}" for i in range(n)]
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord(a, 1, "t", [], "", [], None, "2026-10-01", None) for a in ids], "arxiv")
        add_sightings(tx, [Sighting(a, "hf", "2026-10-09", "featured") for a in ids])
        add_sightings(tx, [Sighting(a, "arxiv", "2026-10-07", "new", 1) for a in ids])
        add_sightings(tx, [Sighting(a, "blog", "2026-10-08", "blog") for a in ids])
    assert {r[0] for r in store.query("SELECT first_seen FROM papers")} == {"2026-10-07"}


def _changes(n: int) -> list[dict]:
    from kb.store.rows import row
    return [row("paper_changes", arxiv_id=f"2610.{i:05d}", version=1, field="title", old_value="a", new_value="b",
                source="arxiv") for i in range(n)]


@pytest.mark.parametrize("n", [store_rows.MIN_BULK_ROWS - 1, store_rows.MIN_BULK_ROWS])
def test_a_batch_the_database_refuses_is_a_store_error_and_rolls_back_whatever_its_size(store: Store,
                                                                                      n: int) -> None:
    """Row by row or by COPY, a refused batch (changes of papers the store does not have) is kb's StoreError
    naming the store, and the transaction's earlier writes are undone."""
    from kb.errors import StoreError
    with pytest.raises(StoreError, match="failed|refused|violat"):
        with store.transaction() as tx:
            save_papers(tx, [PaperRecord("2610.99999", 1, "kept?", [], "", [], None, "2026-10-01", None)], "arxiv")
            tx.insert("paper_changes", _changes(n))
    assert store.query("SELECT count(*) FROM papers")[0][0] == 0


def test_copy_takes_only_rows_it_reads_as_the_insert_would() -> None:
    from kb.store.pg_bulk import rows_for_copy
    good = [{"subject_kind": "paper", "subject": f"s{i}", "topic": "moe", "score": 0.5 if i else 1, "terms": "[]",
             "taxonomy_hash": "h"} for i in range(3)]
    cols = tuple(good[0])
    assert rows_for_copy(table("tags"), PG, cols, good) == [tuple(r.values()) for r in
                                                        [{**good[0], "score": 1.0}, *good[1:]]]
    assert rows_for_copy(table("tags"), PG, cols, [*good, {**good[0], "subject": 7}]) is None     # an int in a text column
    changes = _changes(2)
    assert rows_for_copy(table("paper_changes"), PG, tuple(changes[0]), [{**changes[0], "version": 1.0}]) is None
    assert rows_for_copy(table("paper_changes"), PG, tuple(changes[0]), [{**changes[0], "version": 2**63}]) is None
    assert rows_for_copy(table("paper_changes"), PG, tuple(changes[0]), [{**changes[0], "version": 2**31}]) == [
        (*tuple(changes[0].values())[:1], 2**31, *tuple(changes[0].values())[2:])]    # 64-bit, as the column is
    assert rows_for_copy(table("tags"), PG, cols, [{**good[0], "score": 10**400}]) is None   # no float: row by row


def test_a_column_with_no_array_form_goes_row_by_row() -> None:
    """Every column of kb's tables today has one (text, integers, floats: the first assertion), so this
    guard waits for a column that has not: a VARCHAR(n) (its array cast would cut a long value where the
    INSERT refuses it), a boolean, a date."""
    from sqlalchemy import Boolean, Column, Integer, MetaData, String, Table

    from kb.store import schema
    from kb.store.pg_bulk import _column_types, rows_for_copy
    kb_tables = [m.__table__ for m in vars(schema).values() if hasattr(m, "__tablename__") and hasattr(m, "__table__")]
    assert all(_column_types(t, PG, tuple(c.name for c in t.columns)) is not None for t in kb_tables)
    other = Table("other", MetaData(), Column("id", Integer, primary_key=True), Column("code", String(8)),
                  Column("done", Boolean), Column("n", Integer))
    assert rows_for_copy(other, PG, ("n",), [{"n": 1}]) == [(1,)]
    for col, value in (("code", "x"), ("code", None), ("done", True), ("done", None)):
        assert rows_for_copy(other, PG, ("n", col), [{"n": 1, col: value}]) is None
        assert unnest_statement(other, PG, "INSERT INTO other (n) VALUES (%(n)s)", ("n", col), [{"n": 1, col: value}],
                                ("n",), updates=False) is None
