"""Sources over real HTTP (a scripted server on 127.0.0.1): conditional GET, failures, the arXiv API."""
from __future__ import annotations

import sqlite3
from datetime import date
from pathlib import Path

import pytest

from kb.errors import SourceError
from pipeline.context import open_context
from pipeline.ingest.api import resolve_ids
from pipeline.ingest.public import ingest_source
from pipeline.net.http import HttpClient
from tests.support.paths import FIXTURES
from tests.support.server import Reply

LISTING = (FIXTURES / "sources")

API_ONE = b"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <id>https://arxiv.org/api/x</id><title>arXiv Query</title><updated>2026-10-09T00:00:00-04:00</updated>
  <opensearch:totalResults>1</opensearch:totalResults><opensearch:startIndex>0</opensearch:startIndex>
  <opensearch:itemsPerPage>2</opensearch:itemsPerPage>
  <entry>
    <id>http://arxiv.org/abs/2610.09701v1</id>
    <updated>2026-10-07T17:00:00Z</updated><published>2026-10-07T17:00:00Z</published>
    <title>SlimWise: Decoupled Expert Pruning across Prefill and Decode</title>
    <summary>MoE serving with expert pruning per phase.</summary>
    <author><name>Felix Park</name></author>
    <link href="http://arxiv.org/abs/2610.09701v1" rel="alternate" type="text/html"/>
    <arxiv:primary_category term="cs.DC"/><category term="cs.DC"/>
  </entry>
</feed>"""


def _listing_bytes() -> bytes:
    return (LISTING / "listing_rss_3items.xml").read_bytes()


def _ctx(workspace: Path, server, url_path: str):
    toml = workspace / "kb.toml"
    toml.write_text(toml.read_text().replace('url = "https://rss.arxiv.org/rss/{categories}"',
                                             f'url = "{server.url(url_path)}"'))
    ctx = open_context(str(workspace), date(2026, 10, 8))
    ctx._http = HttpClient("kb/test (+mailto:t@example.org)", sleep=lambda s: None, retries=3, timeout=5)
    return ctx


def test_conditional_get_gives_not_modified_and_keeps_the_data(workspace: Path, server) -> None:
    body = _listing_bytes()
    server.script("/rss", Reply(200, body, {"ETag": '"v1"', "Content-Type": "application/rss+xml"}),
                  Reply(304, b"", {"ETag": '"v1"'}))
    ctx = _ctx(workspace, server, "/rss")
    first = ingest_source(ctx, "arxiv")
    assert first.status == "ok" and first.new > 0 and first.http_status == 200
    second = ingest_source(ctx, "arxiv")
    assert second.status == "not-modified" and second.new == 0
    assert server.seen("/rss")[1].headers.get("If-None-Match") == '"v1"'
    papers = ctx.store.conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    assert papers == first.new


def test_three_server_errors_fail_the_source_with_a_ledger_row(workspace: Path, server) -> None:
    server.script("/rss", *[Reply(503, b"busy")] * 3)
    ctx = _ctx(workspace, server, "/rss")
    report = ingest_source(ctx, "arxiv")
    assert report.status == "failed" and report.http_status == 503 and "3 attempts" in report.error
    row = sqlite3.connect(workspace / ".kb" / "kb.sqlite").execute(
        "SELECT status, http_status, error FROM source_runs").fetchone()
    assert row[0] == "failed" and row[1] == 503 and "503" in row[2]


def test_an_html_page_with_status_200_is_a_failure_not_data(workspace: Path, server) -> None:
    server.script("/rss", Reply(200, b"<!DOCTYPE html><html><body>Please log in</body></html>",
                                {"Content-Type": "text/html"}))
    report = ingest_source(_ctx(workspace, server, "/rss"), "arxiv")
    assert report.status == "failed" and "HTML" in report.error


def test_resolve_ids_through_the_api_marks_unknown_ids(workspace: Path, server) -> None:
    server.script("/api/query", Reply(200, API_ONE, {"Content-Type": "application/atom+xml"}))
    toml = workspace / "kb.toml"
    toml.write_text(toml.read_text() + f'\n[arxiv]\napi_url = "{server.url("/api/query")}"\n'
                    if "[arxiv]" not in toml.read_text() else toml.read_text().replace(
                        "[arxiv]", f'[arxiv]\napi_url = "{server.url("/api/query")}"', 1))
    ctx = open_context(str(workspace), date(2026, 10, 8))
    ctx._http = HttpClient("kb/test (+mailto:t@example.org)", sleep=lambda s: None, retries=1, timeout=5)
    res = resolve_ids(ctx, ["2610.09701", "2607.09701"])
    assert res.found == ["2610.09701"] and res.unknown == ["2607.09701"]
    [seen] = server.requests
    assert "id_list=2607.09701%2C2610.09701" in seen.path and seen.headers["User-Agent"].startswith("kb/test")
    title = ctx.store.conn.execute("SELECT title FROM papers WHERE arxiv_id = '2610.09701'").fetchone()[0]
    assert title.startswith("SlimWise")


def test_a_big_api_file_is_streamed_in_batches_with_one_ledger_row(workspace: Path, monkeypatch) -> None:
    import pipeline.ingest.public as ingest
    monkeypatch.setattr(ingest, "STREAM_OVER", 100)          # the fixture counts as a backfill file
    ctx = open_context(str(workspace), date(2026, 10, 8))
    path = LISTING / "api_response.xml"
    report = ingest.ingest_source(ctx, "arxiv", [path])
    streamed = ctx.store.conn.execute("SELECT count(*) FROM papers").fetchone()[0]
    assert report.status == "ok" and report.parsed == streamed > 0
    rows = ctx.store.conn.execute("SELECT source, status, parsed FROM source_runs").fetchall()
    assert rows == [("arxiv", "ok", streamed)]
    monkeypatch.setattr(ingest, "STREAM_OVER", 10**9)        # the same file read whole gives the same papers
    whole = ingest.ingest_source(ctx, "arxiv", [path])
    assert whole.status == "ok" and whole.new == 0 and whole.parsed == streamed


def test_an_offline_run_has_no_http_client(workspace: Path) -> None:
    """Whatever asks (a source, the resolve stage, a library caller), an offline run never reaches the network."""
    ctx = open_context(str(workspace), date(2026, 10, 8), offline=True)
    with pytest.raises(SourceError, match="offline"):
        ctx.http.fetch("http://127.0.0.1:9/")
    assert resolve_ids(ctx, ["2610.09701"]).report.status == "failed"


@pytest.mark.parametrize("track", [False, True], ids=["etag", "digest"])
def test_a_payload_that_yielded_only_problems_is_fetched_and_failed_again(workspace: Path, server,
                                                                          track: bool) -> None:
    # Every item unreadable: the run fails. Its ETag and digest must not be kept, or the rerun's 304
    # (or the same bytes) reads as "not-modified", which replaces the failure as the day's status.
    broken = b'[{"paper": null}, {"paper": {"title": "no id"}}]'
    ctx = _ctx(workspace, server, "/rss")
    ctx.config.hf_url = server.url("/hf")
    ctx.skip_unchanged = track
    server.script("/hf", *[Reply(200, broken, {"ETag": '"b1"', "Content-Type": "application/json"})] * 2)
    first = ingest_source(ctx, "hf")
    assert first.status == "failed" and first.parsed == 0
    second = ingest_source(ctx, "hf")
    assert second.status == "failed", second.summary()
    assert server.seen("/hf")[1].headers.get("If-None-Match") is None
