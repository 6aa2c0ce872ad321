"""Forms a figure is written in that the sixteenth sitting's first rules misread (a review of 013b679..7b40142 against
60aefb2): a number before "to" or a dash that is no range's end, factors written otherwise, "over" a figure, a keyword
before its own figure, other measures' words inside a serving figure's sentence, memory beside a GPU or a dtype, and a
release's label or heading. Each case says what an analyst reads, and whether 60aefb2 read it so (REGRESSION) or read
nothing there (NEW)."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.figures import conflicts, span
from pipeline.brief.rules import load_rules

RULES = load_rules()


def claims(text: str, where: str = "A") -> list[Claim]:
    return claims_in(text, where, RULES.quantities, RULES.said_of, RULES.claim_words)


def read(text: str) -> list[tuple[str, str, float, str]]:
    return [(c.quantity, c.unit, round(c.value, 9), c.written) for c in claims(text)]


# --- ranges (claim_forms.range_low): a number before "to"/"到"/"至"/a dash is not always a range's low end ----------

@pytest.mark.parametrize(("text", "expected"), [
    # REGRESSION. "降了 30% 到 1.2 s" = down 30%, to 1.2 s: two figures of two units; 60aefb2 read both, HEAD one
    # "30–1.2 s" figure (a "range" from a share to a time) and loses the 30%.
    ("TTFT 降了 30% 到 1.2 s", [("TTFT", "%", 30.0, "30%"), ("TTFT", "s", 1.2, "1.2 s")]),
    # REGRESSION. The same with 至, the usual written Chinese: 60aefb2 read both; HEAD "40–1.1 s".
    ("p99 TTFT 降低 40% 至 1.1 s", [("TTFT", "%", 40.0, "40%"), ("TTFT", "s", 1.1, "1.1 s")]),
    # REGRESSION. A note's "batch 64 — 2.1×": the em dash sets the condition off, 64 is a batch size; 60aefb2 read
    # "2.1×", HEAD "64–2.1×" (a descending "range" no abstract writes).
    ("batch 64 — 2.1× throughput", [("throughput", "×", 2.1, "2.1×")]),
])
def test_a_number_before_to_or_a_dash_is_not_a_ranges_low_end(text: str, expected: list) -> None:
    assert read(text) == expected


def test_a_share_then_to_then_a_time_is_no_range() -> None:
    """REGRESSION. "cuts p99 TTFT by 38% to 1.1 s": the 1.1 s is written "1.1 s" (60aefb2 did so, though it dropped
    the 38% as a change's start — an old miss); HEAD writes it "38–1.1 s", which ``figures.span`` reads as a range."""
    got = claims("cuts p99 TTFT by 38% to 1.1 s")
    assert ("TTFT", "s", 1.1, "1.1 s") in [(c.quantity, c.unit, c.value, c.written) for c in got]
    assert all(span(c.written) is None for c in got)


def test_a_batch_size_is_not_the_low_end_of_a_speedup_range() -> None:
    """REGRESSION. "grows from 1.2x at batch size 1 to 3.4x": the "1" before "to" is a batch size, so HEAD reads the
    range "1–3.4x" and a card's 1.1× (below the abstract's 1.2x) falls inside it: the misquote is no longer flagged.
    60aefb2 read 3.4x and flagged the card's 1.1×."""
    abstract = claims("The speedup grows from 1.2x at batch size 1 to 3.4x at batch size 64.", "abstract")
    card = claims("speedup 1.1×", "card")
    assert conflicts(abstract + card, set()) != []


# --- factors written otherwise: LaTeX, "times", a capital X ---------------------------------------------------------

def test_a_power_of_ten_in_latex_is_not_a_factor_of_its_exponent() -> None:
    """NEW. "$10^3\\times$" is a thousandfold speed-up; HEAD reads the exponent: a 3× speed-up. 60aefb2 read
    nothing (no 1000× either)."""
    assert 3.0 not in [c.value for c in claims("FooSim achieves up to $10^3\\times$ speedup over the baseline")]


def test_n_times_over_a_period_counts_runs() -> None:
    """NEW. "Reran the TTFT benchmark 5 times over the weekend" counts runs; HEAD reads TTFT 5× ("times" before
    "over" as a factor). 60aefb2 read nothing, rightly."""
    assert read("Reran the TTFT benchmark 5 times over the weekend, p99 looked stable") == []


def test_a_cpu_model_number_is_not_a_factor() -> None:
    """NEW. "Ryzen 9 7950X" is a CPU (the MI325X guard needs a letter right before the digits); HEAD reads a
    throughput of 7950×. 60aefb2 read only the 31 tokens/s, rightly."""
    assert read("CPU-offloaded decode throughput on a Ryzen 9 7950X drops to 31 tokens/s") == [
        ("throughput", "tokens/s", 31.0, "31 tokens/s")]


# --- "over" no longer a baseline word; a factor "over" a named system --------------------------------------------

def test_the_value_over_which_a_figure_is_given_is_the_baselines() -> None:
    """REGRESSION. "to 62% over 45% for LRU": 45% is LRU's, the baseline's. HEAD reads it as the paper's own, so the
    abstract gives two hit rates (a "table of conditions") and a note's 52% is no longer flagged against its 62%.
    60aefb2 dropped the 45% ("over" a baseline word) and flagged the note."""
    abstract = claims("PrefixFlow raises the prefix-cache hit rate to 62% over 45% for LRU.", "abstract")
    note = claims("命中率 52%", "note")
    assert conflicts(abstract + note, set()) == [(None, "hit rate", "%", {"52%": ["note"], "62%": ["abstract"]})]


def test_a_compression_ratio_over_a_precision_is_no_speedup() -> None:
    """NEW. "compresses model weights 3.5× over FP16" is a size ratio; HEAD's "a factor over a named system is a
    speed-up" makes it a 3.5× speed-up (over "FP16"), to be set against the paper's real speed-ups. 60aefb2 read
    nothing."""
    assert "speed-up" not in [c.quantity for c in claims("FooQuant compresses model weights 3.5× over FP16")]


# --- a keyword right after an earlier figure is that figure's (_an_earlier_figures_keyword) -------------------------

@pytest.mark.parametrize(("text", "expected"), [
    # REGRESSION. A terse note "TTFT 380 ms TPOT 32 ms": TPOT names the 32 ms, not the 380 ms; HEAD drops the TPOT.
    ("p99 TTFT 380 ms TPOT 32 ms", [("TTFT", "s", 0.38, "380 ms"), ("TPOT", "s", 0.032, "32 ms")]),
    # REGRESSION. "吞吐 +35% 显存 −30%": 显存 starts the second figure; HEAD drops the memory −30%.
    ("吞吐 +35% 显存 −30%", [("throughput", "%", 35.0, "+35%"), ("memory", "%", 30.0, "−30%")]),
])
def test_a_keyword_before_its_own_figure_is_not_the_earlier_figures(text: str, expected: list) -> None:
    assert read(text) == expected


# --- "gains in" / "reduction in" ------------------------------------------------------------------------------------

def test_a_reduction_in_p99_ttft_is_a_ttft_figure() -> None:
    """NEW. "a 35% reduction in p99 TTFT" is the figure "cuts p99 TTFT by 35%" is (TTFT); HEAD's _CHANGE_IN skips the
    percentile handling and reads "p99 latency", so it is never compared with a note's "p99 TTFT −30%". 60aefb2 read
    nothing."""
    assert read("achieves a 35% reduction in p99 TTFT") == [("TTFT", "%", 35.0, "35%")]


# --- [claim_words] other_measures blocking serving figures ----------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    # REGRESSION. "at FP8 precision" is a condition of the throughput figure, not a precision figure.
    ("decode throughput at FP8 precision rises 1.6x", [("throughput", "×", 1.6, "1.6x")]),
    # REGRESSION. The same in a Chinese note: "FP8 精度下" is the setting; 1.6 倍 is the throughput's.
    ("吞吐在 FP8 精度下提升 1.6 倍", [("throughput", "×", 1.6, "1.6 倍")]),
    # REGRESSION. A kernel engineer's "non-power-of-two batch sizes" says nothing about power.
    ("decode TPOT on non-power-of-two batch sizes improves 9%", [("TPOT", "%", 9.0, "9%")]),
    # REGRESSION. No keyword, a unit that says throughput (tokens/s); "accuracy" earlier is another clause's measure.
    ("FooQuant matches FP16 accuracy while serving 3,100 tokens/s on one H100",
     [("throughput", "tokens/s", 3100.0, "3,100 tokens/s")]),
    # REGRESSION. "accuracy-preserving speedup" is a speed-up (lossless), not an accuracy figure.
    ("delivers up to 2.4x accuracy-preserving speedup", [("speed-up", "×", 2.4, "2.4x")]),
])
def test_another_measures_word_in_a_serving_figures_sentence_does_not_block_it(text: str, expected: list) -> None:
    assert read(text) == expected


