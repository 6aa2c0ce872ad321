"""The classifier on small, readable cases: tags with evidence, relevance, explanations."""
from __future__ import annotations

import dataclasses

import pytest

from pipeline.classify.classifier import Classification, Tag, classify
from pipeline.classify.taxonomy import load_taxonomy


@pytest.fixture(scope="module")
def tax():
    return load_taxonomy()


PD = ("DistServe: Disaggregating Prefill and Decoding for Goodput-optimized LLM Serving",
      "Existing LLM serving systems colocate the prefill and decoding phases, causing strong "
      "prefill-decode interference. We assign prefill and decoding to different GPUs and "
      "transfer the KV cache between prefill and decode instances, meeting TTFT and TPOT SLOs "
      "with 7.4x more requests.")


def test_a_disaggregation_paper(tax):
    r = classify(PD[1], title=PD[0], primary_category="cs.DC", taxonomy=tax)
    assert isinstance(r, Classification) and r.relevance == "primary"
    assert r.tags[0].topic == "pd-disaggregation"
    assert all(isinstance(t, Tag) and t.score > 0 and t.terms for t in r.tags)
    assert r.tags == sorted(r.tags, key=lambda t: -t.score)
    assert "prefill-decode interference" in r.tags[0].terms
    assert r.taxonomy_hash == tax.hash


def test_explain_names_the_decision_tags_and_evidence(tax):
    r = classify(PD[1], title=PD[0], primary_category="cs.DC", taxonomy=tax)
    lines = r.explain()
    assert isinstance(lines, list) and all(isinstance(x, str) for x in lines)
    assert lines[0].startswith("relevance: primary")
    assert any(x.startswith("tag pd-disaggregation") and "prefill-decode interference" in x for x in lines)
    assert any("cs.DC" in x for x in lines)
    assert any(x.startswith("context") and "ttft" in x for x in lines)
    assert lines[-1] == f"taxonomy {tax.hash}"


def test_an_unrelated_vision_paper_is_none_without_tags(tax):
    r = classify("We propose a pyramidal flow matching algorithm for video generation that reduces "
                 "inference steps and training cost, evaluated on VBench.",
                 title="Pyramidal Flow Matching for Efficient Video Generative Modeling",
                 primary_category="cs.CV", taxonomy=tax)
    assert r.relevance == "none" and r.tags == []


@pytest.mark.parametrize("title, text", [
    ("Learning Dispatching Rules for Job-Shop Scheduling",
     "The job-shop scheduling problem assigns operations to machines to minimize makespan. We "
     "train a graph neural network with reinforcement learning to dispatch the next operation."),
    ("Mixture-of-Experts Gaussian Processes for Non-Stationary Regression",
     "We partition inputs with a gating network and fit a Gaussian process expert to each region, "
     "with variational inference handling the joint posterior."),
    ("Moment Matching for Quantum Circuits", "A moment-based estimator for quantum state tomography."),
])
def test_hard_negatives_reusing_inference_words(tax, title, text):
    assert classify(text, title=title, taxonomy=tax).relevance == "none"


def test_a_genome_assemblers_key_value_cache_is_not_primary(tax):
    """Day 28's keyword trap: a genome assembler's k-mer cache and its learned eviction are no LLM's KV cache."""
    r = classify("StrandEvict learns an eviction policy for the key-value cache of long-read assemblers from the k-mer "
                 "access pattern, cutting memory 3.1x on reads of a million bases.",
                 title="StrandEvict: Learned Eviction for the Key-Value Cache of Long-Read Genome Assemblers",
                 primary_category="q-bio.GN", taxonomy=tax)
    assert r.relevance != "primary" and "genome assembler" in r.off_domain_terms


def test_a_radiotherapy_schedule_is_not_llm_scheduling(tax):
    """Day 29's keyword trap: SLO-aware preemptive scheduling of radiotherapy linacs, p99 waiting time."""
    r = classify("DoseSlot schedules radiotherapy sessions on linear accelerators with SLO-aware preemption and a "
                 "p99 bound on waiting time, first-come-first-served as the baseline.",
                 title="DoseSlot: SLO-Aware Preemptive Scheduling of Radiotherapy Linacs", taxonomy=tax)
    assert r.relevance != "primary" and "radiotherapy" in r.off_domain_terms


def test_a_training_paper_with_inference_words_is_adjacent(tax):
    r = classify("We introduce an approach for stable pretraining of LLMs in NVFP4. Random Hadamard "
                 "transforms bound outliers, two-dimensional quantization keeps forward and backward "
                 "passes consistent, and stochastic rounding gives unbiased gradients. We train a 12B "
                 "model on 10 trillion tokens; training loss matches an FP8 baseline.",
                 title="Pretraining Large Language Models with NVFP4", taxonomy=tax)
    assert r.relevance == "adjacent"
    assert "quantization" in r.topics


def test_a_chinese_note_entry(tax):
    r = classify("- SlimWise 在 Prefill 与 Decode 之间解耦专家剪枝，以实现高效 MoE 推理服务\n"
                 "- 在预分馏（prefill/decode 分离）架构下对两个阶段分别做专家剪枝",
                 title="SlimWise: MoE 预分馏专家剪枝", taxonomy=tax)
    assert r.relevance == "primary"
    assert {"moe", "pd-disaggregation"} <= set(r.topics)
    moe = next(t for t in r.tags if t.topic == "moe")
    assert "专家剪枝" in moe.terms


