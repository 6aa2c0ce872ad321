"""The workspace under attack or under strain: paths that leave it, junk files, files that change
while read, a store that cannot be written, a full disk."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import kb.store.backend_sqlite as db
from kb.store import Store
from kb.store.audit import audit
from pipeline.context import open_context
from pipeline.ingest.bulk import ingest_bulk_file
from pipeline.ingest.public import ingest_source
from pipeline.ingest.workspace import ingest_workspace
from tests.reliability.support import DAY, REPO, dump, kb_env, one_error_line, seed, sha, store_bytes
from tests.reliability.support import kb_inproc as kb

SECRET = b"TOPSECRET-outside-the-workspace-91c2"
D = DAY.isoformat()
MINIMAL_TOML = """[workspace]
contact = "t@example.org"
[[topics]]
slug = "inference"
doc = "{doc}"
[arxiv]
recording = "{recording}"
[hf]
enabled = false
"""


def _tree_digest(root: Path, skip: str = ".kb") -> dict[str, str]:
    return {p.relative_to(root).as_posix(): sha(p.read_bytes()) for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and skip not in p.relative_to(root).parts}


def _outside(tmp_path: Path) -> Path:
    out = tmp_path / "outside"
    (out / "notes").mkdir(parents=True)
    body = b"## Leaked\n\n- " + SECRET + b" 2610.09999 prefill\n"
    (out / "secret.md").write_bytes(body)
    (out / "notes" / "2026-10-08-leak.md").write_bytes(body)
    (out / "secret.xml").write_bytes(b"<rss><channel><title>" + SECRET + b"</title></channel></rss>")
    return out


# --------------------------------------------------------------------------- paths leaving the workspace
def test_symlinks_leading_outside_are_not_followed_and_named(workspace: Path, tmp_path: Path, kept) -> None:
    out = _outside(tmp_path)
    (workspace / "inbox" / "amy").mkdir(parents=True)
    (workspace / "inbox" / "amy" / "2026-10-08-good.md").write_text("## Good\n\n- decode 2610.04444\n")
    links = {
        "inbox/amy/2026-10-08-link.md": out / "secret.md",
        "inbox/bob": out / "notes",
        "organized/paper_cards/001-2610-09999.md": out / "secret.md",
        "organized/queue/work-queue.md": out / "secret.md",
        "organized/knowledge/inference.md": out / "secret.md",
    }
    for rel, target in links.items():
        (workspace / rel).symlink_to(target)
    ctx = open_context(str(workspace), DAY)
    report = ingest_workspace(ctx)
    named = "\n".join(report.problems)
    for rel in ["inbox/amy/2026-10-08-link.md", "organized/paper_cards/001-2610-09999.md",
                "organized/queue/work-queue.md", "organized/knowledge/inference.md"]:
        assert rel in named and "outside the workspace" in named, (rel, named)
    assert "inbox/bob" in named
    assert report.parsed == 1 and kept.items(1, ctx.store.conn.execute("SELECT count(*) FROM notes").fetchone()[0]) == 0
    ctx.store.conn.execute("PRAGMA wal_checkpoint")
    assert kept.secret_absent(SECRET, store_bytes(workspace), report.summary().encode())
    assert kept.store(ctx.store.path) == "ok"


def test_recording_path_outside_the_workspace(workspace: Path, tmp_path: Path, kept) -> None:
    out = _outside(tmp_path)
    (workspace / "recordings").mkdir()
    (workspace / "recordings" / "listing.xml").symlink_to(out / "secret.xml")
    for recording in ["../../etc/passwd", os.path.relpath(out / "secret.xml", workspace), str(out / "secret.xml"),
                      "recordings/listing.xml"]:
        (workspace / "kb.toml").write_text(MINIMAL_TOML.format(doc="organized/knowledge/inference.md",
                                                              recording=recording))
        result = kb("nightly", "--home", str(workspace), "--date", D, "--offline")
        assert result.returncode == 1, result.stderr                      # a source failed, the run went on
        assert "arxiv: failed" in result.stderr and "outside the workspace" in result.stderr
        assert "Traceback" not in result.stderr
        briefing = (workspace / "briefings" / f"{D}-inference.md").read_text(encoding="utf-8")
        assert "arxiv" in briefing                                         # the briefing names the failure
    assert kept.secret_absent(SECRET, store_bytes(workspace), *(p.read_bytes() for p in (workspace / "briefings").iterdir()))
    assert kept.store(workspace / ".kb" / "kb.sqlite") == "ok"


def test_brief_out_and_topic_doc_outside_the_workspace(workspace: Path, tmp_path: Path, kept) -> None:
    out = _outside(tmp_path)
    Store.open(workspace / ".kb" / "kb.sqlite").close()   # a store to brief from (a read makes none)
    # --out writes a copy wherever the user can write: outside the workspace too (never recorded as the day's).
    for target in ["../x.md", str(tmp_path / "abs.md"), "briefings/../../y.md"]:
        result = kb("--home", str(workspace), "brief", "--date", D, "--out", target)
        assert result.returncode == 0, result.stderr
        assert (workspace / target).resolve().read_text(encoding="utf-8").startswith("# inference")
    assert not (workspace / "briefings" / f"{D}-inference.md").exists()
    # A briefings folder that is a symlink out of the workspace is refused the same way.
    shutil.rmtree(workspace / "briefings")
    (workspace / "briefings").symlink_to(out)
    result = kb("--home", str(workspace), "brief", "--date", D)
    assert result.returncode == 2 and "outside the workspace" in one_error_line(result.stderr)
    # A topic doc that leaves the workspace is a configuration error (exit 2), never read.
    (workspace / "kb.toml").write_text(MINIMAL_TOML.format(doc=os.path.relpath(out / "secret.md", workspace),
                                                          recording="recordings/none.xml"))
    result = kb("--home", str(workspace), "ingest", "workspace")
    assert result.returncode == 2 and "not a path inside the workspace" in one_error_line(result.stderr)
    assert sorted(p.name for p in out.iterdir()) == ["notes", "secret.md", "secret.xml"]
    assert kept.secret_absent(SECRET, store_bytes(workspace))
    assert kept.store(workspace / ".kb" / "kb.sqlite") == "ok"


def test_brief_out_never_writes_over_a_recording(sample_workspace: Path, kept) -> None:
    workspace = sample_workspace
    Store.open(workspace / ".kb" / "kb.sqlite").close()   # a store to brief from (a read makes none)
    # Recordings are the inputs an offline night reads: --force overwrites an output, never one of them.
    for target in [f"recordings/arxiv/{D}-listing.xml", "recordings/arxiv/2026-01-05-listing.xml",
                   "recordings/blogs/vllm-blog.xml", "./recordings/../recordings/blogs/lmcache.xml"]:
        path = (workspace / target).resolve()
        before = path.read_bytes() if path.exists() else None
        result = kb("--home", str(workspace), "brief", "--date", D, "--out", target, "--force")
        assert result.returncode == 2 and "a source's recording" in one_error_line(result.stderr), target
        assert (path.read_bytes() if path.exists() else None) == before
    result = kb("--home", str(workspace), "brief", "--date", D, "--out", "recordings/blogs/notes.md")
    assert result.returncode == 0, result.stderr    # a file no source reads is an output like any other
    # the team's files at the workspace's top: its README, its taxonomy override (kb.toml is case 56's)
    (workspace / "taxonomy.toml").write_text("[topics]\n", encoding="utf-8")
    for target in ("README.md", "taxonomy.toml"):
        before = (workspace / target).read_bytes()
        result = kb("--home", str(workspace), "brief", "--date", D, "--out", target, "--force")
        assert result.returncode == 2 and "the team's file" in one_error_line(result.stderr), target
        assert (workspace / target).read_bytes() == before


# --------------------------------------------------------------------------- junk and moving files
def test_binary_junk_notes_are_skipped_and_named(workspace: Path, kept) -> None:
    rng = random.Random(20261008)
    inbox = workspace / "inbox" / "amy"
    inbox.mkdir(parents=True)
    (inbox / "2026-10-08-good.md").write_text("## Good\n\n- decode 2610.04444\n")
    (inbox / "2026-10-08-random.md").write_bytes(rng.randbytes(8192))
    (inbox / "2026-10-08-latin1.md").write_bytes(bytes(rng.randrange(0x80, 0x100) for _ in range(4096)))
    (inbox / "2026-10-08-huge.md").write_bytes(b"## Big\n\n" + b"- line\n" * 900_000)
    (inbox / "2026-10-08-png.md").write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(2048))
    ctx = open_context(str(workspace), DAY)
    report = ingest_workspace(ctx)
    text = "\n".join(report.problems)
    assert "2026-10-08-random.md: skipped, binary content" in text
    assert "2026-10-08-png.md: skipped, binary content" in text
    assert "2026-10-08-latin1.md: skipped, not UTF-8 text" in text
    assert "2026-10-08-huge.md: skipped" in text and "too large" in text
    assert report.parsed == 1 and report.status == "ok"
    notes = [r[0] for r in ctx.store.conn.execute("SELECT path FROM notes")]
    assert kept.items(1, len(notes)) == 0 and notes == ["inbox/amy/2026-10-08-good.md"]
    before = dump(ctx.store.path)
    again = ingest_workspace(ctx)                                   # the junk is named again, nothing changes
    assert again.skipped == report.skipped and dump(ctx.store.path) == before
    # and kb audit lists every skipped file with why
    listed = {f["subject"]: f["detail"] for f in audit(ctx.store) if f["kind"] == "file-problem"}
    assert listed["inbox/amy/2026-10-08-random.md"].startswith("skipped, binary content")
    assert listed["inbox/amy/2026-10-08-png.md"].startswith("skipped, binary content")
    assert "not UTF-8" in listed["inbox/amy/2026-10-08-latin1.md"]
    assert "too large" in listed["inbox/amy/2026-10-08-huge.md"]
    assert kept.store(ctx.store.path) == "ok"


DOC = """# Inference

