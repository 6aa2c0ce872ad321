"""The one bracket sources run in, as `kb ingest` reports it: an empty day, a payload of nothing but
refused items, an over-long author list, and a bug in a parser that costs its source only, whether it
parsed in the process or in a forked worker (``pipeline.ingest.parse_pool``)."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.reliability.support import kb_inproc
from tests.support.paths import FIXTURES

LISTING = (FIXTURES / "sources" / "listing_rss_3items.xml").read_text(encoding="utf-8")
HEAD, TAIL = LISTING[:LISTING.index("    <item>")], LISTING[LISTING.rindex("</item>") + len("</item>\n"):]
NO_ID = LISTING[LISTING.rindex("    <item>"):LISTING.rindex("</item>") + len("</item>\n")]   # no arXiv ID at all


def _ledger(ws: Path) -> list[tuple]:
    return sqlite3.connect(ws / ".kb" / "kb.sqlite").execute(
        "SELECT source, status, parsed, skipped, error FROM source_runs ORDER BY id").fetchall()


def test_a_day_arxiv_announces_nothing_is_empty_not_a_failure(workspace: Path) -> None:
    result = kb_inproc("ingest", "arxiv", "--from-file", str(FIXTURES / "sources" / "listing_empty_day.xml"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "arxiv: empty — parsed 0, new 0, updated 0, skipped 0"
    assert _ledger(workspace) == [("arxiv", "empty", 0, 0, None)]


def test_a_listing_of_refused_items_only_fails_naming_the_first_twenty(workspace: Path, tmp_path: Path) -> None:
    junk = tmp_path / "listing.xml"
    junk.write_text(HEAD + NO_ID * 25 + TAIL, encoding="utf-8")
    result = kb_inproc("ingest", "arxiv", "--from-file", str(junk))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()   # a failed source's report goes to stderr
    first = "item 1: no arXiv ID in guid '' or description"
    assert lines[0] == f"arxiv: failed — parsed 0, new 0, updated 0, skipped 25 — {first}"
    assert lines[1] == f"  - {first}" and lines[20] == "  - item 20: no arXiv ID in guid '' or description"
    assert lines[21:] == ["  - … and 5 more"]
    assert _ledger(workspace) == [("arxiv", "failed", 0, 25, first)]


def test_an_author_list_past_its_bounds_is_cut_and_the_paper_kept(workspace: Path, tmp_path: Path) -> None:
    long_name = "Ada " + "Lovelace" * 50                          # 404 characters: no one's name
    listing = tmp_path / "listing.xml"
    listing.write_text(LISTING.replace("Ada Lovelace, Alan Turing", f"{long_name}, Alan Turing"), encoding="utf-8")
    result = kb_inproc("ingest", "arxiv", "--from-file", str(listing))
    assert result.returncode == 0, result.stderr
    assert "  - 2610.01234: author list cut (3 names, the longest 404 characters)" in result.stdout.splitlines()
    shown = json.loads(kb_inproc("show", "2610.01234", "--format", "json").stdout)
    assert shown["authors"] == [long_name[:299] + "…", "Alan Turing", "Grace Hopper"]


@pytest.fixture(params=["in the process", "in forked workers"])
def parsing(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways a night parses: the sample day is small enough to parse in the process; forced, it goes
    to forked workers (which inherit the monkeypatched parser)."""
    if request.param == "in forked workers":
        import pipeline.ingest.parse_pool as pool
        monkeypatch.setattr(pool, "PARALLEL_FROM", 0)
        monkeypatch.setattr(pool.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    return request.param


def _bug_in_lmcache(monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.sources.detect as detect
    parse = detect.parse_payload

    def buggy(data: bytes, **kw):
        if kw.get("feed") == "lmcache":
            raise ZeroDivisionError("a bug")
        return parse(data, **kw)

    monkeypatch.setattr(detect, "parse_payload", buggy)


def test_a_bug_in_one_feeds_parser_fails_that_feed_and_the_others_go_on(sample_workspace: Path, parsing: str,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _bug_in_lmcache(monkeypatch)
    result = kb_inproc("ingest", "all", "--offline", "--date", "2026-10-08")
    assert result.returncode == 1
    # one line, naming where the traceback is: no run log keeps it outside the nightly
    line = result.stderr.strip()
    assert line.startswith("lmcache: failed — parsed 0, new 0, updated 0, skipped 0 — "
                           "unexpected ZeroDivisionError: a bug (traceback in .kb/logs/kb-crash-"), line
    crash = sample_workspace / line.split("traceback in ")[1].rstrip(")")
    assert "ZeroDivisionError: a bug" in crash.read_text(encoding="utf-8") and "buggy" in crash.read_text()
    assert "llm-d: ok" in result.stdout and "arxiv: ok" in result.stdout and "workspace: ok" in result.stdout
    ledger = {row[0]: row[1] for row in _ledger(sample_workspace)}
    assert ledger["lmcache"] == "failed" and ledger["vllm-blog"] == ledger["llm-d"] == "ok"


def test_the_nightlys_run_log_keeps_a_parsers_traceback(sample_workspace: Path, parsing: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _bug_in_lmcache(monkeypatch)
    result = kb_inproc("nightly", "--offline", "--date", "2026-10-08")
    assert result.returncode == 1
    assert "lmcache: failed" in result.stderr and "Traceback" not in result.stderr + result.stdout
    logs = sample_workspace / ".kb" / "logs"
    assert not list(logs.glob("kb-crash-*")), "the run log keeps it: no crash log"
    (run_log,) = logs.glob("nightly-*.log")
    assert "ZeroDivisionError: a bug" in run_log.read_text(encoding="utf-8")


def test_each_sources_ledger_row_says_when_its_own_run_began(sample_workspace: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The nightly fetches every source before it parses and saves any: each row's ``started_at`` is still
    when that source's own run began (here, a clock that moves a minute with each fetch)."""
    from datetime import UTC, date, datetime, timedelta

    import pipeline.ingest.run as run
    from pipeline.context import open_context
    from pipeline.ingest.public import ingest_public_sources
    fetched: list[int] = []
    fetch = run.Collector.fetch
    monkeypatch.setattr(run.Collector, "fetch", lambda self, report: fetched.append(1) or fetch(self, report))
    start = datetime(2026, 10, 8, 6, 0, tzinfo=UTC)
    ctx = open_context(str(sample_workspace), date(2026, 10, 8), offline=True,
                       now=lambda: start + timedelta(minutes=len(fetched)))
    try:
        ingest_public_sources(ctx)
    finally:
        ctx.close()
        ctx.store.close()
    started = [r[0] for r in sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite").execute(
        "SELECT started_at FROM source_runs WHERE status != 'not-run' ORDER BY id")]
    assert len(started) > 2 and len(set(started)) == len(started) and started == sorted(started)


def test_a_store_that_cannot_prepare_its_writes_fails_no_source_by_itself(sample_workspace: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading what writing needs ahead of the saves is only a head start: an error there is left to the saves,
    each in its own source's run, and every source still gets its ledger row."""
    from kb.errors import StoreError
    from kb.store.db import Store

    def refuse(self) -> None:
        raise StoreError("the store cannot be written just now")
    monkeypatch.setattr(Store, "prepare_writes", refuse)
    result = kb_inproc("ingest", "all", "--offline", "--date", "2026-10-08")
    assert result.returncode == 0, result.stderr
    ledger = {row[0]: row[1] for row in _ledger(sample_workspace)}
    assert ledger["arxiv"] == ledger["hf"] == ledger["vllm-blog"] == "ok"


def test_an_online_night_cut_short_keeps_the_sources_saved_before(sample_workspace: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Payloads from the network: each source is fetched, parsed and saved in turn, so a night stopped while it
    fetches (a source hanging until cron's timeout kills it) keeps what it saved. (A night of recordings fetches
    them all first: reading a file does not hang.)"""
    from datetime import date

    import pipeline.ingest.public as public
    import pipeline.ingest.run as run
    from pipeline.context import open_context
    local = public.payloads_of

    def over_the_network(ctx, source, files=None):
        getters = local(ctx, source, files)
        for get in getters:
            get.remote = True
        return getters
    monkeypatch.setattr(public, "payloads_of", over_the_network)
    fetched: list[str] = []
    fetch = run.Collector.fetch

    def fetch_until_killed(self, report):
        fetched.append(report.name)
        if len(fetched) == 3:
            raise KeyboardInterrupt   # cron's timeout, as the process sees a signal
        return fetch(self, report)
    monkeypatch.setattr(run.Collector, "fetch", fetch_until_killed)
    ctx = open_context(str(sample_workspace), date(2026, 10, 8), offline=True)
    try:
        with pytest.raises(KeyboardInterrupt):
            public.ingest_public_sources(ctx)
    finally:
        ctx.close()
        ctx.store.close()
    saved = dict(sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite").execute(
        "SELECT source, status FROM source_runs").fetchall())
    assert saved == {fetched[0]: "ok", fetched[1]: "ok"}
    papers = sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite").execute("SELECT count(*) FROM papers").fetchone()
    assert papers[0] > 0
