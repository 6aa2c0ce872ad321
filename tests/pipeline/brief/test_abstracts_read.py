"""Forms of figures real arXiv abstracts write that kb read wrongly (`kb eval claims`, the dev split of
tests/data/claims_real.jsonl): each case is the form, in words of our own, with the reading an analyst makes."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.figures import conflicts, span
from pipeline.brief.rules import load_rules

RULES = load_rules()


def read(text: str) -> list[tuple[str, str, float, str]]:
    return [(c.quantity, c.unit, round(c.value, 9), c.written)
            for c in claims_in(text, "A", RULES.quantities, RULES.said_of, RULES.claim_words)]


@pytest.mark.parametrize(("text", "claims"), [
    # a range is one figure written as the range, its value the end (what a quote of it gives)
    ("FooServe achieves 1.6-2.1x speedup over vLLM", [("speed-up", "×", 2.1, "1.6–2.1x")]),
    ("cuts TTFT by 3.72x-4.86x", [("TTFT", "×", 4.86, "3.72–4.86x")]),
    ("delivers 1.22 to 2.00 times speedup", [("speed-up", "×", 2.0, "1.22–2.00 times")]),
    ("between 20% and 35% lower latency", [("latency", "%", 35.0, "20–35%")]),
    ("per-call latency of 24-36 μs", [("latency", "s", 3.6e-05, "24–36 μs")]),
    ("TPOT by 13.6--83.4%", [("TPOT", "%", 83.4, "13.6–83.4%")]),
    # … but a change is two values, the first not compared; nor is a model's name a range
    ("TTFT from 1.9 s to 0.8 s", [("TTFT", "s", 0.8, "0.8 s")]),
    ("TTFT 从 30% 到 20%", [("TTFT", "%", 20.0, "20%")]),
    ("Llama-3-8B 2.1x speedup", [("speed-up", "×", 2.1, "2.1x")]),
    # factors written otherwise: a capital X, LaTeX, "times" before what it compares, a Greek mu
    ("overestimates throughput by up to 3.85X", [("throughput", "×", 3.85, "3.85X")]),
    ("a 5.0$\\times$ speedup", [("speed-up", "×", 5.0, "5.0$\\times$")]),
    ("runs 6.2 times faster", [("speed-up", "×", 6.2, "6.2 times")]),
    ("each experiment is run 5 times; latency 120 ms", [("latency", "s", 0.12, "120 ms")]),
    ("kernel latency 95 μs", [("latency", "s", 9.5e-05, "95 μs")]),
    ("on AMD MI325X GPUs", []),
    # "over", "more than": a bound of the figure, not a baseline's value
    ("reduces KV cache storage by over 30%", [("memory", "%", 30.0, "30%")]),
    ("we achieve more than 10x speedup", [("speed-up", "×", 10.0, "10x")]),
    ("TTFT 0.8 s vs 2.1 s", [("TTFT", "s", 0.8, "0.8 s")]),
    # a measure kb does not compare, named after the value or last before it
    ("up to 4833x speedup and 2890x energy reduction", [("speed-up", "×", 4833.0, "4833x")]),
    ("1.16x-2.16x speedup and reducing energy consumption by 14.3%-25.3%", [("speed-up", "×", 2.16, "1.16–2.16x")]),
    ("improves accuracy and delivers 2.3x higher throughput", [("throughput", "×", 2.3, "2.3x")]),
    ("despite 6x less compute", []),
    # a keyword named right after an earlier figure is that figure's
    ("3.72x TTFT speedup and 3.93x higher throughput", [("TTFT", "×", 3.72, "3.72x"), ("throughput", "×", 3.93, "3.93x")]),
    ("saves 2.00 times speedup over baselines and up to 78.8 percent on-chip memory",
     [("speed-up", "×", 2.0, "2.00 times"), ("memory", "%", 78.8, "78.8 percent")]),
    # a list's quantity named after its last figure; a change named by "gains in", "drop in"
    ("up to 12.42x and 8.4x speedup", [("speed-up", "×", 12.42, "12.42x"), ("speed-up", "×", 8.4, "8.4x")]),
    ("demonstrates 10x gains in inference throughput", [("throughput", "×", 10.0, "10x")]),
    ("incurring only a 4.18% drop in throughput", [("throughput", "%", 4.18, "4.18%")]),
    # the memory of a device is a setting
    ("served on an NVIDIA A100 40GB", []),
    ("on 8 80GB H100s, memory drops 12 GB", [("memory", "GB", 12.0, "12 GB")]),
    # latency's other names in abstracts
    ("reduces job completion time (JCT) by up to 91.4%", [("latency", "%", 91.4, "91.4%")]),
    ("cuts inter-token latency by 20%", [("TPOT", "%", 20.0, "20%")]),
    ("delivering 4.7x more tokens per second", [("throughput", "×", 4.7, "4.7x")]),
    ("slows inference by only 14%", [("slowdown", "%", 14.0, "14%")]),
])
def test_an_abstracts_figure_is_read_as_an_analyst_reads_it(text: str, claims: list) -> None:
    assert read(text) == claims


def test_a_figure_inside_a_range_agrees_with_it_and_one_outside_does_not() -> None:
    """Day 31's card quotes the end of the abstract's "1.6–2.1x" (no conflict), day 8's card writes "2.6–2.9×" against
    the abstract's 2.2x (the whole range above it): a range is one figure, compared as a range."""
    def claim(where: str, value: float, written: str) -> Claim:
        return Claim(None, "speed-up", "×", value, written, where)
    card = claim("card", 2.9, "2.6–2.9×")
    assert span("2.6–2.9×") == (2.6, 2.9) and span("2.9×") is None
    assert conflicts([card, claim("abstract", 2.7, "2.7x")], set()) == []
    assert conflicts([card, claim("abstract", 2.9, "2.9x")], set()) == []
    assert conflicts([card, claim("abstract", 2.2, "2.2x")], set()) == [
        (None, "speed-up", "×", {"2.2x": ["abstract"], "2.6–2.9×": ["card"]})]
