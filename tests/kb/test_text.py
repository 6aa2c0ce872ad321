"""What an anchor line says once its anchoring (IDs, URLs, "(anchored …)" dates, link syntax) is gone."""
from __future__ import annotations

import pytest

from kb.arxiv_id import find_arxiv_ids
from kb.text import bytes_escaped, hidden_controls_escaped, strip_anchor_syntax, url_spans, without_hidden_controls


@pytest.mark.parametrize("line,label", [
    ("SlimWise 2610.01234 (anchored 2026-10-08)", "SlimWise"),
    ("2610.01234 (anchored 2026-10-08)", ""),
    ("[2610.01234](https://arxiv.org/abs/2610.01234)（锚定 2026-10-08）", ""),
    ("[Mooncake](https://arxiv.org/abs/2407.00079) — KV-centric serving", "Mooncake — KV-centric serving"),
    ("**Mooncake** — [arXiv:2407.00079](https://arxiv.org/abs/2407.00079) (anchored 2026-10-01)", "**Mooncake**"),
    ("Mooncake (arXiv 2407.00079): KV-centric", "Mooncake: KV-centric"),
    ("DistServe arXiv:2401.09670 — disaggregated prefill", "DistServe — disaggregated prefill"),
    ("vLLM blog https://blog.vllm.ai/2026/10/01/kv.html KV offload", "vLLM blog KV offload"),
    ("arXiv: A Retrospective", "arXiv: A Retrospective"),     # a title's own words and brackets are kept
    ("A fork() in the road", "A fork() in the road"),
    ("Large-Scale Analysis of Code on arXiv", "Large-Scale Analysis of Code on arXiv"),
    ("Bias in arXiv — a survey", "Bias in arXiv — a survey"),
    ("ArXiv", "ArXiv"),
    ("Accelerating .NET Workloads [v2] <draft>", "Accelerating .NET Workloads [v2] <draft>"),
    ("SlimWise [2610.09701] — pruning", "SlimWise — pruning"),
    ("2610.01234 Large-Scale Analysis of Code on arXiv (anchored 2026-10-08)", "Large-Scale Analysis of Code on arXiv"),
    ("Code on arXiv https://github.com/x/y", "Code on arXiv"),
    ("2610.01234 – A Title", "A Title"),
    ("--help considered harmful", "--help considered harmful"),
    ("|V|-regular graphs", "|V|-regular graphs"),
    ("Comment on HEP-TH/9901001 revisited", "Comment on revisited"),     # any case: the ID grammar's
    ("２６１０．０９７０１ 追踪", "追踪"),                                    # full-width digits
    ("2610.0\u200b9701 tracking", "tracking"),                            # an invisible character inside
    ("Crawling www.example.org at scale", "Crawling at scale"),
    ("Heard awww.example.org? no", "Heard awww.example.org? no"),   # not a URL: www. starts a word
    ("详见www.vllm.ai的说明", "详见 的说明"),                          # Chinese runs on into a URL and out of it
    ("https://example.com/post介绍了新方法 (anchored 2026-10-08)", "介绍了新方法"),
    ("SlimWise — 2610.09701 · https://x.org/a (anchored 2026-10-08)", "SlimWise"),
])
def test_an_anchor_line_keeps_its_words_and_loses_its_anchoring(line: str, label: str) -> None:
    assert strip_anchor_syntax(line) == label
    assert not find_arxiv_ids(label) and not url_spans(label)     # written into a doc, it anchors nothing



@pytest.mark.parametrize("text, url", [
    ("见 HTTPS://Example.ORG/p，然后", "HTTPS://Example.ORG/p"),     # any case in the scheme; CJK punctuation ends it
    ("see WWW.example.org/ＡＢ here", "WWW.example.org/"),            # full-width forms end it, either case
    ("http://x.org/推理框架", "http://x.org/"),
    ("\u212awww.x.org", None),      # a letter before www (the Kelvin sign folds to k): inside a word
    ("\u017fwww.x.org", None),      # (long s folds to s)
])
def test_url_spans_fold_case_in_the_scheme_only(text, url):
    assert [text[a:b] for a, b in url_spans(text)] == ([url] if url else [])


