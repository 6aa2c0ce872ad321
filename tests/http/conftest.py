"""Fixtures for the HTTP client tests: a scripted server on 127.0.0.1 and a client factory."""
from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from pipeline.http import HttpClient

# tests/ has no __init__.py, so a bare ``import server`` could pick up another folder's
# server.py; load ours under a name of its own (the test module imports it by that name).
_spec = importlib.util.spec_from_file_location("kb_tests_http_server",
                                               Path(__file__).with_name("server.py"))
assert _spec is not None and _spec.loader is not None
_server = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _server
_spec.loader.exec_module(_server)

USER_AGENT = "kb/0.0-test (+mailto:tests@example.org)"


@pytest.fixture
def server() -> Iterator[_server.ScriptedServer]:
    """A started server; fails the test if a request was unscripted or a reply went unused."""
    srv = _server.ScriptedServer().start()
    try:
        yield srv
    finally:
        srv.stop()
    assert not srv.errors, srv.errors
    assert not srv.unused(), f"scripted replies never requested: {srv.unused()}"


@pytest.fixture
def sleeps() -> list[float]:
    """Every delay the client asked for; nothing really sleeps."""
    return []


@pytest.fixture
def make_client(sleeps: list[float]) -> Iterator[Callable[..., HttpClient]]:
    """Build clients that record sleeps instead of sleeping, with no jitter unless asked."""
    made: list[HttpClient] = []

    def make(**kwargs: object) -> HttpClient:
        kwargs.setdefault("sleep", sleeps.append)
        kwargs.setdefault("rand", lambda: 0.0)
        kwargs.setdefault("timeout", 5)
        kwargs.setdefault("connect_timeout", 2)
        client = HttpClient(USER_AGENT, **kwargs)  # type: ignore[arg-type]
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
