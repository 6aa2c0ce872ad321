"""Shared fixtures: a fresh workspace and store per test, the two backends, the CLI runner, the shared corpus."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.store import Store
from kb.workspace import init_workspace
from tests.support.backends import BACKENDS, Backend, make_backend
from tests.support.paths import CORPUS, SAMPLE
from tests.support.server import ScriptedServer

# The throwaway PostgreSQL server (fixtures pg_server, pg_url, pg_fresh_url); pytest_plugins is
# only allowed in the root conftest.
pytest_plugins = ["tests.support.pg_server"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    """Each backend in turn: the SQLite file, then a fresh PostgreSQL database."""
    return make_backend(request, request.param)


@pytest.fixture(scope="module", params=BACKENDS)
def module_backend(request: pytest.FixtureRequest) -> Backend:
    """The same, once per module (for a workspace ingested once and read by many tests)."""
    return make_backend(request, request.param)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An initialised, empty workspace; KB_HOME points at it."""
    root = tmp_path / "ws"
    init_workspace(root)
    monkeypatch.setenv("KB_HOME", str(root))
    return root


@pytest.fixture
def sample_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of data/sample (the seed's day)."""
    root = tmp_path / "sample"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    monkeypatch.setenv("KB_HOME", str(root))
    return root


@pytest.fixture
def store(tmp_path: Path, backend: Backend):
    """A new store on each backend."""
    s = Store.open(backend.url or tmp_path / "kb.sqlite")
    yield s
    s.close()


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is not on this machine")
    return CORPUS


@pytest.fixture
def server():
    """A scripted HTTP server on 127.0.0.1; fails the test on an unscripted request or an unused reply."""
    srv = ScriptedServer().start()
    try:
        yield srv
    finally:
        srv.stop()
    assert not srv.errors, srv.errors
    assert not srv.unused(), f"scripted replies never requested: {srv.unused()}"


@pytest.fixture
def http_waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The waits a run's HTTP client asks for (the arXiv API's 3 s spacing), recorded instead of slept.

    The client's clock stands still but for those waits, so what it asks for does not depend on how fast
    the machine served the previous request."""
    import pipeline.net.http as http
    waits: list[float] = []
    now = [1000.0]

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    class Recorded(http.HttpClient):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs, sleep=sleep, clock=lambda: now[0])

    monkeypatch.setattr(http, "HttpClient", Recorded)
    return waits
