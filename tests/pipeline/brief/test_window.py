"""The window: one day back for the first briefing, from the previous cut-off afterwards; items
judged by their own dates; a past day rebuilt without reading the clock."""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import (
    DAY,
    ZH_MD,
    all_items,
    brief,
    brief_json,
    clone,
    copy_sample,
    ingest_sample,
    kb,
    read,
)

DAY2 = "2026-10-09"


def _note(home: Path, name: str, body: str) -> None:
    path = home / "inbox" / "tom" / name
    path.write_text(f"---\ntitle: \"Tom follow-up\"\ncredibility: 4\n---\n\n# Follow-up\n\n{body}", encoding="utf-8")


@pytest.fixture(scope="module")
def day1(sample_day: Path) -> dict:
    brief(sample_day)   # recorded: the next day's window starts at its cut-off
    return brief_json(sample_day)


def test_first_briefing_looks_back_one_day(sample_day: Path, day1: dict) -> None:
    assert day1["window"] == {"start": "2026-10-07T23:59", "end": "2026-10-08T23:59", "previous_briefing": None}
    assert day1["density"]["basis"] == "absolute"
    assert "本库首期简报（回看一天）" in read(sample_day, ZH_MD)


def _second_day(sample_day: Path, tmp_path: Path, body: str) -> dict:
    home = clone(sample_day, tmp_path / "ws")
    _note(home, f"{DAY2}T0900-followup.md", body)
    kb(home, "ingest", "workspace", "--date", DAY2)
    return brief_json(home, day=DAY2)


SLIMWISE_BY_ID = """## 1. SlimWise 精读（arXiv:2610.09701）

- 复读 SlimWise：decode 侧显存降 38%，decode 吞吐 1.41x
- 与 CascadeEP 互补：一个剪枝，一个调度

## 2. FooCache：KV cache offload 到 CPU 的新参数

来源：https://example.org/foocache-kv-offload （2026-10-09）

- FOOCACHE_OFFLOAD_RATIO=0.5 时 prefill 吞吐提升 1.3x，KV cache 命中率 72%
"""


def test_second_day_starts_at_the_previous_cutoff(sample_day: Path, day1: dict, tmp_path: Path) -> None:
    d2 = _second_day(sample_day, tmp_path, SLIMWISE_BY_ID)
    assert d2["window"] == {"start": "2026-10-08T23:59", "end": "2026-10-09T23:59", "previous_briefing": DAY}
    assert d2["density"]["basis"] == "ratio" and d2["density"]["previous"] == day1["density"]["net_new"]
    items = all_items(d2)
    [slim] = [i for i in items if i["arxiv_id"] == "2610.09701"]
    assert slim["category"] == "confirmation"
    [inc] = [i for i in d2["increments"] if i["arxiv_id"] == "2610.09701"]
    assert inc["why"][0]["code"] in ("briefed", "anchored") and inc["why"][0]["detail"] in (DAY, "")
    # The new engineering item of the day is there; yesterday's items are not re-listed.
    assert [i for i in items if "foocache" in (i["url"] or "") and i["category"] == "engineering"]
    day1_keys = {i["arxiv_id"] or i["url"] for i in all_items(day1)}
    assert not [i for i in items if (i["arxiv_id"] or i["url"]) in day1_keys and i["category"] != "confirmation"]
    assert not [i for i in items if "moriio" in (i["url"] or "") or "nixl" in (i["url"] or "")]
    assert {a["arxiv_id"] for a in d2["arxiv_ids"] if a["status"] == "new"} == set()


def test_second_day_remention_under_the_other_spelling(sample_day: Path, day1: dict, tmp_path: Path) -> None:
    d2 = _second_day(sample_day, tmp_path, "## 1. SlimWise 另一种写法 arXiv:2607.09701\n\n"
                                           "- 同一篇：MoE serving 专家剪枝，prefill / decode 分开剪\n")
    [slim] = [i for i in all_items(d2) if "SlimWise" in i["title"]]
    assert slim["category"] == "confirmation", (slim["arxiv_id"], slim["category"])


def test_second_day_remention_by_title(sample_day: Path, day1: dict, tmp_path: Path) -> None:
    d2 = _second_day(sample_day, tmp_path,
                     "## 1. SlimWise: Decoupled Expert Pruning across Prefill and Decode for Efficient MoE Serving\n\n"
                     "- 复读：MoE expert pruning，decode 吞吐 1.41x\n")
    [slim] = [i for i in all_items(d2) if "SlimWise" in i["title"]]
    assert slim["category"] == "confirmation", slim["category"]


def test_rerun_of_day1_after_day2_is_unchanged(sample_day: Path, day1: dict, tmp_path: Path) -> None:
    home = clone(sample_day, tmp_path / "ws")
    before = read(home, ZH_MD)
    _note(home, f"{DAY2}T0900-followup.md", SLIMWISE_BY_ID)
    kb(home, "ingest", "workspace", "--date", DAY2)
    brief(home, day=DAY2)
    brief(home)
    assert read(home, ZH_MD) == before, "a later day's note and briefing do not leak into an earlier day"


