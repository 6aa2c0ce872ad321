"""One system, its IDs: a name written beside another known paper's ID is a wrong citation — flagged once, and
the note entry is the named paper's."""
from __future__ import annotations

from pathlib import Path

from pipeline.brief.entities import NameIndex
from pipeline.brief.verify import Facts, id_conflicts
from tests.pipeline.brief.conftest import EN_MD, ZH_MD, brief, brief_json, copy_sample, ingest_sample, kb, read
from tests.pipeline.brief.test_verify_rules import cand

TITLES = {"2610.08812": "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding for Batched LLM Serving",
          "2610.08810": "TeraTune: Towards Reliable Summarization of Scientific Articles",
          "2610.09999": "TreeDraft-2: Token Trees for Multi-Model Serving"}


def _index(*pairs: tuple[str, str, str]) -> NameIndex:
    index = NameIndex()
    for text, aid, where in pairs:
        if aid:
            index.add_title(text, aid, where)
        else:
            index.add_text(text, where)
    return index


def test_a_name_beside_another_known_papers_id_is_miscited() -> None:
    index = _index((TITLES["2610.08812"], "2610.08812", "arxiv 2026-10-08"),
                   ("## 2. TreeDraft（2610.08810）：负载高时 token tree 收缩", "", "inbox/tom/n.md#2"))
    assert list(index.miscited(TITLES)) == [("TreeDraft", "2610.08812", {"2610.08810": ["inbox/tom/n.md#2"]})]


def test_a_follow_up_that_carries_the_name_or_an_unknown_id_is_not_miscited() -> None:
    # TreeDraft-2's title carries the name: a follow-up, not a wrong citation; an unknown ID is the
    # one-system-many-IDs rule's (pipeline.brief.collect.merge_same_systems), not this one's
    index = _index((TITLES["2610.08812"], "2610.08812", "arxiv"),
                   ("TreeDraft（2610.09999）", "", "a.md#1"), ("TreeDraft（2610.07777）", "", "b.md#1"))
    assert list(index.miscited(TITLES)) == []


def test_a_name_two_known_papers_are_titled_with_decides_nothing() -> None:
    titles = {**TITLES, "2610.08810": "TreeDraft: Drafting Trees for Forest Inventories"}
    index = _index((TITLES["2610.08812"], "2610.08812", "arxiv"), (titles["2610.08810"], "2610.08810", "arxiv"),
                   ("TreeDraft（2610.08810）", "", "a.md#1"))
    assert list(index.miscited(titles)) == []


def test_the_store_names_the_paper_when_the_day_does_not_hold_it() -> None:
    """Only the wrong ID is among the day's items: the name is looked up among the stored papers' names."""
    index = _index(("## 2. TreeDraft（2610.08810）：负载高时 token tree 收缩", "", "inbox/tom/n.md#2"))
    titles = {"2610.08810": TITLES["2610.08810"]}
    assert index.unexplained(titles) == {"treedraft"}
    assert list(index.miscited(titles)) == []
    named = {"treedraft": {"2610.08812": TITLES["2610.08812"]}}
    assert list(index.miscited(titles, named)) == [("TreeDraft", "2610.08812", {"2610.08810": ["inbox/tom/n.md#2"]})]
    # two stored papers titled TreeDraft: which one is meant is not known, nothing is said
    named["treedraft"]["2609.01234"] = "TreeDraft: Drafting Trees for Forest Inventories"
    assert list(index.miscited(titles, named)) == []


def test_a_name_the_cited_title_carries_or_a_plain_word_asks_the_store_nothing() -> None:
    index = _index(("TeraTune（2610.08810）", "", "a.md#1"), ("vLLM（2610.08810）", "", "b.md#1"),
                   ("Serving（2610.08810）", "", "c.md#1"))
    # TeraTune is the cited paper's own name; vLLM is written with an ID whose title does not carry it
    assert index.unexplained({"2610.08810": TITLES["2610.08810"]}) == {"vllm"}


