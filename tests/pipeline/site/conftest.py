"""The archive site of the two sample days, built once per module (two nightlies, then `kb site build`)."""
from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app
from tests.support.days import two_days


def kb(home: Path, *args: str, code: int = 0):
    """``kb --home HOME ARGS…`` in-process; insist on the exit code."""
    result = CliRunner().invoke(app, ["--home", str(home), *args])
    assert result.exit_code == code, f"kb {' '.join(args)} exited {result.exit_code}\n{result.output}"
    return result


@pytest.fixture(scope="module")
def site_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = two_days(tmp_path_factory.mktemp("site") / "ws", kb)
    kb(home, "site", "build")
    return home


from tests.support.chromium import chromium  # noqa: E402,F401  the headless-Chromium fixture (skips without one)
