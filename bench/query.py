"""Query latency of kb's CLI, as whole processes, against the floor: typer + sqlite3 + the same SQL.

    .venv/bin/python bench/query.py [--n 100000] [--anchors 5000] [--runs 15] [--seed 7] [--keep DIR]

``--keep DIR`` builds the workspace in DIR and leaves it there; a later run with the same
DIR reuses it (whatever --n says) instead of rebuilding (about 30 s for 100,000 papers).

Builds, through kb's own store API, a workspace (``kb.workspace.init_workspace``) whose
store holds N papers (``kb.store.papers.upsert_papers`` in batches of 5,000, each in
``store.transaction()``, with one sighting each), 500 inbox notes of 4 entries in
Chinese and English (``save_note``; their arXiv IDs become mentions) and the
knowledge doc of topic "inference" with 5,000 anchors spread over §1 … §4, §2.3 and
§2.3.1 included (``kb.store.files.save_knowledge_doc`` with a synthetic
``KnowledgeDoc``). Papers are the same synthetic arXiv records as bench/ingest.py.

Then times, as whole processes (median of ``--runs`` runs each, after two warm-ups,
kb and floor interleaved):

* ``kb --home W query anchored --section 2.3 --format ids``
* ``kb --home W show <id>``
* ``kb --home W search "prefill decode"``

and, for each, the floor: ``python -c`` a script that imports typer and sqlite3 and runs
the same SQL as kb.store (anchors, papers, search) on the same file, printing the same thing.
Prints each median, its floor, the ratio kb ÷ floor (lower is better; target ≤ 2) and
whether kb and the floor printed the same IDs.

Also reports:

* for information, a third timing per command: a minimal Typer app with kb's option
  shapes (global ``--home``, sub-apps, Enum ``--format``) running the floor's SQL, which
  separates what Typer itself costs from what kb adds;
* where one kb run spends its time (cProfile of one in-process run: imports, Typer's
  command tree, opening workspace and store, the query, the output);
* ``python -X importtime`` of each kb command: the 10 biggest cumulative imports and
  which heavy packages get imported at all;
* the FTS5 index: kb's (unicode61 over CJK bigrams) against a trigram-tokenizer table
  of the same (unsegmented) text built in a copy of the store — size (dbstat) and build
  time — and a contentless variant of kb's index;
* hits for ``推理``: kb's search vs ``LIKE '%推理%'`` over the same text, and the
  trigram table's MATCH (which needs at least three characters).

Last line: one JSON ``{"name", "value", "unit", "floor", "ratio"}`` for the worst
command. Not part of the test suite.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import cache_bytecode  # bench/installed.py

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_RATIO = 2.0
DAY = "2026-10-08"
TOPIC = "inference"
SECTIONS = [  # number, title, level, parent, share of the anchors
    ("1", "背景 Background", 2, None, 3), ("1.1", "Workloads", 3, "1", 4), ("1.(9)", "安全 Security", 3, "1", 2),
    ("2", "Serving systems", 2, None, 3), ("2.1", "Batching", 3, "2", 8), ("2.2", "Scheduling", 3, "2", 8),
    ("2.3", "PD 分离 Prefill/decode disaggregation", 3, "2", 12),
    ("2.3.1", "KV 传输 KV transfer", 4, "2.3", 9), ("2.3.2", "Routing", 4, "2.3", 5),
    ("2.4", "KV cache", 3, "2", 10), ("2.30", "Misc (not inside §2.3)", 3, "2", 2),
    ("3", "Kernels", 2, None, 3), ("3.1", "Attention kernels", 3, "3", 9), ("3.2", "Quantization", 3, "3", 8),
    ("4", "Speculative decoding", 2, None, 4), ("4.1", "Draft models", 3, "4", 6),
]
ZH_ENTRIES = [
    "{sys} 上开启 {m}，TTFT 降低约 {n}%，大模型推理线上默认开启",
    "PD 分离部署：prefill 节点和 decode 节点分开，KV 传输走 RDMA，推理框架 {sys} 已支持",
    "推理服务的调度策略：按 SLO 分级排队，{m} 对长上下文帮助明显",
    "本周主要工作是训练数据清洗和强化学习奖励设计，与推理无关",
    "{sys} 的推测解码实现：草稿模型 + 树形验证，吞吐提升 {n}%",
    "量化方案对比：AWQ、GPTQ、FP8，显存占用下降，精度损失小于 {n}%",
]
EN_ENTRIES = [
    "{sys} adds {m}; prefill and decode now run on separate pools with {n}% better goodput",
    "Reading notes on {m}: the decode phase is memory-bound, prefill is compute-bound",
    "Benchmark of {sys} on H100: p99 TTFT down {n}% with chunked prefill",
    "Agent tool-use survey, not about serving",
]
SYSTEMS = ["vLLM", "SGLang", "TensorRT-LLM", "Dynamo", "LMDeploy", "llm-d", "Mooncake"]
METHODS = ["chunked prefill", "prefix caching", "speculative decoding", "FP8 KV cache", "RadixAttention",
           "continuous batching", "expert parallelism"]


def _day(d: tuple[int, int, int]) -> str:
    return f"{d[0]:04d}-{d[1]:02d}-{d[2]:02d}"


def _load_ingest_bench():
    spec = importlib.util.spec_from_file_location("kb_bench_ingest", Path(__file__).with_name("ingest.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --------------------------------------------------------------------------- building the store
def build_workspace(ws: Path, n: int, n_anchors: int, seed: int) -> dict:
    from kb.records import AnchorRef, KnowledgeDoc, Note, NoteEntry, PaperRecord, Point, Section, Sighting  # noqa: I001
    from kb.store import Store
    from kb.store.anchors import save_knowledge_doc
    from kb.store.notes import save_note
    from kb.store.papers import add_sightings, save_papers
    from kb.workspace import init_workspace

    gen = _load_ingest_bench().Generator(seed)
    rnd = random.Random(seed + 1)
    init_workspace(ws)
    store = Store.open(ws / ".kb" / "kb.sqlite")
    ids: list[str] = []
    t0 = time.perf_counter()
    batch: list[PaperRecord] = []

    def flush() -> None:
        with store.transaction() as conn:
            save_papers(conn, batch, "arxiv")
            add_sightings(conn, [Sighting(p.arxiv_id, "arxiv", p.updated, "new", p.version) for p in batch])
        batch.clear()

    for i in range(n):
        r = gen.record(i)
        v, last = r["versions"][-1]
        batch.append(PaperRecord(
            arxiv_id=r["id"], version=v, title=r["title"], authors=[f"{f} {l}" for f, l, _ in r["authors"]],
            abstract=r["abstract"], categories=r["categories"], primary_category=r["categories"][0],
            published=_day(r["versions"][0][1]), updated=_day(last),
            doi=r["doi"], journal_ref=r["journal_ref"], comment=r["comment"],
            versions=[(k, _day(d)) for k, d in r["versions"]]))
        ids.append(r["id"])
        if len(batch) >= 5000:
            flush()
    if batch:
        flush()
    papers_s = time.perf_counter() - t0

    # The paper `kb show` looks at: anchored in §2.3, mentioned in notes, seen by a source.
    show_id = ids[len(ids) // 3]

    t0 = time.perf_counter()
    with store.transaction() as conn:
        for k in range(500):
            author = ("jay", "mei", "tom", "lin")[k % 4]
            stamp = f"2026-{1 + k % 9:02d}-{1 + k % 28:02d}T{k % 24:02d}:00"
            entries = []
            for e in range(1, 5):
                f = {"sys": rnd.choice(SYSTEMS), "m": rnd.choice(METHODS), "n": rnd.randint(5, 60)}
                text = (rnd.choice(ZH_ENTRIES) if rnd.random() < 0.6 else rnd.choice(EN_ENTRIES)).format(**f)
                cited = [rnd.choice(ids)] + ([show_id] if (k * 4 + e) % 97 == 0 else [])
                text += " — arXiv:" + ", ".join(cited)
                entries.append(NoteEntry(number=e, heading=text[:24], text=text, points=[Point.load(text)],
                                         arxiv_ids=cited))
            save_note(conn, Note(path=f"inbox/{author}/{stamp[:10]}-{k:03d}.md", author=author, timestamp=stamp,
                                 title=f"note {k}", entries=entries))
    notes_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    weights = [s[4] for s in SECTIONS]
    sections = {num: Section(number=num, title=title, level=lvl, line=10 * j + 1, end_line=10 * j + 9, parent=par)
                for j, (num, title, lvl, par, _) in enumerate(SECTIONS)}
    chosen = rnd.sample(ids, n_anchors)
    for j, aid in enumerate(chosen):
        num = rnd.choices(SECTIONS, weights)[0][0]
        if j % 25 == 0:  # a few URLs (blog posts, repos) anchored too
            ref = AnchorRef(url=f"https://blog.example.org/post-{j}", label=f"post {j}", line=j + 1)
        else:
            dated = rnd.random() < 0.8
            ref = AnchorRef(arxiv_id=aid, label=f"{aid} note", line=j + 1,
                            anchored_on=f"2026-{1 + j % 9:02d}-{1 + j % 28:02d}" if dated else None)
        sections[num].anchors.append(ref)
    sections["2.3"].anchors.append(AnchorRef(arxiv_id=show_id, label="the paper kb show looks at",
                                             anchored_on="2026-09-30"))
    doc = KnowledgeDoc(path=f"organized/knowledge/{TOPIC}.md", topic=TOPIC, version="v310",
                       version_date="2026-10-01", cited_count=n_anchors, sections=list(sections.values()))
    with store.transaction() as conn:
        counts = save_knowledge_doc(conn, doc, content_hash="bench-v310", day=DAY)
    anchors_s = time.perf_counter() - t0
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    return {"show_id": show_id, "papers_s": papers_s, "notes_s": notes_s, "anchors_s": anchors_s,
            "anchors": counts["anchors"], "db_mb": (ws / ".kb" / "kb.sqlite").stat().st_size / 1e6}


# --------------------------------------------------------------------------- floors
# Each floor imports typer and sqlite3, runs kb's SQL for the command on the same file
# and prints the same IDs; argv: DB, then the command's argument.
FLOOR_ANCHORED = r'''
import sys, json, sqlite3, typer
c = sqlite3.connect(sys.argv[1])
c.row_factory = sqlite3.Row
rows = c.execute(
    "SELECT a.arxiv_id, a.url, a.topic, a.section, a.anchored_on, a.doc_version, a.first_seen, a.last_seen, "
    "a.ended_on, a.label, p.title FROM anchors a LEFT JOIN papers p ON p.arxiv_id = a.arxiv_id "
    "WHERE 1 = 1 AND a.ended_on IS NULL").fetchall()
docs = c.execute("SELECT topic, version, sections FROM doc_versions d WHERE id = "
                 "(SELECT max(id) FROM doc_versions e WHERE e.topic = d.topic)").fetchall()
def key(s):
    return tuple(int(p.strip("()")) for p in s.split("."))
q = key(sys.argv[2])
hit = sorted(((r["topic"], key(r["section"]), r["anchored_on"] or "", r["arxiv_id"]) for r in rows
              if r["arxiv_id"] and key(r["section"])[:len(q)] == q))
print("\n".join(dict.fromkeys(h[3] for h in hit)))
'''

FLOOR_SHOW = r'''
import sys, sqlite3, typer
c = sqlite3.connect(sys.argv[1])
c.row_factory = sqlite3.Row
a = sys.argv[2]
q = lambda sql, *p: c.execute(sql, p).fetchall()
paper = q("SELECT * FROM papers WHERE arxiv_id = ?", a)
mentions = q("SELECT origin_kind, origin, entry, version, seen_on FROM mentions WHERE subject = ? "
             "ORDER BY seen_on, origin, entry", a)
anchors = q("SELECT topic, section, anchored_on, first_seen, last_seen, ended_on, label FROM anchors "
            "WHERE arxiv_id = ? ORDER BY topic, section", a)
versions = q("SELECT version, date FROM paper_versions WHERE arxiv_id = ? ORDER BY version", a)
sources = q("SELECT source, seen_on, kind, version, upvotes, url FROM sightings WHERE arxiv_id = ? "
            "ORDER BY seen_on, source, kind", a)
changes = q("SELECT version, field, source FROM paper_changes WHERE arxiv_id = ? ORDER BY id", a)
cards = q("SELECT path, title, created, hf_upvotes, primary_topic FROM cards WHERE arxiv_id = ? OR file_id = ? "
          "ORDER BY path", a, a)
tags = q("SELECT topic, score, terms FROM tags WHERE subject_kind = 'paper' AND subject = ? "
         "ORDER BY score DESC, topic", a)
rel = q("SELECT relevance FROM classifications WHERE subject_kind = 'paper' AND subject = ?", a)
flags = q("SELECT id, rule, status, subject FROM flags WHERE subject = ? OR evidence LIKE ? ORDER BY id",
          a, '%"' + a + '"%')
p = paper[0]
print("# " + a + " — " + p["title"])
print(p["abstract"])
for r in versions + sources + anchors + mentions:
    print("- " + " ".join(str(x) for x in tuple(r)))
'''

FLOOR_SEARCH = r'''
import sys, sqlite3, typer
c = sqlite3.connect(sys.argv[1])
match = " AND ".join('"' + w + '"' for w in sys.argv[2].split())
rows = c.execute("SELECT kind, ref, bm25(search_index) AS rank FROM search_index WHERE search_index MATCH ? "
                 "ORDER BY rank, ref LIMIT ?", (match, 20)).fetchall()
for kind, ref, rank in rows:
    if kind == "paper":
        t = c.execute("SELECT title, abstract FROM papers WHERE arxiv_id = ?", (ref,)).fetchone()
    elif kind == "post":
        t = c.execute("SELECT title, summary FROM posts WHERE key = ?", (ref,)).fetchone()
    else:
        path, _, num = ref.rpartition("#")
        t = c.execute("SELECT heading, text FROM note_entries WHERE path = ? AND number = ?",
                      (path, int(num))).fetchone()
    print(kind, ref, t[0], t[1][:60], sep="  ")
'''


# Information only: a minimal Typer app shaped like kb's (global --home Path option,
# sub-apps, Enum --format) that runs the floor SQL above. Typer coerces every parameter
# through pydantic at run time, so this separates Typer's own cost from kb's.
TYPER_APP = r"""
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional
import typer

