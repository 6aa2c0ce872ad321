"""kb on a PostgreSQL store: query latency against typer + psycopg, the heavy nightly against SQLite,
and readers during a nightly.

    .venv/bin/python bench/pg.py query   [--store URL] [--n 100000] [--runs 15]   # = bench/query.py --store URL
    .venv/bin/python bench/pg.py nightly [--store URL] [--runs 3]
    .venv/bin/python bench/pg.py readers [--store URL] [--readers 8] [--pause 1.0]

``--store`` names a PostgreSQL server through a URL whose role may create databases: every run gets
a fresh database, dropped afterwards. Without it the bench starts a throwaway server on 127.0.0.1
(``tests/support/pg_server.py``: Debian's postgresql binaries, fsync off).

- **query**: the store of ``bench/query.py`` (100k papers, 5k anchors, 2k note entries), built on
  SQLite through kb's API and moved with ``kb db copy --to URL``; ``kb query anchored``, ``kb show``
  and ``kb search`` as whole processes (``KB_STORE_URL``) against a floor: ``python -c`` importing
  typer and psycopg, connecting as kb does (``jit=off``) and running kb's SQL. Target ≤ 2.
- **nightly**: the heavy day of ``bench/nightly.py``, its first run, on SQLite and on PostgreSQL,
  interleaved in the same session. Target: PostgreSQL ≤ 1.5 × SQLite.
- **readers**: the same night on PostgreSQL alone, then with ``--readers`` processes each running
  ``kb search`` / ``kb query anchored`` / ``kb flags`` in a loop (``--pause`` s between commands; they
  stop when the nightly has ended, or after 10 minutes), while one member resolves a flag and
  anchors a paper during the night. Targets: no reader error, the resolution and the anchor kept,
  the nightly within 1.3 × its time alone. The loaded night runs once per ``--reader-nice`` (default
  0, then 19). At nice 0 the readers take the nightly's cores: on a small machine that measures CPU
  contention. At nice 19 they get the CPU the nightly leaves, as readers on their own laptops would,
  and they still query the server throughout. That run measures what the target is about, a nightly
  waiting on readers through the store, and it is the figure.

Last line: one JSON ``{"name", "value", "unit", "floor", "ratio"}``.
"""
from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import cache_bytecode  # bench/installed.py

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _bench(name: str):
    """Another bench script as a module (its data generators and helpers)."""
    spec = importlib.util.spec_from_file_location(f"kb_bench_{name}", Path(__file__).with_name(f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@contextlib.contextmanager
def server(url: str | None):
    """The server named by ``url``, else a throwaway one for this bench."""
    from tests.support.pg_server import ExternalPostgres, PostgresServer
    with (ExternalPostgres(url) if url else PostgresServer()) as pg:
        yield pg


def _with_store(ws: Path, url: str) -> Path:
    cfg = ws / "kb.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8") + f'\n[store]\nurl = "{url}"\n', encoding="utf-8")
    return ws


