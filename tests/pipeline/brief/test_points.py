"""Key points keep what the team wrote under a bullet: tables, nested items, code spans and code blocks,
rendered as GitHub-flavoured Markdown in both languages (``templates/points.md.j2``)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.mdsafe import md_code_block
from kb.records import Inline, Point, PointBlock
from pipeline.brief.render import _environment, render_html
from pipeline.brief.rules import load_rules
from pipeline.workspace.notes import parse_note
from tests.pipeline.brief.conftest import (
    EN_MD,
    ZH_MD,
    brief,
    brief_json,
    brief_outputs,
    copy_sample,
    dangling_labels,
    ingest_sample,
    md_parser,
    read,
)

MARKERS = load_rules().section_markers   # data/briefing.toml's [markers] section
ROUTING = load_rules().routing           # its [markers] routing
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


# --- code blocks under a bullet -------------------------------------------------------------

LAUNCH = ("vllm serve Qwen/Qwen3-8B \\", "  --kv-transfer-config '{\"kv_connector\":\"NixlConnector\"}'", "", "",
          "# two blank lines above, kept")
CODE_POINT = Point("配置：", (), (
    PointBlock("code", lines=LAUNCH, lang="bash"),
    PointBlock("list", items=((1, Inline("Read 模式")),)),
    PointBlock("code", lines=("kv_role: kv_consumer",), lang="yaml", depth=1),
))
# Code from outside that tries to close its fence, open blocks after it, or run in the html briefing.
HOSTILE_CODE = ("```", "````", "~~~", "- injected bullet", "# injected heading", "<script>alert(1)</script>",
                "</code></pre><img src=x onerror=alert(1)>", "`` `a` ``")


def _fences(md: str) -> list[tuple[str, str, list[str]]]:
    """Each fenced block of ``md``: (its info string, its content, the tokens it sits in)."""
    out, stack = [], []
    for t in md_parser().parse(md):
        if t.nesting == 1:
            stack.append(t.type)
        elif t.nesting == -1:
            stack.pop()
        elif t.type == "fence":
            out.append((t.info, t.content, list(stack)))
    return out


def test_a_code_block_is_a_fence_inside_its_bullet_and_inside_its_nested_item() -> None:
    md = _render(CODE_POINT)
    assert md.splitlines()[:3] == ["- 配置：", "", "  ```bash"], "a blank line, then the fence under the bullet"
    launch, yaml = _fences(md)
    assert launch == ("bash", "\n".join(LAUNCH) + "\n", ["bullet_list_open", "list_item_open"])
    assert yaml == ("yaml", "kv_role: kv_consumer\n", ["bullet_list_open", "list_item_open"] * 2), \
        "the code written in the nested item stays in it"
    assert md_parser().parse(md)[-1].type == "bullet_list_close", "one list: the code did not end it"


def test_a_bullet_that_is_only_code_keeps_it_inside_the_item() -> None:
    """``- ```sh`` … : a point with no text of its own. A blank line after an empty bullet would end the
    item before its code, so there is none."""
    [note] = parse_note("# n\n\n## 1. e\n\n- ```sh\n  ls -l\n  ```\n- b\n", "inbox/a/2026-10-08-n.md").entries
    only, _ = note.points
    assert only == Point("", (), (PointBlock("code", lines=("ls -l",), lang="sh"),))
    [(info, content, where)] = _fences(_render(only))
    assert (info, content, where) == ("sh", "ls -l\n", ["bullet_list_open", "list_item_open"])


def test_code_cannot_close_its_fence_nor_inject_markdown_or_html() -> None:
    md = _render(Point("注入：", (), (PointBlock("code", lines=HOSTILE_CODE, lang="sh"),
                                      PointBlock("list", items=((1, Inline("after")),)))))
    [(info, content, where)] = _fences(md)
    assert (info, content) == ("sh", "\n".join(HOSTILE_CODE) + "\n"), "the code is one block, exactly as written"
    assert where == ["bullet_list_open", "list_item_open"]
    tokens = md_parser().parse(md)
    assert not [t for t in tokens if t.type in ("heading_open", "html_block")]
    assert [t.content for t in tokens if t.type == "inline"] == ["注入：", "after"], "no bullet came out of the code"
    html = render_html(md, "t", "zh")
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "- injected bullet\n# injected heading" in html


# Any line the parser can hand over: no line break (markdown-it splits on \n after turning \r into it)
# and no NUL (markdown-it replaces it); backticks, tabs, tildes and markup are likely.
_CODE_LINE = st.text(st.one_of(st.sampled_from("`~ \t<>#-|*&"), st.characters(
    blacklist_characters="\n\r\x00", blacklist_categories=("Cs",))), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(_CODE_LINE, min_size=1, max_size=5), st.integers(0, 2))
