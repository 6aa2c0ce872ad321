"""Figures a team's note or a paper's abstract plausibly writes, read as an analyst would (a review of the fifteenth
sitting's reading of releases, verbs' subjects, bits per weight, acceptance rates and factors): each was a wrong
subject, quantity or conflict of that change before it was fixed."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.facts import Facts
from pipeline.brief.figures import conflicts
from pipeline.brief.model import SourceRef
from pipeline.brief.numbers import number_conflicts
from pipeline.brief.rules import load_rules
from tests.pipeline.brief.test_verify_rules import NOTE, cand, entry

RULES = load_rules()
QUANTITIES, SAID_OF, WORDS = RULES.quantities, RULES.said_of, RULES.claim_words


def _claims(text: str, where: str = "note") -> list:
    return claims_in(text, where, QUANTITIES, SAID_OF, WORDS)


def _disagree(a: str, b: str) -> list:
    return conflicts(_claims(a, "note A") + _claims(b, "note B"), set())


def _facts(**kw) -> Facts:
    return Facts(quantities=QUANTITIES, said_of=SAID_OF, claim_words=WORDS, **kw)


def _item(key: str, *texts: str, title: str | None = None, **kw):
    title = title or key
    return cand(key, title=title, titles=[title],
                sources=[entry(n, text=t, path=f"inbox/jay/{key}.md") for n, t in enumerate(texts, 1)], **kw)


def _flags(cands: list, **kw) -> list[tuple[str, dict]]:
    return [(f.subject, f.evidence["values"]) for f in number_conflicts(cands, _facts(**kw))]


# --- subjects -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Our p99 TTFT: 380 ms",          # the percentile stripped before _NAME_AT_END leaves "Our" as the name
    "Its p99 TTFT −20%",
    "Measured p99 TTFT: 1.2 s",
    "Our TTFT −20%",                 # a sign alone after the keyword now lets _NAME_AT_END read "Our"
])
def test_a_capitalised_word_before_a_percentile_or_a_signed_keyword_is_no_system(text: str) -> None:
    assert [c.subject for c in _claims(text)] == [None]


def test_two_notes_writing_our_p99_ttft_are_no_conflict_of_a_system_called_our() -> None:
    a = _item("a", "Our p99 TTFT: 380 ms")
    b = _item("b", "Our p99 TTFT: 1.2 s")
    assert _flags([a, b]) == []


def test_a_model_with_its_release_is_the_setup_not_the_system() -> None:
    """Two different systems each measured "on Llama 3.1" (在 … 上): not one system's TTFT written twice."""
    a = _item("a", "在 Llama 3.1 上 TTFT 降低 30%")
    b = _item("b", "在 Llama 3.1 上 TTFT 降低 45%")
    assert _flags([a, b]) == []


@pytest.mark.parametrize("text", ["吞吐 vs vLLM 0.6.2：2.1×", "throughput versus vLLM 0.6.2: 2.1x"])
def test_a_baseline_written_with_its_release_is_still_the_baseline(text: str) -> None:
    """[compared] "vs vLLM: 2.1×" is the item's gain over vLLM; with vLLM's release it stays so."""
    assert all(c.subject != "vLLM 0.6.2" for c in _claims(text))


def test_two_items_gains_over_one_baseline_release_are_no_conflict_of_the_baseline() -> None:
    a = _item("a", "吞吐 vs vLLM 0.6.2：2.1×")
    b = _item("b", "吞吐 vs vLLM 0.6.2：1.4×")
    assert _flags([a, b]) == []


def test_the_publisher_of_a_blog_is_not_the_system_it_reports_on() -> None:
    """"NAME's WORD says" was meant for "PaceSpec's paper says 2.2x"; NVIDIA's blog reports on many systems."""
    a = _item("a", "NVIDIA's blog says 3.6x")   # a note on a TensorRT-LLM speculative-decoding post
    b = _item("b", "NVIDIA's blog says 1.5x")   # a note on a Dynamo disaggregation post
    assert _flags([a, b]) == []


# --- quantities -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "FooServe costs 1.4x more GPU-hours than vLLM",
    "An H100 costs 2.1x as much as an A100",
    "FooServe adds 1.3x overhead",
])
def test_a_cost_or_an_overhead_is_no_speed_up(text: str) -> None:
    """A named × with no quantity is a speed-up: a cost or an overhead must not give the × its subject."""
    assert [c for c in _claims(text) if c.quantity == "speed-up"] == []


def test_a_cost_is_no_conflict_with_the_systems_speed_up() -> None:
    a = _item("a", "FooServe 2.1× speed-up over vLLM")
    b = _item("b", "FooServe costs 1.4x more GPU-hours than vLLM")
    assert _flags([a, b]) == []


