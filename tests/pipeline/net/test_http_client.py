"""pipeline.net.http against a real scripted server on 127.0.0.1; no internet, nothing really sleeps."""
from __future__ import annotations

import gzip
import socket
import time
import tracemalloc
from datetime import UTC, datetime

import pytest

import pipeline.net.http as http
from kb.errors import ConfigError, SourceError
from pipeline.net.http import HttpClient, make_user_agent, parse_retry_after
from tests.support.server import Reply

MB = 1024 * 1024


def test_public_api_is_pinned() -> None:
    assert sorted(http.__all__) == ["FetchResult", "HttpClient", "make_user_agent",
                                    "parse_retry_after"]


def test_200_returns_body_and_metadata(server, make_client) -> None:
    server.script("/a", Reply(200, b"hello", {"Content-Type": "text/plain", "ETag": '"v1"'}))
    result = make_client().fetch(server.url("/a"), accept="text/plain")
    assert (result.status, result.body, result.etag) == (200, b"hello", '"v1"')
    assert result.content_type == "text/plain"
    assert not result.not_modified and result.attempts == 1 and result.url == server.url("/a")
    sent = server.seen("/a")[0].headers
    assert sent["User-Agent"] == "kb/0.0-test (+mailto:tests@example.org)"
    assert sent["Accept"] == "text/plain"
    assert "If-None-Match" not in sent


def test_429_retry_after_then_200(server, make_client, sleeps) -> None:
    server.script("/r", Reply(429, b"slow down", {"Retry-After": "2"}), Reply(200, b"ok"))
    result = make_client().fetch(server.url("/r"))
    assert result.body == b"ok" and result.attempts == 2
    assert sleeps and max(sleeps) >= 2


def test_retry_after_is_capped(server, make_client, sleeps) -> None:
    server.script("/r", Reply(503, headers={"Retry-After": "86400"}), Reply(200, b"ok"))
    assert make_client().fetch(server.url("/r")).body == b"ok"
    assert sleeps == [120.0]