# --- a GPU's memory as a setting (claim_forms.device_memory) --------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    # REGRESSION. 62 GB is no H100's capacity (80 GB): it is the peak memory measured on one; HEAD drops it.
    ("峰值显存 H100 62 GB", [("memory", "GB", 62.0, "62 GB")]),
    # REGRESSION. "BF16" fits the device pattern ([A-Z]{1,3}\d{2,4}): HEAD drops the 140 GB of BF16 weights.
    ("权重显存：BF16 140 GB，FP8 70 GB", [("memory", "GB", 140.0, "140 GB"), ("memory", "GB", 70.0, "70 GB")]),
])
def test_a_memory_figure_beside_a_gpu_or_a_dtype_is_still_read(text: str, expected: list) -> None:
    assert read(text) == expected


# --- a release's figures by its label line or its heading (claim_forms.released_over) -----------------------------

@pytest.mark.parametrize("text", [
    # REGRESSION. "Llama 3.1 70B：" labels the model the team measured on: the figures are the item's, not a system
    # called "Llama 3.1" (a model is a condition, as "在 Llama 3.1 上 TTFT 降低 30%" already reads).
    "Llama 3.1 70B：TTFT −22%，decode 吞吐 +31%",
    # REGRESSION. The same per-model results written as a stored entry's lines ("Llama 3.1 (70B, TP4)" alone on a
    # line passes for a changelog heading).
    "Llama 3.1 (70B, TP4)\n- TTFT −22%\n- decode 吞吐 +31%\nQwen 2.5 (72B, TP4)\n- TTFT −18%",
])
def test_a_model_with_its_version_is_no_release_whose_figures_follow(text: str) -> None:
    assert [c.subject for c in claims(text)] == [None] * len(claims(text))


