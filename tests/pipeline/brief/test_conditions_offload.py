"""Conditions of the kinds offloading papers key their figures by (read since day 40): where the offloaded data
lives, a GPU memory budget, how much of a model is offloaded and the depth of the layers; and two ways of writing a
figure: "860 decode tokens/s", and "it rises by 37%" carrying the quantity of the figure before it."""
from __future__ import annotations

import pytest

from tests.pipeline.brief.test_conditions_closing import _conditions
from tests.pipeline.brief.test_conditions_more import _conflicts, _read

TIER = ("When the offloaded blocks live in host DRAM, BurrowKV sustains 860 decode tokens/s; when they live on NVMe "
        "SSDs, it sustains 410 decode tokens/s.")
BUDGET = ("With a 40 GB GPU memory budget for the KV cache, time per output token rises by only 14% over keeping every "
          "cache resident; with a 16 GB budget, it rises by 37%.")
SHARE = ("With a third of its layers offloaded, SluiceLM decodes 1.3x slower than with every layer resident in GPU "
         "memory; with two thirds of its layers offloaded, it decodes 2.8x slower.")
DEPTH = "The prefetch hit rate is 92% in the model's later layers but only 57% in its first layers."


@pytest.mark.parametrize(("name", "abstract", "note", "quantity"), [
    ("BurrowKV", TIER, "- 摘要：KV 全放 NVMe 上也有 860 tokens/s 的 decode 吞吐", "throughput (NVMe)"),
    ("BerthKV", BUDGET, "- 摘要：显存预算压到 16 GB，TPOT 也只多 14%", "TPOT (budget 16 GB)"),
    ("SluiceLM", SHARE, "- 摘要：卸掉三分之二的层也只慢 1.3×", "slowdown (two-thirds)"),
    ("ForeMoE", DEPTH, "- 摘要：前几层的预取命中率也有 92%", "hit rate (first layers)"),
])
def test_a_figure_quoted_under_another_condition_is_a_conflict(name: str, abstract: str, note: str,
                                                               quantity: str) -> None:
    assert [q for q, _ in _conflicts(name, abstract=f"{name}: {abstract}", note=note)] == [quantity]


@pytest.mark.parametrize(("name", "abstract", "note"), [
    ("BurrowKV", TIER, "- 摘要：host DRAM 上 860 tokens/s，NVMe 上 410"),
    ("BerthKV", BUDGET, "- 摘要：显存预算 40 GB 时 TPOT 只多 14%"),
    ("SluiceLM", SHARE, "- 摘要：卸掉三分之一的层慢 1.3×"),
    ("ForeMoE", DEPTH, "- 摘要：后几层的预取命中率 92%"),
])
def test_a_figure_quoted_under_its_own_condition_is_none(name: str, abstract: str, note: str) -> None:
    assert _conflicts(name, abstract=f"{name}: {abstract}", note=note) == []


def test_a_budget_is_no_memory_figure_and_it_carries_the_quantity() -> None:
    assert _read(BUDGET) == [("TPOT", "14%"), ("TPOT", "37%")]
    assert _read("- 显存预算压到 16 GB，TPOT 也只多 14%") == [("TPOT", "14%")]
    assert _conditions(BUDGET, "14%", "37%") == [("budget 40 GB",), ("budget 16 GB",)]


def test_it_carries_only_within_its_sentence() -> None:
    """A new sentence's "it" may be anything: "Memory falls by 30%. It rises by 12% in cost" is no memory figure."""
    assert _read("TTFT falls by 30%. Then it rises by 12% under load.") == [("TTFT", "30%")]


def test_decode_tokens_per_second_is_a_throughput() -> None:
    assert _read(TIER) == [("throughput", "860 decode tokens/s"), ("throughput", "410 decode tokens/s")]
    assert _conditions(TIER, "860 decode tokens/s", "410 decode tokens/s") == [("host DRAM",), ("NVMe", "SSD")]


# --- day 41's kinds: the order a prompt is split in, the fabric's topology, the number of pipeline stages ----------

@pytest.mark.parametrize(("name", "abstract", "note", "wrong"), [
    ("SergeCP", "When the prompt is split across ranks in contiguous blocks, SergeCP speeds up prefill by 1.8x over "
                "single-node prefill; when it is split in striped order, the speed-up is 2.9x.",
     "- 摘要：prompt 按连续块切，prefill 也快 2.9×", True),
    ("ClewReduce", "On a rail-optimized fabric, ClewReduce cuts cross-node all-reduce latency by 38%; on a two-tier "
                   "fat-tree fabric, it cuts it by 17%.",
     "- From the abstract: even on a two-tier fat-tree like ours the all-reduce latency drops by 38%.", True),
    ("ClewReduce", "On a rail-optimized fabric, ClewReduce cuts cross-node all-reduce latency by 38%; on a two-tier "
                   "fat-tree fabric, it cuts it by 17%.", "- 摘要：胖树上 all-reduce 延迟降 17%", False),
    ("GantryLM", "With 4 pipeline stages, the stage handoff adds 12% to the time per output token; with 8 pipeline "
                 "stages, it adds 27%.", "- 摘要：切成 8 段，handoff 也只给 TPOT 加 12%", True),
    ("GantryLM", "With 4 pipeline stages, the stage handoff adds 12% to the time per output token; with 8 pipeline "
                 "stages, it adds 27%.", "- 摘要：切成 4 段时 TPOT 加 12%", False),
])
def test_a_split_order_a_topology_and_a_stage_count_are_conditions(name: str, abstract: str, note: str,
                                                                   wrong: bool) -> None:
    assert bool(_conflicts(name, abstract=abstract, note=note)) is wrong