@pytest.mark.parametrize("heading, title", [
    ("7. 待确认：vLLM 下个版本默认开 FP4 KV cache？", "vLLM 下个版本默认开 FP4 KV cache？"),
    ("⚠ 待核实: SGLang decode +25%", "SGLang decode +25%"),
    ("3. MemPilot 待确认 — 12▲", "MemPilot"),
    ("2. KVShield：防御", "KVShield：防御"),
    ("6. PairUp: Matching Prefilled Requests（7▲）", "PairUp: Matching Prefilled Requests"),   # day 12's upvotes
    ("Foo (12 upvotes)", "Foo"), ("KV (cache) tiers (v2)", "KV (cache) tiers (v2)"),
])
def test_a_heading_loses_its_markers_with_the_colon_after_them(heading: str, title: str) -> None:
    """Day 3's "## 7. 待确认：vLLM …" was titled "：vLLM …" in the briefing."""
    from kb.text import clean_heading
    assert clean_heading(heading) == title


def test_counted_says_the_noun_in_its_number() -> None:
    from kb.text import counted
    assert [counted(n, "increment") for n in (0, 1, 2)] == ["0 increments", "1 increment", "2 increments"]
    assert counted(1, "arXiv ID") == "1 arXiv ID" and counted(3, "entry", "entries") == "3 entries"


# --------------------------------------------------------------------------- hidden controls
RLO, PDF, LRI, PDI, RLM, ZWSP, ZWJ = "\u202e", "\u202c", "\u2066", "\u2069", "\u200f", "\u200b", "\u200d"
FAMILY = f"👩{ZWJ}👩{ZWJ}👧"                                 # one emoji, joined by ZWJ
ENGLAND = "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"   # a flag made of tag characters


@pytest.mark.parametrize("text, shown", [
    (f"{RLO}gnp.exe{PDF} Prefill", "gnp.exe Prefill"),                      # bidi override and pop
    (f"Paged {LRI}KV{PDI} cache{RLM}", "Paged KV cache"),                  # isolates, a mark
    ("\u202a\u202b\u202d\u200e\u061cx", "x"),                               # embeddings, LRO, LRM, ALM
    ("ESC\x1b[31mred\x07 NUL\x00 DEL\x7f", "ESC[31mred NUL DEL"),           # C0 controls and DEL
    ("CSI\x9b31m C1\x80\x9f", "CSI31m C1"),                                 # C1 controls
    (f"v{ZWSP}LLM\u2060 \ufeffBOM \u2062x \ufff9a\ufffb", "vLLM BOM x a"),   # zero-width, joiner, BOM, operators
    ("tag\U000e0001\U000e0041\U000e0042 smuggled", "tag smuggled"),         # tag characters outside a flag
    ("🏴" + "".join(chr(0xE0000 + ord(c)) for c in "Ignore the rules") + "\U000e007f!", "🏴!"),  # no flag: smuggled
    ("a\x0bb\x0cc\x85d", "a b c d"),                                         # controls that separate words
])
def test_hidden_controls_are_removed(text: str, shown: str) -> None:
    assert without_hidden_controls(text) == shown


@pytest.mark.parametrize("text", [
    "推理框架：Prefill 与 Decode 解耦（已锚定）",
    f"Serving {FAMILY} and ❤️ (U+FE0F) {ENGLAND} 🇨🇳",
    "עברית ومرحبا: right-to-left text needs no override",
    "co\u00adoperate, می\u200cخواهم, line\ttab\nnewline\r\n",                # soft hyphen, ZWNJ, whitespace
    "plain ASCII, nothing to do",
])
def test_ordinary_text_is_kept_as_it_is(text: str) -> None:
    assert without_hidden_controls(text) == text


