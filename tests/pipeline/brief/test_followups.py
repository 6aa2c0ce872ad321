"""The summary's follow-ups: open flags by kind, each called by its items' short names (the day 13 reader: the
line was a copy of the flags section's headings, fourteen of them, and left the other eight out unsaid)."""
from __future__ import annotations

from kb.names import short_name
from pipeline.brief.followups import by_kind, flag_name, questions_id, runs


def test_an_item_is_called_by_its_coined_name_else_its_head_else_its_title_shortened() -> None:
    assert short_name("ShelfCtx: A Warm Shelf of Pre-Created CUDA Contexts") == "ShelfCtx"
    assert short_name("Lathe 2.3.1：H20 上的 FP8 KV cache 修好了，加了客户端断连取消") == "Lathe 2.3.1"
    assert short_name("2610.24893 PaceSpec — adaptive speculation lengths (anchored 2026-10-20)") == "PaceSpec"
    assert short_name("DeepSeek V4.1 Prefill 性能瓶颈：反直觉发现") == "DeepSeek V4.1 Prefill 性能瓶颈"
    long = "二期 H20 集群今天白天 GPU 利用率只有 37%，值班群里说的，没看到监控截图"
    assert short_name(long).endswith("…") and len(short_name(long)) <= 28
    assert short_name("") == "" and short_name(None) == ""


def test_a_boundary_is_called_by_both_papers() -> None:
    flag = {"kind": "boundary", "subject": "2610.29114 ~ 2610.27459", "status": "open",
            "evidence": {"new_title": "ShelfCtx: A Warm Shelf", "anchored_title": "2610.27459 PrimeCtx — a pool of contexts"},
            "context": {"anchored_title": "PrimeCtx — a pool of contexts"}}
    assert flag_name(flag) == "ShelfCtx ~ PrimeCtx"
    figures = {"kind": "number-conflict", "subject": "x · latency", "context": {"measured": {"item": None,
                                                                                            "system": "HydraRoute"}}}
    assert flag_name(figures) == "HydraRoute"


def test_numbers_run_together_and_the_open_flags_group_in_the_rules_order() -> None:
    assert runs(["#256", "#257", "#258", "#270", "", "#272", "#273"]) == ["#256–#258", "#270", "#272–#273"]
    assert runs([]) == [] and runs([""]) == []
    flags = [{"kind": "id-conflict", "label": "#3", "subject": "SlimWise: Decoupled", "status": "open"},
             {"kind": "unsourced-claim", "label": "#1", "subject": "DeepSeek V4.1 Prefill 性能瓶颈：反直觉", "status": "open"},
             {"kind": "unsourced-claim", "label": "#2", "subject": "QuietLane: Reserved SMs", "status": "dismissed"},
             {"kind": "date-inconsistency", "label": "#4", "subject": "2611.00123 @ n.md#1", "status": "open"}]
    groups = by_kind(flags)
    assert [(g["kind"], g["followed"], g["labels"]) for g in groups] == [
        ("unsourced-claim", True, ["#1"]), ("id-conflict", True, ["#3"]), ("date-inconsistency", False, ["#4"])]
    assert groups[0]["flags"] == [{"label": "#1", "name": "DeepSeek V4.1 Prefill 性能瓶颈"}]


def test_a_to_do_quoting_an_id_a_flag_questions_is_pointed_at_it() -> None:
    """Day 16's reader: "follow-up 已经挂了：arXiv:2611.05836" was a to-do of §5 while §3 flagged its ID as dated after
    the note; "PieceFill (2610.16059)" wrote the ID of the paper PieceFill is not."""
    note = "inbox/spark/2026-10-29T1100-llm-infra-e1prep.md#2"

    def todo(point: str, title: str = "PausePoint: …", sources: tuple[str, ...] = (note,)) -> dict:
        return {"title": title, "point": point, "sources": list(sources)}
    dated = {"kind": "date-inconsistency", "subject": f"2611.05836 @ {note}",
             "evidence": {"id": "2611.05836", "cited_in": note}}
    assert questions_id(dated, todo("作者说多租户的 follow-up 已经挂了：arXiv:2611.05836v2"))
    assert questions_id(dated, todo("the DOI 10.48550/arXiv.2611.05836"))
    assert not questions_id(dated, todo("12611.05836 or 2611.058361 or 2611.05836.7"))
    assert not questions_id(dated, todo("2611.05836", sources=("inbox/tom/later.md#1",)))   # dated right there
    impossible = {"kind": "impossible-id", "subject": "2611.0583",
                  "evidence": {"id": "2611.0583", "cited_in": note, "title": "PausePoint: …"}}
    assert questions_id(impossible, todo("see 2611.0583.")) and not questions_id(impossible, todo("see 2611.05836"))
    conflict = {"kind": "id-conflict", "subject": "PieceFill: …",
                "evidence": {"ids": {"2610.16139": [], "2610.16059": []}, "resolved": ["2610.16139"]}}
    assert questions_id(conflict, todo("PieceFill (2610.16059) is the paper to read", "PieceFill: …"))
    assert not questions_id(conflict, todo("PieceFill (2610.16139) is the paper to read", "PieceFill: …"))
    # a review's case: ShallowDraft's own to-do quoting ShallowDraft's ID is right
    assert not questions_id(conflict, todo("ShallowDraft (2610.16059): try its layer-skip draft", "ShallowDraft: …"))
    assert not questions_id({"kind": "boundary", "subject": "x", "evidence": {"id": "2610.16059"}}, todo("2610.16059"))


def test_an_unsourced_claim_under_a_heading_naming_nothing_is_called_by_its_lines_systems() -> None:
    """The day-22 reader: "#426 听来的 · 37%" — Spark's heading ("overheard"); the claim is Tessera's FoldQ → TwirlQ."""
    from pipeline.brief.followups import flag_name
    rumour = {"kind": "unsourced-claim", "subject": "听来的 · 37%", "context": {"aside": True},
              "evidence": {"claims": ["群里有人说 Tessera 把 FoldQ 换成 TwirlQ 以后，H20 上 decode 吞吐涨了 37%，没给链接"]}}
    assert flag_name(rumour) == "听来的 (FoldQ TwirlQ H20) · 37%"
    named = dict(rumour, subject="二期 H200 池子 · 52%")
    assert flag_name(named) == "二期 H200 池子 · 52%"
    assert flag_name(dict(rumour, evidence={})) == "听来的 · 37%"
