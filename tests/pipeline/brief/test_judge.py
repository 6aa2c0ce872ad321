"""Judgement pieces that are pure: engineering facts, the category order of precedence, ranking."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.brief.judge import _category, engineering_facts, hold_back_known_figures
from pipeline.brief.model import Candidate, SourceRef
from pipeline.brief.ranking import rank, tier
from pipeline.brief.rules import load_rules


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def test_engineering_facts_found(rules) -> None:
    text = ("Read 模式（VLLM_MORIIO_CONNECTOR_READ_MODE=1）；启动加 --kv-transfer-config；"
            "Mooncake 44.6 GB/s，p50 104 us，TTFT 降 31%，吞吐 1.41x，升级到 v0.28.1")
    facts = engineering_facts(text, rules)
    for want in ("VLLM_MORIIO_CONNECTOR_READ_MODE=1", "--kv-transfer-config", "44.6 GB/s", "104 us", "31%", "1.41x",
                 "v0.28.1"):
        assert want in facts, (want, facts)
    assert len(facts) == len(set(facts))


def test_an_off_topic_line_and_a_stored_size_are_no_facts(rules) -> None:
    """Day 39's Omer: "路由日志目录 du 出来 1012.40957 GB" (what a disk holds) and "题外话：打印机的碳粉只剩 12%" (off the
    subject, by its author's word) are nothing of serving to check; the p99 TTFT beside them is."""
    text = "- 路由日志目录 du 出来 1012.40957 GB，先不清\n- 题外话：打印机的碳粉只剩 12%\n- 网关 p99 TTFT 1.4 s"
    assert engineering_facts(text, rules) == ["1.4 s"]
    assert engineering_facts("- 显存占用 72 GB", rules) == ["72 GB"]


def test_a_time_in_seconds_is_a_fact_a_plural_or_a_rate_is_not(rules) -> None:
    """Day 11's "二期的 p99 TTFT 到了 2.4 s" (a team aside, no source) was no figure: seconds were no unit."""
    assert engineering_facts("周二晚高峰二期的 p99 TTFT 到了 2.4 s，值班群里说的", rules) == ["2.4 s"]
    assert engineering_facts("cold start 52 s → 9 s; 30秒内恢复; took 3.5sec", rules) == ["52 s", "9 s", "30秒", "3.5sec"]
    assert engineering_facts("H20s in the 1990s, 100s of GPUs, 2 s/step, back in the 20s", rules) == []
    assert engineering_facts("cold start took 52 seconds; TTFT 3 secs", rules) == ["52 seconds", "3 secs"]


def test_a_figure_with_thousands_or_a_k_is_one_fact(rules) -> None:
    """Day 27's reader: "decode 每卡 1,200 tokens/s" was shown as "200 tokens/s"."""
    assert engineering_facts("decode 每卡 1,200 tokens/s（EP=16，H200）", rules) == ["1,200 tokens/s"]
    assert engineering_facts("每卡 1.2k tok/s，峰值 12,500.5 tokens/s", rules) == ["1.2k tok/s", "12,500.5 tokens/s"]


def test_engineering_facts_none_in_prose(rules) -> None:
    assert engineering_facts("偏架构介绍，没有新数字（邻接）；先把 routing 做对，再谈 disaggregation", rules) == []


def test_engineering_facts_ignore_urls(rules) -> None:
    text = "来源：https://github.com/NVIDIA/nccl/releases/tag/v2.28.3-1 （2026-10-06）\n- 训练侧排期会挤占 GB300 配额"
    assert engineering_facts(text, rules) == []


def _c(**kw) -> Candidate:
    c = Candidate(key=kw.pop("key", "k"), relevance=kw.pop("relevance", "primary"))
    for k, v in kw.items():
        setattr(c, k, v)
    return c


