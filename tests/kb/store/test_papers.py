"""One paper, one card: versions update it, history is kept, re-ingest changes nothing."""
from __future__ import annotations

from kb.records import PaperRecord, PostRecord, Sighting
from kb.store import Store
from kb.store.papers import add_sightings, merge_paper, save_papers
from kb.store.posts import save_posts
from kb.store.search import search


def _rec(version: int | None, title: str, **kw) -> PaperRecord:
    return PaperRecord("2607.09701", version, title, ["Ada Li"], kw.pop("abstract", "MoE pruning"),
                       ["cs.DC"], "cs.DC", kw.pop("published", "2026-07-01"), kw.pop("updated", None), **kw)


def test_v2_updates_and_records_which_fields_changed(store: Store) -> None:
    with store.transaction() as c:
        assert save_papers(c, [_rec(1, "SlimWise", updated="2026-07-01")], "arxiv").new == 1
    with store.transaction() as c:
        counts = save_papers(c, [_rec(2, "SlimWise v2", updated="2026-10-01")], "arxiv")
    assert (counts.new, counts.updated) == (0, 1)
    row = store.query("SELECT * FROM papers")[0]
    assert (row["title"], row["latest_version"], row["published"]) == ("SlimWise v2", 2, "2026-07-01")
    changed = {r["field"] for r in store.query("SELECT field FROM paper_changes")}
    assert changed == {"title", "updated"}
    assert [tuple(r) for r in store.query("SELECT version, date FROM paper_versions")] == [
        (1, "2026-07-01"), (2, "2026-10-01")]


def test_an_older_version_or_versionless_source_only_fills_gaps(store: Store) -> None:
    with store.transaction() as c:
        save_papers(c, [_rec(2, "Final title", abstract="")], "arxiv")
        save_papers(c, [_rec(1, "Draft title", abstract="filled from v1")], "bulk")
        save_papers(c, [_rec(None, "HF title")], "hf")
    row = store.query("SELECT title, abstract, latest_version FROM papers")[0]
    assert tuple(row) == ("Final title", "filled from v1", 2)


def test_reingest_is_idempotent(store: Store) -> None:
    recs = [_rec(1, "SlimWise")]
    sight = [Sighting("2607.09701", "arxiv", "2026-10-08", "new", 1)]
    with store.transaction() as c:
        save_papers(c, recs, "arxiv")
        add_sightings(c, sight)
        assert c.run("SELECT count(*) FROM sightings").scalar_one() == 1
    before = store.counts()
    with store.transaction() as c:
        counts = save_papers(c, recs, "arxiv")
        add_sightings(c, sight)
        assert c.run("SELECT count(*) FROM sightings").scalar_one() == 1
    assert counts.unchanged == 1 and store.counts() == before


def test_hf_upvotes_on_two_days_are_both_kept_and_first_seen_is_the_earliest(store: Store) -> None:
    with store.transaction() as c:
        save_papers(c, [_rec(None, "SlimWise")], "hf")
        add_sightings(c, [Sighting("2607.09701", "hf", "2026-10-09", "featured", upvotes=30),
                          Sighting("2607.09701", "hf", "2026-10-08", "featured", upvotes=12)])
    rows = store.query("SELECT seen_on, upvotes FROM sightings ORDER BY seen_on")
    assert [tuple(r) for r in rows] == [("2026-10-08", 12), ("2026-10-09", 30)]
    assert store.query("SELECT first_seen FROM papers")[0][0] == "2026-10-08"


def test_a_failed_batch_leaves_nothing_behind(store: Store) -> None:
    try:
        with store.transaction() as c:
            save_papers(c, [_rec(1, "SlimWise")], "arxiv")
            raise RuntimeError("source broke mid-batch")
    except RuntimeError:
        pass
    assert store.counts()["papers"] == 0
    assert store.conn.execute("SELECT count(*) FROM search_index").fetchone()[0] == 0


def test_posts_upsert_and_fts_finds_chinese_and_english(store: Store) -> None:
    post = PostRecord("g1", "vllm-blog", "MORI-IO 读写模式", "https://blog.vllm.ai/x", "2026-10-08",
                      summary="Prefill decode disaggregation with RDMA 推理框架")
    with store.transaction() as c:
        assert save_posts(c, [post]).new == 1
        assert save_posts(c, [post]).unchanged == 1
    for q in ("推理", "prefill decode", "读写", "Disaggregation"):
        assert [r["ref"] for r in search(store, q)] == ["g1"], q
    assert search(store, "推理 training") == []


def test_merge_is_pure_and_keeps_the_earliest_publication_date() -> None:
    old, _ = merge_paper(None, _rec(2, "T", published="2026-08-01"), "arxiv")
    new, changes = merge_paper(old, _rec(1, "T", published="2026-07-01"), "bulk")
    assert new["published"] == "2026-07-01" and changes == []


