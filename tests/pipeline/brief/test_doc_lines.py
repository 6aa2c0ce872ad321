"""The open flags a knowledge doc's new lines name (``pipeline.brief.doc_lines``), and the lines a doc keeps."""
from __future__ import annotations

from pipeline.brief.doc_lines import flags_named, new_lines
from pipeline.brief.rules import load_rules
from pipeline.workspace.knowledge import parse_knowledge

SOURCED, UNSOURCED = load_rules().sourced, load_rules().unsourced

V328 = ("v328（Nov 3）：不改编号；周一 listing 读完的两篇周二早上入锚：SkewTP 和 GraphStash 进 §2.1。DittoKV、ReadyPool、"
        "BaySwap、RetainKV 不锚：和已锚的 MeldKV、WarmStart、SwapServe、ReplayKV 重复。KeyFold 那行按 v2 改了数。")
DITTO = (371, "boundary:2611.00496 ~ 2610.34788", {
    "new": "2611.00496", "new_title": "DittoKV: Collapsing Near-Duplicate Token Entries of the KV Cache",
    "anchored": "2610.34788", "anchored_title": "MeldKV: Merging the KV Entries of Near-Duplicate Tokens"})
HALF = (375, "boundary:2611.01329 ~ 2610.22264", {   # one of its papers named (QuotaGate is not)
    "new": "2611.01329", "new_title": "DittoKV-Lite: Something Else", "anchored": "2610.22264",
    "anchored_title": "QuotaGate: Per-Tenant Token Buckets"})
FIGURES = (381, "number-conflict:KeyFold: Low-Rank Key Projection · memory", {"quantity": "memory (×)",
                                                                          "values": {"2.7x": ["a"], "3.2×": ["b"]}})
AN_ID = (386, "impossible-id:1412.07024", {"written": "1412.07024"})   # a slip in the team's files, settled there


def _new(*lines: str) -> list[tuple[str, str]]:
    return [(line, line) for line in lines]


def test_a_new_line_names_the_boundaries_it_settles_and_a_flag_raised_today_is_left_out() -> None:
    found = flags_named(_new(V328), [DITTO, HALF, FIGURES, AN_ID], raised_today=set())
    assert found == [{"line": V328, "flags": [{"id": 371, "rule": "boundary", "subject": "DittoKV ~ MeldKV"}]}]
    # a conflict's paper is named with one of its figures: "KeyFold 那行按 v2 改了数（÷3.2 改成 ÷2.7）"
    figures = V328.replace("改了数。", "改了数（÷3.2 改成 ÷2.7）。")
    assert [f["subject"] for f in flags_named(_new(figures), [DITTO, FIGURES], set())[0]["flags"]] == [
        "DittoKV ~ MeldKV", "KeyFold"]
    # the KeyFold conflict raised again today is today's question (Jay's quote of the post), not the line's
    assert [f["id"] for f in flags_named(_new(figures), [DITTO, FIGURES], {FIGURES[1]})[0]["flags"]] == [371]
    assert flags_named(_new("§3.5 还没有锚"), [DITTO, FIGURES], set()) == []


def test_a_paper_named_by_its_id_and_a_name_inside_a_word_is_none() -> None:
    by_id = "2611.00496 不锚：和 MeldKV 重复"
    assert [f["id"] for f in flags_named(_new(by_id), [DITTO], set())[0]["flags"]] == [371]
    assert flags_named(_new("DittoKVs 和 MeldKVx"), [DITTO], set()) == []


def test_only_lines_new_since_the_previous_version_count_and_an_edited_line_only_where_it_changed() -> None:
    assert new_lines(["a", V328], ["a"]) == [(V328, V328)]
    assert new_lines(["a", V328], None) == [] and new_lines(None, ["a"]) == []
    prose = "KV transfer 的工程控制面参数：layer-wise streaming 有了 LayerLink，多网卡的是 RailKV"
    grown = prose + "，直连拥塞时绕道别的节点的是 HopKV"
    assert new_lines([grown], [prose]) == [(grown, "，直连拥塞时绕道别的节点的是 HopKV")]
    rail = (48, "boundary:2610.14688 ~ 2610.13455", {"new": "2610.14688", "new_title": "RailKV: Rail-Striped",
                                                      "anchored": "2610.13455", "anchored_title": "LayerLink: …"})
    assert flags_named(new_lines([grown], [prose]), [rail], set()) == []   # the line named both before


