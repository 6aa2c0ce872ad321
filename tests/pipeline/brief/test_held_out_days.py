"""Days 4, 5 and 6 (tests/data/day4, day5, day6), labelled blind and read since: the cases their labels showed kb
missing or raising wrongly, and which general rules now get right (docs/briefing.md, step 5). Each is stated
as what the day's briefing must say; the scores themselves are `kb eval flags` (the closing notes)."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.pipeline.brief.conftest import kb
from tests.support.days import (
    DAY4,
    DAY5,
    DAY6,
    DAY7,
    DAY8,
    DAY9,
    DAY10,
    DAY11,
    DAY12,
    DAY13,
    DAY14,
    DAY15,
    DAY16,
    DAY17,
    DAY18,
    DAY19,
    DAY20,
    DAY21,
    DAY22,
    DAY23,
    DAY24,
    DAY25,
    DAY26,
    DAY27,
    DAY28,
    DAY29,
    DAY30,
    DAY31,
    DAY32,
    DAY33,
    DAY34,
    DAY35,
    DAY36,
    DAY37,
    DAY38,
    DAY39,
    DAY40,
    DAY41,
    LABELLED,
    next_day,
    three_days,
)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def day4_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = lambda h, *args: kb(h, *args, ok=False)   # noqa: E731
    return next_day(three_days(tmp_path_factory.mktemp("day4") / "ws", run), run, 4, DAY4)


def _the_day_after(home: Path, n: int, day: str, factory: pytest.TempPathFactory) -> Path:
    """A copy of ``home`` with day ``n``'s files laid over it and its nightly run (``home`` stays the day before)."""
    copy = shutil.copytree(home, factory.mktemp(f"day{n}") / "ws")
    return next_day(copy, lambda h, *args: kb(h, *args, ok=False), n, day)


@pytest.fixture(scope="module")
def day5_home(day4_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day4_home, 5, DAY5, tmp_path_factory)


@pytest.fixture(scope="module")
def day6_home(day5_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day5_home, 6, DAY6, tmp_path_factory)


@pytest.fixture(scope="module")
def day7_home(day6_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day6_home, 7, DAY7, tmp_path_factory)


@pytest.fixture(scope="module")
def day8_home(day7_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day7_home, 8, DAY8, tmp_path_factory)


@pytest.fixture(scope="module")
def day9_home(day8_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day8_home, 9, DAY9, tmp_path_factory)


@pytest.fixture(scope="module")
def day10_home(day9_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day9_home, 10, DAY10, tmp_path_factory)


@pytest.fixture(scope="module")
def day11_home(day10_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day10_home, 11, DAY11, tmp_path_factory)


@pytest.fixture(scope="module")
def day12_home(day11_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day11_home, 12, DAY12, tmp_path_factory)


@pytest.fixture(scope="module")
def day13_home(day12_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day12_home, 13, DAY13, tmp_path_factory)


@pytest.fixture(scope="module")
def day14_home(day13_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day13_home, 14, DAY14, tmp_path_factory)


@pytest.fixture(scope="module")
def day15_home(day14_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day14_home, 15, DAY15, tmp_path_factory)


@pytest.fixture(scope="module")
def day16_home(day15_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day15_home, 16, DAY16, tmp_path_factory)


@pytest.fixture(scope="module")
def day17_home(day16_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day16_home, 17, DAY17, tmp_path_factory)


@pytest.fixture(scope="module")
def day18_home(day17_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day17_home, 18, DAY18, tmp_path_factory)


@pytest.fixture(scope="module")
def day19_home(day18_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day18_home, 19, DAY19, tmp_path_factory)


@pytest.fixture(scope="module")
def day20_home(day19_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day19_home, 20, DAY20, tmp_path_factory)


@pytest.fixture(scope="module")
def day21_home(day20_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day20_home, 21, DAY21, tmp_path_factory)


@pytest.fixture(scope="module")
def day22_home(day21_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day21_home, 22, DAY22, tmp_path_factory)


@pytest.fixture(scope="module")
def day23_home(day22_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day22_home, 23, DAY23, tmp_path_factory)


@pytest.fixture(scope="module")
def day24_home(day23_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day23_home, 24, DAY24, tmp_path_factory)


@pytest.fixture(scope="module")
def day25_home(day24_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day24_home, 25, DAY25, tmp_path_factory)


@pytest.fixture(scope="module")
def day26_home(day25_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day25_home, 26, DAY26, tmp_path_factory)


@pytest.fixture(scope="module")
def day27_home(day26_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day26_home, 27, DAY27, tmp_path_factory)


@pytest.fixture(scope="module")
def day28_home(day27_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day27_home, 28, DAY28, tmp_path_factory)


@pytest.fixture(scope="module")
def day29_home(day28_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day28_home, 29, DAY29, tmp_path_factory)


@pytest.fixture(scope="module")
def day30_home(day29_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day29_home, 30, DAY30, tmp_path_factory)


@pytest.fixture(scope="module")
def day31_home(day30_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day30_home, 31, DAY31, tmp_path_factory)


@pytest.fixture(scope="module")
def day32_home(day31_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day31_home, 32, DAY32, tmp_path_factory)


@pytest.fixture(scope="module")
def day33_home(day32_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day32_home, 33, DAY33, tmp_path_factory)


@pytest.fixture(scope="module")
def day34_home(day33_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day33_home, 34, DAY34, tmp_path_factory)


@pytest.fixture(scope="module")
def day35_home(day34_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day34_home, 35, DAY35, tmp_path_factory)


@pytest.fixture(scope="module")
def day36_home(day35_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day35_home, 36, DAY36, tmp_path_factory)


@pytest.fixture(scope="module")
def day37_home(day36_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day36_home, 37, DAY37, tmp_path_factory)


@pytest.fixture(scope="module")
def day38_home(day37_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day37_home, 38, DAY38, tmp_path_factory)


@pytest.fixture(scope="module")
def day39_home(day38_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day38_home, 39, DAY39, tmp_path_factory)


@pytest.fixture(scope="module")
def day40_home(day39_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day39_home, 40, DAY40, tmp_path_factory)


