"""Whole-process time of ``kb nightly --offline`` on a heavy day, against the floor; and its second run.

    .venv/bin/python bench/nightly.py [--runs 3] [--seed 7] [--date 2026-10-08] [--arxiv 2000] [--hf 50]
                                      [--feeds 20] [--items 20] [--notes 30] [--anchors 500] [--cards 60]
                                      [--queue 30] [--profile | --no-profile] [--keep DIR] [--scale N]
                                      [--classifier default|keyword|learned]

Generates (seeded, deterministic) one heavy offline day as a workspace laid out like
``data/sample``: a ``kb.toml`` pointing every source at its recording, and

* ``recordings/arxiv/<D>-listing.xml`` — an rss.arxiv.org RSS 2.0 listing of 2,000 items
  (new / cross / replace / replace-cross, old-style IDs too), ~1 kB abstracts;
* ``recordings/hf/daily_papers_<D>.json`` — 50 items in the 2026 Daily Papers schema, most
  of them also in the listing;
* ``recordings/blogs/*.xml`` — 20 feeds × 20 posts, half Atom (jekyll-feed layout, HTML
  content), half RSS 2.0; posts link arXiv papers;
* ``inbox/<author>/*.md`` — 30 notes in the team's format (front matter or not, ``##``
  entries or one entry per list item, Chinese and English, 来源 lines, ▲ upvotes, ⚠ 待核实);
* ``organized/knowledge/inference.md`` — the inference doc with 500 anchors in every section
  the taxonomy names (§1.1 … §3.5, §2.3.1);
* ``organized/paper_cards/*.md`` and ``organized/queue/work-queue.md``.

Topics mix inference (PD disaggregation, KV cache, speculative decoding, quantization, MoE,
scheduling, kernels …) with other fields (agents, RAG, RL, vision, training, theory,
consensus …), including the classifier's traps ("causal inference", FP8 *training*).

Then, in the same run, ``--runs`` times (default 3), interleaved:

* **kb, first run**: ``kb nightly --home W --date D --offline`` as a whole process on a FRESH
  copy of the generated workspace (no store yet: a first run). Peak RSS is that child's
  ``ru_maxrss`` (``os.wait4``: RUSAGE_CHILDREN of that one process).
* **kb, second run**: the same command again on the same copy, no new inputs (incremental
  work only). Target: the first run ≥ 5× slower than the second.
* **floor**: one whole Python process (``--child floor``) on another fresh copy doing
  the same day with no framework: ElementTree parse of the listing and the 20 feeds,
  ``json.loads`` of HF, a line-based read of the notes / cards / queue / knowledge doc, raw
  ``sqlite3`` executemany of the same records into a file DB (WAL, synchronous=NORMAL,
  one transaction), one precompiled alternation regex of every ``data/taxonomy.toml``
  term tagging every text, and one Jinja render of a simple template over the results.
  The alternation is factored into a prefix trie (same matches as ``"|".join(terms)``,
  longest first; Latin terms whole-word): Python's ``re`` runs the plain 1,300-term
  alternation ~10× slower, which would make a floor slower than kb's own classifier.

Prints the medians, the ratio kb ÷ floor (lower is better; target ≤ 3), the speed-up of
the second run, peak RSS, and last one JSON line ``{"name","value","unit","floor","ratio"}``.
Also, for orientation: the same ratio on CPU time (robust on a busy machine), the time a
nightly process spends importing (``-X importtime`` of one more rerun), what the design card's
libraries alone cost on the day (``--child libraries``: typer and SQLModel imported, feedparser on the
feeds, markdown-it on the team's files and two renders of the briefing), and kb's wall time
per stage, read from the timestamps of the run's own log in ``.kb/logs/`` (no profiler).
When a target is missed (or with ``--profile``), kb is run under ``python -m cProfile`` for a
first and a second run and the top 30 functions by cumulative (kb's own) and by own time
(all) are printed. Children run outside the checkout, so ``PYTHONPATH=/path/to/other/kb``
benchmarks another copy of kb with this venv (the bench prints which one it ran).
Not part of the test suite.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from heavy_day import generate  # bench/heavy_day.py
from heavy_day_pools import FEEDS
from installed import cache_bytecode  # bench/installed.py
from nightly_floor import child_floor, child_libraries

ROOT = Path(__file__).resolve().parents[1]
RUN_DIR = tempfile.gettempdir()   # cwd of every child: never the checkout, so PYTHONPATH=<another kb> is honoured
TARGET_RATIO = 3.0
TARGET_SPEEDUP = 5.0


def _py() -> str:
    return str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv" / "bin" / "python").exists() else sys.executable


def _kb() -> str:
    return str(Path(_py()).with_name("kb"))


def run_process(cmd: list[str], log: Path) -> dict:
    """Run ``cmd`` to completion; wall time, exit code and that child's own peak RSS (os.wait4)."""
    with log.open("wb") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=RUN_DIR)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": seconds, "rc": proc.returncode, "rss_mb": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime, "output": log.read_text(encoding="utf-8", errors="replace")}


