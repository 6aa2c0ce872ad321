"""A night on a workspace that holds years of the team's notes, against the same night without them.

    .venv/bin/python bench/history.py [--days 730] [--per-day 2] [--runs 5] [--seed 7] [--date 2026-10-08]

``bench/nightly.py --scale`` grows the store by backfilled papers; this grows it by what the team writes:
the heavy day of ``bench/nightly.py`` (``heavy_day.generate``), and a copy of it whose inbox also holds
``--days`` days of earlier notes (``--per-day`` a day: the day's own notes, re-dated, so they cite,
compare and mark as the team does). Each workspace gets one nightly that is not timed (the history's
first reading), then ``--runs`` timed nightlies of the same day, interleaved: a night on which nothing
new arrived, the night a team runs again after a fix, and the part of every night that the team's
history could make grow (the workspace's files, their mentions, the briefing's reads).

Prints both medians, peak RSS and the ratio with history ÷ without (target ≤ 1.5, as the scale mode's),
then one JSON line ``{"name","value","unit","floor","ratio"}``. The history is written just before the
untimed night, and kb keeps no stat of a file changed within two seconds of its reading (it reads it again
the next night): the bench waits two seconds first, so the timed nights are the steady state.
Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from heavy_day import generate  # noqa: E402  bench/heavy_day.py
from installed import cache_bytecode  # noqa: E402
from nightly import fresh_copy, median, nightly_cmd, run_process  # noqa: E402

TARGET = 1.5
SIZES = {"arxiv": 2000, "hf": 50, "feeds": 20, "items": 20, "notes": 30, "anchors": 500, "cards": 60, "queue": 30}
_DATED = re.compile(r"\d{4}-\d{2}-\d{2}")


def add_history(home: Path, day: date, days: int, per_day: int, seed: int) -> int:
    """Write ``days`` days of earlier notes into ``home``'s inbox: ``per_day`` of the day's notes a day, every
    date in each (its name, front matter and lines) moved to that earlier day. Returns how many."""
    rng = random.Random(seed)
    notes = sorted((home / "inbox").rglob("*.md"))
    written = 0
    for back in range(1, days + 1):
        when = (day - timedelta(days=back)).isoformat()
        for src in rng.sample(notes, min(per_day, len(notes))):
            dest = src.with_name(_DATED.sub(when, src.name, count=1))
            if dest == src or dest.exists():
                continue
            dest.write_text(_DATED.sub(when, src.read_text(encoding="utf-8")), encoding="utf-8")
            written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--days", type=int, default=730, help="days of earlier notes (default 730: two years)")
    ap.add_argument("--per-day", type=int, default=2, help="notes a day (default 2)")
    ap.add_argument("--runs", type=int, default=5, help="timed nightlies of each workspace (median; default 5)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--date", default="2026-10-08")
    args = ap.parse_args(argv)
    day = date.fromisoformat(args.date)
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-history-"))
    try:
        print(cache_bytecode())
        plain = tmp / "plain"
        generate(plain, args.seed, day, SIZES)
        history = fresh_copy(plain, tmp / "history")
        n = add_history(history, day, args.days, args.per_day, args.seed)
        print(f"the heavy day ({args.date}), and a copy whose inbox also holds {n} earlier notes "
              f"({args.days} days × {args.per_day})", flush=True)
        time.sleep(2.5)   # the files settle: kb keeps no stat of a file changed within two seconds of its reading
        for home in (plain, history):
            t0 = time.perf_counter()
            first = run_process(nightly_cmd(home, args.date), tmp / f"{home.name}_first.log")
            if first["rc"] not in (0, 1):
                raise SystemExit(f"kb nightly failed on {home.name} (exit {first['rc']}):\n{first['output'][-3000:]}")
            print(f"  {home.name}: first nightly (not timed) {time.perf_counter() - t0:.1f} s", flush=True)
        runs: dict[str, list[dict]] = {"plain": [], "history": []}
        for i in range(args.runs):
            for home in (plain, history):
                time.sleep(1.1)   # one log file per run: its name has a one-second resolution
                r = run_process(nightly_cmd(home, args.date), tmp / f"{home.name}_{i}.log")
                if r["rc"] not in (0, 1):
                    raise SystemExit(f"kb nightly failed on {home.name} (exit {r['rc']}):\n{r['output'][-3000:]}")
                runs[home.name].append(r)
        t_plain, t_hist = (median([r["seconds"] for r in runs[k]]) for k in ("plain", "history"))
        m_plain, m_hist = (max(r["rss_mb"] for r in runs[k]) for k in ("plain", "history"))
        ratio = t_hist / t_plain
        print()
        print(f"night without history                median {t_plain:6.2f} s  peak RSS {m_plain:5.0f} MB")
        print(f"night with {n:>6,} earlier notes      median {t_hist:6.2f} s  peak RSS {m_hist:5.0f} MB")
        print(f"ratio with ÷ without                 {ratio:6.2f}    (target <= {TARGET:g})"
              f"  {'OK' if ratio <= TARGET else 'MISSED'}")
        print(json.dumps({"name": "nightly_history", "value": round(t_hist, 3), "unit": "s",
                          "floor": round(t_plain, 3), "ratio": round(ratio, 3)}))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