version: {v} · 2026-10-0{d}

## §1 Serving

- 2610.0{a} anchored here (anchored 2026-10-01)

## §2 Disaggregation

- 2610.0{b} anchored here
{pad}
"""


def _doc(n: int) -> bytes:
    # Different sizes, versions and anchors, so a mix of two can be told apart from both.
    return DOC.format(v=f"v{n}", d=n, a=f"{1111 * n:04d}", b=f"{2222 * n:04d}", pad="\n".join(["filler"] * (40 * n))).encode()


def _recorded(ctx) -> list[tuple[str, str]]:
    return ctx.store.conn.execute("SELECT version, content_hash FROM doc_versions ORDER BY rowid").fetchall()


def test_knowledge_doc_edited_while_read_torn_read(workspace: Path, monkeypatch, kept) -> None:
    doc = workspace / "organized" / "knowledge" / "inference.md"
    old, new = _doc(1), _doc(3)
    doc.write_bytes(old)
    real = Path.read_bytes
    calls = {"n": 0}

    def torn(self: Path) -> bytes:
        if self == doc and calls["n"] == 0:
            calls["n"] += 1
            doc.write_bytes(new)                        # the editor saves while kb reads …
            return old[: len(old) // 2] + new[len(old) // 2:]   # … and kb's read straddles the save
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", torn)
    ctx = open_context(str(workspace), DAY)
    ingest_workspace(ctx)
    [(version, digest)] = _recorded(ctx)
    assert (version, digest) == ("v3", hashlib.sha256(new).hexdigest())   # the new one, whole
    anchors = {r[0] for r in ctx.store.conn.execute("SELECT subject FROM anchors WHERE ended_on IS NULL")}
    assert anchors == {"2610.03333", "2610.06666"}
    assert kept.items(2, len(anchors)) == 0 and kept.store(ctx.store.path) == "ok"


def test_knowledge_doc_truncated_then_written_while_read(workspace: Path, monkeypatch, kept) -> None:
    """An editor saving in place: kb reads the file between truncate and write."""
    doc = workspace / "organized" / "knowledge" / "inference.md"
    old, new = _doc(1), _doc(2)
    doc.write_bytes(old)
    real = Path.read_bytes
    state = {"armed": True}

    def empty_then_new(self: Path) -> bytes:
        if self == doc and state["armed"]:
            state["armed"] = False
            doc.write_bytes(b"")
            threading.Timer(0.02, lambda: doc.write_bytes(new)).start()
            return b""
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", empty_then_new)
    ctx = open_context(str(workspace), DAY)
    ingest_workspace(ctx)
    assert _recorded(ctx) == [("v2", hashlib.sha256(new).hexdigest())]
    assert kept.store(ctx.store.path) == "ok"


def test_knowledge_doc_replaced_by_another_thread_during_ingests(workspace: Path, kept) -> None:
    doc = workspace / "organized" / "knowledge" / "inference.md"
    versions = {hashlib.sha256(_doc(n)).hexdigest(): (f"v{n}", _doc(n)) for n in (1, 2, 3)}
    doc.write_bytes(_doc(1))
    stop = threading.Event()

    def editor() -> None:                               # saves in turn, as editors do: write, then rename
        n, deadline = 0, time.monotonic() + 30
        while not stop.is_set() and time.monotonic() < deadline:
            tmp = doc.with_name(f".inference.md.{n}.swp")
            tmp.write_bytes(_doc(1 + n % 3))
            os.replace(tmp, doc)
            n += 1
            time.sleep(0.001)

    thread = threading.Thread(target=editor, daemon=True)
    ctx = open_context(str(workspace), DAY)
    thread.start()
    reads = 0
    try:
        # Bounded: until the doc was read (changed) at least 5 times, or 200 ingests — a busy
        # machine may let the editor save several times between two reads.
        for _ in range(200):
            reads += ingest_workspace(ctx).parsed
            if reads >= 5:
                break
    finally:
        stop.set()
        thread.join(5)
    assert reads >= 5, f"the doc was read {reads} times only"
    recorded = _recorded(ctx)
    for version, digest in recorded:                    # every version kb kept is one of the three, whole
        assert digest in versions and versions[digest][0] == version
    assert kept.items(len(recorded), sum(d in versions for _, d in recorded)) == 0
    assert kept.store(ctx.store.path) == "ok"


# --------------------------------------------------------------------------- read-only and full
def _cli_fails_cleanly(args: list[str], needle: str, exit_code: int = 1) -> str:
    result = kb(*args)
    line = one_error_line(result.stderr)
    assert result.returncode == exit_code and needle in line, (result.returncode, result.stderr)
    return line


def test_read_only_store_dot_kb_is_a_file(briefed: Path, kept) -> None:
    """Root ignores chmod, so the unwritable store is made another way: .kb is a file."""
    shutil.rmtree(briefed / ".kb")
    (briefed / ".kb").write_bytes(b"not a folder")
    files = _tree_digest(briefed)
    for args in (["ingest", "workspace"], ["nightly", "--date", D, "--offline"], ["db", "status"], ["brief", "--date", D]):
        _cli_fails_cleanly(["--home", str(briefed), *args], ".kb is not a folder")
    assert _tree_digest(briefed) == files and (briefed / ".kb").read_bytes() == b"not a folder"
    kept.items(len(files), len(_tree_digest(briefed)))


def test_read_only_store_path_is_a_directory(briefed: Path, kept) -> None:
    store = briefed / ".kb" / "kb.sqlite"
    saved = store.read_bytes()
    store.unlink()
    store.mkdir()
    (store / "keep").write_bytes(b"x")
    for args in (["ingest", "workspace"], ["nightly", "--date", D, "--offline"], ["db", "status"]):
        _cli_fails_cleanly(["--home", str(briefed), *args], "is a folder, not a SQLite database")
    assert kept.items(1, int((store / "keep").read_bytes() == b"x")) == 0   # the folder is left as it was
    assert sorted(p.name for p in store.iterdir()) == ["keep"] and saved


def _chattr(flag: str, *paths: Path) -> bool:
    try:
        return subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def test_read_only_store_immutable(briefed: Path, kept) -> None:
    """chattr +i binds root too (where the file system supports it): the store cannot be opened for writing."""
    kb_dir = briefed / ".kb"
    store = kb_dir / "kb.sqlite"
    before = dump(store)
    for p in kb_dir.iterdir():
        if p.name.endswith(("-wal", "-shm")):
            p.unlink()
    if not _chattr("+i", store, kb_dir):
        pytest.skip("chattr +i is not available on this file system")
    try:
        for args in (["ingest", "workspace"], ["nightly", "--date", D, "--offline"]):
            result = kb("--home", str(briefed), *args)
            assert result.returncode == 1 and "Traceback" not in result.stderr
            assert "kb.sqlite" in one_error_line(result.stderr)
    finally:
        _chattr("-i", store, kb_dir)
    after = dump(store)
    assert kept.rows(before, after) == 0 and after == before
    assert kept.store(store) == "ok"


EROFS_PRELUDE = """
import errno, os
_open = os.open
def open_(path, flags, *a, **k):
    if os.path.basename(os.path.dirname(str(path))) == 'briefings' and str(path).endswith('.tmp'):
        raise OSError(errno.{code}, os.strerror(errno.{code}))
    return _open(path, flags, *a, **k)
