"""Golden files: the sample day's zh and en briefings, byte for byte, on both backends.

Regenerate after an intended change with

    KB_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/brief/test_golden.py

then read the diff (git diff tests/golden) before committing it.
"""
from __future__ import annotations

import difflib
import os
import warnings
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import DAY, EN_MD, ZH_MD, brief, copy_sample, ingest_sample, read
from tests.support.backends import Backend
from tests.support.paths import GOLDEN

CASES = [("zh", ZH_MD, f"{DAY}-inference.zh.md", ()), ("en", EN_MD, f"{DAY}-inference.en.md", ("--lang", "en"))]


def _compare(actual: str, golden: Path) -> None:
    if os.environ.get("KB_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(actual.encode("utf-8"))
        warnings.warn(f"rewrote {golden}", stacklevel=2)
        return
    assert golden.is_file(), f"{golden} is missing; create it with KB_UPDATE_GOLDEN=1"
    expected = golden.read_bytes().decode("utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                            fromfile=f"golden/{golden.name}", tofile="kb brief (now)", n=2))
        pytest.fail(f"{golden.name} differs from kb's output:\n{diff}\n"
                    "If the change is intended: KB_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q "
                    "tests/brief/test_golden.py, then review `git diff tests/golden`.", pytrace=False)


@pytest.fixture(scope="module")
def sample_day_on(module_backend: Backend, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample day ingested into a store on each backend: the same bytes must come out of both."""
    return ingest_sample(module_backend.use(copy_sample(tmp_path_factory.mktemp("sample") / "ws")))


@pytest.mark.parametrize("lang,rel,golden,args", CASES, ids=[c[0] for c in CASES])
def test_briefing_matches_golden(sample_day_on: Path, lang: str, rel: str, golden: str, args: tuple[str, ...]) -> None:
    brief(sample_day_on, *args)
    _compare(read(sample_day_on, rel), GOLDEN / golden)


def test_golden_files_are_plain_utf8_markdown() -> None:
    """The committed files themselves: UTF-8, LF line ends, one trailing newline, no trailing spaces."""
    for _, _, name, _ in CASES:
        path = GOLDEN / name
        if not path.is_file():
            pytest.skip(f"{name} not generated yet")
        raw = path.read_bytes()
        text = raw.decode("utf-8")
        assert b"\r" not in raw
        assert text.endswith("\n") and not text.endswith("\n\n")
        assert not [n for n, line in enumerate(text.splitlines(), 1) if line != line.rstrip()]
