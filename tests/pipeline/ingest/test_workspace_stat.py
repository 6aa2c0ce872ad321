"""A team file whose stat is as kb last read it is not read again: a night's cost follows the files that
changed, not the team's history (``pipeline.ingest.workspace``: ``stat_key``, ``kept_key``)."""
from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import pipeline.ingest.workspace as ws
from kb.cli import app

NOTE = "inbox/jay/2026-10-08T1950-jay-engineering-filter-pd-disaggregation-mooncake-moriiio.md"


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The workspace files each ingest reads, by name."""
    seen: list[str] = []
    real = ws._read_settled

    def counted(path: Path, **kw):
        seen.append(path.name)
        return real(path, **kw)
    monkeypatch.setattr(ws, "_read_settled", counted)
    return seen


def _ingest(runner: CliRunner) -> None:
    result = runner.invoke(app, ["ingest", "workspace", "--date", "2026-10-08"])
    assert result.exit_code == 0, result.output


def _stat_keys(root: Path) -> dict[str, str | None]:
    with sqlite3.connect(root / ".kb" / "kb.sqlite") as db:
        return dict(db.execute("SELECT path, stat_key FROM workspace_files"))


def _entries(root: Path) -> list[str]:
    with sqlite3.connect(root / ".kb" / "kb.sqlite") as db:
        return [r[0] for r in db.execute("SELECT heading FROM note_entries WHERE path = ? ORDER BY number", (NOTE,))]


def test_a_night_reads_only_the_files_that_changed(runner: CliRunner, sample_workspace: Path, reads: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ws, "SETTLED_NS", 0)   # the sample's files were written a moment ago
    _ingest(runner)
    files = len(reads)
    assert files > 10 and all(_stat_keys(sample_workspace).values())
    reads.clear()
    _ingest(runner)
    assert reads == []
    note = sample_workspace / NOTE
    time.sleep(0.05)   # past the file system clock's tick of the last write
    note.write_text(note.read_text(encoding="utf-8") + "\n## 9. Added tonight\n\n- a new line\n", encoding="utf-8")
    _ingest(runner)
    assert reads == [note.name] and _entries(sample_workspace)[-1].endswith("Added tonight")


def test_a_migration_asking_for_every_file_to_be_read_again_is_heard(runner: CliRunner, sample_workspace: Path,
                                                                      reads: list[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's find: a migration gives the rows a hash no file has (``content_hash = ''``) to have every file
    read again; their kept stats must not answer for them."""
    monkeypatch.setattr(ws, "SETTLED_NS", 0)
    _ingest(runner)
    files = set(reads)
    with sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite") as db:
        db.execute("UPDATE workspace_files SET content_hash = ''")
    reads.clear()
    _ingest(runner)
    assert set(reads) == files
    with sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite") as db:
        assert db.execute("SELECT count(*) FROM workspace_files WHERE content_hash = ''").fetchone() == (0,)


def test_an_edit_that_keeps_the_size_and_the_modification_time_is_read(runner: CliRunner, sample_workspace: Path,
                                                                        reads: list[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``touch -d`` or a copy keeping times can put the modification time back; the change time moves."""
    monkeypatch.setattr(ws, "SETTLED_NS", 0)
    note = sample_workspace / NOTE
    text = note.read_text(encoding="utf-8")
    _ingest(runner)
    assert "Read 模式 vs Write 模式" in _entries(sample_workspace)[0]
    before = note.stat()
    time.sleep(0.05)
    changed = text.replace("Read 模式 vs Write", "Write 模式 vs Read", 1)
    assert len(changed.encode()) == len(text.encode()) and changed != text
    note.write_text(changed, encoding="utf-8")
    os.utime(note, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (note.stat().st_size, note.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    reads.clear()
    _ingest(runner)
    assert reads == [note.name] and "Write 模式 vs Read 模式" in _entries(sample_workspace)[0]


def test_a_file_changed_just_before_it_was_read_is_read_again(runner: CliRunner, sample_workspace: Path,
                                                               reads: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A second change within the clock tick of the first would leave the stat as it was: a file changed within
    ``SETTLED_NS`` of the run keeps no key, and the next night reads it (and finds it unchanged)."""
    monkeypatch.setattr(ws, "SETTLED_NS", 10**15)   # every sample file was copied "just before", however slow
    _ingest(runner)
    assert not any(_stat_keys(sample_workspace).values())
    files = set(reads)
    reads.clear()
    _ingest(runner)
    assert set(reads) == files


def _stat(mtime_ns: int, ctime_ns: int) -> os.stat_result:
    return os.stat_result((0o100644, 7, 1, 1, 0, 0, 10, 0, 0, 0, 0.0, 0.0, 0.0, 0, mtime_ns, ctime_ns))


def test_kept_key_waits_until_the_file_has_settled() -> None:
    now = 100 * 10**9
    settled, fresh, ahead = _stat(now - 3 * 10**9, now - 3 * 10**9), _stat(now - 3 * 10**9, now - 10**9), \
        _stat(now + 10**9, now - 3 * 10**9)
    assert ws.kept_key(settled, now) == ws.stat_key(settled) == f"7:10:{now - 3 * 10**9}:{now - 3 * 10**9}"
    assert ws.kept_key(fresh, now) is None   # changed a second before the run
    assert ws.kept_key(ahead, now) is None   # a modification time in the future: nothing to trust
