"""A review of the eighteenth sitting's first reading of figures under conditions (51aef5b; a helper in a clone):
ordinary text its new rules read wrongly. Each test says what a careful analyst expects; each failed on that
reading and passes since (one, marked, shows an older reading the review ran into)."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.figures import conflicts
from pipeline.brief.likeness import likeness
from pipeline.brief.model import SourceRef
from pipeline.brief.numbers import number_conflicts
from pipeline.brief.rules import load_rules
from pipeline.classify.classifier import classify
from tests.pipeline.brief.test_figures_read import _facts
from tests.pipeline.brief.test_likeness import NAMES as LIKE_NAMES
from tests.pipeline.brief.test_likeness import WORDS as LIKE_WORDS
from tests.pipeline.brief.test_likeness import _item as _like_item
from tests.pipeline.brief.test_verify_rules import cand, entry

RULES = load_rules()
WORDS = RULES.conditions

WEAVE = ("Serving Llama-3.1-70B with 8-way tensor parallelism, WeaveTP reaches 2,310 tokens/s per GPU in decode "
         "on NVLink-connected H100 GPUs, 1.27x Megatron-style tensor parallelism; on PCIe-connected L40S GPUs, "
         "where the all-reduce dominates, the gain is 1.66x.")


def _conflicts(about: str, **texts: str) -> list:
    found = [c for where, text in texts.items() for c in claims_in(
        text, where, RULES.quantities, RULES.said_of, RULES.claim_words, about=about if where == "abstract" else None)]
    return conflicts(found, {about.casefold()}, texts, WORDS)


def _read(text: str, about: str | None = None) -> list[tuple[str | None, str, str]]:
    return [(c.subject, c.quantity, c.written)
            for c in claims_in(text, "x", RULES.quantities, RULES.said_of, RULES.claim_words, about=about)]


def _paper_flags(title: str, abstract: str, line: str, arxiv_id: str = "2611.90002") -> list:
    paper = SourceRef("arxiv", "arxiv", None, None, f"https://arxiv.org/abs/{arxiv_id}", "2026-11-24", 3,
                      f"{title}\n{abstract}")
    item = cand(arxiv_id, title=title, titles=[title], arxiv_id=arxiv_id, arxiv_ids=[arxiv_id],
                sources=[entry(1, text=line, path="inbox/jay/review18.md"), paper])
    flags = number_conflicts([item], _facts(conditions=WORDS))
    return [(f.evidence["quantity"], sorted(f.evidence["values"])) for f in flags]


# --- conditions: which value a condition belongs to -------------------------------------------------------------

def test_a_respectively_list_written_before_the_values_pairs_them_in_order() -> None:
    """"On H100 and A100 GPUs, … by 1.8x and 2.4x …, respectively": 1.8x is H100's, 2.4x A100's. A line giving
    A100 2.4× quotes the abstract right. The code reads "respectively" only after the values, so both conditions go
    to the first value and "A100" selects 1.8x: a false "speed-up (A100)" conflict."""
    abstract = "On H100 and A100 GPUs, FooServe improves decode throughput by 1.8x and 2.4x over vLLM, respectively."
    assert _conflicts("FooServe", abstract=abstract, note="- 摘要：在 A100 上 decode 吞吐提升 2.4×") == []


@pytest.mark.parametrize("abstract, line", [
    ("On H20 GPUs, DecoFuse speeds up MoE decode by 1.4x over vLLM; on H200 GPUs the speed-up is 1.9x.",
     "- 摘要：在 H200 上加速 1.9×"),
    ("SkewAttn speeds up decode attention by 1.6x over FlashInfer on A10 GPUs and by 2.3x on A100 GPUs.",
     "- 摘要：在 A100 上加速 2.3×"),
])
def test_a_gpu_whose_name_holds_another_gpus_name_is_not_that_gpu(abstract: str, line: str) -> None:
    """H200 is not H20 and A100 is not A10: a line quoting the H200 (A100) figure right is no conflict. The line's
    conditions are found by substring of the folded text ("h200" holds "h20"), so it is also read as naming H20
    (A10) and set against that GPU's figure."""
    assert _conflicts("X", abstract=abstract, note=line) == []