@pytest.fixture(scope="module")
def day41_home(day40_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _the_day_after(day40_home, 41, DAY41, tmp_path_factory)


def _eval(home: Path, day: str) -> dict[str, Any]:
    return json.loads(kb(home, "eval", "flags", str(LABELLED / day / "FLAGS.toml"), "--format", "json").stdout)


def _flags(home: Path, day: str, rule: str) -> dict[str, dict[str, Any]]:
    briefing = json.loads(kb(home, "brief", "--date", day, "--format", "json", "--preview").stdout)
    return {f["subject"]: f["evidence"] for f in briefing["flags"] if f["kind"] == rule}


def test_day4_the_teams_comparisons_name_the_boundary(day4_home: Path) -> None:
    """"和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事" made RepliMoE a recap, so no boundary; card 406's "和 §1.(9) 的
    TokenFlood 是同一种攻击手法" lost to kb's topics (KVShield); "it overlaps nothing anchored in §3.1" did not stop
    FormSpec ~ QuillSpec; VeilServe shared only "serving systems" with CacheSpy."""
    boundary = _flags(day4_home, DAY4, "boundary")
    assert boundary["2610.14952 ~ 2610.13544"]["said_in"] == [
        "inbox/jay/2026-10-13T0905-jay-morning-railkv-flippd-replimoe-tenantfair-spillway.md#3"]
    assert boundary["2610.15950 ~ 2608.14420"]["said_in"] == ["organized/paper_cards/406-2610-15590.md"]
    assert not [s for s in boundary if s.startswith(("2610.15577 ", "2610.16013 "))]
    result = _eval(day4_home, "day4")
    assert result["rules"]["boundary"]["found"] >= 9
    # the one flag beyond the labels: the team's "思路和 HotSwapEP / RepliMoE 一样" of vLLM's EPLB v2 post, a boundary
    # as docs/briefing.md defines it (an increment, not only a paper), which the day's labeller left unlabelled
    eplb = "blog.vllm.ai/2026/10/13/eplb-v2-online-rebalancing ~ 2610.13544"   # the post by its address
    assert [e["subject"] for e in result["extra"]] == [eplb]
    assert boundary[eplb]["said_in"] == [
        "inbox/jay/2026-10-13T1930-jay-engineering-filter-eplb-v2-slicegemm-graphpin.md#1"]


def test_day4_disputed_figures_are_pointed_to_and_a_gpu_count_is_no_measurement(day4_home: Path) -> None:
    """A reader's review of day 4: the EPLB v2 post's "24%" was the increment's headline measurement while flag
    #67 disputed it in §3 alone; "8×H20" (eight GPUs) was listed as a measurement beside "+12%"."""
    text = (day4_home / "briefings" / f"{DAY4}-inference.en.md").read_text(encoding="utf-8")
    eplb = text[text.index("· EPLB v2 in vLLM: Rebalancing Experts While Serving"):]   # its increment, by the post's title
    eplb = eplb[:eplb.index("Suggested section")]
    assert "⚠ its sources give different figures (#" in eplb and ", see section 3" in eplb
    # "思路和 HotSwapEP / RepliMoE 一样": a likeness, the boundary to read, no repeat: the post stays new
    assert "(a boundary to confirm)" not in eplb and "is to check (#" in eplb
    assert "measurements: --kv-cache-dtype, 12%" in text and "8×, 12%" not in text


def test_day5_topics_need_their_texts_and_the_doc_s_names_are_checked(day5_home: Path) -> None:
    """BootLatch, GuardLane and KeyFold shared topics with an anchored paper and nothing else; TrimCache was
    named beside GradeKV (a shared "KV cache") rather than H2O, whose heavy-hitter eviction it does; PowerCap
    written with swapped digits beside WattBatch; TideFlow's "p99 KV 传输尾延迟 38 ms" read as a system KV's."""
    boundary = _flags(day5_home, DAY5, "boundary")
    assert not [s for s in boundary if s.startswith(("2610.16833 ", "2610.16970 ", "2610.17096 "))]
    assert "2610.16614 ~ 2306.14048" in boundary and "2610.16781 ~ 2610.08694" in boundary
    [powercap] = [e for s, e in _flags(day5_home, DAY5, "id-conflict").items() if s == "PowerCap"]
    assert set(powercap["ids"]) == {"2609.24417", "2609.24471"}
    assert "organized/knowledge/inference.md §10" in powercap["ids"]["2609.24417"]
    assert any(s.startswith("TideFlow") for s in _flags(day5_home, DAY5, "number-conflict"))
    assert _eval(day5_home, "day5")["extra"] == []


def test_day6_the_teams_files_are_checked_for_ids_that_cannot_be(day6_home: Path) -> None:
    """The queue's "https://huggingface.co/papers/2600.18472 LenBait" (month 00: no queue line was read for
    IDs), Tom's "the dropout paper as 1207.05800" (five digits in 2012), card 414's "续作已经挂了 2611.01942"
    on a card of October (cards were not read for dates)."""
    impossible = _flags(day6_home, DAY6, "impossible-id")
    assert impossible["2600.18472"]["likely"] == ["2610.18472"] and "1207.05800" in impossible
    assert _flags(day6_home, DAY6, "date-inconsistency")["2611.01942 @ organized/paper_cards/414-2610-18359.md"]


def test_day7_the_teams_asides_are_checked(day7_home: Path) -> None:
    """Spark's "二期 H20 集群白天 GPU 利用率只有 41%" (no front matter: spark = 3; no ID, no link) is about no paper, so
    the classifier calls it none and nothing checked it; it is the team's claim all the same."""
    [aside] = [e for e in _flags(day7_home, DAY7, "unsourced-claim").values() if e["claims"] == ["41%"]]
    assert aside["sources"] == ["inbox/spark/2026-10-16-llm-infra-e1prep.md#4"] and aside["credibility"] == 3


def test_day8_a_card_of_the_doc_is_the_teams_word_and_a_figure_may_be_spelled(day8_home: Path) -> None:
    """FleetSize (carded `primary_topic: true`, "建议：§10") was judged none by the keyword scorer, so neither its
    boundary with RackPlan nor its queue line's swapped ID was read; "27 percent" was no figure."""
    assert "2610.21864 ~ 2610.20388" in _flags(day8_home, DAY8, "boundary")
    assert any(set(e["ids"]) == {"2610.21864", "2610.21846"} for e in _flags(day8_home, DAY8, "id-conflict").values())
    assert any("27 percent" in json.dumps(e) for e in _flags(day8_home, DAY8, "number-conflict").values())


def test_day8_the_teams_marks_and_ids_in_the_forms_it_writes_them(day8_home: Path) -> None:
    """Card 420's "⚠ 作者 README 说 vLLM 已经合进主线了" (a card's marks were not read) and a Sunday group chat's
    "DeadlineBump（arXiv：2610.19817）" (a full-width colon after arXiv tied no name to the ID)."""
    unsourced = _flags(day8_home, DAY8, "unsourced-claim")
    assert any("vLLM" in c for e in unsourced.values() for c in e["claims"])
    [ids] = [e["ids"] for s, e in _flags(day8_home, DAY8, "id-conflict").items() if s.startswith("DeadlineBump:")]
    assert set(ids) >= {"2610.19871", "2610.19817"}


def test_day8_a_marked_table_row_is_the_paper_it_names(day8_home: Path) -> None:
    """Jay's table of the weekend's figures names three papers; its row "EvenTime（2610.22108） | TTFT 多 6% | 待核实：…"
    made TwinBlock, the entry's first paper, the one flagged. The row's mark is EvenTime's."""
    marked = {s.split(":")[0]: e for s, e in _flags(day8_home, DAY8, "unsourced-claim").items()}
    assert "EvenTime" in marked and "TwinBlock" not in marked
    assert any("GPU bill" in c for c in marked["QuotaGate"]["claims"])   # a block quote's "(unverified)"
    assert marked["EvenTime"]["claims"][0].startswith("EvenTime（2610.22108） | 开了防御以后 TTFT 多 6%")


# `kb eval flags` on each labelled day as of 2026-12-06 (recall, precision): a floor, so that a rule changed for
# one day does not quietly cost another. Days 7 and 8 were blind until the fourth sitting of 2026-12-06 read them
# (day 8's blind figure: 0.56 / 0.78 with that sitting's rules, 0.48 / 0.75 with the code before it). Day 9 was
# measured at that sitting's end and not read: 0.955 / 0.913 (the code before the sitting: 0.773 / 0.895); day 10
# measured once when its rules were final, not read: 0.955 / 1.000 (before: 0.727 / 1.000). Day 11 was written blind in the
# fifth sitting, which changed no rule, and measured with them, not read: 0.864 / 1.000. The seventh sitting read days
# 7–11 (a reader's review): the team's "same as X" on a paper it made a confirmation is a boundary too (day 10
# 1.000 / 1.000, day 11 0.909 / 1.000, the others unchanged); then SnapBoot got the §2.1 Jay asked for, where
# shared words with an anchored engine paper raise a labelled decoy: day 10 1.000 / 0.957. Day 12 (blogs back) was
# written blind in the eighth sitting and measured once with the rules as they were: 0.857 / 0.947; read then: an
# abstract's "speeds up … 3.1x" and a blog's "HydraRoute lowered p99 TTFT by 21%" were no figures kb compared
# (claims.py), 0.952 / 0.952 after, days 3–11 unchanged. A reader's review of day 12 then: the team's "same as
# SnapBoot" of an engine's release post is a boundary (the rule is for increments, as docs/briefing.md has it,
# not papers only): day 12 1.000 / 0.955, and day 4's vLLM EPLB v2 post ("思路和 HotSwapEP / RepliMoE 一样") is
# flagged, which day 4's labeller did not label: day 4 0.969 / 0.969. The ninth sitting read days 6–12's extras (all
# boundaries on shared topics and words): in five of seven the team had set the item apart from an anchored paper
# ("和今早刚锚的 KVDedup 不是一回事") or said it overlaps none ("和哪篇都不重"); the team's word alone decides then: day 8
# precision 0.958, days 9, 10 and 12 1.000, no recall lost. Day 11's one other miss was Spark's "二期 p99 TTFT 到了 2.4 s"
# (a team aside): a time in seconds was no figure (`[facts] seconds`): day 11 0.955 / 1.000; a note asking for a
# section makes a paper the scorer missed the doc's (TokenToll): day 11 1.000 / 1.000. Day 13 (a Monday over the
# weekend) was written blind in the ninth sitting and measured once with that sitting's rules: 0.909 / 1.000
# (the code of its start: 0.909 / 0.952); read then: "同一个机制" says the same, and the doc's anchor line is
# compared with a new version of its paper (ToolCache v2's 33% against the line's −38%): 1.000 / 1.000. Day 14 (a
# new member's English notes, a v2 changing an anchored figure, a new subsection) was written blind at that sitting's
# end and measured once with its final rules: 0.900 / 0.900 (the code of the sitting's start: 0.850 / 0.895; the
# ElasticPD v2 conflict with the doc's line found blind); read then: a team aside the team marks 待核实 asks for a
# check whatever it measures, and "builds on X" / "extends X" set an item apart from X: 0.950 / 1.000. Day 17 (a
# Friday of the team's own files: a week's table, a reading group) was written blind in the twelfth sitting and
# measured once with that sitting's rules: 0.900 / 0.818; read then: "a repeat of", "duplicates", "说白了就是", "两条路"
# were no overlap phrases, and a week's table copying figures from the papers' abstracts was compared with nothing
# (a table row's first cell names its figures' paper; a cited paper's abstract is read): 1.000 / 0.952. Day 18 (a
# Monday's weekend backlog) was written blind after that sitting's review and measured once: 0.955 / 0.913; read
# then: a figure after "÷" ("KV memory ÷3.2") is a reduction that many times, and "not to be confused with" sets an
# item apart: 1.000 / 0.957. Day 19 (a Tuesday of blog posts, one corrected in place; KeyFold v2 read) was written
# blind in the thirteenth sitting and measured once: 0.714 / 0.833 (`learned` 0.786 / 0.917); read then: a heading's
# engine name ("vLLM：KeyFold 进了 vLLM") is no name of the paper the entry writes beside its ID, "一码事" / "同一条路"
# say a likeness and "does not repeat" / "不重复" set an item apart, a cold start is a start-up time: 1.000 / 1.000.
# Day 20 (a new member's prose notes, a v2 retitling an anchored paper, a paper on HF only) was written blind after
# those changes and measured once: 0.800 / 0.667 (`learned` the same); read then: a prose entry's sentence is what an
# unsourced figure's flag quotes, a card's text writing another ID beside its own name is an ID conflict, "各是各的"
# sets an item apart and "没有一篇和它重", "could not find anything … that does" say it overlaps nothing: 1.000 / 1.000.
# Day 21 (a reading group's minutes, one paper listed twice) was written blind after the review's fixes and measured
# once: 0.700 / 0.636; read then: a listed paper's abstract is read against another item's row naming it with its ID
# (the minutes gave AtticPool LoftKV's −27%), "换了个壳" says a repeat, "不打架" / "各管一层" set an item apart, and one
# full title the window's papers carry under two known IDs (MuxStream, submitted twice) asks which to cite: 1.000 /
# 0.833. Left: two boundaries on shared words nobody on the team drew.
# Day 22 (a week in review re-mentioning the week, its copying slips; v2s of anchored papers) was written blind after
# the thirteenth sitting and measured once: 0.857 / 0.900; read then: an anchored paper written beside another known
# paper's ID (a recap's "GraphStash（2611.01963）", GraphHold's) asks which to cite, an entry whose heading names
# nothing is the one paper its text names, "的复刻" says a repeat and "井水不犯河水" sets an item apart: 1.000 / 1.000.
# Day 23 (a Monday after a weekend: a post corrected in place, a withdrawn paper, a hand-over note) was written blind
# after days 21-22's changes and measured once: 0.947 / 0.857; read then: "a retread of" says a repeat, "八竿子打不着" /
# "apples and oranges" set an item apart, the date rule reads the IDs a source itself writes: 1.000 / 1.000.
# Day 24 (a benchmarking day: the team's tables beside papers' figures, a near-duplicate by other authors) was written
# blind after day 23's and the second review's changes and measured once: 0.933 / 0.875; read then: "换了个马甲" says
# a repeat, "风马牛不相及" / "chalk and cheese" set an item apart: 1.000 / 1.000.
# Day 25 (security of serving systems: a reading group in Chinese, a vendor's advisory, a v1 and a v2 quoted) was
# written blind after day 24 and measured once: 0.786 / 0.917; read then: a value said of the quantity after it ("adds
# 2% to p99 TTFT") once a keyword before it has its own figure, "老调重弹" a repeat, "不搭界" apart, and "NAME（ID）的…
# TTFT 多 3%" names its system: 0.929 / 1.000; then (the fifteenth sitting, before day 26 was scored) a system written with its release
# ("Lathe 2.4.3 adds about 3%", "升到 Lathe 2.4.3 以后 p99 TTFT 多了 6%"): 1.000 / 1.000.
# Day 26 (speculative decoding and quantization: bits per weight, acceptance rates, "2.3x the throughput", a mailing
# list thread quoting a paper's v1) was written blind after day 25 and measured once: 0.750 / 0.857; read then: those
# quantities and forms, a paper a quoting line names without its ID, "a different kettle of fish" and "泾渭分明": 1 / 1.
# Day 27 (MoE serving on a Friday with the team's incident post-mortem, tokens/s written "1.84k tok/s") was written
# blind after day 26 and measured once: 0.833 / 0.938; read then: "1.84k tok/s", a marked team claim with no figure,
# "不是一条道上的": 0.944 / 1.000. Left: an abstract's "cuts expert load imbalance, <an apposition>, from 3.1x to 1.3x".
# Day 28 (a Monday of long-context KV compression, the doc reorganised that morning, a paper known from its project
# page and HF only, two members disagreeing) was written blind after day 27 and a reader's review: 0.900 / 0.900; read
# then: an entry linking only a project page is the paper its heading names, "shrinks the KV cache", "天差地别", genome
# assemblers off the domain: 1 / 1.
# Day 29 (scheduling and SLO-aware serving in English shorthand and tables, two blogs, a retitled v2, a card quoting a
# figure's caption) was written blind after day 28 and a second review: 0.682 / 0.833; read then: a post an entry
# links is a place of its item's figures, "the PredRoute paper reports 24%" quotes the paper, "SLO" names no system,
# "24% lower p99 TTFT" is TTFT's, "sequel", five phrases, radiotherapy off the domain: 0.955 / 0.955. Left: "↓31% vs
# FCFS (paper) / ↓18% ours" (two places in one line), DueBatch against PieceFill on shared words.
# Day 30 (energy, cost and hardware; an anchored paper's erratum; talks quoted; mixed units) was written blind after
# day 29 and a third review: 0.864 / 0.864; read then: cost per token, "没什么两样", "两个题目", "续集", a meter
# reading in kWh: 1 / 1.
# Day 31 (PD disaggregation and KV transfer, a team reproduction table answered in the same note, Gb/s against GB/s,
# a name one letter from an anchored one) was written blind after day 30: 0.778 / 0.824; read then: concurrency,
# "a twin of", "扯不到一块", "升级版", a "TBD" filling a field: 0.944 / 1. Left: the reproduction table's row with the
# paper's and the team's value (two places in one row).
# Day 32 (attention kernels and compilers on a Friday: a microbenchmark table with two GPU columns, a release's
# changelog pasted into a note, TFLOPS and µs) was written blind after day 31: 0.750 / 0.882; read then: a release's
# figures under its changelog heading or on a line it labels, a factor "over" a named system (the abstract's figures
# over two systems are two comparisons, not a table of conditions), time per output token, "二代", "不挨边", graph
# attention networks off the domain: 0.95 / 1. Left: the table's H100 cell against the abstract's H100 figure (a
# condition in a column heading).
# Day 33 (multi-LoRA and structured-output decoding on a Monday: factors over two named systems, "respectively", a
# result in brackets, ms against s) was written blind after day 32 and the review: 0.800 / 0.727; read then: a line
# saying it measured otherwise ("卡和 batch 都不一样"), a card's later-month file name one slip with its front matter,
# "后传", "不在一个层面", "不是一家人", "找不到对家", packet processing off the domain: 0.85 / 0.944. Left: values tied to
# conditions by "respectively" (JSON against regex), a bracketed average, an adapter's swap-in time in s against ms.
# Day 34 (serving reasoning models and tensor-parallel communication on a Tuesday: one figure given for two models,
# a system's figure given to another, a figure of NVLink given to PCIe, ms written s) was written blind after day 33:
# 0.667 / 0.933 (learned 0.667 / 0.875); read then: an arXiv HTML URL is an arXiv URL, "successor", the thinking
# tokens a method saves, "旧酒新瓶", "不是一个路数", "X 不一样，不直接比": 0.857 / 1.0. Left: figures keyed by the
# hardware or model they were measured on (KnitTP's PCIe gain, ThinkMeter's two models), "PRM 打分让 TPOT 多 2.1 s".
# Read since: a value given under a condition (a model, GPU, link or load of ``[conditions]``) is compared under it
# with a line naming that condition beside its own value: KnitTP's PCIe gain, ThinkMeter's QwQ-32B saving, 0.952 /
# 1.0. Day 35 (serverless and elastic serving: cold starts, autoscaling, weight multicast, live migration) was
# written blind after day 34: 0.826 / 0.826 (learned 0.783 / 0.818) — four figures quoted under the wrong model size,
# burst level, link or GPU, which the conditions read; with day 35's words (FaaS off the domain, "不挨着") and a size
# kept in storage read as no memory figure ("对象存储上 … 1410.52817 GB", day 33's extra too): 1.0 / 1.0. Day 36
# (agentic and RAG serving) was written blind after day 35, its figures keyed by conditions of other kinds: 0.833 /
# 0.800 (learned the same); with datasets and counts as conditions, a quantity held fixed ("同样的命中率下"), a
# misquote a correction quotes ("写成"), "tpot" no keyword inside "HotpotQA", a label's plain name ("Autellix —") and
# "亦步亦趋", "各行其道": 0.958 / 0.958. Left: two marked lines on one item make one flag; the trap ScoutBench (keyword).
# Day 37 (vision-language and on-device serving), written blind after day 36's rules landed: 0.833 / 0.952 (learned
# the same); with edge devices, precisions, frames and resolutions as conditions, "不能直接对比", "临摹": 1.0 / 1.0.
# Day 38 (serving state-space and hybrid models), blind after day 37's: 0.750 / 0.900 (learned the same), its
# conditions of kinds the docs did not name; with phases, cache states, workloads and parallelism degrees as
# conditions, "time to resume", "2.5× 的 decode 吞吐", "依葫芦画瓢", "描红", "各司其职": 1.0 / 1.0.
# Day 39 (routing across models and replicas), blind after day 38's and the twentieth sitting's first readings:
# 0.640 / 0.800 (learned the same); with a quality target, a baseline, a share of the traffic, the hour and the
# prompts' language as conditions, "cost" a cost per token, "TBC", "在 … 的基础上", "影印版", an off-topic line and a
# stored size no facts, and each ID written wrong its own flag: 1.0 / 0.96. Left: the trap WayCascade (both modes).
# Then a review of those readings (test_conditions_review20.py) and a paper's marks in two files made two flags where
# they doubt two things (days 14 and 36: 1.0). Day 40 (memory offloading), blind after them: 0.680 / 0.810 (learned
# 0.680 / 0.773); with where offloaded data lives, a memory budget, two thirds, the layers' depth as conditions, "860
# decode tokens/s", "it rises by", "TBV", "脱胎于", alphaXiv links, "重制版", "楚河汉界", "蓝海": 1.0 / 1.0 (learned 0.962:
# the trap BobbinGraph). Day 41 (pipeline-parallel, multi-node), blind after them: 0.696 / 0.762 (learned 0.739 /
# 0.810); with fabrics, split orders and stage counts as conditions, "it cuts it by", an opening not past a semicolon,
# "unconfirmed", "往下做", "影分身", "隔行如隔山", "别和摘要对着比": 0.957 / 0.957. Left: SkeinEP's collectives, the trap.
FLOORS = {"day4": (DAY4, 0.96, 0.96), "day5": (DAY5, 1.0, 1.0), "day6": (DAY6, 0.96, 0.92),
          "day7": (DAY7, 0.95, 0.95), "day8": (DAY8, 0.92, 0.95), "day9": (DAY9, 0.95, 1.0),
          "day10": (DAY10, 1.0, 1.0), "day11": (DAY11, 0.95, 1.0),
          "day12": (DAY12, 1.0, 1.0), "day13": (DAY13, 1.0, 1.0),
          "day14": (DAY14, 1.0, 1.0), "day15": (DAY15, 1.0, 0.95),
          "day16": (DAY16, 0.95, 1.0), "day17": (DAY17, 1.0, 0.95),
          "day18": (DAY18, 1.0, 0.95), "day19": (DAY19, 1.0, 1.0), "day20": (DAY20, 1.0, 1.0),
          "day21": (DAY21, 1.0, 0.8), "day22": (DAY22, 1.0, 1.0), "day23": (DAY23, 1.0, 1.0),
          "day24": (DAY24, 1.0, 1.0), "day25": (DAY25, 1.0, 1.0), "day26": (DAY26, 1.0, 1.0),
          "day27": (DAY27, 0.94, 1.0), "day28": (DAY28, 1.0, 1.0),
          "day29": (DAY29, 0.95, 0.95), "day30": (DAY30, 1.0, 1.0),
          "day31": (DAY31, 0.94, 1.0), "day32": (DAY32, 0.95, 1.0),
          "day33": (DAY33, 0.9, 1.0), "day34": (DAY34, 0.95, 1.0),
          "day35": (DAY35, 1.0, 1.0), "day36": (DAY36, 1.0, 0.96),
          "day37": (DAY37, 1.0, 1.0), "day38": (DAY38, 1.0, 1.0), "day39": (DAY39, 1.0, 0.96),
          "day40": (DAY40, 1.0, 0.96), "day41": (DAY41, 0.95, 0.95)}


def test_day16_a_name_written_beside_another_papers_id_is_the_named_papers_conflict(day16_home: Path) -> None:
    """Day 16's reader: "PieceFill (2610.16059) is the chunked-prefill paper", 2610.16059 being ShallowDraft. The
    entry's item carried both IDs and ShallowDraft's title, so its id-conflict, headed "ShallowDraft", advised
    "以 2610.16139 为准": ShallowDraft given PieceFill's ID. It is PieceFill's item, anchored in §2.2 alone."""
    conflicts = _flags(day16_home, DAY16, "id-conflict")
    [piece] = [e for s, e in conflicts.items() if s.startswith("PieceFill")]
    assert piece["resolved"] == ["2610.16139"] and set(piece["titles"]) == {"2610.16059"}
    assert not [s for s in conflicts if s.startswith("ShallowDraft")]
    briefing = json.loads(kb(day16_home, "brief", "--date", DAY16, "--format", "json", "--preview").stdout)
    [item] = [i for i in briefing["increments"] + briefing["others"] if i["title"].startswith(("PieceFill", "Shallow"))]
    assert (item["arxiv_id"], item["anchored_in"]) == ("2610.16139", ["§2.2"])
    # §5's to-dos point at the flags questioning the IDs they quote
    text = (day16_home / "briefings" / f"{DAY16}-inference.md").read_text(encoding="utf-8")
    assert re.search(r"来源写的待办：PieceFill——PieceFill \(2610\.16059\).*（其中的 arXiv 号见 #\d+）\n", text)
    # "作者说多租户的 follow-up 已经挂了：arXiv:2611.05836" names a paper, asks nothing: no to-do (the day-22 reader)
    assert "follow-up 已经挂了" not in text.split("来源写的待办", 1)[-1].split("\n", 1)[0]


def test_day16_a_post_quoting_the_docs_figure_of_an_anchored_paper_brings_nothing_new(day16_home: Path) -> None:
    """Day 16's reader: the day's first increment was llm-d's October reading list, "bringing new engineering
    measurements: 34%" — LayerLink's −34%, which §2.4.1's line gives (the team's note: "和 §2.4.1 那行一致")."""
    briefing = json.loads(kb(day16_home, "brief", "--date", DAY16, "--format", "json", "--preview").stdout)
    [post] = [i for i in briefing["increments"] + briefing["others"] if i["title"] in ("llm-d 十月读的几篇", "What We Read in October: Three KV Transfer Papers and What llm-d Takes from Them")]
    assert post["category"] == "confirmation"
    assert post["why"] == [{"code": "held", "detail": "34% (LayerLink, §2.4.1)"}]
    assert briefing["density"]["net_new"] == 3


def test_day18_the_teams_words_on_repeats_sections_and_scope_decide(day18_home: Path) -> None:
    """Day 18's morning reader: three papers the team called repeats were NET-new, SkewTP went to the §2.4 of Jay's
    morning line though the afternoon card moved it ("建议：§2.1（不放 §2.4）"), and StowMoE, "out of scope for the doc",
    got a section."""
    briefing = json.loads(kb(day18_home, "brief", "--date", DAY18, "--format", "json", "--preview").stdout)
    items = {i["title"].split(":")[0]: i for i in briefing["increments"] + briefing["others"]}
    assert [items[n]["category"] for n in ("ReadyPool", "BaySwap", "DittoKV")] == ["confirmation"] * 3
    assert items["SkewTP"]["suggested_section"] == "§2.1"
    assert items["StowMoE"]["suggested_section"] is None
    # AWQ, anchored since June, is no paper of the offline store: its ID line sends the reader to no flag
    assert items["AWQ"]["resolved"] is False and items["AWQ"]["id_flagged"] is False
    text = (day18_home / "briefings" / f"{DAY18}-inference.en.md").read_text(encoding="utf-8")
    assert "[2306.00978](https://arxiv.org/abs/2306.00978) (ID not resolved yet)\n" in text
    # the reader again: BaySwap's "待确认：换入换出走的是 PCIe 还是 NVLink，实验部分没写" is a question to answer
    assert "Suggestion: an open question, not a claim: answer it from the paper (arXiv 2611.01208)" in text


def test_day18_the_paper_a_boundary_flag_names_is_listed_first(day18_home: Path) -> None:
    """The day 18 reader: RetainKV's "§2.4.1 already anchors" named HopKV, RailKV and KVCrypt while its boundary flag
    (section 3) set it against ReplayKV, anchored in the same section; so for the LoRaWAN paper and QuotaGate."""
    data = json.loads(kb(day18_home, "brief", "--date", DAY18, "--format", "json", "--preview").stdout)
    first = {i["title"].split(":")[0]: i["relation"]["same_section"][0]["subject"] for i in data["increments"]
             if i["relation"]["same_section"]}
    lorawan = next(subject for title, subject in first.items() if "LoRaWAN" in title)
    assert first["RetainKV"] == "2610.17766" and lorawan == "2610.22264"


@pytest.mark.parametrize("day", sorted(FLOORS))
def test_no_labelled_day_falls_below_its_figure(day: str, request: pytest.FixtureRequest) -> None:
    date, recall, precision = FLOORS[day]
    result = _eval(request.getfixturevalue(f"{day}_home"), day)
    assert result["date"] == date
    assert result["recall"] >= recall and result["precision"] >= precision, (result["missed"], result["extra"])


def test_day11_a_queue_line_without_an_id_is_listed_by_its_words(day11_home: Path) -> None:
    """A queue line whose ID cannot be one (2614.25873) was listed as "None 2614.25873 LastAck…" (a reader's review)."""
    text = (day11_home / "briefings" / f"{DAY11}-inference.md").read_text(encoding="utf-8")
    queue = next(line for line in text.splitlines() if line.startswith("| organized/queue/work-queue.md"))
    assert "2614.25873 LastAck" in queue and "None" not in queue


def test_day12_the_highest_value_item_is_ranked_as_the_increments_are(day12_home: Path) -> None:
    """Day 12's "highest-value item" was the Lathe 2.3 release post, a confirmation (Increment 8) whose score
    beat the NET-new papers the team wrote about: the pick ignored the tier the increments are ranked by."""
    data = json.loads(kb(day12_home, "brief", "--date", DAY12, "--preview", "--format", "json").stdout)
    top = data["top_item"]["title"]
    item = next(i for i in data["increments"] if i["title"] == top)
    assert item["category"] == "net-new" and not top.startswith("Lathe"), top


def test_day12_a_release_post_the_team_calls_an_anchored_paper_is_a_boundary_and_a_disputed_system_is_named(
        day12_home: Path) -> None:
    """Jay: "和 §2.1 的 SnapBoot 是同一件事，只是做进了引擎里" of the Lathe 2.3 post (no arXiv ID); a blog's HydraRoute
    figure against the team's: the HydraRoute increment points to its conflicting-numbers flag."""
    flags = _flags(day12_home, DAY12, "boundary")
    lathe = flags["lathe-serve.dev/blog/2026/10/23/lathe-2-3-release ~ 2610.24007"]   # by its address, not its title
    assert lathe["said_in"] == ["inbox/jay/2026-10-23T1140-jay-lathe-2-3-release.md#1"]
    data = json.loads(kb(day12_home, "brief", "--date", DAY12, "--preview", "--format", "json").stdout)
    hydra = next(i for i in data["increments"] if i["title"].startswith("HydraRoute:"))
    assert len(hydra["disputed"]) == 1 and hydra["disputed"][0].startswith("#")


def test_day12_a_flag_of_an_earlier_briefing_raised_again_is_not_counted_opened(day12_home: Path) -> None:
    """"Flags: 21 opened" counted #128 (the team's 二期集群 figures, open since day 7) as a new flag (a reader's
    review of day 12). Day 11 raises it too since its "p99 TTFT 到了 2.4 s" reads as a figure (ninth sitting): on
    day 12 it is the previous briefing's flag, carried on, neither opened nor raised again (the count of a flag
    raised again: ``test_since.py``)."""
    data = json.loads(kb(day12_home, "brief", "--date", DAY12, "--preview", "--format", "json").stdout)
    counts = data["since_previous"]["flags"]
    # Since the twelfth sitting a claim under the recurring heading is named by its figures: day 11's "2.4 s" is
    # carried, and day 12's Spark claim, 48%, is a flag of its own, counted opened (20 before)
    assert counts["again"] == 0 and counts["opened"] == 21, counts
    cluster = [f["subject"] for f in data["flags"] if f["subject"].startswith("二期集群")]
    assert cluster == ["二期集群 · 48%"]


def test_day12_the_paper_the_team_compares_an_item_with_is_listed_first(day12_home: Path) -> None:
    """"Different from TwirlQ" (FoldQ), "和 §2.2 的 EarlyQuit…没本质区别" (CutLoose): the relation list named other
    papers of the section, closest by topics, and left out the one the team had in mind (the day 12 reader)."""
    data = json.loads(kb(day12_home, "brief", "--date", DAY12, "--preview", "--format", "json").stdout)
    first = {i["title"].split(":")[0]: i["relation"]["same_section"][0]["subject"] for i in data["increments"]
             if i["relation"]["same_section"]}
    assert first["FoldQ"] == "2610.26230" and first["CutLoose"] == "2610.22903" and first["PairUp"] == "2610.26487"


def test_day13_a_paper_the_team_calls_a_repeat_is_no_net_new_paper(day13_home: Path) -> None:
    """The day 13 reader: ShelfCtx ("和今早刚锚的 PrimeCtx…基本是一回事"), BurstTell ("撞车了，是同一种侧信道") and
    the Lathe 2.3.1 post ("和 §2.2 的 EarlyQuit 是同一个机制") were 🟢 NET-new and counted in the density, while
    §3's boundary flags said the team had called them repeats."""
    data = json.loads(kb(day13_home, "brief", "--date", DAY13, "--preview", "--format", "json").stdout)
    by_name = {i["title"].split(":")[0].split("：")[0]: i for i in data["increments"]}
    for name, anchored in (("ShelfCtx", "PrimeCtx"), ("BurstTell", "SpecLeak"), ("Lathe 2.3.1", "EarlyQuit"),
                           ("TempoDraft", "PaceSpec")):   # Tom: "Nothing here beyond PaceSpec"
        item = by_name[name]
        assert item["category"] == "confirmation" and {"code": "same-as", "detail": anchored} in item["why"], item
        assert item["boundary"], "its boundary flag is pointed to"
    assert data["density"]["net_new"] == 4
    # its boundary flag's advice follows the team's word (the reader: "精读两篇原文" where the team had ruled); since
    # the day 34 reader, a repeat the team judged asks only to close the flag, quoting the team
    text = kb(day13_home, "brief", "--date", DAY13, "--preview").stdout
    shelf = text[text.index("2610.29114 ~ 2610.27459"):]
    shelf = shelf[:shelf.index("###")]
    assert shelf.count("建议：团队已判定它重复已锚的 2610.27459") == 1 and "精读两篇原文" not in shelf
    assert "团队笔记说二者相同：“" in shelf and "PrimeCtx" in shelf


def test_day13_a_monday_says_its_window_spans_the_weekend_and_an_aside_is_no_silent_note(day13_home: Path) -> None:
    """The day 13 reader: Monday's NET-new count was set against one-day windows without a word, and Spark's
    Saturday on-call note read "nothing on inference" in §1 though its "GPU 利用率只有 37%" is flag #… in §3."""
    data = json.loads(kb(day13_home, "brief", "--date", DAY13, "--preview", "--format", "json").stdout)
    assert data["density"]["days"] == 3
    text = kb(day13_home, "brief", "--date", DAY13, "--preview", "--lang", "en").stdout
    assert "Today's window spans 3 days" in text
    oncall = next(line for line in text.splitlines() if line.startswith("| inbox/spark/2026-10-24T1830"))
    assert "1 observation of the team's own, to verify (section 3)" in oncall


def test_day15_the_teams_last_word_and_a_post_corrected_without_a_date(day15_home: Path) -> None:
    """Day 15, blind 0.905 / 0.826: Jay's afternoon entry "收回早上的说法：PoolVerify 和 VerifyBatch 不是一回事" cites
    no ID and stood apart from PoolVerify, whose morning "是一回事" made a boundary; card 447's "跟 §2.5 的 TrimCache
    一模一样" was no likeness kb knew, so TideKV was set against GradeKV; "Borrows LayerLink's pipelining" (a paper
    of another section) left ShardLoad to kb's topics; and Tessera's RSS post, corrected in place with no date in
    its feed, was not in the window, so Tom's 18% was compared with nothing."""
    boundary = _flags(day15_home, DAY15, "boundary")
    assert not [s for s in boundary if s.startswith(("2610.31592 ", "2610.32751 "))]
    assert "2610.31903 ~ 2610.16614" in boundary and not [s for s in boundary if s.startswith("2610.31903 ~ 2610.15")]
    briefing = json.loads(kb(day15_home, "brief", "--date", DAY15, "--format", "json", "--preview").stdout)
    [warm] = [f for f in briefing["flags"] if f["kind"] == "number-conflict" and set(f["evidence"]["values"]) >= {
        "18%", "14%"}]
    assert warm["context"]["corrected"], warm
    pool_verify = next(i for i in briefing["increments"] + briefing["others"] if i["arxiv_id"] == "2610.31592")
    assert pool_verify["category"] == "net-new", pool_verify   # the team took its "是一回事" back


@pytest.mark.parametrize("day", sorted(FLOORS))
def test_papers_kept_as_rows_change_no_briefing(day: str, request: pytest.FixtureRequest,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The listed papers the doc has no use for are kept as rows, not judged as items (pipeline/brief/pool.py):
    each labelled day's briefing is the one that judging every paper gives, byte for byte, its counts included."""
    from datetime import date

    from pipeline.brief import inputs
    from pipeline.brief.write import briefing_data
    from pipeline.context import open_context
    ctx = open_context(str(request.getfixturevalue(f"{day}_home")), date.fromisoformat(FLOORS[day][0]), offline=True)
    try:
        assert len(inputs.load_inputs(ctx, "inference").listed) >= 10   # the day has such papers to keep
        kept = briefing_data(ctx, "inference", preview=True)
        monkeypatch.setattr(inputs, "settled_papers", lambda *_: None)   # every paper an item, as before
        assert json.dumps(kept, sort_keys=True) == json.dumps(briefing_data(ctx, "inference", preview=True),
                                                              sort_keys=True)
    finally:
        ctx.close()


def test_day19_a_post_the_team_heads_with_its_one_cited_paper_is_that_papers(day19_home: Path) -> None:
    """The day 19 reader: Tessera's "Merging Near-Duplicate Tokens for Long-Document QA", which deploys MeldKV
    (arXiv:2610.34788, anchored in §2.5 the day before) and which Jay headed "Tessera：MeldKV 上了长文档问答", was an
    item of its own, "adjacent", placed in §5, with no arXiv ID."""
    briefing = json.loads(kb(day19_home, "brief", "--date", DAY19, "--format", "json", "--preview").stdout)
    items = [i for i in briefing["increments"] + briefing["others"]
             if any("meldkv-long-doc-qa" in (s["url"] or "") for s in i["sources"])]
    assert [(i["arxiv_id"], i["category"], i["anchored_in"]) for i in items] == [("2610.34788", "confirmation",
                                                                                 ["§2.5"])]


def test_day19_the_docs_new_line_names_the_open_flags_it_settles(day19_home: Path) -> None:
    """The day 19 reader: "13 opened, 0 closed", while v328's history line ("DittoKV、ReadyPool、BaySwap、RetainKV 不锚：
    和已锚的 MeldKV、WarmStart、SwapServe、ReplayKV 重复") settles the four boundary flags day 18 raised."""
    data = json.loads(kb(day19_home, "brief", "--date", DAY19, "--format", "json", "--preview").stdout)
    named = data["since_previous"]["doc_named"]
    [line] = named["lines"]
    assert named["version"] == "v328" and line["line"].startswith("v328（Nov 3）")
    assert [f["subject"] for f in line["flags"]] == ["DittoKV ~ MeldKV", "RetainKV ~ ReplayKV", "ReadyPool ~ WarmStart",
                                                     "BaySwap ~ SwapServe"]
    text = (day19_home / "briefings" / f"{DAY19}-inference.en.md").read_text(encoding="utf-8")
    assert re.search(r"  - #\d+ DittoKV ~ MeldKV, #\d+ RetainKV ~ ReplayKV, #\d+ ReadyPool ~ WarmStart, #\d+ BaySwap ~ "
                     r"SwapServe: \"v328（Nov 3）", text)
    # and Spark's "更正周一的值班记录 … MFU 从 28% 改成 46%" beside Monday's open flag on the 28%
    [corrected] = data["since_previous"]["corrected"]
    assert [f["subject"] for f in corrected["flags"]] == ["周六值班 · 28%"] and "从 28% 改成 46%" in corrected["line"]


def test_day20_a_prose_note_and_a_cards_text_are_read_as_the_team_wrote_them(day20_home: Path) -> None:
    """Day 20, blind 0.800 / 0.667: the new member's prose note ("…told me that the next vLLM release reaches an 80%
    prefix-cache hit rate…") was flagged as a bare "80%" (no bullet to quote), and card 463's "EtherKV（2611.01828）",
    its front matter's 2611.01288 with two digits swapped, was no ID conflict."""
    flags = {(f["kind"], f["subject"]): f for f in json.loads(kb(day20_home, "brief", "--date", DAY20, "--format",
                                                                   "json", "--preview").stdout)["flags"]}
    lunch = flags[("unsourced-claim", "Something I heard at lunch · 80%")]
    assert lunch["context"]["said"] == ["At lunch on Monday someone from the platform team told me that the next vLLM "
                                        "release reaches an 80% prefix-cache hit rate once prefix caching is switched "
                                        "on."]
    ether = next(f for (kind, subject), f in flags.items() if kind == "id-conflict" and subject.startswith("EtherKV"))
    assert set(ether["evidence"]["ids"]) == {"2611.01288", "2611.01828"}


def test_day21_a_minutes_row_of_a_listed_paper_is_read_against_its_abstract(day21_home: Path) -> None:
    """Day 21, blind 0.700 / 0.636: the reading group's minutes gave AtticPool (2611.04265, in the day's listing) the
    −27% of LoftKV's row above it; AtticPool's abstract says 19%. A listed paper's abstract was read only against its
    own item's sources, never against a row of another item that names it with its ID."""
    conflicts = _flags(day21_home, DAY21, "number-conflict")
    [attic] = [e for s, e in conflicts.items() if s.startswith("AtticPool")]
    assert set(attic["values"]) == {"27%", "19%"}


def test_day22_a_recapped_anchored_paper_beside_another_papers_id_and_a_headless_rumour(day22_home: Path) -> None:
    """Day 22, blind 0.857 / 0.900: Tom's week in review wrote the anchored GraphStash with GraphHold's ID (both known
    papers: no ID the store lacks, and GraphStash no item of the day), and put a rumour about LoftKV under the heading
    "周四下午到今早新冒出来的" (an entry naming nothing in its heading, judged none and dropped)."""
    conflicts = _flags(day22_home, DAY22, "id-conflict")
    [stash] = [e for s, e in conflicts.items() if s.startswith("GraphStash")]
    assert set(stash["ids"]) == {"2611.00384", "2611.01963"} and stash["titles"]["2611.01963"].startswith("GraphHold")
    unsourced = _flags(day22_home, DAY22, "unsourced-claim")
    [loft] = [e for s, e in unsourced.items() if s.startswith("LoftKV")]
    assert loft["sources"] == ["inbox/tom/2026-11-06T1100-tom-week-in-review.md#5"] and "样品" in loft["claims"][0]


def test_day21_the_readers_flags_are_named_where_the_reader_looks(day21_home: Path) -> None:
    """The day-21 reader: DimRoute's increment said nothing of its card's ID and date flags, BranchCut's 待确认 gave no
    number, the doc's "以 2611.01288 为准" was not listed as settling EtherKV's ID conflict, Spark's dashboard for the
    H200 pool's 2.4 s not as answering day 20's unsourced flag, and LoftKV's table showed AtticPool's −27% row."""
    briefing = json.loads(kb(day21_home, "brief", "--date", DAY21, "--format", "json", "--preview").stdout)
    by_title = {i["title"].split(":")[0]: i for i in briefing["increments"]}
    assert len(by_title["DimRoute"]["ids_in_doubt"]) == 2 and by_title["BranchCut"]["unverified"]
    since = briefing["since_previous"]
    assert any(f["rule"] == "id-conflict" and f["subject"] == "EtherKV" for line in since["doc_named"]["lines"]
               for f in line["flags"])
    [sourced] = since["sourced"]
    assert [f["subject"] for f in sourced["flags"]] == ["二期 H200 池子压测 · 2.4 s"]
    assert sourced["url"].endswith("/p99-ttft")
    rows = [r[0]["text"] for p in by_title["LoftKV"]["points"] for b in p["blocks"] if b["kind"] == "table"
            for r in b["rows"][1:]]
    assert rows and not any("AtticPool" in r for r in rows)
    attic_rows = [r[0]["text"] for p in by_title["AtticPool"]["points"] for b in p["blocks"] if b["kind"] == "table"
                  for r in b["rows"][1:]]
    assert attic_rows == ["AtticPool（2611.04265）"]
    # MuxStream, submitted twice, is one increment carrying both IDs, not two NET-new papers
    mux = [i for i in briefing["increments"] + briefing["others"] if i["title"].startswith("MuxStream")]
    assert len(mux) == 1 and mux[0]["other_ids"] == ["2611.04510"]


def test_day22_the_readers_week_in_review(day22_home: Path) -> None:
    """The day-22 reader: BroadSpec, whose card says "和 §3.1 已锚的都不重叠", read as a recap ("已锚"); TiltTP, "和 §2.3
    的 SkewTP 大同小异", put forward as the day's first new paper; the recap's rows of SideSample and SplitTail shown
    under MeldKV; #338 raised again unnamed; the recap's "以摘要为准" not listed as settling AtticPool's #418."""
    briefing = json.loads(kb(day22_home, "brief", "--date", DAY22, "--format", "json", "--preview").stdout)
    items = {i["title"].split(":")[0]: i for i in briefing["increments"] + briefing["others"]}
    assert items["BroadSpec"]["category"] == "net-new" and items["TiltTP"]["category"] != "net-new"
    meld = json.dumps(items["MeldKV"]["points"], ensure_ascii=False)
    assert "SideSample" not in meld and "SplitTail" not in meld
    assert "SideSample（2611.02744）" in json.dumps(items["SideSample"]["points"], ensure_ascii=False)
    since = briefing["since_previous"]
    assert [f["subject"].split(":")[0] for f in since["raised_again"]] == ["TierKV"]
    assert any(f["subject"] == "AtticPool · TTFT" for c in since["corrected"] for f in c["flags"])


def test_day22_a_replacement_says_its_version_and_keeps_its_own_points(day22_home: Path) -> None:
    """The day-22 reader: LayerLink's and TierKV's v2 (replace entries) never said "v2", and Jay's line on TierKV's v2
    sat under LayerLink."""
    briefing = json.loads(kb(day22_home, "brief", "--date", DAY22, "--format", "json", "--preview").stdout)
    items = {i["title"].split(":")[0]: i for i in briefing["increments"]}
    assert items["LayerLink"]["replaced"] == 2 and items["TierKV"]["replaced"] == 2
    assert not any("TierKV" in p["text"] for p in items["LayerLink"]["points"])
    assert any("数还没看" in p["text"] for p in items["TierKV"]["points"])
    text = (day22_home / "briefings" / f"{DAY22}-inference.en.md").read_text(encoding="utf-8")
    assert "· v2 on the window's listing" in text


def test_day23_a_mondays_reader(day22_home: Path, day23_home: Path) -> None:
    """The day-23 reader: §4 listed Friday's continuing anchors again (a Monday's window opens on Friday), AtticPool's
    v2 (its authors' withdrawal) was "a replacement" with §2.1 suggested, and ScrollDraft and TransitKV, "a rehash of
    LoomDraft" and "HopKV 的炒冷饭", were NET-new."""
    before = json.loads(kb(day22_home, "brief", "--date", DAY22, "--format", "json", "--preview").stdout)
    briefing = json.loads(kb(day23_home, "brief", "--date", DAY23, "--format", "json", "--preview").stdout)
    friday = {a["arxiv_id"] for a in before["arxiv_ids"] if a["status"] == "continuing"}
    monday = {a["arxiv_id"] for a in briefing["arxiv_ids"] if a["status"] == "continuing"}
    assert friday and not friday & monday
    items = {i["title"].split(":")[0]: i for i in briefing["increments"] + briefing["others"]}
    assert items["AtticPool"]["withdrawn"] is True
    assert items["ScrollDraft"]["category"] != "net-new" and items["TransitKV"]["category"] != "net-new"


def test_day34_the_net_new_papers_are_the_ones_the_team_queued(day34_home: Path) -> None:
    """Day 34's reader: KnitTP was a recap ("已锚的没有一篇把 TP 的 all-reduce 拆进 GEMM" holds 已锚, a recap marker,
    inside words saying it overlaps nothing) and the MCMC keyword trap ChainSkip was NET-new. The new papers are
    those the doc's v343 queues: ThinkMeter, KnitTP, ExitProbe."""
    briefing = json.loads(kb(day34_home, "brief", "--date", DAY34, "--format", "json", "--preview").stdout)
    new = sorted(i["title"].split(":")[0] for i in briefing["increments"] if i["category"] == "net-new")
    assert new == ["ExitProbe", "KnitTP", "ThinkMeter"]
    assert not [i for i in briefing["increments"] + briefing["others"] if i["title"].startswith("ChainSkip")
                and i["category"] == "net-new"]
