"""Numbers with units read as claims (``pipeline.brief.claims``): what is a measurement of which subject,
and which pairs of sources disagree. Each case is a pair of sources an analyst would read the same way."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import claims_in, conflicts
from pipeline.brief.judge import load_rules

QUANTITIES = load_rules().quantities


def _disagree(a: str, b: str) -> list:
    return conflicts(claims_in(a, "note A", QUANTITIES) + claims_in(b, "note B", QUANTITIES), set())


@pytest.mark.parametrize(("a", "b"), [
    ("vLLM 8×H100 基线", "vLLM 4×H100"),                      # a count of GPUs is no speed-up
    ("TP4×DP2 部署", "TP8×DP1 部署"),                          # parallel degrees
    ("vLLM 0.10 x86 CPU 后端", "vLLM 0.11 x86 wheel"),         # a version before "x86"
    ("吞吐 vs vLLM：2.1×", "吞吐 vs vLLM：1.4×"),               # two gains over one baseline, not vLLM's own
    ("Llama-3.1-70B 140 GB", "Qwen2.5-72B 145 GB"),           # two models, and no system called "B"
    ("p50 latency 40 ms", "p99 latency 120 ms"),              # two statistics
    ("Mooncake 46.1 GB/s", "Mooncake 46.1 GB/s"),             # a consistent repeat
    ("TTFT 降低 30%", "TTFT 380 ms"),                          # a relative change and a time
    ("accuracy drops 2%", "accuracy drops 3%"),               # no quantity of serving named
    ("Mooncake 46 GB/s", "Mooncake 46.1 GB/s"),                 # the same figure, rounded
    ("基线 SGLang TTFT: 310 ms（32k prompt）", "我们复现的 KVQuilt TTFT: 180 ms（32k prompt）"),   # two systems
    ("vLLM 的 TTFT 1.9 s。", "FooServe TTFT 0.8 s."),
])
def test_what_an_analyst_would_not_call_a_conflict(a: str, b: str) -> None:
    assert _disagree(a, b) == []


@pytest.mark.parametrize(("a", "b", "subject", "quantity"), [
    ("Mooncake 46.1 GB/s", "Mooncake 38 GB/s", "Mooncake", "bandwidth"),
    ("TierKV 3.1× speed-up", "TierKV 2.4× speed-up", "TierKV", "speed-up"),
    ("DeepEP-v2: 2.1x", "DeepEP-v2: 2.5x", "DeepEP-v2", "speed-up"),
    ("FlashPD 1.8× A100 上", "FlashPD 2.2× A100 上", "FlashPD", "speed-up"),   # a speed-up on a device
    ("TierKV 2× speed-up", "TierKV 2.4× speed-up", "TierKV", "speed-up"),      # one digit: no rounding of 2.4
    ("TTFT 380 ms", "TTFT 420 ms", None, "TTFT"),
    ("p99 latency 120 ms", "p99 延迟 150 ms", None, "p99 latency"),
    ("吞吐提升 30%", "吞吐提升 12%", None, "throughput"),
    ("TTFT 从 1.9 s 降到 0.8 s", "TTFT 降到 1.2 s", None, "TTFT"),        # where it went, not where it started
    ("TTFT 300 ms → 200 ms", "TTFT 250 ms", None, "TTFT"),
    ("Mooncake 传输带宽 46.1 GB/s", "Mooncake 传输带宽 38 GB/s", "Mooncake", "bandwidth"),
])
def test_the_same_quantity_of_the_same_subject_with_two_values_is_one(a: str, b: str, subject, quantity) -> None:
    [(who, what, _unit, values)] = _disagree(a, b)
    assert (who, what) == (subject, quantity) and len(values) == 2


@pytest.mark.parametrize(("text", "pairs"), [
    ("TODO: 2610.08812 精读", []),                                  # a status word is no system
    ("对比 SGLang，2610.12077 的 TTFT 低 30%", []),                   # the baseline, not 2610.12077's name
    ("相比 vLLM，2610.13001 更快", []),
    ("FlashPD 和 HydraRoute（2610.12077）", [("HydraRoute", "2610.12077")]),
    ("见 SpecMesh：2610.11111", [("SpecMesh", "2610.11111")]),
])
def test_which_names_are_tied_to_an_id(text: str, pairs: list) -> None:
    from pipeline.brief.entities import name_id_pairs
    assert name_id_pairs(text) == pairs


@pytest.mark.parametrize(("a", "b"), [
    ("TierKV 吞吐 2.1× → §3.3", "TierKV 吞吐 3.0×"),            # an arrow to a section is no change of value
    ("Mooncake 46.1 GB/s to each GPU", "Mooncake 38 GB/s"),     # "to" before no number
    ("Results from TierKV: 2.1×", "Results from TierKV: 3.0×"),  # "from" a name is no baseline
    ("Moreover TierKV 2.1× faster", "Moreover TierKV 3.0× faster"),
    ("TierKV throughput 2.1× 8 GPUs", "TierKV throughput 3.0× 8 GPUs"),
])
def test_real_conflicts_stay_flagged(a: str, b: str) -> None:
    assert len(_disagree(a, b)) == 1


def test_a_gain_over_a_named_baseline_is_the_items_and_a_later_percentage_is_its_own_clause() -> None:
    assert _disagree("吞吐提升 2.1×，精度损失 <1%", "吞吐提升 30%") == []
    [(who, what, _u, _v)] = _disagree("相比 vLLM 吞吐 2.1×", "相比 vLLM 吞吐 1.6×")
    assert who is None and what == "throughput"     # the item's own gain, not a figure of vLLM's


def test_a_rounded_figure_does_not_hide_a_third_that_differs() -> None:
    found = conflicts([*claims_in("Mooncake 46 GB/s", "a", QUANTITIES), *claims_in("Mooncake 46.1 GB/s", "b", QUANTITIES),
                       *claims_in("Mooncake 45.8 GB/s", "c", QUANTITIES)], set())
    [(who, _q, _u, values)] = found
    assert who == "Mooncake" and set(values) == {"46 GB/s", "46.1 GB/s", "45.8 GB/s"}


def test_a_compared_name_in_parentheses_keeps_its_own_id() -> None:
    from pipeline.brief.entities import name_id_pairs
    assert name_id_pairs("相比 FlashPD（2610.11824），本文更快") == [("FlashPD", "2610.11824")]
