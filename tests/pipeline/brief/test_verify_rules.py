"""The six verification rules, each on small synthetic candidates and facts (pure, no store)."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kb.records import Point
from pipeline.brief.model import FETCHED, Candidate, SourceRef
from pipeline.brief.verify import (
    RULE_ORDER,
    Facts,
    boundaries,
    date_inconsistencies,
    id_conflicts,
    impossible_ids,
    number_conflicts,
    run_rules,
    unresolved_ids,
    unsourced_claims,
)
from pipeline.brief.words import candidate_text, content_words, count_words

NOTE = "inbox/jay/2026-10-08T1620-deep-dive.md"


def entry(n: int = 1, cred: int = 4, date: str = "2026-10-08T16:20", path: str = NOTE, url: str | None = None,
          text: str = "", beside_subject: bool = False):
    return SourceRef("entry", "jay", path, n, url, date, cred, text, beside_subject=beside_subject)


QUANTITIES = __import__("tomllib").loads((__import__("tests.support.paths", fromlist=["REPO"]).REPO / "data"
                                          / "briefing.toml").read_text(encoding="utf-8"))["quantities"]
# the shipped [claim_words]: which numbers are compared ("About 3×" is no system's, "from 1.9 s" a baseline's)
WORDS = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules().claim_words


def cand(key: str = "c", **kw) -> Candidate:
    c = Candidate(key=key, put_forward=True)
    for k, v in kw.items():
        setattr(c, k, [Point(p) for p in v] if k == "points" else v)
    if not c.title:
        c.title = key
    return c


# --- unsourced-claim ------------------------------------------------------------------------

def test_a_marked_claim_about_a_known_paper_names_the_paper_to_check_it_against() -> None:
    """The team's ⚠ stays a flag; with the paper known it is checked against it (``context``, not evidence:
    a flag raised before the paper was known is not reopened by this alone)."""
    c = cand("swap", title="SwapServe", sources=[entry(2)], markers=["⚠"], arxiv_ids=["2610.11517"],
             points=["5.2× lower queueing delay ⚠ baseline is FCFS"])
    [known] = unsourced_claims([c], Facts(known_ids={"2610.11517"}))
    [unknown] = unsourced_claims([c], Facts())
    assert known.context == {"papers": ["2610.11517"]} and unknown.context == {"papers": []}
    assert known.evidence == unknown.evidence


@pytest.mark.parametrize("line, asks", [
    ("待确认：换入换出走的是 PCIe 还是 NVLink，实验部分没写。", True), ("⚠ 是否在 H20 上也成立", True),
    ("unverified: is the 2x with CUDA graphs on?", True), ("⚠ not clear whether the baseline had prefix caching", True),
    ("⚠ 5.2× lower queueing delay, baseline is FCFS", False), ("待确认：是 vLLM 0.6 的数", False),
    # the review's: "还是" as "still", a claim whatever a setting is
    ("⚠ 吞吐是 vLLM 的 2 倍但 TTFT 还是高 30%", False), ("⚠ 不管是否开 CUDA graph 都快 2x", False),
    ("⚠ 2x faster whether or not CUDA graphs are on", False),
])
def test_a_marked_question_about_a_known_paper_is_answered_not_checked(line: str, asks: bool) -> None:
    """The day 18 reader: BaySwap's "待确认：换入换出走的是 PCIe 还是 NVLink，实验部分没写" was advised "check the marked
    claim against the paper and say under which setup it holds": a question the paper leaves open is answered (from
    the paper, its code, its authors), and its flag closed with the answer."""
    marker = "unverified" if line.startswith("unverified") else "待确认" if line.startswith("待确认") else "⚠"
    c = cand("bay", title="BaySwap", sources=[entry(3)], markers=[marker], arxiv_ids=["2611.01208"], points=[line])
    [f] = unsourced_claims([c], Facts(known_ids={"2611.01208"}))
    assert f.context.get("question", False) is asks


def test_unsourced_marker_quotes_the_marked_line() -> None:
    c = cand("ds", title="DeepSeek V4.1 Prefill", sources=[entry(3)], markers=["⚠", "待核实"],
             points=["瓶颈在显存带宽", "⚠ 待核实：是否有 arXiv 论文支撑", "深度高"])
    [f] = unsourced_claims([c], Facts())
    assert f.rule == "unsourced-claim" and f.subject == "DeepSeek V4.1 Prefill"
    assert f.evidence["claims"] == ["⚠ 待核实：是否有 arXiv 论文支撑"]
    assert f.evidence["markers"] == ["⚠", "待核实"] and f.evidence["sources"] == [f"{NOTE}#3"]
    assert f.evidence["credibility"] == 4 and f.evidence["arxiv_ids"] == []


def test_unsourced_numbers_from_a_three_star_source_without_id_or_url() -> None:
    c = cand("claim", title="FooServe is fast", sources=[entry(1, cred=3)], facts=["3.5×", "120 ms"])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["claims"] == ["3.5×", "120 ms"] and f.evidence["credibility"] == 3
    assert f.evidence["markers"] == []


def test_an_unsourced_figure_is_shown_in_the_lines_that_say_it() -> None:
    """Day 3's "What: 25%": the briefing quotes the team's line holding the figure; the evidence (what a closed
    flag is compared by) stays the figures."""
    c = cand("sg", title="SGLang decode", sources=[entry(1, cred=3)], facts=["+25%"],
             points=["知乎一条回答，没有给链接", "回答里说 SGLang 在 H20 上 decode 吞吐 +25%"])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["claims"] == ["+25%"]
    assert f.context["said"] == ["回答里说 SGLang 在 H20 上 decode 吞吐 +25%"]


def test_unsourced_not_flagged_when_checkable_or_credible() -> None:
    facts = Facts()
    credible = cand("a", sources=[entry(1, cred=4)], facts=["3.5×"])
    with_url = cand("b", sources=[entry(1, cred=3)], facts=["3.5×"], url="https://x.org/post")
    with_id = cand("c", sources=[entry(1, cred=3)], facts=["3.5×"], arxiv_ids=["2610.00001"])
    no_numbers = cand("d", sources=[entry(1, cred=2)])
    assert unsourced_claims([credible, with_url, with_id, no_numbers], facts) == []
    # the best source counts: a weak note plus a five-star one is not weak
    mixed = cand("e", sources=[entry(1, cred=2), entry(2, cred=5)], facts=["2×"])
    assert unsourced_claims([mixed], facts) == []


def test_a_mark_on_a_card_quotes_the_cards_marked_line() -> None:
    """Day 8's card 420: "⚠ 作者 README 说 vLLM 已经合进主线了，我没找到对应的 PR。" — a card is the team's writing, its
    marks ask for a check as a note's do, and the flag quotes the card's line."""
    body = "一层的 head 在 target 顶层 hidden state 上自回归。\n⚠ 作者 README 说 vLLM 已经合进主线了，我没找到对应的 PR。"
    c = cand("plume", title="PlumeDraft", arxiv_ids=["2610.21729"], markers=["⚠"],
             sources=[SourceRef("card", "paper_cards", "organized/paper_cards/420-2610-21729.md", None, None,
                                "2026-10-19T10:00", 4, body)])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["claims"] == ["⚠ 作者 README 说 vLLM 已经合进主线了，我没找到对应的 PR。"]


def test_a_mark_outside_the_bullets_is_quoted_from_its_line() -> None:
    """Day 8's Tom: a vendor's words in a block quote, '> "In production it cut our GPU bill by a third."
    (unverified)' — no bullet holds the mark, so the flag quoted nothing to check."""
    text = "- Each request's tokens are charged to its tenant's bucket.\n\n> \"It cut our GPU bill by a third.\" (Unverified)"
    c = cand("q", title="QuotaGate", arxiv_ids=["2610.22264"], markers=["unverified"],
             points=["Each request's tokens are charged to its tenant's bucket."], sources=[entry(4, text=text)])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["claims"] == ['"It cut our GPU bill by a third." (Unverified)']
    spelled = cand("q2", title="QuotaGate", markers=["needs check"], points=["Buckets per tenant."],
                   sources=[entry(4, text="- Buckets per tenant.\n\n> \"A third off the bill.\" (needs-check)")])
    assert unsourced_claims([spelled], Facts())[0].evidence["claims"] == ['"A third off the bill." (needs-check)']


def test_unsourced_marker_flags_even_with_an_id() -> None:
    c = cand("p", arxiv_ids=["2610.00001"], sources=[entry()], markers=["待确认"], points=["待确认 的数字"])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["arxiv_ids"] == ["2610.00001"]


# --- id-conflict ----------------------------------------------------------------------------

def test_id_conflict_names_every_id_and_where_it_was_written() -> None:
    facts = Facts(known_ids={"2610.09701"}, mentions={"2607.09701": ["inbox/tom/hf.md #7", "cards/378.md"],
                                                      "2610.09701": ["cards/378.md"]})
    c = cand("slim", title="SlimWise", arxiv_ids=["2607.09701", "2610.09701"])
    [f] = id_conflicts([c], facts)
    assert f.rule == "id-conflict" and f.subject == "SlimWise"
    assert f.evidence["ids"] == {"2607.09701": ["inbox/tom/hf.md #7", "cards/378.md"],
                                 "2610.09701": ["cards/378.md", "store: listing/API metadata"]}
    assert f.evidence["resolved"] == ["2610.09701"]


def test_two_ids_written_wrong_are_two_id_conflicts() -> None:
    """Day 39's YardSort: 2611.31074 in a note, 2612.31047 in a card's file name, 2611.31047 its own ID: two slips,
    each fixed in its own file, so two flags, each naming the paper's ID and one wrong one."""
    facts = Facts(known_ids={"2611.31047"}, mentions={"2611.31074": ["inbox/ines/x.md#2"],
                                                      "2612.31047": ["cards/543-2612-31047.md"]})
    c = cand("yard", title="YardSort", arxiv_ids=["2611.31047", "2611.31074"], card_file_ids=["2612.31047"])
    flags = id_conflicts([c], facts)
    assert [f.subject for f in flags] == ["YardSort · 2611.31074", "YardSort · 2612.31047"]
    assert [sorted(f.evidence["ids"]) for f in flags] == [["2611.31047", "2611.31074"], ["2611.31047", "2612.31047"]]
    assert all(f.evidence["resolved"] == ["2611.31047"] for f in flags)


def _marked(key: str, who: str, line: str, kind: str = "entry") -> SourceRef:
    path = f"organized/paper_cards/{key}.md" if kind == "card" else f"inbox/{who}/{key}.md"
    return SourceRef(kind, who, path, 1 if kind == "entry" else None, text=f"- {line}")


def test_two_files_marking_two_claims_of_a_paper_are_two_flags() -> None:
    """Days 14 and 36: Jay's ⚠ on ScaleSnap's E5M2 scales and Omer's "needs check" on its MLA heads are two doubts,
    each answered and closed on its own (both days' labellers expected two flags)."""
    c = cand("snap", title="ScaleSnap: Snapping FP8 Scales", arxiv_ids=["2610.30127"], markers=["⚠", "needs check"],
             sources=[_marked("j", "jay", "⚠ 群里说 ScaleSnap 换成 E5M2 的 scale 以后掉点明显，论文只报了 E4M3"),
                      _marked("o", "omer", "needs check: the README says the same scales work for MLA heads")])
    flags = unsourced_claims([c], Facts(known_ids={"2610.30127"}))
    assert [f.subject for f in flags] == ["ScaleSnap: Snapping FP8 Scales · jay", "ScaleSnap: Snapping FP8 Scales · omer"]
    assert [f.evidence["markers"] for f in flags] == [["⚠"], ["needs check"]]


def test_two_files_marking_one_claim_are_one_flag() -> None:
    """Day 2's SpecMesh: Jay and Spark both mark "号称 2.2×" — one claim, one flag."""
    c = cand("mesh", title="SpecMesh", arxiv_ids=["2610.12319"], markers=["⚠", "待核实", "待确认"],
             sources=[_marked("j", "jay", "推上看到的：SpecMesh 按 token 类型在几个小 draft 模型之间切换，号称 2.2× ⚠ 待核实"),
                      _marked("s", "spark", "SpecMesh — 2610.12391：几个小 draft 模型按 token 类型切换，号称 2.2× ⚠ 待确认")])
    [f] = unsourced_claims([c], Facts(known_ids={"2610.12319"}))
    assert f.subject == "SpecMesh"