def test_any_code_reads_back_exactly_from_its_fence(lines: list[str], depth: int) -> None:
    items = tuple((d, Inline(f"item {d}")) for d in range(1, depth + 1))
    blocks = (PointBlock("list", items=items),) if items else ()
    md = _render(Point("p", (), (*blocks, PointBlock("code", lines=tuple(lines), lang="sh", depth=depth))))
    [(info, content, where)] = _fences(md)
    assert (info, content) == ("sh", "\n".join(lines) + "\n")
    assert where == ["bullet_list_open", "list_item_open"] * (depth + 1), "in the item it was written in"


@pytest.mark.parametrize("lang,shown", [
    ("python", "python"), ("c++", "c++"), ("objective-c", "objective-c"), ("yaml.j2", "yaml.j2"), ("", ""),
    ("x" * 21, ""), ("bash`", ""), ("a<b", ""), ("sh{.x}", ""), ("js\n# h", ""), (None, ""),
])
def test_only_a_plain_language_word_is_kept(lang: str | None, shown: str) -> None:
    assert md_code_block(["echo 1"], lang).splitlines()[0] == "```" + shown


def test_the_fence_is_longer_than_any_backtick_run_in_the_code() -> None:
    assert md_code_block(["a ````` b", "``"], "", "  ").splitlines() == ["  ``````", "  a ````` b", "  ``", "  ``````"]


def test_points_stored_before_code_blocks_load_as_they_were() -> None:
    """JSON written by a kb that knew only tables and lists: the new fields take their defaults."""
    stored = {"text": "三种后端：", "code": [], "blocks": [
        {"kind": "table", "rows": [[{"text": "后端", "code": []}], [{"text": "UCCL", "code": []}]], "items": []},
        {"kind": "list", "rows": [], "items": [[1, {"text": "a", "code": []}]]}]}
    table, items = Point.load(stored).blocks
    assert table == PointBlock("table", rows=((Inline("后端"),), (Inline("UCCL"),)))
    assert items == PointBlock("list", items=((1, Inline("a")),))
    assert (table.lines, table.lang, table.depth) == ((), "", 0)
    assert PointBlock.load(CODE_POINT.as_json()["blocks"][2]) == CODE_POINT.blocks[2]


LAUNCH_NOTE = """---
title: "vLLM NIXL 启动配置"
credibility: 4
---

# 启动配置

## 1. vLLM NixlConnector：prefill decode disaggregation 的 KV cache 传输启动配置

来源：https://example.org/vllm-nixl-launch （2026-10-08）

- 配置：

  ```bash
  vllm serve Qwen/Qwen3-8B \\
    --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'


  # two blank lines above, kept
  ```
- KV cache 传输角色：
  - decode 节点
    ```yaml
    kv_role: kv_consumer  # ⭐⭐ 推荐
    ```
  - prefill 节点
- 不可信的代码：
  ````
  ```
  <script>alert(1)</script>
  ````
"""


