"""What the team's own lines say an item is like (pipeline.brief.likeness): clauses, names, verdicts."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from pipeline.brief.likeness import (
    AnchoredNames,
    Likeness,
    OverlapWords,
    anchored_names,
    clauses,
    likeness,
    named_in,
    without_comparisons,
)
from pipeline.brief.model import Candidate, SourceRef
from pipeline.brief.rules import load_rules

WORDS = load_rules().overlap_words
NAMES = {"layerlink": "2610.13052", "kvcc": "2610.10011", "hotswapep": "2610.13544", "expertlane": "2610.09255",
         "2610.09255": "2610.09255", "tokenflood": "2608.14420"}


def _item(*texts: str, kind: str = "entry", beside: bool = False, ids: tuple[str, ...] = ("2610.14952",)) -> Candidate:
    sources = [SourceRef(kind, "jay", f"inbox/jay/n{i}.md", i if kind == "entry" else None, None, "2026-10-13", 5,
                         t, ids, beside_subject=beside) for i, t in enumerate(texts, 1)]
    return Candidate(key=f"id:{ids[0]}", arxiv_ids=list(ids), titles=["RepliMoE: Forecast-Driven Replication"],
                     sources=sources)


def test_one_clause_per_statement_commas_inside() -> None:
    line = "和 §2.1 的 MemPilot（预测 + 预取，HBM ↔ CPU）、TierKV 都重叠；SpillWay 是搬到 NVMe。It is new. Really?"
    assert clauses(line) == ["和 §2.1 的 MemPilot（预测 + 预取，HBM ↔ CPU）、TierKV 都重叠", "SpillWay 是搬到 NVMe",
                             "It is new.", "Really?"]


def test_names_and_ids_in_the_order_written_each_once() -> None:
    assert named_in("ExpertLane 和 HotSwapEP（2610.09255 即 ExpertLane）", NAMES) == ["2610.09255", "2610.13544"]
    assert named_in("Expertlanes, 2610.092551, 12610.09255, 2610.09255.3", NAMES) == [], "a name or ID inside another"
    assert named_in("arXiv:2610.09255v2 即 expertlane", NAMES) == ["2610.09255"]
    assert named_in("the same idea as 2610.09255.", NAMES) == ["2610.09255"], "a sentence ends after it"


@pytest.mark.parametrize("clause, verdict", [
    ("和 hotswapep 几乎是同一件事", "same"), ("思路和 hotswapep / replimoe 一样", "same"),
    ("compared with chunkquant in §2.5: same idea", "same"), ("和 kvcc 的拥塞控制不冲突", "different"),
    ("和 hotswapep 不重叠", "different"), ("和 hotswapep、expertlane 都重叠", "same"),
    ("so it overlaps nothing anchored in §3.1", "nothing"), ("权重拷贝和 decode 重叠", None),   # pipelining
    ("kv transfer overlaps compute", None), ("一样快", None),
    # day 12's ways of saying it (read after it was scored)
    ("和今早刚锚的 blocksieve 换汤不换药", "same"), ("和 §2.2 的 earlyquit 没本质区别", "same"),
    ("basically adaptroute again, which we anchored this morning", "same"), ("again and again", None),
    # day 17's (read after it was scored), and the everyday words beside them that say nothing of a likeness
    ("not a repeat of kvdedup (2610.19302)", "different"), ("a repeat of kvdedup", "same"),
    ("说白了就是 §3.5 的 hotswapep", "same"), ("和 §3.3 的 flashpd 是两条路", "different"),
    ("kvdedup finds duplicates across requests", None), ("hopkv duplicates hot prefixes on every node", None),
    ("the cache repeats the prefix of each request", None),
    # day 18's (read after it was scored); a name one must not mix up is no comparison of what the papers do (day 4)
    ("not to be confused with snapboot (2610.24007): snapboot checkpoints the engine", "different"),
    ("名字别和 §3.3 的 flashpd（2610.11842）搞混，那是 attention kernel", None),
    # and its morning reader's
    ("基本照搬了 §2.4 的 warmstart", "same"), ("读完了：本质上就是 §2.2 的 swapserve", "same"),
    ("dittokv is meldkv under another name", "same"), ("和 §2.4 的 decodedrain 各管一摊", "different"),
    # day 19's (read after it was scored 0.714 / 0.833)
    ("和今早刚锚的 graphstash 是一码事", "same"), ("和 §2.4.1 的 hopkv 走的同一条路，只是在 llm-d 里重做了一遍", "same"),
    ("和 graphstash 不是一码事", "different"), ("it does not repeat keyfold (2610.16833)", "different"),
    ("和 §2.5 的 keyfold 不重复：keyfold 压 key", "different"),
    # and day 17's reader's
    ("和 §10 的 wattbatch 一个套路，多出来的功率模型算细节", "same"),
    # day 20's (read after it was scored 0.800 / 0.667)
    ("和 §2.4 的 localfill 各是各的：localfill 是把整条短 prompt 留在 decode 节点上算", "different"),
    ("§2.4.1 的几篇全是走 rdma 或 nvlink 的，没有一篇和它重", "nothing"),
    ("i could not find anything in §2.1 that does this", "nothing"),
    # the review's: everyday prose the new phrases must not read
    ("作者在 vllm 上把 layerlink 重做了一遍当 baseline，吞吐高 1.8×", None), ("沿用 layerlink 的流水线，跨层不重复传输 kv", None),
    # day 20's reader's
    ("fithand 跟 §2.4 的 pairup 是一个模子刻出来的", "same"), ("peakgate is gaugelong's admission test all over again", "same"),
    # day 21's (read after it was scored 0.700 / 0.636)
    ("mentordraft 就是 drafttutor 换了个壳，不建卡、不锚", "same"), ("tierkv 是把 block 搬回 hbm 再算，loftkv 不搬，两篇不打架", "different"),
    ("和 §2.1 的 skewtp 各管一层", "different"),
    # day 27's reader: apart from every anchored paper is overlapping nothing (the card's "已锚" read as a recap)
    ("和 §3.5 已锚的哪一篇都差着十万八千里，§3.5 里还没有做 micro-batch 切分的", "nothing"),
    ("和 §3.5 的 replimoe（2610.14925）不是一条道上的", "different"),
    # day 28's (read after it was scored 0.900 / 0.900)
    ("和 §2.5 的 keyfold 天差地别：keyfold 要学一个低秩投影", "different"),
    # day 29's (read after it was scored 0.682 / 0.833)
    ("forload 就是 §2.3 的 loadlens 换了身行头", "same"), ("lathe 2.5's router is §2.3's predroute in all but name", "same"),
    ("a different beast from §2.2's quotagate", "different"), ("§2.2 里找不到它的亲戚", "nothing"),
    # day 30's (read after it was scored 0.864 / 0.864)
    ("capslide 跟 §10 的 wattbatch 没什么两样", "same"), ("genmatch 和 §10 的 spotcost 压根是两个题目", "different"),
    # day 31's (read after it was scored 0.778 / 0.824)
    ("tailkv is a twin of §2.4.1's kvcc (2610.08694)", "same"), ("loanhbm 和 §2.4 的 localfill 扯不到一块", "different"),
    # day 32's (read after it was scored 0.750 / 0.882)
    ("jagpage 和 §3.3 的 slicedecode（2610.35456）不挨边", "different"), ("veloattn 在 §3.3 里是独一份", "nothing"),
    # day 33's (read after it was scored 0.800 / 0.727)
    ("hivelora 和 §2.1 的 twinpage 不在一个层面", "different"), ("schemaleap 和 §3.1 的 loomdraft 不是一家人", "different"),
    ("gramjet 在文档里找不到对家", "nothing"),
    # day 34's (read after it was scored 0.667 / 0.933)
    ("prunefan 就是 §2.2 cutbranch 的旧酒新瓶", "same"), ("prunefan 是 cutbranch 的新瓶装旧酒", "same"),
    ("和 cutbranch 不重复", "different"), ("exitfast 和 cutbranch 不是一个路数", "different"),
    ("exitfast 在文档里没有先例", "nothing"), ("已锚的没有一篇把 kv 搬进 nic", "nothing"),
    # 重复 in its everyday sense beside a named paper is no likeness (the review of day 34's first words)
    ("和 §2.1 的 layerlink 相比，省掉了重复计算", None), ("跟 layerlink 比，重复请求多的时候 ttft 低 40%", None),
    ("和 layerlink 的数对不上，我们重复跑了三遍", None),
    # day 36's (read after it was scored 0.833 / 0.800)
    ("keeptail 对 §2.2 的 parkpool 亦步亦趋", "same"), ("keeptail 就是 parkpool 的翻唱", "same"),
    ("planrun 和 §1.(1) 的 orbix 各行其道", "different"),
    # day 37's (read after it was scored 0.833 / 0.952)
    ("stonerun 就是在临摹 §1.(1) 的 edgepilot", "same"), ("glintcut 是 glancekit 的高仿", "same"),
    ("lenskit 和 disco 桥归桥，路归路", "different"), ("framekit 这块在文档里是处女地", "nothing"),
    # day 38's (read after it was scored 0.750 / 0.900)
    ("napstate 是照着 §2.2 的 parkkv 依葫芦画瓢", "same"), ("flakemask 就是在给 §3.4 的 blocksieve 描红", "same"),
    ("stepcache 和 §2.1 的 sglang 各司其职", "different"),
    # day 39's (read after it was scored 0.640 / 0.800)
    ("flockkv 就是 §2.3 hydraroute 的影印版", "same"), ("sunshift 是 §2.3 zoneroute 的山寨版", "same"),
    ("caplift 和 §2.3 的 router 大相径庭", "different"), ("tonguetier 这块在文档里还得开荒", "nothing"),
    # day 40's (read after it was scored 0.680 / 0.810)
    ("burrowkv 就是 §2.1 tierkv 的重制版", "same"), ("foremoe 是 glidemoe 的复制品", "same"),
    ("berthkv 和 §2.1 的 mempilot 楚河汉界", "different"),
    ("sluicelm and flumeload (§2.1) are a whole other ballgame", "different"),
    ("hearthkv 在文档里是块蓝海", "nothing"),
    ("flockkv 在每个节点放一份 prefixmap 索引的复制品", None),   # a copy, literally: no likeness
    # day 41's (read after it was scored 0.696 / 0.762)
    ("sergecp 就是 §5 ringfold 的影分身", "same"), ("skeinep is a facsimile of skima2a", "same"),
    ("trestlepipe 和 sarathi-serve 隔行如隔山", "different"), ("clewreduce and railkv are miles apart", "different"),
    ("gantrylm 在文档里是块空白地带", "nothing")])
def test_a_clause_says_same_different_or_nothing(clause: str, verdict: str | None) -> None:
    assert WORDS.verdict(clause) == verdict


@pytest.mark.parametrize("clause, repeats", [("a repeat of kvdedup", True), ("it is a duplicate of hopkv", True),
                                             ("说白了就是 §3.5 的 hotswapep", False), ("基本照搬了 §2.4 的 warmstart", True),
                                             ("dittokv is meldkv under another name", True),
                                             ("和今早刚锚的 graphstash 是一码事", True),
                                             ("和 §2.4.1 的 hopkv 走的同一条路", False),
                                             ("fithand 跟 §2.4 的 pairup 是一个模子刻出来的", True)])
def test_a_repeat_is_said_by_its_own_phrases(clause: str, repeats: bool) -> None:
    """"A repeat of X" says the item repeats X (a confirmation); "说白了就是 X" that it is like X, still new."""
    assert (WORDS.repeats.verdict(clause) == "same") is repeats


def test_the_teams_likeness_across_entries_and_cards() -> None:
    said = likeness(_item("基本就是 LayerLink 的多网卡版：流水切分一样，多出来的是条带化；和 KVCC 的拥塞控制不冲突",
                          "和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事（ExpertLane 也复制热 expert）"), NAMES, WORDS)
    assert said == Likeness(same=["2610.13052", "2610.13544", "2610.09255"],
                            said_in=["inbox/jay/n1.md#1", "inbox/jay/n2.md#2"], different={"2610.10011"})
    card = likeness(_item("和 §1.(9) 的 TokenFlood 是同一种攻击手法", kind="card"), NAMES, WORDS)
    assert card.same == ["2608.14420"] and card.said_in == ["inbox/jay/n1.md"]
    assert likeness(_item("It overlaps nothing anchored in §3.1 beyond being speculative decoding"),
                    NAMES, WORDS).nothing


def test_only_the_items_own_lines_speak() -> None:
    """A note that cites the item beside its own subject speaks of that subject; the item's own name is no other paper."""
    assert likeness(_item("思路和 HotSwapEP 一样", beside=True), NAMES, WORDS) == Likeness()
    assert likeness(_item("和 HotSwapEP 是同一件事", ids=("2610.13544",)), NAMES, WORDS) == Likeness()
    assert likeness(_item("和 HotSwapEP 是同一件事"), {}, WORDS) == Likeness()
    assert likeness(_item("和 HotSwapEP 是同一件事"), NAMES, OverlapWords()) == Likeness()