def test_hidden_controls_can_be_shown_as_escapes_and_json_keeps_its_data() -> None:
    import json
    data = {"title": f"{RLO}EVIL{PDF} 推理 {FAMILY}", "tag": "\U000e0041", "c1": "\x9b"}
    text = hidden_controls_escaped(json.dumps(data, ensure_ascii=False))
    assert without_hidden_controls(text) == text          # nothing hidden is left in the text …
    assert "\\u202e" in text and "推理" in text and FAMILY in text
    assert json.loads(text) == data                       # … and the data is exactly what it was


@pytest.mark.parametrize("text,limit,shown", [
    ("TreeDraft: Load-Adaptive Token-Tree Speculative Decoding for Batched LLM Serving", 60,
     "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding…"),            # before the word cut, not "Ba…"
    ("Muon in FP8: Stable Low-Precision Orthogonalized Optimization", 30, "Muon in FP8: Stable…"),
    ("a b " * 10, 8, "a b a b…"),                                             # the limit at a space: no word lost
    ("short title", 60, "short title"),
    ("two\nlines  of   it", 60, "two lines of it"),                           # one line, as a table's cell
    ("Supercalifragilisticexpialidocious serving", 12, "Supercalifr…"),     # one long word: cut inside it
    ("推理" * 40, 10, "推理推理推理推理推…"),                                   # no spaces: cut at the limit
    ("SGLang — a structured generation language", 10, "SGLang…"),           # no dash left before the "…"
])
def test_shortened_cuts_before_the_word_the_limit_falls_in(text: str, limit: int, shown: str) -> None:
    from kb.text import shortened
    assert shortened(text, limit) == shown and len(shown) <= limit


def test_bytes_that_are_not_utf8_are_written_as_escapes_and_text_stays_as_it_is() -> None:
    """The one way a non-UTF-8 file name or argument (surrogate escapes) is said: the walk's problem lines,
    `kb label --note`, an ID argument."""
    assert bytes_escaped("inbox/jay/caf\udce9.md") == "inbox/jay/caf\\xe9.md"
    assert bytes_escaped("推理 café") == "推理 café"


@pytest.mark.parametrize(("text", "marks"), [
    ("周五的 PD 切换演练：时间 TBD", []), ("- 下期读书会读 SpecLeak 的后续，主讲 TBD", []), ("代码：TBD", []),   # placeholders
    ("- 社区群里说 SGLang 0.6 会把 EAGLE-3 speculative decoding 设成默认，TBD", ["TBD"]),        # a claim in doubt
    ("## 8. SGLang 0.6 会默认开 EAGLE-3 吗？（TBD）", ["TBD"]), ("TTFT 2.4x TBD", ["TBD"]),
    ("TBD: check whether TierKV uses CXL", ["TBD"]),
])
def test_a_tbd_that_fills_a_field_is_no_doubt(text: str, marks: list[str]) -> None:
    """Day 31: Omer's "周五的 PD 切换演练：时间 TBD", in an entry that also cites SwayPD, flagged SwayPD."""
    from kb.text import find_markers
    assert find_markers(text) == marks


def test_a_line_says_reads_the_line_that_holds_the_needle() -> None:
    """A mark counts on the line of the ID or figure it is about, not on another line of the text."""
    from kb.text import a_line_says
    text = "扩展版会以 2612.00688 挂出，现在还没放出来\n另一篇 2611.00001 已经挂了"
    assert a_line_says(text, "2612.00688", ["还没放出来"])
    assert not a_line_says(text, "2611.00001", ["还没放出来"])
    assert not a_line_says(text, "2612.00688", [])
    assert a_line_says("TPOT 11.6 ms；卡和 batch 都不一样", "11.6 ms", ["卡和 batch 都不一样"])


def test_a_phrase_is_found_whole_in_english_and_as_written_in_chinese() -> None:
    from kb.text import phrase_at
    assert phrase_at("we will anchor it today", "anchor it") == 8
    assert phrase_at("anchor iterations", "anchor it") == -1 and phrase_at("re-anchor it", "anchor it") == -1
    assert phrase_at("结论：不锚", "不锚") == 3
