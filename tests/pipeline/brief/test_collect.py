"""Merging the window's items: a paper written under an ID the store does not know is the known paper
of the same title."""
from __future__ import annotations

import pytest

from pipeline.brief.model import SourceRef
from pipeline.brief.pool import Pool, add
from pipeline.brief.post_subject import post_is_about

TITLE = "TierKV: Tiered KV-Cache Offloading for Long-Context LLM Serving"


def _pool(*items: tuple[str, str]) -> Pool:
    pool = Pool()
    for aid, title in items:
        add(pool.get([f"id:{aid}"]), ids=[aid], title=title)
    return pool


def test_an_unknown_id_with_a_known_papers_title_is_that_paper() -> None:
    # case, punctuation and spacing aside, the title is the same
    pool = _pool(("2610.11111", TITLE), ("2610.1111", "tierkv — tiered KV cache offloading for long-context LLM serving"))
    pool.known_ids = {"2610.11111"}
    pool.merge_same_titles()
    assert [c.arxiv_ids for c in pool.items] == [["2610.11111", "2610.1111"]]


def test_a_team_entry_citing_no_paper_under_a_known_papers_title_is_that_paper() -> None:
    """Day 12: Tom's "PairUp: Matching Prefilled Requests …（7▲）" linked a month-13 address, so it cited no paper,
    and the briefing showed PairUp twice, 🟢 and 🟡 (a reader's review). A post of that title stays its own."""
    pool = _pool(("2610.11111", TITLE))
    entry, post = pool.get(["url:huggingface.co/papers/2613.11111"]), pool.get(["url:blog.example/tierkv"])
    add(entry, urls=["https://huggingface.co/papers/2613.11111"], title=TITLE.upper(),
         source=SourceRef("entry", "tom", "inbox/tom/n.md", 6, None, "2026-10-23", 4, "…"))
    add(post, urls=["https://blog.example/tierkv"], title=TITLE,
         source=SourceRef("post", "blog", None, None, "https://blog.example/tierkv", "2026-10-23", 3, "…"))
    pool.known_ids = {"2610.11111"}
    pool.merge_same_titles()
    assert [(c.arxiv_ids, c.urls) for c in pool.items] == [
        (["2610.11111"], ["https://huggingface.co/papers/2613.11111"]), ([], ["https://blog.example/tierkv"])]


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
    add(pool.get(["url:lmcache.ai/blog/tierkv"]), urls=["https://lmcache.ai/blog/tierkv"], title="note")
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


def _entry(pool: Pool, n: int, heading: str, url: str | None = None) -> None:
    keys = [f"url:{url}"] if url else [f"entry:inbox/jay/n.md#{n}"]
    add(pool.get(keys), urls=[url] if url else [], title=heading, text=heading,
         source=SourceRef("entry", "jay", "inbox/jay/n.md", n, url, "2026-10-12T19:45", 5, heading))


def _post(pool: Pool, url: str, title: str) -> tuple[str, str]:
    key = f"url:{url}"
    add(pool.get([key]), urls=[f"https://{url}"], title=title,
         source=SourceRef("post", "lmcache", None, None, f"https://{url}", "2026-10-11", 4, title))
    return title, key


def test_a_note_entry_without_a_link_is_the_item_of_the_post_its_heading_names() -> None:
    """Day 3: Jay's "LMCache 的 CacheGen 3：KV 出节点前先压缩" (no URL: "周日 LMCache 博客：…") and LMCache's
    post *CacheGen 3: Compressing KV Cache on the Wire …* were two 🟠 items, the release counted twice."""
    pool = Pool()
    _entry(pool, 2, "LMCache 的 CacheGen 3：KV 出节点前先压缩")
    posts = [_post(pool, "blog.lmcache.ai/2026-10-11-cachegen-3", "CacheGen 3: Compressing KV Cache on the Wire"),
             _post(pool, "blog.lmcache.ai/2026-09-30-cachegen-2", "CacheGen 2: Faster KV Cache Loading from Disk")]
    pool.merge_unlinked_entries(posts)
    assert [c.titles[0] for c in pool.items] == ["LMCache 的 CacheGen 3：KV 出节点前先压缩",
                                                 "CacheGen 2: Faster KV Cache Loading from Disk"]
    [merged, _] = pool.items
    assert merged.urls == ["https://blog.lmcache.ai/2026-10-11-cachegen-3"]
    assert [s.kind for s in merged.sources] == ["entry", "post"]
    assert pool.by_key["url:blog.lmcache.ai/2026-10-11-cachegen-3"] is merged


