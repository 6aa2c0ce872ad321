"""Everyday team notes that the fourteenth sitting's rules first misread (a review's reproducers, each failing on
938eebf): key points, bullets and marks given to other papers, settling words, follow-ups, summary names, hearsay,
one paper listed twice."""
from __future__ import annotations

import pytest

from kb.records import Point
from pipeline.brief.model import Candidate, Flag, SourceRef
from pipeline.brief.rules import load_rules

RULES = load_rules()
COMPARED = tuple(__import__("tomllib").loads((__import__("tests.support.paths", fromlist=["REPO"]).REPO / "data"
                                              / "briefing.toml").read_text(encoding="utf-8"))["compared"]["words"])
JAY = "inbox/jay/2026-11-06T1130-jay.md"


# --- by_paper.cites_only_others --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, text, fact", [
    # an abstract's result sentence naming its baseline by arXiv ID
    ("arxiv", "LayerLink streams the KV cache layer by layer from prefill to decode nodes. On 8 H100 nodes it cuts "
              "p99 TTFT by 34% over Splitwise (arXiv:2311.18677).", "34%"),
    # an engineering post's one figure, the engine it builds on cited by ID
    ("post", "We put LayerLink into production last week.\nBuilt on vLLM (arXiv 2309.06180), our relay cut p99 TTFT "
             "by 41%.", "41%"),
])
def test_a_sentence_citing_a_baseline_by_id_is_still_the_items_key_point(kind: str, text: str, fact: str) -> None:
    """``cites_only_others`` dropped every sentence citing an ID that is not the item's: meant for a recap table's row
    of another paper, it also drops the sentence carrying the item's own figure when that sentence cites a
    baseline or the engine it builds on ("over Splitwise (arXiv:2311.18677)")."""
    from pipeline.brief.key_points import key_points as _points
    own = ["2610.13052"] if kind == "arxiv" else []
    c = Candidate(key="c", arxiv_ids=own, urls=[] if own else ["https://blog.example.com/relay"], texts=[text],
                  facts=[fact], sources=[SourceRef(kind, kind, text=text)])
    points = [p["text"] for p in _points(c, [])]
    assert any(fact in p for p in points), points


# --- by_paper.rows_by_paper: a bullet moved to another paper -------------------------------------------------------

@pytest.mark.parametrize("bullet", [
    "和 TierKV（2610.11305）相比，p99 TTFT 低 20%",          # the compared word after the name
    "跟 TierKV（2610.11305）比，吞吐高 1.3×",
    "1.3x throughput over TierKV (2610.11305) on 8k prompts",  # "over": the English notes' "1.9× over S-LoRA"
    "LayerLink 把 TierKV（2610.11305）的冷层接进来当二级缓存，吞吐 +18%",   # the subject by name
])
def test_a_bullet_measuring_the_subject_against_another_paper_stays_the_subjects(bullet: str) -> None:
    """Jay's entry on LayerLink (2610.13052): a bullet giving LayerLink's gain over TierKV, cited by its ID alone, is
    LayerLink's point. ``_only_other`` reads a compared word only right before the name ("比 TierKV（…）"), so "和
    TierKV（…）相比", "over TierKV (…)" and a bullet naming LayerLink by name move to TierKV's item: LayerLink's
    figure shown as TierKV's."""
    from pipeline.brief.by_paper import rows_by_paper
    point = Point(bullet)
    mine, theirs = rows_by_paper([point], "2610.13052", ("2610.11305",), COMPARED)
    assert mine == [point] and theirs == {}


def test_a_marked_bullet_moved_to_another_paper_takes_its_mark_along() -> None:
    """A ⚠ bullet citing only TierKV moves to TierKV's item (``rows_by_paper``); its mark goes with it
    (``marks_left``): LayerLink's unsourced-claim flag no longer quotes TierKV's line against LayerLink's paper."""
    from kb.text import find_markers
    from pipeline.brief.by_paper import marks_left, rows_by_paper
    own = "LayerLink（2610.13052v2）：p99 TTFT 从 −34% 改成了 −29%"
    tier = "⚠ TierKV（2610.11305v2）也挂了 v2，说吞吐到了 2.6×，没看到实验设置"
    text = f"- {own}\n- {tier}\n"
    _, theirs = rows_by_paper([Point(own), Point(tier)], "2610.13052", ("2610.11305",), COMPARED)
    assert [p.text for p in theirs["2610.11305"]] == [tier] and find_markers(tier)
    assert marks_left(text, find_markers(tier), theirs) == []
    assert marks_left(text + "- ⚠ LayerLink 的 400G 说法待核实\n", find_markers(tier), theirs) == find_markers(tier)


