"""Hostile text from outside (notes, cards, feed items) cannot inject HTML, links or table cells
into the briefing: unit tests of the filters, then a whole run over a poisoned workspace."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.brief.render import md_cell, md_link, md_text, render_html
from tests.pipeline.brief.conftest import (
    assert_tables_well_formed,
    brief_json,
    brief_outputs,
    clone,
    copy_sample,
    html_tokens,
    ingest_sample,
    md_parser,
)

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
JS_LINK = "[x](javascript:alert(1))"


def _rendered_text(markdown: str) -> str:
    """The visible text of a Markdown snippet (inline tokens' text children)."""
    out = []
    for t in md_parser().parse(markdown):
        for c in t.children or []:
            if c.type in ("text", "code_inline"):
                out.append(c.content)
            elif c.type in ("softbreak", "hardbreak"):
                out.append(" ")
    return "".join(out)


def _html(markdown: str) -> str:
    return render_html(markdown, "t", "zh")


# --- md_text / md_cell ----------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    SCRIPT, IMG, JS_LINK, "![i](http://x.org/a.png)", "a | b", "a\\|b", "`a | b`", "a\nb\r\nc\td", "\\", "AT&T",
    "&lt;script&gt;", "&#60;script&#62;", "<http://evil.org>", "**bold** and *it*", "x ]( y", "a ~~ b",
])
def test_md_text_shows_the_text_and_nothing_else(value: str) -> None:
    """Rendered, the escaped text shows exactly the input (whitespace folded): no markup, no tags."""
    out = md_text(value)
    assert "\n" not in out and "\r" not in out and not re.search(r"(?<!\\)<", out)   # only \<, which opens no tag
    assert not re.search(r"(?<!\\)&#?\w+;", out)   # no entity: a Markdown file is read as text too
    assert _rendered_text(out) == " ".join(value.split())
    assert html_tokens(out) == []
    html = _html(out)
    assert "<script" not in html and "<img" not in html and "<a " not in html and "<strong>" not in html


@pytest.mark.parametrize("value", ["a | b", "|", "||x||", "a\\|b", "`|`", "x\n| y | z |", SCRIPT + " | " + IMG])
def test_md_cell_keeps_the_row_shape(value: str) -> None:
    table = f"| h1 | h2 | h3 |\n|---|---|---|\n| {md_cell(value)} | mid | {md_cell(value)} |\n"
    assert assert_tables_well_formed(table) == 1
    cells = [t for t in md_parser().parse(table) if t.type == "inline"][3:]
    assert [c.content for c in cells][1] == "mid"


def test_md_text_none_and_numbers() -> None:
    assert md_text(None) == "" and md_text(12) == "12" and md_text("  a   b  ") == "a b"


@pytest.mark.parametrize("value", ["_init_ and _b_", "# 3 things", "1. first step", "- sub point", "---"])
def test_md_text_in_a_bullet_stays_a_plain_bullet(value: str) -> None:
    tokens = md_parser().parse(f"- {md_text(value)}\n")
    types = [t.type for t in tokens]
    assert types == ["bullet_list_open", "list_item_open", "paragraph_open", "inline", "paragraph_close",
                     "list_item_close", "bullet_list_close"], types
    assert _rendered_text(f"- {md_text(value)}\n") == value


# --- md_link --------------------------------------------------------------------------------

@pytest.mark.parametrize("url", ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)",
                                 "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)",
                                 "file:///etc/passwd", "//evil.org/x", "jav&#x09;ascript:alert(1)"])
def test_md_link_makes_no_link_of_other_schemes(url: str) -> None:
    out = md_link(url, "label")
    html = _html(out)
    assert "<a " not in html and "<script" not in html
    assert _rendered_text(out) == "label"
    assert md_link(url) and "<a " not in _html(md_link(url))


@pytest.mark.parametrize("url", ["https://x.org/a b(c)<d>", 'https://x.org/"onmouseover="alert(1)',
                                 "https://x.org/](javascript:alert(1))", "https://x.org/a)](javascript:alert(1)",
                                 "HTTPS://X.ORG/P"])
def test_md_link_http_urls_stay_one_inert_link(url: str) -> None:
    out = md_link(url, "[lbl] " + SCRIPT)
    links = [c for t in md_parser().parse(out) for c in (t.children or []) if c.type == "link_open"]
    assert len(links) == 1
    href = links[0].attrs["href"]
    assert re.match(r"https?://", href, re.IGNORECASE) and '"' not in href and " " not in href and "<" not in href
    assert _rendered_text(out) == "[lbl] " + SCRIPT
    html = _html(out)
    assert "<script" not in html and "onmouseover=" not in re.sub(r'href="[^"]*"', "", html)