os.open = open_
"""
ENOSPC_PRELUDE = """
import errno, os
_fsync = os.fsync
def fsync(fd):
    if os.readlink(f'/proc/self/fd/{fd}').endswith('.tmp'):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    return _fsync(fd)
os.fsync = fsync
"""


def _kb_with(prelude: str, *args: str) -> subprocess.CompletedProcess:
    code = f"import sys\n{prelude}\nsys.argv = ['kb'] + sys.argv[1:]\nfrom kb.cli import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=kb_env(),
                          cwd=REPO, timeout=60)


@pytest.mark.parametrize("code, message", [("EROFS", "Read-only file system"), ("EACCES", "Permission denied")])
def test_read_only_briefings_folder(briefed: Path, kept, code: str, message: str) -> None:
    """A read-only briefings folder, simulated (root ignores chmod): creating the temp file there fails."""
    target = briefed / "briefings" / f"{D}-inference.md"
    target.write_bytes(b"an older briefing of the day\n")   # so that kb has something to replace
    old = target.read_bytes()
    before = dump(briefed / ".kb" / "kb.sqlite")
    result = _kb_with(EROFS_PRELUDE.replace("{code}", code), "--home", str(briefed), "brief", "--date", D)
    line = one_error_line(result.stderr)
    assert result.returncode == 1 and message in line and str(target) in line
    assert target.read_bytes() == old
    after = dump(briefed / ".kb" / "kb.sqlite")
    assert kept.rows(before, after) == 0 and after == before
    assert kept.store(briefed / ".kb" / "kb.sqlite") == "ok"


def test_full_disk_writing_a_briefing(briefed: Path, kept) -> None:
    target = briefed / "briefings" / f"{D}-inference.md"
    target.write_bytes(b"an older briefing of the day\n")   # so that kb has something to replace
    old = target.read_bytes()
    before = dump(briefed / ".kb" / "kb.sqlite")
    result = _kb_with(ENOSPC_PRELUDE, "--home", str(briefed), "brief", "--date", D)
    line = one_error_line(result.stderr)
    assert result.returncode == 1 and "No space left on device" in line and str(target) in line
    assert target.read_bytes() == old                                   # the old briefing, whole
    assert not list((briefed / "briefings").glob(".*.tmp"))             # no temp file left behind
    after = dump(briefed / ".kb" / "kb.sqlite")
    assert kept.rows(before, after) == 0 and after == before            # nothing recorded either
    assert kept.store(briefed / ".kb" / "kb.sqlite") == "ok"


def _full_after(monkeypatch, extra_pages: int) -> None:
    """SQLite's own full-disk error (SQLITE_FULL) once the store grows by ``extra_pages`` pages."""
    real = db.tune

    def tune(conn) -> None:
        real(conn)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages + extra_pages}")

    monkeypatch.setattr(db, "tune", tune)