@pytest.mark.parametrize("kw,category,code", [
    ({"anchored_in": ["2.3"], "arxiv_ids": ["2609.33252"], "facts": ["2×"]}, "confirmation", "anchored"),
    ({"anchored_in": ["2.3"], "urls": ["https://x"], "facts": ["X_Y_Z=1"]}, "confirmation", "anchored"),
    ({"briefed_on": "2026-10-08", "arxiv_ids": ["2610.09701"]}, "confirmation", "briefed"),
    ({"relevance": "adjacent", "arxiv_ids": ["2610.10507"]}, "confirmation", "adjacent"),
    ({"excluded": True, "arxiv_ids": ["2610.09388"]}, "confirmation", "excluded"),
    ({"excluded": True, "relevance": "adjacent", "arxiv_ids": ["2610.09388"]}, "confirmation", "excluded"),
    ({"off_domain": ["protein"], "relevance": "adjacent", "arxiv_ids": ["2612.90002"]}, "confirmation", "off-domain"),
    ({"off_domain": ["protein"], "briefed_on": "2026-12-01", "arxiv_ids": ["2612.90002"]}, "confirmation", "briefed"),
    ({"excluded": True, "anchored_in": ["2.3"], "arxiv_ids": ["2609.33252"]}, "confirmation", "anchored"),
    ({"recap": True, "arxiv_ids": ["2609.18840"]}, "confirmation", "recap"),
    ({"recap": True, "facts": ["1.3x"]}, "confirmation", "recap"),
    ({"markers": ["⚠"], "facts": ["2×"]}, "confirmation", "unverified"),
    ({"markers": ["⚠"], "arxiv_ids": ["2610.00001"]}, "net-new", "new-paper"),
    ({"arxiv_ids": ["2610.09701"]}, "net-new", "new-paper"),
    ({"facts": ["VLLM_X_Y=1"], "url": "https://blog.example/x"}, "engineering", "facts"),
    ({"facts": ["VLLM_X_Y=1"], "sources": [SourceRef("entry", "jay", credibility=4)]}, "engineering", "facts"),
    # a figure from a ⭐⭐⭐ source with no link or ID: awaiting verification, not a new engineering fact
    ({"facts": ["+25%"], "sources": [SourceRef("entry", "spark", credibility=3)]}, "confirmation", "unsourced"),
    ({"held": ["34% (LayerLink, §2.4.1)"]}, "confirmation", "held"),
    ({}, "confirmation", "no-facts"),
])
def test_category_precedence(kw: dict, category: str, code: str) -> None:
    got, why = _category(_c(**kw))
    assert (got, why[0]["code"]) == (category, code)


def test_an_unsourced_figure_from_the_team_is_an_observation_to_verify_not_news() -> None:
    """The briefing may not count as new (density, tier 0) a figure its own unsourced-claim rule says
    nobody can check; from the team, it ranks with the observations awaiting verification."""
    team = _c(facts=["+25%"], sources=[SourceRef("entry", "spark", credibility=3)])
    team.category, _ = _category(team)
    public = _c(facts=["+25%"], sources=[SourceRef("post", "forum", credibility=3)])
    public.category, _ = _category(public)
    assert (team.unsourced, tier(team)) == (True, 1)
    assert (public.unsourced, tier(public)) == (True, 4)
    checked = _c(facts=["+25%"], sources=[SourceRef("entry", "jay", credibility=5)])
    checked.category, _ = _category(checked)
    assert (checked.unsourced, checked.category, tier(checked)) == (False, "engineering", 0)


def test_rank_puts_what_is_new_and_central_first_and_recaps_last() -> None:
    team, public = [SourceRef("entry", "jay", "inbox/n.md", 1)], [SourceRef("arxiv", "arxiv")]
    cands = [_c(key="recap", score=40.0, category="confirmation", recap=True, sources=team),
             _c(key="adj-new", relevance="adjacent", score=35.0, category="net-new", sources=team),
             _c(key="conf", score=30.0, category="confirmation", sources=team),
             _c(key="public-new", score=25.0, category="net-new", sources=public),
             _c(key="unverified", score=20.0, category="confirmation", markers=["⚠"], sources=team),
             _c(key="team-new", score=10.0, category="net-new", sources=team),
             _c(key="eng", score=5.0, category="engineering", sources=team, facts=["38%"]),
             _c(key="release", score=50.0, category="engineering", sources=team, facts=["v0.28.0"])]
    assert [tier(c) for c in cands] == [6, 3, 5, 2, 1, 0, 0, 3], "a version number alone is no measurement"
    assert [c.key for c in rank(cands, 4)] == ["eng", "team-new", "public-new", "unverified"], "by category"
    assert [c.key for c in rank(cands, 8)][-2:] == ["conf", "recap"]
    assert [c.key for c in rank(list(reversed(cands)), 8)] == [c.key for c in rank(cands, 8)], "order-independent"


@pytest.mark.parametrize("text,doc,excluded", [
    ("先放着，不进 inference", "inference", True),
    ("先放着，不进 inference", "training", False),      # said of the inference doc only
    ("不进 training，留给推理文档", "training", True),
    ("不进 training，留给推理文档", "inference", False),
    ("not for the training doc", "training", True),
    ("prefill 和 decode 分离的新数字", "inference", False),
])
def test_an_exclusion_marker_names_the_doc_it_keeps_the_item_out_of(rules, text: str, doc: str,
                                                                      excluded: bool) -> None:
    assert rules.excludes(text.lower(), doc) is excluded