def stage_times(home: Path) -> dict[str, float]:
    """Wall time of each nightly stage, from the timestamps of the run's own log (no profiler overhead)."""
    import re
    from datetime import datetime
    logs = sorted((home / ".kb" / "logs").glob("nightly-*.log"), key=lambda p: (p.stat().st_mtime, p.name))
    if not logs:
        return {}
    marks: list[tuple[datetime, str]] = []
    for line in logs[-1].read_text(encoding="utf-8", errors="replace").splitlines():
        m = re.match(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) INFO pipeline\.nightly: (?:stage: (.*)|kb nightly )", line)
        if m:
            if m[2] == "ingest sources":
                marks = []
            marks.append((datetime.strptime(m[1], "%Y-%m-%d %H:%M:%S,%f"), m[2] or "end"))
    out = {name: (marks[i + 1][0] - t).total_seconds() for i, (t, name) in enumerate(marks[:-1])}
    if len(marks) > 1:
        out["stages"] = (marks[-1][0] - marks[0][0]).total_seconds()
    return out


def fresh_copy(template: Path, dest: Path) -> Path:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(template, dest)
    return dest


def nightly_cmd(home: Path, day: str) -> list[str]:
    return [_kb(), "nightly", "--home", str(home), "--date", day, "--offline"]


