"""Knowledge docs: one case per fixture under tests/fixtures/workspace/knowledge/."""
from __future__ import annotations

import pytest

from pipeline.workspace.knowledge import find_section, parse_knowledge, section_matches
from tests.support.paths import FIXTURES

CASES = sorted((FIXTURES / "workspace" / "knowledge").glob("*.md"))


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_knowledge_fixture(md, load_case, check):
    text, expect = load_case(md)
    doc = parse_knowledge(text, expect.pop("path"), expect.pop("topic"))
    check(doc, expect)


@pytest.mark.parametrize("number, query, hit", [
    ("2.3", "2.3", True), ("2.3.1", "2.3", True), ("2.30", "2.3", False), ("2", "2.3", False),
    ("1.(9)", "1.9", False), ("1.(9)", "1.(9)", True), ("1.(13)", "1.1", False), ("1.(13)", "1", True),
    ("1.(1)", "1.1", False), ("1.1", "1.(1)", False), ("1.13", "1.(13)", False), ("10", "1.0", False),
    ("1.0", "10", False), ("10.1", "10", True), ("2.3", "§2.3", True), ("2.3", "", False), ("2.3", "2.x", False),
    ("2.03", "2.3", True), ("1.(09)", "1.(9)", True), ("２.３", "2.3", True),
])
def test_section_matches(number, query, hit):
    assert section_matches(number, query) is hit


def test_find_section_by_its_number_as_written():
    doc = parse_knowledge("## §1.(9) 安全\n- x\n## §1.9 Other\n- y\n", "k.md", "k")
    assert find_section(doc, "1.(9)").title == "安全" and find_section(doc, "1.9").title == "Other"
    assert find_section(doc, "1.90") is None
    assert any("differ only by parentheses" in p for p in doc.problems)


def test_any_heading_with_a_number_is_a_section_and_duplicates_are_reported():
    text = ("# inference\nversion: v1 · 2026-10-09\n\n## §3.4 Sparse\n- 2502.11089 NSA\n\n## §3.4 MoE kernels\n"
            "- 2610.09255 ExpertLane\n\n§4 Hardware\n-----------\n\n- 2610.10000 Chip (anchored 2026-10-09)\n\n"
            "## 5. Long-context serving\n- 2610.07018 NeedleStack\n\n## §10 Resources\n- 2610.10001 GB300\n")
    doc = parse_knowledge(text, "k.md", "k", today="2026-10-09")
    assert [s.number for s in doc.sections] == ["3.4", "3.4", "4", "5", "10"]
    assert {s.number: [a.arxiv_id for a in s.anchors] for s in doc.sections[2:]} == {
        "4": ["2610.10000"], "5": ["2610.07018"], "10": ["2610.10001"]}
    assert find_section(doc, "3.4") is None                     # ambiguous: kb anchor refuses it
    assert any("line 7: section §3.4 is written twice (also line 4)" in p for p in doc.problems)


def test_struck_anchors_are_unanchored_and_dates_are_checked():
    text = ("version: v1 · 2026-10-09\n## §2.4 PD\n- ~~2609.14872 AMPD (锚定 2026-09-23)~~ 撤锚\n"
            "- 2610.09701 SlimWise (anchored 2026-10-15)\n- 2610.09560 PageWeave (anchored 2026-02-30)\n"
            "- [~~struck link~~](https://example.org/x) and 2610.08694 KVCC\n")
    doc = parse_knowledge(text, "k.md", "k", today="2026-10-09")
    [pd] = doc.sections
    assert [a.arxiv_id or a.url for a in pd.anchors] == ["2610.09701", "2610.09560", "2610.08694"]
    assert [a.anchored_on for a in pd.anchors] == ["2026-10-15", None, None]
    assert any("line 4: anchoring date 2026-10-15 is after 2026-10-09" in p for p in doc.problems)
    assert any("line 5: anchoring date 2026-02-30 is not a date" in p for p in doc.problems)


def test_an_anchor_without_a_date_is_no_problem_and_a_bad_version_line_is():
    text = "# kv\nversion: draft\n\n## §2 Cache\n- 2610.09701 SlimWise (anchored: last week)\n"
    doc = parse_knowledge(text, "k.md", "k", today="2026-10-09")
    [sec] = doc.sections
    assert [(a.arxiv_id, a.anchored_on, a.date_unreadable) for a in sec.anchors] == [("2610.09701", None, False)]
    assert doc.version is None and doc.problems == ["version line has no version number: 'draft'"]