def _forbid_clock(monkeypatch: pytest.MonkeyPatch, cli_now: dt.datetime | None = None) -> None:
    """faketime-like: every kb/pipeline module's datetime.now/utcnow/today and date.today raise.

    ``cli_now``: the CLI's clock reads this instant instead (it reads the clock once, to refuse a day
    that has not begun: ``briefed_day``); the briefing itself still may not read one."""
    def boom(*_a, **_k):
        raise AssertionError("the briefing read the wall clock")

    class NoClockDatetime(dt.datetime):
        now = classmethod(boom)
        utcnow = classmethod(boom)
        today = classmethod(boom)

    class NoClockDate(dt.date):
        today = classmethod(boom)

    class FixedClockDatetime(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return cli_now.astimezone(tz)

    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == "kb" or name.startswith(("kb.", "pipeline"))):
            continue
        if getattr(mod, "datetime", None) is dt.datetime:
            cli = name.startswith("kb.cli") and cli_now is not None
            monkeypatch.setattr(mod, "datetime", FixedClockDatetime if cli else NoClockDatetime)
        if getattr(mod, "date", None) is dt.date:
            monkeypatch.setattr(mod, "date", NoClockDate)
    import pipeline.context
    monkeypatch.setattr(pipeline.context, "utc_now", boom)


def test_past_day_rebuilt_without_the_clock(sample_day: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = clone(sample_day, tmp_path / "ws")
    brief(home)
    expected = read(home, ZH_MD)
    (home / ZH_MD).unlink()
    import pipeline.brief.build  # loaded before the clock is taken away
    import pipeline.brief.render  # noqa: F401
    _forbid_clock(monkeypatch, cli_now=dt.datetime(2031, 5, 17, 3, 0, tzinfo=dt.UTC))   # years later
    brief(home)
    assert read(home, ZH_MD) == expected


def test_build_briefing_never_calls_now(sample_day: Path, tmp_path: Path) -> None:
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.brief.write import briefing_data
    from pipeline.context import RunContext

    def boom():
        raise AssertionError("ctx.now() called while building a briefing")

    home = clone(sample_day, tmp_path / "ws")
    ws = open_workspace(str(home))
    ctx = RunContext(ws, Store.open(ws.store_path), dt.date(2026, 10, 8), offline=True, now=boom)
    try:
        data = briefing_data(ctx, "inference")
    finally:
        ctx.store.close()
    assert data["date"] == DAY and data["window"]["end"] == "2026-10-08T23:59"


def test_items_dated_outside_the_window_are_left_out(tmp_path: Path) -> None:
    """A note dated the day before the window and one after it are not in the day's briefing."""
    home = copy_sample(tmp_path / "ws")
    _note(home, "2026-10-07T2300-early.md", "## 1. EarlyKV：KV cache offload 参数\n\n- EARLYKV_OFFLOAD_RATIO=0.5 提升 1.3x\n")
    _note(home, "2026-10-09T0100-late.md", "## 1. LateKV：KV cache offload 参数\n\n- LATEKV_OFFLOAD_RATIO=0.5 提升 1.3x\n")
    _note(home, "2026-10-08T2359-edge.md", "## 1. EdgeKV：KV cache offload 参数\n\n- EDGEKV_OFFLOAD_RATIO=0.5 提升 1.3x\n")
    ingest_sample(home)
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 200"), encoding="utf-8")
    titles = " ".join(i["title"] for i in all_items(brief_json(home)))
    assert "EdgeKV" in titles, "the cut-off minute is inside"
    assert "EarlyKV" not in titles and "LateKV" not in titles


def test_posts_are_windowed_in_local_time(tmp_path: Path) -> None:
    home = copy_sample(tmp_path / "ws")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("top = 5", "top = 200"), encoding="utf-8")
    items = """
    <item>
      <title>InWindowKV: layer-wise KV cache streaming for prefill decode disaggregation</title>
      <link>https://blog.lmcache.ai/in-window-local/</link>
      <pubDate>Wed, 07 Oct 2026 18:00:00 +0000</pubDate>
      <guid isPermaLink="true">https://blog.lmcache.ai/in-window-local/</guid>
      <description>KV cache streaming cuts TTFT by 27% in prefill decode disaggregation.</description>
    </item>
    <item>
      <title>NextDayKV: layer-wise KV cache streaming for prefill decode disaggregation</title>
      <link>https://blog.lmcache.ai/next-day-local/</link>
      <pubDate>Thu, 08 Oct 2026 20:00:00 +0000</pubDate>
      <guid isPermaLink="true">https://blog.lmcache.ai/next-day-local/</guid>
      <description>KV cache streaming cuts TTFT by 29% in prefill decode disaggregation.</description>
    </item>
"""
    feed = home / "recordings" / "blogs" / "lmcache.xml"
    feed.write_text(feed.read_text(encoding="utf-8").replace("<item>", items.strip() + "\n    <item>", 1),
                    encoding="utf-8")
    ingest_sample(home)
    urls = {i["url"] for i in all_items(brief_json(home))}
    assert "https://blog.lmcache.ai/in-window-local/" in urls, "2026-10-08 02:00 CST is in the Oct-8 window"
    assert "https://blog.lmcache.ai/next-day-local/" not in urls, "2026-10-09 04:00 CST is the next day"


def test_the_clock_guard_works(sample_day: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard above is effective: `kb brief` without --date must read the clock, and is stopped."""
    _forbid_clock(monkeypatch)
    result = kb(sample_day, "brief", "--format", "json", ok=False)
    assert result.exit_code != 0 and "wall clock" in repr(result.exception)
