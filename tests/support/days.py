"""The sample days as a team would have them: data/sample's day, then the next days laid over it."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.paths import LABELLED, SAMPLE

(DAY1, DAY2, DAY3, DAY4, DAY5, DAY6, DAY7, DAY8, DAY9, DAY10, DAY11, DAY12, DAY13, DAY14, DAY15, DAY16,
 DAY17, DAY18, DAY19, DAY20, DAY21, DAY22, DAY23, DAY24, DAY25, DAY26, DAY27, DAY28, DAY29, DAY30, DAY31,
 DAY32, DAY33, DAY34, DAY35, DAY36, DAY37, DAY38, DAY39, DAY40,
 DAY41) = (
    "2026-10-08", "2026-10-09", "2026-10-12", "2026-10-13", "2026-10-14", "2026-10-15", "2026-10-16", "2026-10-19",
    "2026-10-20", "2026-10-21", "2026-10-22", "2026-10-23", "2026-10-26", "2026-10-27", "2026-10-28", "2026-10-29",
    "2026-10-30", "2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-09",
    "2026-11-10", "2026-11-11", "2026-11-12", "2026-11-13", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19",
    "2026-11-20", "2026-11-23", "2026-11-24", "2026-11-25", "2026-11-26", "2026-11-27", "2026-11-30",
    "2026-12-01", "2026-12-02", "2026-12-03")
DAY2_DATA, DAY3_DATA = LABELLED / "day2", LABELLED / "day3"


def two_days(home: Path, run, day2_overlay: Path | None = None) -> Path:
    """``home`` after the sample day's nightly and then the next day's; ``run(home, *args)`` runs kb.
    ``day2_overlay`` is laid over the second day's files (say, its renumbered copy)."""
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    run(home, "nightly", "--date", DAY1, "--offline", "--quiet")
    lay_over(DAY2_DATA / "workspace", home)
    if day2_overlay is not None:
        lay_over(day2_overlay, home)
    run(home, "nightly", "--date", DAY2, "--offline", "--quiet")
    return home


def three_days(home: Path, run) -> Path:
    """``home`` after the two days of ``two_days`` and then day 3 (tests/data/day3/README.md), each
    day's files laid over the previous day's."""
    two_days(home, run)
    lay_over(DAY3_DATA / "workspace", home)
    run(home, "nightly", "--date", DAY3, "--offline", "--quiet")
    return home


def next_day(home: Path, run, n: int, day: str) -> Path:
    """``home`` after day ``n``'s files (tests/data/dayN/workspace) are laid over it and its nightly ran."""
    lay_over(LABELLED / f"day{n}" / "workspace", home)
    run(home, "nightly", "--date", day, "--offline", "--quiet")
    return home


def lay_over(overlay: Path, home: Path) -> None:
    """Copy every file of ``overlay`` into ``home`` (new files added, changed ones replaced)."""
    for f in overlay.rglob("*"):
        if f.is_file():
            dest = home / f.relative_to(overlay)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dest)
