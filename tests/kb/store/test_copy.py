"""kb db copy: the sample store to PostgreSQL and back, whole, with the same briefing; refusals; a copy
that fails leaves nothing behind."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kb.errors import StoreError
from kb.store import Store
from kb.store.copy import copy_store
from tests.reliability.support import kb_inproc
from tests.support.backends import Backend, dump
from tests.support.paths import SAMPLE

DAY = "2026-10-08"
ZH = f"briefings/{DAY}-inference.md"


def kb(home: Path, *args: str, code: int = 0, env: dict[str, str] | None = None):
    """kb's real entry point in this process (errors as the user sees them: one line, an exit code)."""
    with pytest.MonkeyPatch.context() as mp:
        for k, v in (env or {}).items():
            mp.setenv(k, v)
        result = kb_inproc("--home", str(home), *args)
    assert result.returncode == code, (args, result.stdout, result.stderr)
    return result


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample after its offline nightly, in its SQLite store."""
    ws = tmp_path_factory.mktemp("night") / "ws"
    shutil.copytree(SAMPLE, ws, ignore=shutil.ignore_patterns(".kb", "briefings"))
    kb(ws, "nightly", "--date", DAY, "--offline", "--quiet")
    return ws


def _everything(target: str | Path) -> dict[str, list[tuple]]:
    with Store.open(target, readonly=True) as s:
        rows = dump(s, skip=())
        rows["migrations"] = sorted(tuple(r) for r in s.query("SELECT name, applied_at FROM migrations"))
    return rows


def test_a_round_trip_to_postgresql_and_back_keeps_every_row_and_the_briefing(night: Path, tmp_path: Path,
                                                                               pg_fresh_url: str) -> None:
    ws = tmp_path / "ws"
    shutil.copytree(night, ws)
    original = _everything(ws / ".kb" / "kb.sqlite")
    out = kb(ws, "db", "copy", "--to", pg_fresh_url).stdout
    assert "the same count in each" in out and ":***@" in out and pg_fresh_url not in out
    assert _everything(pg_fresh_url) == original                       # ids, the ledger, applied_at included
    back = tmp_path / "back.sqlite"
    kb(ws, "db", "copy", "--to", str(back), env={"KB_STORE_URL": pg_fresh_url})
    assert _everything(back) == original
    assert original["papers"] and original["flags"] and original["source_runs"]
    # The day's briefing rebuilt from the PostgreSQL copy is the one the SQLite store wrote (the header
    # naming the command that wrote it: the nightly then, `kb brief` now).
    briefing = (ws / ZH).read_text(encoding="utf-8")
    (ws / ZH).unlink()
    pg_ws = Backend("postgresql", pg_fresh_url).use(ws)
    kb(pg_ws, "brief", "--date", DAY)
    assert (ws / ZH).read_text(encoding="utf-8") == briefing.replace("执行体：kb nightly ·", "执行体：kb brief ·", 1)
    assert kb(pg_ws, "search", "推理", "--format", "json").stdout == kb(night, "search", "推理", "--format",
                                                                        "json").stdout
    # The copy takes new rows after the copied ids: a new note, and a flag closed by hand.
    (ws / "inbox" / "amy").mkdir(parents=True, exist_ok=True)
    (ws / "inbox" / "amy" / "2026-10-09-kv.md").write_text("## KV 传输\n\n- 2610.04646 的 RDMA 推理路径\n",
                                                            encoding="utf-8")
    kb(pg_ws, "ingest", "workspace", "--date", "2026-10-09")
    kb(pg_ws, "flags", "resolve", "1", "--as", "dismissed")
    with Store.open(pg_fresh_url, readonly=True) as s:
        assert s.query("SELECT max(id) FROM note_entries")[0][0] > max(r[0] for r in original["note_entries"])
        assert s.query("SELECT status FROM flags WHERE id = 1")[0][0] == "dismissed"
        assert s.check() == ["ok"]


def test_the_target_must_be_new(night: Path, tmp_path: Path, pg_fresh_url: str) -> None:
    kb(night, "db", "copy", "--to", pg_fresh_url)
    again = kb(night, "db", "copy", "--to", pg_fresh_url, code=1)
    assert "is not empty" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    existing = tmp_path / "there.sqlite"
    existing.write_bytes(b"mine")
    assert "exists; kb db copy writes a new file" in kb(night, "db", "copy", "--to", str(existing), code=2).stderr
    assert existing.read_bytes() == b"mine"
    assert "names the store being copied" in kb(night, "db", "copy", "--to", str(night / ".kb" / "kb.sqlite"),
                                                code=2).stderr
    assert "expected a postgresql:// URL" in kb(night, "db", "copy", "--to", "postgres:/x y", code=2).stderr
    # a libpq keyword string made a file so named, and printed it with its password
    said = kb(night, "db", "copy", "--to", "host=db password=s3cret", code=2).stderr
    assert "expected a postgresql:// URL" in said and "s3cret" not in said and not list(night.glob("host=*"))
    for other in ("mysql://x/y", "sqlite:///tmp/x.sqlite"):      # once read as a folder path ("mysql:/x")
        refused = kb(night, "db", "copy", "--to", other, code=2).stderr
        assert "a postgresql:// URL or a file path" in refused and "not a folder" not in refused


@pytest.mark.parametrize("to", ["postgresql", "sqlite"])
def test_a_copy_that_fails_leaves_nothing(night: Path, tmp_path: Path, pg_fresh_url: str, monkeypatch, to: str
                                          ) -> None:
    """A failure half-way (here: after the flags) writes nothing: the database stays empty, no file appears;
    the next copy succeeds."""
    import kb.store.copy as copy
    target = pg_fresh_url if to == "postgresql" else str(tmp_path / "copy.sqlite")
    cls = copy._PgTarget if to == "postgresql" else copy._SqliteTarget
    real = cls.insert

    def insert(self, table, cols, rows):
        real(self, table, cols, rows)
        if table == "flags":
            raise StoreError("the disk is gone")
    monkeypatch.setattr(cls, "insert", insert)
    with Store.open(night / ".kb" / "kb.sqlite", readonly=True) as source:
        with pytest.raises(StoreError, match="the disk is gone"):
            copy_store(source, target)
        if to == "postgresql":
            with Store.open(target, readonly=True) as t:
                assert not any(t.counts().values())
        else:
            assert not os.listdir(tmp_path)
        monkeypatch.undo()
        report = copy_store(source, target)
        assert report.counts == source.counts() and report.documents > 200


def test_a_copy_into_a_folder_that_is_not_there_is_refused(night: Path, tmp_path: Path) -> None:
    refused = kb(night, "db", "copy", "--to", str(tmp_path / "no-such-folder" / "kb.sqlite"), code=1).stderr
    assert f"{tmp_path / 'no-such-folder'} is not a folder" in refused and len(refused.strip().splitlines()) == 1
    assert not (tmp_path / "no-such-folder").exists()


def test_a_copy_is_never_written_among_the_team_s_files(night: Path) -> None:
    """kb db backup refused them; kb db copy wrote a SQLite file into inbox/, which the next night read."""
    for where in (night / "inbox" / "jay" / "copy.md", night / "organized" / "x.sqlite", night / "kb.toml"):
        before = where.read_bytes() if where.exists() else None
        result = kb(night, "db", "copy", "--to", str(where), code=2)
        assert "is the team's file; kb never writes there" in result.stderr
        assert (where.read_bytes() if where.exists() else None) == before
