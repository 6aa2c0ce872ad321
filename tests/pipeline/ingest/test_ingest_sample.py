"""Ingesting the sample day offline: counts, ledger, idempotence, one broken source."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app

DAY = ["--date", "2026-10-08"]


def _ingest(runner: CliRunner) -> str:
    result = runner.invoke(app, ["ingest", "all", "--offline", *DAY])
    assert result.exit_code == 0, result.output
    return result.output


def _counts(root: Path) -> dict[str, int]:
    conn = sqlite3.connect(root / ".kb" / "kb.sqlite")
    tables = ["papers", "paper_versions", "sightings", "posts", "notes", "note_entries", "mentions", "cards",
              "queue_items", "anchors", "doc_versions"]
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}


def test_sample_day_ingests_every_source(runner: CliRunner, sample_workspace: Path) -> None:
    out = _ingest(runner)
    for name in ("arxiv", "hf", "vllm-blog", "llm-d", "lmcache", "workspace"):
        assert f"{name}: ok" in out
    counts = _counts(sample_workspace)
    assert counts["papers"] >= 230 and counts["notes"] == 7 and counts["cards"] == 28
    status = json.loads(runner.invoke(app, ["sources", "status", "--format", "json"]).output)
    assert {s["name"]: s["last_status"] for s in status}["arxiv"] == "ok"
    # SlimWise: one card, the listing and HF merged; upvotes observed on its featured day.
    paper = json.loads(runner.invoke(app, ["show", "arXiv:2610.09701", "--format", "json"]).output)
    assert {(s["source"], s["kind"]) for s in paper["sources"]} >= {("arxiv", "new"), ("hf", "featured")}
    assert [s["upvotes"] for s in paper["sources"] if s["source"] == "hf"] == [12]
    assert paper["cards"][0]["path"].endswith("378-2607-09701.md")


def test_rerun_is_idempotent_and_query_output_is_byte_identical(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    first = _counts(sample_workspace)
    q1 = runner.invoke(app, ["query", "papers", "--since", "2026-10-08", "--format", "json"]).output
    out = _ingest(runner)
    assert "workspace: ok — parsed 0, new 0" in out  # unchanged files are not parsed again
    assert _counts(sample_workspace) == first
    assert runner.invoke(app, ["query", "papers", "--since", "2026-10-08", "--format", "json"]).output == q1
    runs = sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite").execute(
        "SELECT count(*) FROM source_runs").fetchone()[0]
    assert runs == 12  # six sources, two runs, one ledger row each


def test_a_broken_source_fails_alone_and_loses_nothing(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    before = _counts(sample_workspace)
    feed = sample_workspace / "recordings" / "blogs" / "llm-d.xml"
    feed.write_bytes(feed.read_bytes()[: len(feed.read_bytes()) // 2])  # truncated mid-XML
    (sample_workspace / "recordings" / "hf" / "daily_papers_2026-10-08.json").write_text("<html>login</html>")
    result = runner.invoke(app, ["ingest", "all", "--offline", *DAY])
    assert result.exit_code == 1
    assert "llm-d: failed" in result.output and "hf: failed" in result.output
    assert "arxiv: ok" in result.output and "vllm-blog: ok" in result.output
    assert _counts(sample_workspace) == before
    conn = sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite")
    errors = dict(conn.execute("SELECT source, error FROM source_runs WHERE status = 'failed'").fetchall())
    assert set(errors) == {"llm-d", "hf"} and all(errors.values())


def test_query_papers_filters_by_source_and_date(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    ids = runner.invoke(app, ["query", "papers", "--source", "hf", "--format", "ids"]).output.split()
    assert "2610.09701" in ids and len(ids) == 12
    assert runner.invoke(app, ["query", "papers", "--until", "2026-10-07", "--source", "hf",
                               "--format", "ids"]).output.strip() == ""


def test_two_feeds_with_the_same_guid_keep_both_posts(store) -> None:
    from kb.store.posts import save_posts
    from pipeline.sources.blogs import parse_feed
    feed = (b'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title><item><title>Post</title>'
            b'<guid isPermaLink="false">1</guid><link>https://a.example/1</link></item></channel></rss>')
    a, b = parse_feed(feed, feed="a").posts, parse_feed(feed, feed="b").posts
    with store.transaction() as conn:
        save_posts(conn, a)
        save_posts(conn, b)
    assert sorted(r[0] for r in store.query("SELECT key FROM posts")) == ["a|1", "b|1"]
