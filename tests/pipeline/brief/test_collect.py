"""Merging the window's items: a paper written under an ID the store does not know is the known paper
of the same title."""
from __future__ import annotations

from pipeline.brief.collect import _add, _Pool, post_is_about

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


def test_an_item_reached_by_two_keys_joins_the_items_they_name() -> None:
    """A note cites a blog post's URL, the listing has the paper, and the post is about the paper:
    the post's keys reach both items, and the three are one."""
    pool = _pool(("2610.11111", TITLE))
    _add(pool.get(["url:lmcache.ai/blog/tierkv"]), urls=["https://lmcache.ai/blog/tierkv"], title="note")
    post = pool.get(["id:2610.11111", "url:lmcache.ai/blog/tierkv"])
    assert pool.items == [post]
    assert post.arxiv_ids == ["2610.11111"] and post.urls == ["https://lmcache.ai/blog/tierkv"]
    assert pool.by_key["url:lmcache.ai/blog/tierkv"] is post


def test_a_post_citing_one_paper_is_about_it_by_name_or_by_most_of_its_words() -> None:
    paper = "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding for Batched LLM Serving"
    assert post_is_about("How TreeDraft shrinks its trees under load", paper)                  # the coined name
    assert post_is_about("Load-Adaptive Speculative Decoding in vLLM: Token Trees for Batched Serving", paper)
    assert not post_is_about("LMCache v0.7: CacheBlend Meets Layer-wise Streaming", paper)      # cites it for a feature
    assert post_is_about("LMCache v0.7", None)    # a paper the store has no title for is the subject
