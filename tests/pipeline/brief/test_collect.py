"""Merging the window's items: a paper written under an ID the store does not know is the known paper
of the same title."""
from __future__ import annotations

from pipeline.brief.collect import _add, _Pool

TITLE = "TierKV: Tiered KV-Cache Offloading for Long-Context LLM Serving"


def _pool(*items: tuple[str, str]) -> _Pool:
    pool = _Pool()
    for aid, title in items:
        _add(pool.get([f"id:{aid}"]), ids=[aid], title=title)
    return pool


def test_an_unknown_id_with_a_known_papers_title_is_that_paper() -> None:
    # case, punctuation and spacing aside, the title is the same
    pool = _pool(("2610.11111", TITLE), ("2610.1111", "tierkv — tiered KV cache offloading for long-context LLM serving"))
    pool.known_ids = {"2610.11111"}
    pool.merge_same_titles()
    assert [c.arxiv_ids for c in pool.items] == [["2610.11111", "2610.1111"]]


def test_a_near_title_or_two_known_papers_stay_apart() -> None:
    pool = _pool(("2610.11111", TITLE), ("2610.22222", TITLE),
                 ("2610.3333", "TierKV: Tiered KV-Cache Offloading for Long-Context LLM Servers"))
    pool.known_ids = {"2610.11111", "2610.22222"}
    pool.merge_same_titles()
    assert [c.arxiv_ids for c in pool.items] == [["2610.11111"], ["2610.22222"], ["2610.3333"]]