def test_an_entry_naming_no_post_two_posts_or_carrying_a_link_stays_its_own() -> None:
    pool = Pool()
    _entry(pool, 1, "CacheGen 对比")                             # no version: names neither release
    _entry(pool, 2, "CacheGen 2 和 CacheGen 3 放一起看")          # two posts' names
    _entry(pool, 3, "CacheGen 3 的复现", url="github.com/x/y")   # its own link decides its item
    _entry(pool, 4, "CacheGen 3.5 预告")                          # another version
    posts = [_post(pool, "blog.lmcache.ai/cachegen-3", "CacheGen 3: Compressing KV Cache on the Wire"),
             _post(pool, "blog.lmcache.ai/cachegen-2", "CacheGen 2: Faster KV Cache Loading from Disk"),
             _post(pool, "blog.lmcache.ai/in-production", "CacheBlend in Production: Reusing KV Cache")]
    pool.merge_unlinked_entries(posts)
    assert len(pool.items) == 7


def test_a_marked_line_naming_another_paper_of_the_entry_is_that_papers() -> None:
    """An entry about several papers (a table of figures) keeps each marked line with the paper it names; a mark
    on a line naming none, or naming the subject, stays the subject's."""
    from pipeline.brief.by_paper import marks_by_paper
    text = ("| TwinBlock（2610.21476） | 6,100 tokens/s | 摘要 |\n"
            "| EvenTime（2610.22108） | TTFT 多 6% | 待核实：一作说的 |\n"
            "⚠ 表里的数都没复现")
    mine, theirs = marks_by_paper(text, ["待核实", "⚠"], "2610.21476", ("2610.22108",))
    assert mine == ["⚠"] and theirs == {"2610.22108": (["待核实"], ["| EvenTime（2610.22108） | TTFT 多 6% | 待核实：一作说的 |"])}
    both = "⚠ TwinBlock（2610.21476）和 EvenTime（2610.22108）都没复现"
    assert marks_by_paper(both, ["⚠"], "2610.21476", ("2610.22108",)) == (["⚠"], {})
    # a line comparing the subject with another paper is the subject's, not a row of that paper's
    compared = "⚠ 作者说 decode 比 EAGLE（2401.15077）那套还快 1.6×"
    assert marks_by_paper(compared, ["⚠"], "2610.09701", ("2401.15077",)) == (["⚠"], {})
    # a row of a paper the store does not know (not among ``others``) keeps its mark with the subject
    assert marks_by_paper("| FooServe（2405.12345） | 1.6× | 待核实 |", ["待核实"], "2610.09701", ()) == (["待核实"], {})


