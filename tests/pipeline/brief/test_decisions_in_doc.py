"""The knowledge doc's own decisions (``decisions.doc_decisions``, ``decisions.decision_of``): a history line that
keeps a paper or a release out of the doc settles it; the briefing shows it decided and suggests no section for it."""
from __future__ import annotations

import pytest

from pipeline.brief.decisions import DocDecisions, decision_of, doc_decisions
from pipeline.brief.model import Candidate, SourceRef
from pipeline.brief.rules import load_rules

RULES = load_rules()
DOC = "organized/knowledge/serving.md v12"
HISTORY = [
    "v11（Dec 1）：不改编号。OldKV 进队列，读完再定。",
    "v12（Dec 2）：不改编号；上周进队列的 MidKV 今早进 §2.1。FernKV、MossKV 不锚：和已锚的 PageKV 重复（下午一起定的；"
    "名字像的 FernCache 别混）。RiverKV（§2.5）进队列，Ann 读完再定。Quill 3.1.0 升级归运维，不进文档。",
]


def _decided(lines: list[str] = HISTORY, new: tuple[str, ...] = (HISTORY[1],)) -> DocDecisions:
    return doc_decisions(lines, set(new), RULES, DOC)


def _paper(title: str, *notes: str, anchored: bool = False) -> Candidate:
    c = Candidate("c", arxiv_ids=["2612.00001"], title=title, titles=[title],
                  anchored_in=["2.1"] if anchored else [],
                  sources=[SourceRef("entry", "ann", "inbox/ann/n.md", n, None, "2026-12-02T10:00", 4, text)
                           for n, text in enumerate(notes, 1)])
    return c


def test_the_names_a_deciding_clause_opens_or_lists_are_what_it_decides_of() -> None:
    found = {names: text for names, text, _ in _decided().clauses}
    assert found[frozenset({"fernkv", "mosskv"})] == "FernKV、MossKV 不锚：和已锚的 PageKV 重复"   # the open bracket cut
    assert found[frozenset({"riverkv"})] == "RiverKV（§2.5）进队列，Ann 读完再定"
    assert found[frozenset({"quill 3.1.0"})] == "Quill 3.1.0 升级归运维，不进文档"
    assert frozenset({"midkv"}) not in found, "a decided word after other words ('上周进队列的 MidKV') decides nothing"
    assert not any("pagekv" in names for names in found), "the anchored paper it repeats is not decided of"


@pytest.mark.parametrize("line", ["FernKV 锚不锚周五定", "FernKV 不锚？还要再看看", "周四进队列的 FernKV 读完了"])
def test_a_clause_asking_or_describing_decides_nothing(line: str) -> None:
    assert _decided([line], (line,)).clauses == []


def test_a_version_lines_summary_is_cut_at_its_bracket() -> None:
    line = "version: v12 · 2026-12-02 (不改编号；Quill 3.1.0 不进文档) · 引→90"
    [(names, text, new)] = _decided([line], ()).clauses
    assert (names, text, new) == (frozenset({"quill 3.1.0"}), "Quill 3.1.0 不进文档", False)


def test_the_doc_keeping_a_paper_out_is_its_decision_against() -> None:
    d = decision_of(_paper("MossKV: Paged KV Reuse"), _decided(), RULES)
    assert d == {"text": "FernKV、MossKV 不锚：和已锚的 PageKV 重复", "where": DOC, "in_doc": True, "against": True}
    release = Candidate("r", title="顺带：Quill 3.1.0", titles=["顺带：Quill 3.1.0"])
    assert decision_of(release, _decided(), RULES)["against"] is True
    queued = decision_of(_paper("RiverKV: Tiered KV"), _decided(), RULES)
    assert queued["in_doc"] and queued["against"] is False


def test_a_decision_for_the_item_beside_a_word_against_is_for_it() -> None:
    line = "StoneKV 不进队，直接入锚"
    assert decision_of(_paper("StoneKV: Fast"), _decided([line], (line,)), RULES)["against"] is False