def _judged(c: Candidate, rules, briefed: dict[str, str], known: set[str]) -> Candidate:
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed=briefed,
          known_ids=known, rules=rules, sections={})
    return c


TITLE = "KVCC: Deadline-Aware RDMA Congestion Control for KV Cache Transfer in Disaggregated LLM Serving"


def test_a_paper_is_briefed_by_an_earlier_items_title_only_if_that_item_had_no_id(rules) -> None:
    """A note about KVCC without an ID yesterday, the paper in today's listing: already briefed. Another
    known paper with KVCC's title yesterday (put forward by its own ID) leaves no title behind."""
    from kb.text import briefed_keys, paper_title_key, title_key
    note_item = {"arxiv_id": None, "url": "https://example.org/kvcc-talk", "title": TITLE}
    paper_item = {"arxiv_id": "2610.09305", "title": TITLE}
    assert title_key(TITLE) in briefed_keys({"increments": [note_item], "others": []})
    assert briefed_keys({"increments": [paper_item], "others": []}) == ["2610.09305", paper_title_key(TITLE)]

    def item(aid: str) -> Candidate:
        return Candidate(key=f"id:{aid}", arxiv_ids=[aid], titles=[TITLE], texts=["RDMA congestion control "
                         "for KV cache transfer between prefill and decode instances of LLM serving."],
                         sources=[SourceRef("arxiv", "arxiv", None, None, None, "2026-10-09", 3, "", (aid,))])
    briefed = {k: "2026-10-08" for k in briefed_keys({"increments": [note_item], "others": []})}
    assert _judged(item("2610.11052"), rules, briefed, {"2610.11052"}).briefed_on == "2026-10-08"
    briefed = {k: "2026-10-08" for k in briefed_keys({"increments": [paper_item], "others": []})}
    assert _judged(item("2610.11052"), rules, briefed, {"2610.11052", "2610.09305"}).briefed_on is None


def test_a_note_naming_a_briefed_paper_by_its_title_is_that_paper(rules) -> None:
    """The other way round: the paper was put forward with its ID, a later note names it by title alone."""
    from kb.text import briefed_keys
    briefed = {k: "2026-10-08" for k in briefed_keys({"increments": [{"arxiv_id": "2610.09305", "title": TITLE}],
                                                      "others": []})}
    note = Candidate(key="entry:n#1", titles=[TITLE], texts=["复读：RDMA congestion control for KV cache transfer"],
                     sources=[SourceRef("entry", "tom", "inbox/tom/n.md", 1, None, "2026-10-09", 3, "", ())])
    assert _judged(note, rules, briefed, {"2610.09305"}).briefed_on == "2026-10-08"


@pytest.mark.parametrize("text, recap", [
    ("邻接材料，和晚间 filter 的条目 5 重复，保留这里的部署细节", True),
    ("和昨天那条重复了。", True),
    ("与条目 3 重复", True),
    ("QuillSpec 省的是多分支的重复 draft", False),          # day 3: a NET-new paper's own point
    ("把长程工具调用的上下文按子任务递归组装，减少重复上下文", False),
    ("prefix cache 避免重复计算，TTFT 降 40%", False),
    ("和 §2.5 的 KeyFold 不重复。", False),                  # day 19's card: not a repeat
    ("这两篇没重复，", False), ("和条目 5 没有重复。", False), ("和 x 并无重复。", False),
])
def test_repeat_is_a_recap_only_where_the_entry_says_it_repeats(rules, text: str, recap: bool) -> None:
    """"重复" is also the technical word for redundant work, which inference papers remove: as a bare marker
    it made day 3's QuillSpec a recap ("多分支的重复 draft") instead of NET-new."""
    assert rules.is_recap(text.lower()) is recap


def test_a_card_filing_the_paper_under_other_fields_makes_it_adjacent() -> None:
    """The sample's RECAST: the card says `primary_topic: false` and tags it [agents, context-reuse], none of
    the taxonomy's topics; SlimWise's card says `primary_topic: false` with [moe, pd-disaggregation]."""
    from pipeline.brief.judge import carded_elsewhere
    from pipeline.classify.taxonomy import default_taxonomy
    taxonomy = default_taxonomy()
    recast = Candidate(key="r", card_relevance="adjacent", card_topics=["agents", "context-reuse"])
    slimwise = Candidate(key="s", card_relevance="adjacent", card_topics=["moe", "pd-disaggregation"])
    primary = Candidate(key="p", card_relevance="primary", card_topics=["agents"])
    untagged = Candidate(key="u", card_relevance="adjacent")
    assert [carded_elsewhere(c, taxonomy) for c in (recast, slimwise, primary, untagged)] == [True, False, False, False]