FLOORS = {floors!r}
app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)
query_app = typer.Typer(no_args_is_help=True)
app.add_typer(query_app, name="query")
state = {{}}

class Fmt(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    ids = "ids"

def run(name, arg):
    sys.argv = ["floor", str(state["home"] / ".kb" / "kb.sqlite"), arg]
    exec(FLOORS[name], {{"__name__": "__main__"}})

@app.callback()
def main(home: Annotated[Optional[Path], typer.Option("--home")] = None,
         verbose: Annotated[bool, typer.Option("--verbose", "-v")] = False,
         quiet: Annotated[bool, typer.Option("--quiet", "-q")] = False) -> None:
    state["home"] = home

@query_app.command("anchored")
def anchored(topic: Annotated[Optional[str], typer.Option("--topic")] = None,
             section: Annotated[Optional[str], typer.Option("--section")] = None,
             since: Annotated[Optional[str], typer.Option("--since")] = None,
             until: Annotated[Optional[str], typer.Option("--until")] = None,
             fmt: Annotated[Fmt, typer.Option("--format")] = Fmt.table) -> None:
    run("anchored", section)

@app.command("show")
def show(ident: Annotated[str, typer.Argument(metavar="ID")],
         fmt: Annotated[Fmt, typer.Option("--format")] = Fmt.table) -> None:
    run("show", ident)

@app.command("search")
def search(text: Annotated[str, typer.Argument()], limit: Annotated[int, typer.Option("--limit")] = 20,
           fmt: Annotated[Fmt, typer.Option("--format")] = Fmt.table) -> None:
    run("search", text)

app()
"""

# One in-process run of a kb command under cProfile: cumulative time of its phases.
PHASES = [("kb.cli.main()", "kb/cli.py", "main"),
          ("imports (all, nested)", "<frozen importlib._bootstrap>", "_find_and_load"),
          ("typer: pydantic TypeAdapters", "typer/_adapters.py", "try_build_adapter"),
          ("typer: click command tree", "typer/main.py", "get_command"),
          ("kb: open_workspace (kb.toml)", "kb/workspace.py", "open_workspace"),
          ("kb: Store.open", "kb/store/db.py", "open"), ("kb: migrate check", "kb/store/migrations.py", "migrate"),
          ("kb: query_anchored", "kb/store/anchors.py", "query_anchored"),
          ("kb: get_paper", "kb/store/papers.py", "get_paper"), ("kb: search", "kb/store/search.py", "search"),
          ("kb: format output", "kb/cli/output.py", "format_rows"), ("kb: format_paper_md", "kb/cli/output.py",
                                                                 "format_paper_md")]
PROFILE_SNIPPET = r"""
import cProfile, json, pstats, sys
phases = json.loads(sys.argv[1]); sys.argv = ["kb", *sys.argv[2:]]
import time

t0 = time.perf_counter()
pr = cProfile.Profile(); pr.enable()
try:
    from kb.cli import main
    main()
except SystemExit:
    pass
pr.disable()
out = {"whole run": (time.perf_counter() - t0) * 1000}
for (file, line, func), (cc, nc, tt, ct, callers) in pstats.Stats(pr).stats.items():
    for label, f, fn in phases:
        if func == fn and file.endswith(f):
            out[label] = max(out.get(label, 0), ct * 1000)
print("@@" + json.dumps(out))
"""


def phase_profile(cmd_args: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", PROFILE_SNIPPET, json.dumps(PHASES), *cmd_args],
                          check=False, capture_output=True, text=True, cwd=ROOT)
    line = next(ln for ln in proc.stdout.splitlines()[::-1] if ln.startswith("@@"))
    return json.loads(line[2:])


# --------------------------------------------------------------------------- timing
def _kb() -> str:
    return str(Path(sys.executable).with_name("kb"))


def _run(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, check=False, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return dt, proc.stdout


def time_pair(kb_cmd: list[str], floor_cmd: list[str], typer_cmd: list[str], runs: int) -> dict:
    for _ in range(2):
        _, kb_out = _run(kb_cmd)
        _, fl_out = _run(floor_cmd)
        _, ty_out = _run(typer_cmd)
    kb_t, fl_t, ty_t = [], [], []
    for _ in range(runs):
        kb_t.append(_run(kb_cmd)[0])
        fl_t.append(_run(floor_cmd)[0])
        ty_t.append(_run(typer_cmd)[0])
    return {"kb": statistics.median(kb_t), "floor": statistics.median(fl_t), "typer": statistics.median(ty_t),
            "kb_min": min(kb_t), "floor_min": min(fl_t), "kb_out": kb_out, "floor_out": fl_out,
            "typer_same": ty_out == fl_out}


def importtime(cmd: list[str], repeat: int = 3) -> dict:
    """Per module, the smallest cumulative import time (µs) seen over ``repeat`` runs of ``cmd``."""
    best: dict[str, tuple[int, int, int]] = {}  # name -> (cumulative, self, depth)
    totals = []
    for _ in range(repeat):
        proc = subprocess.run([sys.executable, "-X", "importtime", *cmd], check=False, capture_output=True,
                              text=True)
        total = 0
        for line in proc.stderr.splitlines():
            if not line.startswith("import time:") or "imported package" in line:
                continue
            _, self_us, cum_us, name = (x for x in [line[:12]] + line[12:].split("|"))
            depth = (len(name) - len(name.lstrip(" ")) - 1) // 2
            name = name.strip()
            s, c = int(self_us), int(cum_us)
            total += s
            if name not in best or c < best[name][0]:
                best[name] = (c, s, depth)
        totals.append(total)
    return {"modules": best, "total_us": min(totals)}


HEAVY = ["sqlalchemy", "sqlmodel", "pydantic", "pipeline", "requests", "urllib3", "feedparser", "jinja2",
         "markdown_it", "yaml", "arxiv", "defusedxml", "rich", "click", "typer", "zoneinfo", "tomllib", "email",
         "http", "json", "csv", "unicodedata", "dataclasses", "logging"]


def print_importtime(label: str, it: dict, floor_total_us: int) -> None:
    mods = it["modules"]
    print(f"  {label}: {len(mods)} modules, {it['total_us'] / 1000:.0f} ms of imports "
          f"(floor `import typer, sqlite3`: {floor_total_us / 1000:.0f} ms)")
    top = sorted(mods.items(), key=lambda kv: -kv[1][0])[:10]
    for name, (cum, self_us, depth) in top:
        print(f"    {cum / 1000:7.1f} ms cumulative  {self_us / 1000:6.1f} ms self  {'  ' * depth}{name}")
    tops = sorted(((n, v) for n, v in mods.items() if v[2] == 0), key=lambda kv: -kv[1][0])[:8]
    print("    top-level: " + ", ".join(f"{n} {v[0] / 1000:.0f} ms" for n, v in tops))
    present = [h for h in HEAVY if h in mods or any(m.startswith(h + ".") for m in mods)]
    print("    packages imported: " + ", ".join(present))


# --------------------------------------------------------------------------- FTS5 comparisons
def _dbstat(conn: sqlite3.Connection, prefix: str) -> dict[str, int]:
    rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat WHERE name = ?1 OR substr(name, 1, length(?1) + 1) = "
                        "?1 || '_' GROUP BY name", (prefix,)).fetchall()
    return {name: size for name, size in rows}


def fts_compare(db: Path, tmp: Path) -> dict:
    from kb.store import Store
    from kb.store.fts import segment, to_match_query
    from kb.store.search import search

    copy = tmp / "fts_copy.sqlite"
    src = sqlite3.connect(db)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    conn = dst
    conn.isolation_level = None
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    out: dict = {}
    # Original (unsegmented) text of every indexed document, as kb would index it.
    docs = [("paper", ref, t, a + " " + " ".join(json.loads(au)))
            for ref, t, a, au in conn.execute("SELECT arxiv_id, title, abstract, authors FROM papers ORDER BY rowid")]
    docs += [("entry", f"{p}#{n}", h, t) for p, n, h, t in
             conn.execute("SELECT path, number, heading, text FROM note_entries ORDER BY id")]
    docs += [("post", k, t, b) for k, t, b in conn.execute("SELECT key, title, summary || ' ' || content FROM posts")]
    out["docs"] = len(docs)
    out["text_mb"] = sum(len(t.encode()) + len(b.encode()) for _, _, t, b in docs) / 1e6

    kb_parts = _dbstat(conn, "search_index")
    out["kb_bytes"] = sum(kb_parts.values())
    out["kb_parts"] = kb_parts
    size0 = copy.stat().st_size

    variants = {
        "kb_rebuilt": ("unicode61 remove_diacritics 2", "", True),
        "trigram": ("trigram", "", False),
        "kb_contentless": ("unicode61 remove_diacritics 2", ", content=''", True),
    }
    for name, (tok, opts, seg) in variants.items():
        table = "bench_" + name
        conn.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(kind UNINDEXED, ref UNINDEXED, title, body, "
                     f"tokenize = '{tok}'{opts})")
        t0 = time.perf_counter()
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO {table} (rowid, kind, ref, title, body) VALUES (?, ?, ?, ?, ?)",
                         ((i, k, r, segment(t) if seg else t, segment(b) if seg else b)
                          for i, (k, r, t, b) in enumerate(docs, 1)))
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        out[name + "_s"] = time.perf_counter() - t0
        out[name + "_bytes"] = sum(_dbstat(conn, table).values())
    out["file_before_mb"] = size0 / 1e6
    out["file_after_mb"] = copy.stat().st_size / 1e6

    # Hits for 推理 (and a longer word) in each.
    words = {"推理": "推理", "推理框架": "推理框架", "prefill decode": "prefill decode"}
    like_sql = ("SELECT (SELECT count(*) FROM papers WHERE title LIKE ?1 OR abstract LIKE ?1 OR authors LIKE ?1) + "
                "(SELECT count(*) FROM note_entries WHERE heading LIKE ?1 OR text LIKE ?1) + "
                "(SELECT count(*) FROM posts WHERE title LIKE ?1 OR summary LIKE ?1 OR content LIKE ?1)")
    store = Store.open(db, create=False)
    hits = {}
    for label, w in words.items():
        row: dict = {}
        t0 = time.perf_counter()
        row["kb_search"] = len(search(store, w, limit=10 ** 9))
        row["kb_search_ms"] = (time.perf_counter() - t0) * 1000
        m = to_match_query(w)
        t0 = time.perf_counter()
        row["kb_match"] = conn.execute("SELECT count(*) FROM search_index WHERE search_index MATCH ?",
                                       (m,)).fetchone()[0]
        row["kb_match_ms"] = (time.perf_counter() - t0) * 1000
        if " " not in w:
            t0 = time.perf_counter()
            row["like"] = conn.execute(like_sql, (f"%{w}%",)).fetchone()[0]
            row["like_ms"] = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            row["trigram_match"] = conn.execute("SELECT count(*) FROM bench_trigram WHERE bench_trigram MATCH ?",
                                                ('"' + w + '"',)).fetchone()[0]
            row["trigram_match_ms"] = (time.perf_counter() - t0) * 1000
            t0 = time.perf_counter()
            row["trigram_like"] = conn.execute("SELECT count(*) FROM bench_trigram WHERE title LIKE ?1 OR body LIKE ?1",
                                               (f"%{w}%",)).fetchone()[0]
            row["trigram_like_ms"] = (time.perf_counter() - t0) * 1000
        else:
            t0 = time.perf_counter()
            row["trigram_match"] = conn.execute("SELECT count(*) FROM bench_trigram WHERE bench_trigram MATCH ?",
                                                (m,)).fetchone()[0]
            row["trigram_match_ms"] = (time.perf_counter() - t0) * 1000
        hits[label] = row
    store.close()
    conn.close()
    out["hits"] = hits
    return out


# --------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="papers in the store (default 100000)")
    ap.add_argument("--anchors", type=int, default=5_000, help="anchors in the knowledge doc (default 5000)")
    ap.add_argument("--runs", type=int, default=15, help="timed runs per command (default 15, at least 10)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--keep", metavar="DIR", help="build the workspace in DIR and keep it (reused if present)")
    ap.add_argument("--store", metavar="URL", help="the same commands on a PostgreSQL store: a postgresql:// URL whose "
                    "role may create databases, or 'pg' for a throwaway server (bench/pg.py query)")
    args = ap.parse_args(argv)
    if args.store:
        spec = importlib.util.spec_from_file_location("kb_bench_pg", Path(__file__).with_name("pg.py"))
        pg = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(pg)
        return pg.main(["query", "--n", str(args.n), "--anchors", str(args.anchors), "--runs", str(args.runs),
                        "--seed", str(args.seed)] + ([] if args.store == "pg" else ["--store", args.store]))
    runs = max(10, args.runs)

    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-query-"))
    try:
        print(cache_bytecode())
        ws = Path(args.keep) if args.keep else tmp / "ws"
        meta_file = ws / ".kb" / "bench.json"
        if args.keep and meta_file.exists():
            meta = json.loads(meta_file.read_text())
            print(f"reusing {ws}")
        else:
            t0 = time.perf_counter()
            meta = build_workspace(ws, args.n, args.anchors, args.seed)
            meta["build_s"] = time.perf_counter() - t0
            meta_file.write_text(json.dumps(meta))
        db = ws / ".kb" / "kb.sqlite"
        print(f"store: {args.n:,} papers, {meta['anchors']:,} anchors, 2,000 note entries; {meta['db_mb']:.0f} MB; "
              f"built in {meta.get('build_s', 0):.0f} s (papers {meta['papers_s']:.0f} s through upsert_papers)")

        kb, py = _kb(), sys.executable
        typer_app = tmp / "typer_floor_app.py"
        typer_app.write_text(TYPER_APP.format(floors={"anchored": FLOOR_ANCHORED, "show": FLOOR_SHOW,
                                                      "search": FLOOR_SEARCH}))
        ty = [py, str(typer_app), "--home", str(ws)]
        typer_cmds = {
            "query": ty + ["query", "anchored", "--section", "2.3", "--format", "ids"],
            "show": ty + ["show", meta["show_id"]],
            "search": ty + ["search", "prefill decode"],
        }
        commands = {
            "query anchored --section 2.3 --format ids": (
                [kb, "--home", str(ws), "query", "anchored", "--section", "2.3", "--format", "ids"],
                [py, "-c", FLOOR_ANCHORED, str(db), "2.3"]),
            f"show {meta['show_id']}": (
                [kb, "--home", str(ws), "show", meta["show_id"]],
                [py, "-c", FLOOR_SHOW, str(db), meta["show_id"]]),
            'search "prefill decode"': (
                [kb, "--home", str(ws), "search", "prefill decode"],
                [py, "-c", FLOOR_SEARCH, str(db), "prefill decode"]),
        }
        bare_t = statistics.median(_run([py, "-c", "pass"])[0] for _ in range(runs))
        imp_t = statistics.median(_run([py, "-c", "import typer, sqlite3"])[0] for _ in range(runs))
        print(f"bare interpreter: {bare_t * 1000:.0f} ms; `python -c 'import typer, sqlite3'`: {imp_t * 1000:.0f} ms "
              f"(medians of {runs})")
        print()
        print(f"{'command (kb --home W …)':45s} {'kb ms':>8s} {'floor ms':>9s} {'ratio':>6s}  same output"
              f"{'':22s}(info: typer-app floor ms, kb / it)")
        results = {}
        for label, (kb_cmd, fl_cmd) in commands.items():
            r = time_pair(kb_cmd, fl_cmd, typer_cmds[label.split()[0]], runs)
            if label.startswith("query"):
                same = r["kb_out"].split() == r["floor_out"].split()
                detail = f"{len(r['kb_out'].split())} IDs"
            elif label.startswith("search"):
                kb_refs = [ln.split()[1] for ln in r["kb_out"].splitlines()[2:] if ln.strip()]
                fl_refs = [ln.split()[1] for ln in r["floor_out"].splitlines() if ln.strip()]
                same = kb_refs == fl_refs
                detail = f"{len(kb_refs)} hits"
            else:
                same = r["kb_out"].splitlines()[0] == r["floor_out"].splitlines()[0]
                detail = "same title line"
            r["ratio"] = r["kb"] / r["floor"]
            results[label] = r
            print(f"{label:45s} {r['kb'] * 1000:8.1f} {r['floor'] * 1000:9.1f} {r['ratio']:6.2f}  "
                  f"{'yes' if same else 'NO'} ({detail})".ljust(97)
                  + f"{r['typer'] * 1000:6.1f} {r['kb'] / r['typer']:5.2f}"
                  + ("" if r["typer_same"] else " (output differs!)"))
        print(f"(medians of {runs} runs each; ratio kb / floor, lower is better; target <= {TARGET_RATIO})")
        print("(typer-app floor: a minimal Typer app with kb's option shapes running the same SQL — information)")
        print()

        print("where one kb run spends its time (cProfile of one in-process run, cumulative ms; the profiler "
              "inflates absolute figures):")
        for label, (kb_cmd, _) in commands.items():
            ph = phase_profile(kb_cmd[1:])
            print(f"  kb {label}: whole run {ph['whole run']:.0f}; "
                  + ", ".join(f"{k} {ph[k]:.0f}" for k, *_ in PHASES if k in ph))
        print()

        print("python -X importtime, each kb command (min over 3 runs per module):")
        floor_it = importtime(["-c", "import typer, sqlite3"])
        for label, (kb_cmd, _) in commands.items():
            it = importtime([kb_cmd[0], *kb_cmd[1:]])
            print_importtime("kb " + label, it, floor_it["total_us"])
        print()

        print("FTS5: kb's index (unicode61 over CJK bigrams) vs a trigram tokenizer, same documents, copy of the store")
        f = fts_compare(db, tmp)
        mb = 1 / 1e6
        print(f"  documents: {f['docs']:,}, original text {f['text_mb']:.0f} MB")
        parts = ", ".join(f"{k.removeprefix('search_index_') or 'table'} {v * mb:.1f}" for k, v in
                          sorted(f["kb_parts"].items()))
        print(f"  kb search_index (as built by kb):        {f['kb_bytes'] * mb:7.1f} MB  ({parts})")
        print(f"  same, rebuilt in one statement:          {f['kb_rebuilt_bytes'] * mb:7.1f} MB  "
              f"build {f['kb_rebuilt_s']:.1f} s (segment() + insert)")
        print(f"  trigram tokenizer, original text:        {f['trigram_bytes'] * mb:7.1f} MB  "
              f"build {f['trigram_s']:.1f} s"
              f"  ({f['trigram_bytes'] / f['kb_rebuilt_bytes']:.1f}x kb's size)")
        print(f"  kb's tokenization, contentless (content=''): {f['kb_contentless_bytes'] * mb:5.1f} MB  build "
              f"{f['kb_contentless_s']:.1f} s")
        print(f"  copy of the store: {f['file_before_mb']:.0f} MB -> {f['file_after_mb']:.0f} MB "
              "with the three extra tables")
        for w, h in f["hits"].items():
            line = (f"  hits for {w!r}: kb search {h['kb_search']} ({h['kb_search_ms']:.0f} ms incl. snippets), "
                    f"kb MATCH count {h['kb_match']} ({h['kb_match_ms']:.1f} ms)")
            if "like" in h:
                line += (f"; LIKE '%{w}%' {h['like']} ({h['like_ms']:.0f} ms, full scan); trigram MATCH "
                         f"{h['trigram_match']} ({h['trigram_match_ms']:.1f} ms); trigram-table LIKE "
                         f"{h['trigram_like']} ({h['trigram_like_ms']:.0f} ms)")
            else:
                line += f"; trigram MATCH {h['trigram_match']} ({h['trigram_match_ms']:.1f} ms)"
            print(line)
        print()

        worst_label, worst = max(results.items(), key=lambda kv: kv[1]["ratio"])
        print(f"worst: kb {worst_label}: {worst['kb'] * 1000:.1f} ms vs floor {worst['floor'] * 1000:.1f} ms "
              f"= {worst['ratio']:.2f}x (target <= {TARGET_RATIO})")
        short = worst_label.split()[1] if worst_label.startswith("query") else worst_label.split()[0]
        print(json.dumps({"name": f"cli_latency_worst:{short}",
                          "value": round(worst["kb"] * 1000, 1), "unit": "ms",
                          "floor": round(worst["floor"] * 1000, 1), "ratio": round(worst["ratio"], 2)}))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