def test_id_conflict_none_for_one_id_and_unresolved_when_neither_known() -> None:
    assert id_conflicts([cand("x", arxiv_ids=["2610.00001"])], Facts()) == []
    [f] = id_conflicts([cand("y", arxiv_ids=["2610.00001", "2610.00002"])], Facts())
    assert f.evidence["resolved"] == []


# --- number-conflict ------------------------------------------------------------------------

def test_number_conflict_upvotes() -> None:
    c = cand("slim", title="SlimWise", upvotes=[(11, "inbox/tom/hf.md #7", "2026-10-08"), (12, "cards/378.md", "2026-10-08"),
                                                (12, "hf 2026-10-08", "2026-10-08"), (31, "hf 2026-10-09", "2026-10-09")])
    [f] = number_conflicts([c], Facts())
    assert f.subject == "SlimWise · upvotes"
    assert f.evidence["values"] == {"11": ["inbox/tom/hf.md #7"], "12": ["cards/378.md", "hf 2026-10-08"]}


def test_number_conflict_same_upvotes_twice_is_fine() -> None:
    assert number_conflicts([cand("s", upvotes=[(12, "a", "2026-10-08"), (12, "b", "2026-10-08")])], Facts()) == []
    # upvotes that rose from one day to the next are a change over time, not a conflict
    assert number_conflicts([cand("s", upvotes=[(12, "a", "2026-10-08"), (31, "b", "2026-10-09")])], Facts()) == []


def test_upvotes_rising_through_a_day_are_no_conflict() -> None:
    # the sample day's SlimWise: a 09:00 note 11▲ ("the count will rise by evening"), the 20:00 card and
    # the nightly's fetch 12▲ — one count rising, not two sources disagreeing
    rising = [(11, "inbox/tom/hf.md#7", "2026-10-08T09:00"), (12, "cards/378.md", "2026-10-08T20:00"),
              (12, "hf 2026-10-08", "2026-10-08" + FETCHED)]
    assert number_conflicts([cand("s", upvotes=rising)], Facts()) == []


@pytest.mark.parametrize("counts", [
    [(31, "note", "2026-10-08T09:00"), (12, "hf", "2026-10-08" + FETCHED)],     # fell by the evening's fetch
    [(11, "a", "2026-10-08T09:00"), (14, "b", "2026-10-08T09:00")],             # one moment, two counts
    [(11, "note", "2026-10-08T00:00"), (12, "hf", "2026-10-08" + FETCHED)],     # a note dated without a time
    [(11, "card", "2026-10-08"), (12, "hf", "2026-10-08" + FETCHED)],           # a card dated without a time
])
def test_upvotes_a_rising_count_does_not_explain_are_a_conflict(counts) -> None:
    [f] = number_conflicts([cand("s", upvotes=counts)], Facts())
    assert f.evidence["day"] == "2026-10-08" and len(f.evidence["values"]) == 2


def test_upvote_counts_are_shown_with_their_times_and_a_fall_is_said() -> None:
    """Day 12's PinLoRA: 16▲ in a 09:00 note, 15 on a 13:40 card, 19 fetched — the flag listed the three counts
    without their times, and advised "upvotes grow over time" where the count had fallen (a reader's review)."""
    counts = [(16, "note#3", "2026-10-23T09:00"), (15, "card", "2026-10-23T13:40"), (19, "hf", "2026-10-23" + FETCHED)]
    [f] = number_conflicts([cand("s", upvotes=counts)], Facts())
    assert f.context["times"] == {"note#3": "09:00", "card": "13:40"} and f.context["fell"] is True
    # in the order they were read, so the fall shows (day 18's DittoKV was listed 18, 21, 23, 26: by value)
    assert list(f.evidence["values"]) == ["16", "15", "19"]
    undated = [(11, "card", "2026-10-08"), (12, "hf", "2026-10-08" + FETCHED)]
    [g] = number_conflicts([cand("s", upvotes=undated)], Facts())
    assert g.context["times"] == {} and "fell" not in g.context


def test_number_conflict_two_speedups_for_one_name() -> None:
    doc = ("knowledge doc", "SEIS 3.27× on agent traces")
    c = cand("seis", sources=[entry(2, text="The blog says SEIS 2.9× over vLLM.")])
    [f] = number_conflicts([c], Facts(speedup_texts=[doc], quantities=QUANTITIES, claim_words=WORDS))
    assert f.subject == "SEIS · speed-up" and f.evidence["quantity"] == "SEIS speed-up (×)"
    assert f.evidence["values"] == {"2.9×": [f"{NOTE}#2"], "3.27×": ["knowledge doc"]}


def test_number_conflict_speedups_across_candidates_and_x_spelling() -> None:
    a = cand("a", sources=[entry(1, text="JIL 1.53x slowdown for co-batched users")])
    b = cand("b", sources=[entry(2, text="JIL 1.6× slowdown")])
    [f] = number_conflicts([a, b], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert set(f.evidence["values"]) == {"1.53x", "1.6×"}


def test_number_conflict_a_feature_a_post_is_titled_with_is_the_post_itself() -> None:
    """Day 3's WarmPool: a note names the feature ("WarmPool 冷启动 p99 TTFT 1.3 s") that the post it cites is titled
    with and measures without naming it again ("brings the cold-start p99 TTFT down to 1.8 s"): one system, one
    conflict within the item."""
    post = SourceRef("post", "llm-d", None, None, "https://llm-d.ai/blog/llm-d-0-7-warmpool", "2026-10-10", 4,
                     "On a bursty chat trace, WarmPool brings the cold-start p99 TTFT down to 1.8 s, from 9.5 s.")
    c = cand("w", title="llm-d 0.7: KV-Aware Autoscaling with WarmPool", titles=["llm-d 0.7: KV-Aware Autoscaling "
             "with WarmPool"], sources=[entry(1, text="WarmPool 冷启动 p99 TTFT 1.3 s（扩容后现加载权重是 9.5 s）"), post])
    [f] = number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert set(f.evidence["values"]) == {"1.3 s", "1.8 s"}


def test_number_conflict_a_paper_a_quoting_line_names_without_its_id() -> None:
    """Day 26: a thread pasted into a note quotes "PaceSpec's paper says 2.2x" (v1's figure), no ID written; the window
    lists PaceSpec's v2 (1.6x). The line says it quotes the paper: its figure is set against the paper's abstract and
    the advice is to correct the quote. A line that does not say it quotes ("PaceSpec 2.2x on our H100s") is a
    measurement of another setup, and a figure of a system the window lists no paper of is nobody's quote."""
    listing = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.24893", "2026-11-12", 3,
                        "PaceSpec decodes 1.6x faster than autoregressive decoding.")
    paper = cand("p", title="PaceSpec: Per-Request Speculation Lengths", arxiv_ids=["2610.24893"],
                 arxiv_id="2610.24893", sources=[listing])
    thread = cand("t", title="lathe-users thread", sources=[entry(1, text="> Anselm: PaceSpec's paper says 2.2x on chat.")])
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, quoting=["paper says"])
    [f] = number_conflicts([paper, thread], facts)
    assert set(f.evidence["values"]) == {"1.6x", "2.2x"}
    assert f.context["quoted"] == {f"{NOTE}#1": ["https://arxiv.org/abs/2610.24893"]}, f.context
    measured = cand("t", title="our replay", sources=[entry(1, text="PaceSpec 2.2x on our H100s.")])
    assert number_conflicts([paper, measured], facts) == []
    # the day-26 reader: 2.2x is v1's figure (batch size 1), which v2 replaced — no misquote to correct
    facts.earlier_abstracts = {"2610.24893": "At batch size 1, PaceSpec decodes 2.2x faster than autoregressive."}
    [f] = number_conflicts([paper, thread], facts)
    assert f.context["earlier"] == ["2.2x"]


def test_number_conflict_a_post_an_entry_links_is_one_more_place_of_its_figures() -> None:
    """Day 29: Ines's "DueBatch … Post: <link> … p99 TTFT at peak 1.9 s → 0.6 s" is DueBatch's item; the post it links
    (another item: its title names no paper) says "went from 1.9 s to 0.8 s": a quote to correct."""
    url = "https://engineering.tessera.cloud/2026/11/17/duebatch-slo-batch-sizing/"
    post = cand("post", title="SLO-Aware Batch Sizing", sources=[SourceRef(
        "post", "tessera-eng", None, None, url, "2026-11-17", 4,
        "With DueBatch (arXiv:2611.14037), the fleet's p99 TTFT at peak went from 1.9 s to 0.8 s")])
    line = f"Post: {url}\n- p99 TTFT at peak 1.9 s → 0.6 s"
    paper = cand("p", title="DueBatch: Sizing Each Decode Batch", arxiv_ids=["2611.14037"], arxiv_id="2611.14037",
                 sources=[entry(1, text=line, url=url)])
    [f] = number_conflicts([paper, post], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert set(f.evidence["values"]) == {"0.6 s", "0.8 s"} and f.context["quoted"] == {f"{NOTE}#1": [url]}


def test_number_conflict_a_release_post_naming_a_papers_figure_quotes_the_paper() -> None:
    """Day 29: Lathe 2.5's post "the PredRoute paper reports 24% lower p99 TTFT" (v1's figure, no ID) against the
    window's v2 abstract (19%): the post quotes the paper, and the figure is the earlier version's."""
    listing = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.15426", "2026-11-17", 3,
                        "PredRoute reduces p99 TTFT by 19% across 128 replicas.")
    paper = cand("p", title="PredRoute: Work-Aware Routing", arxiv_ids=["2610.15426"], arxiv_id="2610.15426",
                 sources=[listing])
    release = cand("r", title="Lathe 2.5", sources=[SourceRef("post", "lathe-blog", None, None,
                   "https://lathe-serve.dev/blog/2.5", "2026-11-17", 4,
                   "Our router follows PredRoute: the PredRoute paper reports 24% lower p99 TTFT across 128 "
                   "replicas.")])
    said_of = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules().said_of   # "24% lower …"
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, said_of=said_of,
                  earlier_abstracts={"2610.15426": "PredRoute reduces p99 TTFT by 24% across 128 replicas."})
    [f] = number_conflicts([paper, release], facts)
    assert set(f.evidence["values"]) == {"19%", "24%"} and f.context["earlier"] == ["24%"]


def test_number_conflict_an_items_conflict_is_not_raised_again_by_its_name() -> None:
    """Day 3's BurstGuard: the note and the abstract both name the paper; the item's conflict is raised once, not a
    second time across items under the name."""
    c = cand("b", title="BurstGuard: Admission Control", titles=["BurstGuard: Admission Control"],
             sources=[entry(1, text="生产 trace 上 BurstGuard 让 SLO 违约 −44%"),
                      entry(2, text="BurstGuard reduces SLO violations by 38% relative to FCFS")])
    [f] = number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.subject == "BurstGuard: Admission Control · SLO violations"


def test_number_conflict_shows_signs_but_keeps_them_out_of_the_evidence() -> None:
    """A figure written with its sign ("−44%") is shown so (``context.signed``); the evidence, which a closed
    flag is compared by, keeps the figures unsigned, as before signs were read: no closed flag reopens."""
    c = cand("c", sources=[entry(1, text="生产 trace 上 BurstGuard 让 SLO 违约 −44%"),
                           entry(2, text="BurstGuard reduces SLO violations by 38% relative to FCFS")])
    [f] = number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert set(f.evidence["values"]) == {"44%", "38%"}, f.evidence
    assert f.context["signed"] == {"44%": "−44%"}
    assert "(%)" in f.evidence["quantity"]