def test_a_gpu_named_only_as_the_contrast_is_not_the_lines_condition() -> None:
    """"比起 H100，L40S 上 … 1.66×" gives the L40S figure (right); H100 is only what it is contrasted with. The code
    takes every condition the line names, so the 1.66× is also set against H100's 1.27x."""
    line = "- 摘要：比起 H100，L40S 上 decode 吞吐是 Megatron 式 TP 的 1.66×"
    assert _conflicts("WeaveTP", abstract=WEAVE, note=line) == []


def test_a_gpu_before_its_figure_is_the_condition_not_the_system() -> None:
    """"L40S 上加速 1.27×" gives the L40S the H100's factor: the misquote the rule exists to catch ("speed-up
    (L40S)"). The GPU is read as the figure's subject (a system named L40S), so it is compared with nothing."""
    found = _conflicts("WeaveTP", abstract=WEAVE, note="- 摘要：L40S 上加速 1.27×")
    assert [(q, v) for _, q, _, v in found] == [("speed-up (L40S)", {"1.27×": ["note"], "1.66x": ["abstract"]})]


def test_a_line_with_the_right_conditions_figure_is_not_set_against_the_other_one() -> None:
    """The abstract gives 1.31x "the decode throughput" on H100 and "the gain is 1.72x" on L40S; a line giving
    L40S 1.72× quotes it right. The two abstract values are read as two quantities (throughput, speed-up): the
    conditioned reading finds them agreeing, yet the plain "throughput" conflict 1.31x / 1.72× is kept."""
    abstract = ("On NVLink-connected H100 GPUs, KnitTP reaches 1.31x the decode throughput of Megatron-style tensor "
                "parallelism; on PCIe-connected L40S GPUs the gain is 1.72x.")
    assert _conflicts("KnitTP", abstract=abstract, note="- 摘要：在 L40S 上 decode 吞吐 1.72×") == []


def test_a_condition_shared_by_two_values_does_not_pick_the_first() -> None:
    """"On H100, … 1.9x faster at 8K context and 3.1x faster at 128K context; on A100 …": both 1.9x and 3.1x are
    H100's (the context length tells them apart). A line giving H100 at 128K 3.1× is right; the code gives H100 to
    the first value only, so "H100" selects 1.9x and the line is flagged."""
    abstract = ("On H100, LongAttn makes decode attention 1.9x faster at 8K context and 3.1x faster at 128K context; "
                "on A100 it is 1.5x faster at 8K context.")
    assert _conflicts("LongAttn", abstract=abstract, note="- 摘要：H100 上 128K 上下文时 decode attention 快 3.1×") == []


def test_per_gpu_names_the_gpu_of_the_value_before_it() -> None:
    """"2,310 tokens/s per H100 and 1,020 tokens/s per L40S": H100's figure is 2,310. "per" is no word that
    introduces a condition, so "H100" is read as the next value's condition (before 1,020) and a right quote of
    H100's 2,310 is flagged against 1,020."""
    abstract = "WideServe decodes 2,310 tokens/s per H100 and 1,020 tokens/s per L40S."
    assert _conflicts("WideServe", abstract=abstract, note="- 摘要：每张 H100 上 decode 吞吐 2,310 tokens/s") == []


def test_a_respectively_item_is_not_cut_to_its_first_word() -> None:
    """"by 1.6x and 2.2x with batch sizes of 8 and 64, respectively": the items are batch size 8 and 64. The item
    "batch sizes of 8" is cut to "batch", so any line writing "batch" (here "batch 64", the right figure) is read
    under 8's condition: a false "speed-up (batch)" conflict."""
    abstract = ("On ShareGPT traces, FooServe improves decode throughput over vLLM by 1.6x and 2.2x with batch sizes "
                "of 8 and 64, respectively.")
    assert _conflicts("FooServe", abstract=abstract, note="- 摘要：batch 64 时 decode 吞吐是 vLLM 的 2.2×") == []


