"""A Markdown briefing is read as text as often as it is rendered: no HTML entities in it (``&amp;``
in a .md is a bug), and rendered as GitHub-flavoured Markdown (tables on) it shows the text as written."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import EN_MD, ZH_MD, brief, clone, kb, md_parser, read

# An entity kb wrote; "\\&amp;" is the author's own text "&amp;", kept as written.
ENTITY = re.compile(r"(?<!\\)&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
NOTE = """---
title: "R&D notes"
credibility: 4
---

- **AT&T & R&D: KV cache for prefill/decode disaggregation, 1.7x sessions**
  来源：https://blog.example.org/at-t-kv?a=1&b=2 （2026-10-08）
  - KV cache offload for prefill decode disaggregated serving: TTFT 3 < 5 ms &amp; nothing else
"""


@pytest.fixture(scope="module")
def outputs(sample_day: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = clone(sample_day, tmp_path_factory.mktemp("amp") / "ws")
    (home / "inbox" / "jay" / "2026-10-08T2200-jay-at-t.md").write_text(NOTE, encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", "2026-10-08")
    brief(home)
    brief(home, "--lang", "en")
    return {"zh": read(home, ZH_MD), "en": read(home, EN_MD)}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_markdown_has_no_html_entities(outputs: dict[str, str], lang: str) -> None:
    md = outputs[lang]
    assert "AT&T" in md
    assert ENTITY.findall(md) == []


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_markdown_renders_as_gfm_showing_the_text_as_written(outputs: dict[str, str], lang: str) -> None:
    tokens = md_parser().enable("strikethrough").parse(outputs[lang])
    lines = ["".join(c.content for c in t.children or [] if c.type in ("text", "code_inline"))
             for t in tokens if t.type == "inline"]
    assert any("AT&T & R&D: KV cache for prefill/decode" in line for line in lines)
    assert not [t for t in tokens if t.type in ("html_block", "html_inline")]
    assert any(t.type == "table_open" for t in tokens)
