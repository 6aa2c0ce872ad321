"""Fixtures for the HTTP client tests: a scripted server on 127.0.0.1 and a client factory."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from pipeline.net.http import HttpClient

USER_AGENT = "kb/0.0-test (+mailto:tests@example.org)"


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