def test_ids_the_team_cites_without_metadata_are_asked_about_and_unknown_ones_again_later(store: Store) -> None:
    """What the nightly asks the arXiv API: a cited ID with no paper stored, never asked about or answered
    "unknown" on or before the recheck day; not one found, stored, or answered unknown since."""
    from kb.store.notes import add_mentions, mention_row
    from kb.store.papers import ids_to_resolve, save_id_checks
    cited = ["2610.00001", "2610.00002", "2610.00003", "2610.00004", "2607.09701"]
    with store.transaction() as tx:
        save_papers(tx, [_rec(1, "SlimWise")], "arxiv")                          # 2607.09701 is stored
        add_mentions(tx, [mention_row(i, "entry", "organized/notes/a.md", 1, "2026-10-01") for i in cited])
        add_mentions(tx, [mention_row("2610.00005", "post", "blog|https://example.org/p", 0, None)])  # not the team's
        save_id_checks(tx, ["2610.00002"], ["2610.00003"], "2026-09-01")
        save_id_checks(tx, [], ["2610.00004"], "2026-10-05")
    assert ids_to_resolve(store, "2026-09-30") == ["2610.00001", "2610.00003"]
    assert ids_to_resolve(store, "2026-10-05") == ["2610.00001", "2610.00003", "2610.00004"]


def test_a_post_corrected_in_place_keeps_the_text_it_replaced(store: Store) -> None:
    """A figure corrected on the 9th (the feed's `updated`): the store keeps the text of the 8th with the date
    it held from, and nothing when only the tags change."""
    from kb.store.posts import earlier_texts
    post = PostRecord("g1", "llm-d", "NIXL backends", "https://llm-d.ai/x", "2026-10-08T09:00",
                      summary="Mooncake 44.6 GB/s", tags=["a"])
    fixed = PostRecord("g1", "llm-d", "NIXL backends", "https://llm-d.ai/x", "2026-10-08T09:00",
                       "2026-10-09T08:00", summary="Mooncake 46.1 GB/s", tags=["a"])
    with store.transaction() as c:
        save_posts(c, [post])
        save_posts(c, [PostRecord(**{**post.__dict__, "tags": ["b"]})])
        assert save_posts(c, [fixed]).updated == 1
    [then] = earlier_texts(store, ["g1", "g2"])["g1"]
    assert (then.summary, then.updated, then.published) == ("Mooncake 44.6 GB/s", None, "2026-10-08T09:00")
    assert store.query("SELECT valid_from FROM post_versions")[0][0] == "2026-10-08T09:00"


def test_a_post_corrected_in_place_without_a_date_is_dated_by_the_night_that_read_it(store: Store) -> None:
    """Day 15: an RSS post keeps its link, guid and pubDate while its figure changes (18% → 14%). Its feed says no
    ``updated``: the night that read the new text dates the correction; later nights reading it unchanged keep that
    date; a post read again unchanged is no correction."""
    post = PostRecord("g1", "tessera", "WarmStart in production", "https://t.example/w", "2026-10-27T01:30",
                      summary="p99 TTFT fell by 18%")
    fixed = PostRecord(**{**post.__dict__, "summary": "p99 TTFT fell by 14%. Corrected on Oct 28."})
    with store.transaction() as c:
        save_posts(c, [post], read_at="2026-10-27T15:59")
        assert save_posts(c, [post], read_at="2026-10-28T15:59").unchanged == 1
        assert save_posts(c, [fixed], read_at="2026-10-28T15:59").updated == 1
        assert save_posts(c, [fixed], read_at="2026-10-29T15:59").unchanged == 1
    assert store.query("SELECT updated FROM posts WHERE key = 'g1'")[0][0] == "2026-10-28T15:59"
    # a feed that dated one correction and repeats that date under a second one: the night that read it dates it
    dated = PostRecord(**{**post.__dict__, "updated": "2026-10-28T03:00", "summary": "fell by 14%"})
    again = PostRecord(**{**dated.__dict__, "summary": "fell by 12% (second correction)"})
    with store.transaction() as c:
        save_posts(c, [dated], read_at="2026-10-29T15:59")
        save_posts(c, [again], read_at="2026-10-30T15:59")
    assert store.query("SELECT updated FROM posts WHERE key = 'g1'")[0][0] == "2026-10-30T15:59"


def test_a_past_day_reads_a_paper_s_title_and_abstract_as_they_were_before_a_later_version(store: Store) -> None:
    """SnapEvict's v2 (2026-10-13) shortens its title: the 9th, rebuilt later, reads v1's title and abstract,
    in its window's sightings and in the titles a briefing asks for; the 13th and now read v2's."""
    from kb.store.papers import paper_titles, sightings_between, texts_before
    v1 = PaperRecord("2610.12408", 1, "SnapEvict: KV Cache Eviction for Multi-Turn Chat Serving", [], "v1 text",
                     updated="2026-10-09", versions=[(1, "2026-10-09")])
    v2 = PaperRecord("2610.12408", 2, "SnapEvict: KV Cache Eviction for Multi-Turn Chat", [], "v2 text",
                     updated="2026-10-13", versions=[(1, "2026-10-09"), (2, "2026-10-13")])
    with store.transaction() as c:
        save_papers(c, [v1], "arxiv")
        add_sightings(c, [Sighting("2610.12408", "hf", "2026-10-09", "featured")])
        save_papers(c, [v2], "arxiv")
    assert texts_before(store, ["2610.12408"], "2026-10-09") == {"2610.12408": {"title": v1.title,
                                                                                "abstract": "v1 text"}}
    assert texts_before(store, ["2610.12408"], "2026-10-13") == {}
    [seen] = sightings_between(store, "2026-10-09", "2026-10-09")
    assert (seen.title, seen.abstract) == (v1.title, "v1 text")
    assert paper_titles(store, ["2610.12408"], "2026-10-09") == {"2610.12408": v1.title}
    assert paper_titles(store, ["2610.12408"], "2026-10-13") == paper_titles(store, ["2610.12408"]) == {
        "2610.12408": v2.title}
