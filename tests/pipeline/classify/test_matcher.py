"""The term matcher: word boundaries, spelling variants, inflections, Chinese and mixed terms."""
from __future__ import annotations

import pytest

from pipeline.classify.matcher import TermMatcher, match_key, spellings, stem


def found(terms, text):
    return TermMatcher(terms).count(text)


def test_latin_terms_match_whole_words_only():
    m = TermMatcher(["moe", "tp", "kv cache"])
    assert m.count("At this moment the tpu is idle; kvm caches are small") == {}
    assert m.count("A MoE model with TP=8") == {"moe": 1, "tp": 1}


@pytest.mark.parametrize("text", [
    "the KV cache", "the KV-cache", "the kv_cache", "the KVCache", "the KV-Caches", "kv/cache",
])
def test_hyphen_space_and_run_together_spellings(text):
    assert found(["kv cache"], text) == {"kv cache": 1}


@pytest.mark.parametrize("text", ["pre-fill stage", "pre fill stage", "prefill stage", "Prefilling"])
def test_a_hyphenated_term_matches_its_joined_form(text):
    assert found(["pre-fill"], text) == {"pre-fill": 1}


def test_a_joined_term_does_not_match_the_split_form():
    # documented: write compounds with a hyphen to match every spelling
    assert found(["prefill"], "pre-fill") == {}


@pytest.mark.parametrize("text", [
    "expert offloading", "experts offloaded", "Expert offload", "expert-offloads",
])
def test_plural_ing_and_ed_forms(text):
    assert found(["expert offloading"], text) == {"expert offloading": 1}


@pytest.mark.parametrize("a, b", [
    ("cache", "caching"), ("cache", "caches"), ("cached", "cache"), ("batching", "batches"),
    ("scheduling", "schedule"), ("routing", "routes"), ("latency", "latencies"),
    ("planning", "plan"), ("gpus", "gpu"), ("quantized", "quantize"),
])
def test_stem_merges_inflections(a, b):
    assert stem(a) == stem(b)


@pytest.mark.parametrize("a, b", [("string", "str"), ("moe", "mo"), ("ring", "r"), ("bring", "br")])
def test_stem_leaves_short_and_vowelless_words(a, b):
    assert stem(a) != b


def test_chinese_terms_match_inside_runs_of_chinese():
    m = TermMatcher(["预分馏", "专家剪枝", "推理"])
    got = m.count("SlimWise 在预分馏架构下做专家剪枝，推理服务更快；推理成本下降")
    assert got == {"预分馏": 1, "专家剪枝": 1, "推理": 2}


def test_mixed_latin_and_chinese_terms():
    m = TermMatcher(["PD 分离", "KV Cache 传输"])
    assert m.count("PD分离架构") == {"PD 分离": 1}
    assert m.count("采用 PD 分离") == {"PD 分离": 1}
    assert m.count("KV-Cache传输层") == {"KV Cache 传输": 1}
    assert m.count("分离 PD") == {}                       # order matters
    assert m.count("PD 的分离") == {}                      # the CJK part must touch the Latin part


def test_full_width_and_case_fold():
    assert found(["kv cache"], "ＫＶ　Ｃａｃｈｅ") == {"kv cache": 1}


def test_overlapping_terms_are_all_reported_with_nested_spans():
    m = TermMatcher(["kv cache", "kv cache transfer", "cache"])
    spans = {m.terms[t]: (a, b) for t, a, b in m.find_spans("fast KV cache transfer")}
    assert set(spans) == {"kv cache", "kv cache transfer", "cache"}
    outer = spans["kv cache transfer"]
    for inner in ("kv cache", "cache"):
        assert outer[0] <= spans[inner][0] and spans[inner][1] <= outer[1]


def test_cjk_spans_nest_too():
    m = TermMatcher(["推理", "推理服务"])
    spans = {m.terms[t]: (a, b) for t, a, b in m.find_spans("大模型推理服务")}
    assert spans["推理服务"][0] <= spans["推理"][0] and spans["推理"][1] <= spans["推理服务"][1]


def test_two_terms_with_one_spelling_are_both_reported():
    assert found(["kv cache", "KV-cache"], "a kv cache") == {"kv cache": 1, "KV-cache": 1}
    assert found(["prefill", "pre-fill"], "prefill") == {"prefill": 1, "pre-fill": 1}


def test_repeats_are_counted():
    assert found(["vllm"], "vLLM, vllm and VLLM") == {"vllm": 3}


def test_terms_without_letters_never_match():
    m = TermMatcher(["--", "kv"])
    assert m.unmatchable == ["--"]
    assert m.count("-- kv --") == {"kv": 1}


def test_match_key_and_spellings():
    assert match_key("KV-Caches") == match_key("kv cache")
    assert "prefill" in spellings("pre-fill") and "pre fill" in spellings("pre-fill")
    assert spellings("预填充") == {"预填充"}
