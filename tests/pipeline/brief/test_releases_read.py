"""Figures of a release and factors over a named system, as a kernel engineer's notes and abstracts write them
(day 32: a release's changelog pasted under its headings, a speed-up quoted "over FlashAttention-2")."""
from __future__ import annotations

import pytest

from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.figures import conflicts
from pipeline.brief.rules import load_rules

RULES = load_rules()


def read(text: str, where: str = "A") -> list[Claim]:
    return claims_in(text, where, RULES.quantities, RULES.said_of, RULES.claim_words)


CHANGELOG = """## 1. Lathe changelog（原文照贴）

> **Lathe 2.5.0** (2026-11-19)
> - decode: CUDA graphs captured up to batch 256; median TPOT −8.7% at batch 128
> - attention: new FP8 kernel, kernel latency 22.5 µs per call
>
> **Lathe 2.4.3** (2026-11-10)
> - decode: fused RMSNorm + RoPE; median TPOT −3.1% at batch 128

## 2. 我们的池子

- 升级后 TPOT −6%
"""


def test_a_changelogs_figures_are_the_release_its_heading_names() -> None:
    """Each release's figures under its own heading; a later section's are not the release's."""
    got = [(c.subject, c.quantity, c.written) for c in read(CHANGELOG)]
    assert got == [("Lathe 2.5.0", "TPOT", "−8.7%"), ("Lathe 2.5.0", "latency", "22.5 µs"),
                   ("Lathe 2.4.3", "TPOT", "−3.1%"), (None, "TPOT", "−6%")]


def test_a_changelog_as_a_notes_entry_keeps_it_is_read_alike() -> None:
    """An entry's text is kept without its Markdown: the release's heading is a line of its name and date. The team's
    own line after it ("我们…") is the team's, not the release's."""
    stored = ("1. Lathe changelog（原文照贴）\nLathe 2.5.0 (2026-11-19)\ndecode: median TPOT −8.7% at batch 128\n"
              "Lathe 2.4.3 (2026-11-10)\ndecode: median TPOT −3.1% at batch 128\n我们升级后 TPOT −6%，自己量的")
    assert [(c.subject, c.written) for c in read(stored)] == [("Lathe 2.5.0", "−8.7%"), ("Lathe 2.4.3", "−3.1%"),
                                                              (None, "−6%")]


def test_a_line_labelled_with_a_release_is_the_releases() -> None:
    """"Lathe 2.5.0 的 changelog：…，decode TPOT −7.8%" quotes the release; against its changelog's −8.7%, a conflict
    (two digits swapped); against 2.4.3's −3.1% none (another release)."""
    quote = read("- Lathe 2.5.0 的 changelog：CUDA graph 覆盖到 batch 256，decode TPOT −7.8%", "note")
    assert [(c.subject, c.quantity, c.written) for c in quote] == [("Lathe 2.5.0", "TPOT", "−7.8%")]
    assert conflicts(read(CHANGELOG, "changelog") + quote, set()) == [
        ("Lathe 2.5.0", "TPOT", "%", {"−7.8%": ["note"], "−8.7%": ["changelog"]})]


@pytest.mark.parametrize(("text", "over"), [
    ("1.7× over FlashAttention-2 的 paged decode kernel", "FlashAttention-2"),
    ("2.3x faster than vLLM's paged attention kernel", "vLLM"),
    ("2.2x faster than autoregressive decoding", None),      # no system named: a plain speed-up
    ("2.1× throughput vs SGLang", "SGLang"),
])
def test_a_factor_over_a_named_system_keeps_that_system(text: str, over: str | None) -> None:
    [claim] = read(text)
    assert (claim.quantity, claim.over) == ("speed-up" if "throughput" not in text else "throughput", over)


def test_a_place_with_factors_over_several_systems_gives_the_one_over_the_same() -> None:
    """The abstract's "2.3x faster than FlashAttention-2's kernel and 1.4x faster than vLLM's" are two comparisons,
    not a table of conditions: a note's "1.7× over FlashAttention-2" is set against the 2.3x; one over a system the
    abstract does not name, against neither."""
    abstract = read("JagPage's kernel is 2.3x faster than FlashAttention-2's paged decode kernel and 1.4x faster "
                    "than vLLM's paged attention kernel.", "abstract")
    assert conflicts(abstract + read("1.7× over FlashAttention-2", "note"), set()) == [
        (None, "speed-up", "×", {"1.7×": ["note"], "2.3x": ["abstract"]})]
    assert conflicts(abstract + read("1.4× over vLLM", "note"), set()) == []
    assert conflicts(abstract + read("1.9× over SGLang", "note"), set()) == []


def test_time_saved_per_output_token_is_tpot() -> None:
    assert [(c.quantity, c.written) for c in read("saves 38 µs per output token at batch 1")] == [("TPOT", "38 µs")]
    assert [(c.quantity, c.written) for c in read("每个输出 token 省 83 µs")] == [("TPOT", "83 µs")]
    assert [(c.quantity, c.written) for c in read("cuts the cost per output token by 30%")] == [
        ("cost per token", "30%")]