def test_md_link_without_url_is_text() -> None:
    assert md_link(None, JS_LINK) == md_text(JS_LINK)
    assert md_link("", None) == ""


@pytest.mark.parametrize("url", ["https://x.org/a\n#\tINJECTED", "https://x.org/a\tb", "https://x.org/a\r\n| x | y |"])
def test_md_link_is_one_line(url: str) -> None:
    out = md_link(url)
    assert "\n" not in out and "\r" not in out and "\t" not in out
    assert len([c for t in md_parser().parse(out) for c in (t.children or []) if c.type == "link_open"]) == 1


# --- a poisoned workspace, end to end -------------------------------------------------------

EVIL_NOTE = f"""---
title: "{SCRIPT} evil | note"
credibility: 3
---

# {IMG} notes

## 1. {SCRIPT} KV cache prefill-decode disaggregation | a | b

来源：https://example.org/kv-evil （2026-10-08）

- {IMG} KV cache transfer 3.5x faster | col
- {JS_LINK} RDMA KV connector prefill decode ⚠ 待核实
- a | b | c with EVIL_KV_FLAG_SETTING=1 and <b>bold</b> {SCRIPT}

## 2. [click](javascript:alert(1)) speculative decoding draft model | trick

- line one of speculative decoding
  continued {SCRIPT} on a new line | pipe
- `code | x` *star* \\backslash
"""

EVIL_CARD = f"""---
arxiv_id: 2610.99999
title: "{SCRIPT} KV cache | offloading for prefill-decode disaggregation"
created: 2026-10-08T12:00
source: manual
hf_upvotes: null
topics: [kv-cache]
primary_topic: true
---
{IMG} KV cache offloading for prefill-decode disaggregated serving. {JS_LINK} | cell | breaker
"""


def _esc(s: str) -> str:
    """Text for an RSS element whose feed treats content as HTML: escaped twice so the text keeps the tags."""
    return s.replace("&", "&amp;amp;").replace("<", "&amp;lt;").replace(">", "&amp;gt;")


