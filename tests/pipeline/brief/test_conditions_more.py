"""Conditions of other kinds than a device, a link, a model size or a load (day 36, read after it was scored): a
dataset by its name ("on HotpotQA"), a count ("in 4-turn sessions" = "4 轮的会话", "16K-token prompts" = "16K 的
prompt"); and what a figure is not: a quantity held fixed ("同样的命中率下", "at the same hit rate"), a figure the
author says was written wrong ("昨天写成 … 0.9 s"), a keyword inside a longer word ("tpot" in "HotpotQA")."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.conditions import value_conditions
from pipeline.brief.figures import conflicts
from pipeline.brief.rules import load_rules

RULES = load_rules()
WORDS = RULES.conditions


def _read(text: str, about: str | None = None) -> list[tuple[str, str]]:
    return [(c.quantity, c.written)
            for c in claims_in(text, "x", RULES.quantities, RULES.said_of, RULES.claim_words, about=about)]


def _conflicts(about: str, **texts: str) -> list:
    found = [c for where, text in texts.items() for c in claims_in(
        text, where, RULES.quantities, RULES.said_of, RULES.claim_words, about=about if where == "abstract" else None)]
    return [(q, v) for _, q, _, v in conflicts(found, {about.casefold()}, texts, WORDS)]


def test_a_dataset_named_after_on_is_the_values_condition() -> None:
    abstract = "QuickRAG lowers TTFT by 27% on HotpotQA and by 16% on Natural Questions, whose retrievals are shorter."
    assert _read(abstract, "QuickRAG") == [("TTFT", "27%"), ("TTFT", "16%")], "no TPOT in HotpotQA"
    assert _conflicts("QuickRAG", abstract=abstract, note="- 摘要：Natural Questions 上 TTFT 降 27%") == [
        ("TTFT (Natural Questions)", {"16%": ["abstract"], "27%": ["note"]})]
    assert _conflicts("QuickRAG", abstract=abstract, note="- 摘要：HotpotQA 上 TTFT 降 27%") == []


@pytest.mark.parametrize("text", ["Results in Table 2 show 1.4x on H100 and 1.9x on H20.",
                                  "It is 1.4x faster in Table 2 and 1.9x faster in Figure 3."])
def test_a_part_of_the_text_is_no_condition(text: str) -> None:
    spans = [c.span for c in claims_in(text, "x", RULES.quantities, RULES.said_of, RULES.claim_words, about="X")]
    assert len(spans) == 2 and all("Table" not in conds and "Figure" not in conds for conds in value_conditions(text, spans, WORDS))


def test_a_count_is_one_condition_in_either_language() -> None:
    turns = "On chat traces the KV hit rate of a returning turn is 58% in 4-turn sessions and 83% in 16-turn sessions."
    assert _conflicts("StayKV", abstract=turns, note="摘要：16 轮的会话里，回来那一轮的 KV 命中率 58%") == [
        ("hit rate (16-turn)", {"58%": ["note"], "83%": ["abstract"]})]
    assert _conflicts("StayKV", abstract=turns, note="摘要：4 轮的会话里命中率 58%") == []
    tokens = "StitchKV cuts TTFT by 2.1x for 16K-token prompts and by 3.7x for 64K-token prompts."
    assert _conflicts("StitchKV", abstract=tokens, note="- 摘要：16K 的 prompt 上 TTFT 降了 3.7×") == [
        ("TTFT (16K-token)", {"2.1x": ["abstract"], "3.7×": ["note"]})]


@pytest.mark.parametrize("text", ["同样的命中率下比固定 30 分钟的 TTL 少占 41% 的内存",
                                  "At the same hit rate, StayKV holds 41% less memory than a fixed time to live."])
def test_a_quantity_held_fixed_is_not_the_figures(text: str) -> None:
    assert [q for q, _ in _read(text)] in ([], ["memory"])


def test_a_fall_written_with_xia_is_still_the_keywords() -> None:
    assert _read("p99 TTFT 下降 40%") == [("TTFT", "40%")]


def test_the_figure_a_correction_quotes_as_written_wrong_is_none() -> None:
    line = "昨天笔记里写成 Llama-3.1-70B 从零到首 token 0.7 s，0.7 s 是 8B 的；从 0.7 s 改成 3.2 s，卡 600 本来就写对了"
    abstract = "It brings a Llama-3.1-70B endpoint from zero to its first token in 3.2 s and a Llama-3.1-8B one in 0.7 s."
    assert _conflicts("FlowBoot", abstract=abstract, note=line) == []
    assert _read("The card wrongly gives 0.7 s for the 70B model.") == []


def test_a_percentile_after_a_value_is_its_condition() -> None:
    """"140 ms at p50 and 620 ms at p99": p50 is the 140 ms's (not the 620 ms's keyword), each TTFT under its
    percentile; "p99 TTFT 只有 140 ms" gives p99 the p50 figure. A digit's full stop before a capital ends the sentence,
    so the next one's factor is no p99 latency."""
    abstract = ("The TTFT of the turn that follows a tool call is 130 ms at p50 and 610 ms at p99. PauseKV delivers "
                "2.4x higher throughput than vLLM.")
    assert _read(abstract, "PauseKV") == [("TTFT", "130 ms"), ("TTFT", "610 ms"), ("throughput", "2.4x")]
    assert _conflicts("PauseKV", abstract=abstract, note="- 摘要说 tool call 回来那一轮的 p99 TTFT 只有 130 ms") == [
        ("TTFT (p99)", {"130 ms": ["note"], "610 ms": ["abstract"]})]
    assert _conflicts("PauseKV", abstract=abstract, note="- 摘要说 tool call 回来那一轮的 p99 TTFT 是 610 ms") == []


