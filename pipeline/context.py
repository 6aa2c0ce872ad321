"""The run context: what every stage needs, passed explicitly instead of globals.

``today`` is the run's date and ``now`` the clock for ledger timestamps; both are
injected so tests and rebuilt past days are deterministic. Nothing in the
pipeline reads the system time except through ``now``.
"""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from kb import __version__
from kb.store import Store
from kb.workspace import Workspace

if TYPE_CHECKING:
    from pipeline.net.http import HttpClient
    from pipeline.sources.registry import Registry


# ``extra=`` of a log record for the run's own log file only: the command says the same as one line on
# stderr (the console handler of ``kb.cli`` drops records marked so, unless --verbose).
RUN_LOG_ONLY = {"console": False}


def utc_now() -> datetime:
    """The wall clock, in UTC: the one place a run reads it (tests give a run another `now`)."""
    return datetime.now(UTC)


class Progress:
    """Where long work reports how far it got (the CLI draws a bar on a terminal; this one is silent)."""

    def advance(self, n: int = 1) -> None:
        pass


@contextlib.contextmanager
def no_progress(label: str, total: int | None = None) -> Iterator[Progress]:
    yield Progress()


@dataclass
class RunContext:
    workspace: Workspace
    store: Store
    today: date
    offline: bool = False
    now: Callable[[], datetime] = utc_now
    # The nightly skips a payload whose bytes equal the last one saved; an explicit
    # `kb ingest …` always parses what it is given.
    skip_unchanged: bool = False
    # A run log is attached (the nightly's ``.kb/logs/nightly-…``): it keeps what the console leaves out.
    run_log: bool = False
    _http: HttpClient | None = field(default=None, repr=False)
    taxonomy: Any = field(default=None, repr=False)      # loaded once per run (pipeline.classify.engine)
    classifier: Any = field(default=None, repr=False)    # the run's classifier (pipeline.classify.engine)
    # progress(label, total) → a context manager yielding a Progress; the CLI passes a terminal bar.
    progress: Callable[[str, int | None], AbstractContextManager[Progress]] = no_progress

    @property
    def config(self):
        return self.workspace.config

    @property
    def sources(self) -> Registry:
        """The workspace's sources, declared once (``pipeline.sources.registry``), as the config says now."""
        from pipeline.sources.registry import build_registry
        return build_registry(self.config)

    @property
    def http(self) -> HttpClient:
        """The one HTTP client of the run (created on first use; an offline run has none)."""
        if self.offline:   # one guard for every caller: an offline run never reaches the network
            from kb.errors import SourceError
            raise SourceError("offline run: the network is not used")
        if self._http is None:
            from pipeline.net.http import HttpClient, make_user_agent
            self._http = HttpClient(make_user_agent(__version__, self.config.contact),
                                    min_interval=self.sources.host_spacing())
        return self._http

    def close(self) -> None:
        if self._http is not None:
            self._http.close()


def open_context(home: str | None, today: date, *, offline: bool = False,
                 now: Callable[[], datetime] = utc_now) -> RunContext:
    """Locate the workspace, open its store and build the run context."""
    from kb.workspace import open_workspace
    ws = open_workspace(home)
    return RunContext(ws, Store.open(ws.store_target), today, offline=offline, now=now)