def test_a_doc_keeps_its_lines_that_anchor_nothing() -> None:
    doc = parse_knowledge("# inference\nversion: v328 · 2026-11-03\n\n> " + V328 + "\n\n## §2 Serving\n\n"
                          "### §2.1 Engines\n- 2309.06180 vLLM — PagedAttention (anchored 2026-09-01)\n"
                          "- 还没有锚的：engine snapshot\n", "organized/knowledge/inference.md", "inference")
    assert doc.remarks == ["inference", "version: v328 · 2026-11-03", V328, "还没有锚的：engine snapshot"]
    assert [a.arxiv_id for s in doc.sections for a in s.anchors] == ["2309.06180"]


def test_a_section_or_version_number_is_no_figure_of_a_conflict() -> None:
    tierkv = (338, "number-conflict:TierKV: Tiered KV Cache Offloading · speed-up",
              {"quantity": "speed-up (×)", "values": {"2.2×": ["post"], "3.1x": ["abstract"]}})
    assert flags_named(_new("v322（Oct 26）：TierKV 进 §2.2，见 v3.1 的说明"), [tierkv], set()) == []
    assert flags_named(_new("TierKV 那行不改：lmcache 测的 2.2× 是单机"), [tierkv], set())[0]["flags"][0]["id"] == 338


CORRECTION = ["改成", "→", "corrected to"]
MFU = (368, "unsourced-claim:周六值班 · 28%", {"claims": ["28%"], "sources": ["inbox/spark/m.md#2"]})
FLAGGED = {"inbox/spark/m.md#2": "2. 周六值班\n周六晚上二期 H20 集群 prefill 的 MFU 掉到 28%，还没查原因"}
QUANTITIES = {"mfu": "MFU", "命中率": "hit rate", "ttft": "TTFT"}
PAPER = (366, "unsourced-claim:ReadyPool: Weight-Resident Standby Instances", {"claims": ["⚠ 群里有人说…"]})


def test_a_note_correcting_a_flagged_figure_names_the_flag() -> None:
    """The day 19 reader: Spark's "更正周一的值班记录 … MFU 从 28% 改成 46%" (with the dashboard's link) went unsaid while
    Monday's flag on the 28% stayed open."""
    from pipeline.brief.doc_lines import corrected_flags
    text = "2. 更正周一的值班记录\n- 二期 H20 集群周六晚上 prefill 的 MFU 从 28% 改成 46%：周一我看错了面板"
    [found] = corrected_flags([("inbox/spark/n.md#2", text)], [MFU, PAPER], set(), CORRECTION, FLAGGED, QUANTITIES)
    assert found == {"where": "inbox/spark/n.md#2", "line": "二期 H20 集群周六晚上 prefill 的 MFU 从 28% 改成 46%：周一我看错了面板",
                     "flags": [{"id": 368, "rule": "unsourced-claim", "subject": "周六值班 · 28%"}]}
    # no correction word, another figure (128%), the figure of another quantity (a paper's line the team corrected),
    # or the flag raised again today: nothing
    def found(entry: str, raised: frozenset[str] = frozenset()) -> list:
        return corrected_flags([("n#1", entry)], [MFU], set(raised), CORRECTION, FLAGGED, QUANTITIES)
    assert found("MFU 还是 28%") == [] and found("更正：MFU 是 128%") == [] and found(text, frozenset({MFU[1]})) == []
    assert found("ElasticPD 那行已经按 v2 从 −38% 改成 −28%") == [] and found("更正：TTFT 降了 28%") == []
    # day 15's check table: a change on another row than the figure's
    assert found("| WarmStart | 18% → 14% (the post as corrected) |\n| PivotQ | MFU 28% | 对得上 |") == []
    # the review's: a note that confirms the figure after changing something else
    assert found("把 batch 改成 64 后 MFU 仍是 28%") == [] and found("uncorrected: MFU 28%") == []