# --------------------------------------------------------------------------- query
# The floors connect as kb does and run kb's SQL (kb/store/anchors.py, papers.py, pg_search.py).
_CONNECT = "import sys, json, psycopg, typer\nc = psycopg.connect(sys.argv[1], options='-c jit=off')\n"
FLOOR_ANCHORED = _CONNECT + r'''
rows = c.execute(
    "SELECT a.arxiv_id, a.url, a.topic, a.section, a.anchored_on, a.doc_version, a.first_seen, a.last_seen, "
    "a.ended_on, a.label, p.title FROM anchors a LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id "
    "WHERE 1 = 1 AND a.ended_on IS NULL").fetchall()
docs = c.execute("SELECT topic, version, sections FROM doc_versions d WHERE id = "
                 "(SELECT max(id) FROM doc_versions e WHERE e.topic = d.topic)").fetchall()
def key(s):
    return tuple(int(p.strip("()")) for p in s.split("."))
q = key(sys.argv[2])
hit = sorted(((r[2], key(r[3]), r[4] or "", r[0]) for r in rows if r[0] and key(r[3])[:len(q)] == q))
print("\n".join(dict.fromkeys(h[3] for h in hit)))
'''
FLOOR_SHOW = _CONNECT + r'''
a = sys.argv[2]
q = lambda sql, *p: c.execute(sql, p).fetchall()
paper = q("SELECT arxiv_id, title, abstract FROM papers WHERE arxiv_id = %s", a)
mentions = q("SELECT origin_kind, origin, entry, version, seen_on FROM mentions WHERE subject = %s "
             "ORDER BY seen_on NULLS FIRST, origin, entry", a)
anchors = q("SELECT topic, section, anchored_on, first_seen, last_seen, ended_on, label FROM anchors "
            "WHERE arxiv_id = %s ORDER BY topic, section", a)
versions = q("SELECT version, date FROM paper_versions WHERE arxiv_id = %s ORDER BY version", a)
sources = q("SELECT source, seen_on, kind, version, upvotes, url FROM sightings WHERE arxiv_id = %s "
            "ORDER BY seen_on, source, kind", a)
changes = q("SELECT version, field, source FROM paper_changes WHERE arxiv_id = %s ORDER BY id", a)
cards = q("SELECT path, title, created, hf_upvotes, primary_topic FROM cards WHERE arxiv_id = %s OR file_id = %s "
          "ORDER BY path", a, a)
tags = q("SELECT topic, score, terms FROM tags WHERE subject_kind = 'paper' AND subject = %s "
         "ORDER BY score DESC, topic", a)
rel = q("SELECT relevance FROM classifications WHERE subject_kind = 'paper' AND subject = %s", a)
flags = q("SELECT id, rule, status, subject FROM flags WHERE subject = %s OR evidence LIKE %s ORDER BY id",
          a, '%"' + a + '"%')
p = paper[0]
print("# " + a + " — " + p[1])
print(p[2])
for r in versions + sources + anchors + mentions:
    print("- " + " ".join(str(x) for x in tuple(r)))
'''
FLOOR_SEARCH = _CONNECT + r'''
sql = {search!r}.replace("?", "%s")
words = json.loads(sys.argv[2])
rows = c.execute(sql, (words, words, " & ".join(words), 20)).fetchall()
for kind, ref, score in rows:
    if kind == "paper":
        t = c.execute("SELECT title, abstract FROM papers WHERE arxiv_id = %s", (ref,)).fetchone()
    elif kind == "post":
        t = c.execute("SELECT title, summary FROM posts WHERE key = %s", (ref,)).fetchone()
    else:
        path, _, num = ref.rpartition("#")
        t = c.execute("SELECT heading, text FROM note_entries WHERE path = %s AND number = %s",
                      (path, int(num))).fetchone()
    print(kind, ref, t[0], t[1][:60], sep="  ")
'''


