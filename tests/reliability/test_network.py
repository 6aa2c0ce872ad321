"""Network faults, driven through kb's source ingest against the scripted server on 127.0.0.1.

Every case seeds the store with data from the same sources, takes a dump of the data tables,
runs the faulty fetch and checks the health-ledger row (status, HTTP status, error) and that
the dump is unchanged.
"""
from __future__ import annotations

import gzip
import time
import tracemalloc
from pathlib import Path

import pytest

from pipeline.ingest.public import ingest_source
from tests.reliability.support import FIXTURES, SOURCES, dump, ledger, net_context, seed
from tests.support.server import Reply

MiB = 1024 * 1024


def _prepared(workspace: Path, server, sleeps: list[float] | None = None, **kw):
    ctx = net_context(workspace, server, sleeps, **kw)
    seed(ctx, server)
    return ctx, dump(ctx.store.path)


def _unchanged(kept, ctx, before) -> None:
    after = dump(ctx.store.path)
    assert kept.rows(before, after) == 0
    assert after == before
    assert kept.store(ctx.store.path) == "ok"


def test_429_with_retry_after_then_success(workspace: Path, server, kept) -> None:
    sleeps: list[float] = []
    ctx, before = _prepared(workspace, server, sleeps)
    server.script("/rss", Reply(429, b"slow down", {"Retry-After": "7"}),
                  Reply(200, SOURCES["arxiv"][3](), {"Content-Type": "application/rss+xml"}))
    report = ingest_source(ctx, "arxiv")
    assert report.status == "ok" and report.new == 3 and report.http_status == 200
    assert 7.0 in sleeps                                  # the server's Retry-After was honoured
    row = ledger(ctx.store.path, "arxiv")
    assert (row["status"], row["http_status"], row["new"], row["error"]) == ("ok", 200, 3, None)
    after = dump(ctx.store.path)
    assert kept.rows(before, after) == 0                  # the seed is still there, plus 3 papers
    assert len(after["papers"]) == len(before["papers"]) + 3
    assert kept.store(ctx.store.path) == "ok"


@pytest.mark.parametrize("source", ["arxiv", "hf", "blog"])
def test_503_three_times_gives_up_with_a_ledger_row(workspace: Path, server, kept, source: str) -> None:
    path, run, name, _ = SOURCES[source]
    ctx, before = _prepared(workspace, server)
    server.script(path, *[Reply(503, b"busy", {"Retry-After": "1"})] * 3)
    report = run(ctx, server)
    assert report.status == "failed" and report.http_status == 503
    row = ledger(ctx.store.path, name)
    assert row["status"] == "failed" and row["http_status"] == 503
    assert "HTTP 503" in row["error"] and "3 attempts" in row["error"] and server.url(path) in row["error"]
    assert len(server.seen(path)) == 3
    _unchanged(kept, ctx, before)


@pytest.mark.parametrize("source", ["arxiv", "blog"])
def test_connection_reset_mid_body_keeps_the_store(workspace: Path, server, kept, source: str) -> None:
    path, run, name, body = SOURCES[source]
    ctx, before = _prepared(workspace, server)
    server.script(path, *[Reply(200, body() * 40, behaviour="reset")] * 3)
    report = run(ctx, server)
    assert report.status == "failed"
    row = ledger(ctx.store.path, name)
    assert row["status"] == "failed" and "cut short" in row["error"] and "3 attempts" in row["error"]
    _unchanged(kept, ctx, before)


def test_connection_reset_once_then_success(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server)
    body = SOURCES["arxiv"][3]()
    server.script("/rss", Reply(200, body * 40, behaviour="reset"), Reply(200, body))
    report = ingest_source(ctx, "arxiv")
    assert report.status == "ok" and report.new == 3
    after = dump(ctx.store.path)
    assert kept.rows(before, after) == 0 and len(after["papers"]) == len(before["papers"]) + 3
    assert kept.store(ctx.store.path) == "ok"