def test_a_comparison_is_no_recap_a_repeat_still_is() -> None:
    compared = "- 和 §3.5 今早刚锚的 HotSwapEP 几乎是同一件事：热了再复制 vs 预测了先复制\n- → §3.5"
    assert not load_rules().is_recap(without_comparisons(compared, NAMES, ["2610.14952"], WORDS).lower())
    repeat = "与条目 2 的 AWS 集成路径是同一件事，这里是操作手册版"     # the sample day's recap: no paper named
    assert without_comparisons(repeat, NAMES, ["2610.14952"], WORDS) == repeat
    own = "和 HotSwapEP 是同一件事"    # the item's own name: it repeats itself
    assert without_comparisons(own, NAMES, ["2610.13544"], WORDS) == own


def test_anchored_names_from_titles_labels_and_ids() -> None:
    anchors = [SimpleNamespace(arxiv_id="2610.13544", subject="2610.13544", title="HotSwapEP: Online Expert Replication",
                               label="2610.13544 HotSwapEP — online replication"),
               SimpleNamespace(arxiv_id="2401.15077", subject="2401.15077", title=None, label="2401.15077 EAGLE — drafting"),
               SimpleNamespace(arxiv_id="2406.16858", subject="2406.16858", title=None, label="2406.16858 EAGLE — trees"),
               SimpleNamespace(arxiv_id=None, subject="https://blog.example/x", title=None, label="SGLang — blog")]
    assert anchored_names(anchors) == {"2610.13544": "2610.13544", "hotswapep": "2610.13544",
                                       "2401.15077": "2401.15077", "2406.16858": "2406.16858"}, \
        "a name two anchored papers share names neither; a post is no paper"


