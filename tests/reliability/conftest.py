"""The reliability suite's bookkeeping: every case records what it kept, and the summary adds it up.

A case asks for the ``kept`` fixture and reports through it: rows lost against a dump taken
before the fault, stores that fail ``PRAGMA integrity_check``, dangerous constructs found
unescaped in a briefing, secrets found where they must not be. The outcome of every test
(passed, failed, xfailed) is recorded by the hook below; at the end of the session
``pytest_sessionfinish`` prints the totals and fails the run if any promised zero is not.
"""
from __future__ import annotations

from collections import Counter
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
    if item.nodeid.split("::")[0].endswith("test_docs_table.py"):   # about the docs, not a case
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


def totals() -> tuple[Counter, dict[str, int], int, int, list[CaseRecord]]:
    """(outcomes, the promised-zero figures over the cases expected to pass, cases, checks, known bugs)."""
    ran = [r for r in RESULTS.values() if r.outcome != "unknown"]
    expected = [r for r in ran if not r.xfail]          # the cases kb promises to pass
    figures = {"items lost": sum(r.lost for r in expected), "corrupt stores": sum(r.corrupt for r in expected),
               "unescaped outputs": sum(r.unescaped for r in expected),
               "secrets leaked": sum(r.leaked for r in expected)}
    cases = {r.nodeid.split("::")[1].split("[")[0] for r in ran}
    return (Counter(r.outcome for r in ran), figures, len(cases), sum(r.checks for r in ran),
            [r for r in ran if r.xfail])


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Print what every case recorded (the figures docs/reliability.md quotes); a non-zero figure fails the run."""
    outcomes, figures, cases, checks, known = totals()
    if not outcomes:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = ["", "== kb reliability ==",
             f"cases tried: {cases} ({sum(outcomes.values())} tests, {checks} recorded checks) — "
             + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items()))]
    lines += [f"{name}: {value}" for name, value in figures.items()]
    if known:
        lines.append("known bugs (xfail, strict): " + "; ".join(r.nodeid.split("::")[1] for r in known))
    if reporter is not None:
        for line in lines:
            reporter.write_line(line)
    if any(figures.values()):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