def bench_query(args: argparse.Namespace, tmp: Path) -> dict:
    from kb.store.fts import phrase_tsqueries
    from kb.store.pg_search import SEARCH
    q = _bench("query")
    runs = max(10, args.runs)
    ws = tmp / "ws"
    t0 = time.perf_counter()
    meta = q.build_workspace(ws, args.n, args.anchors, args.seed)
    print(f"SQLite store: {args.n:,} papers, {meta['anchors']:,} anchors; built in {time.perf_counter() - t0:.0f} s")
    with server(args.store) as pg:
        url = pg.create_database()
        try:
            kb = q._kb()
            t0 = time.perf_counter()
            copied = subprocess.run([kb, "--home", str(ws), "db", "copy", "--to", url], capture_output=True, text=True)
            if copied.returncode:
                raise SystemExit(copied.stderr)
            print(f"kb db copy --to PostgreSQL: {time.perf_counter() - t0:.0f} s")
            subprocess.run([kb, "--home", str(ws), "db", "status"], check=True, capture_output=True,
                           env={**os.environ, "KB_STORE_URL": url})
            os.environ["KB_STORE_URL"] = url          # the kb commands below read the PostgreSQL store
            py, home = sys.executable, ["--home", str(ws)]
            words = json.dumps(list(phrase_tsqueries("prefill decode")))
            commands = {
                "query anchored --section 2.3 --format ids": (
                    [kb, *home, "query", "anchored", "--section", "2.3", "--format", "ids"],
                    [py, "-c", FLOOR_ANCHORED, url, "2.3"]),
                f"show {meta['show_id']}": ([kb, *home, "show", meta["show_id"]],
                                            [py, "-c", FLOOR_SHOW, url, meta["show_id"]]),
                'search "prefill decode"': ([kb, *home, "search", "prefill decode"],
                                            [py, "-c", FLOOR_SEARCH.format(search=SEARCH), url, words]),
            }
            print(f"\n{'command (kb --home W …, PostgreSQL)':45s} {'kb ms':>8s} {'floor ms':>9s} {'ratio':>6s}  same")
            results = {}
            for label, (kb_cmd, floor_cmd) in commands.items():
                kb_t, fl_t, outs = [], [], None
                for i in range(runs + 2):
                    a, kb_out = q._run(kb_cmd)
                    b, fl_out = q._run(floor_cmd)
                    if i >= 2:
                        kb_t.append(a)
                        fl_t.append(b)
                    outs = (kb_out, fl_out)
                same = _same(label, *outs)
                r = {"kb": statistics.median(kb_t), "floor": statistics.median(fl_t)}
                r["ratio"] = r["kb"] / r["floor"]
                results[label] = r
                print(f"{label:45s} {r['kb'] * 1000:8.1f} {r['floor'] * 1000:9.1f} {r['ratio']:6.2f}  {same}")
            print(f"(medians of {runs} runs each, interleaved; target <= 2)")
        finally:
            os.environ.pop("KB_STORE_URL", None)
            pg.drop_database(url)
    label, worst = max(results.items(), key=lambda kv: kv[1]["ratio"])
    return {"name": f"pg_cli_latency_worst:{label.split()[0]}", "value": round(worst["kb"] * 1000, 1),
            "unit": "ms", "floor": round(worst["floor"] * 1000, 1), "ratio": round(worst["ratio"], 2)}


def _same(label: str, kb_out: str, floor_out: str) -> str:
    if label.startswith("query"):
        return "yes" if kb_out.split() == floor_out.split() else "NO"
    if label.startswith("search"):
        kb_refs = [ln.split()[1] for ln in kb_out.splitlines()[2:] if ln.strip()]
        fl_refs = [ln.split()[1] for ln in floor_out.splitlines() if ln.strip()]
        return f"{'yes' if kb_refs == fl_refs else 'NO'} ({len(kb_refs)} hits)"
    return "yes" if kb_out.splitlines()[0] == floor_out.splitlines()[0] else "NO"


# --------------------------------------------------------------------------- the heavy nightly
def _heavy_day(tmp: Path, args: argparse.Namespace):
    n = _bench("nightly")
    from datetime import date
    template = tmp / "template"
    template.mkdir()
    counts = n.generate(template, args.seed, date.fromisoformat(args.date),
                        {"arxiv": 2000, "hf": 50, "feeds": 20, "items": 20, "notes": 30, "anchors": 500,
                         "cards": 60, "queue": 30})
    return n, template, counts


def _night(n, template: Path, dest: Path, day: str, url: str | None = None) -> dict:
    ws = n.fresh_copy(template, dest)
    if url:
        _with_store(ws, url)
    r = n.run_process(n.nightly_cmd(ws, day), dest.with_suffix(".log"))
    if r["rc"] not in (0, 1):
        raise SystemExit(f"kb nightly failed ({r['rc']}):\n{r['output'][-2000:]}")
    return r


