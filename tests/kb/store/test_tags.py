"""The classify stage's store look-ups: what a night asks of a store holding every earlier night's work."""
from __future__ import annotations

import pytest

from kb.store import Store
from kb.store.tags import Classified, classified_with_other_model, save_classifications


def _classified(store: Store, n: int, model_hash: str) -> None:
    with store.transaction() as tx:
        save_classifications(tx, [Classified("paper", f"2610.{i:05d}", "none") for i in range(n)], model_hash)


def test_a_model_change_is_seen_and_no_change_is_not(store: Store) -> None:
    _classified(store, 50, "m1")
    assert not classified_with_other_model(store, "m1")
    assert classified_with_other_model(store, "m0") and classified_with_other_model(store, "m2")


def test_looking_for_another_model_searches_the_index_not_every_row(store: Store) -> None:
    """Every row of a backfilled store shares the one hash: ``<>`` walked the whole index each night."""
    if store.dialect != "sqlite":
        pytest.skip("SQLite's query plan; PostgreSQL's planner picks its own")
    from kb.store import tags
    sql = tags.OTHER_MODEL
    plan = " ".join(str(r[-1]) for r in store.query("EXPLAIN QUERY PLAN " + sql, ("m1", "m1")))
    assert "SEARCH" in plan and "SCAN" not in plan, plan


def test_a_paper_anchored_in_two_sections_on_one_day_lists_them_in_one_order(store: Store) -> None:
    """Both backends, one order: by date, ID and section number, whatever order the rows come back in."""
    from kb.store.anchors import anchored_between, save_knowledge_doc
    from pipeline.workspace.knowledge import parse_knowledge
    text = ("# inference\nversion: v1 · 2026-10-09\n### §2.5 KV cache compression\n"
            "- 2610.12655 WattServe (anchored 2026-10-09)\n### §2.2 Scheduling\n"
            "- 2610.12655 WattServe (anchored 2026-10-09)\n- 2610.00001 Other (anchored 2026-10-09)\n"
            "### §1.(13) AI for systems\n- 2610.12655 WattServe (anchored 2026-10-09)\n")
    with store.transaction() as tx:
        save_knowledge_doc(tx, parse_knowledge(text, "organized/knowledge/inference.md", "inference"), "h1",
                           "2026-10-09")
    got = [(a.arxiv_id, a.section) for a in anchored_between(store, "inference", "2026-10-08", "2026-10-09")]
    assert got == [("2610.00001", "2.2"), ("2610.12655", "1.(13)"), ("2610.12655", "2.2"), ("2610.12655", "2.5")]


def _papers(store: Store, n: int) -> list[str]:
    from kb.records import PaperRecord
    from kb.store.papers import save_papers
    ids = [f"2610.{i:05d}" for i in range(1, n + 1)]
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord(i, 1, f"Paper {i}", ["Ada Li"], "KV cache", ["cs.DC"], "cs.DC", "2026-10-01",
                                     None) for i in ids], "arxiv")
    return ids


def test_classify_all_reads_every_subject_page_by_page(store: Store) -> None:
    """``kb classify --all`` on a store larger than a page: every subject once, in order."""
    from itertools import islice

    from kb.store.tags import all_subjects
    ids = _papers(store, 5)
    got = [s.key for s in islice(all_subjects(store, batch=2), 20)]     # bounded: a page never moving on repeats
    assert got == ids


def test_a_queued_subject_that_has_gone_is_dropped_from_the_queue_and_the_others_kept(store: Store) -> None:
    """A note deleted (or a paper never stored) after its subject was queued leaves nothing to classify."""
    from kb.store.tags import clear_stale_queue, enqueue, stale_queued
    ids = _papers(store, 2)
    with store.transaction() as tx:
        enqueue(tx, "paper", [*ids, "2610.99999"])
        enqueue(tx, "entry", ["organized/notes/gone.md#1"])
    assert stale_queued(store)
    with store.transaction() as tx:
        clear_stale_queue(tx)
    assert not stale_queued(store)
    assert sorted(tuple(r) for r in store.query("SELECT subject_kind, subject FROM classify_queue")) == [
        ("paper", i) for i in ids]


def test_a_classification_read_back_without_saving_is_what_the_store_reads_after_saving_it(store: Store) -> None:
    """``read_back`` (a briefing's paper the classify stage has not tagged yet) gives what ``stored_results`` reads
    once the stage has saved it: the doc's judgement where there is one, else the base's; scores as stored, base
    tags in the read's order (score, then topic), on both backends."""
    from kb.store.tags import read_back, stored_results
    items = [Classified("paper", "2610.00001", "adjacent",
                        [("kv-cache", 0.123456, ["kv cache"]), ("scheduling", 0.9, []), ("moe", 0.9, ["experts"])],
                        {"inference": ("primary", [("scheduling", 1.0, []), ("kv-cache", 0.333333, [])])}),
             Classified("paper", "2610.00002", "primary", [("routing", 0.55555, ["router"])])]
    with store.transaction() as tx:
        save_classifications(tx, items, "m1")
    read = stored_results(store, "m1", "paper", [c.subject for c in items], doc="inference")
    assert {c.subject: read_back(c, "inference") for c in items} == read


def test_the_stored_relevance_alone_is_what_stored_results_reads(store: Store) -> None:
    """``stored_relevance`` (a night's question about the many listed papers it shows nowhere) answers as
    ``stored_results`` does without reading tags: the doc's judgement where its model made one, else the base's;
    nothing for a paper another model judged, on both backends."""
    from kb.store.tags import stored_relevance, stored_results
    items = [Classified("paper", "2610.00001", "none", [], {"inference": ("primary", [])}),
             Classified("paper", "2610.00002", "none", [("routing", 0.5, [])], {"moe": ("adjacent", [])}),
             Classified("paper", "2610.00003", "adjacent", [])]
    with store.transaction() as tx:
        save_classifications(tx, items, "m1")
        save_classifications(tx, [Classified("paper", "2610.00004", "none", [])], "m0")
    ids = [f"2610.0000{n}" for n in range(1, 6)]
    read = stored_relevance(store, "m1", "paper", ids, doc="inference")
    assert read == {"2610.00001": "primary", "2610.00002": "none", "2610.00003": "adjacent"}
    assert read == {k: v.relevance for k, v in stored_results(store, "m1", "paper", ids, doc="inference").items()}
    assert stored_relevance(store, "m1", "paper", ids, doc="moe")["2610.00002"] == "adjacent"