def test_number_conflict_the_docs_line_against_a_new_version_of_its_paper() -> None:
    """Day 13's ToolCache v2: its abstract says "reduces end-to-end agent latency by 33%" and the doc's §1.(1) line
    still "−38% end-to-end agent latency" (a quantity written after its figure). The line is read beside what the
    window says of its paper, only where the window says a figure; a figure the line gives another system is not
    the paper's."""
    line = "2610.11409 ToolCache — KV cache pinned across tool calls, −38% end-to-end agent latency (anchored 2026-10-09)"
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS,
                  anchor_lines={"2610.11409": [("knowledge doc §1.(1)", line)]})
    v2 = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.11409", "2026-10-26", 3,
                   "On SWE-agent workloads, ToolCache reduces end-to-end agent latency by 33%.")
    c = cand("c", arxiv_id="2610.11409", arxiv_ids=["2610.11409"], sources=[v2])
    [f] = number_conflicts([c], facts)
    assert f.evidence["values"] == {"33%": ["https://arxiv.org/abs/2610.11409"], "38%": ["knowledge doc §1.(1)"]}
    assert f.context["doc_line"] == {"place": "knowledge doc §1.(1)", "value": "38%"}   # its advice: fix the line
    same = replace(v2, text="ToolCache reduces end-to-end agent latency by 38%.")
    assert number_conflicts([cand("c", arxiv_id="2610.11409", arxiv_ids=["2610.11409"], sources=[same])], facts) == []
    quiet = replace(v2, text="ToolCache pins the KV cache of an agent program across tool calls.")
    assert number_conflicts([cand("c", arxiv_id="2610.11409", arxiv_ids=["2610.11409"], sources=[quiet])], facts) == []
    other = Facts(quantities=QUANTITIES, claim_words=WORDS, anchor_lines={"2610.11409": [(
        "knowledge doc §1.(1)", "2610.11409 ToolCache — pinned KV; HydraRoute reports latency −38%")]})
    assert number_conflicts([c], other) == []


def test_number_conflict_another_sources_measurement_is_no_correction_of_the_docs_line() -> None:
    """Day 16's reader: LMCache measured TierKV at 2.2× on one node, the doc's §2.1 line giving the paper's 3.1×; the
    briefing advised "once checked, correct the doc's line", where the team had written "他们的 CPU 内存比论文的小，那行
    先不改". Another source's figure is another measurement (its setup to compare); a post corrected in place, whose
    figure a line may quote, is the line's to follow, as a new version of the paper is."""
    line = "2610.11305 TierKV: tiered KV offloading, 3.1× multi-turn throughput (anchored 2026-10-12)"
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, anchor_lines={"2610.11305": [("knowledge doc §2.1", line)]})
    post = SourceRef("post", "lmcache", None, None, "https://blog.lmcache.ai/tierkv", "2026-10-29", 4,
                     "TierKV raised multi-turn throughput 2.2x over an HBM-only baseline.")
    c = cand("c", arxiv_id="2610.11305", arxiv_ids=["2610.11305"], sources=[post])
    [f] = number_conflicts([c], facts)
    assert set(f.evidence["values"]) == {"2.2x", "3.1×"} and "doc_line" not in f.context
    fixed = replace(post, corrected="2026-10-29")
    [f] = number_conflicts([cand("c", arxiv_id="2610.11305", arxiv_ids=["2610.11305"], sources=[fixed])], facts)
    assert f.context["doc_line"] == {"place": "knowledge doc §2.1", "value": "3.1×"}


def test_number_conflict_keeps_the_signs_of_values_that_differ_only_by_them() -> None:
    """The evidence is unsigned, but "+25%" and "−25%" would be one value without their signs: they keep them."""
    c = cand("c", sources=[entry(1, text="SGLang decode 吞吐 +25%"), entry(2, text="SGLang decode 吞吐 −25%")])
    [f] = number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert set(f.evidence["values"]) == {"+25%", "−25%"} and "signed" not in f.context