def test_a_labels_one_word_before_its_dash_names_the_paper_as_written() -> None:
    """"2502.13965 Orbix — program-level scheduling": the team calls the paper Orbix though the word is not coined (no
    inner capital), so a note comparing with "Orbix" names it; a plain word names it only as written ("Lathe's router"
    is no "Router — learned request router"), and a label's plain word before no dash names nothing."""
    anchors = [SimpleNamespace(arxiv_id="2502.13965", subject="2502.13965", title=None,
                               label="2502.13965 Orbix — program-level scheduling for agent workloads"),
               SimpleNamespace(arxiv_id="2609.27731", subject="2609.27731", title=None,
                               label="2609.27731 Router — learned cross-model request router"),
               SimpleNamespace(arxiv_id="2502.20001", subject="2502.20001", title=None, label="2502.20001 Scheduling agents")]
    names = anchored_names(anchors)
    assert names == {"2502.13965": "2502.13965", "Orbix": "2502.13965", "2609.27731": "2609.27731",
                     "Router": "2609.27731", "2502.20001": "2502.20001"}
    assert named_in("planrun 和 §1.(1) 的 Orbix 各行其道", names) == ["2502.13965"]
    assert named_in("Lathe 2.5's router is §2.3's PredRoute in all but name", names) == []


