"""Which of a topic's sections an item joins, with the keyword classifier: the taxonomy names the topic's
sections by their headings, and what the team anchored in each decides between them."""
from __future__ import annotations

import pytest

from kb.store.anchors import AnchorView
from pipeline.brief.facts import SectionTerms
from pipeline.brief.placing import nearest_section
from pipeline.classify.classifier import classify
from pipeline.classify.taxonomy import load_taxonomy

# A doc laid out like v311 (numbers as written, without §), with a few of its anchors.
TITLES = {"§2.1": "Engines and runtimes", "§2.4": "Prefill-Decode Disaggregation", "§2.4.1": "KV transfer",
          "§2.5": "KV cache compression", "§4": "Hardware and accelerators", "§10": "Cost, energy and capacity"}
ANCHORS = [("2.1", "2309.06180 vLLM — PagedAttention"),
           ("2.1", "2610.09560 PageWeave — unified paging of KV cache and LoRA adapters"),
           ("2.4", "2401.09670 DistServe — goodput-optimized PD split"),
           ("2.4.1", "2610.08694 KVCC — deadline-aware RDMA congestion control for KV cache transfer"),
           ("2.5", "2306.14048 H2O — heavy-hitter eviction"),
           ("2.5", "2309.17453 StreamingLLM — attention sinks"),
           ("10", "2609.24417 PowerCap — energy-aware batching for LLM serving")]


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy()


@pytest.fixture(scope="module")
def describe(taxonomy) -> SectionTerms:
    anchors = [AnchorView(s, label.split()[0], label.split()[0], None, label, None, None, None)
               for s, label in ANCHORS]
    return SectionTerms(anchors, TITLES, taxonomy, classify)


def test_a_topic_names_all_its_sections_by_their_headings_in_its_hints_order(taxonomy) -> None:
    # kv-cache: "Engines and runtimes", then "KV cache …", wherever the doc numbers them
    assert taxonomy.sections_for("kv-cache", TITLES) == ["§2.1", "§2.5"]
    assert taxonomy.section_for("kv-cache", TITLES) == "§2.1"
    assert taxonomy.sections_for("kv-cache", {"§7": "KV cache compression"}) == ["§7"]
    assert taxonomy.sections_for("kv-cache", {"§7": "Quantization"}) == []


def test_the_section_whose_anchors_share_the_topics_words_wins(describe) -> None:
    title = "SnapEvict: Attention-Sink-Aware KV Cache Eviction for Multi-Turn Chat Serving"
    assert nearest_section(["2.1", "2.5"], title, "kv-cache", describe) == "2.5"   # StreamingLLM's attention sinks
    assert nearest_section(["2.1", "2.5"], title, "kv-cache") == "2.1"             # nothing to compare with


def test_nothing_shared_keeps_the_preferred_section(describe) -> None:
    # only "KV cache offloading" is kv-cache's, and no anchored item has it: the first of its sections stands
    title = "TierKV: Tiered KV Cache Offloading across HBM, CPU Memory and SSD for Multi-Turn LLM Serving"
    assert nearest_section(["2.1", "2.5"], title, "kv-cache", describe) == "2.1"


def test_only_the_topics_strong_words_count(describe) -> None:
    # "LLM serving" is a serving-systems word (PowerCap's), "kv" a weak one: neither moves a KV-cache item
    title = "KV reuse for LLM serving"
    assert "llm serving" in describe.section("10") and "llm serving" not in describe.strong("kv-cache")
    assert "kv" not in describe.strong("kv-cache")
    assert nearest_section(["2.1", "10"], title, "kv-cache", describe) == "2.1"


def test_a_subsection_never_displaces_its_parent_nor_the_parent_its_subsection(describe) -> None:
    title = "C2CFlow: KV Cache Transfer over NVLink-C2C for Disaggregated Serving"
    assert nearest_section(["2.4", "2.4.1"], title, "kv-transfer", describe) == "2.4"
    assert nearest_section(["2.4.1", "2.4"], title, "kv-transfer", describe) == "2.4.1"