@pytest.fixture(scope="module")
def launch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The sample day with a note whose bullets carry code, every item shown (top = 80), briefed three ways."""
    home = copy_sample(tmp_path_factory.mktemp("code") / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 80"), encoding="utf-8")
    (home / "inbox" / "jay" / "2026-10-08T2200-vllm-nixl-launch.md").write_text(LAUNCH_NOTE, encoding="utf-8")
    ingest_sample(home)
    return brief_outputs(home)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_briefing_keeps_the_code_under_its_bullet(launch: dict[str, str], lang: str) -> None:
    md = launch[lang]
    lines = md.splitlines()
    at = lines.index("- 配置：")
    assert lines[at + 1:at + 9] == ["", "  ```bash", "  vllm serve Qwen/Qwen3-8B \\",
                                    "    --kv-transfer-config '{\"kv_connector\":\"NixlConnector\",\"kv_role\":\"kv_both\"}'",
                                    "  ", "  ", "  # two blank lines above, kept", "  ```"]
    fences = {info: (content, where) for info, content, where in _fences(md)}
    assert fences["yaml"] == ("kv_role: kv_consumer  # ⭐⭐ 推荐\n", ["bullet_list_open", "list_item_open"] * 2)
    assert fences[""][0] == "```\n<script>alert(1)</script>\n", "the hostile code is one block, as written"
    assert dangling_labels(md) == []


def test_the_html_briefing_escapes_the_code(launch: dict[str, str]) -> None:
    html = launch["html"]
    assert '<pre><code class="language-bash">vllm serve Qwen/Qwen3-8B' in html
    assert "<code>```\n&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>" in html
    assert "<script" not in html.lower()
    # the stars are the code's, not a credibility: left as written (no ★★☆☆☆ 2/5 inside the code)
    assert '<code class="language-yaml">kv_role: kv_consumer  # ⭐⭐ 推荐\n</code>' in html


def _candidate(text: str, bullets: list[str], facts: list[str]):
    from pipeline.brief.model import Candidate
    c = Candidate(key="k", texts=[text], points=[Point(b) for b in bullets])
    c.facts = facts
    return c


def test_a_sentence_made_of_the_bullets_shown_is_not_quoted_again() -> None:
    """Day 3's HotSwapEP and MemPilot: a note entry's text is its source line and its bullets, one per
    line. Read as one sentence, they came back as a sixth point repeating the first two."""
    from pipeline.brief.key_points import key_points as _points
    bullets = ["expert 热度几分钟就变，静态 placement 会让部分 GPU 打满、部分空转",
               "decode 吞吐：HotSwapEP 在 expert 负载高度倾斜时 1.7×，均匀负载下 1.1×（对比静态 EP）"]
    text = "来源：https://arxiv.org/abs/2610.13544 （2026-10-12）\n" + "\n".join(bullets)
    assert [p["text"] for p in _points(_candidate(text, bullets, ["1.7×", "1.1×"]), MARKERS)] == bullets


def test_chinese_lines_starting_with_a_digit_are_not_one_wrapped_sentence() -> None:
    from pipeline.brief.key_points import units as _units
    lines = ["预测下一步会被 attend 的 KV block，逐出到 CPU 内存", "128K 上下文：TTFT 低 31%"]
    assert _units("\n".join(lines)) == lines


def test_wrapped_english_prose_is_still_one_sentence_and_a_new_fact_is_quoted() -> None:
    from pipeline.brief.key_points import key_points as _points
    from pipeline.brief.key_points import units as _units
    assert _units("Punica serves LoRA adapters at 1.9× throughput\nover S-LoRA on A100.") == [
        "Punica serves LoRA adapters at 1.9× throughput over S-LoRA on A100."]
    c = _candidate("Intro line.\nThe kernel reaches 41.8 GB/s on H100.", ["The kernel is open source"], ["41.8 GB/s"])
    assert [p["text"] for p in _points(c, MARKERS)] == ["The kernel is open source",
                                                        "The kernel reaches 41.8 GB/s on H100."]


def test_a_bullet_that_only_asks_for_a_section_is_no_key_point() -> None:
    """"→ §1.(1)", "建议：§2.5", "Suggest §2.2." were quoted as key points on days 10–12 (31 times), beside the
    increment's "Suggested section" that says it (a reader's review of day 12); a request that says more stays."""
    from pipeline.brief.key_points import key_points as _points
    bullets = ["decode 抢占 −63%", "→ §1.(1)", "建议：§2.5", "Suggest §2.2.", "建议：§2.1；二期下周可以先在灰度机上试 snapshot"]
    assert [p["text"] for p in _points(_candidate("", bullets, []), MARKERS)] == [
        "decode 抢占 −63%", "建议：§2.1；二期下周可以先在灰度机上试 snapshot"]


def test_a_section_request_with_who_reads_it_is_no_key_point() -> None:
    """The day 18 reader: "Jay 看，→ §2.4" (Tom's HF snapshot routing SkewTP) was SkewTP's third key point, beside the
    "Suggested section: §2.1" the afternoon card chose. A request with the note's bookkeeping (who reads, when, a
    priority) is none; one with a reason, a figure or a system's name is a point, and a long aside stays."""
    from pipeline.brief.key_points import key_points as _points
    routing = ["Jay 看，→ §2.4", "建议：§3.5，下午建卡", "建议：§10，低优先级", "Suggest §5, low priority.",
               "Jay 早上写了，→ §2.4"]
    kept = ["Omer 看，→ §2.5（今早锚的 MeldKV 在那里）", "建议：§2.4，二期短请求多，可以试", "8 卡 TP，→ §2.1",
            "Suggest §2.2, already the cardinal case.",
            "Suggest §2.3.1, next to the llm-d routing post.",
            # the review's: a reason made of words the bookkeeping uses too
            "建议 §2.4，单卡就能跑", "建议：§3.5，显卡利用率低", "建议：§2.4，没看懂动机", "Suggest §2.4: cuts read latency",
            "→ §2.4，看起来就是 prefix 缓存"]
    points = _points(_candidate("", routing + kept, []), MARKERS, ROUTING, limit=20)
    assert [p["text"] for p in points] == kept
    assert len(_points(_candidate("", routing, []), MARKERS, limit=20)) == len(routing)   # no routing words: kept


