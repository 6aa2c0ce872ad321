"""Figures given under conditions (``pipeline.brief.conditions``, ``figures.conflicts``): an abstract that gives one
quantity a value per model, GPU, interconnect or "respectively" item is compared, condition by condition, with a
line that names one of them beside its own value; a line naming none, or naming the other condition only beside
another figure, is not."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.conditions import value_conditions
from pipeline.brief.figures import conflicts
from pipeline.brief.model import SourceRef
from pipeline.brief.rules import load_rules
from tests.pipeline.brief.test_figures_read import _facts
from tests.pipeline.brief.test_verify_rules import cand, entry

RULES = load_rules()
WORDS = RULES.conditions

TP_ABSTRACT = ("Serving Llama-3.1-70B with 8-way tensor parallelism, WeaveTP reaches 2,310 tokens/s per GPU in decode "
               "on NVLink-connected H100 GPUs, 1.27x Megatron-style tensor parallelism; on PCIe-connected L40S GPUs, "
               "where the all-reduce dominates, the gain is 1.66x.")
BUDGET_ABSTRACT = "On 8 H100 GPUs, TokenCap keeps p99 TTFT at 1.9 s on Qwen2.5-32B and 2.6 s on QwQ-32B."


def _spans(text: str, about: str) -> list[tuple[int, int]]:
    return [c.span for c in claims_in(text, "abs", RULES.quantities, RULES.said_of, RULES.claim_words, about=about)]


def _conflicts(about: str, **texts: str) -> list:
    found = [c for where, text in texts.items() for c in claims_in(
        text, where, RULES.quantities, RULES.said_of, RULES.claim_words, about=about if where == "abstract" else None)]
    return conflicts(found, {about.casefold()}, texts, WORDS)


def test_each_value_of_an_abstract_is_given_under_its_own_device_and_link() -> None:
    spans = [s for s in _spans(TP_ABSTRACT, "WeaveTP") if TP_ABSTRACT[s[0]:s[1]].endswith("x")]
    assert value_conditions(TP_ABSTRACT, spans, WORDS) == [("NVLink", "H100"), ("PCIe", "L40S")]


def test_a_condition_written_after_each_value_is_that_values() -> None:
    text = "It saves 41% of thinking tokens on Qwen2.5-32B and 27% on QwQ-32B."
    spans = [(text.index("41%"), text.index("41%") + 3), (text.index("27%"), text.index("27%") + 3)]
    assert value_conditions(text, spans, WORDS) == [("Qwen2.5-32B",), ("QwQ-32B",)]


def test_a_respectively_list_gives_each_value_its_item() -> None:
    text = "The mask costs 2.2%, 5.1% and 9.0% of decode time for JSON-schema, regex and EBNF grammars, respectively."
    spans = [(text.index(v), text.index(v) + len(v)) for v in ("2.2%", "5.1%", "9.0%")]
    assert value_conditions(text, spans, WORDS) == [("JSON-schema",), ("regex",), ("EBNF",)]


def test_another_figure_in_brackets_keeps_its_condition_from_the_value_before_it() -> None:
    """"1.17× on H100 (1.35× on H20)": the 1.17× is H100's alone."""
    text = "- 1.17× attention speed-up on H100 (1.35× on H20) over the default tiles."
    assert value_conditions(text, [(2, 7)], WORDS, among={"H100", "H20"}) == [("H100",)]


def test_a_line_giving_the_pcie_gpus_the_nvlink_factor_conflicts_under_that_condition() -> None:
    found = _conflicts("WeaveTP", abstract=TP_ABSTRACT, note="- 摘要：PCIe 的 L40S 上 decode 吞吐是 Megatron 式 TP 的 1.27×")
    assert found == [(None, "speed-up (L40S, PCIe)", "×", {"1.27×": ["note"], "1.66x": ["abstract"]})]


@pytest.mark.parametrize("line", [
    "- 摘要：NVLink 的 H100 上 decode 吞吐是 Megatron 式 TP 的 1.27×",   # the right condition
    "- decode 吞吐是 Megatron 式 TP 的 1.27×",                            # no condition: the table says nothing
    "- 1.27× on H100 (1.66× on L40S), both quoted from the abstract",      # the other condition is another figure's
])
def test_a_line_naming_the_right_condition_or_none_is_no_conflict(line: str) -> None:
    assert _conflicts("WeaveTP", abstract=TP_ABSTRACT, note=line) == []


def test_one_figure_given_for_two_models_conflicts_with_the_second_models() -> None:
    found = _conflicts("TokenCap", abstract=BUDGET_ABSTRACT,
                       note="- 摘要：Qwen2.5-32B 和 QwQ-32B 上 p99 TTFT 都是 1.9 s")
    assert [(q, v) for _, q, _, v in found] == [("TTFT (QwQ-32B)", {"1.9 s": ["note"], "2.6 s": ["abstract"]})]


def test_a_factor_over_two_named_systems_is_still_read_by_the_system_not_the_condition() -> None:
    """A throughput factor over S-LoRA against the abstract's factor over S-LoRA (and over Punica) is the conflict
    it always was, shown once: not again as a speed-up of no condition."""
    found = _conflicts("HiveKit", abstract="HiveKit serves 41 requests/s, a 2.4x throughput gain over S-LoRA "
                       "and 3.7x over Punica.", note="- 摘要 headline：吞吐比 S-LoRA 高 3.7×")
    assert [q for _, q, _, _ in found] == ["throughput"]