def test_a_note_changing_one_figure_of_a_conflict_to_the_other_names_the_conflict() -> None:
    """The day 20 reader: Jay's "我那条从 3.2× 改成 2.7×" (KeyFold, the vLLM post corrected after he quoted it) settles
    the KeyFold conflict of 3.2× against 2.7x; a change to a third figure does not."""
    from pipeline.brief.doc_lines import corrected_flags
    keyfold = (380, "number-conflict:KeyFold: Low-Rank Key Projection · memory",
               {"quantity": "memory (×)", "values": {"2.7x": ["post"], "3.2×": ["jay#1"]}})
    [found] = corrected_flags([("jay#1", "- 我那条从 3.2× 改成 2.7×，和 v2 的摘要一致了")], [keyfold], set(),
                              CORRECTION, {}, QUANTITIES)
    assert [f["id"] for f in found["flags"]] == [380]
    assert corrected_flags([("jay#1", "从 3.2× 改成 2.9×")], [keyfold], set(), CORRECTION, {}, QUANTITIES) == []


def test_a_docs_problem_is_new_once_and_a_third_duplicate_is_new_again() -> None:
    """The readers' noise: "§1.(1) and §1.1 differ only by parentheses" every morning; the review's: a future date's
    problem names the day the doc was read, and a third "§2.1 is written twice" is one more, not the same."""
    from pipeline.brief.facts import new_problems
    twice = "line 40: section §2.1 is written twice (also line 30); its anchors are merged"
    future = ("line 52: anchoring date 2026-11-20 is after 2026-10-12, the day the doc was read; it counts from the "
              "day kb read it")
    before = ["line 17: §1.(1) and §1.1 (line 10) differ only by parentheses: they are two sections", twice, future]
    now = ["line 35: §1.(1) and §1.1 (line 28) differ only by parentheses: they are two sections",
           twice.replace("40", "45"), twice.replace("40", "61"), future.replace("2026-10-12", "2026-10-13")]
    assert new_problems(now, before) == [twice.replace("40", "61")]


def test_a_doc_wide_edit_is_read_line_by_line_where_each_changed() -> None:
    """The review's: every line of a long doc edited (a rename) compared each new line with every old one."""
    then = [f"line {i}: prose about RailKV and LayerLink, {i * 7} words" for i in range(2000)]
    now = [line + " (edited)" for line in then]
    assert [added for _, added in new_lines(now, then)] == [" (edited)"] * 2000


def test_a_release_post_is_named_by_its_name_and_version() -> None:
    """The day 20 reader: v329's "llm-d 0.9 的 relay 就是 HopKV 做进了引擎，不另锚" settles the llm-d 0.9 ~ HopKV boundary,
    which the block left out (a release's name is no coined paper name)."""
    relay = (393, "boundary:llm-d.ai/blog/llm-d-0-9-relay-transfers ~ 2610.33845", {
        "new": "llm-d.ai/blog/llm-d-0-9-relay-transfers", "new_title": "llm-d 0.9：直连拥塞时走中转",
        "anchored": "2610.33845", "anchored_title": "HopKV: Relaying KV Cache Transfers through Idle Nodes"})
    line = "v329（Nov 4）：llm-d 0.9 的 relay 就是 HopKV 做进了引擎，不另锚。"
    assert [f["subject"] for f in flags_named(_new(line), [relay], set())[0]["flags"]] == ["llm-d 0.9 ~ HopKV"]
    assert flags_named(_new("llm-d 0.10 的 relay 和 HopKV"), [relay], set()) == []


