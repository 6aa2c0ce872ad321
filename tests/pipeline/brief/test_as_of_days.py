"""Issue 13's as-of rule over several days: after day 4 (the doc's next versions, anchoring dates corrected,
papers retitled by a v2, items taken off the queue, posts corrected in place), each earlier day's nightly run
again with that day's own config and recordings leaves its briefings byte for byte as that night wrote them."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import kb
from tests.support.days import DAY1, DAY2, DAY2_DATA, DAY3, DAY3_DATA, DAY4, LABELLED, lay_over
from tests.support.paths import SAMPLE

pytestmark = pytest.mark.slow

DAYS = [(DAY1, None), (DAY2, DAY2_DATA), (DAY3, DAY3_DATA), (DAY4, LABELLED / "day4")]


@pytest.fixture(scope="module")
def four_days(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The workspace after day 4, and beside it what each day had: its briefings, kb.toml and recordings."""
    root = tmp_path_factory.mktemp("as-of")
    home, kept = root / "ws", root / "kept"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    for day, data in DAYS:
        if data is not None:
            lay_over(data / "workspace", home)
        kb(home, "nightly", "--date", day, "--offline", "--quiet")
        shutil.copytree(home / "recordings", kept / day / "recordings")
        shutil.copy2(home / "kb.toml", kept / day / "kb.toml")
        for f in (home / "briefings").glob(f"{day}-*"):
            shutil.copy2(f, kept / day / f.name)
    return home, kept


@pytest.mark.parametrize("day", [DAY1, DAY2, DAY3])
def test_a_day_run_again_after_day_4_writes_what_its_night_wrote(four_days: tuple[Path, Path], day: str,
                                                                 tmp_path: Path) -> None:
    """On a copy of day 4's workspace, with the day's own kb.toml and recordings (the team's files stay day 4's):
    day 2 had TailGuard anchored with a future date that day 4 corrected to the 9th, SnapEvict under its v1
    title, and a queue day 4 changed; none of it may reach the day's briefings."""
    done, kept = four_days
    home = tmp_path / "ws"
    shutil.copytree(done, home)
    shutil.rmtree(home / "recordings")
    shutil.copytree(kept / day / "recordings", home / "recordings")
    shutil.copy2(kept / day / "kb.toml", home / "kb.toml")
    written = {f.name: f.read_bytes() for f in (kept / day).glob(f"{day}-*")}
    out = kb(home, "nightly", "--date", day, "--offline").stdout
    assert len(written) == 4 and out.count("(unchanged)") == 2, out
    assert {n: (home / "briefings" / n).read_bytes() for n in written} == written