def test_a_models_own_size_is_not_the_papers_figure_under_that_model() -> None:
    """The weights of Llama-3.1-70B (140 GB, the model's own figure, as the doc says) are not FoldKV's KV cache on
    that model (40 GB). Under conditions a sized model's subject becomes the item, so 140 GB is set against 40 GB."""
    abstract = "FoldKV shrinks the KV cache of Llama-3.1-70B at 128K context to 40 GB and that of Llama-3.1-8B to 6 GB."
    assert _conflicts("FoldKV", abstract=abstract, note="- 背景：Llama-3.1-70B 140 GB，单卡放不下") == []


# --- quantities: lists, load, links, storage, new keywords -------------------------------------------------------

@pytest.mark.parametrize("text, kept", [
    ("It brings a Llama-3.1-70B endpoint from zero to its first token in 3.6 s and keeps it warm for 300 s after the "
     "last request.", "3.6 s"),
    ("It saves 41% of thinking tokens on QwQ-32B and 20% of the GPU hours of a full evaluation run.", "41%"),
])
def test_a_list_does_not_carry_its_quantity_to_a_value_of_another_thing(text: str, kept: str) -> None:
    """A keep-alive of 300 s is no start-up time; 20% of GPU hours is no thinking-token saving. ``_carried`` gives
    the second value of an "and" list the first one's quantity whenever nothing names its own."""
    assert [w for _, _, w in _read(text, "CoolBoot")] == [kept]


def test_a_share_of_thinking_tokens_is_no_saving() -> None:
    """"62% of thinking tokens re-verify steps" is an observation about the model, not ThinkTrim's saving (38%). The
    new keyword "of thinking tokens" reads it as a saving, which makes the abstract a two-value table and hides a
    misquote ("省了 44%") that is flagged without the motivation sentence."""
    abstract = ("Reasoning models re-check their own steps: in our traces, 62% of thinking tokens re-verify steps "
                "already checked. ThinkTrim stops a step's re-verification once its answer is fixed and cuts "
                "thinking tokens by 38% with no loss of accuracy.")
    found = _conflicts("ThinkTrim", abstract=abstract, note="- 摘要：thinking token 省了 44%")
    assert [v for *_, v in found] == [{"38%": ["abstract"], "44%": ["note"]}]


def test_a_loading_speed_up_is_no_load_level() -> None:
    """"3.1x loading speedup" is a checkpoint loader's result, not a load it was measured under. ``_LOAD_AFTER``
    has no word end, so "load" matches the start of "loading" and the figure is dropped."""
    assert [w for _, _, w in _read("FooLoad achieves a 3.1x loading speedup over safetensors on a 70B checkpoint.")] == [
        "3.1x"]


def test_a_links_speed_written_with_de_or_a_transport_is_no_bandwidth_figure() -> None:
    """"网卡是 400 Gb/s 的 InfiniBand" is the testbed's link speed (a setting), not a bandwidth FooKV reaches. The
    link exclusion needs the link word right after the unit, and Gb/s is now compared with GB/s (an eighth), so it is
    set against the abstract's 46.1 GB/s."""
    abstract = "FooKV transfers KV caches between prefill and decode instances at 46.1 GB/s."
    assert _conflicts("FooKV", abstract=abstract, note="- 测试集群的网卡是 400 Gb/s 的 InfiniBand") == []


@pytest.mark.parametrize("text", ["- 仓库里的 benchmark 脚本测出来峰值显存 38 GB",
                                  "Requests are batched into length buckets and peak KV memory falls to 38 GB."])
