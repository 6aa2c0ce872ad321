"""The briefing is valid CommonMark + tables: every row has its header's cells, no raw HTML,
the six sections in the seed's order, links only to http(s)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import (
    assert_tables_well_formed,
    brief_outputs,
    html_tokens,
    md_parser,
)

ZH_SECTIONS = ["一、检查过的来源清单", "二、今日该主题最重要的增量", "三、值得警惕的矛盾或待核实说法",
               "四、可引用的 arXiv 号列表", "五、摘要", "六、检查过的来源完整清单"]
EN_SECTIONS = ["1. Sources checked", "2. Top increments", "3. Contradictions", "4. Citable arXiv IDs", "5. Summary",
               "6. Full source audit"]


@pytest.fixture(scope="module")
def outputs(sample_day: Path) -> dict[str, str]:
    return brief_outputs(sample_day)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tables_have_consistent_rows(outputs: dict[str, str], lang: str) -> None:
    # §1 sources, §4 IDs, §6 audit, and the NIXL note's backend table under its point in §2
    assert assert_tables_well_formed(outputs[lang]) == 4


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_raw_html(outputs: dict[str, str], lang: str) -> None:
    assert html_tokens(outputs[lang]) == []


@pytest.mark.parametrize("lang,expected", [("zh", ZH_SECTIONS), ("en", EN_SECTIONS)])
def test_six_sections_in_order(outputs: dict[str, str], lang: str, expected: list[str]) -> None:
    tokens = md_parser().parse(outputs[lang])
    h1 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h1"]
    h2 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2"]
    assert len(h1) == 1 and "2026-10-08" in h1[0]
    assert len(h2) == 6
    for got, want in zip(h2, expected):
        assert got.startswith(want), (got, want)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_links_are_http_only(outputs: dict[str, str], lang: str) -> None:
    hrefs = []
    for t in md_parser().parse(outputs[lang]):
        for c in t.children or []:
            if c.type == "link_open":
                hrefs.append(c.attrs["href"])
    assert hrefs, "the sample's sources are linked"
    assert all(re.match(r"https?://", h) for h in hrefs), [h for h in hrefs if not re.match(r"https?://", h)]
    assert "https://arxiv.org/abs/2610.09701" in hrefs


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_increment_headings_and_flag_headings(outputs: dict[str, str], lang: str) -> None:
    """Each increment and each open flag is an h3, so a reader can jump to it."""
    tokens = md_parser().parse(outputs[lang])
    h3 = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h3"]
    word = "增量" if lang == "zh" else "Increment"
    assert [h for h in h3 if h.startswith(word)] and len([h for h in h3 if h.startswith(word)]) == 5
    assert len([h for h in h3 if h.startswith("⚠️ #")]) == 4


def test_html_has_no_active_content(outputs: dict[str, str]) -> None:
    html = outputs["html"]
    assert "<script" not in html.lower()
    assert not re.search(r"<[^>]*\son\w+\s*=", html, re.IGNORECASE)
    assert not re.search(r"href\s*=\s*[\"']?\s*(javascript|data|vbscript):", html, re.IGNORECASE)
    assert html.count("<table>") == 4


def test_no_blank_line_runs_and_single_trailing_newline(outputs: dict[str, str]) -> None:
    for lang in ("zh", "en"):
        text = outputs[lang]
        assert "\n\n\n" not in text and text.endswith("\n") and not text.endswith("\n\n")