def test_full_disk_during_a_source_ingest(workspace: Path, monkeypatch, kept) -> None:
    ctx = open_context(str(workspace), DAY)
    seed(ctx)
    ctx.store.close()
    before = dump(workspace / ".kb" / "kb.sqlite")
    _full_after(monkeypatch, 2)
    ctx = open_context(str(workspace), DAY)
    big = REPO / "data" / "sample" / "recordings" / "arxiv" / "2026-10-08-listing.xml"
    report = ingest_source(ctx, "arxiv", [big])
    assert report.status == "failed" and "database or disk is full" in report.error
    ctx.store.close()
    after = dump(workspace / ".kb" / "kb.sqlite")
    assert kept.rows(before, after) == 0 and after == before
    assert kept.store(workspace / ".kb" / "kb.sqlite") == "ok"
    monkeypatch.undo()                                                 # space freed: the next run succeeds
    ctx = open_context(str(workspace), DAY)
    assert ingest_source(ctx, "arxiv", [big]).new == 230
    assert kept.rows(before, dump(ctx.store.path)) == 0


def test_full_disk_during_a_workspace_ingest(sample_workspace: Path, monkeypatch, kept) -> None:
    """A store that takes no more writes (full, or a -wal another member left) is the run's failure, not the
    files': the workspace said `ok` with the files it could not save listed as `not saved`, exit 0."""
    ctx = open_context(str(sample_workspace), DAY)
    seed(ctx)
    ctx.store.close()
    before = dump(sample_workspace / ".kb" / "kb.sqlite")
    _full_after(monkeypatch, 2)
    ctx = open_context(str(sample_workspace), DAY)
    report = ingest_workspace(ctx)
    assert report.status == "failed" and "database or disk is full" in report.error
    ctx.store.close()
    assert kept.rows(before, dump(sample_workspace / ".kb" / "kb.sqlite")) == 0
    assert kept.store(sample_workspace / ".kb" / "kb.sqlite") == "ok"
    monkeypatch.undo()                                                 # space freed: the files are read next run
    ctx = open_context(str(sample_workspace), DAY)
    assert ingest_workspace(ctx).status == "ok"
    assert not any("not saved" in p for p in ingest_workspace(ctx).problems)