def test_number_conflict_names_the_unit_the_values_are_written_in() -> None:
    """Times compare in seconds; a flag whose values are all written in ms says ms."""
    a = cand("a", sources=[entry(1, text="LMCache TTFT 380 ms on 32K RAG")])
    b = cand("b", sources=[entry(2, text="LMCache TTFT 412 ms")])
    [f] = number_conflicts([a, b], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.evidence["quantity"] == "LMCache TTFT (ms)", f.evidence
    c = cand("c", sources=[entry(3, text="LMCache TTFT 0.5 s")])
    [f] = number_conflicts([a, c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.evidence["quantity"] == "LMCache TTFT (s)"


def test_number_conflict_keeps_its_parts_beside_the_english_subject() -> None:
    """The subject and the evidence say the quantity in English (the flag's identity, what a closure is
    compared by); ``context.measured`` holds the parts, so a zh briefing can say 吞吐 — and a change of those
    words reopens nothing."""
    pd = cand("pd", title="FlashPD: Fused …", sources=[entry(1, text="吞吐 14,800 tokens/s"),
                                                        entry(2, text="吞吐 18,400 tokens/s")])
    [f] = number_conflicts([pd], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.subject == "FlashPD: Fused … · throughput" and f.evidence["quantity"] == "throughput (tokens/s)"
    assert f.context["measured"] == {"item": "FlashPD: Fused …", "system": None, "quantity": "throughput",
                                     "unit": "tokens/s"}
    a = cand("a", sources=[entry(1, text="LMCache TTFT 380 ms on 32K RAG")])
    b = cand("b", sources=[entry(2, text="LMCache TTFT 412 ms")])
    [f] = number_conflicts([a, b], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.subject == "LMCache · TTFT"
    assert f.context["measured"] == {"item": None, "system": "LMCache", "quantity": "TTFT", "unit": "ms"}


def test_a_note_linking_the_post_it_quotes_wrongly_is_told_so() -> None:
    """Day 16's reader: "The vLLM post (<link>) says MoveOut adds 14% to p99 TPOT", the post's 9%, was advised to
    compare the sources' setups; the note links the very post it misquotes. A note giving a figure of its own,
    with no link to the page it differs from, still gets the setups' advice."""
    post = SourceRef("post", "vllm", None, None, "https://blog.vllm.ai/2026/10/29/moveout.html", "2026-10-29", 4,
                     "With MoveOut the p99 TPOT rises 9% while an instance drains.")
    quoting = entry(1, text="The vLLM post (https://blog.vllm.ai/2026/10/29/moveout.html) says the p99 TPOT rises 14% "
                            "during a drain.")
    [f] = number_conflicts([cand("m", title="MoveOut: Draining …", sources=[post, quoting])],
                           Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert f.context["quoted"] == {f"{NOTE}#1": ["https://blog.vllm.ai/2026/10/29/moveout.html"]}
    own = entry(2, text="On our cluster the p99 TPOT rises 14% during a drain.")
    [f] = number_conflicts([cand("m", title="MoveOut: Draining …", sources=[post, own])],
                           Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert "quoted" not in f.context


def test_number_conflict_no_flag_for_one_value_or_different_names() -> None:
    a = cand("a", sources=[entry(1, text="SEIS 3.27× throughput; JIL 1.53× slowdown")])
    b = cand("b", sources=[entry(2, text="again SEIS 3.27× here"), entry(3, text="H100 8×80GB is a shape, not a speed-up")])
    assert number_conflicts([a, b], Facts(speedup_texts=[("doc", "SEIS 3.27×")], quantities=QUANTITIES, claim_words=WORDS)) == []


# --- unresolved-id --------------------------------------------------------------------------

def test_unresolved_offline_vs_unknown_online() -> None:
    facts = Facts(known_ids={"2610.09701"}, unknown_to_arxiv={"2607.09999"},
                  mentions={"2607.09701": ["inbox/tom/hf.md#7"]})
    c = cand("slim", title="SlimWise", arxiv_ids=["2607.09701"])
    d = cand("ghost", title="Ghost", arxiv_ids=["2607.09999"])
    flags = {f.subject: f for f in unresolved_ids([c, d], facts)}
    assert set(flags) == {"2607.09701", "2607.09999"}
    assert flags["2607.09701"].evidence == {"id": "2607.09701", "why": "unresolved", "title": "SlimWise",
                                            "mentioned_in": ["inbox/tom/hf.md#7"]}
    assert flags["2607.09999"].evidence["why"] == "unknown"


def test_an_item_under_two_ids_is_one_id_conflict_not_an_unresolved_id() -> None:
    facts = Facts(known_ids={"2610.09701"})
    c = cand("slim", title="SlimWise", arxiv_ids=["2607.09701", "2610.09701"])
    assert unresolved_ids([c], facts) == [] and len(id_conflicts([c], facts)) == 1


def test_unresolved_skips_anchored_items() -> None:
    c = cand("old", arxiv_ids=["2309.06180"], anchored_in=["2.1"])
    assert unresolved_ids([c], Facts()) == []


# --- date-inconsistency ---------------------------------------------------------------------

def test_date_card_mismatch() -> None:
    facts = Facts(card_mismatches=[("organized/paper_cards/378-2607-09701.md", "2607.09701", "2610.09701")])
    [f] = date_inconsistencies([], facts)
    assert f.subject == "organized/paper_cards/378-2607-09701.md"
    assert f.evidence == {"card": "organized/paper_cards/378-2607-09701.md", "file_name_id": "2607.09701",
                          "front_matter_id": "2610.09701"}


def test_date_id_month_after_the_note() -> None:
    ids = ("2611.00123", "2610.00123", "2509.00001")   # what the entry writes (``SourceRef.cites``)
    c = cand("future", arxiv_ids=list(ids), sources=[replace(entry(4), cites=ids)])
    [f] = date_inconsistencies([c], Facts())
    assert f.subject == f"2611.00123 @ {NOTE}#4"
    assert f.evidence == {"id": "2611.00123", "id_month": "2611", "cited_in": f"{NOTE}#4", "cited_on": "2026-10-08"}


def test_an_id_announced_ahead_is_no_typo_to_fix() -> None:
    """The day 20 reader: card 462's "扩展版会以 2612.00688 挂出，现在还没放出来" was advised "check whether the ID is
    mistyped"; no arXiv ID is known before the paper is submitted. A card saying it is already out is a slip still."""
    from pipeline.brief.rules import load_rules
    announced = load_rules().announced
    card = "organized/paper_cards/462-2611-02935.md"

    def flag(text: str) -> dict:
        src = SourceRef("card", "paper_cards", card, None, None, "2026-11-04T15:20", 4, text)
        [f] = date_inconsistencies([cand("c", arxiv_ids=["2611.02935"], sources=[src])], Facts(announced=announced))
        return f.context
    assert flag("作者 README 说加上多轮对话的扩展版会以 2612.00688 挂出，现在还没放出来。") == {"announced": True}
    assert flag("作者 README 里写续作已经挂了 2612.00688") == {}


def test_date_only_the_teams_dated_writing_and_new_style_ids_count() -> None:
    card_src = SourceRef("card", "paper_cards", "cards/1.md", None, None, "2026-10-08T20:00", 4, "", ("2612.00001",))
    post = SourceRef("post", "vllm", None, None, "https://blog.example/p", "2026-10-08", 4, "", ("2612.00001",))
    old_style = cand("o", arxiv_ids=["cs/0703109"], sources=[replace(entry(), cites=("cs/0703109",))])
    undated = cand("u", arxiv_ids=["2612.00001"], sources=[replace(entry(date=None), cites=("2612.00001",))])
    posted = cand("p", arxiv_ids=["2612.00001"], sources=[post])
    assert date_inconsistencies([old_style, undated, posted], Facts()) == []
    [f] = date_inconsistencies([cand("c", arxiv_ids=["2612.00001"], sources=[card_src])], Facts())
    assert f.subject == "2612.00001 @ cards/1.md", "a card is the team's dated writing as a note entry is"
    bare_date = cand("b", arxiv_ids=["2611.00001"], sources=[replace(entry(date="2026-10-08"), cites=("2611.00001",))])
    assert len(date_inconsistencies([bare_date], Facts())) == 1


# --- boundary -------------------------------------------------------------------------------

# What each anchored item of §2.3 is (its title and label), and what SlimWise's sources say: it shares two rare
# words with CascadeEP (asynchronous, scheduling) and two with DQ (quantization, weights), none with Splitwise.
_PD_TEXTS = {"2311.18677": "Splitwise: Phase Splitting of Generative Inference\nSplitwise — phase splitting",
             "2609.33252": "CascadeEP: Asynchronous Expert Scheduling for MoE\nCascadeEP — asynchronous scheduling",
             "2609.26333": "DQ: Disaggregated Quantization of Weights\nDQ — low-bit weight quantization"}
SLIM_TEXT = "Asynchronous expert pruning, scheduled per group, with quantized weights (weight quantization)"
_PD_DAY = ["Serving latency on GPU clusters, KV blocks and batching"] * 12


def _with_words(facts: Facts, *new: Candidate) -> Facts:
    """``facts`` with §2.3's texts and heading, and the words counted as the briefing counts them."""
    facts.anchored_texts = {**_PD_TEXTS, **facts.anchored_texts}
    facts.section_headings = {"2.3": "Serving architecture / Prefill-decode disaggregation"}
    facts.word_counts, facts.texts_counted = count_words([*facts.anchored_texts.values(), *_PD_DAY,
                                                          *map(candidate_text, new)])
    return facts


def _pd_facts(*new: Candidate) -> Facts:
    return _with_words(Facts(
        section_topics={"2.3": {"pd-disaggregation", "kv-transfer"}},
        anchored_topics={"2.3": [
            ("2311.18677", "Splitwise", {"pd-disaggregation"}, {"prefill-decode"}),
            ("2609.33252", "CascadeEP", {"moe", "pd-disaggregation"}, {"experts", "prefill-decode"}),
            ("2609.26333", "DQ", {"quantization", "pd-disaggregation"}, {"quantization"}),
            ("https://blog.vllm.ai/pd", "vLLM PD serving", {"moe", "pd-disaggregation"}, {"experts"}),
        ]}), *new)


def _new(topics: list[str], terms: set[str], text: str = SLIM_TEXT, **kw) -> Candidate:
    return cand("slim", title="SlimWise", arxiv_id="2610.09701", arxiv_ids=["2610.09701"], category="net-new",
                section="2.3", topics=topics, terms=terms, texts=[text], **kw)


def test_boundary_two_shared_topics_names_the_closest_anchored_paper() -> None:
    [f] = boundaries([_new(["moe", "pd-disaggregation", "compression"], {"experts", "prefill-decode"})], _pd_facts())
    assert f.rule == "boundary" and f.subject == "2610.09701 ~ 2609.33252"
    assert f.evidence["anchored"] == "2609.33252" and f.evidence["anchored_title"] == "CascadeEP"
    assert f.evidence["section"] == "§2.3" and f.evidence["shared_topics"] == ["moe", "pd-disaggregation"]
    assert f.evidence["shared_terms"] == ["experts", "prefill-decode"]


def test_boundary_ties_broken_by_shared_terms() -> None:
    facts = _pd_facts()
    [f] = boundaries([_new(["quantization", "moe", "pd-disaggregation"], {"quantization"})], facts)
    assert f.evidence["anchored"] == "2609.26333", "DQ shares the term; CascadeEP shares none"


def test_boundary_one_shared_topic_beyond_the_section() -> None:
    [f] = boundaries([_new(["moe"], set())], _pd_facts())
    assert f.evidence["anchored"] == "2609.33252" and f.evidence["shared_topics"] == ["moe"]


def test_boundary_none_for_the_section_topic_alone_or_unrelated() -> None:
    facts = _pd_facts()
    assert boundaries([_new(["pd-disaggregation"], {"prefill-decode"}, "SlimWise batches by length")], facts) == []
    assert boundaries([_new(["speculative-decoding"], {"draft model"}, "SlimWise drafts tokens")], facts) == []


def test_boundary_none_for_topics_the_texts_do_not_bear_out() -> None:
    """Day 5's BootLatch (a restored engine process) and PageWeave (paged KV) were both tagged "serving
    systems"; GuardLane (a safety head) and KVShield (a prefix-cache defence) both "KV cache" and "security".
    Topics are the classifier's tags twice over: without two rare words in common, no boundary."""
    for text in ("SlimWise batches requests by output length", "SlimWise: asynchronous requests"):
        assert boundaries([_new(["moe", "pd-disaggregation", "compression"], {"experts"}, text)], _pd_facts()) == []


def test_boundary_only_for_new_papers_in_a_section() -> None:
    facts = _pd_facts()
    assert boundaries([_new(["moe", "pd-disaggregation"], set())], facts)
    conf = _new(["moe", "pd-disaggregation"], set())
    conf.category = "confirmation"
    no_section = _new(["moe", "pd-disaggregation"], set())
    no_section.section = None
    no_id = _new(["moe", "pd-disaggregation"], set())
    no_id.arxiv_id = None
    other_section = _new(["moe", "pd-disaggregation"], set())
    other_section.section = "3.1"
    assert boundaries([conf, no_section, no_id, other_section], facts) == []


def test_boundary_a_paper_the_doc_keeps_out_is_still_read_as_a_new_paper() -> None:
    """A confirmation only because the doc's history keeps it out ("SlimWise 不锚") says nothing of how it overlaps
    what is anchored: the topics and rare words are read for it as for any new paper; a confirmation by a note's
    decision is read on the team's word alone, as before."""
    settled = _new(["moe", "pd-disaggregation"], set(),
                   decision={"text": "SlimWise 不锚", "where": "doc v2", "in_doc": True, "against": True})
    settled.category = "confirmation"
    [f] = boundaries([settled], _pd_facts())
    assert f.evidence["anchored"] == "2609.33252"
    noted = _new(["moe", "pd-disaggregation"], set(), decision={"text": "不锚", "where": NOTE})
    noted.category = "confirmation"
    assert boundaries([noted], _pd_facts()) == []
    # an item without a paper (a release the doc keeps out) stays read on the team's word alone
    release = _new(["moe", "pd-disaggregation"], set(), decision=settled.decision)
    release.category, release.arxiv_id, release.arxiv_ids = "confirmation", None, []
    assert boundaries([release], _pd_facts()) == []


def test_boundary_never_with_itself() -> None:
    facts = _pd_facts()
    c = _new(["moe", "pd-disaggregation", "quantization"], {"experts"})
    c.arxiv_id, c.arxiv_ids = "2609.33252", ["2609.33252"]
    [f] = boundaries([c], facts)
    assert f.evidence["anchored"] == "2609.26333", "the closest other paper, never the item itself"


def test_a_topic_overlap_keeps_its_evidence_without_shared_words() -> None:
    [f] = boundaries([_new(["moe", "pd-disaggregation", "compression"], {"experts"})], _pd_facts())
    assert "shared_words" not in f.evidence, "a topic overlap's evidence (its identity) is as it always was"


def _told(text: str, **kw) -> Facts:
    """``_pd_facts`` with its papers' names, and the team's line about SlimWise: ``text``."""
    facts = _pd_facts()
    facts.anchored_names = {"splitwise": "2311.18677", "cascadeep": "2609.33252", "2609.26333": "2609.26333"}
    facts.overlap_words = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules().overlap_words
    return facts


def _slim_told(text: str, topics: list[str], **kw) -> Candidate:
    return _new(topics, {"experts"}, sources=[entry(3, text=text, **kw)])


def test_boundary_the_team_says_which_paper_it_does_the_same_as() -> None:
    """Day 4's RepliMoE ("和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事") and EvictStorm's card ("和 §1.(9) 的
    TokenFlood 是同一种攻击手法"): the paper a person compared it with is named, not the one kb's topics pick,
    and the evidence says where the team said so."""
    line = "和 §2.3 的 Splitwise 基本就是同一件事，多了专家剪枝"
    [f] = boundaries([_slim_told(line, ["moe", "pd-disaggregation", "compression"])], _told(line))
    assert f.evidence["anchored"] == "2311.18677" and f.evidence["said_in"] == [f"{NOTE}#3"]
    assert f.evidence["shared_topics"] == ["pd-disaggregation"] and "shared_words" not in f.evidence
    [alone] = boundaries([_slim_told(line, ["pd-disaggregation"])], _told(line))
    assert alone.evidence["anchored"] == "2311.18677", "the team's word alone makes the boundary"


def test_boundary_quotes_the_teams_judgement_and_the_docs_decision() -> None:
    """The day 34 reader: two boundary flags asked to read both papers (or to fold one in "or anchor it apart") of
    pairs the team had called repeats and the doc had settled ("X 不锚：和已锚的 Y 重复"). The flag's context quotes
    the team's statement naming the anchored paper, says whether it is a repeat, and quotes the doc's decision."""
    line = "SlimWise 说白了是 Splitwise 的翻版，只多了专家剪枝"
    [f] = boundaries([_slim_told(line, ["pd-disaggregation"])], _told(line))
    assert f.context["team_said"] == [{"text": line, "where": f"{NOTE}#3"}] and f.context["repeat"] is True
    assert "doc_decided" not in f.context
    # a likeness is quoted, but is no repeat: the suggestion stays to read both papers
    like = "和 §2.3 的 Splitwise 类似，多了专家剪枝"
    [f] = boundaries([_slim_told(like, ["pd-disaggregation"])], _told(like))
    assert f.context["team_said"][0]["text"] == like and "repeat" not in f.context
    # the doc keeping the item out is quoted on a flag of any evidence, the topics' too
    decided = {"text": "SlimWise 不锚：和已锚的 CascadeEP 重复", "where": "organized/knowledge/x.md v9", "in_doc": True,
               "against": True}
    settled = _new(["moe", "pd-disaggregation"], set(), decision=decided)
    settled.category = "confirmation"
    [f] = boundaries([settled], _pd_facts())
    assert f.context["doc_decided"] == {"text": decided["text"], "where": decided["where"]}
    assert "team_said" not in f.context and "said_in" not in f.evidence
    # a note's decision, or one put off, settles nothing the doc has decided
    [f] = boundaries([_new(["moe", "pd-disaggregation"], set(), decision={**decided, "in_doc": False})], _pd_facts())
    assert f.context == {}
    # the evidence, the flag's identity, is as it was: the quotes are context
    [plain] = boundaries([_slim_told(line, ["pd-disaggregation"])], _told(line))
    assert set(plain.evidence) == {"new", "new_title", "anchored", "anchored_title", "section", "shared_topics",
                                   "shared_terms", "said_in"}


@pytest.mark.parametrize("line", ["和 §2.3 的 Splitwise 是同一个机制，只是做进了引擎、默认开着",   # day 13's Lathe 2.3.1
                                  "和 §2.3 的 Splitwise 是一个路子，连「只排队不抢占」都一样"])      # day 11's TokenToll
def test_boundary_the_teams_other_words_for_the_same(line: str) -> None:
    [f] = boundaries([_slim_told(line, ["pd-disaggregation"])], _told(line))
    assert f.evidence["anchored"] == "2311.18677" and f.evidence["said_in"] == [f"{NOTE}#3"]


def test_boundary_an_extension_is_set_apart() -> None:
    """Day 14's ParkKV ("builds on EarlyQuit") and RingFold ("Extends RingCast to many nodes"): kb's shared words
    named the paper each extends, two decoys of the day's labeller."""
    for line in ("Builds on CascadeEP: the same asynchronous scheduling, now per group", "Extends CascadeEP to pruning"):
        assert boundaries([_slim_told(line, ["moe", "pd-disaggregation", "quantization"])], _told(line)) == [], line


def test_boundary_two_things_is_different() -> None:
    """Day 12's PrimeCtx: "和 §2.1 的 SnapBoot（2610.24007）两码事" — two different things."""
    line = "和 CascadeEP 两码事"
    assert boundaries([_slim_told(line, ["moe", "pd-disaggregation", "quantization"])], _told(line)) == []


def test_boundary_none_when_the_team_says_it_overlaps_nothing() -> None:
    """Day 4's FormSpec: "so it overlaps nothing anchored in §3.1 beyond being speculative decoding"."""
    for line in ("It overlaps nothing anchored in §2.3 beyond being disaggregated serving.",
                 "§2.3 现有的都是整机拆分，这篇管的是专家怎么剪，和哪篇都不重。"):   # day 9's GlanceDraft card
        assert boundaries([_slim_told(line, ["moe", "pd-disaggregation", "compression"])], _told(line)) == [], line


def test_boundary_the_teams_word_alone_once_it_set_the_item_apart() -> None:
    """Days 8–12: "和今早刚锚的 KVDedup 不是一回事", "Different from TwirlQ", "和 §2.4 的 WarmStart 不冲突" — and kb's
    topics and rare words named another anchored paper each time, five flags the day's labeller called decoys.
    Whoever set the item apart from an anchored paper weighed it against the doc: a paper the team says it
    differs from is never named, and the weaker evidence stays silent; what the team says is the same still is."""
    topics = ["moe", "pd-disaggregation", "quantization"]
    line = "和 CascadeEP 的异步专家调度不冲突"
    assert boundaries([_slim_told(line, topics)], _told(line)) == []
    both = "和 CascadeEP 的异步专家调度不冲突；和 2609.26333 基本就是同一件事"
    [f] = boundaries([_slim_told(both, topics)], _told(both))
    assert f.evidence["anchored"] == "2609.26333" and f.evidence["said_in"] == [f"{NOTE}#3"]
    [kb_own] = boundaries([_slim_told("专家剪枝", topics)], _told(""))
    assert kb_own.evidence["anchored"] == "2609.33252", "without the team's word, kb's closest"


# A section about one topic (KV memory), every anchor of it about KV blocks; the day's other relevant items
# say "serving", "latency", "GPU" and "blocks" often enough that none of those is rare in the topic.
_KV_ANCHORS = {
    "2601.00001": "PageKV: Paged KV Blocks for Serving\nPageKV — paged KV blocks",
    "2601.00002": "SwapKV: Prefetching KV Blocks from Host Memory into HBM\nSwapKV — prefetch into HBM ahead of attention",
    "2601.00003": "ZipKV: Lossless Compression of Cold KV Pages\nZipKV — compress cold pages",
    "2601.00004": "RadixKV: Prefix Sharing with a Radix Tree\nRadixKV — radix-tree prefix reuse",
}
_DAY = ["Serving latency on GPU clusters, KV blocks and batching"] * 12


def _kv_facts(*new: Candidate) -> Facts:
    """The section's facts, the words counted as the briefing counts them: the new items' texts among them."""
    counts, n = count_words([*_KV_ANCHORS.values(), *_DAY, *map(candidate_text, new)])
    return Facts(section_topics={"2.1": {"kv-cache"}}, section_headings={"2.1": "Serving architecture / KV memory"},
                 anchored_topics={"2.1": [(s, t.split("\n")[0], {"kv-cache"}, {"kv cache"})
                                          for s, t in _KV_ANCHORS.items()]},
                 anchored_texts=dict(_KV_ANCHORS), word_counts=counts, texts_counted=n)


def _kv_new(title: str, text: str = "", **kw) -> Candidate:
    return cand("n", title=title, arxiv_id="2610.55555", arxiv_ids=["2610.55555"], category="net-new",
                section="2.1", topics=["kv-cache"], terms={"kv cache"}, texts=[text] if text else [], **kw)


def test_boundary_same_mechanism_inside_the_sections_topic() -> None:
    """Only the section's own topic is shared, which every paper of it shares: the mechanism tells them apart.
    Both prefetch KV blocks into HBM: two rare words in common with SwapKV's title and label."""
    new = _kv_new("AheadKV: Predictive Prefetch of KV Blocks into HBM",
                  "AheadKV predicts which KV blocks attention reads next and prefetches them from host memory.")
    [f] = boundaries([new], _kv_facts(new))
    assert f.subject == "2610.55555 ~ 2601.00002" and f.evidence["anchored"] == "2601.00002"
    assert f.evidence["shared_topics"] == ["kv-cache"] and f.evidence["section"] == "§2.1"
    assert {"prefetching", "hbm"} <= set(f.evidence["shared_words"]), "spelled as SwapKV's title spells them"
    assert not {"blocks", "memory", "kv", "serving"} & set(f.evidence["shared_words"]), \
        "words of the section's heading, of several of its anchors, or common in the topic say nothing"


def test_boundary_same_topic_different_mechanism_is_none() -> None:
    quantised = _kv_new("TwoBitKV: Quantizing KV Blocks to Two Bits for Serving",
                        "Per-channel scales keep accuracy while the KV blocks of each request shrink on the GPU.")
    one_word = _kv_new("HotKV: Keeping Hot KV Blocks in HBM", "Blocks read often stay on the GPU.")
    assert boundaries([quantised], _kv_facts(quantised)) == []
    assert boundaries([one_word], _kv_facts(one_word)) == [], "one rare word shared (HBM) is a coincidence as often as not"


def test_boundary_a_name_is_no_shared_mechanism() -> None:
    """A note that names the anchored paper and repeats its name is not doing what it does."""
    names = _kv_new("SwapLite: Faster Swapping for Serving", "Compared with SwapKV and ZipKV: SwapKV, ZipKV, SwapKV.")
    assert boundaries([names], _kv_facts(names)) == []


def test_boundary_mechanism_words_of_a_papers_title_and_label_only() -> None:
    new = _kv_new("AheadKV: Predictive Prefetch of KV Blocks into HBM", "prefetches KV blocks into HBM")
    facts = _kv_facts(new)
    facts.anchored_topics["2.1"] = [a for a in facts.anchored_topics["2.1"] if a[0] != "2601.00002"]
    assert boundaries([new], facts) == [], "SwapKV is not anchored in this section: nothing else prefetches"
    facts = _kv_facts(new)
    facts.anchored_topics["2.1"][1] = ("https://blog.example.org/swapkv", *facts.anchored_topics["2.1"][1][1:])
    facts.anchored_texts["https://blog.example.org/swapkv"] = _KV_ANCHORS["2601.00002"]
    assert boundaries([new], facts) == [], "an anchored post is no paper to read beside it"


def test_shared_words_are_the_same_evidence_whatever_the_days_counts() -> None:
    """A flag's evidence is its identity: the same words shared with the same paper on a night whose other
    items make "hbm" rarer than "prefetch" (or the other way) must not reopen a flag the team closed."""
    new = _kv_new("AheadKV: Predictive Prefetch of KV Blocks into HBM",
                  "AheadKV predicts which KV blocks attention reads next and prefetches them from host memory.")
    evidence = []
    for extra in ("HBM", "prefetch"):
        facts = _kv_facts(new)
        facts.word_counts, facts.texts_counted = count_words([*_KV_ANCHORS.values(), *_DAY, *["…"] * 20, extra,
                                                              candidate_text(new)])
        [f] = boundaries([new], facts)
        evidence.append(f.evidence)
    assert evidence[0] == evidence[1] and {"prefetching", "hbm"} <= set(evidence[0]["shared_words"])


def test_shared_words_are_spelled_as_the_anchored_paper_spells_them() -> None:
    """The words are shown as the anchored title and label write them: the new item's texts come in the
    order its sources do, which a later post can change, and the evidence with it."""
    text = "AheadKV predicts which KV blocks attention reads next and prefetches them from host memory."
    post = "Prefetched blocks arrive in HBM in time."
    items = [_kv_new("AheadKV: Predictive KV Blocks", t) for t in (f"{text} {post} HBM", f"{post} {text}")]
    shown = [boundaries([new], _kv_facts(new))[0].evidence["shared_words"] for new in items]
    assert shown[0] == shown[1] == ["attention", "hbm", "host", "prefetching"]


def test_a_small_doc_has_rare_words_too() -> None:
    """The new item's own text is one of the texts counted and holds every word it shares: left in, no
    word of a doc and day of fewer than 20 texts was ever rare, and the rule never fired there."""
    new = _kv_new("AheadKV: Predictive Prefetch of KV Blocks into HBM", "prefetches them from host memory")
    facts = _kv_facts(new)
    facts.word_counts, facts.texts_counted = count_words([*_KV_ANCHORS.values(), *_DAY[:8], candidate_text(new)])
    assert facts.texts_counted < 20
    [f] = boundaries([new], facts)
    assert f.evidence["anchored"] == "2601.00002"


def test_content_words_are_stemmed_and_keep_their_spelling() -> None:
    words = content_words("Prefetches hot experts; prefetching the EXPERTS with HBM and KV", {"hbm"})
    assert words == {"prefetch": "prefetches", "hot": "hot", "expert": "experts"}


# --- all rules together ---------------------------------------------------------------------

def test_run_rules_orders_and_labels() -> None:
    facts = _with_words(Facts(known_ids={"2610.09701"}, card_mismatches=[("cards/378.md", "2607.09701", "2610.09701")],
                              **{k: v for k, v in vars(_pd_facts()).items() if k in ("section_topics", "anchored_topics")}))
    slim = _new(["moe", "pd-disaggregation"], {"experts"}, upvotes=[(11, "note", "2026-10-08"), (12, "card", "2026-10-08")])
    slim.arxiv_ids = ["2607.09701", "2610.09701"]
    ds = cand("ds", title="DeepSeek", sources=[entry(3)], markers=["⚠"], points=["⚠ x"])
    flags = run_rules([slim, ds], facts)
    ghost = cand("ghost", title="Ghost", arxiv_ids=["2607.09999"])
    ghost.bad_ids = [("2614.00123", "there is no month 14", "inbox/jay/n.md#1")]
    flags = run_rules([slim, ds, ghost], facts)
    assert [f.rule for f in flags] == ["unsourced-claim", "boundary", "id-conflict", "number-conflict",
                                       "unresolved-id", "date-inconsistency", "impossible-id"]
    assert [f.rule for f in flags] == list(RULE_ORDER)
    assert run_rules([slim, ds, ghost], facts)[0].fingerprint == flags[0].fingerprint, "stable"


def test_run_rules_deduplicates_by_fingerprint() -> None:
    a = cand("a", title="Same", sources=[entry(1)], markers=["⚠"], points=["⚠ one"])
    b = cand("b", title="Same", sources=[entry(2)], markers=["⚠"], points=["⚠ two"])
    flags = run_rules([a, b], Facts())
    assert len(flags) == 1 and flags[0].fingerprint == "unsourced-claim:Same"


def test_number_conflict_ignores_generic_words() -> None:
    a = cand("a", sources=[entry(1, text="Throughput 2.1× higher than vLLM on H200.")])
    b = cand("b", sources=[entry(2, text="Throughput 1.4× higher than SGLang. About 3× less memory.")])
    c = cand("c", sources=[entry(3, text="About 2× less memory.")])
    assert number_conflicts([a, b, c], Facts(quantities=QUANTITIES, claim_words=WORDS)) == []


# The values of a text are found in the whole text and placed in their clauses; a search clause by
# clause (the plain reading of the rule) must find exactly the same ones, whatever the punctuation.
_PIECES = ["3", "46.1", "1,234", " ", "\n", ".", ",", "，", "。", ";", "×", "x", "ms", " s", "秒", "GB/s",
           "tokens/s", "Mooncake ", "TTFT ", "throughput ", "吞吐 ", "from ", "(", ")", "（", "）", "a", "v2"]


def _clause_by_clause(text: str) -> list[tuple[str, str, str]]:
    from pipeline.brief.claims import _CLAUSE, _VALUE, AFTER
    out = []
    for clause in re.split(r"[。；;！!？?\n，]|(?<=\D)[.,](?=\s|$)", text):
        for m in _VALUE.finditer(clause):
            out.append((clause[:m.start()], m.group(), clause[m.end():m.end() + AFTER]))
    assert _CLAUSE.split(text) == re.split(r"[。；;！!？?\n，]|(?<=\D)[.,](?=\s|$)", text)
    return out


@settings(max_examples=300, deadline=None)
@example("TTFT 3\nms, Mooncake 46.1 GB/s. from 2 s")   # a value across a clause's end is none
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_values_are_placed_in_the_clauses_a_clause_by_clause_search_finds(text: str) -> None:
    from pipeline.brief.claims import _values_in_clauses
    assert [(b, m.group(), a) for b, m, a in _values_in_clauses(text)] == _clause_by_clause(text)


# --- impossible-id ----------------------------------------------------------------------------

def test_an_impossible_month_suggests_the_known_ids_one_slip_away() -> None:
    # month 20: 2602.00123 has two neighbours swapped, 2610.00123 one digit off; 2610.00321 and 2609.00123 are further
    facts = Facts(known_ids={"2602.00123", "2610.00123", "2610.00321", "2609.00123"})
    papers = [cand(i, title=f"Paper {i}", arxiv_ids=[i]) for i in sorted(facts.known_ids)]
    note = cand("n", title="DecodeBound：带宽瓶颈", bad_ids=[("2620.00123", "there is no month 20", f"{NOTE}#1")])
    [f] = impossible_ids([*papers, note], facts)
    assert f.evidence["likely"] == ["2602.00123", "2610.00123"]


def test_the_likely_id_whose_paper_has_the_items_name_comes_first() -> None:
    facts = Facts(known_ids={"2610.00123", "2610.00124"})
    papers = [cand("a", title="Other: a paper", arxiv_ids=["2610.00123"]),
              cand("b", title="DecodeBound: Decode Bandwidth on NPUs", arxiv_ids=["2610.00124"])]
    note = cand("n", title="DecodeBound：带宽瓶颈", bad_ids=[("2614.00124", "there is no month 14", f"{NOTE}#1"),
                                                           ("2610.0012", "4 digits after the dot", f"{NOTE}#2")])
    flags = impossible_ids([*papers, note], facts)
    assert [f.evidence["likely"] for f in flags] == [["2610.00124"], ["2610.00124", "2610.00123"]]
    # each shown with its paper's name (the day 13 reader: "多半是 2610.24893、2610.24894、2610.24895" said nothing)
    assert flags[1].context == {"likely_names": {"2610.00124": "DecodeBound", "2610.00123": "Other"}}


# --- decisions the mutation round found untested ------------------------------------------------

def test_an_unsourced_flag_quotes_at_most_three_marked_lines() -> None:
    c = cand("ds", title="DeepSeek V4.1 Prefill", sources=[entry(3)], markers=["⚠"],
             points=["⚠ 吞吐 2.1×", "⚠ TTFT 380 ms", "⚠ 显存 41 GB", "⚠ 带宽 46 GB/s"])
    [f] = unsourced_claims([c], Facts())
    assert f.evidence["claims"] == ["⚠ 吞吐 2.1×", "⚠ TTFT 380 ms", "⚠ 显存 41 GB"]


def test_a_miscited_id_the_item_also_carries_is_not_the_resolved_one() -> None:
    """An entry moved to the paper its name titles (``TreeDraft（2610.08810）``) brings the wrong ID along:
    the flag resolves the item to its own paper, never to the paper it was miscited as."""
    c = cand("td", title="TreeDraft: Adaptive Token Trees", arxiv_ids=["2610.08812", "2610.08810"],
             miscited={"2610.08810": ("TeraTune: Tuning Serving Configs", ["inbox/tom/n.md#2"])})
    [f] = id_conflicts([c], Facts(known_ids={"2610.08812", "2610.08810"}))
    assert f.evidence["resolved"] == ["2610.08812"]


def test_upvotes_of_an_item_the_briefing_does_not_put_forward_are_not_compared() -> None:
    c = cand("s", upvotes=[(11, "inbox/tom/hf.md#7", "2026-10-08"), (14, "cards/378.md", "2026-10-08")])
    c.put_forward = False
    assert number_conflicts([c], Facts()) == []


def test_a_place_that_writes_two_counts_of_one_day_tells_a_change_not_a_conflict() -> None:
    # "12▲ yesterday, 31▲ now" in one note (dated without a time), the nightly's fetch 31▲
    counts = [(12, "inbox/tom/hf.md#7", "2026-10-08"), (31, "inbox/tom/hf.md#7", "2026-10-08"),
              (31, "hf 2026-10-08", "2026-10-08" + FETCHED)]
    assert number_conflicts([cand("s", upvotes=counts)], Facts()) == []


def test_an_old_style_id_from_the_nineties_is_no_date_inconsistency() -> None:
    # "9905" is May 1999, not a month after the note's 2610
    old = cand("o", arxiv_ids=["cs/9905014"], sources=[entry()])
    assert date_inconsistencies([old], Facts()) == []


def test_boundary_names_the_paper_sharing_more_topics_before_one_sharing_more_terms() -> None:
    facts = _with_words(Facts(section_topics={"2.3": {"pd-disaggregation", "kv-transfer"}}, anchored_topics={"2.3": [
        ("2609.33252", "CascadeEP", {"moe", "pd-disaggregation"}, {"experts"}),
        ("2609.26333", "DQ", {"quantization"}, {"quantization", "prefill-decode", "kv cache"})]}))
    [f] = boundaries([_new(["moe", "pd-disaggregation", "quantization"],
                           {"quantization", "prefill-decode", "kv cache"})], facts)
    assert f.evidence["anchored"] == "2609.33252" and f.evidence["shared_topics"] == ["moe", "pd-disaggregation"]


def test_an_impossible_id_names_at_most_three_likely_ids() -> None:
    known = ["2610.00121", "2610.00123", "2610.00125", "2610.00127"]
    facts = Facts(known_ids=set(known))
    papers = [cand(i, title=f"Paper {i}", arxiv_ids=[i]) for i in known]
    note = cand("n", title="DecodeBound：带宽瓶颈", bad_ids=[("2610.0012", "4 digits after the dot", f"{NOTE}#2")])
    [f] = impossible_ids([*papers, note], facts)
    assert f.evidence["likely"] == known[:3]


def test_a_plain_first_word_of_the_title_is_not_the_item_itself() -> None:
    """Only a coined first word names the item: a note titled with the GPU it ran on quotes the GPU's own
    figure beside the system's measurement, two subjects and no conflict."""
    c = cand("bw", title="Blackwell 上的 PD 分离实测", titles=["Blackwell 上的 PD 分离实测"],
             sources=[entry(1, text="Blackwell 显存带宽 8 TB/s，瓶颈不在显存。"), entry(2, text="实测节点间传输带宽 1.6 TB/s。")])
    assert number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS)) == []


def test_an_anchored_papers_name_beside_an_unknown_id_is_an_id_conflict() -> None:
    """Day 5's Spark: "和 §10 的 PowerCap（2609.24471）是同一个思路", where the doc's §10 anchors 2609.24417
    PowerCap (digits swapped): one system, two IDs, the doc's line among the places. An ID the store knows
    is another paper; the anchored ID itself, or a note citing the item beside its own subject, says nothing."""
    from types import SimpleNamespace

    from pipeline.brief.likeness import AnchoredNames
    anchors = [SimpleNamespace(arxiv_id="2609.24417", subject="2609.24417", section="10", title=None,
                               label="2609.24417 PowerCap — energy-aware batching (anchored 2026-10-09)")]
    facts = Facts(known_ids={"2610.16205", "2609.99999"}, anchored_names=AnchoredNames(anchors),
                  doc_path="organized/knowledge/inference.md")

    def item(text: str, **kw) -> Candidate:
        return cand("w", title="WattBatch", arxiv_ids=["2610.16205"],
                    sources=[entry(1, path="inbox/spark/n.md", text=text, **kw)])
    [f] = id_conflicts([item("- 和 §10 的 PowerCap（2609.24471）是同一个思路：按能耗定 batch")], facts)
    assert (f.rule, f.subject) == ("id-conflict", "PowerCap")
    assert f.evidence == {"ids": {"2609.24417": ["organized/knowledge/inference.md §10"],
                                  "2609.24471": ["inbox/spark/n.md#1"]}, "resolved": [], "anchored": "2609.24417"}
    for fine in ("对照 PowerCap（2609.24417）", "对照 PowerCap（2609.99999）"):
        assert id_conflicts([item(fine)], facts) == []
    assert id_conflicts([item("PowerCap（2609.24471）", beside_subject=True)], facts) == []


def test_an_id_a_card_writes_from_a_month_after_the_card_is_a_date_inconsistency() -> None:
    """Day 6's card 414 (created 2026-10-15): "作者 GitHub README 里写续作已经挂了 2611.01942" — a November ID."""
    card = SourceRef("card", "paper_cards", "organized/paper_cards/414-2610-18359.md", None, None,
                     "2026-10-15T14:05", 4, "续作已经挂了 2611.01942。建议：§1.(1)。", ("2610.18359",))
    [f] = date_inconsistencies([cand("c", title="CallStash", arxiv_ids=["2610.18359"], sources=[card])], Facts())
    assert f.evidence == {"id": "2611.01942", "id_month": "2611", "cited_in": "organized/paper_cards/414-2610-18359.md",
                          "cited_on": "2026-10-15"}


@pytest.mark.parametrize(("line", "hearsay"), [
    ("周六聚餐听推荐组的人讲，他们 multi-lora 上线以后 decode 吞吐掉了 33%", True),   # day 33's Ines: someone else's figure
    ("听说隔壁组 ttft 降了 20%", True),
    ("我用 curl 脚本连打了二十来个请求：p99 ttft 到了 4.7 s", False),                 # day 33's Omer: his own
    ("听了一下午报告，讲完才去测：p99 ttft 4.7 s，数据见下面", False),                 # too far apart to say hearsay
])
def test_a_figure_someone_else_told_is_hearsay(line: str, hearsay: bool) -> None:
    from pipeline.brief.rules import load_rules
    from pipeline.brief.unsourced import says
    assert any(says(line, w) for w in load_rules().hearsay) is hearsay


def test_a_cards_file_name_from_a_later_month_is_one_flag_with_its_front_matter() -> None:
    """Day 33's card 519: file name 519-2612-18953.md, front matter 2611.18953 — one slip, flagged once as the file
    name and front matter disagreeing, not again as a December ID on a November card."""
    path = "organized/paper_cards/519-2612-18953.md"
    card = SourceRef("card", "paper_cards", path, None, None, "2026-11-23T16:30", 4, "JSON 生成快 1.4–1.9×。",
                     ("2612.18953", "2611.18953"))
    flags = date_inconsistencies([cand("c", title="SchemaLeap", arxiv_ids=["2611.18953"], sources=[card])],
                                 Facts(card_mismatches=[(path, "2612.18953", "2611.18953")]))
    assert [f.subject for f in flags] == [path]


def test_an_impossible_id_on_the_work_queue_is_flagged_with_its_likely_paper() -> None:
    """Day 6's queue: "4. https://huggingface.co/papers/2600.18472 LenBait: …" — month 00; no queue line is an
    item, so its IDs were never looked at. LenBait's stored paper is the likely one, whatever the day's items
    (the queue is read every day: the day's items would change the flag's evidence daily)."""
    other = cand("o", title="SpotCost: Cost Models", arxiv_ids=["2600.18473"])
    facts = Facts(known_ids={"2600.18473"}, queue_bad_ids=[
        ("2600.18472", "there is no month 00", "organized/queue/work-queue.md rank 4", "LenBait: Gaming …")],
        queue_near={"2600.18472": {"2610.18472": "LenBait: Gaming Output-Length Predictors"}})
    [f] = impossible_ids([other], facts)
    assert (f.subject, f.evidence["cited_in"], f.evidence["likely"]) == (
        "2600.18472", "organized/queue/work-queue.md rank 4", ["2610.18472"])


def test_an_anchored_name_beside_an_unknown_id_is_one_flag_when_the_item_carries_both_ids() -> None:
    """When the anchored paper is among the day's items and the wrong ID was merged into it (one system, two
    IDs: its own id-conflict), the name beside the wrong ID is that same conflict, not a second flag."""
    from types import SimpleNamespace

    from pipeline.brief.likeness import AnchoredNames
    anchors = [SimpleNamespace(arxiv_id="2609.24417", subject="2609.24417", section="10",
                               title="PowerCap: Energy-aware Batching", label="2609.24417 PowerCap")]
    facts = Facts(known_ids={"2609.24417"}, anchored_names=AnchoredNames(anchors),
                  doc_path="organized/knowledge/inference.md")
    merged = cand("p", title="PowerCap: Energy-aware Batching", arxiv_ids=["2609.24417", "2609.24471"],
                  sources=[entry(1, path="inbox/spark/n.md", text="PowerCap（2609.24471）按能耗定 batch")])
    [f] = id_conflicts([merged], facts)
    assert f.subject == "PowerCap: Energy-aware Batching" and set(f.evidence["ids"]) == {"2609.24417", "2609.24471"}


def test_an_anchored_name_conflict_is_named_and_placed_as_the_doc_writes_it() -> None:
    """The flag's subject is the doc's "PowerCap" however a note spells it (a flag's identity must not follow
    the spelling), and a paper the doc anchors in two sections has both lines among its places."""
    from types import SimpleNamespace

    from pipeline.brief.likeness import AnchoredNames
    anchors = [SimpleNamespace(arxiv_id="2609.24417", subject="2609.24417", section=sec, title=None,
                               label="2609.24417 PowerCap — energy-aware batching") for sec in ("2.2", "10")]
    facts = Facts(anchored_names=AnchoredNames(anchors), doc_path="organized/knowledge/inference.md")
    item = cand("w", title="WattBatch", arxiv_ids=["2610.16205"],
                sources=[entry(1, path="inbox/spark/n.md", text="和 POWERCAP（2609.24471）是同一个思路")])
    [f] = id_conflicts([item], facts)
    assert f.subject == "PowerCap"
    assert f.evidence["ids"]["2609.24417"] == ["organized/knowledge/inference.md §2.2",
                                                "organized/knowledge/inference.md §10"]


def test_an_impossible_id_both_a_note_and_the_queue_write_is_flagged_at_the_note() -> None:
    """One ID, one flag: when a note entry of the day and a queue line write the same impossible ID, the flag
    names the note entry (the day's item) — the queue's line, raised every day, must not take its place."""
    where = f"{NOTE}#2"
    noted = cand("l", title="LenBait: Gaming Output-Length Predictors", arxiv_ids=["2610.18472"])
    noted.bad_ids = [("2600.18472", "there is no month 00", where)]
    facts = Facts(known_ids={"2610.18472"}, queue_bad_ids=[
        ("2600.18472", "there is no month 00", "organized/queue/work-queue.md", "LenBait: Gaming …")])
    [f] = [f for f in run_rules([noted], facts) if f.rule == "impossible-id"]
    assert f.evidence["cited_in"] == where


def test_a_bare_number_a_digit_short_is_an_impossible_id_only_when_a_stored_id_extends_it() -> None:
    """Day 7's card "作者说是 2610.1635 的后续": RingCast 2610.16350 is stored, so it is that ID with a digit dropped.
    "QPS 2105.3333" extends to no stored paper: a number."""
    card = "organized/paper_cards/418-2610-20515.md"
    c = cand("rota", title="RotaPass", arxiv_ids=["2610.20515"],
             short_ids=[("2610.1635", "4 digits after the dot; arXiv IDs of 2026-10 have 5", card),
                        ("2105.3333", "4 digits after the dot; arXiv IDs of 2021-05 have 5", card)])
    facts = Facts(short_near={"2610.1635": {"2610.16350": "RingCast: …", "2610.16351": "Other", "2610.1636": "x"},
                              "2105.3333": {}})
    [f] = impossible_ids([c], facts)
    assert f.subject == "2610.1635" and f.evidence["cited_in"] == card
    assert f.evidence["likely"] == ["2610.16350", "2610.16351"]
    assert f.evidence["why"] == "4 digits after the dot; arXiv IDs of 2026-10 have 5"


def test_a_marked_row_is_its_papers_when_the_entry_s_heading_names_another(tmp_path) -> None:
    """A second review: "周末核对：TreeDraft（2610.08812）和 KVCC" names TreeDraft in its heading, so the entry is
    TreeDraft's and cites KVCC beside it; its row "| KVCC（2610.08694） | p99 多 6% | 待核实 |" is KVCC's claim, to be
    checked against KVCC, not TreeDraft."""
    from tests.pipeline.brief.conftest import brief_json, copy_sample, ingest_sample
    home = copy_sample(tmp_path / "ws")
    (home / "inbox" / "jay" / "2026-10-08T1200-jay-checks.md").write_text(
        "---\ncredibility: 5\n---\n\n## 周末核对：TreeDraft（2610.08812）和 KVCC\n\n"
        "| 论文 | 数 | 出处 |\n|---|---|---|\n| TreeDraft（2610.08812） | 1.8× | 摘要 |\n"
        "| KVCC（2610.08694） | p99 多 6% | 待核实：作者在群里说的 |\n", encoding="utf-8")
    data = brief_json(ingest_sample(home))
    marked = [f for f in data["flags"] if f["kind"] == "unsourced-claim" and "待核实" in f["evidence"]["markers"]
              and "inbox/jay/2026-10-08T1200-jay-checks.md#1" in f["evidence"]["sources"]]
    assert [f["evidence"]["arxiv_ids"] for f in marked] == [["2610.08694"]]
    assert marked[0]["evidence"]["claims"][0].startswith("KVCC（2610.08694）")


def test_a_place_kb_names_is_said_in_the_briefings_language_with_what_follows_it() -> None:
    from pipeline.brief.rules import load_rules, place_name
    rules = load_rules()
    assert place_name("knowledge doc §1.(1)", "zh", rules) == "知识文档 §1.(1)"
    assert place_name("knowledge doc", "zh", rules) == "知识文档"
    assert place_name("knowledge doc §1.(1)", "en", rules) == "knowledge doc §1.(1)"
    assert place_name("store: listing/API metadata", "zh", rules) == "库内 arXiv 列表/API 元数据"
    assert place_name("knowledge docs/x.md", "zh", rules) == "knowledge docs/x.md"   # a path, not the label


SHARDLOAD = ("2610.32751", "https://arxiv.org/abs/2610.32751", "ShardLoad",
             "ShardLoad streams the weights layer by layer from a running peer over RDMA. "
             "ShardLoad brings a 70B-parameter replica into service 4.1x sooner than loading from a shared file system.")


def test_number_conflict_a_figure_copied_from_a_cited_papers_abstract_is_compared_with_it() -> None:
    """Day 17: Tom's week's table, "数都是从摘要抄的", gives ShardLoad "70B replica 上线快 4.7×"; its abstract (day 15's
    listing, not in the window) says 4.1x. The row's first cell names the paper, and a paper the window cites is read
    by its own abstract; a row copied rightly raises nothing."""
    table = ("本周入锚\n论文 | § | 摘要里的数\nShardLoad（2610.32751） | §2.1 | 70B replica 上线快 {} |\n"
             "PoolVerify（2610.31592） | §3.1 | decode 吞吐 1.4× |")
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, cited_abstracts=[SHARDLOAD])
    wrong = cand("wrap", sources=[entry(1, text=table.format("4.7×"))])
    [f] = number_conflicts([wrong], facts)
    assert f.evidence["values"] == {"4.1x": ["https://arxiv.org/abs/2610.32751"], "4.7×": [f"{NOTE}#1"]}
    assert f.subject == "ShardLoad · speed-up"
    right = cand("wrap", sources=[entry(1, text=table.format("4.1×"))])
    assert number_conflicts([right], facts) == []


def test_number_conflict_an_item_without_its_abstract_in_the_window_reads_it_beside_its_sources() -> None:
    """Day 16's TierKV (listed on day 3): LMCache's 2.2x against the doc's line and the abstract, both 3.1×. The
    abstract is one more place of the line's figure, and it is read once: not also as a cited paper's."""
    line = "2610.11305 TierKV: tiered KV offloading, 3.1× multi-turn throughput (anchored 2026-10-12)"
    abstract = ("2610.11305", "https://arxiv.org/abs/2610.11305", "TierKV",
                "TierKV raises multi-turn throughput 3.1x over an HBM-only baseline.")
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, anchor_lines={"2610.11305": [("knowledge doc §2.1", line)]},
                  cited_abstracts=[abstract])
    post = SourceRef("post", "lmcache", None, None, "https://blog.lmcache.ai/tierkv", "2026-10-29", 4,
                     "TierKV raised multi-turn throughput 2.2x over an HBM-only baseline.")
    [f] = number_conflicts([cand("c", arxiv_id="2610.11305", arxiv_ids=["2610.11305"], sources=[post])], facts)
    assert f.evidence["values"] == {"2.2x": ["https://blog.lmcache.ai/tierkv"],
                                    "3.1×": ["knowledge doc §2.1", "https://arxiv.org/abs/2610.11305"]}


def test_number_conflict_the_papers_own_abstract_read_from_the_store_asks_for_the_line_to_be_corrected() -> None:
    """A paper the window does not list, whose abstract (a v2, as the store read it on D) now gives another figure
    than the doc's line: the line is the one to correct, as with a v2 in the window (a review's case)."""
    line = "2610.11305 TierKV: tiered KV offloading, 3.1× multi-turn throughput (anchored 2026-10-12)"
    abstract = ("2610.11305", "https://arxiv.org/abs/2610.11305", "TierKV",
                "TierKV raises multi-turn throughput 2.2x over an HBM-only baseline.")
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, anchor_lines={"2610.11305": [("knowledge doc §2.1", line)]},
                  cited_abstracts=[abstract])
    note = entry(1, text="TierKV (2610.11305) v2: multi-turn throughput 2.2x now.")
    [f] = number_conflicts([cand("c", arxiv_id="2610.11305", arxiv_ids=["2610.11305"], sources=[note])], facts)
    assert f.context["doc_line"] == {"place": "knowledge doc §2.1", "value": "3.1×"}


def test_number_conflict_a_cited_papers_abstract_answers_only_what_is_written_of_it_beside_its_id() -> None:
    """A review's cases. A note citing SGLang's paper with no figure, and a release post's "SGLang throughput 1.3x
    over v0.4" (a later version, its paper not cited): no conflict with the paper's 6.4x. Two cited papers that share
    a coined name (an older HydraServe and a new one): their abstracts are no two places of one system's figure."""
    sglang = ("2312.07104", "https://arxiv.org/abs/2312.07104", "SGLang",
              "Experiments show that SGLang achieves up to 6.4x higher throughput compared to state-of-the-art "
              "inference systems.")
    cite = cand("id:2312.07104", arxiv_id="2312.07104", arxiv_ids=["2312.07104"],
                sources=[entry(2, text="RadixAttention 的出处是 SGLang（2312.07104），组会前再看一遍。")])
    post = cand("url:blog", url="https://lmsys.org/blog/x", sources=[SourceRef(
        "post", "lmsys", None, None, "https://lmsys.org/blog/x", "2026-10-30", 4, "On DeepSeek-V3, SGLang throughput "
        "1.3x over v0.4.")])
    assert number_conflicts([cite, post], Facts(quantities=QUANTITIES, claim_words=WORDS, cited_abstracts=[sglang])) == []
    older = ("2503.00001", "https://arxiv.org/abs/2503.00001", "HydraServe", "HydraServe cuts cold-start TTFT by 1.7x.")
    newer = ("2610.00002", "https://arxiv.org/abs/2610.00002", "HydraServe", "HydraServe cuts cold-start TTFT by 2.6x.")
    both = cand("u", sources=[entry(3, text="Two HydraServe papers (2503.00001, 2610.00002): HydraServe TTFT 1.7x.")])
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, cited_abstracts=[older, newer])
    assert number_conflicts([both], facts) == []



def test_an_unsourced_claim_under_a_notes_recurring_heading_is_named_by_what_it_claims() -> None:
    """Day 16's reader: Spark heads a section "二期集群" every week; Thursday's "prefix cache 命中率 62%" was shown as the
    flag first raised for another, still unchecked claim under that heading, which left the open flags. An item that
    is no paper and no page is named by its figures too: a new claim is a new flag, the same claim the same one."""
    def aside(n: int, line: str, facts: list[str]) -> Candidate:
        return cand(f"entry:inbox/spark/n{n}.md#3", title="二期集群", markers=["待核实"], facts=facts,
                    points=[line], sources=[entry(n, cred=3, text=line)])
    earlier = aside(1, "待核实：二期 H20 集群白天 GPU 利用率只有 41%", ["41%"])
    later = aside(2, "待核实：二期 H20 集群上 prefix cache 命中率 62%", ["62%"])
    again = aside(3, "待核实：二期 H20 集群上 prefix cache 命中率 62%", ["62%"])
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS)
    [a], [b], [c] = (unsourced_claims([x], facts) for x in (earlier, later, again))
    assert (a.subject, b.subject) == ("二期集群 · 41%", "二期集群 · 62%") and b.fingerprint == c.fingerprint
    paper = cand("id:2610.1", title="HopKV: Relaying KV", arxiv_ids=["2610.1"], markers=["⚠"], facts=["38%"],
                 points=["⚠ HopKV −38%"], sources=[entry(4, text="⚠ HopKV −38%")])
    assert unsourced_claims([paper], facts)[0].subject == "HopKV: Relaying KV"   # a paper is named by its title