def test_energy_and_cost_have_a_topic_whose_hint_names_their_heading(taxonomy) -> None:
    result = classify("Datacenter racks for LLM inference run under power caps, and GPUs throttle when a batch "
                      "spikes power draw; we size batches to stay under the rack cap.",
                      title="WattServe: Energy-Proportional Batching for LLM Inference under Rack Power Caps",
                      taxonomy=taxonomy)
    assert result.tags[0].topic == "cost-energy"
    assert taxonomy.section_for("cost-energy", TITLES) == "§10"
    assert taxonomy.section_for("cost-energy", {"§4": "Hardware and accelerators"}) is None


@pytest.mark.parametrize(("text", "asked"), [
    ("不属于 §2.1（不是 engine 本身），建议归入 §3.3", ["3.3"]),     # the section the author rejects is not asked for
    ("别放到 §2.1，应该归入 §2.5", ["2.5"]),
    ("上次误归入 §2.1，这次建议 §2.5", ["2.5"]),
    ("不建议归入 §2.1", []),
    ("这不是重点，建议归入 §3.3", ["3.3"]),                        # a negation elsewhere in the sentence
    ("这篇不错，建议归入 §3.3", ["3.3"]), ("非常建议归入 §3.3", ["3.3"]), ("不应该放到 §2.1", []),
    ("特别建议放到 §2.1", ["2.1"]), ("分别建议放到 §2.1 和 §3.3", ["2.1", "3.3"]), ("Whether or not → §3.1", ["3.1"]),
    ("建议：§3.1", ["3.1"]), ("→ §1.(9)", ["1.(9)"]), ("see §2.1 for background", []),
])
def test_a_section_the_author_rejects_is_not_a_request(text: str, asked: list[str]) -> None:
    from kb.sections import stated_sections
    from pipeline.brief.rules import load_rules
    rules = load_rules()
    assert stated_sections(text, rules.section_markers, rules.section_negations, rules.section_not_words) == asked


# A doc's sections for the judge (numbers without §), and texts a keyword trap and a neighbouring field write.
SECTIONS = {"2.1": "Engines and runtimes", "2.7": "Parallelism", "3.3": "Attention kernels"}
TRAP_TITLE = "HelixFuse: Fused Attention Kernels in Triton for Protein Structure Models"
TRAP_TEXT = ("We generate fused attention kernels with Triton for protein structure models, cutting inference "
             "latency on one GPU by 1.8x against the unfused baseline.")
TRAINING_TITLE = "BubbleFill: Overlapping Gradient All-Reduce with Pipeline Bubbles in Pre-training"
TRAINING_TEXT = ("During pre-training on a GPU cluster we overlap the gradient all-reduce with pipeline-parallel "
                 "bubbles, and training throughput rises by 12%.")


def _judged(title: str, text: str, team: str | None = None, sections: dict[str, str] = SECTIONS):
    from pipeline.brief.judge import judge
    from pipeline.brief.model import Candidate, SourceRef
    from pipeline.brief.rules import load_rules
    c = Candidate(key="2612.90001", arxiv_ids=["2612.90001"], titles=[title], texts=[text],
                  sources=[SourceRef("arxiv", "arxiv", text=text, date="2026-12-01")])
    if team:
        c.texts.append(team)
        c.sources.append(SourceRef("entry", "ann", "inbox/ann/n.md", 1, text=team, date="2026-12-01"))
    judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
          known_ids=set(), rules=load_rules(), sections=sections)
    return c


def test_words_of_another_field_at_the_demotion_weight_say_the_item_is_that_fields(taxonomy) -> None:
    from pipeline.brief.model import Candidate
    from pipeline.brief.placing import off_the_domain
    trap = Candidate(key="t", titles=[TRAP_TITLE], texts=[TRAP_TEXT], title=TRAP_TITLE)
    assert off_the_domain(trap, taxonomy) == ["protein"]
    # a word that weighs less than the demotion ("robot") names no field the item belongs to
    light = Candidate(key="l", titles=["Serving a robot's planner LLM"], texts=["Decode latency of an LLM."],
                      title="Serving a robot's planner LLM")
    assert off_the_domain(light, taxonomy) == []