@pytest.mark.parametrize("source", ["arxiv", "blog"])
def test_body_truncated_mid_xml(workspace: Path, server, kept, source: str) -> None:
    path, run, name, body = SOURCES[source]
    ctx, before = _prepared(workspace, server)
    whole = body()
    cut = whole[: whole.index(b"</item>") + 200]       # a complete HTTP answer of half a document
    server.script(path, Reply(200, cut, {"Content-Type": "application/rss+xml"}))
    report = run(ctx, server)
    assert report.status == "failed" and report.new == 0
    row = ledger(ctx.store.path, name)
    assert row["status"] == "failed" and row["http_status"] == 200
    assert "truncated" in row["error"] or "not well-formed" in row["error"]
    _unchanged(kept, ctx, before)


def test_body_shorter_than_its_content_length(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server)
    half = SOURCES["arxiv"][3]()[:1500]
    server.script("/rss", *[Reply(200, half, behaviour="truncate")] * 3)
    report = ingest_source(ctx, "arxiv")
    assert report.status == "failed"
    row = ledger(ctx.store.path, "arxiv")
    assert row["status"] == "failed" and "cut short" in row["error"]
    _unchanged(kept, ctx, before)


@pytest.mark.parametrize("source", ["arxiv", "hf", "blog"])
def test_html_login_page_with_status_200(workspace: Path, server, kept, source: str) -> None:
    path, run, name, _ = SOURCES[source]
    ctx, before = _prepared(workspace, server)
    page = b"<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form>login</form></body></html>"
    server.script(path, Reply(200, page, {"Content-Type": "text/html; charset=utf-8"}))
    report = run(ctx, server)
    assert report.status == "failed" and report.new == 0
    row = ledger(ctx.store.path, name)
    assert row["status"] == "failed" and row["http_status"] == 200 and "HTML" in row["error"]
    _unchanged(kept, ctx, before)


def test_wrong_content_type_the_body_decides(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server)
    # A real listing labelled as a web page is still a listing …
    server.script("/rss", Reply(200, SOURCES["arxiv"][3](), {"Content-Type": "text/html"}))
    ok = ingest_source(ctx, "arxiv")
    assert ok.status == "ok" and ok.new == 3
    # … and an XML feed labelled as JSON is not Daily Papers JSON.
    middle = dump(ctx.store.path)
    server.script("/hf", Reply(200, SOURCES["arxiv"][3](), {"Content-Type": "application/json"}))
    bad = ingest_source(ctx, "hf")
    assert bad.status == "failed" and "not Daily Papers JSON" in bad.error
    row = ledger(ctx.store.path, "hf")
    assert row["status"] == "failed" and row["http_status"] == 200
    assert kept.rows(before, middle) == 0
    _unchanged(kept, ctx, middle)


@pytest.mark.parametrize("source", ["arxiv", "hf"])
def test_corrupt_gzip_body(workspace: Path, server, kept, source: str) -> None:
    path, run, name, body = SOURCES[source]
    ctx, before = _prepared(workspace, server)
    bad = gzip.compress(body())[:20] + b"\x00not gzip at all\xff" * 50
    server.script(path, Reply(200, bad, {"Content-Encoding": "gzip"}))
    report = run(ctx, server)
    assert report.status == "failed"
    row = ledger(ctx.store.path, name)
    assert row["status"] == "failed" and row["http_status"] == 200 and "corrupt gzip body" in row["error"]
    _unchanged(kept, ctx, before)