def test_a_memory_figure_beside_a_repo_or_a_bucket_is_still_memory(text: str) -> None:
    """Peak GPU memory measured with the repo's script, or after length buckets, is a memory figure. ``_STORED``
    drops any GB figure whose clause says "仓库" or "bucket" anywhere before it."""
    assert [(q, w) for _, q, w in _read(text)] == [("memory", "38 GB")]


@pytest.mark.parametrize("text", ["- 灰度阶段新副本接流量的比例是 10%",
                                  "FooServe keeps serving within the SLO at 1.9x higher request rates than vLLM."])
def test_taking_traffic_or_serving_within_an_slo_is_no_start_up_time(text: str) -> None:
    """A share of traffic and a request-rate factor are no start-up times. The new keywords "接流量" and "serving
    within" make any figure after them one."""
    assert "start-up time" not in [q for _, q, _ in _read(text, "FooServe")]


# --- the paper's abstract read as about the paper ----------------------------------------------------------

def test_prior_works_factor_in_an_abstract_is_not_the_papers_speed_up() -> None:
    """"Speculative decoding methods top out at 1.8x on long reasoning traces" is the motivation (others'
    figure); StepDraft's own result is a 52% TPOT cut. Read as about StepDraft, the bare 1.8x becomes its speed-up
    and the team's 2.6× from the authors' blog is flagged against it."""
    abstract = ("Speculative decoding methods top out at 1.8x on long reasoning traces, where drafts diverge after a "
                "few tokens. StepDraft drafts a whole reasoning step at a time and verifies it in one pass, lowering "
                "TPOT by 52% on QwQ-32B.")
    assert _paper_flags("StepDraft: Step-Level Drafting for Reasoning Models", abstract,
                        "- 作者 blog 里说 StepDraft 端到端加速 2.6×") == []


# --- new overlap words and off-domain terms ----------------------------------------------------------------------

def test_not_adjacent_machines_say_nothing_of_a_likeness() -> None:
    """"基本就是 ExpertLane 换了个壳：热 expert 的副本放在不挨着的两台机器上" says the item IS ExpertLane again; "不挨着"
    (not adjacent) describes machines. The new `different` word turns the verdict to "different"."""
    said = likeness(_like_item("基本就是 ExpertLane 换了个壳：热 expert 的副本放在不挨着的两台机器上"),
                    LIKE_NAMES, LIKE_WORDS)
    assert said.same == ["2610.09255"] and not said.different


def test_whitespace_in_a_document_is_no_overlap_verdict() -> None:
    """"vLLM 文档里写了 JSON 模式下空白字符不计入约束" is about whitespace (空白字符) in a library's docs; it does not say the
    item overlaps nothing anchored. "文档里…空白" reads it as "nothing"."""
    said = likeness(_like_item("vLLM 文档里写了 JSON 模式下空白字符不计入约束"), LIKE_NAMES, LIKE_WORDS)
    assert said.nothing is False


def test_serverless_llm_inference_on_aws_lambda_is_still_llm_inference() -> None:
    """A paper whose whole contribution is LLM serving (cold starts, TTFT, decode throughput) on AWS Lambda is
    primary. The new off-domain term "aws lambda" (1.0 ≥ off_domain_demote) demotes it to adjacent."""
    c = classify("Serverless platforms such as AWS Lambda promise pay-per-use LLM inference, but loading model weights "
                 "makes cold starts take tens of seconds. ColdLLM streams quantized weights from S3 into the "
                 "function's memory in layer order and starts decoding before the last layer arrives, cutting the "
                 "cold-start latency of Llama-3.1-8B from 38 s to 0.9 s and reducing the time to first token by 12x "
                 "at the 99th percentile while sustaining 25 tokens/s of decode throughput per function.",
                 title="ColdLLM: Serverless LLM Inference on AWS Lambda with Sub-Second Cold Starts",
                 primary_category="cs.DC")
    assert c.relevance == "primary"
