"""The reliability suite's bookkeeping: every case records what it kept, and the summary adds it up.

A case asks for the ``kept`` fixture and reports through it: rows lost against a dump taken
before the fault, stores that fail ``PRAGMA integrity_check``, dangerous constructs found
unescaped in a briefing, secrets found where they must not be. The outcome of every test
(passed, failed, xfailed) is recorded by the hook below. ``test_zz_summary.py`` runs last
(files run in name order) and prints and checks the totals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.reliability import support


@dataclass
class CaseRecord:
    nodeid: str
    lost: int = 0
    corrupt: int = 0
    unescaped: int = 0
    leaked: int = 0
    checks: int = 0
    outcome: str = "unknown"
    xfail: bool = False
    notes: list[str] = field(default_factory=list)


RESULTS: dict[str, CaseRecord] = {}


class Kept:
    """What one case checked; each method returns what it found so the case can assert on it too."""

    def __init__(self, record: CaseRecord) -> None:
        self.record = record

    def rows(self, before: dict, after: dict) -> int:
        lost = support.lost_rows(before, after)
        self.record.lost += lost
        self.record.checks += 1
        return lost

    def items(self, expected: int, found: int) -> int:
        """Items that should have been kept (counts): the shortfall is lost."""
        lost = max(0, expected - found)
        self.record.lost += lost
        self.record.checks += 1
        return lost

    def store(self, db: Path) -> str:
        result = support.integrity(db) if db.exists() else "ok"
        self.record.corrupt += result != "ok"
        self.record.checks += 1
        return result

    def escaped(self, text: str, *, html_output: bool) -> list[str]:
        found = support.dangerous(text, html_output=html_output)
        if not html_output:
            found += [f"table broken: {line}" for line in support.table_breaks(text)]
        self.record.unescaped += len(found)
        self.record.checks += 1
        return found

    def secret_absent(self, secret: bytes, *blobs: bytes) -> bool:
        leaked = any(secret in b for b in blobs)
        self.record.leaked += leaked
        self.record.checks += 1
        return not leaked


@pytest.fixture
def kept(request: pytest.FixtureRequest) -> Kept:
    record = RESULTS.setdefault(request.node.nodeid, CaseRecord(request.node.nodeid))
    return Kept(record)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    if "test_zz_summary" in item.nodeid:
        return
    record = RESULTS.setdefault(item.nodeid, CaseRecord(item.nodeid))
    record.xfail = item.get_closest_marker("xfail") is not None
    if report.when == "setup" and report.outcome != "passed":
        record.outcome = "xfailed" if hasattr(report, "wasxfail") else report.outcome
    elif report.when == "call":
        if hasattr(report, "wasxfail"):
            record.outcome = "xfailed" if report.outcome == "skipped" else "xpassed"
        else:
            record.outcome = report.outcome
    elif report.when == "teardown" and report.outcome == "failed":
        record.outcome = "failed"


@pytest.fixture(scope="session")
def _briefed_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/sample after one offline nightly of its day (made once per session)."""
    import shutil
    root = tmp_path_factory.mktemp("briefed") / "sample"
    shutil.copytree(support.REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    result = support.kb("nightly", "--home", str(root), "--date", support.DAY.isoformat(), "--offline", "--quiet")
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def briefed(_briefed_sample: Path, tmp_path: Path) -> Path:
    """A private copy of the sample after its nightly: store, briefings and all."""
    import shutil
    root = tmp_path / "briefed"
    shutil.copytree(_briefed_sample, root)
    return root