def test_the_version_may_come_from_the_front_matter():
    doc = parse_knowledge("---\nversion: v3 · 2026-10-09\n---\n# kv\n## §1 A\n- 2610.09701 x\n", "k.md", "k")
    assert (doc.version, doc.problems) == ("v3", [])


# --- decisions the mutation round found untested ------------------------------------------------

def test_a_number_written_twice_keeps_each_sections_own_body_apart():
    from pipeline.workspace.knowledge import own_end_line
    text = ("version: v2 · 2026-10-09\n## §2.3 PD 分离\n- 2311.18677 Splitwise\n\n## §2.4 Routing\n- x\n\n"
            "## §2.3 KV transfer\n### §2.3.1 RDMA\n- 2609.33252 CascadeEP\n")
    doc = parse_knowledge(text, "k.md", "k")
    first = doc.sections[0]
    assert (first.number, own_end_line(doc, first)) == ("2.3", first.end_line) == ("2.3", 3)


def test_a_subsection_after_its_parents_end_has_no_parent():
    text = "version: v2\n## §2 Serving\n- a\n# Appendix\n### §3.1 Kernels\n- 2610.09701 SlimWise\n"
    doc = parse_knowledge(text, "k.md", "k")
    assert [(s.number, s.parent) for s in doc.sections] == [("2", None), ("3.1", None)]


def test_an_id_in_a_section_heading_anchors_nothing_in_the_section_above():
    text = "version: v2\n## §2 PD\n- 2311.18677 Splitwise\n### §2.3 CascadeEP (2609.33252)\n- notes\n"
    doc = parse_knowledge(text, "k.md", "k")
    assert [a.arxiv_id for s in doc.sections for a in s.anchors] == ["2311.18677"]


def test_a_struck_link_to_a_paper_is_unanchored():
    text = "version: v2\n## §2.4 PD\n- ~~[AMPD](https://arxiv.org/abs/2609.14872)~~ 撤锚\n- 2610.08694 KVCC\n"
    [pd] = parse_knowledge(text, "k.md", "k").sections
    assert [a.arxiv_id for a in pd.anchors] == ["2610.08694"]


def test_the_version_line_s_own_date_is_its_first_and_a_two_part_note_is_kept_whole():
    doc = parse_knowledge("version: v310 · 2026-10-08 · supersedes 2026-09-30\n## §1 A\n", "k.md", "k")
    assert doc.version_date == "2026-10-08"
    doc = parse_knowledge("version: v3 · (draft) (for review)\n## §1 A\n", "k.md", "k")
    assert doc.version_note == "(draft) (for review)"


@pytest.mark.parametrize("written, on, problem", [
    ("anchored 2026/02/30", None, "anchoring date 2026/02/30 is not a date"),
    ("锚定 2026年2月30日", None, "anchoring date 2026年2月30日 is not a date"),
    ("anchored Feb 30, 2026", None, "anchoring date Feb 30, 2026 is not a date"),
    ("anchored 2026/10/08", "2026-10-08", None),
    ("锚定 2026年10月8日", "2026-10-08", None),
    ("anchored Oct 8, 2026", "2026-10-08", None),
    ("anchored", None, None),
    ("锚定 10/09", None, None),            # no year: no date written, so the anchor dates from its first reading
    ("anchored in v311", None, None),
    ("anchored 2026-13-01", None, "anchoring date 2026-13-01 is not a date"),
])
def test_an_impossible_anchoring_date_in_any_written_form_is_a_problem(written, on, problem):
    """Only the ISO form was checked: 2026/02/30 or 2026年2月30日 left the date quietly unknown."""
    doc = parse_knowledge(f"version: v1\n\n### §2.3 X\n- 2401.09670 DistServe ({written})\n", "k.md", "inference",
                          today="2026-12-04")
    [anchor] = doc.sections[0].anchors
    assert (anchor.anchored_on, anchor.date_unreadable) == (on, problem is not None)
    assert [p for p in doc.problems if "anchoring date" in p] == (
        [f"line 4: {problem}; the anchor's date is unknown (it counts from the day kb first read it)"] if problem else [])