EVIL_ITEMS = f"""
    <item>
      <title>{_esc(SCRIPT)} KV cache | prefill decode disaggregation {_esc(IMG)}</title>
      <link>https://blog.lmcache.ai/2026-10-08-evil/</link>
      <pubDate>Thu, 08 Oct 2026 03:00:00 +0000</pubDate>
      <author>x@example.org ({_esc(IMG)} Mallory | Eve)</author>
      <guid isPermaLink="true">https://blog.lmcache.ai/2026-10-08-evil/</guid>
      <description>{_esc(IMG)} KV cache streaming cuts TTFT by 31% | a | b {JS_LINK} {_esc(SCRIPT)} prefill decode disaggregation LMCACHE_EVIL_MODE_ON=1</description>
    </item>
    <item>
      <title>Multi
line | KV cache
prefill decode disaggregation title</title>
      <link>javascript:alert(1)</link>
      <pubDate>Thu, 08 Oct 2026 04:00:00 +0000</pubDate>
      <guid isPermaLink="false">evil-js-link</guid>
      <description>KV cache
streaming | 2.5x faster prefill decode disaggregation</description>
    </item>
    <item>
      <title>Newline link: KV cache offload for prefill decode disaggregation</title>
      <link>https://blog.lmcache.ai/2026-10-08-nl/a
#\tINJECTED</link>
      <pubDate>Thu, 08 Oct 2026 05:00:00 +0000</pubDate>
      <guid isPermaLink="false">evil-nl-link</guid>
      <description>KV cache offload to CPU memory, 1.7x more sessions with prefill decode disaggregation</description>
    </item>
"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = copy_sample(tmp_path_factory.mktemp("hostile") / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 80"), encoding="utf-8")
    (home / "inbox" / "mallory").mkdir()
    (home / "inbox" / "mallory" / "2026-10-08T1200-evil.md").write_text(EVIL_NOTE, encoding="utf-8")
    (home / "organized" / "paper_cards" / "382-2610-99999.md").write_text(EVIL_CARD, encoding="utf-8")
    feed = home / "recordings" / "blogs" / "lmcache.xml"
    xml = feed.read_text(encoding="utf-8")
    feed.write_text(xml.replace("<item>", EVIL_ITEMS.strip() + "\n    <item>", 1), encoding="utf-8")
    ingest_sample(home)
    return home


@pytest.fixture(scope="module")
def out(hostile: Path) -> dict[str, str]:
    return brief_outputs(hostile)


def test_hostile_items_are_in_the_briefing(out: dict[str, str]) -> None:
    """Escaped, not dropped: the poisoned items are still reported, as text."""
    zh = out["zh"]
    assert "inbox/mallory/2026-10-08T1200-evil.md" in zh
    assert "\\<script>alert(1)\\</script> KV cache \\| prefill decode disaggregation" in zh
    assert "Multi line \\| KV cache prefill decode disaggregation title" in zh
    assert "2610.99999" in zh
    html = out["html"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_hostile_html_has_no_active_content(out: dict[str, str]) -> None:
    html = out["html"]
    assert "<script" not in html.lower()
    assert not re.search(r"<[^>]*\bonerror\s*=", html, re.IGNORECASE)
    assert not re.search(r"<[^>]*\son\w+\s*=", html, re.IGNORECASE)
    assert not re.search(r"href\s*=\s*[\"']?\s*javascript:", html, re.IGNORECASE)
    assert not re.search(r"<(img|iframe|object|embed|svg|b)\b", html, re.IGNORECASE)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hostile_markdown_has_no_raw_html(out: dict[str, str], lang: str) -> None:
    md = out[lang]
    # Only a backslash-escaped "\<" (which opens no tag in any CommonMark reader), never an entity.
    assert not re.search(r"(?<!\\)<(script|img)", md, re.IGNORECASE) and "&lt;" not in md and "&amp;" not in md
    assert html_tokens(md) == []
    hrefs = [c.attrs["href"] for t in md_parser().parse(md) for c in (t.children or []) if c.type == "link_open"]
    assert hrefs and all(re.match(r"https?://", h) for h in hrefs), [h for h in hrefs if "http" not in h[:5]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_hostile_tables_keep_their_shape(out: dict[str, str], lang: str) -> None:
    # §1, §4, §6, and the NIXL note's backend table under its point (every item is shown here: top = 80)
    assert assert_tables_well_formed(out[lang]) == 4


def test_hostile_flag_text_is_escaped(out: dict[str, str]) -> None:
    s3 = out["zh"].split("## 三、", 1)[1].split("## 四、", 1)[0]
    assert "\\[x\\](javascript:alert(1))" in s3, "the ⚠ claim is quoted, escaped"
    assert "2610.99999" in s3, "the card's unknown ID is flagged"


def test_hostile_link_cannot_inject_a_heading(out: dict[str, str]) -> None:
    tokens = md_parser().parse(out["zh"])
    heads = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert not [h for h in heads if "INJECTED" in h]


# --- kb's own messages: their `…` is code -------------------------------------------------------

@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_doc_problem_shows_kb_s_command_as_code_not_as_escaped_backticks(sample_day: Path, tmp_path: Path,
                                                                           lang: str) -> None:
    """Day 2's baseline line read "… \\`kb anchor\\` refuses it …": the backticks kb wrote were escaped as
    outside text is, and a reader of the Markdown saw backslashes. They are a code span now; a heading
    the team wrote inside a problem is still escaped, in the Markdown and in the HTML."""
    from pipeline.brief.render import render_markdown
    from pipeline.workspace.knowledge import parse_knowledge
    doc = f"version: v1 · 2026-10-08\n## §3.4 A\n## §3.4 B\n## § {SCRIPT} `x\n"
    problems = parse_knowledge(doc, "k.md", "k", today="2026-10-08").problems
    data = brief_json(clone(sample_day, tmp_path / "ws")) | {"command": "kb nightly"}
    data["baseline"] |= {"problems": problems}
    md = render_markdown(data, lang)
    line = next(x for x in md.splitlines() if "`kb anchor`" in x)
    assert "\\`" in line.split("`kb anchor`")[1]          # the team's lone backtick stays text
    assert "\\`kb" not in line and "anchor\\`" not in line
    assert not re.search(r"(?<!\\)<script", line) and html_tokens(line) == []
    html = _html(line)
    assert "<code>kb anchor</code>" in html and "<script" not in html and "\\" not in html
