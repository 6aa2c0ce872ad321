"""Files kb writes honour the umask: the team can read what the nightly's user writes."""
from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from kb.fsutil import write_atomically
from tests.support.paths import SAMPLE


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def umask():
    """Set the process's umask for the test; the old one comes back afterwards."""
    old = os.umask(0o022)
    os.umask(old)
    yield lambda mask: os.umask(mask)
    os.umask(old)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664), (0o077, 0o600)])
def test_a_new_file_gets_0666_less_the_umask(tmp_path: Path, umask, mask: int, expected: int) -> None:
    umask(mask)
    target = tmp_path / "briefings" / "2026-10-08-inference.md"
    write_atomically(target, "简报\n".encode())
    assert target.read_bytes() == "简报\n".encode() and _mode(target) == expected
    assert [p.name for p in target.parent.iterdir()] == [target.name]   # no temp file left


def test_a_file_written_0600_by_an_older_kb_becomes_readable(tmp_path: Path, umask) -> None:
    umask(0o022)
    target = tmp_path / "index.html"
    target.write_bytes(b"old")
    target.chmod(0o600)
    write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and _mode(target) == 0o644


def test_the_nightly_writes_briefings_logs_and_lock_the_team_can_read(tmp_path: Path) -> None:
    """A whole nightly under the README's UMask=0022: nothing kb writes is private to its user."""
    import shutil
    ws = tmp_path / "ws"
    shutil.copytree(SAMPLE, ws, ignore=shutil.ignore_patterns(".kb", "briefings"))
    env = {k: v for k, v in os.environ.items() if k not in ("KB_HOME", "KB_STORE_URL")}
    code = "import os, sys; os.umask(0o022); sys.argv = ['kb'] + sys.argv[1:]; from kb.cli import main; main()"
    result = subprocess.run([sys.executable, "-c", code, "nightly", "--home", str(ws), "--date", "2026-10-08",
                             "--offline", "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    written = [p for p in (ws / "briefings").iterdir()] + list((ws / ".kb" / "logs").iterdir())
    written += [ws / ".kb" / "kb.sqlite", ws / ".kb" / "nightly.lock"]
    assert len(written) >= 5
    assert {p.name: oct(_mode(p)) for p in written if _mode(p) != 0o644} == {}


def test_a_dead_writers_temp_file_is_swept_and_a_live_ones_kept(tmp_path: Path) -> None:
    gone = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1   # no process has it, nor will
    target = tmp_path / "2026-10-08-inference.md"
    left = tmp_path / f".{target.name}.{gone}.dead0000.tmp"
    writing = tmp_path / f".{target.name}.{os.getppid()}.live0000.tmp"   # another process, still running
    left.write_bytes(b"half")
    writing.write_bytes(b"in progress")
    write_atomically(target, b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, writing.name])


def test_an_interrupted_write_leaves_the_old_file_and_no_temp_file(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "index.html"
    target.write_bytes(b"old")

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, b"new")
    assert [p.name for p in tmp_path.iterdir()] == [target.name] and target.read_bytes() == b"old"


def _recording_fsync(monkeypatch, target: Path, *, folder_error: int | None = None) -> list[tuple[str, bytes | None]]:
    """Replace os.fsync with one that records, per call, what was synced ("folder" or "file") and what
    ``target`` held at that moment; ``folder_error`` makes a folder's sync fail with that errno."""
    real, calls = os.fsync, []

    def recording(fd: int) -> None:
        kind = "folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file"
        calls.append((kind, target.read_bytes() if target.exists() else None))
        if kind == "folder" and folder_error is not None:
            raise OSError(folder_error, os.strerror(folder_error))
        real(fd)

    monkeypatch.setattr(os, "fsync", recording)
    return calls


def test_the_folder_is_synced_after_the_rename_so_the_new_name_survives_a_power_cut(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    target = tmp_path / "docs" / "paper.md"
    target.parent.mkdir()
    target.write_bytes(b"old")
    calls = _recording_fsync(monkeypatch, target)
    write_atomically(target, b"new")
    assert calls == [("file", b"old"), ("folder", b"new")]   # the file before its rename, the folder after


@pytest.mark.parametrize("refusal", ["EINVAL", "EACCES", "EIO"])
def test_a_folder_the_system_will_not_sync_does_not_fail_the_write(tmp_path: Path, monkeypatch, caplog,
                                                                  refusal: str) -> None:
    import errno
    import logging
    target = tmp_path / "2026-10-08-inference.md"
    calls = _recording_fsync(monkeypatch, target, folder_error=getattr(errno, refusal))
    with caplog.at_level(logging.DEBUG, logger="kb.fsutil"):
        write_atomically(target, b"new")
    assert target.read_bytes() == b"new" and [kind for kind, _ in calls] == ["file", "folder"]
    assert [r.levelno for r in caplog.records] == [logging.DEBUG] and str(tmp_path) in caplog.text


def test_a_derived_file_written_without_durability_syncs_nothing(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "site" / "index.html"
    calls = _recording_fsync(monkeypatch, target)
    write_atomically(target, b"page", durable=False)
    assert target.read_bytes() == b"page" and calls == []


@pytest.mark.parametrize("mask, expected", [(0o002, 0o664), (0o007, 0o660), (0o022, 0o644)])
def test_a_new_store_and_its_wal_get_0666_less_the_umask(tmp_path: Path, umask, mask: int, expected: int) -> None:
    """The store is a file kb writes like the others: under UMask=0002 the writer's group may write it (anchor,
    resolve a flag); SQLite's own default made it 0644 whatever the umask, and its -wal and -shm follow it."""
    from kb.store import Store
    umask(mask)
    path = tmp_path / ".kb" / "kb.sqlite"
    store = Store.open(path)
    try:
        made = {p.name: oct(_mode(p)) for p in path.parent.iterdir()}
    finally:
        store.close()
    assert made == {name: oct(expected) for name in ("kb.sqlite", "kb.sqlite-wal", "kb.sqlite-shm")}


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file another group than one's own needs root here")
def test_a_team_file_edited_in_place_keeps_its_group(tmp_path: Path) -> None:
    """`kb anchor` replaces the knowledge doc through a rename: the new file kept the mode but took the member's
    own group, so in a folder without the setgid bit the team's other members could no longer edit the doc."""
    doc = tmp_path / "inference.md"
    doc.write_bytes(b"# doc\n")
    os.chown(doc, -1, 4242)
    doc.chmod(0o664)
    write_atomically(doc, b"# doc\n- 2610.09701\n", mode=0o664)
    assert (doc.stat().st_gid, _mode(doc)) == (4242, 0o664)


@pytest.mark.parametrize("command", [["db", "backup"], ["db", "copy", "--to"]])
@pytest.mark.parametrize("mask, expected", [(0o002, 0o664), (0o022, 0o644)])
def test_a_backup_and_a_copy_of_the_store_get_0666_less_the_umask(tmp_path: Path, umask, command: list[str],
                                                                  mask: int, expected: int) -> None:
    """`kb db backup` left SQLite's 0644 whatever the umask, where every other file kb writes (and `kb db copy`'s
    file) is 0666 less it: under UMask=0002 the team's group could not write the store restored from it."""
    from tests.reliability.support import kb_inproc
    ws = tmp_path / "ws"
    ws.mkdir()
    assert kb_inproc("init", str(ws)).returncode == 0
    assert kb_inproc("--home", str(ws), "ingest", "workspace").returncode == 0   # the store (a read makes none)
    umask(mask)
    dest = tmp_path / "copy.sqlite"
    result = kb_inproc("--home", str(ws), *command, str(dest))
    assert result.returncode == 0, result.stderr
    assert oct(_mode(dest)) == oct(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.sqlite", "ws"]   # nothing else left beside it