def test_a_line_naming_a_paper_and_the_id_to_cite_settles_its_id_conflict() -> None:
    # day 21's v330: "EtherKV 进 §2.4.1（卡 463 正文里的号抄错了，以 2611.01288 为准）" answers day 20's #405
    ether = (405, "id-conflict:EtherKV: Disaggregated KV Cache Transfer over Commodity Ethernet", {
        "ids": {"2611.01288": ["organized/paper_cards/463-2611-01288.md"], "2611.01828": []},
        "resolved": "2611.01288"})
    line = "EtherKV 进 §2.4.1（卡 463 正文里的号抄错了，以 2611.01288 为准）。"
    assert flags_named(_new(line), [ether], set()) == [
        {"line": line, "flags": [{"id": 405, "rule": "id-conflict", "subject": "EtherKV"}]}]
    assert flags_named(_new("EtherKV 进 §2.4.1"), [ether], set()) == []          # which ID: not said
    # an ID written as another paper's, or with no name, says nothing of which this paper takes
    assert flags_named(_new("GraphHold（2611.01288）进 §2.1，和 EtherKV 各管一层"), [ether], set()) == []
    assert flags_named(_new("2611.01288 的 v2 出来了"), [ether], set()) == []


def test_a_note_giving_a_source_for_an_unsourced_figure_names_its_flag() -> None:
    """Day 21's Spark: "二期 H200 池子 p99 TTFT 的后续 … 来源：<dashboard> … p99 TTFT 从 2.4 s 降到 1.1 s" answers
    day 20's "二期 H200 池子压测 · 2.4 s" (#402); not day 12's "二期集群 · 2.4 s" of another week, nor a figure of
    another quantity, nor a paper's claim, nor the flag's own entry."""
    from pipeline.brief.doc_lines import sourced_flags
    quantities = {"p99 ttft": "p99 TTFT", "ttft": "TTFT", "throughput": "throughput"}
    h200 = (402, "unsourced-claim:二期 H200 池子压测 · 2.4 s", {"sources": ["inbox/spark/a.md#2"], "claims": ["2.4 s"]})
    week = (222, "unsourced-claim:二期集群 · 2.4 s", {"sources": ["inbox/spark/b.md#2"], "claims": ["2.4 s"]})
    paper = (300, "unsourced-claim:LoftKV: Reading … · 2.4 s", {"sources": ["inbox/spark/c.md#1"],
                                                                "arxiv_ids": ["2611.03741"]})
    flagged = {"inbox/spark/a.md#2": "新上的 H200 池子 p99 TTFT 到了 2.4 s，原因还没查",
               "inbox/spark/b.md#2": "周二晚高峰二期的 p99 TTFT 到了 2.4 s，值班群里说的",
               "inbox/spark/c.md#1": "LoftKV 的 p99 TTFT 2.4 s"}
    text = "二期 H200 池子 p99 TTFT 的后续\n周二那次压测慢的原因查到了\n改完以后同样的压测，p99 TTFT 从 2.4s 降到 1.1 s，看板见上面的链接"
    url = "https://monitor.example.internal/d/h200-pool/p99-ttft"
    words = (SOURCED, UNSOURCED)
    found = sourced_flags([("inbox/spark/d.md#2", text, url)], [h200, week, paper], set(), flagged, quantities, *words)
    assert found == [{"where": "inbox/spark/d.md#2", "url": url, "line": "改完以后同样的压测，p99 TTFT 从 2.4s 降到 1.1 s，看板见上面的链接",
                      "flags": [{"id": 402, "rule": "unsourced-claim", "subject": "二期 H200 池子压测 · 2.4 s"}]}]
    other = text.replace("p99 TTFT 从 2.4s", "吞吐从 2.4s")
    assert sourced_flags([("inbox/spark/d.md#2", other, url)], [h200], set(), flagged, quantities, *words) == []
    assert sourced_flags([("inbox/spark/a.md#2", text, url)], [h200], set(), flagged, quantities, *words) == []
    assert sourced_flags([("inbox/spark/d.md#2", text, url)], [h200], {h200[1]}, flagged, quantities, *words) == []
    # the figure's line must say where it was measured, not that its source is still missing
    bare = text.replace("，看板见上面的链接", "")
    assert sourced_flags([("inbox/spark/d.md#2", bare, url)], [h200], set(), flagged, quantities, *words) == []
    missing = text.replace("看板见上面的链接", "出处还没找到")
    assert sourced_flags([("inbox/spark/d.md#2", missing, url)], [h200], set(), flagged, quantities, *words) == []
    # another cluster: a Latin word is whole ("H20" is not "H200"), a short Chinese run whole (二期 is not 一期)
    h20 = (403, "unsourced-claim:二期 H20 集群 · 2.4 s", {"sources": ["inbox/spark/a.md#2"], "claims": ["2.4 s"]})
    assert sourced_flags([("inbox/spark/d.md#2", text, url)], [h20], set(), flagged, quantities, *words) == []
    one = text.replace("二期 H200", "一期 H200")
    assert sourced_flags([("inbox/spark/d.md#2", one, url)], [h200], set(), flagged, quantities, *words) == []


