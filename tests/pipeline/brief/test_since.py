"""The header's "since the previous briefing" block: NET-new now and then, yesterday's new items now
anchored, flags opened and closed (the team's closures included), sources recovered or failing anew —
computed once in the build, the same figures in the Markdown (zh, en) and the JSON."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from kb.store import Store
from kb.store.anchors import current_anchors
from kb.store.briefings import briefing_data
from kb.store.flags import FlagState, status_after
from kb.text import normalize_url
from pipeline.brief.model import Flag
from pipeline.brief.since import flag_changes, source_changes
from tests.pipeline.brief.conftest import brief_json, kb, read
from tests.support.days import DAY1, DAY2, DAY2_DATA, lay_over
from tests.support.paths import SAMPLE


def _recorded(home: Path, day: str) -> dict[str, Any]:
    """The data the store recorded with the day's briefing (what the next day compares with)."""
    with Store.open(home / ".kb" / "kb.sqlite", readonly=True) as store:
        data = briefing_data(store, "inference", day)
    assert data is not None
    return data


def _open(data: dict[str, Any]) -> set[str]:
    return {f"{f['kind']}:{f['subject']}" for f in data["flags"] if f["status"] == "open"}


@pytest.fixture(scope="module")
def days(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The two sample days (tests.support.days), the team closing one of day 1's flags in between — the
    card's, which day 2 does not raise again (the card is day 1's item), so it stays closed."""
    home = tmp_path_factory.mktemp("since") / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    kb(home, "nightly", "--date", DAY1, "--offline", "--quiet")
    day1 = _recorded(home, DAY1)
    [card] = [f for f in day1["flags"] if f["kind"] == "date-inconsistency"]
    kb(home, "flags", "resolve", str(card["id"]), "--as", "dismissed", "--note", "the card is right")
    lay_over(DAY2_DATA / "workspace", home)
    kb(home, "nightly", "--date", DAY2, "--offline", "--quiet")
    return {"home": home, "day1": day1, "closed": card, "day2": _recorded(home, DAY2),
            "zh": read(home, f"briefings/{DAY2}-inference.md"), "en": read(home, f"briefings/{DAY2}-inference.en.md")}


def test_the_first_briefing_has_nothing_to_compare_with(days: dict[str, Any]) -> None:
    assert days["day1"]["since_previous"] is None
    first = read(days["home"], f"briefings/{DAY1}-inference.md")
    assert "本库首期简报" in first and "较上一期" not in first   # said once, in the header's first line


def test_net_new_now_and_then(days: dict[str, Any]) -> None:
    sp = days["day2"]["since_previous"]
    assert sp["previous"] == DAY1
    assert (sp["net_new"], sp["previous_net_new"]) == (days["day2"]["density"]["net_new"],
                                                       days["day1"]["density"]["net_new"])


def test_yesterdays_new_items_now_anchored(days: dict[str, Any]) -> None:
    """Every NET-new or engineering item of day 1 that day 2's doc anchors as of day 2, and only those
    (TailGuard, anchored "2026-10-15" in the doc, is not yet)."""
    with Store.open(days["home"] / ".kb" / "kb.sqlite", readonly=True) as store:
        anchored = {a.arxiv_id or normalize_url(a.url or "") for a in current_anchors(store, "inference", DAY2)}
    fresh = [i for i in days["day1"]["increments"] + days["day1"]["others"] if i["category"] != "confirmation"]
    keys = [i["arxiv_id"] or normalize_url(i["url"]) for i in fresh]
    expected = [k for k in dict.fromkeys(keys) if k in anchored]
    sp = days["day2"]["since_previous"]
    assert [a["key"] for a in sp["now_anchored"]] == expected and sp["now_anchored_count"] == len(expected)
    assert "2610.09255" in expected, "ExpertLane, NET-new on day 1, is anchored on day 2 (MANIFEST)"
    assert "2610.08977" not in expected


def test_flags_opened_and_closed_count_the_teams_closure(days: dict[str, Any]) -> None:
    """Closed: the flag the team dismissed after reading day 1 (though day 1's briefing was rewritten to
    show it closed). What day 1 showed open and day 2 does not raise again is carried, not closed: it
    is still open (``kb flags --open``)."""
    day1, day2 = days["day1"], days["day2"]
    closed = days["closed"]
    assert [f["status"] for f in day2["flags"] if f["id"] == closed["id"]] in ([], ["dismissed"])
    rewritten = _recorded(days["home"], DAY1)
    assert f"{closed['kind']}:{closed['subject']}" not in _open(rewritten)
    not_again = _open(day1) - _open(day2)
    assert day2["since_previous"]["flags"] == {"opened": len(_open(day2) - _open(day1)), "again": 0, "closed": 1,
                                               "carried": len(not_again) - 1}
    still_open = {f"{f['rule']}:{f['subject']}" for f in json.loads(
        kb(days["home"], "flags", "--open", "--format", "json").stdout)}
    assert not_again - {f"{closed['kind']}:{closed['subject']}"} <= still_open


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_header_says_it_in_one_block(days: dict[str, Any], lang: str) -> None:
    sp = days["day2"]["since_previous"]
    # each anchored paper by its name and ID ("ExpertLane 2610.09255"): a reader knows it by name
    ids = [f"{a['name']} {a['arxiv_id']}" if a["name"] else a["arxiv_id"] for a in sp["now_anchored"] if a["arxiv_id"]]
    assert any(i.startswith("ExpertLane ") for i in ids), ids
    eng = sp["now_anchored_count"] - len(ids)
    header = days[lang].split("\n## ", 1)[0].splitlines()
    f = sp["flags"]
    if lang == "zh":
        want = [f"较上一期（{DAY1}）：", "", f"- NET-new：{sp['net_new']} 条（上一期 {sp['previous_net_new']} 条）",
                f"- 上一期的 NET-new/工程条目现已锚定：{sp['now_anchored_count']} 件（{'、'.join(ids[:6])}"
                f"{' 等' if len(ids) > 6 else ''}{f'，工程条目 {eng} 件' if eng else ''}）",
                f"- 待核实：新开 {f['opened']} 条，关闭 {f['closed']} 条；此前 {f['carried']} 条本期未再出现、仍未关闭"
                "（`kb flags --open`）", "- 来源：无恢复、无新故障"]
    else:
        want = [f"Since the previous briefing ({DAY1}):", "", f"- NET-new: {sp['net_new']} ({sp['previous_net_new']} then)",
                f"- Its NET-new and engineering items now anchored: {sp['now_anchored_count']} ({', '.join(ids[:6])}"
                f"{', …' if len(ids) > 6 else ''}{f'; {eng} engineering items' if eng > 1 else ''})",
                f"- Flags: {f['opened']} opened, {f['closed']} closed; {f['carried']} from earlier briefings not raised "
                "again and still open (`kb flags --open`)", "- Sources: none recovered, none failing anew"]
    start = header.index(want[0])
    assert header[start:start + len(want)] == want


def test_the_json_output_carries_the_same_figures(days: dict[str, Any]) -> None:
    assert brief_json(days["home"], day=DAY2)["since_previous"] == days["day2"]["since_previous"]


# --- the pure pieces -----------------------------------------------------------------------------

def test_a_flag_raised_again_keeps_a_closure_only_while_its_evidence_is_unchanged() -> None:
    assert status_after(None, "h") == "open"
    assert status_after(FlagState("dismissed", "h"), "h") == "dismissed"
    assert status_after(FlagState("dismissed", "h"), "new") == "open"
    assert status_after(FlagState("stale", "h"), "h") == "open"


def test_the_team_s_closure_is_back_with_the_evidence_it_was_made_on() -> None:
    """A note moved away and back: the flag reopened on the evidence in between, then stayed open for good."""
    reopened = FlagState("open", "between", closures={"h": "dismissed"})
    assert status_after(reopened, "h") == "dismissed"
    assert status_after(reopened, "between") == "open"
    assert status_after(FlagState("stale", "between", closures={"h": "verified"}), "h") == "verified"


def test_a_flag_whose_closure_came_back_today_counts_as_closed_not_carried() -> None:
    """It was raised and is dismissed again, yet the stored status (open) called it carried and still open."""
    from kb.store.flags import evidence_hash
    prev = {"date": "2026-10-12", "flags": [{"kind": "boundary", "subject": "a", "status": "open"}]}
    states = {"boundary:a": FlagState("open", "between", "2026-10-11", {evidence_hash({"x": 1}): "dismissed"})}
    changes = flag_changes(prev, [Flag("boundary", "a", {"x": 1})], states, "2026-10-13")
    assert changes == {"opened": 0, "again": 0, "closed": 1, "carried": 0}


def test_flag_changes_counts_reopened_as_opened_and_team_closures_of_the_window_only() -> None:
    prev = {"date": "2026-10-08", "flags": [{"kind": "boundary", "subject": "a", "status": "open"},
                                           {"kind": "boundary", "subject": "b", "status": "open"}]}
    from kb.store.flags import evidence_hash
    raised = [Flag("boundary", "a", {"x": 1}), Flag("boundary", "c", {"x": 2}), Flag("boundary", "d", {"x": 3})]
    states = {"boundary:a": FlagState("open", evidence_hash({"x": 1}), None),
              "boundary:d": FlagState("dismissed", "old", "2026-10-07"),        # new evidence: reopened
              "boundary:e": FlagState("verified", "h", "2026-10-08"),           # closed after reading the 8th
              "boundary:f": FlagState("verified", "h", "2026-10-07")}           # closed before: not this round
    # opened c, d; closed e (the team's, after reading the 8th); b is not raised again but nobody closed it
    assert flag_changes(prev, raised, states, "2026-10-09") == {"opened": 2, "again": 0, "closed": 1, "carried": 1}
    states["boundary:b"] = FlagState("stale", "h", None)          # its files are gone: closed by kb
    assert flag_changes(prev, raised, states, "2026-10-09") == {"opened": 2, "again": 0, "closed": 2, "carried": 0}


def test_carried_counts_every_earlier_open_flag_not_raised_today() -> None:
    """The header's "N from earlier briefings still open" counted the previous briefing's flags alone: on a
    held-out day 4, 25, while 17 more of days 1 and 2 were open too (`kb flags --open`)."""
    prev = {"date": "2026-10-12", "flags": [{"kind": "boundary", "subject": "a", "status": "open"}]}
    states = {"boundary:a": FlagState("open", "h", first_seen="2026-10-12"),
              "boundary:old": FlagState("open", "h", first_seen="2026-10-08"),        # not in the previous one
              "boundary:shut": FlagState("dismissed", "h", first_seen="2026-10-08"),
              "boundary:mine": FlagState("open", "h", first_seen="2026-10-13")}      # an earlier build of today's
    assert flag_changes(prev, [], states, "2026-10-13") == {"opened": 0, "again": 0, "closed": 0, "carried": 2}
    raised = [Flag("boundary", "old", {"x": 1})]                       # raised again: not carried, and not opened
    assert flag_changes(prev, raised, states, "2026-10-13") == {"opened": 0, "again": 1, "closed": 0, "carried": 1}
    from kb.store.flags import evidence_hash
    states["boundary:old"] = FlagState("open", "h2", closures={evidence_hash({"x": 1}): "dismissed"},
                                       first_seen="2026-10-08")
    assert flag_changes(prev, raised, states, "2026-10-13")["carried"] == 1      # raised, its closure back: closed


def test_source_changes() -> None:
    prev = {"sources": [{"name": "arxiv", "kind": "source", "status": "failed"},
                        {"name": "hf", "kind": "source", "status": "ok"},
                        {"name": "gone", "kind": "source", "status": "failed"}]}
    today = [{"name": "arxiv", "kind": "source", "status": "not-modified"},
             {"name": "hf", "kind": "source", "status": "failed"}]
    assert source_changes(prev, today) == {"recovered": ["arxiv"], "failed": ["hf"]}


def test_a_flag_whose_files_are_gone_tonight_counts_as_closed_not_carried(days: dict[str, Any],
                                                                           tmp_path: Path) -> None:
    """Day 3 raises none of day 2's flags; those citing only a note the team deleted go stale in tonight's
    sync, and the header counts them as closed, the rest as carried (with every older flag still open)."""
    home = tmp_path / "ws"
    shutil.copytree(days["home"], home)
    (home / "inbox/spark/2026-10-09-llm-infra-e1prep.md").unlink()
    kb(home, "nightly", "--date", "2026-10-10", "--offline", "--quiet", ok=False)
    flags = _recorded(home, "2026-10-10")["since_previous"]["flags"]
    stale = [f for f in json.loads(kb(home, "flags", "--format", "json").stdout) if f["status"] == "stale"]
    assert stale and flags["closed"] == len(stale)
    raised = {f["id"] for f in _recorded(home, "2026-10-10")["flags"]}
    earlier = [f for f in json.loads(kb(home, "flags", "--open", "--format", "json").stdout)
               if f["first_seen"] < "2026-10-10" and f["id"] not in raised]
    assert flags["carried"] == len(earlier) > len(_open(days["day2"])) - len(stale)


def test_a_flag_open_since_an_earlier_briefing_and_raised_today_is_raised_again_not_opened() -> None:
    """Day 12's "Flags: 21 opened" counted the team's 二期集群 figures, open since day 7 and not in day 11's
    briefing, as a new flag (a reader's review). One the team closed and new evidence reopened is opened again."""
    prev = {"date": "2026-10-22", "flags": [{"kind": "boundary", "subject": "b", "status": "open"}]}
    states = {"unsourced-claim:a": FlagState("open", "h", first_seen="2026-10-16"),
              "boundary:b": FlagState("open", "h", first_seen="2026-10-22"),
              "unsourced-claim:c": FlagState("open", "h", first_seen="2026-10-16", closures={"old": "dismissed"})}
    today = [Flag("unsourced-claim", "a", {}), Flag("boundary", "b", {}), Flag("unsourced-claim", "c", {}),
             Flag("unsourced-claim", "d", {})]
    changes = flag_changes(prev, today, states, "2026-10-23")
    assert changes == {"opened": 2, "again": 1, "closed": 0, "carried": 0}