@pytest.mark.parametrize("declared", [False, True], ids=["chunked", "content-length"])
def test_50mb_body_is_refused_at_the_cap_in_bounded_memory(workspace: Path, server, kept, declared: bool) -> None:
    ctx, before = _prepared(workspace, server)
    cap = ctx.http.max_bytes                              # the production cap: 32 MiB
    headers = {"Content-Length": str(50 * MiB)} if declared else {}
    server.script("/rss", Reply(200, headers=headers, behaviour="stream", size=50 * MiB))
    tracemalloc.start()
    try:
        report = ingest_source(ctx, "arxiv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.status == "failed" and f"larger than {cap} bytes" in report.error
    assert peak < cap + cap // 2, f"peak {peak / MiB:.1f} MiB for a {cap / MiB:.0f} MiB cap"
    if declared:
        assert peak < 4 * MiB                             # refused on the header, nothing read
    row = ledger(ctx.store.path, "arxiv")
    assert row["status"] == "failed" and "refused" in row["error"]
    _unchanged(kept, ctx, before)


def test_headers_then_stall_times_out(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server, timeout=0.5, retries=2)
    server.script("/rss", *[Reply(200, b"", {"Content-Length": "5000"}, behaviour="stall")] * 2)
    started = time.monotonic()
    report = ingest_source(ctx, "arxiv")
    assert time.monotonic() - started < 4
    assert report.status == "failed"
    row = ledger(ctx.store.path, "arxiv")
    assert row["status"] == "failed" and "timed out" in row["error"] and "2 attempts" in row["error"]
    _unchanged(kept, ctx, before)


def test_redirect_loop(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server)
    server.script("/rss", Reply(302, headers={"Location": "/elsewhere"}))
    server.script("/elsewhere", Reply(301, headers={"Location": server.url("/rss")}))
    report = ingest_source(ctx, "arxiv")
    assert report.status == "failed"
    row = ledger(ctx.store.path, "arxiv")
    assert row["status"] == "failed" and row["http_status"] == 301 and "redirect loop" in row["error"]
    _unchanged(kept, ctx, before)


def test_redirect_to_a_file_url_is_refused(workspace: Path, server, kept, tmp_path: Path) -> None:
    secret = tmp_path / "secret.xml"
    secret.write_bytes((FIXTURES / "listing_rss_3items.xml").read_bytes())
    ctx, before = _prepared(workspace, server)
    server.script("/rss", Reply(302, headers={"Location": secret.as_uri()}))
    report = ingest_source(ctx, "arxiv")
    assert report.status == "failed" and "will not fetch" in report.error
    assert ledger(ctx.store.path, "arxiv")["status"] == "failed"
    _unchanged(kept, ctx, before)


def test_etag_round_trip_304_does_no_work(workspace: Path, server, kept) -> None:
    ctx, _ = _prepared(workspace, server)
    server.script("/rss", Reply(200, SOURCES["arxiv"][3](), {"ETag": '"v1"', "Last-Modified": "Thu, 08 Oct 2026 04:00:00 GMT"}),
                  Reply(304, headers={"ETag": '"v1"'}))
    first = ingest_source(ctx, "arxiv")
    assert first.status == "ok" and first.new == 3
    before = dump(ctx.store.path)
    second = ingest_source(ctx, "arxiv")
    assert second.status == "not-modified" and (second.parsed, second.new, second.updated) == (0, 0, 0)
    sent = server.seen("/rss")[1].headers
    assert sent.get("If-None-Match") == '"v1"' and sent.get("If-Modified-Since") == "Thu, 08 Oct 2026 04:00:00 GMT"
    row = ledger(ctx.store.path, "arxiv")
    assert (row["status"], row["http_status"], row["bytes"]) == ("not-modified", 304, 0)
    _unchanged(kept, ctx, before)                          # not a row touched, ETag kept


def test_json_error_object_with_status_200(workspace: Path, server, kept) -> None:
    ctx, before = _prepared(workspace, server)
    server.script("/hf", Reply(200, b'{"error": "Rate limit reached, retry later"}', {"Content-Type": "application/json"}))
    report = ingest_source(ctx, "hf")
    assert report.status == "failed" and "Rate limit reached" in report.error
    assert ledger(ctx.store.path, "hf")["status"] == "failed"
    _unchanged(kept, ctx, before)