def _every_doc_problem() -> list[str]:
    """One of each problem the knowledge-doc parser writes (kb audit's findings)."""
    from pipeline.workspace.knowledge import parse_knowledge
    docs = [
        "version: v1 · 2026-10-09\n## §3.4 A\n- 2502.11089 x\n## §3.4 B\n- 2610.09255 y\n## §1.1 C\n## §1.(1) D\n"
        "- 2610.09701 z (anchored 2026-10-15)\n- 2610.09560 w (anchored 2026-02-30)\n## § Misc\n",
        "# kv\nversion: draft\n## §2 Cache\n",
        "# kv\nversion: v2 · Oct 09\n## §2 Cache\n",
        "# kv\n## §2 Cache\n",
    ]
    return [p for text in docs for p in parse_knowledge(text, "k.md", "k", today="2026-10-09").problems]


def test_every_doc_problem_has_its_chinese_text(rules) -> None:
    """The zh briefing's baseline line said the doc's problems in English (day 3: "line 20: §1.(1) and §1.1 …")."""
    from pipeline.brief.rules import problem_name
    problems = _every_doc_problem()
    assert len(problems) == 8, problems
    said = {p: problem_name(p, "zh", rules) for p in problems}
    assert [p for p, zh in said.items() if zh == p] == []
    assert said[next(p for p in problems if "parentheses" in p)] == "第 7 行：§1.(1) 与 §1.1（第 6 行）只差括号，是两个不同的节"
    assert problem_name("something kb says that no pattern knows", "zh", rules) == "something kb says that no pattern knows"
    assert problem_name(problems[0], "en", rules) == problems[0]


SECTIONS = {"2.1": "Engines and runtimes", "2.4": "Prefill-decode disaggregation", "2.5": "KV cache compression"}
KV_TEXT = "KV cache offloading to CPU memory for prefill-decode disaggregated LLM serving, TTFT 降 31%"


def _note(text: str, author: str = "tom", kind: str = "entry") -> Candidate:
    path = "organized/paper_cards/9-2610-00001.md" if kind == "card" else f"inbox/{author}/n.md"
    return Candidate(key="id:2610.00001", arxiv_ids=["2610.00001"], titles=["KVPark: KV Cache Offload"],
                     texts=[KV_TEXT + "\n" + text],
                     sources=[SourceRef(kind, author if kind == "entry" else "paper_cards", path,
                                        1 if kind == "entry" else None, None, "2026-10-12", 4,
                                        KV_TEXT + "\n" + text, ("2610.00001",))])


def _judge_in_sections(c: Candidate, rules) -> Candidate:
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
          known_ids={"2610.00001"}, rules=rules, sections=SECTIONS)
    return c


def test_a_note_asking_for_a_section_makes_a_paper_the_scorer_missed_the_docs(rules) -> None:
    """Day 11's TokenToll (per-tenant token buckets at admission) and day 12's PrimeCtx: the keyword scorer called
    them none, and Spark's "建议：§2.2" under it was lost with the item. A note that asks for a section of the doc
    is the team's word that the item is the doc's; not one that also keeps it out, not when the note speaks for
    another doc (``card_speaks``) or the workspace has several (a section number does not say which doc), and
    never a section the doc does not have."""
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import Classification
    from pipeline.classify.taxonomy import load_taxonomy

    def judged(text: str, speaks: bool = True, one_doc: bool = True) -> Candidate:
        c = Candidate(key="id:2610.26318", arxiv_ids=["2610.26318"], titles=["TokenToll: Per-Tenant Token Buckets"],
                      texts=[text], sources=[SourceRef("entry", "spark", "inbox/spark/n.md", 1, None, "2026-10-22",
                                                       3, text, ("2610.26318",))])
        judge(c, classify=lambda *a, **k: Classification("none", []), taxonomy=load_taxonomy(), doc="inference",
              anchors={}, briefed={}, known_ids={"2610.26318"}, rules=rules, sections=SECTIONS,
              card_speaks=lambda _: speaks, one_doc=one_doc)
        return c
    asked = judged("每个租户一个 token 桶，桶空了就排队\n建议：§2.4")
    assert (asked.relevance, asked.section, asked.category) == ("primary", "2.4", "net-new")
    assert judged("每个租户一个 token 桶").relevance == "none"
    assert judged("建议：§2.4；想了想还是不进 inference").relevance == "none"
    assert judged("建议：§2.4", speaks=False).relevance == "none"
    assert judged("建议：§9.9").relevance == "none"
    # a workspace of several docs: "moe 文档建议：§2.4" may mean the MoE doc's §2.4 (a review's case)
    assert judged("moe 文档建议：§2.4", one_doc=False).relevance == "none"


