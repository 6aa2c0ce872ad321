"""Section numbers an author asks for in running text (kb.sections.stated_sections)."""
from __future__ import annotations

import pytest

from kb.sections import refused_sections, stated_sections

MARKERS = ["建议", "归入", "属于", "→", "suggest", "belongs in"]


@pytest.mark.parametrize(("text", "found"), [
    ("- 建议：§3.1", ["3.1"]),
    ("- 建议归入 §2.3", ["2.3"]),
    ("- → §1.(9)", ["1.(9)"]),
    ("- 属于新的 §3.3 Attention kernels 那一类", ["3.3"]),
    ("I suggest §２.４.１ for it", ["2.4.1"]),                         # full-width digits fold
    ("背景见 §2.1，建议归入 §2.3", ["2.3"]),                             # a citation is not a request
    ("现有 §2.3 已锚入 CascadeEP", []),
    ("建议 Jay / E1 看一下这一整段很长很长的说明文字，和 §2.2 无关", []),   # the § is too far from the marker
    # a marker on the line before is that line's (day 10's SnapBoot went to §2.4, which Jay only compared with)
    ("- 70B 冷启动 41 s → 6 s\n- 和 §2.4 的 WarmStart 不冲突\n- 建议：§2.1", ["2.1"]),
])
def test_a_section_is_asked_for_only_right_after_a_marker(text: str, found: list[str]) -> None:
    assert stated_sections(text, MARKERS) == found



NEGATIONS, NOT_WORDS = ["不", "别", "误", "not"], ["特别", "回归", "归一", "归纳"]


@pytest.mark.parametrize(("text", "asked", "refused"), [
    ("FP8 预训练（训练侧量化），别归 §3.2", [], ["3.2"]),
    ("上次误归入 §2.1，应该 → §2.4", ["2.4"], ["2.1"]),
    ("它不属于 §2.1", [], ["2.1"]),
    ("特别建议归入 §2.2", ["2.2"], []),                   # "特别" ends with 别 and negates nothing
    ("性能回归 §3.2 那篇", [], []),                         # "回归" ends with 归 and asks for nothing
    ("做了 RMSNorm 归一化，和 §3.2 的量化配合", [], []),          # nor do 归一化, 归纳, 归因
    ("作者归纳了 §2.1 的三种调度", [], []),
    ("背景见 §2.1", [], []),                                # cited: neither asked nor ruled out
])
def test_a_section_the_author_rules_out(text: str, asked: list[str], refused: list[str]) -> None:
    markers = [*MARKERS, "归"]
    assert stated_sections(text, markers, NEGATIONS, NOT_WORDS) == asked
    assert refused_sections(text, markers, NEGATIONS, NOT_WORDS) == refused


# --- decisions the mutation round found untested ------------------------------------------------

def test_a_number_written_with_a_final_dot_is_the_section() -> None:
    from kb.sections import normalize_section, section_matches
    assert normalize_section("§2.3.") == "2.3" and section_matches("2.3.1", "§2.3.")


def test_a_plain_part_sorts_before_a_parenthesised_one_of_the_same_value() -> None:
    from kb.sections import section_key
    assert sorted(["1.(1)", "1.2", "1.1", "1.(9)"], key=section_key) == ["1.1", "1.(1)", "1.2", "1.(9)"]


def test_one_number_spelt_twice_is_not_confusable_with_itself() -> None:
    from kb.sections import confusable
    assert not confusable("§2.3", "2.3") and not confusable("§1.(09)", "1.(9)")
    assert confusable("1.(1)", "1.1")


@pytest.mark.parametrize(("text", "found"), [
    ("建议 §2.3；Jay 也建议 §2.3", ["2.3"]),                   # asked twice: one request
    ("上次说不建议，现在建议 §2.3", ["2.3"]),                  # the nearest marker counts, not the first
    ("I suggest filing it under §2.3", ["2.3"]),              # 24 characters after the marker still ask
    ("建议：§1.（9）", ["1.(9)"]),                              # full-width parentheses fold
])
def test_the_requests_an_analyst_reads(text: str, found: list[str]) -> None:
    assert stated_sections(text, MARKERS, NEGATIONS) == found


def test_a_negation_a_space_before_the_marker_still_rules_it_out() -> None:
    assert refused_sections("I don't suggest §2.1 for it", MARKERS, ["n't"]) == ["2.1"]
    assert stated_sections("I don't suggest §2.1 for it", MARKERS, ["n't"]) == []