def test_a_paper_source_of_another_kind_is_cited_by_its_own_name(tmp_path) -> None:
    """A source a team adds to the registry (a "trending papers" JSON, say) was cited as "arXiv listing pwc": the
    briefing told every sighting that was not HF's featured day as the arXiv listing's (a newcomer's review)."""
    from kb.records import PaperRecord, Sighting
    from kb.store.db import Store
    from kb.store.papers import add_sightings, save_papers
    from pipeline.brief.collect import sighting_kind
    from tests.pipeline.brief.conftest import brief_json, copy_sample, ingest_sample, kb, read
    assert [sighting_kind(*k) for k in (("arxiv", "new"), ("hf", "featured"), ("arxiv", "weird"), ("pwc", "trending"),
                                         ("pwc", "new"))] == ["arxiv", "hf", "arxiv", "listing", "listing"]
    home = copy_sample(tmp_path / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 30"), encoding="utf-8")  # all shown
    ingest_sample(home)
    with Store.open(home / ".kb" / "kb.sqlite") as store, store.transaction() as tx:
        save_papers(tx, [PaperRecord("2610.09999", None, title="KVRelay: Streaming KV Blocks between Prefill and "
                                     "Decode Instances for Disaggregated LLM Serving", abstract="We stream the KV "
                                     "cache from prefill to decode instances layer by layer over RDMA in LLM serving.")],
                    "pwc")
        add_sightings(tx, [Sighting("2610.09999", "pwc", "2026-10-08", "trending", None)])
    item = next(i for i in brief_json(home)["increments"] if i.get("arxiv_id") == "2610.09999")
    assert [(s["kind"], s["name"]) for s in item["sources"]] == [("listing", "pwc")]
    kb(home, "brief", "--date", "2026-10-08", "--lang", "en")
    text = read(home, "briefings/2026-10-08-inference.en.md")
    assert "pwc (2026-10-08)" in text and "arXiv listing pwc" not in text


def test_an_entry_citing_nothing_whose_heading_names_one_of_the_days_papers_is_that_paper() -> None:
    """Day 15: Jay's "收回早上的说法：PoolVerify 和 VerifyBatch 不是一回事" cites no ID: it is PoolVerify's (VerifyBatch is
    no paper of the window); a heading naming two of the day's papers compares them and stays its own."""
    pool = _pool(("2610.31592", "PoolVerify: Verification on a Separate GPU Pool"),
                 ("2610.31600", "TideKV: Budgeted KV Eviction"))
    pool.known_ids = {"2610.31592", "2610.31600"}
    _entry(pool, 2, "收回早上的说法：PoolVerify 和 VerifyBatch 不是一回事")
    _entry(pool, 3, "PoolVerify 和 TideKV 放一起看")
    _entry(pool, 4, "poolverifying the verifier")   # not the name as a word
    # a review's false merges: another release, another casing, code, a link's path
    for n, heading in enumerate(["TideKV 0.5 升级踩坑", "TideKV-v2 实测", "tidekv 分析", "config_TideKV_budget 调整",
                                 "github.com/org/TideKV 已归档"], 5):
        _entry(pool, n, heading)
    pool.merge_named_entries()
    [pv] = [c for c in pool.items if "2610.31592" in c.arxiv_ids]
    assert [s.entry for s in pv.sources if s.kind == "entry"] == [2]
    assert {c.key for c in pool.items} == {"id:2610.31592", "id:2610.31600",
                                           *(f"entry:inbox/jay/n.md#{n}" for n in range(3, 10))}


def test_an_entry_linking_a_project_page_whose_heading_names_a_paper_is_that_paper() -> None:
    """Day 28: Tom's "MuffleKV（项目页和代码今天放出来的，arXiv 上还没看到）" links the project page and the code, which no
    source of the window is; the paper is on HF with its ID. The entry is the paper's item (its figures set against the
    abstract); an entry linking a post of the window stays with the post."""
    pool = _pool(("2611.12847", "MuffleKV: Full KV for Retrieval Heads"))
    pool.known_ids = {"2611.12847"}
    _entry(pool, 1, "MuffleKV（项目页和代码今天放出来的，arXiv 上还没看到）", url="mufflekv.github.io/")
    pool.merge_named_entries()
    [muffle] = [c for c in pool.items if "2611.12847" in c.arxiv_ids]
    assert [s.entry for s in muffle.sources if s.kind == "entry"] == [1] and len(pool.items) == 1
    pool = _pool(("2611.12847", "MuffleKV: Full KV for Retrieval Heads"))
    pool.known_ids = {"2611.12847"}
    _post(pool, "blog.example.com/mufflekv", "MuffleKV in production")
    _entry(pool, 2, "MuffleKV 的博客", url="blog.example.com/mufflekv")
    pool.merge_named_entries()
    assert len(pool.items) == 2


def test_an_engines_name_heading_a_note_of_a_paper_is_not_the_papers_name() -> None:
    """Day 19, blind: Jay's "vLLM：KeyFold 进了 vLLM" (its line "vLLM 把 KeyFold（2610.16833）接进了…") made "vLLM" a
    name of KeyFold's item, and the ⭐2 chat's "听说 vLLM 下个版本开了 prefix caching 以后命中率能到 80%" became a
    note of KeyFold (its unsourced 80% never flagged). A name the team writes beside the paper's ID is its name."""
    pool = _keyfold_noted("vLLM：KeyFold 进了 vLLM", "vLLM 把 KeyFold（2610.16833）接进了 KV cache",
                          "听说 vLLM 下个版本开了 prefix caching 以后命中率能到 80%", "KeyFold 的 v2 我还没看")
    [keyfold] = [c for c in pool.items if "2610.16833" in c.arxiv_ids]
    assert [s.entry for s in keyfold.sources if s.kind == "entry"] == [1, 3]
    assert "entry:inbox/jay/n.md#2" in {c.key for c in pool.items}


def _keyfold_noted(heading: str, line: str, *others: str) -> Pool:
    """KeyFold's item with a note entry (``heading``, ``line``) and entries citing nothing (``others``), merged."""
    pool = _pool(("2610.16833", "KeyFold: Low-Rank Key Projection"))
    pool.known_ids = {"2610.16833"}
    add(pool.get(["id:2610.16833"]), title=heading, text=line,
        source=SourceRef("entry", "jay", "inbox/jay/b.md", 1, None, "2026-11-03T11:45", 5, line))
    for n, other in enumerate(others, 2):
        _entry(pool, n, other)
    pool.merge_named_entries()
    return pool


def test_a_name_written_with_a_version_beside_the_id_is_still_the_papers() -> None:
    """The review's: "KeyFold-v2（2610.16833）" is the only name beside the ID; the title's KeyFold stays its name."""
    pool = _keyfold_noted("KeyFold v2 读完了", "KeyFold-v2（2610.16833）把投影矩阵算进显存", "KeyFold 的 scale 有没有算进去")
    [keyfold] = [c for c in pool.items if "2610.16833" in c.arxiv_ids]
    assert [s.entry for s in keyfold.sources if s.kind == "entry"] == [1, 2]


def test_a_post_the_team_heads_as_not_using_the_paper_stays_its_own() -> None:
    """The review's: "Tessera：没用 MeldKV，自己写的 token 合并" over a post citing MeldKV is no MeldKV confirmation."""
    from kb.text import normalize_url
    from pipeline.brief.post_subject import headed_with_its_paper
    url = normalize_url("https://engineering.tessera.cloud/2026/11/03/meldkv-long-doc-qa/")
    title = "MeldKV: Merging the KV Entries of Near-Duplicate Tokens"
    for heading, about in (("Tessera：MeldKV 上了长文档问答", True), ("Tessera：没用 MeldKV，自己写的 token 合并", False),
                           ("Tessera's merge, not MeldKV", False)):
        pool = Pool()
        _entry(pool, 1, heading, url=url)
        assert headed_with_its_paper(pool, url, title) is about, heading


@pytest.mark.parametrize("written, ids", [
    # day 17: a week's table, its first row "QuietLane（2610.29004）" — 2610.29040's digits swapped
    ("QuietLane（2610.29004）", ["2610.29040"]),
    # a name no stored paper is titled with: a paper the store does not know yet, its own item
    ("FreshLane（2610.29004）", ["2610.29004"]),
    # a new paper sharing the stored paper's name, its ID no typo of the stored one's (a review's case): its own item
    ("QuietLane（2610.31177）", ["2610.31177"]),
])
def test_an_entry_naming_a_known_paper_beside_an_id_the_store_does_not_know_is_the_named_papers(store, written,
                                                                                              ids) -> None:
    """Day 17: Tom's week's table of the anchored papers (a heading naming none) opened with "QuietLane（2610.29004）":
    the entry was an item of the unknown ID, titled by its heading, and shown as a NET-new paper ("本周入锚"). The
    name is exactly one stored paper's: the entry is that paper's, its ID slipped (the ID rules read the slip)."""
    from kb.records import PaperRecord
    from kb.store.notes import save_note
    from kb.store.papers import save_papers
    from pipeline.brief.collect import collect_candidates
    from pipeline.brief.model import Window
    from pipeline.workspace.notes import parse_note
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord("2610.29040", 1, title="QuietLane: Reserved SMs for Latency-Critical Tenants")],
                    "arxiv")
        save_note(tx, parse_note(f"## 1. 本周入锚\n\n| 论文 | 摘要里的数 |\n|---|---|\n| {written} | p99 TPOT −31% |\n",
                                 "inbox/tom/2026-10-30T1600-tom-weekly-wrap.md"))
    got = collect_candidates(store, Window("2026-10-29T23:59", "2026-10-30T23:59", "2026-10-29"),
                             author_credibility={}, source_credibility={}).candidates
    assert [c.arxiv_ids for c in got] == [ids]


