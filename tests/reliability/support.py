"""Helpers shared by the reliability cases: store dumps, contexts over the scripted server, kb as a process."""
from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

from pipeline.context import RunContext, open_context
from pipeline.ingest.public import ingest, ingest_source
from pipeline.net.http import HttpClient
from pipeline.sources.registry import Source

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "sources"
DAY = date(2026, 10, 8)
UA = "kb/test (+mailto:reliability@example.org)"

# Tables whose rows are the store's data; the health ledger and bookkeeping are not.
NOT_DATA = ("source_runs", "migrations")


def dump(db: Path, tables: tuple[str, ...] | None = None) -> dict[str, list[tuple]]:
    """Every row of every data table (or of ``tables``), sorted: what a failure must leave as it was."""
    conn = sqlite3.connect(db)
    try:
        names = tables or tuple(
            n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            if not n.startswith("search_index") and n not in NOT_DATA and not n.startswith("sqlite_"))
        return {t: sorted(conn.execute(f"SELECT {_columns(conn, t)} FROM {t}").fetchall(), key=repr) for t in names}
    finally:
        conn.close()


def _columns(conn: sqlite3.Connection, table: str) -> str:
    """The table's columns less the file system's (``tests.support.backends.VOLATILE``): a copied workspace's
    files have their own stats, and each machine of a shared store its own."""
    from tests.support.backends import VOLATILE
    if table not in VOLATILE:
        return "*"
    return ", ".join(r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in VOLATILE[table])


def lost_rows(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> int:
    """Rows of ``before`` that ``after`` no longer holds exactly (changed rows count as lost)."""
    lost = 0
    for table, rows in before.items():
        remaining = list(after.get(table, []))
        for row in rows:
            try:
                remaining.remove(row)
            except ValueError:
                lost += 1
    return lost


def integrity(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        result = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check").fetchall())
        fk = conn.execute("PRAGMA foreign_key_check").fetchall()
        return result if not fk else f"{result}; foreign keys: {fk[:3]}"
    finally:
        conn.close()


def ledger(db: Path, source: str) -> dict:
    """The newest health-ledger row of ``source``."""
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM source_runs WHERE source = ? ORDER BY id DESC LIMIT 1",
                           (source,)).fetchone()
        return dict(row) if row else {}
    finally:
        conn.close()


def store_bytes(ws: Path) -> bytes:
    """Every byte of the store (database, WAL, shared memory) and of kb's own folder."""
    out = b""
    for p in sorted((ws / ".kb").rglob("*")):
        if p.is_file():
            out += p.read_bytes()
    return out


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------- sources over HTTP
def client(sleeps: list[float] | None = None, **kw) -> HttpClient:
    kw.setdefault("timeout", 2)
    kw.setdefault("connect_timeout", 2)
    kw.setdefault("retries", 3)
    return HttpClient(UA, sleep=(sleeps.append if sleeps is not None else (lambda s: None)),
                      rand=lambda: 0.0, **kw)


def net_context(ws: Path, server, sleeps: list[float] | None = None, **kw) -> RunContext:
    """A run context whose arXiv, HF and blog URLs point at the scripted server."""
    ctx = open_context(str(ws), DAY)
    ctx._http = client(sleeps, **kw)
    ctx.config.arxiv_url = server.url("/rss")
    ctx.config.hf_url = server.url("/hf")
    return ctx


def blog(server=None) -> Source:
    return Source("serving-blog", "blog", server.url("/feed") if server else "https://blog.example.org/feed.xml", None, 4)


def seed(ctx: RunContext, server=None) -> None:
    """Data a failing fetch must not touch: one listing, one HF day, one blog feed."""
    for report in (ingest_source(ctx, "arxiv", [FIXTURES / "listing_atom.xml"]),
                   ingest_source(ctx, "hf", [FIXTURES / "daily_papers_2025-01-15.json"]),
                   ingest(ctx, blog(server), [FIXTURES / "blog_atom.xml"])):
        assert report.status == "ok", report.summary()


# name → (path on the server, ingest over HTTP, ledger source name, a good body)
def _hf_body() -> bytes:
    return (b'[{"paper": {"id": "2610.07777", "title": "Fresh From HF", "summary": "s", '
            b'"authors": [{"name": "A B"}], "upvotes": 3}}]')


SOURCES = {
    "arxiv": ("/rss", lambda ctx, srv: ingest_source(ctx, "arxiv"), "arxiv",
              lambda: (FIXTURES / "listing_rss_3items.xml").read_bytes()),
    "hf": ("/hf", lambda ctx, srv: ingest_source(ctx, "hf"), "hf", _hf_body),
    "blog": ("/feed", lambda ctx, srv: ingest(ctx, blog(srv)), "serving-blog",
             lambda: (FIXTURES / "blog_rss.xml").read_bytes()),
}


# --------------------------------------------------------------------------- kb as a process
def kb_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "KB_HOME"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def kb(*args: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kb.cli", *args], capture_output=True, text=True,
                          env=kb_env(), timeout=timeout, cwd=cwd or REPO)


def kb_popen(*args: str, prelude: str = "") -> subprocess.Popen:
    """kb as a background process; ``prelude`` is Python run before the CLI (fault injection)."""
    code = f"import sys\n{prelude}\nsys.argv = ['kb'] + sys.argv[1:]\nfrom kb.cli import main\nmain()\n"
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=kb_env(), cwd=REPO)


