"""The team's decision and the day-29 reading of figures, as an analyst reads them (a review of the fifteenth
sitting's third change): a method's "进队列", a condition, another paper's decision, an abbreviation, emphasis and a
link's "?" in the team's clauses; a post linked to set the item apart, a post that only mentions a paper."""
from __future__ import annotations

from pipeline.brief.decisions import team_decision
from pipeline.brief.model import Candidate, SourceRef
from pipeline.brief.rules import load_rules
from pipeline.brief.verify import Facts, number_conflicts
from tests.pipeline.brief.test_decisions import RULES, _item
from tests.pipeline.brief.test_verify_rules import QUANTITIES, WORDS, cand, entry

CARD = "organized/paper_cards/500-2611-13691.md"


def _said(text: str, kind: str = "entry") -> dict | None:
    return team_decision(_item((kind, CARD if kind == "card" else "inbox/jay/n.md", "2026-11-17T11:00", text)), RULES)


# --- decisions ---------------------------------------------------------------------------------------------------

def test_of_one_source_its_last_deciding_clause() -> None:
    """Of one source, its last deciding clause: a note that changes its mind is shown by its last word."""
    assert _said("不锚。改主意了：进队列，Jay 读正文")["text"] == "改主意了：进队列，Jay 读正文"
    assert _said("Don't anchor it yet. Changed my mind after the call: anchor it in §2.3.")["text"] == \
        "Changed my mind after the call: anchor it in §2.3"


def test_a_scheduler_that_puts_requests_in_a_queue_is_no_decision() -> None:
    """Day 29's topic is scheduling: a card describing the method ("请求先进队列") decides nothing."""
    assert _said("方法：请求先进队列，再按预测的输出长度排序。p99 TTFT 降 24%。", "card") is None
    assert _said("新请求进队列时按 deadline 排序，超时的直接丢弃") is None


def test_english_decided_words_inside_other_words_decide_nothing() -> None:
    """"don't anchor on the p50 numbers" (rely on) and "queue itself" decide nothing: phrases are whole."""
    assert _said("Don't anchor on the p50 numbers; p99 is what matters here") is None
    assert _said("The work queue itself is getting long, so I skimmed only the abstract") is None


def test_a_conditional_is_no_decision() -> None:
    """"如果不锚，…" weighs an option; "团队的决定：如果不锚，§2.3 的对比就少一篇" is not what the team decided."""
    assert _said("如果不锚，§2.3 的对比就少一篇") is None


def test_another_papers_decision_in_the_same_entry_is_not_this_items() -> None:
    """LaxRank's entry "ForeLoad 不锚；LaxRank 进队列": ForeLoad's decision is not shown under LaxRank."""
    c = Candidate("c", titles=["LaxRank: Slack-Ranked Batching"], title="LaxRank: Slack-Ranked Batching",
                  sources=[SourceRef("entry", "jay", "inbox/jay/n.md", 1, None, "2026-11-17T11:00", 4,
                                     "今天两篇调度：ForeLoad 不锚；LaxRank 进队列")])
    assert "ForeLoad" not in (team_decision(c, RULES) or {}).get("text", "")
    c.sources[0] = SourceRef("entry", "jay", "inbox/jay/n.md", 1, None, "2026-11-17T11:00", 4,
                             "今天两篇调度：LaxRank 进队列；ForeLoad 不锚")   # whichever clause of the two is read
    assert "ForeLoad" not in (team_decision(c, RULES) or {}).get("text", "")


def test_an_abbreviation_does_not_cut_the_decision() -> None:
    """A clause ends at ". ", not at an abbreviation's ("e.g. ")."""
    d = _said("Verdict: anchor it in §3.3 next to ScaleMint, e.g. as its batch-size sibling.")
    assert d is not None and "sibling" in d["text"]


def test_markdown_emphasis_is_not_cut_in_half() -> None:
    """"**结论**：不锚，不进队": the emphasis is not cut in half."""
    d = _said("- **结论**：不锚，不进队。（Tom）")
    assert d is not None and d["text"].count("**") % 2 == 0


def test_a_links_question_mark_does_not_hide_the_decision() -> None:
    """A link's "?" neither ends a clause nor asks."""
    d = _said("不锚，理由见 https://github.com/lathe-serve/lathe/issues?q=laxrank 的讨论")
    assert d is not None and "不锚" in d["text"]


# --- a linked post, a paper named by its own words ------------------------------------------------------------------

def test_a_post_linked_to_set_the_item_apart_gives_none_of_its_figures() -> None:
    """An entry of LaxRank links Lathe's router post only to say LaxRank is unlike it: the post's peak p99 TTFT
    (another system's fleet) is not LaxRank's, nor the entry's 1.2 s a misquote of it."""
    url = "https://lathe-serve.dev/blog/2.5-router"
    post = cand("post", title="Lathe 2.5: a Router for Peak Hours", sources=[SourceRef(
        "post", "lathe-blog", None, None, url, "2026-11-17", 4,
        "At peak, p99 TTFT went from 1.9 s to 0.8 s after the new router.")])
    line = (f"Unlike the Lathe router post ({url}), LaxRank reorders each batch, not the replicas.\n"
            "- p99 TTFT at peak 1.9 s → 1.2 s in the paper's replay")
    paper = cand("l", title="LaxRank: Slack-Ranked Batching", arxiv_ids=["2611.13874"], arxiv_id="2611.13874",
                 sources=[entry(1, text=line)])
    assert number_conflicts([paper, post], Facts(quantities=QUANTITIES, claim_words=WORDS)) == []


def test_a_reproduction_in_a_post_that_names_the_paper_is_no_quote() -> None:
    """"Our router follows the PredRoute paper's design. On our fleet, PredRoute cuts p99 TTFT by 31%": the post
    measures, it does not quote; its figure is no quote to correct."""
    listing = SourceRef("arxiv", "arxiv", None, None, "https://arxiv.org/abs/2610.15426", "2026-11-17", 3,
                        "PredRoute reduces p99 TTFT by 19% across 128 replicas.")
    paper = cand("p", title="PredRoute: Work-Aware Routing", arxiv_ids=["2610.15426"], arxiv_id="2610.15426",
                 sources=[listing])
    release = cand("r", title="Lathe 2.5", sources=[SourceRef(
        "post", "lathe-blog", None, None, "https://lathe-serve.dev/blog/2.5", "2026-11-17", 4,
        "Our router follows the PredRoute paper's design. On our fleet, PredRoute cuts p99 TTFT by 31%.")])
    facts = Facts(quantities=QUANTITIES, claim_words=WORDS, said_of=load_rules().said_of)
    flags = number_conflicts([paper, release], facts)
    assert all("quoted" not in f.context for f in flags)