def _kaggle(path: Path, n: int, rng: random.Random) -> Path:
    import json
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            versions = [{"version": f"v{v}", "created": f"Mon, {1 + v} Jan 2024 10:00:00 GMT"}
                        for v in range(1, 2 + rng.randrange(3))]
            fh.write(json.dumps({"id": f"2401.{i:05d}", "title": f"Paper {i} on {rng.choice(['KV', 'MoE', 'prefill'])}",
                                 "abstract": "Serving. " * rng.randrange(5, 40), "categories": "cs.DC cs.LG",
                                 "authors": "A. Author and B. Author", "versions": versions,
                                 "authors_parsed": [["Author", "A.", ""], ["Author", "B.", ""]]}) + "\n")
    return path


def test_full_disk_during_a_bulk_ingest(workspace: Path, tmp_path: Path, monkeypatch, kept) -> None:
    f = _kaggle(tmp_path / "bulk.jsonl", 6000, random.Random(5))
    clean_ws = tmp_path / "clean"
    shutil.copytree(workspace, clean_ws)
    clean = open_context(str(clean_ws), DAY)
    assert ingest_bulk_file(clean, f, batch=500).parsed == 6000
    expected = dump(clean.store.path, ("papers", "paper_versions", "sightings"))
    _full_after(monkeypatch, 150)
    ctx = open_context(str(workspace), DAY)
    report = ingest_bulk_file(ctx, f, batch=500)
    assert report.status == "failed" and "database or disk is full" in report.error
    ctx.store.close()
    stored = dump(workspace / ".kb" / "kb.sqlite", ("papers",))["papers"]
    assert 0 < len(stored) < 6000 and len(stored) % 500 == 0          # whole batches only
    assert kept.store(workspace / ".kb" / "kb.sqlite") == "ok"
    monkeypatch.undo()
    ctx = open_context(str(workspace), DAY)
    assert ingest_bulk_file(ctx, f, batch=500).status == "ok"         # rerun after freeing space converges
    final = dump(ctx.store.path, ("papers", "paper_versions", "sightings"))
    assert kept.rows(expected, final) == 0 and final == expected