def test_a_question_followed_by_what_to_do_asks() -> None:
    """Day 27's reader: "FlockEP（2611.11637）换副本的时候 decode 停不停？待确认，周一问作者" is a question; its flag
    was advised as a claim to check against the paper."""
    from pipeline.brief.unsourced import asks
    assert asks("FlockEP（2611.11637）换副本的时候 decode 停不停？待确认，周一问作者", ["待确认"])
    assert not asks("FlockEP 停不停？待确认，周一问作者")              # without its mark: read as before
    assert not asks("停不停？论文说不停，待核实", ["待核实"])           # an answer follows: a claim


def test_a_remark_made_privately_is_hearsay() -> None:
    """Day 26's reader: "⚠ Anselm 私下又说 Tessera 线上的草稿模型早就是 FP4 了 … 待核实" was advised to find the arXiv
    paper; it is asked of whoever passed it on."""
    line = "⚠ Anselm 私下又说 Tessera 线上的草稿模型早就是 FP4 了，帖子里没有，也没给出处，待核实"
    c = cand("c", title="lathe-users thread", markers=["⚠", "待核实"], points=[line], urls=["https://x.example/t"],
             sources=[entry(1, cred=3, text=line, url="https://x.example/t")])
    words = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules().hearsay
    [flag] = unsourced_claims([c], Facts(quantities=QUANTITIES, claim_words=WORDS, hearsay=words))
    assert flag.context.get("aside")