def test_the_id_conflict_names_the_wrong_id_where_it_was_written_and_arxivs_title_of_it() -> None:
    c = cand("td", title=TITLES["2610.08812"], arxiv_ids=["2610.08812"],
             miscited={"2610.08810": (TITLES["2610.08810"], ["inbox/tom/n.md#2"])})
    [f] = id_conflicts([c], Facts(known_ids={"2610.08812", "2610.08810"}))
    assert f.evidence == {"ids": {"2610.08812": ["store: listing/API metadata"], "2610.08810": ["inbox/tom/n.md#2"]},
                          "resolved": ["2610.08812"], "titles": {"2610.08810": TITLES["2610.08810"]}}


NOTE = """# 晚间补充 · 2026-10-08

## 1. TreeDraft（2610.08810）：负载高时 token tree 自动收缩

- 来源：https://arxiv.org/abs/2610.08810
- 和 vLLM 的 load-adaptive spec decode 是一个思路
"""


def test_a_note_that_cites_treedraft_with_teratunes_id_is_treedrafts_and_flagged(tmp_path: Path) -> None:
    home = copy_sample(tmp_path / "ws")
    (home / "inbox/jay/2026-10-08T2130-jay-treedraft.md").write_text(NOTE, encoding="utf-8")
    b = brief_json(ingest_sample(home))
    [f] = [f for f in b["flags"] if f["kind"] == "id-conflict" and "2610.08810" in f["evidence"]["ids"]]
    assert f["subject"].startswith("TreeDraft:")
    assert f["evidence"]["ids"]["2610.08810"] == ["inbox/jay/2026-10-08T2130-jay-treedraft.md#1"]
    assert f["evidence"]["resolved"] == ["2610.08812"]
    assert f["evidence"]["titles"]["2610.08810"].startswith("TeraTune:")
    # the note is about TreeDraft: it joins TreeDraft's item, and TeraTune keeps none of its words
    items = {i["arxiv_id"]: i for i in b["increments"] + b["others"]}
    assert "inbox/jay/2026-10-08T2130-jay-treedraft.md" in [s.get("path") for s in items["2610.08812"]["sources"]]
    assert "2610.08810" not in items, "a summarization paper put forward on a note about TreeDraft"
    brief(home, "--lang", "en")
    brief(home)
    assert "on arXiv, 2610.08810 is another paper: “TeraTune: Towards Reliable Summarization" in read(home, EN_MD)
    assert "arXiv 上 2610.08810 是另一篇论文：“TeraTune: Towards Reliable Summarization" in read(home, ZH_MD)


NEXT_DAY_NOTE = """# 早间 · 2026-10-09

## 1. TreeDraft（2610.08810）：负载高时 token tree 自动收缩

- 昨天 listing 里那篇，和 vLLM 的 load-adaptive spec decode 是一个思路
"""


