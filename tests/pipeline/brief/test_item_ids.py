"""The IDs an item of the window is written with, gathered from the store (``collect_candidates``): a card
whose file name says another ID than its front matter is one paper written with two IDs; and the papers a
note entry cites beside the one it is about, listed when the doc anchors them."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.records import Card
from kb.store import Store
from kb.store.cards import save_card
from kb.store.notes import save_note
from pipeline.brief.collect import cited_anchored, collect_candidates
from pipeline.brief.model import Window
from pipeline.brief.verify import Facts, id_conflicts, unresolved_ids
from pipeline.workspace.notes import parse_note
from tests.pipeline.brief.conftest import DAY, brief_json, copy_sample, ingest_sample, kb

WINDOW = Window("2026-10-12T22:00", "2026-10-13T22:00", "2026-10-12")
CARD = "organized/paper_cards/406-2610-15590.md"


def _collect(store: Store):
    return collect_candidates(store, WINDOW, author_credibility={}, source_credibility={}).candidates


def test_a_card_named_for_another_id_is_an_id_conflict_on_its_own(store: Store) -> None:
    """Day 4's card 406-2610-15590.md says ``arxiv_id: 2610.15950``, and nothing else writes 2610.15590: the
    team wrote the paper with two IDs, an ``id-conflict`` naming both (its date-inconsistency is raised
    beside it). The front matter's ID stays the item's; the file name's merges nothing."""
    with store.transaction() as tx:
        save_card(tx, Card(path=CARD, file_id="2610.15590", arxiv_id="2610.15950", created="2026-10-13T15:40",
                           title="EvictStorm: Evicting Co-Located Tenants' KV Cache with Long-Output Prompts"))
    [item] = _collect(store)
    assert item.arxiv_ids == ["2610.15950"]
    facts = Facts(known_ids={"2610.15950"}, mentions={"2610.15590": [CARD], "2610.15950": [CARD]})
    [flag] = id_conflicts([item], facts)
    assert flag.evidence["ids"] == {"2610.15950": [CARD, "store: listing/API metadata"], "2610.15590": [CARD]}
    assert flag.evidence["resolved"] == ["2610.15950"]
    # one item under two IDs is one id-conflict, not also an unresolved ID
    assert unresolved_ids([item], Facts()) == []


def test_a_card_whose_name_and_front_matter_agree_raises_nothing(store: Store) -> None:
    with store.transaction() as tx:
        save_card(tx, Card(path="organized/paper_cards/403-2610-15426.md", file_id="2610.15426",
                           arxiv_id="2610.15426", created="2026-10-13T14:30", title="PredRoute: Routing"))
    [item] = _collect(store)
    assert item.arxiv_ids == ["2610.15426"]
    assert id_conflicts([item], Facts(known_ids={"2610.15426"})) == []


# ----------------------------------------------------------------------------- the papers an entry cites
EVICTION = ("## 2. Eviction or offload?\n\n"
            "- H2O (2306.14048) and StreamingLLM (2309.17453) drop KV; TierKV moves it to CPU memory instead.\n"
            "- The 2025 survey update (arXiv 2512.19034) has a good table of eviction policies.\n")


def _note(store: Store, text: str, path: str = "inbox/tom/2026-10-13T2130-tom-weekend-reading.md") -> None:
    with store.transaction() as tx:
        save_note(tx, parse_note(text, path))


def test_an_anchored_paper_an_entry_cites_beside_its_subject_is_an_item_of_its_own(store: Store) -> None:
    """Day 3's "H2O (2306.14048) and StreamingLLM (2309.17453) drop KV": the entry is H2O's item (its first
    ID); StreamingLLM, anchored too, was never listed. It is now, with the entry as its source and the line
    citing it as its point; the survey it also cites, anchored nowhere, stays a mention."""
    _note(store, EVICTION)
    cands = _collect(store)
    assert [c.arxiv_ids for c in cands] == [["2306.14048"]]
    [streaming] = cited_anchored(cands, {"2306.14048", "2309.17453"})
    assert streaming.arxiv_ids == ["2309.17453"]
    assert [(s.kind, s.key, s.text) for s in streaming.sources] == [
        ("entry", "inbox/tom/2026-10-13T2130-tom-weekend-reading.md#1", "")]   # the text is the entry's item's
    assert [p.text for p in streaming.points] == [EVICTION.splitlines()[2][2:]]
    assert cited_anchored(cands, {"2306.14048"}) == []          # nothing else anchored: nothing added


