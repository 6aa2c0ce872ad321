"""One source of truth: every count the Markdown prints is the JSON's, in the header, §2, §4 and §5,
in both languages."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.pipeline.brief.conftest import DAY, EN_MD, ZH_MD, brief, brief_json, read, sections

# What each language writes for the numbers (header, §5), and the §4 status words.
PATTERNS = {
    "zh": {"header": r"(\d+) 条 NET-new（🟢 论文 (\d+) \+ 🟠 工程 (\d+)）\+ (\d+) 条确认性",
           "summary": r"增量条数：NET-new (\d+) 条（🟢 论文 (\d+) \+ 🟠 工程 (\d+)）\+ 确认性/邻接 (\d+) 条，"
                      r"窗口内相关条目共 (\d+) 个；第二节展开 (\d+) 条",
           "ids": r"涉及 arXiv 号：本轮新增 (\d+) 件.*\+ 延续锚定 (\d+) 件",
           "new": "本轮新增", "continuing": "延续锚定", "s2": "二", "s4": "四", "s5": "五", "head": "### 增量 "},
    "en": {"header": r"(\d+) NET-new \((\d+) 🟢 papers \+ (\d+) 🟠 engineering\) \+ (\d+) confirmation",
           "summary": r"Increments: (\d+) NET-new \((\d+) 🟢 papers \+ (\d+) 🟠 engineering\) \+ (\d+) confirmations"
                      r" or adjacent items, of (\d+) relevant items in the window; §2 details (\d+)",
           "ids": r"arXiv IDs: (\d+) new this round.*\+ (\d+) continuing anchors",
           "new": "new this round", "continuing": "continuing", "s2": "2.", "s4": "4.", "s5": "5.",
           "head": "### Increment "},
}


@pytest.fixture(scope="module")
def briefed(sample_day: Path) -> tuple[dict[str, Any], dict[str, str]]:
    brief(sample_day)
    brief(sample_day, "--lang", "en")
    return brief_json(sample_day), {"zh": read(sample_day, ZH_MD), "en": read(sample_day, EN_MD)}


def _ints(pattern: str, text: str) -> tuple[int, ...]:
    m = re.search(pattern, text)
    assert m, f"not found: {pattern}"
    return tuple(int(g) for g in m.groups())


def _table_ids(section: str, status_word: str) -> list[str]:
    return [line.split("|")[1].strip() for line in section.splitlines()
            if line.startswith("| ") and status_word in line.split("|")[4]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_every_count_agrees_across_sections(briefed: tuple[dict[str, Any], dict[str, str]], lang: str) -> None:
    data, md = briefed[0], briefed[1][lang]
    p, c = PATTERNS[lang], briefed[0]["counts"]
    parts = sections(md)
    fresh = c["net_new"] + c["engineering"]
    assert _ints(p["header"], md) == (fresh, c["net_new"], c["engineering"], c["confirmation"])
    assert data["density"]["net_new"] == fresh
    assert _ints(p["summary"], parts[p["s5"]]) == (fresh, c["net_new"], c["engineering"], c["confirmation"],
                                                    c["relevant"], c["shown"])
    heads = [line for line in parts[p["s2"]].splitlines() if line.startswith(p["head"])]
    assert len(heads) == c["shown"] == len(data["increments"])
    new_rows, cont_rows = _table_ids(parts[p["s4"]], p["new"]), _table_ids(parts[p["s4"]], p["continuing"])
    assert _ints(p["ids"], parts[p["s5"]]) == (len(new_rows), len(cont_rows)) == (c["new_ids"], c["continuing_ids"])


def test_section4_lists_every_net_new_paper_and_each_id_once(briefed: tuple[dict[str, Any], dict[str, str]]) -> None:
    data, md = briefed
    s4 = sections(md["zh"])["四"]
    rows = [line.split("|")[1].strip() for line in s4.splitlines() if line.startswith("| ") and "arXiv 号" not in line]
    assert len(rows) == len(set(rows)), "an ID listed twice"
    net_new = {i["arxiv_id"] for i in data["increments"] + data["others"]
               if i["category"] == "net-new" and i["arxiv_id"]}
    assert net_new == set(_table_ids(s4, "本轮新增")) and len(net_new) == data["counts"]["net_new"]


def test_the_sample_day_counts_are_the_days(briefed: tuple[dict[str, Any], dict[str, str]]) -> None:
    """The sample day's figures (issue 14): 8 papers + 3 engineering NET-new, all 8 IDs in §4."""
    c = briefed[0]["counts"]
    assert (c["net_new"], c["engineering"], c["new_ids"]) == (8, 3, 8)
    assert DAY in briefed[1]["zh"].splitlines()[0]