# --- [overlap_words] nothing: "和…已锚…不重叠" -------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "和 §3.1 已锚的几篇大部分重叠，只有调度那块不重叠",
    "和 §3.1 已锚的重叠很多，和 vLLM 不重叠",
])
def test_overlapping_the_anchored_papers_is_not_overlapping_nothing(text: str) -> None:
    """"和…已锚…不重叠" spans the commas of a clause: "overlaps most of §3.1's anchored papers, only the scheduling
    part does not" reads as "overlaps nothing anchored" (``Likeness.nothing``), which clears the item of its
    boundary question — the opposite of what the note says. Before 40272c0 it read as nothing said."""
    from pipeline.brief.likeness import likeness
    from tests.pipeline.brief.test_likeness import NAMES, WORDS, _item
    assert likeness(_item(text), NAMES, WORDS).nothing is False


# --- doc_lines.corrected_flags: [markers] settled --------------------------------------------------------------

ATTIC = (418, "number-conflict:AtticPool · TTFT", {"quantity": "TTFT", "values": {"−27%": ["a"], "19%": ["b"]},
                                                   "arxiv_ids": ["2611.04265"]})


@pytest.mark.parametrize("line", [
    "AtticPool 的 TTFT −19% 是不是写错了？",                      # a question
    "Not sure AtticPool's 19% is correct",                        # a doubt
    "AtticPool 的 TTFT 还没确定以哪个为准，−19% 是摘要的",          # "not decided yet"
    "AtticPool 卡片上我抄错了标题，TTFT −27% 那行没动",              # a slip of something else
])
def test_a_settled_word_that_settles_nothing_lists_no_flag_to_close(line: str) -> None:
    """``_names_one_figure`` takes any ``[markers] settled`` substring on a line naming the paper and one figure:
    a question ("是不是写错了？"), a doubt ("Not sure … is correct"), "还没确定以哪个为准" and a title copied wrong
    are listed under "close each once checked" as settling AtticPool's conflict."""
    from pipeline.brief.doc_lines import corrected_flags
    assert corrected_flags([("n.md#1", line)], [ATTIC], set(), RULES.correction, {}, RULES.quantities,
                           RULES.settled, RULES.unsettled) == []


# --- followups._claim_name ---------------------------------------------------------------------------------------

def _rumour(subject: str, line: str) -> dict:
    return {"kind": "unsourced-claim", "subject": subject, "context": {"aside": True}, "evidence": {"claims": [line]}}


@pytest.mark.parametrize("line, junk", [
    ("IIRC 群里有人说 decode 吞吐涨了 37%，没给链接", "IIRC"),
    ("群里贴了个截图 https://grafana.example.com/d/AbC9x 上写 37%", "AbC9x"),
    ("OOM 重启以后 decode 吞吐涨了 37%", "OOM"),
])
def test_an_unsourced_claims_summary_name_is_no_chat_word_or_url_fragment(line: str, junk: str) -> None:
    """``_claim_name`` calls the claim by the first three tokens of its line that ``coined`` accepts: every
    all-capital word of three letters (IIRC, OOM, ASAP) and any token of a URL ("AbC9x") — "#426 IIRC · 37%"."""
    from pipeline.brief.followups import flag_name
    assert junk not in flag_name(_rumour("听来的 · 37%", line))


def test_a_headings_words_that_name_the_claim_are_kept_in_its_summary_name() -> None:
    """"周六值班 · 28%" (Saturday's on-call: the day-19 reader's flag, the CHANGELOG's own example) names the claim;
    a Chinese heading has no coined name, so ``_claim_name`` replaces it with the line's metric: "MFU · 28%", which
    says neither whose figure nor when, and is the name every on-call's MFU flag would get."""
    from pipeline.brief.followups import flag_name
    assert "周六值班" in flag_name(_rumour("周六值班 · 28%", "MFU 只有 28%，没看到面板"))


# --- verify.unsourced_claims: context.team -------------------------------------------------------------------------