@pytest.mark.parametrize("text", [
    # a page's note naming anchored papers in passing (the sample's vLLM vs SGLang quantization matrix)
    "## 1. vLLM vs SGLang 量化矩阵\n\n来源：https://docs.vllm.ai/en/latest/quantization.html\n\n"
    "- AWQ（arXiv:2306.00978）与 GPTQ（arXiv:2210.17323）仍是默认推荐的 weight-only 路线\n",
    # a paper's note (its ID in the heading) comparing it with anchored ones
    "## 1. QuillSpec（2610.13418）\n\n- 比 AWQ（2306.00978）和 GPTQ（2210.17323）都快\n",
])
def test_papers_named_in_passing_are_mentions_only(store: Store, text: str) -> None:
    """An entry about a page (a source URL) or about the paper its heading names cites others in passing:
    they stay mentions, anchored or not."""
    _note(store, text)
    assert cited_anchored(_collect(store), {"2306.00978", "2210.17323"}) == []


def test_an_anchored_paper_s_points_are_the_lines_of_the_entry_about_it(store: Store) -> None:
    """Jay's note about H2O (its heading's ID) names StreamingLLM in passing; Tom's list entry is about both.
    StreamingLLM's item, sourced to Tom's entry, was given Jay's line too (the H2O item's points are both
    notes'), a line its listed source never wrote."""
    _note(store, EVICTION)
    _note(store, "## 1. H2O (2306.14048)\n\n- unlike StreamingLLM (2309.17453) it keeps heavy hitters\n",
          "inbox/jay/2026-10-13T0900-jay-reading.md")
    cands = _collect(store)
    assert [c.arxiv_ids for c in cands] == [["2306.14048"]]
    [streaming] = cited_anchored(cands, {"2306.14048", "2309.17453"})
    assert [s.key for s in streaming.sources] == ["inbox/tom/2026-10-13T2130-tom-weekend-reading.md#1"]
    assert [p.text for p in streaming.points] == [EVICTION.splitlines()[2][2:]]


def test_a_cited_paper_that_is_an_item_already_is_not_listed_twice(store: Store) -> None:
    _note(store, EVICTION)
    _note(store, "## 1. StreamingLLM (2309.17453)\n\n- attention sinks, re-read\n",
          "inbox/jay/2026-10-13T0900-jay-reading.md")
    cands = _collect(store)
    assert sorted(i for c in cands for i in c.arxiv_ids) == ["2306.14048", "2309.17453"]
    assert cited_anchored(cands, {"2306.14048", "2309.17453"}) == []


def test_the_briefing_lists_an_anchored_paper_a_note_cites_second(tmp_path: Path) -> None:
    """End to end on the sample day: both anchored papers of the entry are listed, 🟡 already anchored in §2.5,
    each with the note entry as its source; the unanchored survey is not an item."""
    home = copy_sample(tmp_path / "w")
    (home / "inbox" / "tom" / "2026-10-08T2130-tom-eviction.md").write_text(
        EVICTION.replace("## 2.", "## 1."), encoding="utf-8")
    data = brief_json(ingest_sample(home), "--preview")
    items = {i["arxiv_id"]: i for i in data["increments"] + data["others"]}
    for aid in ("2306.14048", "2309.17453"):
        assert items[aid]["category"] == "confirmation" and items[aid]["why"][0]["code"] == "anchored", aid
        assert [s["path"] for s in items[aid]["sources"]] == ["inbox/tom/2026-10-08T2130-tom-eviction.md"]
    assert "2512.19034" not in items


