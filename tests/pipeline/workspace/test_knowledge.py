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
    ("1.(9)", "1.9", True), ("1.(9)", "1.(9)", True), ("1.(13)", "1.1", False), ("1.(13)", "1", True),
    ("2.3", "§2.3", True), ("2.3", "", False), ("2.3", "2.x", False), ("2.03", "2.3", True),
])
def test_section_matches(number, query, hit):
    assert section_matches(number, query) is hit


def test_find_section_by_plain_number():
    doc = parse_knowledge("## §1.(9) 安全\n- x\n", "k.md", "k")
    assert find_section(doc, "1.9").number == "1.(9)"
    assert find_section(doc, "1.90") is None
