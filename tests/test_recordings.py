"""Every labelled day's recordings (days 3 to 11) are what their generator (tests/data/tools/recordings.py, shared by
all of them) writes: a change to it that would alter a day's fixtures shows here, not in a regenerated file nobody
diffs."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.support.paths import LABELLED


def _script(number: int):
    """tests/data/day<number>/tools/make_recordings.py (a script, not a package): its ``DAY`` and ``write_day``."""
    path = LABELLED / f"day{number}" / "tools" / "make_recordings.py"
    spec = importlib.util.spec_from_file_location(f"make_recordings_day{number}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("number", range(3, 12))
def test_the_shared_generator_writes_each_days_recordings_byte_for_byte(number: int, tmp_path: Path) -> None:
    script = _script(number)
    day = script.DAY
    for folder in ("arxiv", "hf"):
        (tmp_path / "workspace" / "recordings" / folder).mkdir(parents=True)
    script.write_day(day, tmp_path)
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert [str(p) for p in written] == [f"workspace/recordings/arxiv/{day.date}-listing.xml",
                                         f"workspace/recordings/hf/daily_papers_{day.date}.json"]
    for rel in written:
        assert (tmp_path / rel).read_bytes() == (day.here / rel).read_bytes(), rel