def test_the_number_rule_reads_a_listed_abstract_as_about_its_paper_and_flags_the_condition() -> None:
    from pipeline.brief.numbers import number_conflicts
    title = "WeaveTP: Overlapping All-Reduce with GEMM Tiles"
    paper = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2611.90001", "2026-11-24", 3,
                      f"{title}\n{TP_ABSTRACT}")
    item = cand("2611.90001", title=title, titles=[title], arxiv_id="2611.90001", arxiv_ids=["2611.90001"],
                sources=[entry(1, text="- 摘要：PCIe 的 L40S 上 decode 吞吐是 Megatron 式 TP 的 1.27×",
                               path="inbox/jay/weave.md"), paper])
    flags = number_conflicts([item], _facts(conditions=WORDS))
    assert [(f.evidence["quantity"], sorted(f.evidence["values"])) for f in flags] == [
        ("speed-up (L40S, PCIe) (×)", ["1.27×", "1.66x"])]


# --- reading the figures such a day writes (day 35, written blind: serverless and elastic serving) ------------------

def _read(text: str, about: str | None = None) -> list[tuple[str | None, str, str]]:
    return [(c.subject, c.quantity, c.written)
            for c in claims_in(text, "x", RULES.quantities, RULES.said_of, RULES.claim_words, about=about)]


def test_the_second_value_of_a_list_takes_the_first_ones_quantity() -> None:
    """"… from zero to its first token in 3.6 s and a Llama-3.1-8B endpoint in 0.8 s": the keyword is the first
    value's, sixty characters back; the second is of the same quantity."""
    text = "It brings a Llama-3.1-70B endpoint from zero to its first token in 3.6 s and a Llama-3.1-8B endpoint in 0.8 s."
    assert _read(text, "CoolBoot") == [("CoolBoot", "start-up time", "3.6 s"), ("CoolBoot", "start-up time", "0.8 s")]
    assert [q for _, q, _ in _read("It saves 41% of thinking tokens on Qwen2.5-32B and 27% on QwQ-32B.")] == [
        "thinking tokens", "thinking tokens"]


@pytest.mark.parametrize("text", ["keeps p99 TTFT at 1.3 s under a 3x burst", "摘要说 3 倍突发下 p99 TTFT 也只有 1.3 s"])
def test_the_load_a_figure_is_measured_under_is_no_figure(text: str) -> None:
    assert [w for _, _, w in _read(text)] == ["1.3 s"]


def test_gigabits_a_second_are_an_eighth_of_gigabytes() -> None:
    """"权重读盘 21.4 Gb/s" for the abstract's 21.4 GB/s is another figure (a unit slip); 100 Gb/s is 12.5 GB/s."""
    slip = _conflicts("LoadKit", abstract="LoadKit reads weights at 21.4 GB/s.", note="摘要：权重读盘 21.4 Gb/s。")
    assert [v for *_, v in slip] == [{"21.4 GB/s": ["abstract"], "21.4 Gb/s": ["note"]}]
    assert _conflicts("LoadKit", abstract="LoadKit moves KV at 12.5 GB/s.", note="KV 传输带宽 100 Gb/s") == []


def test_a_load_level_a_link_in_chinese_and_a_model_before_the_value_are_conditions() -> None:
    """The team writes the abstract's "4x burst" as "4 倍突发", its Ethernet as "以太网", and the model a figure is of
    before it ("Llama-3.1-70B 从零到首 token 0.9 s"): each names the abstract's condition."""
    burst = _conflicts("WaveScale", abstract="WaveScale keeps p99 TTFT at 1.3 s under a 2x burst and at 3.1 s under "
                       "a 4x burst, where a reactive autoscaler reaches 6.0 s and 10.2 s.",
                       note="- 摘要说 4 倍突发下 p99 TTFT 也只有 1.3 s")
    assert [(q, v) for _, q, _, v in burst] == [("TTFT (4x burst)", {"1.3 s": ["note"], "3.1 s": ["abstract"]})]
    link = _conflicts("PourKit", abstract="PourKit has every new replica serving within 4.9 s over 400 Gb/s RoCE and "
                      "within 16.1 s over 100 Gb/s Ethernet with TCP.", note="摘要：100 Gb/s 以太网上每个新副本 4.9 s 内开始服务。")
    assert [q for _, q, _, _ in link] == ["start-up time (Ethernet)"]
    model = _conflicts("CoolBoot", abstract="It brings a Llama-3.1-70B endpoint from zero to its first token in 3.6 s "
                       "and a Llama-3.1-8B endpoint in 0.8 s.", note="- 摘要：Llama-3.1-70B 从零到首 token 0.8 s")
    assert [(q, v) for _, q, _, v in model] == [("start-up time (Llama-3.1-70B)",
                                                 {"0.8 s": ["note"], "3.6 s": ["abstract"]})]


def test_a_model_with_its_size_is_still_the_subject_of_its_own_figures() -> None:
    """Two models' weights ("Llama-3.1-70B 140 GB", "Qwen2.5-72B 145 GB") are two subjects, condition or not."""
    assert _conflicts("X", abstract="Nothing measured here.", a="Llama-3.1-70B 140 GB", b="Qwen2.5-72B 145 GB") == []


@pytest.mark.parametrize("text", ["- 对象存储上客户模型 du 出来一共 1410.52817 GB，迁到本地 NVMe 得排期",
                                  "- adapter 仓库的全量快照一共 1311.40962 GB，在对象存储上"])
def test_a_size_kept_in_storage_is_no_memory_figure(text: str) -> None:
    """Days 33 and 35: what an object store or a repository holds is no memory a server uses, nothing to verify."""
    assert _read(text) == []
    assert _read("KV cache 在 H100 上占 40 GB") == [(None, "memory", "40 GB")]
