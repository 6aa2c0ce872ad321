"""Conditions of the kinds routing papers key their figures by (read since the twentieth sitting): a quality target,
the baseline a figure is measured against, a share of the traffic, the time of day requests arrive at and the
language of the prompts — each a figure a line may quote under the wrong one, and each read only where an abstract
gives one quantity several values."""
from __future__ import annotations

import pytest

from tests.pipeline.brief.test_conditions_closing import _conditions
from tests.pipeline.brief.test_conditions_more import _conflicts, _read

TARGET = ("At a quality target of 95% of the large model's win rate, CapLift cuts serving cost by 58%, and at a "
          "target of 99% it cuts cost by 31%.")
BASELINE = "Against round-robin routing, FlockKV cuts mean TTFT by 47%; against least-loaded routing, it cuts mean TTFT by 19%."
HOURS = ("SunShift lowers mean TTFT by 44% for requests arriving in the home region's evening hours and by 13% for "
         "requests arriving in its early-morning hours.")
SHARE = ("When long prompts make up a fifth of the traffic, LaneSort raises throughput by 1.9x over a router that "
         "treats the pools alike; when they make up half of it, the gain is 1.3x.")
LANGUAGE = "TongueTier cuts serving cost by 52% for English prompts and by 29% for Chinese prompts."


@pytest.mark.parametrize(("name", "abstract", "note", "quantity"), [
    ("CapLift", TARGET, "- 摘要：质量目标定在 99% 也能省 58% 的成本。", "cost per token (target 99%)"),
    ("FlockKV", BASELINE, "- 摘要：比 least-loaded 路由 TTFT 低 47%", "TTFT (vs least-loaded)"),
    ("SunShift", HOURS, "- 摘要：凌晨到的请求 TTFT 也降 44%", "TTFT (early-morning)"),
    ("LaneSort", SHARE, "- From the abstract: throughput is still 1.9x when long prompts are half of the traffic.",
     "speed-up (half)"),
    ("LaneSort", SHARE, "- 摘要：长 prompt 占一半流量时吞吐 1.9×", "speed-up (half)"),
    ("TongueTier", LANGUAGE, "- 摘要：中文 prompt 也能省 52% 的成本", "cost per token (Chinese)"),
])
def test_a_figure_quoted_under_another_condition_is_a_conflict(name: str, abstract: str, note: str,
                                                               quantity: str) -> None:
    assert [q for q, _ in _conflicts(name, abstract=abstract, note=note)] == [quantity]


@pytest.mark.parametrize(("name", "abstract", "note"), [
    ("CapLift", TARGET, "- 摘要：质量目标 95% 时省 58% 成本，99% 时省 31%"),
    ("CapLift", TARGET, "- 摘要：99% 的质量目标下成本省 31%"),
    ("FlockKV", BASELINE, "- 摘要：比 round-robin TTFT 低 47%，比 least-loaded 低 19%"),
    ("SunShift", HOURS, "- 摘要：晚上到的请求 TTFT 降 44%"),
    ("LaneSort", SHARE, "- 摘要：长 prompt 占五分之一流量时吞吐 1.9×"),
    ("TongueTier", LANGUAGE, "- 摘要：英文 prompt 省 52% 的成本"),
])
def test_a_figure_quoted_under_its_own_condition_is_none(name: str, abstract: str, note: str) -> None:
    assert _conflicts(name, abstract=abstract, note=note) == []


def test_a_quality_target_is_no_figure_of_the_paper() -> None:
    assert _read(TARGET, "CapLift") == [("cost per token", "58%"), ("cost per token", "31%")]
    assert _conditions(TARGET, "58%", "31%") == [("target 95%",), ("target 99%",)]


def test_a_baseline_a_share_an_hour_and_a_language_are_read_as_written() -> None:
    assert _conditions(BASELINE, "47%", "19%") == [("vs round-robin",), ("vs least-loaded",)]
    assert _conditions(SHARE, "1.9x", "1.3x") == [("fifth",), ("half",)]
    assert _conditions(HOURS, "44%", "13%") == [("evening",), ("early-morning",)]
    assert _conditions(LANGUAGE, "52%", "29%") == [("English",), ("Chinese",)]


@pytest.mark.parametrize("text", [
    "The probe adds 11 ms to TTFT and shortcut parameter costs fall by 30x.",
    "Naive benchmarks overestimate dispatch cost by 20x.",
])
def test_a_cost_that_is_no_serving_cost_is_not_read(text: str) -> None:
    assert all(q != "cost per token" for q, _ in _read(text))


def test_half_without_of_is_no_share() -> None:
    """"cuts memory by half" shares nothing out: no condition."""
    text = "HalveKV cuts memory by half and raises throughput by 1.4x on H100 and 1.9x on A100."
    assert _conditions(text, "1.4x", "1.9x") == [("H100",), ("A100",)]