def test_brief_out_never_writes_over_the_teams_files(briefed: Path, kept) -> None:
    protected = ["kb.toml", "organized/knowledge/inference.md", "inbox/jay/x.md", "organized/queue/work-queue.md",
                 "organized/new.md"]
    before = {p: p.read_bytes() for p in briefed.rglob("*.md") if ".kb" not in p.parts}
    before[briefed / "kb.toml"] = (briefed / "kb.toml").read_bytes()
    for target in protected:
        result = kb("--home", str(briefed), "brief", "--date", D, "--out", target, "--force")
        line = one_error_line(result.stderr)
        assert result.returncode == 2 and "the team's file" in line, (target, line)
    store = (briefed / ".kb" / "kb.sqlite").read_bytes()
    for target in (".kb/kb.sqlite", ".kb/other.md"):   # kb's own state: never, whatever the flags
        result = kb("--home", str(briefed), "brief", "--date", D, "--out", target, "--force")
        assert result.returncode == 2 and "kb's own .kb/" in one_error_line(result.stderr), target
    assert (briefed / ".kb" / "kb.sqlite").read_bytes() == store and not (briefed / ".kb" / "other.md").exists()
    recorded = briefed / "briefings" / f"{D}-inference.en.md"   # the night's record: only with --force
    night = recorded.read_bytes()
    result = kb("--home", str(briefed), "brief", "--date", "2026-10-07", "--out", f"briefings/{recorded.name}")
    assert result.returncode == 2 and "--force" in one_error_line(result.stderr)
    assert recorded.read_bytes() == night
    foreign = briefed / "notes-of-mine.md"          # not kb's, not the team's: only with --force
    foreign.write_text("mine\n", encoding="utf-8")
    result = kb("--home", str(briefed), "brief", "--date", D, "--out", "notes-of-mine.md")
    assert result.returncode == 2 and "--force" in one_error_line(result.stderr)
    assert foreign.read_text(encoding="utf-8") == "mine\n"
    assert kb("--home", str(briefed), "brief", "--date", D, "--out", "notes-of-mine.md", "--force").returncode == 0
    assert foreign.read_text(encoding="utf-8").startswith("# inference")
    after = {p: p.read_bytes() for p in before}
    assert kept.items(len(before), sum(after[p] == before[p] for p in before)) == 0
    assert kb("--home", str(briefed), "nightly", "--date", D, "--offline", "--quiet").returncode == 0