@pytest.mark.parametrize(("text", "allowed"), [
    ("QuantX stores weights at 4 bits per weight and the KV cache at 2 bits", {"4 bits per weight"}),
    ("每个权重 4 bit 而 KV cache 只用 2 bit", {"4 bit"}),
    ("3.25 bits per weight on average and 8 bits for the embedding layer", {"3.25 bits per weight"}),
])
def test_bits_of_another_tensor_or_layer_are_not_the_models_bits_per_weight(text: str, allowed: set) -> None:
    """The "per weight" keyword before the value is the first figure's; the KV cache's 2 bits and the embedding
    layer's 8 bits are no average width of the model (and would make the source a "table" that drops out)."""
    assert {c.written for c in _claims(text) if c.quantity == "bits per weight"} <= allowed


@pytest.mark.parametrize("text", [
    "SLOs are set to 5x the latency of a single request on an idle GPU",
    "FooServe sustains 1.8x the request rate under 5x the TTFT SLO",
])
def test_an_slo_scale_is_no_measured_figure(text: str) -> None:
    """A factor of a quantity ("2.3x the decode throughput of FP16") is no SLO's scale (a target)."""
    assert [c for c in _claims(text) if c.value == 5] == []


def test_an_admission_controllers_acceptance_rate_is_not_speculative_decodings() -> None:
    """briefing.toml defines "acceptance rate" as the share of drafted tokens accepted (speculative decoding)."""
    assert _disagree("draft acceptance rate 74%", "The admission controller keeps the request acceptance rate at 97%") == []


# --- numbers.py -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("title", "post", "note"), [
    ("SGLang vs vLLM: a throughput benchmark on H100", "SGLang 1,800 tokens/s on Llama-3-8B.",
     "vLLM 1,200 tokens/s on the same setup."),
    ("vLLM v0.7: FlashInfer backend and DeepEP", "FlashInfer 1.3x speed-up on decode.",
     "DeepEP 2.1x speed-up on all-to-all."),
])
def test_every_coined_name_of_a_posts_title_is_not_the_post_itself(title: str, post: str, note: str) -> None:
    """The two systems a comparison post or a release post names in its title are two subjects, not the item."""
    src = SourceRef("post", "blog", None, None, "https://blog.example.com/p", "2026-10-29", 4, post)
    c = cand("p", title=title, titles=[title], sources=[src, entry(1, text=note)])
    assert _flags([c]) == []


def test_an_items_own_conflict_does_not_hide_another_items_figure_of_its_system() -> None:
    """TierKV's item has its own 3.1× vs 2.2×; LMCache's post (another item) says 1.5×: the named conflict, which
    brings another place's figure, is raised as well."""
    t = "TierKV: Tiered KV Offloading for Multi-Turn Serving"
    x = cand("x", title=t, titles=[t], arxiv_id="2610.11305", arxiv_ids=["2610.11305"],
             sources=[entry(1, text="TierKV 3.1× multi-turn throughput"), entry(2, text="TierKV 2.2× throughput on our node")])
    blog = "https://blog.lmcache.ai/bench"
    y = cand("y", title="LMCache benchmark post", titles=["LMCache benchmark post"],
             sources=[SourceRef("post", "lmcache", None, None, blog, "2026-10-29", 4,
                                "TierKV 1.5× throughput with a 64 GB CPU pool.")])
    flags = _flags([x, y])
    assert any(values.get("1.5×") == [blog] for _subject, values in flags), flags


VEIL = "On H100 GPUs, VeilServe adds 6% to TTFT and 4% to the time per output token."   # day 4's abstract


def test_a_cited_papers_abstract_saying_name_adds_is_still_compared_with_a_post_citing_it() -> None:
    """A cited (unlisted) paper's abstract writing its own name ("VeilServe adds 6% to TTFT") is set against the post
    citing it (9%)."""
    post = SourceRef("post", "vendor", None, None, "https://blog.example.com/cc-serving", "2026-10-29", 4,
                     "With confidential computing on, TTFT +9% and TPOT +4% on our H100 nodes.")
    c = cand("c", title="Confidential serving on H100, measured", arxiv_id="2610.14001", arxiv_ids=["2610.14001"],
             sources=[post])
    abstract = ("2610.14001", "https://arxiv.org/abs/2610.14001", "VeilServe", VEIL)
    [(_subject, values)] = _flags([c], cited_abstracts=[abstract])
    assert set(values) == {"6%", "9%"}


def test_a_listed_paper_not_titled_by_its_name_still_compares_its_abstract_with_a_note() -> None:
    abstract = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.14001", "2026-10-26", 3, VEIL)
    title = "Confidential LLM Serving with TEEs"
    c = cand("c", title=title, titles=[title], arxiv_id="2610.14001", arxiv_ids=["2610.14001"],
             sources=[abstract, entry(1, text="机密计算模式下：TTFT +9%，TPOT +4%")])
    [(_subject, values)] = _flags([c])
    assert values == {"6%": ["https://arxiv.org/abs/2610.14001"], "9%": [f"{NOTE}#1"]}