def test_overlap_words_refuse_an_empty_phrase(tmp_path) -> None:
    from kb.errors import ConfigError
    override = tmp_path / ".kb" / "overrides" / "data"
    override.mkdir(parents=True)
    for bad in ('same = [" "]', 'nothing = ["…"]'):
        (override / "briefing.toml").write_text(f"[overlap_words]\n{bad}\n", encoding="utf-8")
        with pytest.raises(ConfigError, match=r"\[overlap_words\]: an empty word"):
            load_rules(tmp_path)


@pytest.mark.parametrize("clause", [
    "hotswapep makes the same assumption about expert popularity",    # "same as" inside "same assumption"
    "dissimilar to hotswapep", "unlikely to matter for hotswapep"])
def test_an_english_phrase_is_read_as_whole_words(clause: str) -> None:
    """"same as" is not the start of "same assumption", "similar to" not the end of "dissimilar to", nor
    "unlike" the start of "unlikely"."""
    assert WORDS.verdict(clause) is None


@pytest.mark.parametrize("clause", [
    "和 hotswapep 不是同一件事", "和 hotswapep 没有重叠", "思路和 hotswapep 不太一样", "和 hotswapep 并不类似",
    "和 hotswapep 不完全是一个东西", "不是 hotswapep 的翻版", "it is not the same as hotswapep",
    "there is no overlap with hotswapep", "isn't really similar to hotswapep", "not a variant of hotswapep"])
def test_a_negated_likeness_says_different(clause: str) -> None:
    """A person writing that the item is *not* what an anchored paper is says the opposite of a likeness."""
    assert WORDS.verdict(clause) == "different"


@pytest.mark.parametrize("clause", [
    "和 hotswapep 非常类似", "不仅 batch 更大，和 hotswapep 也是同一件事", "not only that: same as hotswapep",
    "hotswapep 不需要预测就能做到类似的效果"])