def test_a_knowledge_doc_that_lost_its_version_and_anchors_is_suspect(briefed: Path, kept) -> None:
    from tests.reliability.support import dump as dump_store
    doc = briefed / "organized" / "knowledge" / "inference.md"
    anchors_before = dump_store(briefed / ".kb" / "kb.sqlite", ("anchors",))
    original = doc.read_bytes()
    doc.write_text("# inference\n\nSomething else was written here.\n", encoding="utf-8")
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline")
    assert result.returncode == 1                                       # the night says something is wrong
    assert "has no version line and no anchors" in result.stderr and "are kept" in result.stderr
    assert kept.rows(anchors_before, dump_store(briefed / ".kb" / "kb.sqlite", ("anchors",))) == 0
    briefing = (briefed / "briefings" / f"{D}-inference.md").read_text(encoding="utf-8")
    assert "延续锚定" in briefing                                        # the previous anchors still count
    # the reader of the briefing is told, not only the console: the doc was refused, the last read stands
    assert "> ⚠ 团队文件今日未读取：organized/knowledge/inference.md has no version line" in briefing
    english = (briefed / "briefings" / f"{D}-inference.en.md").read_text(encoding="utf-8")
    assert "> ⚠ Team files not read today: organized/knowledge/inference.md has no version line" in english
    doc.write_text("version: v311\n", encoding="utf-8")                 # cut down to its version line
    result = kb("--home", str(briefed), "nightly", "--date", D, "--offline")
    assert result.returncode == 1 and "has no sections and no anchors" in result.stderr
    assert kept.rows(anchors_before, dump_store(briefed / ".kb" / "kb.sqlite", ("anchors",))) == 0
    assert "has no sections and no anchors" in (briefed / "briefings" / f"{D}-inference.en.md").read_text(encoding="utf-8")
    doc.write_bytes(original)                                           # put back: the warning goes
    assert kb("--home", str(briefed), "nightly", "--date", D, "--offline").returncode == 0
    assert "Team files not read" not in (briefed / "briefings" / f"{D}-inference.en.md").read_text(encoding="utf-8")
