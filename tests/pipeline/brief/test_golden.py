"""Golden files: the sample day's zh and en briefings as the nightly writes them, byte for byte, on both
backends; `kb brief` writes the same bytes, its header naming `kb brief`.

Regenerate after an intended change with

    KB_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/pipeline/brief/test_golden.py

then read the diff (git diff tests/golden) before committing it.
"""
from __future__ import annotations

import difflib
import os
import warnings
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import DAY, EN_MD, ZH_MD, brief, clone, copy_sample, kb, read
from tests.support.backends import Backend
from tests.support.paths import GOLDEN

CASES = [("zh", ZH_MD, f"{DAY}-inference.zh.md", ()), ("en", EN_MD, f"{DAY}-inference.en.md", ("--lang", "en"))]
HEADER = {"zh": "执行体：{} · ", "en": "Run: {} · "}   # the header's line naming the command that wrote it


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
                    "tests/pipeline/brief/test_golden.py, then review `git diff tests/golden`.", pytrace=False)


@pytest.fixture(scope="module")
def nightly_on(module_backend: Backend, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample day's nightly (offline) into a store on each backend: the same bytes must come out of both."""
    home = module_backend.use(copy_sample(tmp_path_factory.mktemp("sample") / "ws"))
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    return home


@pytest.mark.parametrize("lang,rel,golden,args", CASES, ids=[c[0] for c in CASES])
def test_briefing_matches_golden(nightly_on: Path, lang: str, rel: str, golden: str, args: tuple[str, ...]) -> None:
    text = read(nightly_on, rel)
    assert text.splitlines()[2].startswith(HEADER[lang].format("kb nightly"))
    _compare(text, GOLDEN / golden)


@pytest.mark.parametrize("lang,rel,golden,args", CASES, ids=[c[0] for c in CASES])
def test_kb_brief_writes_the_golden_naming_itself(sample_day: Path, tmp_path: Path, lang: str, rel: str,
                                                  golden: str, args: tuple[str, ...]) -> None:
    """The header names the command that wrote the briefing; nothing else differs from the nightly's."""
    home = clone(sample_day, tmp_path / "ws")
    brief(home, *args)
    nightly, mine = HEADER[lang].format("kb nightly"), HEADER[lang].format("kb brief")
    expected = (GOLDEN / golden).read_text(encoding="utf-8").replace(nightly, mine, 1)
    assert nightly not in expected and read(home, rel) == expected
    kb(home, "brief", "--date", DAY, "--out", "copy.md", *args)            # a copy is written by kb brief too
    assert read(home, "copy.md") == expected


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
