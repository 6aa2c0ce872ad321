"""Same inputs, same bytes: a rerun of the same day, and the same day ingested in another order."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from pipeline.context import open_context
from pipeline.ingest.public import ingest_blogs
from tests.pipeline.brief.conftest import DAY, EN_MD, HTML, ZH_MD, brief_outputs, copy_sample, kb

FEEDS = ("vllm-blog", "llm-d", "lmcache")


def _all_outputs(home: Path) -> dict[str, bytes]:
    out = {rel: text.encode("utf-8") for rel, text in zip((ZH_MD, EN_MD, HTML), brief_outputs(home).values())}
    out["json"] = kb(home, "brief", "--date", DAY, "--format", "json").stdout_bytes
    return out


@pytest.fixture(scope="module")
def reference(sample_day: Path) -> dict[str, bytes]:
    return _all_outputs(sample_day)


def _diff_keys(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return [k for k in a if a[k] != b.get(k)]


def test_rerun_is_byte_identical(sample_day: Path, reference: dict[str, bytes]) -> None:
    again = _all_outputs(sample_day)
    assert not _diff_keys(reference, again)
    assert all(reference.values())


def test_rerun_after_reingest_is_byte_identical(sample_day: Path, reference: dict[str, bytes]) -> None:
    """Ingesting the same day again (nothing changed) does not change the briefing."""
    kb(sample_day, "ingest", "all", "--offline", "--date", DAY)
    assert not _diff_keys(reference, _all_outputs(sample_day))


def test_html_is_the_markdown_rendered(sample_day: Path, reference: dict[str, bytes]) -> None:
    html = reference[HTML].decode("utf-8")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="zh-CN">' in html
    assert "<h2>二、今日该主题最重要的增量（5 条）</h2>" in html
    assert "<table>" in html and "<style>" in html


def _reordered(tmp_path: Path) -> Path:
    """workspace first, then hf before arxiv, then the blogs (each from its recording, dated DAY)."""
    home = copy_sample(tmp_path / "reordered")
    rec = home / "recordings"
    kb(home, "ingest", "workspace", "--date", DAY)
    kb(home, "ingest", "hf", "--date", DAY, "--from-file", str(rec / "hf" / f"daily_papers_{DAY}.json"))
    kb(home, "ingest", "arxiv", "--date", DAY, "--from-file", str(rec / "arxiv" / f"{DAY}-listing.xml"))
    return home


def test_other_ingest_order_same_briefing(tmp_path: Path, reference: dict[str, bytes]) -> None:
    home = _reordered(tmp_path)
    ctx = open_context(str(home), date.fromisoformat(DAY), offline=True)
    try:
        for feed in reversed(FEEDS):
            [report] = ingest_blogs(ctx, feed, [home / "recordings" / "blogs" / f"{feed}.xml"])
            assert report.status == "ok", report.summary()
    finally:
        ctx.close()
        ctx.store.close()
    got = _all_outputs(home)
    bad = _diff_keys(reference, got)
    assert not bad, _first_difference(reference, got, bad[0])


def test_other_ingest_order_through_the_cli(tmp_path: Path, reference: dict[str, bytes]) -> None:
    home = _reordered(tmp_path)
    for feed in FEEDS:
        kb(home, "ingest", "blogs", "--date", DAY, "--feed", feed,
           "--from-file", str(home / "recordings" / "blogs" / f"{feed}.xml"))
    got = _all_outputs(home)
    bad = _diff_keys(reference, got)
    assert not bad, _first_difference(reference, got, bad[0])


def _first_difference(a: dict[str, bytes], b: dict[str, bytes], key: str) -> str:
    import difflib
    diff = difflib.unified_diff(a[key].decode().splitlines(), b[key].decode().splitlines(), lineterm="", n=1)
    return f"{key} differs:\n" + "\n".join(list(diff)[:40])


def test_outputs_name_no_wall_clock_time(reference: dict[str, bytes]) -> None:
    """Only the day's own dates appear: nothing from when the test ran."""
    import re
    today = date.today().isoformat()
    for key, raw in reference.items():
        text = raw.decode("utf-8")
        if today not in ("2026-10-07", DAY):
            assert today not in text, key
        years = set(re.findall(r"\b(20\d\d)-\d\d-\d\d", text))
        assert years <= {"2025", "2026"}, (key, years)


def test_a_rerun_judges_no_text_again_and_says_the_same_without_the_kept_judgements(
        sample_day: Path, reference: dict[str, bytes], monkeypatch: pytest.MonkeyPatch) -> None:
    """Last night's judgements of the same texts are read back (``.kb/cache/judged.json``), and they are
    exactly what judging again gives: the briefing's bytes are the same with the file or without it."""
    from pipeline.classify.engine import Engine
    from pipeline.classify.memo import MEMO_FILE
    calls = []
    judge = Engine.classify
    monkeypatch.setattr(Engine, "classify", lambda self, *a, **kw: calls.append(1) or judge(self, *a, **kw))
    assert not _diff_keys(reference, _all_outputs(sample_day))
    assert not calls
    (sample_day / MEMO_FILE).unlink()
    assert not _diff_keys(reference, _all_outputs(sample_day))
    assert calls   # judged again, the same


def test_a_learned_rerun_fits_no_section_model_and_says_the_same_without_the_kept_rankings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the learned classifier, the doc's section models are fitted only for an item whose ranking is
    not kept (``.kb/cache/judged.json``): a rerun fits none, and its bytes are those of ranking again."""
    from pipeline.classify.memo import MEMO_FILE
    from pipeline.classify.sections import SectionIndex
    home = copy_sample(tmp_path / "ws")
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[classify]\nmodel = "learned"\n')
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    first = {p.name: p.read_bytes() for p in (home / "briefings").iterdir()}
    fits = []
    build = SectionIndex.build.__func__
    monkeypatch.setattr(SectionIndex, "build", classmethod(lambda cls, *a, **kw: fits.append(1) or build(cls, *a, **kw)))
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    assert not fits
    (home / MEMO_FILE).unlink()
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    assert fits
    assert {p.name: p.read_bytes() for p in (home / "briefings").iterdir()} == first