def test_the_teams_last_word_counts_the_docs_new_lines_first() -> None:
    """The doc's lines written since the previous briefing are the team's latest word; a note of the window is later
    than the doc's older lines; what the doc anchors, it has decided already."""
    note = "读完了，OldKV 不锚"
    assert decision_of(_paper("MossKV: Paged KV Reuse", "进队列，Ann 读正文"), _decided(), RULES)["in_doc"]
    assert decision_of(_paper("OldKV: Early", note), _decided(), RULES) == {"text": note,
                                                                           "where": "inbox/ann/n.md#1"}
    assert decision_of(_paper("OldKV: Early"), _decided(), RULES)["text"] == "OldKV 进队列，读完再定"
    assert decision_of(_paper("MossKV: Paged KV Reuse", anchored=True), _decided(), RULES) is None


def test_a_paper_the_doc_keeps_out_is_a_confirmation_with_no_section_suggested() -> None:
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    text = "MossKV reuses paged KV cache blocks across requests in an LLM serving engine, cutting TTFT by 30%."
    c = Candidate("2612.00001", arxiv_ids=["2612.00001"], titles=["MossKV: Paged KV Cache Reuse for LLM Serving"],
                  texts=[text], sources=[SourceRef("arxiv", "arxiv", text=text, date="2026-12-02")])
    judge(c, classify=classify, taxonomy=load_taxonomy(), doc="serving", anchors={}, briefed={}, known_ids=set(),
          rules=RULES, sections={"2.1": "Engines and runtimes"}, doc_decided=_decided())
    assert c.decided_out and (c.category, c.why) == ("confirmation", [{"code": "doc-decided", "detail": DOC}])
    assert c.section == "2.1" and c.suggested_section is None, "read against §2.1's anchors, suggested nowhere"


@pytest.mark.parametrize(("lang", "decided", "suggested"), [
    ("zh", "- 文档已定：FernKV、MossKV 不锚（organized/knowledge/serving.md v12）",
     "建议归入：不归入（文档已有定论，见 organized/knowledge/serving.md v12）"),
    ("en", "- Decided in the doc: FernKV、MossKV 不锚 (organized/knowledge/serving.md v12)",
     "Suggested section: none (the doc has decided on it, in organized/knowledge/serving.md v12)")])
def test_a_decided_item_says_where_the_doc_decided_and_is_suggested_nowhere(sample_day, lang: str, decided: str,
                                                                            suggested: str) -> None:
    """The anchors of the section it would have joined are still listed (what the doc weighed it against)."""
    import json

    from pipeline.brief.write import render
    from tests.pipeline.brief.conftest import brief_json
    data = brief_json(sample_day)
    item = data["increments"][0]
    section = item["relation"]["section"]
    item.update(decision={"text": "FernKV、MossKV 不锚", "where": DOC, "in_doc": True, "against": True},
                suggested_section=None)
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    block = text[text.index(decided):].split("\n### ")[0]
    assert suggested in block.splitlines()
    if item["relation"]["same_section"]:
        assert f"{section} " in block and "None" not in block


def test_an_english_history_line_decides_by_whole_phrases() -> None:
    lines = ["Dec 3: FernKV: do not anchor it, it repeats PageKV.", "Dec 3: we do not anchor iterations of MossKV here"]
    found = [names for names, *_ in _decided(lines, tuple(lines)).clauses]
    assert found == [frozenset({"fernkv"})]