def test_parse_retry_after_seconds_and_http_date() -> None:
    now = datetime(2026, 5, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("7", now) == 7.0
    assert parse_retry_after("Fri, 01 May 2026 12:00:30 GMT", now) == 30.0
    assert parse_retry_after("Fri, 01 May 2026 11:00:00 GMT", now) == 0.0  # in the past
    assert parse_retry_after("Fri, 01 May 2026 12:00:30 -0000", now) == 30.0   # a date without a zone is UTC
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None


def test_503_three_times_gives_up(server, make_client) -> None:
    server.script("/down", *[Reply(503, b"busy")] * 3)
    with pytest.raises(SourceError) as info:
        make_client(retries=3).fetch(server.url("/down"))
    err = info.value
    assert (err.status, err.attempts, err.url) == (503, 3, server.url("/down"))
    assert "503" in str(err) and server.url("/down") in str(err) and "3 attempts" in str(err)


@pytest.mark.parametrize(("rand", "expected"), [(0.0, [1.0, 2.0]), (1.0, [1.25, 2.5])])
def test_500_500_200_backs_off_exponentially(server, make_client, sleeps, rand, expected) -> None:
    server.script("/flaky", Reply(500), Reply(500), Reply(200, b"finally"))
    result = make_client(backoff=1.0, rand=lambda: rand).fetch(server.url("/flaky"))
    assert result.body == b"finally" and result.attempts == 3
    assert sleeps == expected


def test_connection_reset_mid_body_then_200(server, make_client) -> None:
    server.script("/reset", Reply(200, b"x" * 200_000, behaviour="reset"), Reply(200, b"whole"))
    result = make_client().fetch(server.url("/reset"))
    assert result.body == b"whole" and result.attempts == 2


def test_truncated_body_then_200(server, make_client) -> None:
    server.script("/short", Reply(200, b"partial", behaviour="truncate"), Reply(200, b"whole"))
    result = make_client().fetch(server.url("/short"))
    assert result.body == b"whole" and result.attempts == 2


def test_connection_refused_is_retried_then_raised(make_client, sleeps) -> None:
    with socket.socket() as sock:  # a port nothing listens on once this closes
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with pytest.raises(SourceError) as info:
        make_client(retries=2).fetch(f"http://127.0.0.1:{port}/")
    assert info.value.attempts == 2 and info.value.status is None
    assert str(info.value).startswith("connection refused by 127.0.0.1, 2 attempts") and len(sleeps) == 1


def test_stall_past_timeout_fails_quickly(server, make_client) -> None:
    server.script("/stall", *[Reply(200, b"never sent", behaviour="stall")] * 2)
    started = time.monotonic()
    with pytest.raises(SourceError) as info:
        make_client(timeout=0.5, retries=2).fetch(server.url("/stall"))
    assert time.monotonic() - started < 5
    assert info.value.attempts == 2 and info.value.status == 200


def test_dripping_body_hits_the_total_deadline(server, make_client) -> None:
    # A byte every 50 ms never trips a 0.5 s socket timeout; only the total deadline stops it.
    server.script("/drip", Reply(200, behaviour="drip", size=1000))
    started = time.monotonic()
    with pytest.raises(SourceError, match="not complete within 0.5 s"):
        make_client(timeout=0.5, retries=1).fetch(server.url("/drip"))
    assert time.monotonic() - started < 3


def test_etag_round_trip(server, make_client) -> None:
    server.script("/feed", Reply(200, b"<feed/>", {"ETag": '"abc"'}),
                  Reply(304, headers={"ETag": '"abc"'}))
    client = make_client()
    first = client.fetch(server.url("/feed"))
    second = client.fetch(server.url("/feed"), etag=first.etag)
    assert server.seen("/feed")[1].headers["If-None-Match"] == '"abc"'
    assert second.not_modified and second.status == 304 and second.body == b""
    assert second.etag == '"abc"'


def test_last_modified_round_trip(server, make_client) -> None:
    stamp = "Wed, 21 Oct 2025 07:28:00 GMT"
    server.script("/blog", Reply(200, b"<rss/>", {"Last-Modified": stamp}), Reply(304))
    client = make_client()
    first = client.fetch(server.url("/blog"))
    second = client.fetch(server.url("/blog"), last_modified=first.last_modified)
    assert server.seen("/blog")[1].headers["If-Modified-Since"] == stamp
    assert second.not_modified and second.body == b"" and second.last_modified == stamp


def test_redirect_is_followed(server, make_client) -> None:
    server.script("/old", Reply(301, headers={"Location": "/new"}))
    server.script("/new", Reply(200, b"moved here"))
    result = make_client().fetch(server.url("/old"))
    assert result.body == b"moved here" and result.url == server.url("/new")


def test_redirect_loop(server, make_client) -> None:
    server.script("/a", Reply(302, headers={"Location": "/b"}))
    server.script("/b", Reply(302, headers={"Location": "/a"}))
    with pytest.raises(SourceError, match="redirect loop") as info:
        make_client().fetch(server.url("/a"))
    assert info.value.attempts == 1 and info.value.status == 302


def test_more_than_five_redirects(server, make_client) -> None:
    for n in range(6):
        server.script(f"/hop{n}", Reply(302, headers={"Location": f"/hop{n + 1}"}))
    with pytest.raises(SourceError, match="more than 5 redirects"):
        make_client().fetch(server.url("/hop0"))


def test_redirect_to_another_scheme_is_refused(server, make_client) -> None:
    server.script("/sneaky", Reply(302, headers={"Location": "file:///etc/passwd"}))
    with pytest.raises(SourceError, match="will not fetch"):
        make_client().fetch(server.url("/sneaky"))


def test_a_redirect_without_a_location_fails_at_once(server, make_client, sleeps) -> None:
    server.script("/gone", Reply(302, b"moved"))
    with pytest.raises(SourceError, match=r"^HTTP 302 redirect without a Location, 1 attempt \(GET ") as info:
        make_client().fetch(server.url("/gone"))
    assert (info.value.status, info.value.attempts) == (302, 1) and sleeps == []


def test_a_url_requests_cannot_parse_fails_at_once_naming_it(make_client, sleeps) -> None:
    url = "http://127.0.0.1:99999/rss"                   # a port mistyped in kb.toml: no connection is tried
    with pytest.raises(SourceError, match=r"^request failed: InvalidURL: .*99999.*, 1 attempt") as info:
        make_client().fetch(url)
    assert info.value.attempts == 1 and sleeps == []


def test_404_fails_at_once(server, make_client, sleeps) -> None:
    server.script("/missing", Reply(404, b"no such thing"))
    with pytest.raises(SourceError) as info:
        make_client().fetch(server.url("/missing"))
    assert (info.value.status, info.value.attempts) == (404, 1) and sleeps == []


def test_400_with_accept_status_returns_the_body(server, make_client) -> None:
    feed = b"<feed><entry><title>Error</title></entry></feed>"
    server.script("/api", Reply(400, feed, {"Content-Type": "application/atom+xml"}),
                  Reply(400, feed))
    client = make_client()
    result = client.fetch(server.url("/api"), accept_status={400})
    assert (result.status, result.body, result.attempts) == (400, feed, 1)
    with pytest.raises(SourceError) as info:
        client.fetch(server.url("/api"))
    assert info.value.status == 400


def test_streamed_body_over_max_bytes_is_refused_without_buffering(server, make_client) -> None:
    server.script("/huge", Reply(200, behaviour="stream", size=50 * MB))  # chunked, no length
    client = make_client(max_bytes=1 * MB)
    tracemalloc.start()
    try:
        with pytest.raises(SourceError, match=f"larger than {MB} bytes; refused") as info:
            client.fetch(server.url("/huge"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MB, f"peak {peak} bytes"
    assert info.value.attempts == 1 and info.value.status == 200


def test_declared_length_over_max_bytes_is_refused_before_reading(server, make_client) -> None:
    server.script("/big", Reply(200, headers={"Content-Length": str(50 * MB)},
                                behaviour="stream", size=50 * MB))
    with pytest.raises(SourceError, match="larger than"):
        make_client(max_bytes=MB).fetch(server.url("/big"))


def test_gzip_body_is_decoded(server, make_client) -> None:
    server.script("/gz", Reply(200, gzip.compress(b"plain text " * 100),
                               {"Content-Encoding": "gzip"}))
    assert make_client().fetch(server.url("/gz")).body == b"plain text " * 100


def test_corrupt_gzip_is_a_source_error(server, make_client) -> None:
    bad = gzip.compress(b"some body " * 50)[:12] + b"\x00garbage\xff" * 20
    server.script("/badgz", Reply(200, bad, {"Content-Encoding": "gzip"}))
    with pytest.raises(SourceError, match="corrupt gzip body") as info:
        make_client().fetch(server.url("/badgz"))
    assert info.value.attempts == 1


@pytest.mark.parametrize("encoding", ["br", "zstd", "compress", "gzip, br"])
def test_an_encoding_kb_cannot_decode_is_named_not_parsed(server, make_client, encoding) -> None:
    """A server that answers in an encoding kb did not ask for gets one line naming it, not a
    parser's "not UTF-8" about bytes that were never decoded."""
    server.script("/enc", Reply(200, b"\x1b\x0b\x00\xf8\xa5\x40\x02", {"Content-Encoding": encoding}))
    with pytest.raises(SourceError, match=f"Content-Encoding {encoding!r}, which kb cannot decode") as info:
        make_client().fetch(server.url("/enc"))
    assert info.value.attempts == 1 and info.value.status == 200


def test_identity_encoding_is_read_as_is(server, make_client) -> None:
    server.script("/id", Reply(200, b"plain", {"Content-Encoding": "identity"}))
    assert make_client().fetch(server.url("/id")).body == b"plain"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://example.org/x",
                                 "javascript:alert(1)", "http:///no-host"])
def test_non_http_urls_are_config_errors(make_client, url) -> None:
    with pytest.raises(ConfigError):
        make_client().fetch(url)


def test_per_host_spacing_uses_the_injected_clock(server, sleeps) -> None:
    now = [100.0]

    def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    for path in ("/1", "/2", "/3", "/4"):
        server.script(path, Reply(200, b"ok"))
    client = HttpClient("kb/t (+mailto:t@example.org)", min_interval={"127.0.0.1": 3.0},
                        sleep=sleep, clock=lambda: now[0])
    client.fetch(server.url("/1"))
    assert sleeps == []  # first request to the host: no wait
    client.fetch(server.url("/2"))
    assert sleeps == [3.0]
    now[0] += 1.0
    client.fetch(server.url("/3"))
    assert sleeps == [3.0, 2.0]
    now[0] += 10.0
    client.fetch(server.url("/4"))
    assert sleeps == [3.0, 2.0]  # enough time had passed
    client.close()


def test_user_agent_and_settings_are_checked() -> None:
    assert make_user_agent("0.1.0", "me@example.org") == "kb/0.1.0 (+mailto:me@example.org)"
    with pytest.raises(ConfigError):
        make_user_agent("0.1.0", "not an address")
    with pytest.raises(ConfigError):
        HttpClient("  ")
    with pytest.raises(ConfigError):
        HttpClient("kb/t", retries=0)


@pytest.mark.parametrize(("raised", "said"), [
    ("HTTPSConnectionPool(host='rss.arxiv.org', port=443): Max retries exceeded with url: /rss/cs.DC (Caused by "
     "NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x7f>: Failed to resolve 'rss.arxiv.org'\"))",
     "DNS lookup failed for rss.arxiv.org"),
    ("HTTPSConnectionPool(host='rss.arxiv.org', port=443): [Errno 101] Network is unreachable",
     "no network route to rss.arxiv.org"),
    ("something new urllib3 says", "connection to rss.arxiv.org failed (ConnectionError)"),
])
def test_connection_failures_are_said_in_one_short_line(raised: str, said: str) -> None:
    import requests

    from pipeline.net.http import _connection_failure
    assert _connection_failure(requests.ConnectionError(raised), "https://rss.arxiv.org/rss/cs.DC") == said