def test_an_item_adjacent_by_another_fields_words_gets_no_section() -> None:
    """Attention kernels for protein models: the keyword scorer tags attention kernels, the off-domain words make it
    adjacent; the doc has no place for it, so kb suggests none and says which field it is."""
    c = _judged(TRAP_TITLE, TRAP_TEXT)
    assert (c.relevance, c.section, c.off_domain) == ("adjacent", None, ["protein"])
    assert c.why == [{"code": "off-domain", "detail": "protein"}]


def test_the_team_asking_for_a_section_outweighs_the_other_fields_words() -> None:
    c = _judged(TRAP_TITLE, TRAP_TEXT, team="HelixFuse：kernel 写法可以借鉴，建议归入 §3.3")
    assert (c.section, c.off_domain) == ("3.3", [])
    assert c.why[0]["code"] != "off-domain"


def test_an_item_of_a_neighbouring_field_keeps_kbs_suggestion() -> None:
    """Training systems are adjacent to serving, not off its domain: the doc may well hold such a paper."""
    c = _judged(TRAINING_TITLE, TRAINING_TEXT)
    assert (c.relevance, c.off_domain, c.section) == ("adjacent", [], "2.7")
    assert c.why == [{"code": "adjacent", "detail": ""}]


# Inference papers that name LLMs and use one word another field uses too: they keep the section kb suggests.
ONE_BORROWED_WORD = [
    ("RackKV: Handing the KV Cache from Prefill to Decode Nodes via a Key-Value Store",
     "Prefill nodes of a disaggregated LLM serving cluster put the KV cache into a key-value store that decode nodes "
     "fetch over RDMA, so KV transfer no longer stalls decoding and TTFT drops by 35%.", "2.2"),
    ("ConvDraft: A Convolutional Drafter for Speculative Decoding",
     "Speculative decoding with a convolutional draft model in place of a small transformer drafter accepts more "
     "tokens per step and speeds up LLM inference by 1.6x.", "2.5"),
]


@pytest.mark.parametrize(("title", "text", "section"), ONE_BORROWED_WORD)
def test_an_llm_paper_with_one_word_of_another_field_keeps_its_section(title: str, text: str, section: str) -> None:
    """"Key-value store" and "convolutional" weigh the demotion weight alone; said of LLM serving, they are a
    means, not the paper's field: still adjacent by the classifier, but placed and not called another field's."""
    c = _judged(title, text, sections={**SECTIONS, "2.2": "Prefill-Decode Disaggregation",
                                       "2.5": "Speculative decoding"})
    assert (c.off_domain, c.section) == ([], section)
    assert c.why[0]["code"] != "off-domain"


def test_two_words_of_another_field_outweigh_naming_llms(taxonomy) -> None:
    from pipeline.brief.model import Candidate
    from pipeline.brief.placing import off_the_domain
    from pipeline.brief.rules import load_rules
    title = "FoldLM: Serving Protein Language Models for Molecular Design"
    text = "We serve protein language models for molecular design, cutting inference latency by 2x."
    c = Candidate(key="f", titles=[title], texts=[text], title=title)
    assert off_the_domain(c, taxonomy, load_rules().own_field) == ["molecular", "protein"]


@pytest.mark.parametrize("title", [TRAP_TITLE, "WeaveKern: Fused Attention Kernels for Graph Neural Networks"])
def test_a_keyword_trap_naming_no_llm_is_another_fields_by_one_word(taxonomy, title: str) -> None:
    """The day's keyword traps (graph attention kernels, packet decoding, radiotherapy scheduling) name no language
    model: one term at the demotion weight still says which field they are."""
    from pipeline.brief.model import Candidate
    from pipeline.brief.placing import off_the_domain
    from pipeline.brief.rules import load_rules
    c = Candidate(key="t", titles=[title], texts=[TRAP_TEXT], title=title)
    assert off_the_domain(c, taxonomy, load_rules().own_field) != []