def test_an_entry_is_read_once_per_open_flag_not_once_per_line(monkeypatch) -> None:
    """A pasted benchmark log of 2,000 lines with 100 open asides took 99 s: the entry was read again per line."""
    import pipeline.brief.doc_lines as doc_lines
    from pipeline.brief.doc_lines import sourced_flags
    calls = []
    real = doc_lines._speaks_of
    monkeypatch.setattr(doc_lines, "_speaks_of", lambda f, text: calls.append(f) or real(f, text))
    flags = [(i, f"unsourced-claim:集群{i} 压测 · {i}.5 s", {"sources": [f"a.md#{i}"]}) for i in range(20)]
    text = "\n".join(f"- 第 {k} 行：吞吐 {k} tokens/s，看板 https://x.example/{k}" for k in range(200))
    sourced_flags([("d.md#1", text, "https://x.example/log")], flags, set(), {}, {"throughput": "throughput"},
                  SOURCED, UNSOURCED)
    assert len(calls) <= len(flags)


def test_a_note_saying_which_figure_of_a_conflict_holds_names_it() -> None:
    """Day 22's week in review: "AtticPool（2611.04265）是 TTFT −19%；纪要表里它那一行抄错了，以摘要为准" answers day 21's
    AtticPool 27% vs 19% (#418); a line naming both figures, or another paper, or no settling word, does not."""
    from pipeline.brief.doc_lines import corrected_flags
    attic = (418, "number-conflict:AtticPool · TTFT", {"quantity": "TTFT", "values": {"−27%": ["a"], "19%": ["b"]},
                                                       "arxiv_ids": ["2611.04265"]})
    settled = load_rules().settled
    line = "AtticPool（2611.04265）是 TTFT −19%；纪要表里它那一行抄错了，以摘要为准"
    found = corrected_flags([("wir.md#3", line)], [attic], set(), [], {}, {}, settled)
    assert found == [{"where": "wir.md#3", "line": line,
                      "flags": [{"id": 418, "rule": "number-conflict", "subject": "AtticPool · TTFT"}]}]
    for other in ("AtticPool 是 19% 还是 27%，以摘要为准", "LoftKV 是 TTFT −19%，以摘要为准", "AtticPool 是 TTFT −19%"):
        assert corrected_flags([("wir.md#3", other)], [attic], set(), [], {}, {}, settled) == [], other
    assert corrected_flags([("wir.md#3", line)], [attic], {attic[1]}, [], {}, {}, settled) == []