def nightly_process(ws: Path, day: str, *extra: str) -> subprocess.Popen:
    """``kb nightly`` offline on ``ws`` for ``day`` as a background process (output captured)."""
    return subprocess.Popen([sys.executable, "-m", "kb.cli", "nightly", "--home", str(ws), "--date", day, "--offline",
                             "--quiet", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=kb_env(), cwd=REPO)


def sample_on(url: str, root: Path) -> Path:
    """A fresh copy of data/sample at ``root`` (no store, no briefings) whose store is ``url``."""
    import shutil

    from tests.support.backends import Backend
    shutil.copytree(REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    return Backend("postgresql", url).use(root)


def one_error_line(stderr: str) -> str:
    lines = [ln for ln in stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}:\n{stderr[-2000:]}"
    assert "Traceback" not in stderr
    return lines[0]


# --------------------------------------------------------------------------- escaping
_DANGER = [
    ("raw tag", re.compile(r"<\s*(script|img|svg|iframe|object|embed|style|a|b|iframe)\b", re.I)),
    ("event handler in a tag", re.compile(r"<[^>]*\son\w+\s*=", re.I)),
    ("javascript: link", re.compile(r"<[^<>]*\b(href|src)\s*=\s*[\"']?\s*javascript:", re.I)),
]
# Characters that make a text show other than it is (written out here, not taken from kb.text): controls
# other than tab and line ends, bidi embeddings, overrides, isolates and marks, zero-width spaces, the BOM.
_HIDDEN_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e"
                              "\u2060-\u2064\u2066-\u206f\ufeff]")


def hidden_controls(text: str) -> list[str]:
    """The hidden controls in ``text``, as code points (``U+202E``)."""
    return [f"U+{ord(c):04X}" for c in _HIDDEN_CONTROLS.findall(text)]


# A Markdown link whose ] is not escaped (``\]`` is text): only in Markdown output.
_MD_JS_LINK = re.compile(r"(?<!\\)\]\(\s*<?\s*javascript:", re.I)


def dangerous(text: str, *, html_output: bool) -> list[str]:
    """Unescaped constructs in a briefing (or a command's output), hidden controls among them. HTML output is
    checked outside kb's own markup."""
    found = []
    body = text
    if html_output:
        # kb's own page: the inlined stylesheet and the tags markdown-it generates are fine.
        body = re.sub(r"<style>.*?</style>", "", body, flags=re.S)
        body = re.sub(r"</?(html|head|body|main|meta|title|h[1-6]|p|ul|ol|li|table|thead|tbody|tr|th|td|"
                      r"blockquote|strong|em|code|pre|hr|br)(\s+(style|lang|charset)=\"[^\"<>]*\")*\s*/?>", "", body)
        body = re.sub(r'<a href="https?://[^"<>]*">', "", body).replace("</a>", "")
        body = re.sub(r"<!DOCTYPE html>", "", body)
    else:
        # Markdown: "\<" is a backslash escape in CommonMark (the text "<", never a tag), kb's way of
        # writing "<" without an entity; what follows it is text. The same test as a tag opener applies.
        body = body.replace("\\<", "")
    checks = [*_DANGER, ("hidden control", _HIDDEN_CONTROLS)]
    checks += [] if html_output else [("javascript: Markdown link", _MD_JS_LINK)]
    for what, rx in checks:
        for m in rx.finditer(body):
            found.append(f"{what}: {body[max(0, m.start() - 40):m.end() + 40]!r}")
    return found


def table_breaks(markdown: str) -> list[str]:
    """Table rows whose cell count differs from their header's (an unescaped | or newline broke them)."""
    broken, width = [], None
    for line in markdown.splitlines():
        if not line.startswith("|"):
            width = None
            continue
        cells = len(re.findall(r"(?<!\\)\|", line)) - 1
        if width is None:
            width = cells
        elif cells != width:
            broken.append(line[:200])
    return broken


def kb_with_prelude(prelude: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """kb as a process after ``prelude`` (Python run before the CLI: fault injection)."""
    code = f"import sys\n{prelude}\nsys.argv = ['kb'] + sys.argv[1:]\nfrom kb.cli import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=kb_env(),
                          timeout=timeout, cwd=REPO)


def kb_inproc(*args: str) -> subprocess.CompletedProcess:
    """kb's real entry point (``kb.cli.main``) in this process: exit code, stdout, stderr.

    Cheaper than a process; used where nothing about processes is under test.
    """
    import contextlib
    import io
    import logging

    from kb.cli import main
    out, err = io.StringIO(), io.StringIO()
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    argv = sys.argv
    code = 0
    try:
        sys.argv = ["kb", *args]
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except BaseException:   # an exception main() lets escape is a traceback a user would see
                import traceback
                err.write(traceback.format_exc())
                code = 1
    finally:
        sys.argv = argv
        root.handlers[:] = handlers
        root.setLevel(level)
    return subprocess.CompletedProcess(["kb", *args], code, out.getvalue(), err.getvalue())


# A process that opens a store at the same instant as others (time.time() >= argv[2]): first opens race.
OPEN_STORE = """
import sys, time
sys.path.insert(0, {repo!r})
from kb.store import Store
t0 = float(sys.argv[2])
while time.time() < t0:
    pass
Store.open(sys.argv[1]).close()
"""