def bench_nightly(args: argparse.Namespace, tmp: Path) -> dict:
    n, template, counts = _heavy_day(tmp, args)
    print("heavy day:", ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    sqlite_t, pg_t = [], []
    with server(args.store) as pg:
        for i in range(args.runs):
            sqlite_t.append(_night(n, template, tmp / f"sqlite-{i}", args.date)["seconds"])
            url = pg.create_database()
            try:
                pg_t.append(_night(n, template, tmp / f"pg-{i}", args.date, url)["seconds"])
            finally:
                pg.drop_database(url)
            print(f"  run {i + 1}: SQLite {sqlite_t[-1]:.2f} s, PostgreSQL {pg_t[-1]:.2f} s")
    s, p = statistics.median(sqlite_t), statistics.median(pg_t)
    print(f"kb nightly, first run: SQLite {s:.2f} s, PostgreSQL {p:.2f} s: {p / s:.2f} x (target <= 1.5)")
    return {"name": "pg_nightly_first_run", "value": round(p, 2), "unit": "s", "floor": round(s, 2),
            "ratio": round(p / s, 2)}


# --------------------------------------------------------------------------- readers during the nightly
READER = r"""
import subprocess, sys, time
kb, home, stop, pause = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
import pathlib

COMMANDS = [["search", "推理"], ["query", "anchored", "--format", "ids"], ["flags", "--format", "json"],
            ["search", "prefill decode"]]
runs, errors, deadline = 0, [], time.monotonic() + 600
while not pathlib.Path(stop).exists() and time.monotonic() < deadline:
    args = COMMANDS[runs % len(COMMANDS)]
    r = subprocess.run([kb, "--home", home, *args], capture_output=True, text=True)
    if r.returncode:
        errors.append(f"{' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:200]}")
    runs += 1
    time.sleep(pause)
print(runs, len(errors), *errors[:3], sep="\n")
"""


def _member(kb: str, ws: Path, paper: str, night_over) -> dict:
    """A member's hand edits during the night: resolve flag 1 once it exists, anchor ``paper``
    (tried until both are done or the night is over)."""
    done: dict = {}
    while not night_over.is_set() and len(done) < 2:
        if "resolve" not in done:
            r = subprocess.run([kb, "--home", str(ws), "flags", "resolve", "1", "--as", "dismissed", "--note",
                                "checked during the night"], capture_output=True, text=True)
            if r.returncode == 0:
                done["resolve"] = time.monotonic()
        if "anchor" not in done:
            r = subprocess.run([kb, "--home", str(ws), "anchor", paper, "--section", "2.3"], capture_output=True,
                               text=True)
            if r.returncode == 0:
                done["anchor"] = time.monotonic()
        time.sleep(0.2)
    return done


def bench_readers(args: argparse.Namespace, tmp: Path) -> dict:
    n, template, counts = _heavy_day(tmp, args)
    kb = n._kb()
    with server(args.store) as pg:
        alone, alone_cpu = [], []
        for i in range(args.runs):
            url = pg.create_database()
            try:
                r = _night(n, template, tmp / f"alone-{i}", args.date, url)
                alone.append(r["seconds"])
                alone_cpu.append(r["cpu_s"])
            finally:
                pg.drop_database(url)
        base, base_cpu = statistics.median(alone), statistics.median(alone_cpu)
        print(f"nightly on PostgreSQL alone: {base:.2f} s (median of {len(alone)}), CPU {base_cpu:.2f} s; "
              f"{os.cpu_count()} CPUs for the nightly, {args.readers} readers and the server")
        ratios = {}
        for nice in args.reader_nice:
            night = _loaded_night(n, template, tmp / f"loaded-{nice}", args, kb, pg, nice, base, base_cpu)
            ratios[nice] = night["seconds"] / base
    figure = args.reader_nice[-1]
    return {"name": "pg_nightly_with_readers", "value": round(ratios[figure] * base, 2), "unit": "s",
            "floor": round(base, 2), "ratio": round(ratios[figure], 2)}


def _loaded_night(n, template: Path, dest: Path, args: argparse.Namespace, kb: str, pg, nice: int,
                  base: float, base_cpu: float) -> dict:
    """The night with ``args.readers`` reader loops (at ``nice``) and a member's hand edits; prints its figures."""
    import threading
    dest.mkdir()
    url = pg.create_database()
    try:
        ws = _with_store(n.fresh_copy(template, dest / "ws"), url)
        subprocess.run([kb, "--home", str(ws), "db", "status"], check=True, capture_output=True)
        stop = dest / "stop"
        script = dest / "reader.py"
        script.write_text(READER, encoding="utf-8")
        readers = [subprocess.Popen([sys.executable, str(script), kb, str(ws), str(stop), str(args.pause)],
                                    stdout=subprocess.PIPE, text=True, preexec_fn=lambda: os.nice(nice))
                   for _ in range(args.readers)]
        time.sleep(1.0)                                # the readers are running before the night starts
        member: dict = {}
        paper = "2609.00001"                           # an ID the heavy day does not anchor
        night_over = threading.Event()
        hands = threading.Thread(target=lambda: member.update(_member(kb, ws, paper, night_over)))
        hands.start()
        night = n.run_process(n.nightly_cmd(ws, args.date), dest / "night.log")
        night_over.set()
        hands.join()
        stop.touch()
        reports = [r.communicate(timeout=120)[0].splitlines() for r in readers]
        flags = {f["id"]: f for f in json.loads(subprocess.run(
            [kb, "--home", str(ws), "flags", "--format", "json"], capture_output=True, text=True).stdout)}
        anchored = subprocess.run([kb, "--home", str(ws), "query", "anchored", "--format", "ids"],
                                  capture_output=True, text=True).stdout.split()
    finally:
        pg.drop_database(url)
    reads, errors = sum(int(r[0]) for r in reports), sum(int(r[1]) for r in reports)
    target = "(target <= 1.3)" if nice == args.reader_nice[-1] else "(info)"
    print(f"with {args.readers} readers at nice {nice} ({reads} reads, pause {args.pause} s): "
          f"{night['seconds']:.2f} s = {night['seconds'] / base:.2f} x {target}; exit {night['rc']}")
    # The nightly's own CPU seconds, loaded and alone: equal CPU with longer wall time means it waited for
    # a core (the readers' processes), not for a lock.
    print(f"  the nightly's own CPU time: {night['cpu_s']:.2f} s ({night['cpu_s'] / base_cpu:.2f} x alone)")
    print(f"  reader errors: {errors}" + "".join(f"\n    {e}" for r in reports for e in r[2:]))
    def verdict(tried: bool, kept: bool) -> str:
        return "not tried (the night ended first)" if not tried else "yes" if kept else "NO, LOST"
    print(f"  flag 1 resolved during the night and kept: "
          f"{verdict('resolve' in member, flags.get(1, {}).get('status') == 'dismissed')}; {paper} anchored during "
          f"the night and kept: {verdict('anchor' in member, paper in anchored)}")
    return night


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("query", "nightly", "readers"))
    ap.add_argument("--store", help="postgresql://… of a server whose role may create databases "
                                    "(default: a throwaway server on 127.0.0.1)")
    ap.add_argument("--n", type=int, default=100_000, help="query: papers in the store")
    ap.add_argument("--anchors", type=int, default=5_000, help="query: anchors in the knowledge doc")
    ap.add_argument("--runs", type=int, default=None, help="timed runs (query 15, nightly 3, readers 2 alone)")
    ap.add_argument("--readers", type=int, default=8)
    ap.add_argument("--pause", type=float, default=1.0, help="readers: seconds between a reader's commands")
    ap.add_argument("--reader-nice", type=lambda v: [int(x) for x in v.split(",")], default=[0, 19],
                    help="readers: their niceness, one loaded night each (the last is the figure)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--date", default="2026-10-08")
    args = ap.parse_args(argv)
    args.runs = args.runs or {"query": 15, "nightly": 3, "readers": 2}[args.mode]
    tmp = Path(tempfile.mkdtemp(prefix=f"kb-bench-pg-{args.mode}-"))
    try:
        print(cache_bytecode())
        result = {"query": bench_query, "nightly": bench_nightly, "readers": bench_readers}[args.mode](args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