def test_a_sentence_quoted_from_an_abstract_or_a_post_says_which() -> None:
    """The day 13 reader: TempoDraft's key points listed "2.6x" (Tom's note) and then "2.4x" (the abstract) with no
    hint which was the paper's. A quoted sentence of a public source carries where it is from; the team's bullets
    are the team's (the sources line names them)."""
    from pipeline.brief.key_points import key_points as _points
    from pipeline.brief.model import Candidate, SourceRef
    abstract = "TempoDraft picks draft lengths with a bandit. TempoDraft decodes 2.4x faster than autoregressive decoding."
    c = Candidate("id:2610.28806", arxiv_ids=["2610.28806"], texts=["- TempoDraft decodes 2.6x faster", abstract],
                  points=[Point("TempoDraft decodes 2.6x faster")], facts=["2.6x", "2.4x"],
                  sources=[SourceRef("entry", "tom", "inbox/tom/n.md", 1, text="- TempoDraft decodes 2.6x faster"),
                           SourceRef("arxiv", "arxiv", url="https://arxiv.org/abs/2610.28806", text=abstract)])
    team, quoted = _points(c, [])
    assert "from" not in team and quoted["text"].endswith("2.4x faster than autoregressive decoding.")
    assert quoted["from"] == {"kind": "arxiv", "name": "arxiv"}
    template = _environment(None).from_string('{% from "points.md.j2" import point %}{{ point(p, "（摘要）") | trim }}')
    assert template.render(p=quoted) == "- TempoDraft decodes 2.4x faster than autoregressive decoding. （摘要）"