def test_a_marked_aside_without_a_figure_asks_whoever_said_it() -> None:
    """Day 27's post-mortem: "⚠ 供应商的人私下说 2.4.3 的在线重排在 EP 大于 16 时有已知 bug … 待核实" is a claim, no figure:
    the advice asks whoever said it for an issue or the release notes, not "whoever gave the figure"."""
    line = "⚠ 供应商的人私下说 2.4.3 的在线重排在 EP 大于 16 时有已知 bug，release notes 里没写，待核实"
    c = cand("entry:inbox/omer/n.md#2", title="根因（初判）", markers=["⚠", "待核实"], points=[line],
             sources=[entry(2, cred=3, text=line)])
    c.aside = True
    [flag] = unsourced_claims([c], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert flag.context["aside"] and flag.context["no_figure"]
    figure = cand("entry:inbox/spark/n.md#3", title="二期集群", markers=["待核实"], facts=["41%"],
                  points=["待核实：二期 H20 集群白天 GPU 利用率只有 41%"], sources=[entry(3, cred=3, text="41%")])
    figure.aside = True
    [flag] = unsourced_claims([figure], Facts(quantities=QUANTITIES, claim_words=WORDS))
    assert flag.context["aside"] and "no_figure" not in flag.context
    assert not flag.context.get("own")   # nobody says who measured it: someone's word, asked of whoever gave it
    # the author's own run of another topic asks whoever measured it (day 33's Omer, "我用 curl 脚本 … p99 TTFT 到了
    # 4.7 s"), not whoever gave it; a figure someone else told ("周六聚餐听推荐组的人讲 … 33%") asks its teller
    mine = "新 adapter 冷加载那几分钟，我用 curl 脚本连打了二十来个请求：p99 TTFT 到了 4.7 s"
    run = cand("entry:inbox/omer/n.md#2", title="自己打的", facts=["4.7 s"], points=[mine],
               sources=[entry(2, cred=3, text=mine)])
    run.aside = True
    rules = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules()
    [flag] = unsourced_claims([run], Facts(quantities=QUANTITIES, claim_words=WORDS,
                                           measured_by_us=rules.measured_by_us))
    assert flag.context["aside"] and flag.context.get("own")
    told = "周六聚餐听推荐组的人讲，他们 multi-LoRA 上线以后 decode 吞吐掉了 33%"
    heard = cand("entry:inbox/ines/n.md#3", title="聚餐听来的", facts=["33%"], points=[told],
                 sources=[entry(3, cred=3, text=told)])
    hearsay = __import__("pipeline.brief.rules", fromlist=["load_rules"]).load_rules().hearsay
    [flag] = unsourced_claims([heard], Facts(quantities=QUANTITIES, claim_words=WORDS, hearsay=hearsay))
    assert flag.context["aside"] and not flag.context.get("own") and not flag.context.get("team")


def test_a_figure_written_of_a_cited_paper_against_its_abstract_is_a_quote_to_correct() -> None:
    """The day 17 reader: Tom's week table "ShardLoad（2610.32751）… 上线快 4.7×" (its figures "从摘要抄的") against the
    abstract's 4.1x was advised "check each source's setup": a figure written of a paper cited by its ID is a quote of
    the paper; another source's figure of it, not citing it, is another measurement."""
    from pipeline.brief.numbers import ABSTRACT_PLACE, _quotes_the_abstract
    abstract = ABSTRACT_PLACE + "2610.32751"
    values = {"4.1x": [abstract], "4.7×": ["wrap.md#1"], "3.9x": ["post"]}
    cites = {"wrap.md#1": {"2610.32751"}, "post": set()}
    assert _quotes_the_abstract(values, cites) == {"quoted": {"wrap.md#1": [abstract]}}
    assert _quotes_the_abstract({"4.1x": [abstract, "wrap.md#1"]}, cites) == {}


def test_a_note_saying_it_copies_the_papers_figure_is_a_quote_to_correct_and_a_reproduction_is_not() -> None:
    """The day 20 reader: Ines's "The authors report … 1.7x" against SideSample's abstract (1.4x, the same setup) was
    advised "check each source's setup"; the review: a team's reproduction of a cited paper ("在我们 8 卡机上复现") was
    told to correct a quote. Only a source that says it copies the paper's figures quotes it."""
    from pipeline.brief.model import SourceRef
    from pipeline.brief.rules import load_rules
    quoting = load_rules().quoting
    abstract = "SideSample overlaps sampling with the next step and decodes 1.4x faster on a 70B model."

    def conflict(note: str) -> dict:
        c = cand("side", title="SideSample: Host-Side Sampling", arxiv_ids=["2611.02744"], sources=[
            entry(5, text=note), SourceRef("hf", "hf", url="https://arxiv.org/abs/2611.02744", text=abstract)])
        [f] = number_conflicts([c], Facts(quantities=QUANTITIES, claim_words=WORDS, quoting=quoting))
        return f.context
    assert conflict("The authors report that SideSample decodes 1.7x faster.")["quoted"] == {
        f"{NOTE}#5": ["https://arxiv.org/abs/2611.02744"]}
    assert "quoted" not in conflict("在我们 8 卡机上复现：SideSample 快 1.7x")


def test_one_title_listed_under_two_known_ids_asks_which_to_cite() -> None:
    """Day 21, blind: MuxStream was listed twice (2611.04102 and 2611.04510, the same title and authors) and Jay asked
    whether they are one paper; no flag said so. Two known papers stay two items; their one title is a question.
    A short title ("Attention Sinks") may be two papers'; a title flagged already is not flagged again."""
    from pipeline.brief.verify import listed_twice
    title = "MuxStream: Multiplexing Thousands of Token Streams over a Few Gateway Connections"
    facts = Facts(known_ids={"2611.04102", "2611.04510", "2611.00001", "2611.00002"},
                  listed={"2611.04510": title, "2611.00001": "Attention Sinks", "2611.00002": "Attention Sinks"})
    card = cand("mux", title=title, arxiv_ids=["2611.04102"], sources=[entry(1)])
    [f] = listed_twice([card], facts, set())
    assert (f.rule, f.subject, f.evidence["resolved"], f.evidence["twice"]) == (
        "id-conflict", title, ["2611.04102", "2611.04510"], True)
    assert listed_twice([card], facts, {title}) == []
    # papers the doc has no use for (the bench's 2,000 generated titles repeat) raise nothing
    card.put_forward = False
    assert listed_twice([card], facts, set()) == []


def test_an_anchored_papers_name_beside_another_known_papers_id_is_an_id_conflict() -> None:
    """Day 22's week in review: "| GraphStash（2611.01963） | §2.1 | …", 2611.01963 being GraphHold, a known paper whose
    title does not carry the name, and GraphStash (2611.00384) no item of the day but anchored: which to cite, with
    arXiv's title of the other ID. A paper the doc does not anchor is not the doc's to ask."""
    from types import SimpleNamespace

    from pipeline.brief.likeness import AnchoredNames
    anchors = [SimpleNamespace(arxiv_id="2611.00384", subject="2611.00384", section="2.1", title=None,
                               label="2611.00384 GraphStash — CUDA graphs kept across restarts (anchored 2026-11-03)")]
    wrong = {"2611.01963": ("GraphHold: Persisting Captured CUDA Graphs", ["inbox/tom/wir.md#1"])}
    from pipeline.brief.verify import STORE_PLACE
    facts = Facts(known_ids={"2611.00384", "2611.01963"}, anchored_names=AnchoredNames(anchors),
                  doc_path="organized/knowledge/inference.md", miscited_elsewhere={"2611.00384": wrong})
    [f] = id_conflicts([], facts)
    assert (f.rule, f.subject) == ("id-conflict", "GraphStash")
    assert f.evidence == {"ids": {"2611.00384": ["organized/knowledge/inference.md §2.1", STORE_PLACE],
                                  "2611.01963": ["inbox/tom/wir.md#1"]}, "resolved": ["2611.00384"],
                          "anchored": "2611.00384", "titles": {"2611.01963": "GraphHold: Persisting Captured CUDA Graphs"}}
    facts.miscited_elsewhere = {"2611.09999": wrong}   # not anchored
    assert id_conflicts([], facts) == []


def test_an_anchored_name_and_another_papers_id_in_two_clauses_is_no_id_conflict() -> None:
    """"周二读完了 GraphStash，2611.01963 还没看": GraphStash read, GraphHold (2611.01963) not yet — a comma between two
    clauses ties no ID to the name; for a paper that is no item of the day only "GraphStash（2611.01963）" does."""
    from types import SimpleNamespace

    from pipeline.brief.entities import NameIndex
    from pipeline.brief.likeness import AnchoredNames
    from pipeline.brief.pool import Pool
    titles = {"2611.01963": "GraphHold: Persisting Captured CUDA Graphs"}
    named = {"graphstash": {"2611.00384": "GraphStash: CUDA Graphs Kept Across Restarts"}}
    anchors = [SimpleNamespace(arxiv_id="2611.00384", subject="2611.00384", section="2.1", title=None,
                               label="2611.00384 GraphStash — CUDA graphs kept across restarts (anchored 2026-11-03)")]
    for text, flagged in (("周二读完了 GraphStash，2611.01963 还没看", False), ("| GraphStash（2611.01963） | §2.1 |", True)):
        names = NameIndex(("than", "vs", "相比", "对比", "比"))
        names.add_text(text, "inbox/tom/wir.md#1")
        facts = Facts(known_ids={"2611.00384", "2611.01963"}, anchored_names=AnchoredNames(anchors),
                      doc_path="organized/knowledge/inference.md",
                      miscited_elsewhere=Pool().miscited_elsewhere(names, titles, named))
        assert bool(id_conflicts([], facts)) is flagged, text


def test_the_teams_own_figure_is_asked_of_its_measurer_not_of_a_paper() -> None:
    """The day-22 reader: Spark's "二期 H200 池子的 prefix cache 命中率只有 52%" (his entries alone, no paper, no page) was
    advised "find the arXiv paper"; it is the team's measurement (``context.team``). With a link or an ID, or a
    public source beside, it is not."""
    point = "这周工作日白天，二期 H200 池子的 prefix cache 命中率只有 52%，原因还没查"
    c = cand("p", title="二期 H200 池子的 prefix cache", sources=[entry(2, cred=3)], facts=["52%"], points=[point])
    [f] = unsourced_claims([c], Facts())
    assert f.context.get("team") is True and f.subject == "二期 H200 池子的 prefix cache · 52%"
    marked = replace(c, markers=["⚠"], points=[Point("⚠ " + point)])
    for other in (dict(urls=["https://monitor.example.internal/d/x"]), dict(arxiv_ids=["2611.01208"])):
        [g] = unsourced_claims([replace(marked, **other)], Facts())
        assert "team" not in g.context


def test_a_slipped_id_is_dated_where_it_was_written_not_at_every_source_of_its_item() -> None:
    """Day 23's CoDraft: Omer's heading writes 2612.07015 (the month slipped), Tom's HF entry 2611.07015; the item
    carries both. The date rule flagged 2612.07015 at Tom's entry too, which never wrote it."""
    omer = entry(2, path="inbox/omer/2026-11-09T1030-omer.md", date="2026-11-09T10:30")
    omer = replace(omer, cites=("2612.07015",))
    tom = replace(entry(4, path="inbox/tom/2026-11-09-0940-hf.md", date="2026-11-09T09:40"), cites=("2611.07015",))
    c = cand("c", title="CoDraft: Batching the Draft Passes", arxiv_ids=["2611.07015", "2612.07015"],
             sources=[tom, omer])
    assert [f.subject for f in date_inconsistencies([c], Facts())] == [
        "2612.07015 @ inbox/omer/2026-11-09T1030-omer.md#2"]
