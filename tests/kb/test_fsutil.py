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