def test_a_next_day_note_with_the_wrong_id_of_a_paper_listed_the_day_before_is_flagged(tmp_path: Path) -> None:
    """TreeDraft was listed on 2026-10-08; a note of 2026-10-09 writes it with TeraTune's ID. The 9th's
    items hold TeraTune (the note's subject) and not TreeDraft: the store's names say which paper it is."""
    home = ingest_sample(copy_sample(tmp_path / "ws"))
    (home / "inbox/jay/2026-10-09T0900-jay-treedraft.md").write_text(NEXT_DAY_NOTE, encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", "2026-10-09")
    b = brief_json(home, day="2026-10-09")
    [f] = [f for f in b["flags"] if f["kind"] == "id-conflict"]
    assert f["subject"].startswith("TreeDraft:")
    assert f["evidence"]["ids"]["2610.08810"] == ["inbox/jay/2026-10-09T0900-jay-treedraft.md#1"]
    assert f["evidence"]["titles"]["2610.08810"].startswith("TeraTune:")
    items = {i["arxiv_id"]: i for i in b["increments"] + b["others"]}
    assert "2610.08810" not in items, "a summarization paper put forward on a note about TreeDraft"


COMPARED_NOTE = """# 晚间补充 · 2026-10-08

## 1. 2610.08810 的摘要评测

- relative to TreeDraft — 2610.08810 keeps its summaries faithful on long articles
"""


def test_a_workspaces_compared_word_unties_a_name_from_the_id_after_it(tmp_path: Path) -> None:
    """The words after which a name is a baseline were code; they are ``[compared] words`` of
    data/briefing.toml, and the briefing reads the workspace's: with "relative to" added, "relative to
    TreeDraft — 2610.08810" no longer ties TreeDraft to TeraTune's ID, so no wrong citation is flagged."""
    home = copy_sample(tmp_path / "ws")
    (home / "inbox/jay/2026-10-08T2130-jay-teratune.md").write_text(COMPARED_NOTE, encoding="utf-8")
    ingest_sample(home)

    def miscited() -> list:
        return [f for f in brief_json(home)["flags"]
                if f["kind"] == "id-conflict" and "2610.08810" in f["evidence"]["ids"]]
    assert miscited(), "kb's own words: TreeDraft is written with TeraTune's ID"
    override = home / ".kb" / "overrides" / "data" / "briefing.toml"
    override.parent.mkdir(parents=True, exist_ok=True)
    shipped = (Path(__file__).resolve().parents[3] / "data" / "briefing.toml").read_text(encoding="utf-8")
    assert 'words = ["than", ' in shipped
    override.write_text(shipped.replace('words = ["than", ', 'words = ["relative to", "than", ', 1), encoding="utf-8")
    assert miscited() == []


# --- decisions the mutation round found untested ------------------------------------------------

def test_a_pre_2015_id_with_four_digits_is_tied_to_its_name() -> None:
    from pipeline.brief.entities import name_id_pairs
    assert name_id_pairs("背景：Seq2seq（1409.3215）的 encoder-decoder") == [("Seq2seq", "1409.3215")]


def test_a_place_that_writes_a_name_and_id_twice_is_named_once() -> None:
    index = _index(("## 2. TreeDraft（2610.08810）：负载高时收缩\n结论：TreeDraft（2610.08810）更稳", "", "inbox/tom/n.md#2"),
                   (TITLES["2610.08812"], "2610.08812", "arxiv"))
    assert list(index.miscited(TITLES)) == [("TreeDraft", "2610.08812", {"2610.08810": ["inbox/tom/n.md#2"]})]


def test_the_ids_of_a_name_two_titles_carry_are_looked_up() -> None:
    # a card titled SlimWise under the old ID and the listing's SlimWise: which is the paper's title?
    index = _index(("SlimWise: Slimming KV Caches", "2607.09701", "cards/378.md"),
                   ("SlimWise: Slimming KV Caches", "2610.09701", "arxiv 2026-10-08"))
    assert index.ids_to_title() == {"2607.09701", "2610.09701"}


def test_a_name_whose_paper_the_day_holds_or_whose_cited_title_carries_it_asks_the_store_nothing() -> None:
    index = _index((TITLES["2610.08812"], "2610.08812", "arxiv"), ("TreeDraft（2610.08810）", "", "inbox/tom/n.md#2"))
    assert index.unexplained(TITLES) == set()      # the day holds the paper titled TreeDraft
    paged = _index(("PagedAttention（2309.06180）", "", "inbox/jay/n.md#1"))
    titles = {"2309.06180": "Efficient Memory Management for Large Language Model Serving with PagedAttention"}
    assert paged.unexplained(titles) == set()       # the cited title carries the name: a right citation


def test_one_system_under_several_ids_names_the_known_id_first() -> None:
    index = _index(("SlimWise（2607.09701）", "", "inbox/tom/hf.md#7"), ("SlimWise: Slimming KV Caches", "2610.09701", "arxiv"))
    assert list(index.one_system_many_ids({"2610.09701"})) == [("SlimWise", ["2610.09701", "2607.09701"])]


def test_position_papers_are_not_one_system() -> None:
    index = _index(("Position: Inference Scaling Is Not Enough", "2610.11111", "arxiv"),
                   ("Position: Agents Need Serving Contracts", "2610.22222", "arxiv"))
    assert list(index.one_system_many_ids({"2610.11111"})) == []