@pytest.mark.parametrize("text, kind", [("训练侧的 checkpoint 卸载，不进 inference", "entry"),
                                        ("建议：§2.1；想了想还是不进 inference", "entry"),   # the exclusion wins
                                        ("讲的是训练，别进 inference.md", "card"),
                                        # day 18's Omer and the doc's changelog (read after it was scored)
                                        ("Verdict: out of scope for the doc (one consumer GPU). Drop it.", "entry"),
                                        ("出队：单张消费级卡，不在文档范围", "entry")])
def test_an_item_the_team_keeps_out_of_the_doc_gets_no_section_and_says_who(rules, text: str, kind: str) -> None:
    """Day 3's Tom: "…和推理系统无关，不进 inference" — the briefing still suggested §1.(9) for it. An
    exclusion is honoured as a request for a section is: no section, and the item says who excluded it."""
    c = _judge_in_sections(_note(text, kind=kind), rules)
    assert c.relevance != "none" and c.section is None
    assert c.why == [{"code": "excluded",
                      "detail": "tom" if kind == "entry" else "organized/paper_cards/9-2610-00001.md"}]
    asked = _judge_in_sections(_note("建议：§2.1"), rules)
    assert asked.section == "2.1" and asked.why[0]["code"] == "new-paper"


def test_only_the_team_s_text_keeps_an_item_out_of_the_doc(rules) -> None:
    """A post or an abstract that happens to say "not for the inference doc" speaks for no one of the team."""
    c = _note("not for the inference doc", author="vllm-blog", kind="entry")
    c.sources[0] = SourceRef("post", "vllm-blog", None, None, "https://blog.example/x", "2026-10-12", 4,
                             c.sources[0].text, ())
    assert _judge_in_sections(c, rules).why[0]["code"] == "new-paper"


def test_a_paper_the_doc_anchors_stays_listed_as_anchored_whatever_its_mention_reads_like(rules) -> None:
    """Day 3's Tom noted only an anchored paper's upvotes ("… 回访 — 58▲", "没有新内容，只记票数"): the
    classifier read the entry as unrelated and the paper dropped out of the briefing, though the seed lists
    the day's mentions of anchored papers. An anchor is the team's word that the paper is the doc's."""
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy

    def mention() -> Candidate:
        text = "- 10-09 收录时是 34▲，周末涨到 58▲\n- 没有新内容，只记票数"
        return Candidate(key="id:2610.00002", arxiv_ids=["2610.00002"], titles=["Parkway 回访 — 58▲"], texts=[text],
                         sources=[SourceRef("entry", "tom", "inbox/tom/n.md", 6, None, "2026-10-12", 4, text,
                                            ("2610.00002",))])

    def judged(anchors: dict[str, list[str]]) -> Candidate:
        c = mention()
        judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors=anchors, briefed={},
              known_ids={"2610.00002"}, rules=rules, sections=SECTIONS)
        return c
    assert judged({}).relevance == "none"                     # the mention alone reads as nothing of the doc's
    c = judged({"2610.00002": ["2.1"]})
    assert (c.relevance, c.category, c.section, c.why) == ("primary", "confirmation", "2.1",
                                                          [{"code": "anchored", "detail": "§2.1"}])


def test_a_note_about_a_known_paper_is_judged_with_the_paper(rules) -> None:
    """Day 4's "BurstGuard（2610.13509）：作者回信" (a mistyped ID of a known scheduling paper, and two lines
    on the authors' reply) read as nothing of the doc's, so the item, and the ID conflict it carries, were
    dropped. A note about a known paper is about the paper: the paper's stored judgement counts."""
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import Classification, classify
    from pipeline.classify.taxonomy import load_taxonomy
    text = "- 问了作者对照口径：同样预算；我笔记里那个数抄错了\n- 作者说开源版本月底放出"

    def judged(stored: dict) -> Candidate:
        c = Candidate(key="id:2610.00009", arxiv_ids=["2610.00009", "2610.00090"], titles=["Quux（2610.00009）：作者回信"],
                      texts=[text], sources=[SourceRef("entry", "jay", "inbox/jay/n.md", 4, None, "2026-10-13", 4, text,
                                                       ("2610.00009",))])
        judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
              known_ids={"2610.00090"}, rules=rules, sections=SECTIONS, stored=stored)
        return c
    assert judged({}).relevance == "none"
    paper = Classification("primary", [])
    c = judged({"2610.00090": paper})
    assert (c.relevance, c.arxiv_id, c.category) == ("primary", "2610.00090", "net-new")
    assert judged({"2610.00009": paper}).relevance == "none"     # an ID the store does not know judges nothing