def test_a_negation_elsewhere_in_the_clause_leaves_a_likeness(clause: str) -> None:
    """Only a negation right before the phrase (two words or characters at most, no comma between) turns it."""
    assert WORDS.verdict(clause) == "same"


def test_a_clause_saying_same_of_one_paper_and_different_of_another_keeps_both() -> None:
    """Notes join statements with a comma: "基本就是 LayerLink 的多网卡版，和 KVCC 的拥塞控制不冲突" says the item
    is LayerLink's kind and not KVCC's; each paper takes the verdict of its own part (a name in a part without
    one goes with the next part that has one: "和 LayerLink 相比，基本就是同一件事")."""
    said = likeness(_item("基本就是 LayerLink 的多网卡版，和 KVCC 的拥塞控制不冲突"), NAMES, WORDS)
    assert (said.same, said.different) == (["2610.13052"], {"2610.10011"})
    said = likeness(_item("和 KVCC 不冲突, and compared with LayerLink, same idea"), NAMES, WORDS)
    assert (said.same, said.different) == (["2610.13052"], {"2610.10011"})
    mixed = "和 HotSwapEP 是同一件事，和 KVCC 不冲突"
    assert not load_rules().is_recap(without_comparisons(mixed, NAMES, ["2610.14952"], WORDS).lower()), \
        "a comparison is no recap, a different part beside it or not"


@pytest.mark.parametrize("text, recap", [
    ("和已锚的都不重叠，是新思路", False),                 # the team's "overlaps nothing anchored" holds 已锚
    ("和 §3.5 已锚的 HotSwapEP 不是一回事", False),        # a difference from an anchored paper is no recap
    ("和 §3.5 已锚的 KVCC 的拥塞控制不冲突", False),
    ("和 HotSwapEP 是同一件事，只是回顾", True),           # the recap beside the comparison still speaks
    ("与条目 2 是同一件事，和 KVCC 不冲突", True)])         # a repeat of another entry, beside a difference
def test_recap_markers_are_read_outside_what_compares_the_item(text: str, recap: bool) -> None:
    assert load_rules().is_recap(without_comparisons(text, NAMES, ["2610.14952"], WORDS).lower()) is recap


def test_a_name_in_capitals_only_is_named_in_capitals() -> None:
    """FAST, TRACE, PRISM: a name that is coined only by its capitals is a plain word written otherwise ("a fast
    path", "the trace"); a name with a capital inside or a digit is no word in any case ("expertlane")."""
    anchors = [SimpleNamespace(arxiv_id="2609.11111", subject="2609.11111", title="FAST: Fused Attention at Scale",
                               label="2609.11111 FAST", section="2.1"),
               SimpleNamespace(arxiv_id="2610.13544", subject="2610.13544", title="HotSwapEP: Online Replication",
                               label="2610.13544 HotSwapEP", section="3.5")]
    names = AnchoredNames(anchors)
    assert named_in("类似的 fast path，和 hotswapep 一样", names) == ["2610.13544"]
    assert named_in("Fast path similar to the one in HotSwapEP", names) == ["2610.13544"]
    assert named_in("和 §2 的 FAST 类似", names) == ["2609.11111"]
    said = likeness(_item("The prefetch is fast, much like a cache warm-up"), names, WORDS)
    assert said == Likeness()


def test_an_abbreviations_dot_ends_no_clause() -> None:
    assert clauses("Same trick as e.g. HotSwapEP, i.e. replicas. Unlike vs. ExpertLane. Next") == [
        "Same trick as e.g. HotSwapEP, i.e. replicas.", "Unlike vs. ExpertLane.", "Next"]


def test_et_al_and_a_capitalised_abbreviation_end_no_clause() -> None:
    """Research notes cite authors ("the same design as Liu et al. in HotSwapEP") and start sentences with
    "E.g.": their dots end no statement, or the paper named after them is cut from the phrase before."""
    assert clauses("The same design as Liu et al. in HotSwapEP. E.g. a replica. Next") == [
        "The same design as Liu et al. in HotSwapEP.", "E.g. a replica.", "Next"]


@pytest.mark.parametrize("clause, verdict", [("the same  as hotswapep", "same"), ("it differs  from kvcc", "different")])
def test_the_quick_look_for_a_phrase_takes_any_white_space_as_the_phrase_does(clause: str, verdict: str) -> None:
    """A phrase's space is any run of white space ("same  as", typed twice): the look that skips clauses with
    no phrase must find it where the phrase itself would."""
    assert WORDS.verdict(clause) == verdict


