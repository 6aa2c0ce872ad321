"""Section numbers an author asks for in running text (kb.sections.stated_sections)."""
from __future__ import annotations

import pytest

from kb.sections import stated_sections

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
])
def test_a_section_is_asked_for_only_right_after_a_marker(text: str, found: list[str]) -> None:
    assert stated_sections(text, MARKERS) == found

