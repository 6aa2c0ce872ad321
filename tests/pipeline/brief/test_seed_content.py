"""What the seed briefing of 2026-10-08 says must be in kb's briefing of the same day,
independent of the golden bytes: the JSON contract, §2's five increments, §3's four
verification items, §4's continuing anchors, the source list."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.store import Store
from kb.text import normalize_url
from tests.pipeline.brief.conftest import (
    OCT7_ANCHORS,
    ZH_MD,
    all_items,
    brief,
    brief_json,
    clone,
    find_increment,
    flags_of,
    read,
    sections,
)

CATEGORIES = {"net-new", "engineering", "confirmation"}


@pytest.fixture(scope="module")
def data(sample_day: Path) -> dict[str, Any]:
    return brief_json(sample_day)


@pytest.fixture(scope="module")
def zh(sample_day: Path) -> dict[str, str]:
    brief(sample_day)
    return sections(read(sample_day, ZH_MD))


# --- the JSON contract -------------------------------------------------------------------

def test_json_contract_keys(data: dict[str, Any]) -> None:
    assert list(data)[:5] == ["density", "increments", "flags", "arxiv_ids", "sources"]
    assert {"level", "net_new", "basis"} <= set(data["density"])
    assert data["increments"], "no increments at all"
    for inc in data["increments"] + data["others"]:
        assert inc["arxiv_id"] or inc["url"], inc
        assert inc["title"] and inc["category"] in CATEGORIES and inc["relevance"] in ("primary", "adjacent")
    for inc in data["increments"]:
        assert {"topics", "suggested_section", "sources"} <= set(inc)
        assert isinstance(inc["topics"], list) and inc["topics"]
        assert inc["sources"] and all({"kind", "name"} <= set(s) for s in inc["sources"])
        assert inc["suggested_section"] is None or inc["suggested_section"].startswith("§")
    for f in data["flags"]:
        assert {"id", "kind", "subject", "evidence", "status"} <= set(f)
        assert isinstance(f["id"], int) and f["status"] in ("open", "verified", "dismissed")
        assert isinstance(f["evidence"], dict) and f["evidence"]
    for a in data["arxiv_ids"]:
        assert {"arxiv_id", "title", "section", "status"} <= set(a) and a["status"] in ("new", "continuing")
    for s in data["sources"]:
        assert {"name", "status", "credibility", "counts"} <= set(s) and isinstance(s["counts"], dict)


# --- §2: the seed's five increments -------------------------------------------------------

SEED_INCREMENTS = [
    # (how to find it, expected category, expected suggested section)
    # The reference files both under §2.3 PD disaggregation, "the transfer layer's engineering details": §2.3.1
    # KV transfer is §2.3's own subsection for exactly that, whose line asks for it ("缺工程控制面参数 —— 待补"),
    # and the team anchored both there the next day (day 2's v311, renumbered §2.4.1)
    ({"url_part": "moriio"}, "engineering", "§2.3.1"),
    ({"url_part": "nixl"}, "engineering", "§2.3.1"),
    ({"arxiv_id": "2610.09701"}, "net-new", "§2.3"),
    ({"title_part": "DeepSeek V4.1"}, "confirmation", "§1.1"),
    ({"arxiv_id": "2610.08812"}, "net-new", "§3.1"),   # TreeDraft, before the seed's recap (issue 14)
]


@pytest.mark.parametrize("how,category,section", SEED_INCREMENTS,
                         ids=["MORI-IO", "NIXL", "SlimWise", "DeepSeek-V4.1", "TreeDraft"])
def test_section2_has_the_seed_increment(data: dict[str, Any], how: dict[str, str], category: str,
                                         section: str | None) -> None:
    inc = find_increment(data, **how)
    assert inc["category"] == category, (inc["title"], inc["why"])
    assert inc["relevance"] == "primary"
    if section:
        assert inc["suggested_section"] == section


def test_engineering_increments_carry_their_parameters(data: dict[str, Any]) -> None:
    mori = find_increment(data, url_part="moriio")
    assert any("VLLM_MORIIO_CONNECTOR_READ_MODE" in f for f in mori["facts"])
    assert any("Read 模式" in p["text"] for p in mori["points"]) and any("Write 模式" in p["text"] for p in mori["points"])
    nixl = find_increment(data, url_part="nixl")
    # the backends are the table under the bullet that introduces them
    [point] = [p for p in nixl["points"] if p["blocks"]]
    assert point["text"].endswith("三种底层传输后端 Benchmark：")
    [table] = point["blocks"]
    assert [row[0]["text"] for row in table["rows"]] == ["后端", "UCCL", "UCX", "Mooncake"]
    assert {s["kind"] for s in nixl["sources"]} >= {"entry", "post"}, "Jay's entry 2 and the llm-d post are one item"


def test_slimwise_is_one_increment_under_the_resolvable_id(data: dict[str, Any]) -> None:
    slim = find_increment(data, arxiv_id="2610.09701")
    assert slim["other_ids"] == ["2607.09701"]
    kinds = {s["kind"] for s in slim["sources"]}
    assert {"entry", "card", "hf"} <= kinds, kinds
    assert sum("SlimWise" in i["title"] for i in all_items(data)) == 1, "SlimWise listed twice"


def test_deepseek_observation_is_unverified_not_new(data: dict[str, Any]) -> None:
    ds = find_increment(data, title_part="DeepSeek V4.1")
    assert ds["arxiv_id"] is None and "⚠" in ds["markers"]
    assert [w["code"] for w in ds["why"]] == ["unverified"]


def test_inference_engineering_cites_both_notes(data: dict[str, Any]) -> None:
    """The seed's fifth increment, a recap ("无新参数或测量"): one item from two notes, listed after
    what is new (issue 14: a recap never ranks above a NET-new paper or an engineering increment)."""
    [ie] = [o for o in data["others"] if "Inference Engineering" in o["title"]]
    assert ie["category"] == "confirmation"
    paths = {s["path"] for s in ie["sources"]}
    assert any("T0930" in p for p in paths) and any("T1950" in p for p in paths)
    assert {s["entry"] for s in ie["sources"] if "T1950" in s["path"]} == {7}


def test_markdown_section2_lists_the_five(zh: dict[str, str]) -> None:
    s2 = zh["二"]
    heads = [line for line in s2.splitlines() if line.startswith("### 增量 ")]
    assert len(heads) == 5
    for needle in ("MORI-IO", "NIXL", "SlimWise", "DeepSeek V4.1", "TreeDraft"):
        assert [h for h in heads if needle in h], needle
    assert "VLLM\\_MORIIO" not in s2, "env vars must not be mangled by escaping"
    assert "VLLM_MORIIO_CONNECTOR_READ_MODE=1" in s2


# --- §3: verification items ---------------------------------------------------------------

def test_flag_deepseek_unsourced_claim(data: dict[str, Any]) -> None:
    [f] = [f for f in flags_of(data, "unsourced-claim") if "DeepSeek" in f["subject"]]
    assert f["status"] == "open" and f["evidence"]["arxiv_ids"] == []
    assert any("待核实" in c for c in f["evidence"]["claims"])
    assert any("T1620" in s for s in f["evidence"]["sources"])


def test_flag_slimwise_cascadeep_boundary(data: dict[str, Any]) -> None:
    [f] = [f for f in flags_of(data, "boundary") if f["evidence"]["new"] == "2610.09701"]
    assert f["evidence"]["anchored"] == "2609.33252" and f["evidence"]["section"] == "§2.3"
    assert {"moe", "pd-disaggregation"} <= set(f["evidence"]["shared_topics"])


def test_flag_slimwise_id_conflict_the_seed_missed(data: dict[str, Any]) -> None:
    [f] = flags_of(data, "id-conflict")
    assert set(f["evidence"]["ids"]) == {"2607.09701", "2610.09701"}
    assert f["evidence"]["resolved"] == ["2610.09701"]
    assert any("hf-daily" in w for w in f["evidence"]["ids"]["2607.09701"]), "Tom's note wrote 2607.09701"


def test_slimwise_upvotes_rising_through_the_day_are_no_conflict(data: dict[str, Any]) -> None:
    # Tom's 09:00 note counts 11▲ ("a 09:00 snapshot, it will rise by evening"); the 20:00 card and the
    # nightly's fetch count 12▲: one count rising, as the seed reads it (it cites both, flags neither)
    assert not [f for f in flags_of(data, "number-conflict") if "upvotes" in f["subject"]]


def test_markdown_section3_has_the_three(zh: dict[str, str]) -> None:
    s3 = zh["三"]
    heads = [l for l in s3.splitlines() if l.startswith("### ⚠️")]
    assert any("DeepSeek V4.1" in h and "来源待核实" in h for h in heads)
    assert any("2610.09701 ~ 2609.33252" in h for h in heads)
    assert any("arXiv 号冲突" in h and "SlimWise" in h for h in heads)
    assert not any("数值冲突" in h and "upvotes" in h for h in heads)
    assert "2607.09701（" in s3


# --- §4: arXiv IDs ------------------------------------------------------------------------

def test_section4_oct7_anchors_are_continuing(data: dict[str, Any]) -> None:
    by_id: dict[str, set[str]] = {}
    for a in data["arxiv_ids"]:
        by_id.setdefault(a["arxiv_id"], set()).add(a["status"])
    for aid in OCT7_ANCHORS:
        assert by_id.get(aid) == {"continuing"}, (aid, by_id.get(aid))
    assert by_id.get("2610.09701") == {"new"}
    assert "2607.09701" not in by_id, "the unresolvable spelling is not citable"
    rows = [a for a in data["arxiv_ids"] if a["arxiv_id"] in OCT7_ANCHORS]
    assert all(a["anchored_on"] == "2026-10-07" for a in rows)


def test_markdown_section4_table(zh: dict[str, str]) -> None:
    rows = [l for l in zh["四"].splitlines() if l.startswith("| ") and l[2:3].isdigit()]
    for aid in OCT7_ANCHORS:
        mine = [r for r in rows if r.startswith(f"| {aid} |")]
        assert mine and all("延续锚定" in r and "本轮新增" not in r for r in mine), (aid, mine)
    assert [r for r in rows if r.startswith("| 2610.09701 |") and "本轮新增" in r]


# --- sources ------------------------------------------------------------------------------

def test_sources_checked(data: dict[str, Any]) -> None:
    by_name = {s["name"]: s for s in data["sources"]}
    notes = [n for n in by_name if n.startswith("inbox/")]
    assert len(notes) == 7
    cred = {n: by_name[n]["credibility"] for n in notes}
    assert by_name["inbox/jay/2026-10-08T1950-jay-engineering-filter-pd-disaggregation-mooncake-moriiio.md"][
        "credibility"] == 5
    assert by_name["inbox/tom/2026-10-08-0900-hf-daily-2026-10-08.md"]["credibility"] == 4, cred
    assert by_name["inbox/spark/2026-10-08-llm-infra-e1prep.md"]["credibility"] == 3, cred
    for name in ("organized/paper_cards/", "organized/queue/work-queue.md", "arxiv", "hf", "vllm-blog", "llm-d",
                 "lmcache"):
        assert name in by_name, name
        assert by_name[name]["status"] == "ok"
    assert by_name["arxiv"]["counts"]["parsed"] == 230
    assert by_name["llm-d"]["credibility"] == 5 and by_name["lmcache"]["credibility"] == 4


# --- judgement over every item ------------------------------------------------------------

def _anchored(home: Path) -> tuple[set[str], set[str]]:
    with Store.open(home / ".kb" / "kb.sqlite") as store:
        rows = store.query("SELECT arxiv_id, url FROM anchors WHERE topic = 'inference' AND ended_on IS NULL")
    return ({r["arxiv_id"] for r in rows if r["arxiv_id"]}, {normalize_url(r["url"]) for r in rows if r["url"]})


def test_anchored_items_are_never_new(sample_day: Path, tmp_path: Path) -> None:
    """Over every relevant item (a clone with a large top, so nothing is cut off)."""
    home = clone(sample_day, tmp_path / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 200"), encoding="utf-8")
    data = brief_json(home)
    assert data["others"] == [] and len(data["increments"]) == data["counts"]["relevant"]
    ids, urls = _anchored(home)
    assert set(OCT7_ANCHORS) <= ids
    seen_anchored = 0
    for inc in data["increments"]:
        subjects = {inc["arxiv_id"], *inc["other_ids"]} | ({normalize_url(inc["url"])} if inc["url"] else set())
        if subjects & (ids | urls):
            seen_anchored += 1
            assert inc["category"] == "confirmation", (inc["title"], inc["why"])
            assert inc["anchored_in"], inc["title"]
    assert seen_anchored >= 3, "the sample re-mentions CascadeEP, InferenceBench and the H100 comparison"
    cascade = [i for i in data["increments"] if i["arxiv_id"] == "2609.33252"]
    assert cascade and cascade[0]["why"][0]["code"] == "anchored"


def test_adjacent_and_trap_papers_are_not_new(sample_day: Path, tmp_path: Path) -> None:
    """README: RECAST and RolloutMesh are adjacent; 2610.08640/2610.09771 ('causal / variational inference')
    and 2610.08733 (FP8 training) are keyword traps."""
    home = clone(sample_day, tmp_path / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 200"), encoding="utf-8")
    data = brief_json(home)
    by_id = {i["arxiv_id"]: i for i in data["increments"] if i["arxiv_id"]}
    for aid in ("2610.08640", "2610.09771"):
        assert aid not in by_id or by_id[aid]["category"] == "confirmation", by_id.get(aid)
    for aid in ("2610.10507", "2610.09388", "2610.08733"):
        if aid in by_id:
            assert by_id[aid]["category"] == "confirmation", by_id[aid]
    for aid in ("2610.08812", "2610.08977", "2610.09034", "2610.09255", "2610.09418", "2610.09560"):
        assert by_id[aid]["category"] == "net-new" and by_id[aid]["relevance"] == "primary", aid


def test_post_citing_a_paper_is_one_item(data: dict[str, Any]) -> None:
    post = "blog.vllm.ai/2026/10/08/load-adaptive-spec-decode"
    items = [i for i in all_items(data) if i.get("arxiv_id") == "2610.08812" or post in (i.get("url") or "")]
    assert len(items) == 1, [(i["arxiv_id"], i["url"], i["category"]) for i in items]


def test_every_counted_increment_is_visible(sample_day: Path) -> None:
    data = brief_json(sample_day)
    brief(sample_day)
    md = read(sample_day, ZH_MD)
    counted = data["density"]["net_new"]
    visible = [i for i in all_items(data) if i["category"] != "confirmation"]
    assert len(visible) == counted, (counted, [i["title"] for i in visible])
    for aid in ("2610.08694", "2610.08977", "2610.09034", "2610.09255", "2610.09418", "2610.09560"):
        assert aid in md, aid