def test_negative_terms_cancel_look_alikes(tax):
    r = classify("Product quantization and vector quantization compress embeddings in the vector "
                 "database index for approximate nearest neighbor search.", title="", taxonomy=tax)
    assert "quantization" not in r.topics
    assert "quantization" in r.negative_terms


def test_source_hints_raise_the_hinted_topic(tax):
    text = "Release notes: the router now balances requests across replicas by queue depth."
    plain = classify(text, title="Release 0.9", taxonomy=tax)
    hinted = classify(text, title="Release 0.9", hints=["routing"], taxonomy=tax)
    score = {t.topic: t.score for t in plain.tags + plain.below_threshold}.get("routing", 0)
    hscore = {t.topic: t.score for t in hinted.tags + hinted.below_threshold}["routing"]
    assert hscore == pytest.approx(score + tax.settings.hint_bonus)
    assert any("hints" in x for x in hinted.explain()) or "routing" in hinted.topics


def test_a_far_category_needs_serving_terms(tax):
    text = ("Visual token pruning reduces the tokens fed to the language model; image tokens with "
            "low attention are dropped after the second layer.")
    cv = classify(text, title="Token pruning for VLMs", primary_category="cs.CV", taxonomy=tax)
    lg = classify(text, title="Token pruning for VLMs", primary_category="cs.LG", taxonomy=tax)
    assert cv.inference_score < lg.inference_score


def test_empty_input(tax):
    r = classify("", title="", taxonomy=tax)
    assert r.relevance == "none" and r.tags == [] and r.explain()[0].startswith("relevance: none")


def test_default_taxonomy_is_used_when_none_given():
    assert classify(PD[1], title=PD[0]).relevance == "primary"


def test_thresholds_come_from_the_taxonomy(tax):
    strict = dataclasses.replace(tax, settings=dataclasses.replace(tax.settings, tag_threshold=100.0,
                                                                   context_tag_min=100.0))
    r = classify(PD[1], title=PD[0], taxonomy=strict)
    assert r.tags == [] and r.relevance == "none"


FLEETSIZE = ("FleetSize: Sizing GPU Fleets for LLM Serving with Queueing Networks Fitted to Traces",
             "We fit a queueing network to request traces of LLM serving and size the GPU fleet that keeps the latency "
             "SLO at the forecast peak with a chosen confidence.")


def test_a_text_full_of_serving_words_gets_its_best_topic_though_weak(tax):
    """Day 8's FleetSize: LLM serving, SLO, GPU, latency, request — the inference context at its cap — but its one
    topic ("LLM serving", serving systems) under the tag threshold, so it was none. From ``context_tag_min`` of
    context its best topic is tagged from ``context_tag_threshold``; a text with only some serving words (a
    microservice graph's "tail latency") is not."""
    r = classify(FLEETSIZE[1], title=FLEETSIZE[0], taxonomy=tax)
    assert r.relevance == "primary" and [t.topic for t in r.tags] == ["serving-systems"]
    off = dataclasses.replace(tax, settings=dataclasses.replace(tax.settings, context_tag_min=float("inf")))
    assert classify(FLEETSIZE[1], title=FLEETSIZE[0], taxonomy=off).relevance == "none"
    micro = classify("Sampling the critical path of microservice graphs cuts tail latency of requests.",
                     title="CogniKit: Critical-Path Sampling for Tail Latency in Microservice Graphs", taxonomy=tax)
    assert micro.relevance == "none"


def test_title_terms_count_only_in_the_title(tax):
    assert "benchmark" in tax.topics["benchmarking"].title_terms
    text = "We report TTFT and TPOT of three serving engines under production traces."
    in_title = classify(text, title="A Benchmark of LLM Serving Engines", taxonomy=tax)
    in_body = classify(text + " A benchmark.", title="LLM Serving Engines", taxonomy=tax)
    def score(r):
        return {t.topic: t.score for t in r.tags + r.below_threshold}.get("benchmarking", 0)
    assert score(in_title) > score(in_body)


def test_nested_matches_count_once_per_topic(tax):
    r = classify("The KV cache is large.", title="", taxonomy=tax)
    kv = {t.topic: t for t in r.tags + r.below_threshold}["kv-cache"]
    assert kv.terms == ("kv cache",)          # not also "kv" and "cache"


SHARDING = ("MetaTune: a Two-Phase Cross-Shard Protocol for Blockchain Sharding",
            "Progress in blockchain sharding is limited because cross-shard transactions need atomicity. "
            "We present MetaTune, a framework built on a two-phase cross-shard protocol. On Ethereum "
            "transaction traces, the approach matches or exceeds prior work at 7x lower cost.")


def test_a_systems_category_alone_does_not_make_a_paper_about_inference(tax):
    # the sample day's listing: a cs.DC sharding protocol tags parallelism ("sharding") and has no word of
    # inference; the category bonus once lifted it to adjacent
    r = classify(SHARDING[1], title=SHARDING[0], primary_category="cs.DC", taxonomy=tax)
    assert r.relevance == "none" and not any("systems category" in x for x in r.explain())
    # a paper that is about serving keeps the bonus
    pd = classify(PD[1], title=PD[0], primary_category="cs.DC", taxonomy=tax)
    assert any("systems category" in x for x in pd.explain())
