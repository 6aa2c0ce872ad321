"""What a team's lines say, read as an analyst would: a review of the fifteenth sitting's reading of the morning
reader's cases (a phrase of every anchored paper, figures in lists, questions, an earlier version's figure, a KV cache
made smaller, genome assemblers, entries linking a project page). Each was read wrongly by that change before it was
fixed."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.brief.model import SourceRef
from pipeline.brief.pool import Pool, add

# --- likeness: a `different` phrase + an `every` word -> "nothing" ------------------------------------------------

@pytest.mark.parametrize("text", [
    "和 §2.5 已锚的哪一篇都没什么不一样，就是换了个数据集",          # "no different from any of them"
    "It doesn't seem different from any of the anchored papers in §2.5",
])
def test_no_different_from_every_anchored_paper_is_not_overlapping_nothing(text: str) -> None:
    """The line says the item is like the anchored papers; `nothing` clears its boundary question
    (boundary.boundaries: ``said.nothing and not said.same`` -> no flag); "different" naming nobody leaves the
    topic and word evidence to decide."""
    from pipeline.brief.likeness import likeness
    from tests.pipeline.brief.test_likeness import NAMES, WORDS, _item
    assert likeness(_item(text), NAMES, WORDS).nothing is False


def test_not_the_same_as_any_anchored_paper_overlaps_nothing() -> None:
    """The `every` words turn only a `different` phrase; a negated `same` phrase (read as different a
    few lines below in ``verdict``) with the same words stays "different"."""
    from tests.pipeline.brief.test_likeness import WORDS
    assert WORDS.verdict("it is not the same thing as any of the anchored papers in §2.5") == "nothing"


# --- [facts] measure ----------------------------------------------------------------------------------------------

def test_figures_listed_with_ascii_commas_are_each_a_fact() -> None:
    """``(?<![\\d.,])`` refuses a figure right after a comma, so a list written without spaces keeps its
    first figure only."""
    from pipeline.brief.judge import engineering_facts
    from pipeline.brief.rules import load_rules
    rules = load_rules()
    assert engineering_facts("TTFT 降 12%,18%,25%（batch 1/4/16）", rules) == ["12%", "18%", "25%"]
    assert engineering_facts("batch 1/4/16 下分别加速 1.2x,1.5x,1.8x", rules) == ["1.2x", "1.5x", "1.8x"]


# --- verify.asks: a question mark followed by a few words ----------------------------------------------------------

def test_a_question_mark_of_a_link_asks_nothing() -> None:
    """GitHub's copied links end "?tab=readme-ov-file": the "?" of a query string is no question."""
    from pipeline.brief.unsourced import asks
    assert not asks("⚠ README 说支持 FP8 KV cache（https://github.com/foo/mufflekv?tab=readme-ov-file），待核实")


@pytest.mark.parametrize("line", [
    "⚠ FlockEP 换副本的时候 decode 停不停？论文说不停，待核实",   # answered on the line: a claim to check
    "⚠ PlinthKV 真能省 6.2×？我们复现只有一半，待核实",           # a figure doubted and the team's own result
])
def test_a_question_the_line_answers_is_a_claim(line: str) -> None:
    """Only what follows the "？" is looked at for a figure, and any 24 characters pass: an answer
    ("论文说不停") or a result reads as "a thing to find out" (context.question) instead of a claim to check."""
    from pipeline.brief.unsourced import asks
    assert not asks(line)


# --- numbers._earlier ---------------------------------------------------------------------------------------------

def test_the_current_abstracts_figure_is_not_called_an_earlier_versions() -> None:
    """v1 and v2 both give 1.6x (batch size 16); the thread misquotes 2.9x: the window's own abstract's figure is
    no earlier version's, and the advice is to correct the quote."""
    from pipeline.brief.facts import Facts
    from pipeline.brief.verify import number_conflicts
    from tests.pipeline.brief.test_verify_rules import QUANTITIES, WORDS, cand, entry
    listing = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.24893", "2026-11-12", 3,
                        "PaceSpec decodes 1.6x faster than autoregressive decoding at batch size 16.")
    paper = cand("p", title="PaceSpec: Per-Request Speculation Lengths", arxiv_ids=["2610.24893"],
                 arxiv_id="2610.24893", sources=[listing])
    thread = cand("t", title="lathe-users thread", sources=[entry(1, text="> Anselm: PaceSpec's paper says 2.9x on chat.")])
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, quoting=["paper says"])
    facts.earlier_abstracts = {"2610.24893": "PaceSpec decodes 2.2x faster than autoregressive decoding at batch size 1 "
                                             "and 1.6x at batch size 16."}
    [f] = number_conflicts([paper, thread], facts)
    assert set(f.evidence["values"]) == {"1.6x", "2.9x"}
    assert "1.6x" not in f.context.get("earlier", []), f.context