@pytest.mark.parametrize("line", [
    "v14（Dec 4）：StoneKV 不进队，今天直接锚进 §2.1。",        # the queue skipped: anchored the same day
    "v14（Dec 4）：StoneKV 不单锚，记进 PageKV 那行（§2.1）。",   # in the doc, on another paper's line
    "v14（Dec 4）：StoneKV 先不锚，下周 Jay 读完再定。",          # put off, nothing kept out yet
    "v14（Dec 4）：StoneKV 不建卡。",                          # no card: says nothing of the doc
])
def test_a_clause_about_the_queue_a_card_another_line_or_later_keeps_nothing_out(line: str) -> None:
    d = decision_of(_paper("StoneKV: Fast"), _decided([line], (line,)), RULES)
    assert d["in_doc"] and d["against"] is False


def test_kept_out_and_not_queued_is_kept_out() -> None:
    line = "v14（Dec 4）：StoneKV 不锚，不进队。"
    assert decision_of(_paper("StoneKV: Fast"), _decided([line], (line,)), RULES)["against"] is True


def test_each_name_of_a_clause_is_decided_by_its_own_word() -> None:
    """"StoneKV 不锚，SlateKV 入锚 §2.1" keeps StoneKV out and anchors SlateKV: read as one clause, the 入锚 would be
    StoneKV's too (a word for it) and SlateKV would have no decision."""
    line = "v14（Dec 4）：StoneKV 不锚，SlateKV 入锚 §2.1。"
    found = {names: text for names, text, _ in _decided([line], (line,)).clauses}
    assert found == {frozenset({"stonekv"}): "StoneKV 不锚", frozenset({"slatekv"}): "SlateKV 入锚 §2.1"}
    assert decision_of(_paper("StoneKV: Fast"), _decided([line], (line,)), RULES)["against"] is True
    slate = Candidate("s", arxiv_ids=["2612.00002"], title="SlateKV: Tiered", titles=["SlateKV: Tiered"])
    assert decision_of(slate, _decided([line], (line,)), RULES)["against"] is False


def test_an_upgrade_is_named_by_the_release_it_upgrades_to() -> None:
    """A decision on Quill 3.1.0 is not one on the later "Quill 3.1.0 → 3.1.1" upgrade; one on 3.1.1 is."""
    line = "v9（Nov 3）：Quill 3.1.0 升级归运维，不进文档。"
    upgrade = Candidate("r", title="Quill 3.1.0 → 3.1.1 升级", titles=["Quill 3.1.0 → 3.1.1 升级"])
    assert decision_of(upgrade, _decided([line], ()), RULES) is None
    later = "v10（Nov 4）：Quill 3.1.1 不进文档。"
    assert decision_of(upgrade, _decided([line, later], ()), RULES)["against"] is True


def test_an_id_with_its_version_names_the_paper() -> None:
    line = "v14（Dec 4）：2612.00001v3 不锚。"
    assert decision_of(_paper("StoneKV: Fast"), _decided([line], (line,)), RULES)["against"] is True


def test_a_paper_anchored_without_queueing_is_suggested_its_section() -> None:
    """End to end: "MossKV 不进队，直接锚进 §2.1" is the doc's word for the paper, shown, and its section still
    suggested; it is no 🟡 settled by the doc."""
    from pipeline.brief.judge import judge
    from pipeline.classify.classifier import classify
    from pipeline.classify.taxonomy import load_taxonomy
    text = "MossKV reuses paged KV cache blocks across requests in an LLM serving engine, cutting TTFT by 30%."
    c = Candidate("2612.00001", arxiv_ids=["2612.00001"], titles=["MossKV: Paged KV Cache Reuse for LLM Serving"],
                  texts=[text], sources=[SourceRef("arxiv", "arxiv", text=text, date="2026-12-02")])
    line = "v13（Dec 3）：MossKV 不进队，直接锚进 §2.1。"
    judge(c, classify=classify, taxonomy=load_taxonomy(), doc="serving", anchors={}, briefed={}, known_ids=set(),
          rules=RULES, sections={"2.1": "Engines and runtimes"}, doc_decided=_decided([line], (line,)))
    assert c.decision["in_doc"] and not c.decided_out
    assert (c.section, c.suggested_section) == ("2.1", "§2.1") and c.category != "confirmation"
