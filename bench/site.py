"""`kb site build` over a year of briefings, as a whole process, against the floor: stdlib string work.

    .venv/bin/python bench/site.py [--days 365] [--runs 3] [--seed 7] [--keep DIR]

Builds a workspace from ``data/sample``: one real offline ``kb nightly`` of the sample day
(md and html in zh and en), then ``--days`` - 1 more days made from it through kb's own
store API (``kb.store.briefings.record_briefing``): each day's data, md and html are the
sample day's with the date changed and its counts drawn from ``--seed``, written to
``briefings/`` and recorded with their hashes, as a nightly would have.

Then, ``--runs`` times, interleaved:

* **kb, first build**: ``kb --home W site build --out S`` into a fresh folder;
* **kb, rerun**: the same command again — it must write 0 files;
* **floor**: one Python process (sqlite3, json, re, str.format): read the same rows, the
  same html files, cut out their bodies, wrap each in a page with previous/next links,
  write an index table, and write every file.

Prints the medians, kb ÷ floor, and the target (first build < 10 s); the last line is one
JSON ``{"name", "value", "unit", "floor", "ratio"}``. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from installed import cache_bytecode  # bench/installed.py

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_S = 10.0
DAY = "2026-10-08"
TOPIC = "inference"
KB = str(Path(sys.executable).with_name("kb"))


def build_workspace(ws: Path, days: int, seed: int) -> None:
    """The sample day from a real nightly, then ``days - 1`` days before it recorded through kb's store API."""
    shutil.copytree(ROOT / "data" / "sample", ws, ignore=shutil.ignore_patterns(".kb", "briefings", "site"))
    subprocess.run([KB, "--home", str(ws), "nightly", "--date", DAY, "--offline", "--quiet"], check=True)
    from kb.store import Store
    from kb.store.briefings import archived_days, archived_files, record_briefing
    rng = random.Random(seed)
    store = Store.open(ws / ".kb" / "kb.sqlite")
    try:
        [(_, _, data)] = archived_days(store)
        texts = {(lang, fmt): (ws / rel).read_text(encoding="utf-8")
                 for (_, _, lang, fmt), (rel, _) in archived_files(store).items()}
        start = date.fromisoformat(DAY) - timedelta(days=days - 1)
        with store.transaction() as tx:
            for n in range(days - 1):
                day = (start + timedelta(days=n)).isoformat()
                copy = json.loads(json.dumps(data).replace(DAY, day))
                copy["density"]["net_new"] = rng.randint(0, 20)
                copy["density"]["level"] = rng.choice(["高", "中", "低"])
                for (lang, fmt), text in texts.items():
                    rel = f"briefings/{day}-{TOPIC}{'' if lang == 'zh' else '.' + lang}.{fmt}"
                    body = text.replace(DAY, day)
                    (ws / rel).write_text(body, encoding="utf-8")
                    record_briefing(tx, copy, lang, fmt, rel, body)
    finally:
        store.close()


FLOOR = r'''
import json, re, sqlite3, sys
from pathlib import Path

ws, out = Path(sys.argv[1]), Path(sys.argv[2])
db = sqlite3.connect(ws / ".kb" / "kb.sqlite")
days = [(t, d, json.loads(b)) for t, d, b in db.execute(
    "SELECT topic, date, data FROM briefings WHERE format = 'json' AND lang = '' ORDER BY topic, date")]
files = {(t, d, l): p for t, d, l, p in db.execute(
    "SELECT topic, date, lang, path FROM briefings WHERE format = 'html'")}
def esc(s): return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
rows = []
for i, (t, d, data) in enumerate(days):
    for lang, suffix in (("zh", ""), ("en", ".en")):
        text = (ws / files[(t, d, lang)]).read_text(encoding="utf-8")
        body = text[text.index("<main>\n") + 7:text.rindex("</main>")]
        prev = f'<a href="{days[i-1][1]}{suffix}.html">prev</a>' if i else ""
        nxt = f'<a href="{days[i+1][1]}{suffix}.html">next</a>' if i + 1 < len(days) else ""
        page = (f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{esc(t)} {d}</title>'
                f'<link rel="stylesheet" href="../style.css"></head><body><nav>{prev}{nxt}</nav>{body}</body></html>')
        (out / t).mkdir(parents=True, exist_ok=True)
        (out / t / f"{d}{suffix}.html").write_text(page, encoding="utf-8")
    rows.append(f'<tr><td><a href="{t}/{d}.html">{d}</a></td><td>{esc(data["density"]["level"])}</td>'
                f'<td>{data["density"]["net_new"]}</td><td>{len(data["increments"])}</td></tr>')
(out / "index.html").write_text("<table>" + "".join(reversed(rows)) + "</table>", encoding="utf-8")
'''


def timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - t0, proc.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--days", type=int, default=365)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", help="build the workspace here (a folder that does not exist yet) and keep it")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-site-"))
    try:
        print(cache_bytecode())
        ws = Path(args.keep) if args.keep else tmp / "ws"
        t0 = time.perf_counter()
        build_workspace(ws, args.days, args.seed)
        print(f"built {ws} in {time.perf_counter() - t0:.1f} s: {args.days} days × zh, en × md, html")
        first, rerun, floor, reports = [], [], [], []
        for run in range(args.runs):
            site = tmp / f"site-{run}"
            t, _ = timed([sys.executable, "-c", FLOOR, str(ws), str(tmp / f"floor-{run}")])
            floor.append(t)
            t, line = timed([KB, "--home", str(ws), "site", "build", "--out", str(site)])
            first.append(t)
            t, again = timed([KB, "--home", str(ws), "site", "build", "--out", str(site)])
            rerun.append(t)
            reports.append((line, again))
            print(f"run {run + 1}: kb first {first[-1]:.2f} s ({line.split(' — ')[-1]}), rerun {rerun[-1]:.2f} s "
                  f"({again.split(' — ')[-1]}), floor {floor[-1]:.2f} s")
        kb_s, re_s, fl_s = (statistics.median(x) for x in (first, rerun, floor))
        zero = all(again.split(" — ")[-1].startswith("0 of") for _, again in reports)
        print(f"kb site build, {args.days} days: {kb_s:.2f} s (target < {TARGET_S:.0f} s: "
              f"{'met' if kb_s < TARGET_S else 'NOT met'}); floor {fl_s:.2f} s; ratio {kb_s / fl_s:.2f}")
        print(f"rerun: {re_s:.2f} s, writes 0 files: {'yes' if zero else 'NO'}")
        print(json.dumps({"name": "site build", "value": round(kb_s, 3), "unit": "s", "floor": round(fl_s, 3),
                          "ratio": round(kb_s / fl_s, 2)}))
        return 0 if kb_s < TARGET_S and zero else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