def test_a_paper_is_named_by_what_its_anchor_line_says_it_does() -> None:
    """Day 8's card: "就是 Li et al.（2024）那套 feature-level drafting" — EAGLE by its label, not its name. A phrase
    of two words and twelve characters or more that one anchored paper's label holds names it; "KV cache", or a
    phrase two labels share, names none. Asked only where no coined name or ID is written."""
    anchors = [SimpleNamespace(arxiv_id="2401.15077", subject="2401.15077", title=None, section="3.1",
                               label="2401.15077 EAGLE — feature-level drafting (锚定 2026-07-15)"),
               SimpleNamespace(arxiv_id="2403.02310", subject="2403.02310", title=None, section="2.2",
                               label="2403.02310 Sarathi-Serve — chunked prefill, stall-free batching"),
               SimpleNamespace(arxiv_id="2609.11111", subject="2609.11111", title=None, section="2.1", label="2609.11111 A — KV cache"),
               SimpleNamespace(arxiv_id="2609.22222", subject="2609.22222", title=None, section="2.1",
                               label="2609.22222 B — paged KV pools"),
               SimpleNamespace(arxiv_id="2609.33333", subject="2609.33333", title=None, section="2.1",
                               label="2609.33333 C — paged KV pools")]
    names = AnchoredNames(anchors)
    assert names.phrases() == {"feature-level drafting": "2401.15077", "chunked prefill": "2403.02310",
                               "stall-free batching": "2403.02310"}
    assert named_in("就是 Li et al.（2024）那套 Feature-level  drafting", names) == ["2401.15077"]
    assert named_in("和 EAGLE 的 feature-level drafting 一样", {"eagle": "2401.15077"}) == ["2401.15077"]
    assert named_in("和 paged KV pools 是一回事", names) == []
    item = _item("就是 Li et al.（2024）那套 feature-level drafting：一层 decoder 往后猜", kind="card")
    assert likeness(item, names, WORDS).same == ["2401.15077"]


@pytest.mark.parametrize("clause", ["就是 §1.(9) 里 cachespy 那种计时旁路", "cachespy 换了个名字又做了一遍",
                                    "就是 hotswapep 那套"])
def test_how_chinese_notes_say_it_is_the_same_thing(clause: str) -> None:
    """Day 7's Spark: "就是 §1.(9) 里 CacheSpy 那种计时旁路，换了个名字又做了一遍"."""
    assert WORDS.verdict(clause) == "same"


def _dated(*said: tuple[str, str]) -> Candidate:
    """An item the team wrote of in entries at these times: ((local time, text), …)."""
    sources = [SourceRef("entry", "jay", f"inbox/jay/{when}.md", 1, None, when, 5, text, ("2610.14952",))
               for when, text in said]
    return Candidate(key="id:2610.14952", arxiv_ids=["2610.14952"], titles=["RepliMoE: Forecast-Driven Replication"],
                     sources=sources)


def test_the_teams_words_that_an_item_is_another_paper_are_kept_to_be_quoted() -> None:
    """A boundary flag quotes what the team wrote (the day 34 reader found one citing only shared terms): each
    statement that the item does what an anchored paper does, with where it was written and the papers it names, in
    the order written; a statement taken back later, or one setting the item apart, is not quoted."""
    said = likeness(_item("- **RepliMoE 说穿了就是 HotSwapEP 的翻版**：副本按预测提前放好",
                          "和 KVCC 不冲突；和 LayerLink 类似"), NAMES, WORDS)
    assert said.quotes == [("inbox/jay/n1.md#1", ("2610.13544",), "RepliMoE 说穿了就是 HotSwapEP 的翻版：副本按预测提前放好"),
                           ("inbox/jay/n2.md#2", ("2610.13052",), "和 LayerLink 类似")]
    back = likeness(_dated(("2026-10-28T14:30", "收回早上的说法：RepliMoE 和 HotSwapEP 不是一回事"),
                           ("2026-10-28T08:30", "和 HotSwapEP 是一回事")), NAMES, WORDS)
    assert back.quotes == []
    # another paper's ID written as the item's own is masked; its empty brackets are not quoted
    miscited = replace(_item("RepliMoE（2610.13052）就是 HotSwapEP 的翻版"), miscited={"2610.13052"})
    assert likeness(miscited, NAMES, WORDS).quotes[0][2] == "RepliMoE 就是 HotSwapEP 的翻版"