def test_an_upgrades_figure_is_not_the_release_upgraded_from() -> None:
    """REGRESSION. "vLLM 0.6.2 → 0.7.0 升级后：p99 TTFT −18%" is what the upgrade to 0.7.0 did; HEAD gives it to
    vLLM 0.6.2 (the label is the first release on the line). 60aefb2 gave it to no release."""
    [claim] = claims("vLLM 0.6.2 → 0.7.0 升级后：p99 TTFT −18%")
    assert claim.subject != "vLLM 0.6.2"


def test_a_changelog_headings_reach_ends_at_another_paragraph() -> None:
    """REGRESSION. A pasted changelog, a blank line, then a paragraph on SGLang: its "TPOT −5%" is SGLang's news, not
    Lathe 2.5.0's (the heading is four lines and a paragraph above); HEAD gives it to Lathe 2.5.0, to be set against
    the changelog's −8.7%. 60aefb2 gave it to no release."""
    text = ("Lathe 2.5.0 (2026-11-19)\ndecode: median TPOT −8.7% at batch 128\n\n"
            "SGLang 那边也有动作：\n新的 overlap scheduler，TPOT −5%")
    [other] = [c for c in claims(text) if c.written == "−5%"]
    assert other.subject != "Lathe 2.5.0"


def test_the_teams_own_measurement_after_a_changelog_is_not_the_releases() -> None:
    """REGRESSION. The team's line after the pasted changelog (as test_releases_read's "我们升级后 TPOT −6%") is the
    team's measurement, not the release's claim; only a line *starting* with 我们/we is recognised, so "升级后我们自己
    量的 TPOT −6%" becomes Lathe 2.5.0's and conflicts with its −8.7%. 60aefb2 gave it to no release."""
    text = ("Lathe 2.5.0 (2026-11-19)\ndecode: median TPOT −8.7% at batch 128\n升级后我们自己量的 TPOT −6%")
    [ours] = [c for c in claims(text) if c.written == "−6%"]
    assert ours.subject is None