def test_a_past_day_rebuilt_has_no_earlier_abstract_from_a_later_version(tmp_path: Path) -> None:
    """``texts_before(store, ids, since)`` has no upper bound: rebuilding 2026-10-09 after a v2
    of 2026-10-13 gives v1's abstract -- the very abstract that night read (``cited_abstracts``) -- as the "earlier"
    one, so its figure would be advised as a replaced version's."""
    from kb.records import PaperRecord, Sighting
    from kb.store import Store
    from kb.store.papers import add_sightings, save_papers
    from pipeline.brief.facts import gather_facts
    from pipeline.classify.taxonomy import load_taxonomy
    store = Store.open(tmp_path / "kb.sqlite")
    v1 = PaperRecord("2610.12408", 1, "SnapEvict: KV Cache Eviction for Multi-Turn Chat Serving", [],
                     "SnapEvict cuts p99 TTFT by 19%.", updated="2026-10-09", versions=[(1, "2026-10-09")])
    v2 = PaperRecord("2610.12408", 2, "SnapEvict: KV Cache Eviction for Multi-Turn Chat Serving", [],
                     "SnapEvict cuts p99 TTFT by 23%.", updated="2026-10-13", versions=[(1, "2026-10-09"), (2, "2026-10-13")])
    with store.transaction() as c:
        save_papers(c, [v1], "arxiv")
        add_sightings(c, [Sighting("2610.12408", "arxiv", "2026-10-09", "listing")])
        save_papers(c, [v2], "arxiv")
    try:
        f = gather_facts(store, "inference", load_taxonomy(), "2026-10-09", {"2610.12408"}, anchored=[],
                         since="2026-10-08T09:00")
        assert [a for *_, a in f.cited_abstracts] == ["SnapEvict cuts p99 TTFT by 19%."]   # that night's abstract
        assert getattr(f, "earlier_abstracts", {}) == {}
    finally:
        store.close()


# --- [quantities] "kv cache size" -> memory -----------------------------------------------------------------------

def test_a_speedup_that_grows_with_kv_cache_size_is_a_speedup() -> None:
    """"kv cache size" is now the keyword nearest the value and names memory."""
    from pipeline.brief.claims import claims_in
    from tests.pipeline.brief.test_claims import QUANTITIES, SAID_OF, WORDS
    read = claims_in("MuffleKV's speedup grows with KV cache size: 2.1x at 128K tokens", "A", QUANTITIES, SAID_OF, WORDS)
    assert [(c.quantity, c.unit, c.value) for c in read] == [("speed-up", "×", 2.1)]


# --- taxonomy: genomic is off the domain ----------------------------------------------------------------------------

def test_an_llm_serving_paper_evaluated_on_genomic_sequences_stays_primary() -> None:
    """One benchmark domain named in passing ("genomic sequences") makes a chunked-prefill / KV-offload
    serving paper adjacent."""
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    r = classify("We evaluate on long-context benchmarks spanning code, legal documents and genomic sequences. "
                 "LongServe combines chunked prefill with KV cache offloading, reducing TTFT by 41% and improving "
                 "throughput 1.9x over vLLM and SGLang.",
                 title="LongServe: Chunked Prefill for Long-Context LLM Serving", primary_category="cs.DC",
                 taxonomy=load_taxonomy())
    assert r.relevance == "primary", (r.relevance, r.off_domain_terms)


# --- pool.merge_named_entries with links ------------------------------------------------------------------------------

def test_an_entry_linking_an_issue_under_a_heading_naming_nothing_is_not_the_paper_its_text_mentions() -> None:
    """``_citing_nothing(links=True)`` lets a linked entry whose heading coins no name be merged by its
    *text* (the headless rule, which docs/briefing.md keeps for entries with "no ID, no link"): Omer's weekend line on
    a vLLM issue, mentioning MuffleKV in passing after "有人说", becomes MuffleKV's (its hearsay with it)."""
    from tests.pipeline.brief.test_collect import _pool
    pool = _pool(("2611.12847", "MuffleKV: Full KV for Retrieval Heads"))
    pool.known_ids = {"2611.12847"}
    url = "https://github.com/vllm-project/vllm/issues/28811"
    text = "vLLM 的 issue：开 FP8 KV 以后长上下文掉点，有人说 MuffleKV 那种保留 retrieval head 的做法能绕过去"
    add(pool.get([f"url:{url}"]), urls=[url], title="周末看到的", text=text,
        source=SourceRef("entry", "omer", "inbox/omer/n.md", 3, url, "2026-11-15T21:40", 5, text))
    pool.merge_named_entries()
    assert len(pool.items) == 2


def test_an_entry_linking_a_project_page_reaches_a_listed_paper_its_heading_names() -> None:
    """``named_in_headings`` (which promotes a listed row before the merge) still reads entries citing no
    URL only: the same heading without its link makes the listed paper an item and merges into it; with the project
    page's link the paper stays a row and the entry its own item."""
    from tests.pipeline.brief.test_collect import _entry
    pool = Pool()
    pool.keep_as_row("2611.12847", "MuffleKV: Full KV for Retrieval Heads", "hf", object())
    _entry(pool, 1, "MuffleKV（项目页和代码今天放出来的，arXiv 上还没看到）", url="mufflekv.github.io/")
    pool.known_ids = set(pool.listed)
    pool.promote(dict.fromkeys(pool.named_in_headings()),
                 lambda c, r: add(c, ids=["2611.12847"], title="MuffleKV: Full KV for Retrieval Heads"))
    pool.merge_named_entries()
    assert [c.key for c in pool.items] == ["id:2611.12847"]