@pytest.mark.parametrize("unverified", [{"facts": ["+40%"]}, {"markers": ["待核实"]}])
def test_an_item_the_team_keeps_out_of_the_doc_ranks_last_whatever_its_figures(unverified: dict) -> None:
    """docs/briefing.md: "6 — recaps and excluded items". One with a figure nobody can check (or a ⚠ marker)
    ranked as the team's observation awaiting verification (tier 1), above public NET-new papers: it could
    be one of §2's top increments though the team wrote "不进 inference"."""
    c = Candidate("k", titles=["QuuxServe"], sources=[SourceRef("entry", "spark", path="inbox/spark/a.md", entry=1,
                                                               credibility=3)], **unverified)
    c.relevance, c.excluded, c.excluded_by = "primary", True, ["spark"]
    c.category, c.why = _category(c)
    assert c.why[0]["code"] == "excluded" and tier(c) == 6


def test_the_rules_are_parsed_once_and_again_when_the_file_changes(tmp_path, monkeypatch) -> None:
    """A night reads the rules for each doc and each language; the file is parsed again only when its bytes
    (an override's, or the shipped file's under it) changed, so an edit between two reads is always seen."""
    import pipeline.brief.rules as rules_module
    parsed = []
    read = rules_module.read_toml_resource
    monkeypatch.setattr(rules_module, "read_toml_resource", lambda *a: parsed.append(a) or read(*a))
    override = tmp_path / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True)
    override.write_text('[markers]\nrecap = ["回顾"]\nexclude = []\n', encoding="utf-8")
    first = load_rules(tmp_path)
    assert load_rules(tmp_path) is first and len(parsed) == 2   # the override, and kb's file under it
    override.write_text('[markers]\nrecap = ["recap"]\nexclude = []\n', encoding="utf-8")
    assert load_rules(tmp_path).recap == ["recap"] != first.recap
    assert load_rules() is not load_rules(tmp_path)               # the shipped rules are not the override's


def test_a_paper_the_team_calls_an_anchored_one_is_a_repeat_by_its_word_not_a_recap(rules) -> None:
    """Day 4's RepliMoE: "和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事" compares it with an anchored paper, which
    is a boundary to read; it was a recap ("同一件事") and so never reached the boundary rule. It is no NET-new
    paper either (the day 13 reader: four of seven "NET-new" were papers the team had called repeats, and the
    density counted them): a confirmation whose why names the paper, the boundary flag asking for the reading."""
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    line = "和 §2.4 今早刚锚的 HotSwapEP 几乎是同一件事：热了再复制 vs 先放副本"
    for names, recap, same in (({"hotswapep": "2610.13544"}, False, ["2610.13544"]), (None, True, [])):
        c = _note(line)
        judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
              known_ids={"2610.00001"}, rules=rules, sections=SECTIONS, anchored_names=names)
        assert (c.category, c.recap, c.same_as) == ("confirmation", recap, same)
    # not one it differs from, nor one it is only like (an extension, a variant: a boundary to read, still new; a
    # review found day 4's SpillWay, "和 MemPilot、TierKV 都重叠；SpillWay 是把 MemPilot 那一步搬到了 NVMe 层", demoted)
    for line in ("和 §2.4 的 HotSwapEP 不是一回事", "和 §2.4 的 HotSwapEP 思路类似，多了预测", "A variant of HotSwapEP"):
        c = _note(line)
        judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
              known_ids={"2610.00001"}, rules=rules, sections=SECTIONS, anchored_names={"hotswapep": "2610.13544"})
        assert (c.category, c.same_as) == ("net-new", []), line