@pytest.mark.parametrize("lines, ids", [
    (["PieceFill (2610.16059) is the chunked-prefill paper to read."], ["2610.16139"]),
    # a review's case: a slip of PieceFill's own ID (a paper the store does not know) is still PieceFill's
    (["PieceFill (2610.16139) is the chunked-prefill paper to read.", "PieceFill (2610.16193) batches decode first.",
      "PieceFill (2610.16059) again."], ["2610.16139", "2610.16193"]),
])
def test_an_entry_naming_a_paper_beside_another_known_papers_id_is_the_named_papers_alone(store, lines, ids) -> None:
    """Day 16: "PieceFill (2610.16059) is the chunked-prefill paper to read", 2610.16059 being ShallowDraft and
    2610.16139 PieceFill, neither in the window. The entry was moved to PieceFill, and the ID it was written with,
    no item's any more, was taken for a slip of PieceFill's: the item carried both IDs, took ShallowDraft's (the
    lower) and its title, and its id-conflict told the reader to give ShallowDraft PieceFill's ID."""
    from kb.records import Card, PaperRecord
    from kb.store.cards import save_card
    from kb.store.notes import save_note
    from kb.store.papers import save_papers
    from pipeline.brief.collect import collect_candidates
    from pipeline.brief.model import Window
    from pipeline.workspace.notes import parse_note
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord("2610.16059", 1, title="ShallowDraft: Self-Speculative Decoding by Skipping Layers"),
                         PaperRecord("2610.16139", 1, title="PieceFill: Decode-Priority Mixed Batching")], "arxiv")
        # the team's card of PieceFill, written a fortnight before: its title ties the name to its ID
        save_card(tx, Card("organized/paper_cards/409-2610-16139.md", 409, "2610.16139", "2610.16139",
                           "PieceFill: Decode-Priority Mixed Batching", "2026-10-14"))
        save_note(tx, parse_note("".join(f"## {n}. Reading group\n\n- {line}\n\n" for n, line in enumerate(lines, 1)),
                                 "inbox/tom/2026-10-29T1500-tom-reading-group.md"))
    got = collect_candidates(store, Window("2026-10-28T23:59", "2026-10-29T23:59", "2026-10-28"),
                             author_credibility={}, source_credibility={}).candidates
    assert [(c.arxiv_ids, list(c.miscited)) for c in got] == [(ids, ["2610.16059"])]


def test_a_papers_name_is_the_one_written_beside_its_id_when_no_title_carries_it() -> None:
    """Day 19's KeyFold item in the window had no title of its own paper: Tom's "KeyFold v2（2610.16833v2）改了什么"
    (no coined name before a colon) and Jay's "vLLM：KeyFold 进了 vLLM": its name is the KeyFold written beside the ID."""
    from pipeline.brief.pool import _own_names
    pool = Pool()
    c = pool.get(["id:2610.16833"])
    add(c, ids=["2610.16833"], title="vLLM：KeyFold 进了 vLLM", text="vLLM 把 KeyFold（2610.16833）接进了 KV cache",
        source=SourceRef("entry", "jay", "inbox/jay/b.md", 1, None, "2026-11-03T11:45", 5,
                         "vLLM 把 KeyFold（2610.16833）接进了 KV cache"))
    assert _own_names(c, ()) == {"KeyFold"}