def test_a_line_naming_a_flags_paper_in_passing_settles_none_of_its_figures() -> None:
    """The day 34 reader: a history line dated "（Nov 24）" that listed an anchored paper as the one a new paper repeats
    offered that paper's open conflicts (upvotes 17 / 22 / 24, a TTFT of 19% / 24%) for closing, the "24" of its date
    read as their figure. A figure counts in the sentence that names the paper, and as a figure of the flag's."""
    votes = (70, "number-conflict:HopTree: Routing by Expected Tokens · upvotes",
             {"day": "2026-10-13", "quantity": "HF upvotes", "values": {"17": ["card"], "22": ["note"], "24": ["hf"]},
              "arxiv_ids": ["2610.15555"]})
    ttft = (71, "number-conflict:HopTree · TTFT", {"quantity": "HopTree TTFT (%)", "values": {"19%": ["abs"],
                                                                                            "24%": ["post"]}})
    quantities = {"ttft": "TTFT", "首 token": "TTFT"}
    history = "v350（Dec 24）：不改编号。SkipLen 不锚：和已锚的 HopTree 重复（周四定的）。"
    assert flags_named(_new(history), [votes, ttft], set(), quantities) == []
    # a date or a GPU name in the paper's own sentence is no figure either
    assert flags_named(_new("HopTree 12 月 24 日挂了 v2，H20 上没重测"), [votes, ttft], set(), quantities) == []
    assert flags_named(_new("HopTree 挂了 v2（Dec 24），11-24 的数不用改"), [votes, ttft], set(), quantities) == []
    # the figure written with its unit, or bare beside the quantity's name, speaks to the flag
    said = flags_named(_new("HopTree 那行不改：博客的 24% 是另一套负载"), [votes, ttft], set(), quantities)
    assert [f["id"] for f in said[0]["flags"]] == [71]
    said = flags_named(_new("HopTree 的首 token 以摘要的 19 为准"), [votes, ttft], set(), quantities)
    assert [f["id"] for f in said[0]["flags"]] == [71]
    said = flags_named(_new("HopTree 当天的 upvotes 以 HF 页面的 24 为准"), [votes, ttft], set(), quantities)
    assert [f["id"] for f in said[0]["flags"]] == [70]


def test_a_boundary_is_settled_by_one_sentence_naming_both_papers() -> None:
    """Two papers named in two sentences of one history line ("RadixX 不锚：和已锚的 CacheSpy 重复。… KVShield 挂了
    v2") say nothing of what one is to the other."""
    pair = (26, "boundary:2610.11111 ~ 2610.22222", {"new": "2610.11111", "new_title": "ShieldKV: Guarding the Cache",
                                                   "anchored": "2610.22222", "anchored_title": "SpyCache: Probing"})
    apart = "RadixX 不锚：和已锚的 SpyCache 重复。ShieldKV 挂了 v2，那行没写数，不用改。"
    assert flags_named(_new(apart), [pair], set()) == []
    together = "ShieldKV 和 SpyCache 二选一，留 SpyCache，ShieldKV 不锚；其余不动。"
    assert [f["id"] for f in flags_named(_new(together), [pair], set())[0]["flags"]] == [26]


def test_a_line_answering_the_teams_question_on_a_paper_settles_its_unsourced_flag() -> None:
    """The day 34 reader: the history line recorded the authors' answer to an open 待确认 question of the day before
    (whether a paper's overhead was a share of the whole step or of one stage) and the question was not offered for
    closing. A sentence naming the paper and the question's own words answers it; one naming the paper alone does
    not."""
    asked = (630, "unsourced-claim:TileMask: Hiding Mask Building behind the Matmul", {
        "arxiv_ids": ["2611.17777"], "markers": ["待确认"],
        "claims": ["TileMask 摘要里的额外显存，是按整个 batch 的 KV 算的，还是只算了 mask 缓冲？要是后者就偏小了。待确认"]})
    answer = "v350（Dec 2）：TileMask 的额外显存作者回信了：按整个 batch 的 KV 算，和我们量的一致。"
    said = flags_named(_new(answer), [asked], set())
    assert said[0]["flags"] == [{"id": 630, "rule": "unsourced-claim", "subject": "TileMask"}]
    for passing in ("TileMask 进队列，等作者回信。", "SkipLen 不锚：和已锚的 TileMask 重复。",
                    "TileMask 的摘要以卡 530 为准。"):
        assert flags_named(_new(passing), [asked], set()) == [], passing
    # the answer in another sentence than the paper's name answers nothing of it
    assert flags_named(_new("TileMask 进队列。额外显存按整个 batch 的 KV 算。"), [asked], set()) == []
    # a team aside without a paper is answered by its own notes (``sourced_flags``), not by a doc's line
    aside = (631, "unsourced-claim:周六值班 · 28%", {"claims": ["MFU 只有 28%，是不是整个 batch 的 KV？"]})
    assert flags_named(_new("周六值班的 MFU 按整个 batch 的 KV 算"), [aside], set()) == []