def profile_run(home: Path, day: str, out: Path, top: int = 30, src: str | None = None) -> str:
    """cProfile one ``kb nightly`` process; the top functions by cumulative and by own time."""
    import io
    import pstats
    cmd = [_py(), "-m", "cProfile", "-o", str(out), "-m", "kb.cli", "nightly", "--home", str(home),
           "--date", day, "--offline", "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=False, cwd=RUN_DIR, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        return f"(profiled run failed, exit {proc.returncode}: {proc.stderr[-2000:]})"
    texts = []
    for key, restrict, what in (("cumulative", r"/(?:kb|pipeline)/", ("kb's own functions (kb/, pipeline/; "
                                 "the typer/click/runpy frames above them skipped)")), ("tottime", None, "all")):
        buf = io.StringIO()
        stats = pstats.Stats(str(out), stream=buf).sort_stats(key)
        stats.print_stats(*([restrict, top] if restrict else [top]))
        body = buf.getvalue()
        body = body[body.find("   ncalls"):] if "   ncalls" in body else body
        site = next((p for p in sys.path if p.endswith("site-packages")), None)
        venv_site = str(next((ROOT / ".venv" / "lib").glob("python*/site-packages"), ROOT))
        for prefix, short in ((venv_site + "/", "site:"), (str(src or ROOT) + "/", ""), (str(ROOT) + "/", ""),
                              (os.path.dirname(os.__file__) + "/", "stdlib:"), (site or "\0", "site:")):
            body = body.replace(prefix, short)
        texts.append(f"-- top {top} by {key}, {what} (profiled wall {wall:.2f} s) --\n{body.rstrip()}")
    return "\n".join(texts)


def import_times(home: Path, day: str) -> dict:
    """Seconds a ``kb nightly`` process spends in imports (sum of top-level -X importtime entries) and the heaviest."""
    proc = subprocess.run([_py(), "-X", "importtime", "-m", "kb.cli", "nightly", "--home", str(home), "--date", day,
                           "--offline", "--quiet"], check=False, cwd=RUN_DIR, capture_output=True, text=True)
    top: dict[str, float] = {}
    total = 0.0
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cum, name = line.split("|", 2)
        if not cum.strip().isdigit():
            continue
        seconds = int(cum) / 1e6
        if not name.startswith("  "):          # a top-level import: its cumulative time counts once
            total += seconds
        pkg = name.strip().split(".")[0]
        if pkg not in ("kb", "pipeline"):      # third-party and stdlib packages, where kb's own import time goes
            top[pkg] = max(top.get(pkg, 0.0), seconds)
    return {"total": total, "top": sorted(top.items(), key=lambda kv: -kv[1])[:6]}


def provenance() -> tuple[str, str]:
    """Which kb is under test: the package the venv imports (PYTHONPATH may point elsewhere) and its git state."""
    proc = subprocess.run([_py(), "-c", ("import kb, os; print(os.path.dirname(os.path.dirname(kb.__file__)), "
                           "kb.__version__)")], check=False, capture_output=True, text=True, cwd=RUN_DIR)
    where = proc.stdout.strip() or f"? ({proc.stderr.strip()[-200:]})"
    src = where.split(" ")[0]
    rev = subprocess.run(["git", "-C", src, "rev-parse", "--short", "HEAD"], check=False, capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"],
                           check=False, capture_output=True, text=True)
    state = (f"git {rev.stdout.strip()}, {len(dirty.stdout.splitlines())} tracked files modified"
             if rev.returncode == 0 else "not a git checkout")
    return src, f"{where} ({state})"


def median(xs: list[float]) -> float:
    return statistics.median(xs)


SCALE_TIME, SCALE_RSS = 1.5, 2.0   # the night on a backfilled store vs on an empty one: time and peak RSS


def backfilled_copy(template: Path, dest: Path, n: int, seed: int, day: str) -> dict:
    """A copy of the day's workspace whose store already holds ``n`` backfilled papers, each classified:
    ``kb ingest arxiv-bulk`` of a Kaggle JSON-lines file, then ``kb classify`` (the README's backfill)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("kb_bench_ingest", Path(__file__).with_name("ingest.py"))
    ingest_bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ingest_bench)
    home = fresh_copy(template, dest)
    data = dest.parent / f"backfill-{n}.jsonl"
    ingest_bench.write_kaggle(data, n, seed + 1000)
    t0 = time.perf_counter()
    for cmd in (["ingest", "arxiv-bulk", str(data)], ["classify"]):
        proc = subprocess.run([_kb(), "--home", str(home), "--quiet", *cmd], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"kb {' '.join(cmd)} failed:\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    data.unlink()
    store_mb = sum(p.stat().st_size for p in (home / ".kb").glob("kb.sqlite*")) / 1e6
    return {"home": home, "seconds": time.perf_counter() - t0, "store_mb": store_mb}


def scale_mode(template: Path, tmp: Path, args: argparse.Namespace) -> int:
    """The same heavy night on an empty store and on a store of ``args.scale`` backfilled papers."""
    print(f"building a store of {args.scale:,} backfilled papers (kb ingest arxiv-bulk, kb classify) …", flush=True)
    big = backfilled_copy(template, tmp / "backfilled", args.scale, args.seed, args.date)
    print(f"  built in {big['seconds']:.0f} s, store {big['store_mb']:.0f} MB")
    empty_runs, big_runs = [], []
    for i in range(args.runs):
        for label, src, runs in (("empty", template, empty_runs), ("backfilled", big["home"], big_runs)):
            home = fresh_copy(src, tmp / f"{label}_{i}")
            r = run_process(nightly_cmd(home, args.date), tmp / f"{label}_{i}.log")
            if r["rc"] not in (0, 1):
                raise SystemExit(f"kb nightly failed on the {label} store (exit {r['rc']}):\n{r['output'][-3000:]}")
            r["stages"] = stage_times(home)
            runs.append(r)
            shutil.rmtree(home)
        print(f"  run {i + 1}: empty store {empty_runs[-1]['seconds']:.2f} s ({empty_runs[-1]['rss_mb']:.0f} MB), "
              f"{args.scale:,} papers {big_runs[-1]['seconds']:.2f} s ({big_runs[-1]['rss_mb']:.0f} MB)", flush=True)
    t_empty, t_big = median([r["seconds"] for r in empty_runs]), median([r["seconds"] for r in big_runs])
    m_empty, m_big = max(r["rss_mb"] for r in empty_runs), max(r["rss_mb"] for r in big_runs)
    print()
    print(f"night on an empty store              median {t_empty:7.2f} s  peak RSS {m_empty:5.0f} MB")
    print(f"night on a store of {args.scale:>9,} papers  median {t_big:7.2f} s  peak RSS {m_big:5.0f} MB")
    print(f"time ratio backfilled / empty        {t_big / t_empty:7.2f}    (target <= {SCALE_TIME:g})"
          f"  {'OK' if t_big / t_empty <= SCALE_TIME else 'MISSED'}")
    print(f"peak RSS ratio backfilled / empty    {m_big / m_empty:7.2f}    (target <= {SCALE_RSS:g})"
          f"  {'OK' if m_big / m_empty <= SCALE_RSS else 'MISSED'}")
    names = [n for n in empty_runs[0]["stages"] if n != "stages"]
    if names:
        print("(info) wall time per stage (median s):            empty   backfilled")
        for n in names:
            a = median([r["stages"].get(n, 0.0) for r in empty_runs])
            b = median([r["stages"].get(n, 0.0) for r in big_runs])
            print(f"         {n:<40} {a:7.2f}  {b:7.2f}")
    print(json.dumps({"name": "nightly_scale", "value": round(t_big, 3), "unit": "s", "floor": round(t_empty, 3),
                      "ratio": round(t_big / t_empty, 3)}))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs of each kind (median; default 3)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--date", default="2026-10-08", help="the day (a weekday; default 2026-10-08)")
    for name, default in (("arxiv", 2000), ("hf", 50), ("feeds", 20), ("items", 20), ("notes", 30),
                          ("anchors", 500), ("cards", 60), ("queue", 30)):
        ap.add_argument(f"--{name}", type=int, default=default, help=f"default {default}")
    ap.add_argument("--profile", action="store_true", help="always cProfile a first and a second kb run")
    ap.add_argument("--no-profile", action="store_true", help="never profile, even when a target is missed")
    ap.add_argument("--keep", help="keep the generated workspace here (a directory that does not exist yet)")
    ap.add_argument("--classifier", choices=("default", "keyword", "learned"), default="default",
                    help="the workspace's [classify] model (default: kb's own default)")
    ap.add_argument("--scale", type=int, metavar="N", help="scale mode: the same night on an empty store and on a "
                    "store holding N backfilled papers (kb ingest arxiv-bulk, then kb classify); e.g. 200000")
    ap.add_argument("--child", choices=("floor", "libraries"), help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.child:
        print(json.dumps((child_floor if args.child == "floor" else child_libraries)(args.home, args.date)))
        return 0

    day = date.fromisoformat(args.date)
    if args.feeds > len(FEEDS):
        ap.error(f"--feeds at most {len(FEEDS)}")
    sizes = {k: getattr(args, k) for k in ("arxiv", "hf", "feeds", "items", "notes", "anchors", "cards", "queue")}
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-nightly-"))
    try:
        print(cache_bytecode())
        template = Path(args.keep) if args.keep else tmp / "template"
        t0 = time.perf_counter()
        made = generate(template, args.seed, day, sizes)
        if args.classifier != "default":
            with (template / "kb.toml").open("a", encoding="utf-8") as f:
                f.write(f'\n[classify]\nmodel = "{args.classifier}"\n')
        size_mb = sum(p.stat().st_size for p in template.rglob("*") if p.is_file()) / 1e6
        print(f"generated {template} in {time.perf_counter() - t0:.1f} s ({size_mb:.1f} MB, seed {args.seed}, "
              f"day {args.date}): listing {made['listing']} items, HF {made['hf']}, {sizes['feeds']} feeds × "
              f"{sizes['items']} = {made['posts']} posts, {made['notes']} notes, {made['anchors']} anchors, "
              f"{made['cards']} cards, queue {made['queue']}; classifier: {args.classifier}")

        kb_src, where = provenance()
        print(f"kb under test: {where}")
        if args.scale:
            return scale_mode(template, tmp, args)
        imports: dict = {}
        libs: dict = {"inner": None}

        firsts, seconds, floors, first_out, second_out = [], [], [], "", ""
        for i in range(args.runs):
            fl_home = fresh_copy(template, tmp / f"floor_{i}")
            fl = run_process([_py(), str(Path(__file__).resolve()), "--child", "floor", "--home", str(fl_home),
                              "--date", args.date], tmp / f"floor_{i}.log")
            if fl["rc"] != 0:
                raise SystemExit(f"floor failed:\n{fl['output'][-3000:]}")
            fl["inner"] = json.loads(fl["output"].strip().splitlines()[-1])
            floors.append(fl)
            shutil.rmtree(fl_home)

            home = fresh_copy(template, tmp / f"kb_{i}")
            first = run_process(nightly_cmd(home, args.date), tmp / f"kb_first_{i}.log")
            first["stages"] = stage_times(home)
            time.sleep(1.1)   # one log file per run: its name has a one-second resolution
            second = run_process(nightly_cmd(home, args.date), tmp / f"kb_second_{i}.log")
            second["stages"] = stage_times(home)
            for r in (first, second):
                if r["rc"] not in (0, 1):
                    raise SystemExit(f"kb nightly failed (exit {r['rc']}):\n{r['output'][-3000:]}")
            store_mb = sum(p.stat().st_size for p in (home / ".kb").glob("kb.sqlite*")) / 1e6
            firsts.append(first | {"store_mb": store_mb})
            seconds.append(second)
            first_out, second_out = first["output"], second["output"]
            print(f"  run {i + 1}: kb first {first['seconds']:.2f} s (exit {first['rc']}, {first['rss_mb']:.0f} MB), "
                  f"second {second['seconds']:.2f} s (exit {second['rc']}, {second['rss_mb']:.0f} MB), "
                  f"floor {fl['seconds']:.2f} s (in-process {fl['inner']['seconds']:.2f} s)", flush=True)
            if i == 0:   # kb's fixed cost: what a nightly process spends importing (one more rerun, -X importtime)
                imports = import_times(home, args.date)
                libs = run_process([_py(), str(Path(__file__).resolve()), "--child", "libraries", "--home", str(home),
                                    "--date", args.date], tmp / "libraries.log")
                libs["inner"] = json.loads(libs["output"].strip().splitlines()[-1]) if libs["rc"] == 0 else None
            shutil.rmtree(home)

        kb_first = median([r["seconds"] for r in firsts])
        kb_second = median([r["seconds"] for r in seconds])
        floor = median([r["seconds"] for r in floors])
        inner = median([r["inner"]["seconds"] for r in floors])
        ratio, speedup = kb_first / floor, kb_first / kb_second
        fi = min(floors, key=lambda r: abs(r["seconds"] - floor))["inner"]
        print()
        print("kb first run, summary:\n  " + first_out.strip().replace("\n", "\n  "))
        print("kb second run, summary:\n  " + second_out.strip().replace("\n", "\n  "))
        print()
        print(f"kb nightly, first run (fresh copy)  median {kb_first:7.2f} s  of {[round(r['seconds'], 2) for r in firsts]}"
              f"  cpu {median([r['cpu_s'] for r in firsts]):.2f} s  store {firsts[-1]['store_mb']:.0f} MB")
        print(f"floor, whole process                 median {floor:7.2f} s  of {[round(r['seconds'], 2) for r in floors]}"
              f"  (in-process {inner:.2f} s = parse {fi['parse_s']:.2f} + tag {fi['tag_s']:.2f} + "
              f"sqlite {fi['store_s']:.2f} + render {fi['render_s']:.2f}; {fi['terms']} terms; "
              f"{fi['counts']['papers']} papers, {fi['counts']['posts']} posts, {fi['counts']['entries']} entries, "
              f"{fi['counts']['anchors']} anchors, {fi['counts']['tags']} tags)")
        print(f"ratio kb / floor                     {ratio:7.2f}    (lower is better; target <= {TARGET_RATIO:g})"
              f"  {'OK' if ratio <= TARGET_RATIO else 'MISSED'}")
        cpu_ratio = median([r["cpu_s"] for r in firsts]) / median([r["cpu_s"] for r in floors])
        print(f"(info) same ratio on CPU time (user+sys of each process; robust to a busy machine) {cpu_ratio:.2f}")
        print(f"kb nightly, second run (no new input) median {kb_second:6.2f} s  of "
              f"{[round(r['seconds'], 2) for r in seconds]}  cpu {median([r['cpu_s'] for r in seconds]):.2f} s")
        print(f"speed-up first / second              {speedup:7.2f}x   (target >= {TARGET_SPEEDUP:g}x)"
              f"  {'OK' if speedup >= TARGET_SPEEDUP else 'MISSED'}")
        print(f"peak RSS kb (first run)              {max(r['rss_mb'] for r in firsts):7.0f} MB  "
              f"(second run {max(r['rss_mb'] for r in seconds):.0f} MB; floor {max(r['rss_mb'] for r in floors):.0f} MB)")
        if imports:
            print(f"(info) imports of a nightly process (-X importtime, a rerun): {imports['total']:.2f} s; "
                  "heaviest: " + ", ".join(f"{n} {t:.2f}" for n, t in imports["top"]))
        if libs["inner"]:
            li = libs["inner"]
            print(f"(info) the design card's libraries alone on this day: {libs['seconds']:.2f} s whole process "
                  f"(imports {li['import_s']:.2f}: typer, SQLModel and kb's tables, feedparser, markdown-it; feedparser on "
                  f"the feeds {li['feeds_s']:.2f}; markdown-it on the team's files and 2 renders of a {li['page_kb']} kB "
                  f"page {li['markdown_s']:.2f}); kb less that = {(kb_first - libs['seconds']) / floor:.2f} x the floor")
        names = [n for n in firsts[0]["stages"] if n != "stages"]
        if names:
            print("(info) kb wall time per stage, from its log (median s):   first   second")
            for n in names + ["stages"]:
                a = median([r["stages"].get(n, 0.0) for r in firsts])
                b = median([r["stages"].get(n, 0.0) for r in seconds])
                print(f"         {n if n != 'stages' else 'all stages':<40} {a:7.2f}  {b:7.2f}")
            a = median([r["seconds"] - r["stages"].get("stages", 0.0) for r in firsts])
            b = median([r["seconds"] - r["stages"].get("stages", 0.0) for r in seconds])
            print(f"         {'outside the stages (start, store, exit)':<40} {a:7.2f}  {b:7.2f}")

        missed = ratio > TARGET_RATIO or speedup < TARGET_SPEEDUP
        if args.profile or (missed and not args.no_profile):
            print()
            print("profiling kb nightly under cProfile (a fresh copy: first run, then the second run on it)")
            home = fresh_copy(template, tmp / "kb_profile")
            print("== first run ==")
            print(profile_run(home, args.date, tmp / "first.prof", src=kb_src))
            print("== second run ==")
            print(profile_run(home, args.date, tmp / "second.prof", src=kb_src))
            if args.keep:
                for name in ("first.prof", "second.prof"):
                    shutil.copy(tmp / name, Path(args.keep).with_name(f"{Path(args.keep).name}.{name}"))
                print(f"profiles kept next to {args.keep} (*.first.prof, *.second.prof)")

        print(json.dumps({"name": "nightly_first_run", "value": round(kb_first, 3), "unit": "s",
                          "floor": round(floor, 3), "ratio": round(ratio, 3)}))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