def test_the_teams_card_of_a_paper_makes_it_the_docs_whatever_the_scorer_says(rules) -> None:
    """Day 8's FleetSize ("Sizing GPU Fleets for LLM Serving …"): no topic reached its threshold, so the keyword
    scorer called it none, though the team carded it (`primary_topic: true`, "建议：§10"). The team's card for the
    doc is its word, as an anchor is; a card holding another paper's text under this ID (day 5's UniPool under
    PoolDB's ID) is not, nor is a card that speaks for another doc, nor one saying the paper is another field's
    (`primary_topic: false`: the sample's agent and RAG papers stay out)."""
    from pipeline.brief.judge import KnownTitles, judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    own = "PoolDB: Buffer Pools for Cloud Databases"

    def judged(card_title: str, speaks: bool = True, card: str = "primary", text: str = "按卡数算。建议：§10。",
               topics: tuple[str, ...] = ("capacity-planning", "cost-energy")) -> str:
        c = Candidate(key="id:2610.21864", arxiv_ids=["2610.21864"], titles=[card_title], texts=[text],
                      sources=[SourceRef("card", "paper_cards", "organized/paper_cards/422-2610-21864.md",
                                         credibility=4, text=text)],
                      card_relevance=card, card_title=card_title, card_topics=list(topics))
        judge(c, classify=classify, taxonomy=load_taxonomy(), doc="inference", anchors={}, briefed={},
              known_ids={"2610.21864"}, rules=rules, sections={"10": "Capacity and cost"},
              card_speaks=lambda _: speaks, known_titles=KnownTitles({"2610.21864": own}, []))
        return c.relevance
    assert judged(own) == "primary" and judged("Sizing GPU fleets with queueing networks") == "primary"
    assert judged("Pool-DB: Buffer Pools for Cloud Databases") == "primary"   # the name written another way
    assert judged("UniPool: One Paged Pool for KV Cache and LoRA Adapters") == "none"
    assert judged(own, speaks=False) == "none" and judged(own, card="adjacent") == "none"
    # a card of an agents, a RAG or an MoE paper, for another doc: no topic of it maps to this doc's sections,
    # whatever section number it asks for (the docs share one taxonomy)
    assert judged(own, text="工具学习的新做法。", topics=("agents", "tool-use")) == "none"
    assert judged(own, text="多跳检索。建议：§10。", topics=("rag", "retrieval")) == "none"
    assert judged(own, text="专家并行的新做法。", topics=("moe",)) == "none"
    assert judged(own, text="工具学习的新做法。", topics=("agents", "cost-energy")) == "primary"


def test_a_team_aside_it_marks_to_verify_is_checked_whatever_it_measures(rules) -> None:
    """Day 14's Spark: "待核实：二期 H20 节点的 NVLink 实测带宽只有标称的 60%，是运维口头说的" — a bandwidth, which a
    home line has as well, so without a word of serving it was no aside; the team's own marker asks for the check."""
    from pipeline.brief.judge import is_aside
    from pipeline.classify.taxonomy import load_taxonomy

    def aside(text: str, markers: list[str]) -> bool:
        c = Candidate("entry:inbox/spark/n.md#3", sources=[SourceRef("entry", "spark", "inbox/spark/n.md", 3,
                                                                     credibility=3, text=text)], markers=markers)
        return is_aside(c, text, rules, load_taxonomy(), "inference")
    assert aside("待核实：二期 H20 节点的 NVLink 实测带宽只有标称的 60%，是运维口头说的", ["待核实"])
    assert not aside("家里宽带只有标称的 60%", [])                         # no marker, no word of serving
    assert not aside("待核实：下周二开会", ["待核实"])                       # a marker, no figure
    # a claim about the team's serving it marks, with no figure (day 27's "供应商的人私下说 … 有已知 bug"): checked
    # when its marked line speaks of serving; not a presenter still to find under a line on GPU nodes (day 25)
    assert aside("⚠ 听说 H20 上 FP8 KV cache 有精度问题，待核实", ["⚠", "待核实"])
    assert aside("⚠ 供应商的人私下说 2.4.3 的在线重排在 EP 大于 16 时有已知 bug，待核实", ["⚠", "待核实"])
    assert not aside("待确认：周三读书会换到 3 楼小会议室", ["待确认"])
    assert not aside("漏洞扫描覆盖了内网主机，剩下的是 GPU 节点的 BMC\n下期读书会主讲 TBD", ["TBD"])


def _post(text: str, rules) -> Candidate:
    c = _c(url="https://llm-d.ai/blog/october", sources=[SourceRef("post", "llm-d", text=text, credibility=5)])
    c.facts = engineering_facts(text, rules)
    c.category, c.why = _category(c)
    return c