def test_the_teams_last_word_counts() -> None:
    """Day 15: Jay's 08:30 "和 HotSwapEP 是一回事" taken back at 14:30 ("收回早上的说法：… 不是一回事"), or by a later
    "overlaps nothing anchored"; within one entry, a "nothing" speaks of the papers it does not name."""
    back = likeness(_dated(("2026-10-28T14:30", "收回早上的说法：RepliMoE 和 HotSwapEP 不是一回事"),
                           ("2026-10-28T08:30", "和 HotSwapEP 是一回事")), NAMES, WORDS)
    assert back.same == [] and back.different == {"2610.13544"} and back.said_in == []
    later_nothing = likeness(_dated(("2026-10-28T08:30", "和 HotSwapEP 是一回事"),
                                    ("2026-10-28T14:30", "和已锚的都不重叠")), NAMES, WORDS)
    assert later_nothing.same == [] and later_nothing.nothing
    one_entry = likeness(_dated(("2026-10-28T08:30", "和 HotSwapEP 是一回事，和其它已锚的都不重叠")), NAMES, WORDS)
    assert one_entry.same == ["2610.13544"] and one_entry.said_in == ["inbox/jay/2026-10-28T08:30.md#1"]
    again = likeness(_dated(("2026-10-28T08:30", "和 HotSwapEP 不是一回事"), ("2026-10-28T14:30", "和 HotSwapEP 一模一样")),
                     NAMES, WORDS)
    assert again.same == ["2610.13544"] and not again.different


def test_what_the_team_says_at_one_time_takes_nothing_back_and_a_nothing_speaks_of_its_section() -> None:
    """A review's cases: two members at the same minute (which file sorts first decided); a card dated by its day
    only counts at the day's end, as the window reads it; "overlaps nothing anchored in §3.1" takes back no
    paper of another section."""
    from pipeline.brief.likeness import AnchoredNames
    for a, b in (("和 HotSwapEP 是一回事", "和已锚的都不重叠"), ("和已锚的都不重叠", "和 HotSwapEP 是一回事")):
        tie = _dated(("2026-10-28T10:00", a), ("2026-10-28T10:00", b))
        tie.sources[1] = replace(tie.sources[1], path="inbox/omer/x.md")
        assert likeness(tie, NAMES, WORDS).same == ["2610.13544"]
    card = _dated(("2026-10-28T08:30", "和 HotSwapEP 不是一回事"))
    card.sources.append(SourceRef("card", "paper_cards", "organized/paper_cards/x.md", None, None, "2026-10-28", 4,
                                  "跟 HotSwapEP 一模一样", ("2610.14952",)))
    assert likeness(card, NAMES, WORDS).same == ["2610.13544"]
    anchors = [SimpleNamespace(subject="2610.13544", arxiv_id="2610.13544", section="3.5", title="HotSwapEP: Online",
                               label="")]
    scoped = _dated(("2026-10-28T08:30", "和 §3.5 的 HotSwapEP 是一回事"),
                    ("2026-10-28T14:30", "it overlaps nothing anchored in §3.1"))
    assert likeness(scoped, AnchoredNames(anchors), WORDS).same == ["2610.13544"]
    unscoped = _dated(("2026-10-28T08:30", "和 §3.5 的 HotSwapEP 是一回事"), ("2026-10-28T14:30", "和已锚的都不重叠"))
    assert likeness(unscoped, AnchoredNames(anchors), WORDS).same == []


def test_same_as_says_a_repeat_and_the_same_idea_as_a_likeness() -> None:
    """Day 16's reader: Omer's "Same as DecodeDrain: … Only the trigger differs" left MoveOut NET-new while the
    team's "是同一件事" of two other papers made them confirmations. "the same idea as" stays a likeness."""
    assert WORDS.repeats.verdict("same as decodedrain: a decode instance is emptied") == "same"
    assert WORDS.repeats.verdict("twinpage is the same idea as pageweave") is None
    assert WORDS.repeats.verdict("not the same as kvshield") == "different"


def test_another_papers_id_written_as_the_items_own_names_the_item() -> None:
    """Day 6: "ScaleShift（2610.14731）下午读书会讲了，Tom 的意思是 SmoothQuant 那套换了个名字" — 2610.14731 is NanoQAT's ID,
    written as ScaleShift's (``miscited``): the line says ScaleShift is SmoothQuant's trick renamed, not NanoQAT."""
    names = {"smoothquant": "2211.10438", "2211.10438": "2211.10438", "nanoqat": "2610.14731",
             "2610.14731": "2610.14731"}
    c = _item("ScaleShift（2610.14731）下午读书会讲了，Tom 的意思是 SmoothQuant 那套换了个名字", ids=("2610.17958",))
    c.miscited = {"2610.14731": ("NanoQAT: Quantization-Aware Fine-Tuning Recipes", ["inbox/jay/n1.md#1"])}
    assert likeness(c, names, WORDS).same == ["2211.10438"]
    c.miscited = {}
    assert likeness(c, names, WORDS).same == ["2610.14731", "2211.10438"]   # read as a name of NanoQAT's
    # a review's case: the other paper named by its own name is still named
    c = _item("ScaleShift（2610.14731）: ScaleShift 和 NanoQAT 是同一件事", ids=("2610.17958",))
    c.miscited = {"2610.14731": ("NanoQAT: Quantization-Aware Fine-Tuning Recipes", ["inbox/jay/n1.md#1"])}
    assert likeness(c, names, WORDS).same == ["2610.14731"]