def test_hearsay_of_someone_elses_figure_is_not_advised_as_the_teams_own_measurement() -> None:
    """``context.team`` is set by the sources' kinds alone (entries and cards, no ID, no URL): "⚠ 听说 Tessera 的博客里
    写了 p99 TTFT 降了 40%，还没找到链接" is advised "这是团队自己的数 … 向测出它的人要看板或日志" — but nobody on the team
    measured it; the post is to be found."""
    from pipeline.brief.unsourced import unsourced_claims
    from pipeline.brief.verify import Facts
    line = "⚠ 听说 Tessera 的博客里写了 p99 TTFT 降了 40%，还没找到链接"
    c = Candidate(key="entry:n#3", title="Tessera 的长文档问答", put_forward=True, markers=["⚠"], facts=["40%"],
                  points=[Point(line)], sources=[SourceRef("entry", "spark", "inbox/spark/n.md", 3, None,
                                                           "2026-11-06T10:00", 3, line)])
    [f] = unsourced_claims([c], Facts(hearsay=RULES.hearsay))
    assert "team" not in f.context and f.context.get("aside")   # asked of whoever passed it on


# --- pool.one_paper_listed_twice -------------------------------------------------------------------------------------

TITLE = "MuxStream: Multiplexing Thousands of Token Streams over a Few Gateway Connections"


def _twice() -> Flag:
    return Flag("id-conflict", TITLE, {"ids": {"2611.04102": [], "2611.04510": []},
                                       "resolved": ["2611.04102", "2611.04510"], "twice": True})


def _paper(aid: str, *sources: SourceRef, points: tuple[Point, ...] = ()) -> Candidate:
    return Candidate(key=f"id:{aid}", arxiv_ids=[aid], title=TITLE, arxiv_id=aid, category="net-new",
                     relevance="primary", sources=[SourceRef("arxiv", "arxiv", url=f"https://arxiv.org/abs/{aid}"),
                                                   *sources], points=list(points))


def test_one_paper_listed_twice_is_one_increment_when_both_ids_are_in_the_teams_notes() -> None:
    """Tom's HF entry links 2611.04102, Jay's listing note cites 2611.04510: the flag asks which to cite, yet both
    items are team-written, ``len(written) != 1``, and the one paper stays two NET-new increments (NET-new 2,
    §4 two "new this round" rows) — the everyday case, since Tom's HF digest is a note too."""
    from pipeline.brief.pool import one_paper_listed_twice
    tom = _paper("2611.04102", SourceRef("entry", "tom", "inbox/tom/hf.md", 2, None, "2026-11-05T09:40", 4, "x"))
    jay = _paper("2611.04510", SourceRef("entry", "jay", JAY, 1, None, "2026-11-05T13:30", 4, "y"))
    relevant, shown = one_paper_listed_twice([tom, jay], [tom, jay], [_twice()])
    assert len(relevant) == 1 and len(shown) == 1
    assert set(relevant[0].arxiv_ids) == {"2611.04102", "2611.04510"}


def test_the_dropped_item_of_a_paper_listed_twice_keeps_the_teams_point_about_it() -> None:
    """The item only "public sources carry" is decided by ``not s.beside_subject``: a bullet of Omer's entry on
    another paper that ``rows_by_paper`` moved to 2611.04510 ("MuxStream 第二个号 … v2 加了 8 卡的数") makes it a
    public-only item, and dropping it drops the team's point with it: no increment shows it."""
    from pipeline.brief.pool import one_paper_listed_twice
    jay = _paper("2611.04102", SourceRef("entry", "jay", JAY, 1, None, "2026-11-05T13:30", 4, "MuxStream ..."))
    omer_point = Point("MuxStream 第二个号 2611.04510 的 v2 加了 8 卡的数，网关连接数从 4 降到 2")
    moved = SourceRef("entry", "omer", "inbox/omer/n.md", 3, None, "2026-11-05T10:30", 4, "", ("2611.04510",),
                      beside_subject=True)
    other = _paper("2611.04510", moved, points=(omer_point,))
    relevant, _ = one_paper_listed_twice([jay, other], [jay, other], [_twice()])
    assert any(omer_point in c.points for c in relevant)


# --- [markers] followup and followup_not ------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "TierKV 的 CPU 内存配置要 follow-up 一下作者，README 没写",
    "follow-up with the authors on the 8-GPU numbers",
    "Follow-up — rerun on H20 next week",
])
def test_a_follow_up_the_author_asks_for_is_still_a_to_do(line: str) -> None:
    """"a follow-up of 2610.2514" names a paper (``[markers] followup_not``); "要 follow-up 一下作者", "follow-up with
    the authors …" and "Follow-up — rerun …" are to-dos."""
    from pipeline.brief.build import _follow_ups
    c = Candidate(key="id:2610.11305", title="TierKV: Tiered KV Cache", points=[Point(line)])
    assert [u["point"] for u in _follow_ups([c], RULES)] == [line]