def test_a_team_label_of_the_entry_is_its_subject_s_not_the_cited_paper_s(tmp_path: Path) -> None:
    """The team labels Tom's entry (``path#1``: its subject, H2O) adjacent. StreamingLLM, listed because the
    entry cites it and the doc anchors it, was judged through the entry's key too and turned adjacent; it is
    judged as the paper, primary as before the label."""
    home = copy_sample(tmp_path / "w")
    with (home / "kb.toml").open("a", encoding="utf-8") as f:   # kb label's corrections are the learned model's
        f.write('\n[classify]\nmodel = "learned"\n')
    note = "inbox/tom/2026-10-08T2130-tom-eviction.md"
    (home / note).write_text(EVICTION.replace("## 2.", "## 1."), encoding="utf-8")
    ingest_sample(home)

    def relevance() -> dict[str, str]:
        kb(home, "classify")
        data = brief_json(home, "--preview")
        return {i["arxiv_id"]: i["relevance"] for i in data["increments"] + data["others"] if i.get("arxiv_id")}

    assert relevance()["2309.17453"] == "primary"
    kb(home, "label", f"{note}#1", "--relevance", "adjacent", "--topic", "scheduling")
    after = relevance()
    assert after["2306.14048"] == "adjacent"          # the entry's subject takes the team's word
    assert after["2309.17453"] == "primary"           # the paper it cites beside it does not


def test_a_corrected_paper_the_classify_stage_has_not_tagged_is_briefed_as_the_stage_would_store_it(
        tmp_path: Path) -> None:
    """A paper of the day's listing that the doc's model leaves out, which the team corrects (``kb label``) before
    any classify run: the briefing classifies it on the fly with the correction, as the classify stage applies it
    — the same briefing as after ``kb classify``. (It was classified without the correction: left out.)"""
    home = copy_sample(tmp_path / "w")
    with (home / "kb.toml").open("a", encoding="utf-8") as f:   # kb label's corrections are the learned model's
        f.write('\n[classify]\nmodel = "learned"\n')
    ingest_sample(home)

    def relevance() -> dict[str, str]:
        data = brief_json(home, "--preview")
        return {i["arxiv_id"]: i["relevance"] for i in data["increments"] + data["others"] if i.get("arxiv_id")}

    listing = kb(home, "query", "papers", "--since", DAY, "--until", DAY, "--source", "arxiv", "--format", "ids")
    paper = min(set(listing.stdout.split()) - set(relevance()))
    kb(home, "label", paper, "--relevance", "primary", "--topic", "scheduling", "--note", "ours after all")
    unstored = relevance()
    assert unstored.get(paper) == "primary"
    kb(home, "classify")
    assert relevance() == unstored


def test_an_anchored_paper_an_entry_cites_is_judged_by_the_paper_s_stored_result(store: Store) -> None:
    """The cited paper's item has none of the entry's text: it was classified on nothing (its stored result
    read only when that said "none"). It is the paper the classify stage judged: its stored result decides."""
    from pipeline.brief.judge import judge
    from pipeline.brief.rules import load_rules
    from pipeline.classify.classifier import Classification
    from pipeline.classify.taxonomy import load_taxonomy
    _note(store, EVICTION)
    [streaming] = cited_anchored(_collect(store), {"2306.14048", "2309.17453"})
    stored = {"2309.17453": Classification("adjacent", []),
              "entry:inbox/tom/2026-10-13T2130-tom-weekend-reading.md#1": Classification("none", [])}
    judge(streaming, classify=lambda text, **_: Classification("primary", []), taxonomy=load_taxonomy(),
          doc="inference", anchors={"2309.17453": ["2.5"]}, briefed={}, known_ids={"2309.17453"},
          rules=load_rules(), sections={"2.5": "KV"}, stored=stored)
    assert streaming.relevance == "adjacent"