def test_a_reimplementation_or_alike_settings_are_no_likeness() -> None:
    """"的复刻" and "大同小异" say a repeat or a likeness only as "就是 X 的复刻" and "和 X 大同小异" (day 22's TerseKV and
    TiltTP): "用 LayerLink 的复刻当 baseline" is a re-implementation, "benchmark 设置大同小异" compares setups."""
    for text in ("作者用 LayerLink 的复刻当 baseline，吞吐高 1.8×", "我们先做了 LayerLink 的复刻当对照组，再上这篇的条带化"):
        assert likeness(_item(text), NAMES, WORDS.repeats).same == [] and likeness(_item(text), NAMES, WORDS).same == []
    assert likeness(_item("几家的 benchmark 设置大同小异，LayerLink 也是 ShareGPT 加 8k 输入"), NAMES, WORDS).same == []
    assert likeness(_item("就是 LayerLink 的复刻：同样逐层传，只是换了网卡"), NAMES, WORDS.repeats).same == ["2610.13052"]
    assert likeness(_item("和 LayerLink 大同小异，切法一样"), NAMES, WORDS.repeats).same == ["2610.13052"]


def test_day23s_words_for_a_repeat_and_for_two_things_apart() -> None:
    """Day 23: "A retread of OffPeak in §10" (DuskBatch) repeats it; "is apples and oranges" and "八竿子打不着" set
    an item apart (CoDraft and VerifyBatch, SignKV and KeyFold)."""
    assert likeness(_item("A retread of LayerLink: the same layer-wise streaming"), NAMES, WORDS.repeats).same == [
        "2610.13052"]
    for text in ("和 LayerLink is apples and oranges：一个传一个存", "和 LayerLink 八竿子打不着：它不压 cache"):
        said = likeness(_item(text), NAMES, WORDS)
        assert said.same == [] and said.different == {"2610.13052"}, text


def test_day24s_words_for_a_repeat_and_for_two_things_apart() -> None:
    """Day 24: "就是 §2.5 昨天刚锚的 KeyBook 换了个马甲" repeats it; "风马牛不相及" and "are chalk and cheese" set apart."""
    assert likeness(_item("就是 LayerLink 换了个马甲：标题和摘要几乎一字不差"), NAMES, WORDS.repeats).same == ["2610.13052"]
    for text in ("和 LayerLink 风马牛不相及：一个传一个存", "This and LayerLink are chalk and cheese"):
        said = likeness(_item(text), NAMES, WORDS)
        assert said.same == [] and said.different == {"2610.13052"}, text


@pytest.mark.parametrize("text", ["This one is LayerLink by another name: the same layer-wise streaming",
                                  "Honestly this is LayerLink rebadged, a new name on the same pipeline",
                                  "基本是 LayerLink 的复制粘贴：流水切分一模一样"])
def test_a_copy_under_a_new_label_is_a_repeat(text: str) -> None:
    """The day 32 and 34 readers: "by another name", "is … rebadged" and "…的复制粘贴" said the team judged a pair one
    paper, and the boundary flags cited only shared terms. Copying a setting is no likeness of a paper."""
    assert likeness(_item(text), NAMES, WORDS.repeats).same == ["2610.13052"]
    for everyday in ("把 LayerLink 的配置复制粘贴到二期集群上", "the rebadged H20 boxes run LayerLink fine"):
        assert likeness(_item(everyday), NAMES, WORDS).same == [], everyday


def test_day25s_words_for_a_repeat_and_for_two_things_apart() -> None:
    """Day 25: "和 §1.(9) 的 CacheSpy 是老调重弹" repeats it; "根本不搭界" sets an item apart."""
    assert likeness(_item("和 LayerLink 是老调重弹：都是逐层传"), NAMES, WORDS.repeats).same == ["2610.13052"]
    said = likeness(_item("和 LayerLink 根本不搭界：一个传一个存"), NAMES, WORDS)
    assert said.same == [] and said.different == {"2610.13052"}
