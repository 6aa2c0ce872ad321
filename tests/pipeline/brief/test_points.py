"""Key points keep what the team wrote under a bullet: tables, nested items and code spans,
rendered as GitHub-flavoured Markdown in both languages (``templates/points.md.j2``)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kb.records import Inline, Point, PointBlock
from pipeline.brief.render import _environment
from tests.pipeline.brief.conftest import EN_MD, ZH_MD, brief, brief_json, dangling_labels, md_parser, read

POINT = Point("Read 模式用 VLLM_READ_MODE=1 打开：", ((9, 25),), (
    PointBlock("table", rows=((Inline("后端"), Inline("开关")), (Inline("UCCL"), Inline("a|b", ((0, 3),))))),
    PointBlock("list", items=((1, Inline("decode 主动拉取 KV")), (2, Inline("延迟更可预测")))),
))


def _render(p: Point) -> str:
    template = _environment(None).from_string('{% from "points.md.j2" import point %}{{ point(p) | trim }}\n')
    return template.render(p=p.as_json())


def test_a_point_renders_its_code_table_and_nested_items_inside_its_bullet() -> None:
    md = _render(POINT)
    assert md.splitlines()[0] == "- Read 模式用 `VLLM_READ_MODE=1` 打开："
    types = [t.type for t in md_parser().parse(md)]
    # one list item holding the table and the nested list (two levels), not a table after the list
    assert types[:2] == ["bullet_list_open", "list_item_open"] and types[-1] == "bullet_list_close"
    body = types[2:-2]
    assert "table_open" in body and body.count("bullet_list_open") == 2
    code = [c.content for t in md_parser().parse(md) if t.type == "inline" for c in t.children or []
            if c.type == "code_inline"]
    assert code == ["VLLM_READ_MODE=1", "a|b"], "code spans stay code, a pipe inside a cell's code does not split it"


@pytest.fixture(scope="module")
def outputs(sample_day: Path) -> dict[str, Any]:
    brief(sample_day)
    brief(sample_day, "--lang", "en")
    return {"json": brief_json(sample_day), "zh": read(sample_day, ZH_MD), "en": read(sample_day, EN_MD)}


def test_no_point_of_the_sample_ends_in_a_colon_without_its_block(outputs: dict[str, Any]) -> None:
    points = [p for inc in outputs["json"]["increments"] for p in inc["points"]]
    assert any(p["blocks"] for p in points), "the NIXL bullet keeps its table"
    assert [p["text"] for p in points if re.search(r"[:：]$", p["text"]) and not p["blocks"]] == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_bullet_of_the_sample_briefing_ends_in_a_colon_with_nothing_under_it(outputs: dict[str, Any],
                                                                                 lang: str) -> None:
    assert dangling_labels(outputs[lang]) == []
    assert "  | UCCL | NCCL 通信 | NVIDIA 生态原生 |" in outputs[lang].splitlines()