def test_thinking_tokens_saved_are_one_quantity() -> None:
    """A reasoning server's saving is a share of the thinking tokens; thinking tokens as a condition ("TPOT at 16K
    thinking tokens") or a share of the output are not a saving, and leave the figure its own quantity."""
    assert [(c.quantity, c.written) for c in read("EarlyHalt cuts thinking tokens by 41% at equal accuracy")] == [
        ("thinking tokens", "41%")]
    assert [(c.quantity, c.written) for c in read("摘要：思考 token 省了 27%")] == [("thinking tokens", "27%")]
    assert [(c.quantity, c.written) for c in read("p99 TPOT 在 thinking tokens 超过 8K 时涨 25%")] == [("TPOT", "25%")]
    assert [(c.quantity, c.written) for c in read("TPOT at 16K thinking tokens: +25%")] == [("TPOT", "+25%")]
    assert [c.quantity for c in read("我们池子里 thinking tokens 占输出 token 的 85%")] == []


def test_a_reward_models_own_figure_stays_its_own() -> None:
    """"PRM 的 TPOT 9 ms": a reward model served on its own card has its own TPOT, not the item's."""
    assert [(c.subject, c.quantity, c.written) for c in read("PRM 单独一张 H20：PRM 的 TPOT 9 ms")] == [
        ("PRM", "TPOT", "9 ms")]


@pytest.mark.parametrize(("line", "other"), [
    ("- 作者脚本，Llama-3-8B，H20，batch 8：每个输出 token 11.6 ms；摘要是 H100、batch 32 的数，卡和 batch 都不一样", True),
    ("- our run: TPOT 11.6 ms (not directly comparable: different GPU)", True),
    ("- 摘要：每个输出 token 11.6 ms", False),
    ("- 自己的题库上每个输出 token 11.6 ms；题库和摘要的不一样，不直接比", True),   # day 34's way of saying it
    ("- 摘要：每个输出 token 11.6 ms，但论文不直接比 SGLang（只比了 vLLM）", False),   # whom the paper compares with
    ("- 每个输出 token 11.6 ms；我们这台只有两块盘，跟论文那台没法比", True),   # day 35's
    ("- 每个输出 token 11.6 ms；功耗模式和散热都和论文不一样，不能直接对比", True),   # day 37's
    ("- 每个输出 token 11.6 ms；副本数、模型和流量都跟论文不是一个设置，这个数不能和摘要放一起比", True),   # day 39's
    ("- 每个输出 token 11.6 ms；段数、模型和网络都和论文差得远，这个数别和摘要对着比", True),   # day 41's
])
def test_a_line_saying_it_measured_otherwise_keeps_its_figures_apart(line: str, other: bool) -> None:
    """Day 33's Spark: the team's TPOT on an H20 at batch 8, "卡和 batch 都不一样" from the abstract's H100 at batch 32 —
    another measurement, not the paper's figure misquoted (``[markers] other_setup``)."""
    from pipeline.brief.numbers import _measured_otherwise
    assert _measured_otherwise("## 2. SchemaLeap\n" + line + "\n- 下一行", "11.6 ms", RULES.other_setup) is other


# --- which release a line is of, for an item's key points (claim_forms.releases_named, without_other_releases) ---

PASTED = """2. Spindle 3.2.0 release notes（贴过来的）
Spindle 3.2.0 (2026-12-01)
prefill: chunk size now adapts to queue depth; p99 TTFT −12% on A100
Spindle v3.1.4 (2026-11-20)
scheduler: fairness knob per tenant
prefill: paged prefix reuse; p99 TTFT −4% on A100
我们要的是自适应 chunk"""


def test_a_title_names_its_release_not_a_models_size() -> None:
    from pipeline.brief.claim_forms import releases_named
    assert releases_named("Spindle 3.2.0 release notes（贴过来的）") == {"spindle 3.2.0"}
    assert releases_named("顺带：Spindle v3.2.0") == {"spindle 3.2.0"}, "the v before a version is no other release"
    assert releases_named("Qwen 2.5 (72B, TP4) 上线") == set()
    assert releases_named("PagePilot: Paging KV Blocks by Predicted Reuse") == set()


def test_another_releases_section_of_a_pasted_changelog_is_taken_out() -> None:
    from pipeline.brief.claim_forms import under_another_release, without_other_releases
    own = {"spindle 3.2.0"}
    assert without_other_releases(PASTED, own).splitlines() == [
        "2. Spindle 3.2.0 release notes（贴过来的）", "Spindle 3.2.0 (2026-12-01)",
        "prefill: chunk size now adapts to queue depth; p99 TTFT −12% on A100", "我们要的是自适应 chunk"]
    assert under_another_release(PASTED, PASTED.index("scheduler:"), own)
    assert not under_another_release(PASTED, PASTED.index("我们要的"), own), "the team's own line after it is its own"
    assert without_other_releases(PASTED, set()) == PASTED, "an item naming no release keeps every line"


@pytest.mark.parametrize(("heading", "own"), [("Spindle 3.2.0", True), ("Spindle 3.2.1", True),
                                              ("Spindle 3.1.4", False), ("Spindle 3.20.0", False)])
def test_a_release_written_by_its_series_is_each_of_its_versions(heading: str, own: bool) -> None:
    from pipeline.brief.claim_forms import under_another_release
    text = f"{heading} (2026-12-01)\ndecode: TPOT −8%"
    assert under_another_release(text, text.index("decode"), {"spindle 3.2"}) is not own
