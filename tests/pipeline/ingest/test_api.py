"""`kb ingest arxiv-api --query …`: a backfill search paged over a scripted API on 127.0.0.1."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.reliability.support import kb_inproc
from tests.support.paths import FIXTURES
from tests.support.server import Reply

RECORDED = (FIXTURES / "sources" / "api_response.xml").read_text()
HEAD = RECORDED[:RECORDED.index("  <entry>")]
ENTRY = RECORDED[RECORDED.index("  <entry>"):RECORDED.index("</entry>") + len("</entry>\n")]   # 2610.01234v2
ATOM = {"Content-Type": "application/atom+xml"}


def _page(first: int, count: int, total: int) -> Reply:
    """An API answer shaped like the recorded one: ``count`` entries from 2610.1<first>, ``total`` in all."""
    head = re.sub(r"<opensearch:totalResults>\d+<", f"<opensearch:totalResults>{total}<", HEAD)
    entries = "".join(ENTRY.replace("2610.01234", f"2610.{10000 + first + i}") for i in range(count))
    return Reply(200, (head + entries + "</feed>\n").encode(), ATOM)


@pytest.fixture
def api(workspace: Path, server, http_waits: list[float]) -> list[float]:
    """The workspace's arXiv API is the scripted server; the waits the run's client asked for."""
    toml = workspace / "kb.toml"
    toml.write_text(toml.read_text().replace("[arxiv]\n", f'[arxiv]\napi_url = "{server.url("/api/query")}"\n', 1))
    return http_waits


def _asked(server) -> list[dict[str, str]]:
    return [{k: v[0] for k, v in parse_qs(urlsplit(s.path).query).items()} for s in server.requests]


def _stored(workspace: Path, sql: str) -> list[tuple]:
    return sqlite3.connect(workspace / ".kb" / "kb.sqlite").execute(sql).fetchall()


def test_a_limit_of_150_asks_for_100_then_50_and_stores_them(workspace: Path, server, api: list[float]) -> None:
    server.script("/api/query", _page(0, 100, 1000), _page(100, 50, 1000))
    result = kb_inproc("ingest", "arxiv-api", "--query", "cat:cs.DC AND abs:prefill", "--limit", "150",
                       "--date", "2026-10-20")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "arxiv-api: ok — parsed 150, new 150, updated 0, skipped 0"
    asked = _asked(server)
    assert [(q["start"], q["max_results"]) for q in asked] == [("0", "100"), ("100", "50")]
    assert {q["search_query"] for q in asked} == {"cat:cs.DC AND abs:prefill"}
    assert {(q["sortBy"], q["sortOrder"]) for q in asked} == {("submittedDate", "descending")}
    assert api == [3.0]                                 # the API's spacing before the second page
    assert _stored(workspace, "SELECT count(*), min(arxiv_id), max(arxiv_id) FROM papers") == [
        (150, "2610.10000", "2610.10149")]
    assert _stored(workspace, "SELECT source, status, parsed, new FROM source_runs") == [("arxiv-api", "ok", 150, 150)]


def test_paging_stops_at_the_apis_total(workspace: Path, server, api: list[float]) -> None:
    # 120 results in all: the second page brings the last 20, and no third page is asked for
    # (the server fails the test on an unscripted request).
    server.script("/api/query", _page(0, 100, 120), _page(100, 20, 120))
    result = kb_inproc("ingest", "arxiv-api", "--query", "cat:cs.DC", "--limit", "1000", "--date", "2026-10-20")
    assert result.returncode == 0, result.stderr
    assert [(q["start"], q["max_results"]) for q in _asked(server)] == [("0", "100"), ("100", "100")]
    assert _stored(workspace, "SELECT count(*) FROM papers") == [(120,)]


def test_since_and_until_bound_the_submission_date(workspace: Path, server, api: list[float]) -> None:
    server.script("/api/query", _page(0, 1, 1))
    result = kb_inproc("ingest", "arxiv-api", "--query", "abs:prefill", "--since", "2026-10-01",
                       "--until", "2026-10-07", "--date", "2026-10-20")
    assert result.returncode == 0, result.stderr
    [asked] = _asked(server)
    assert asked["search_query"] == "(abs:prefill) AND submittedDate:[202610010000 TO 202610072359]"
    assert (asked["start"], asked["max_results"]) == ("0", "100")   # the API's total (1) ends the search