def test_a_release_items_points_leave_out_an_older_release_pasted_with_its_changelog() -> None:
    """Release notes pasted whole carry the previous release's section under the new one's: its lines are not the
    new release's points, neither as the team's bullets nor as sentences quoted for their figures."""
    from pipeline.brief.key_points import key_points
    from pipeline.brief.model import Candidate
    text = ("Spindle 3.2.0 (2026-12-01)\nprefill: chunk size adapts to queue depth; p99 TTFT −12%\n"
            "Spindle 3.1.4 (2026-11-20)\nscheduler: fairness knob per tenant\nprefill: prefix reuse; p99 TTFT −4%\n"
            "我们要的是自适应 chunk")
    bullets = ["prefill: chunk size adapts to queue depth; p99 TTFT −12%", "scheduler: fairness knob per tenant",
               "prefill: prefix reuse; p99 TTFT −4%", "我们要的是自适应 chunk"]
    c = Candidate(key="k", title="Spindle 3.2.0 升级记录", texts=[text], points=[Point(b) for b in bullets])
    c.facts = ["12%", "4%"]
    assert [p["text"] for p in key_points(c, MARKERS)] == [bullets[0], bullets[3]]
    c.points = []   # read from the text alone: the older section's figure is not quoted either
    quoted = " ".join(p["text"] for p in key_points(c, MARKERS))
    assert "−12%" in quoted and "−4%" not in quoted and "fairness" not in quoted
    c.title, c.points = "Spindle 升级记录", [Point(b) for b in bullets]
    assert [p["text"] for p in key_points(c, MARKERS)] == bullets, "an item naming no release keeps every bullet"


def test_the_teams_comparison_of_a_release_with_the_one_before_is_its_point() -> None:
    """A bullet opening with the previous release and writing the item's own version ("Spindle 3.1.4 对比 3.2.0：…",
    "Spindle 3.1.4 的调度抖动：3.2.0 没了") measures the upgrade: it stays, as the bullet naming the older alone goes."""
    from pipeline.brief.key_points import key_points
    from pipeline.brief.model import Candidate
    bullets = ["Spindle 3.1.4 对比 3.2.0：p99 TTFT 910 → 800 ms（A100，batch 64）",
               "Spindle 3.1.4 的调度抖动：3.2.0 没了，p99 TPOT 稳在 41 ms", "Spindle 3.1.4 的说明：公平性参数按租户配",
               "升级之后吞吐 +5%"]
    c = Candidate(key="k", title="Spindle 3.2.0 升级", texts=["\n".join("- " + b for b in bullets)],
                  points=[Point(b) for b in bullets])
    c.facts = ["800 ms", "41 ms", "5%"]
    assert [p["text"] for p in key_points(c, MARKERS)] == [bullets[0], bullets[1], bullets[3]]


def test_a_release_titled_by_its_series_keeps_its_changelog_section() -> None:
    """The team writes "Spindle 3.2 升级" for what the changelog heads "Spindle 3.2.0": one release, its section kept;
    the older release's below it still goes."""
    from pipeline.brief.key_points import key_points
    from pipeline.brief.model import Candidate
    text = ("Spindle 3.2.0 (2026-12-01)\nprefill: chunk size adapts to queue depth; p99 TTFT −12%\n"
            "Spindle 3.1.4 (2026-11-20)\nprefill: prefix reuse; p99 TTFT −4%")
    own, older = "prefill: chunk size adapts to queue depth; p99 TTFT −12%", "prefill: prefix reuse; p99 TTFT −4%"
    c = Candidate(key="k", title="Spindle 3.2 升级", texts=[text], points=[Point(own), Point(older)])
    c.facts = ["12%", "4%"]
    assert [p["text"] for p in key_points(c, MARKERS)] == [own]
