"""A team's PostgreSQL server that goes away: stopped in the middle of the nightly, or down before it.

The loss of the store is the run's failure, said once (one line naming the store, its password
hidden), never one "could not write the health ledger" line per source left; the night's run log
says the same, also when the store could not be reached at all; every batch is whole or absent.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.errors import StoreError
from kb.store.pg_urls import redact
from tests.reliability.support import DAY, dump, one_error_line, sample_on
from tests.reliability.support import kb_inproc as kb
from tests.support.pg_server import PostgresServer, _free_port

D = DAY.isoformat()


@pytest.fixture
def own_server(pg_server) -> PostgresServer:
    """A server of this test's own, to stop under a running nightly (the session's serves the others)."""
    if not isinstance(pg_server, PostgresServer):
        pytest.skip("needs a server of its own to stop; KB_TEST_PG_URL names a shared one")
    with PostgresServer() as server:
        yield server


def _run_log(ws: Path) -> str:
    (log,) = (ws / ".kb" / "logs").glob("nightly-*.log")
    return log.read_text(encoding="utf-8")


def _halt_inside_the_second_batch(monkeypatch: pytest.MonkeyPatch, server: PostgresServer) -> list[str]:
    """The server stops while the second source's transaction has written its papers, before it commits;
    returns the sources whose batches were written, in order."""
    import kb.store.papers as papers
    save, calls = papers.save_papers, []

    def save_then_halt(tx, records, source):
        counts = save(tx, records, source)
        calls.append(source)
        if len(calls) == 2:
            server.halt()
        return counts
    monkeypatch.setattr(papers, "save_papers", save_then_halt)
    return calls


def test_a_server_stopped_during_the_nightly_is_one_line_and_leaves_a_whole_store(
        briefed: Path, tmp_path: Path, own_server: PostgresServer, monkeypatch: pytest.MonkeyPatch, kept) -> None:
    """The server stops inside a source's batch: the nightly stops as a store error with one line naming the
    store unreachable (not a ledger line per source left), the run log keeps it, no password anywhere; the
    batch was rolled back, and once the server is back the next nightly completes the store to a clean run's."""
    url = own_server.create_database()
    ws = sample_on(url, tmp_path / "ws")
    with monkeypatch.context() as mp:
        batches = _halt_inside_the_second_batch(mp, own_server)
        result = kb("--home", str(ws), "nightly", "--date", D, "--offline")
    line = one_error_line(result.stderr)
    assert result.returncode == StoreError.exit_code and line.startswith(f"kb: error: the store {redact(url)} is unreachable")
    log = _run_log(ws)
    assert f"nightly stopped: the store {redact(url)} is unreachable" in log and "health ledger" not in log
    assert kept.secret_absent(own_server.password.encode(), result.stderr.encode(), log.encode())
    assert not (ws / "briefings" / f"{D}-inference.md").exists()
    own_server.resume()
    assert kb("--home", str(ws), "db", "check").stdout.strip() == "ok"
    stored = {name for (name,) in own_server.execute("SELECT name FROM sources", url)}
    assert len(batches) == 2 and batches[0] in stored and batches[1] not in stored   # the cut batch rolled back
    assert kb("--home", str(ws), "nightly", "--date", D, "--offline", "--quiet").returncode == 0
    reference = dump(briefed / ".kb" / "kb.sqlite")
    from kb.store import Store
    from tests.support.backends import dump as store_dump
    with Store.open(url, readonly=True) as store:
        after = store_dump(store)
    assert kept.rows(reference, after) == 0 and after == reference


def test_a_server_down_before_the_nightly_is_in_the_nights_run_log(tmp_path: Path, kept) -> None:
    """No server answers at the store's address: the console's one line (the store named, its password hidden)
    is in that night's run log too, so the team sees in the morning why there was no briefing."""
    pytest.importorskip("psycopg")
    url = f"postgresql://kb_writer:Night-pw-42@127.0.0.1:{_free_port()}/kb_team"
    ws = sample_on(url, tmp_path / "ws")
    result = kb("--home", str(ws), "nightly", "--date", D, "--offline")
    line = one_error_line(result.stderr)
    assert result.returncode == StoreError.exit_code and f"the store {redact(url)}" in line, line
    log = _run_log(ws)
    assert f"nightly stopped: {line.removeprefix('kb: error: ')}" in log
    assert kept.secret_absent(b"Night-pw-42", result.stderr.encode(), log.encode())
    assert not (ws / "briefings").exists() or not any((ws / "briefings").iterdir())