@pytest.mark.parametrize("about, abstract, note, flag", [
    # a device at the edge, by kind and by name, in either language
    ("StoneRun", "Serving Llama-3.2-3B, StoneRun decodes 16.4 tokens/s on a Snapdragon 8 Elite phone and 44.1 tokens/s on an M4 "
     "Max laptop.", "摘要：骁龙 8 Elite 手机上 decode 44.1 tokens/s。",
     ("throughput (phone, Snapdragon)", {"16.4 tokens/s": ["abstract"], "44.1 tokens/s": ["note"]})),
    # a weight precision
    ("ThumbLM", "On a Jetson AGX Orin, ThumbLM decodes 23.9 tokens/s with int4 weights and 10.8 tokens/s with fp16 weights.",
     "- 摘要：fp16 权重的时候 decode 也有 23.9 tokens/s",
     ("throughput (fp16)", {"10.8 tokens/s": ["abstract"], "23.9 tokens/s": ["note"]})),
    # an image's resolution ("448×448" is no factor of 448)
    ("LensKit", "LensKit lowers TTFT by 1.8x for 448×448 images and by 3.2x for 1344×1344 images.",
     "- 摘要：448×448 的图 TTFT 降 3.2×", ("TTFT (448×448)", {"1.8x": ["abstract"], "3.2×": ["note"]})),
    # a count of frames
    ("SiftKit", "On long-video question answering, TTFT is 0.41 s with 8 frames and 1.20 s with 32 frames per clip.",
     "- 摘要：每段采 32 帧 TTFT 也只有 0.41 s", ("TTFT (32-frame)", {"0.41 s": ["note"], "1.20 s": ["abstract"]})),
])
def test_a_device_a_precision_a_resolution_and_frames_are_conditions(about: str, abstract: str, note: str,
                                                                     flag: tuple) -> None:
    """Day 37 (on-device and video-language serving), read after it was scored: each misquote gives one condition
    the other's figure."""
    assert _conflicts(about, abstract=abstract, note=note) == [flag]


@pytest.mark.parametrize("about, abstract, note, flag", [
    # a phase
    ("RiverAttn", "Against the open-source Triton kernels, RiverAttn speeds up prefill by 3.0x and decode by 1.3x.",
     "- 摘要：decode 快 3.0×", ("speed-up (decode)", {"1.3x": ["abstract"], "3.0×": ["note"]})),
    # a cache state
    ("StepCache", "On a chat trace with shared system prompts, TTFT is 0.21 s when the prefix hits a cached state and "
     "1.42 s on a miss.", "- 摘要：miss 的时候 TTFT 也只有 0.21 s",
     ("TTFT (miss)", {"0.21 s": ["note"], "1.42 s": ["abstract"]})),
    # a workload
    ("FlakeMask", "FlakeMask lowers TTFT by 48% for summarisation requests and by 15% for chat requests.",
     "摘要：chat 请求 TTFT 降 48%。", ("TTFT (chat)", {"15%": ["abstract"], "48%": ["note"]})),
    # a degree of parallelism, at a sentence's end; "2.5× 的 decode 吞吐" multiplies the throughput
    ("WeaveHybrid", "WeaveHybrid raises decode throughput by 1.5x with TP=2 and by 2.5x with TP=8.",
     "- 摘要：TP=2 就有 2.5× 的 decode 吞吐", ("speed-up (TP=2)", {"1.5x": ["abstract"], "2.5×": ["note"]})),
])
def test_a_phase_a_cache_state_a_workload_and_a_parallelism_are_conditions(about: str, abstract: str, note: str,
                                                                          flag: tuple) -> None:
    """Day 38 (serving state-space and hybrid models), read after it was scored: each misquote gives one condition the
    other's figure."""
    assert _conflicts(about, abstract=abstract, note=note) == [flag]


def test_the_figure_a_change_starts_from_is_no_result() -> None:
    """"cuts the time to resume a parked session from 420 ms to 31 ms": 31 ms is the paper's; a card giving 420 ms
    ("恢复只要 420 ms") quotes the figure the change starts from."""
    abstract = "NapState cuts the time to resume a parked session from 400 ms to 29 ms."
    assert _conflicts("NapState", abstract=abstract, note="摘要：停放的会话恢复只要 400 ms。") == [
        ("recovery time", {"29 ms": ["abstract"], "400 ms": ["note"]})]


def test_a_phase_written_as_a_verb_is_no_condition() -> None:
    """"PaceSpec decodes 2.2x faster … on chat and 1.7x faster on code": "decodes" is what the system does, not the
    phase the 1.7x is of; a post's "On our chat traffic PaceSpec decodes 2.2x faster" agrees with the chat figure (day
    16's, which the phase terms first broke)."""
    abstract = "PaceKit decodes 2.1x faster than autoregressive decoding on chat and 1.6x faster on code."
    post = "On our chat traffic PaceKit decodes 2.1x faster than autoregressive decoding, as the paper reports."
    assert _conflicts("PaceKit", abstract=abstract, post=post) == []