@pytest.mark.parametrize("text,held,kept", [
    # day 16's llm-d reading list: LayerLink's figure is the one §2.4.1's line gives (as a reduction, −34%)
    ("LayerLink lowers p99 TTFT by 34%, and our connector follows it.", ["34% (LayerLink, §2.4.1)"], []),
    # a figure of its own stays: the item is still engineering, by that one
    ("LayerLink lowers p99 TTFT by 34%; our connector reaches 46.1 GB/s.", ["34% (LayerLink, §2.4.1)"],
     ["46.1 GB/s"]),
    # another value of the paper's is no repeat of the line (a conflict for the number rule, not held back)
    ("LayerLink lowers p99 TTFT by 29% in our runs.", [], ["29%"]),
    # the same figure of another system, or of nothing named, is the post's own
    ("HopKV lowers p99 TTFT by 34%.", [], ["34%"]),
    ("Our connector lowers p99 TTFT by 34%.", [], ["34%"]),
    # the other way: a rise is no repeat of the line's reduction (a review's case)
    ("LayerLink raises p99 TTFT by +34% under bursty load.", [], ["34%"]),
    # the same figure also written of the post's own system stays the post's (a review's case)
    ("LayerLink lowers p99 TTFT by 34%. Our connector raises decode throughput by 34%.", [], ["34%"]),
])
def test_an_engineering_items_figures_the_doc_gives_already_are_not_new(rules, text, held, kept) -> None:
    """Day 16's reader: the top increment, a post "bringing new engineering measurements: 34%", quoted the figure of
    LayerLink's paper that the doc's own line holds ("LayerLink 的 −34% 和 §2.4.1 那行一致", the team's note)."""
    from pipeline.brief.facts import Facts
    lines = {"2610.13052": [("knowledge doc §2.4.1", "2610.13052 LayerLink: layer-pipelined KV transfer, "
                                                     "p99 TTFT −34%（anchored 2026-10-13）")]}
    names = {"layerlink": "2610.13052", "2610.13052": "2610.13052"}
    c = _post(text, rules)
    assert c.category == "engineering"
    hold_back_known_figures(c, rules, Facts(quantities=rules.quantities, said_of=rules.said_of,
                                            claim_words=rules.claim_words).read_claims, lines, names)
    assert (c.held, c.facts) == (held, kept)
    assert c.category == ("engineering" if kept else "confirmation")
    if not kept:
        assert c.why == [{"code": "held", "detail": "34% (LayerLink, §2.4.1)"}]


def test_the_teams_last_word_on_a_section_wins_and_a_refused_section_is_never_stated(rules) -> None:
    """Day 18's reader: Jay's morning "→ §2.4" and the afternoon card's "早上看走眼了 … 建议：§2.1（不放 §2.4）": the
    briefing suggested §2.4. The latest source speaks last, and a section a line of the team's refuses is asked by
    none of its other lines."""
    c = _note("第一眼像 §2.4 的那篇，先不判 → §2.4")
    c.sources.append(SourceRef("card", "paper_cards", "organized/paper_cards/9-2610-00001.md", None, None,
                               "2026-10-12T16:10", 4, KV_TEXT + "\n早上看走眼了。建议：§2.1（不放 §2.4）", ("2610.00001",)))
    assert _judge_in_sections(c, rules).section == "2.1"
    late = _note("先放 §2.4 吧")
    late.sources[0] = replace(late.sources[0], date="2026-10-12T18:00")
    late.sources.append(SourceRef("card", "paper_cards", "organized/paper_cards/9-2610-00001.md", None, None,
                                  "2026-10-12T16:10", 4, KV_TEXT + "\n建议：§2.1", ("2610.00001",)))
    assert _judge_in_sections(late, rules).section == "2.4"   # the note written after the card has the last word
    back = _note("别放 §2.4，先看看")   # refused in the morning, asked for in the afternoon: the afternoon's word
    back.sources.append(SourceRef("card", "paper_cards", "organized/paper_cards/9-2610-00001.md", None, None,
                                  "2026-10-12T16:10", 4, KV_TEXT + "\n读完了，建议：§2.4", ("2610.00001",)))
    assert _judge_in_sections(back, rules).section == "2.4"
    only = _note("→ §2.4")   # a later line that only refuses: the earlier request is taken back, kb suggests
    only.sources.append(SourceRef("card", "paper_cards", "organized/paper_cards/9-2610-00001.md", None, None,
                                  "2026-10-12T16:10", 4, KV_TEXT + "\n不放 §2.4", ("2610.00001",)))
    assert _judge_in_sections(only, rules).section != "2.4"

