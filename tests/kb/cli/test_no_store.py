"""A workspace with no store yet (just `kb init`-ed, or its PostgreSQL database still empty): a read command
says so in one line and changes nothing; only a command that writes makes the store.

A read used to make it: on a shared workspace the store was then the reader's (0644 under umask 0022), and the
team's writer was locked out of it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.reliability.support import kb_inproc, one_error_line
from tests.support.backends import Backend
from tests.support.paths import SAMPLE

READS = [
    ("db", "status"), ("db", "check"), ("show", "arXiv:2607.09701"), ("search", "kv cache"),
    ("query", "papers"), ("query", "anchored", "--format", "ids"), ("flags",), ("flags", "show", "1"),
    ("audit",), ("explain", "2607.09701"), ("sources", "status"), ("label", "--uncertain", "3"),
    ("label", "2607.09701", "--relevance", "none"), ("brief", "--preview"), ("export", "bibtex"),
    ("anchor", "2607.09701", "--section", "2.3", "--dry-run"), ("site", "build"),
]


def _tree(root: Path) -> list[tuple[str, int]]:
    """Every path under ``root`` with its mode: what a command left behind."""
    return sorted((str(p.relative_to(root)), p.stat().st_mode) for p in root.rglob("*"))


def _pg_tables(request: pytest.FixtureRequest, backend: Backend) -> object:
    """kb's migration ledger in the backend's database (None: no table made); None on SQLite."""
    if not backend.is_pg:
        return None
    return request.getfixturevalue("pg_server").execute("SELECT to_regclass('migrations')", url=backend.url)[0][0]


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a[:2]))
def test_a_read_command_on_a_workspace_with_no_store_says_so_and_makes_none(
        workspace: Path, backend: Backend, request: pytest.FixtureRequest, args: tuple[str, ...]) -> None:
    backend.use(workspace)
    before = _tree(workspace)
    result = kb_inproc("--home", str(workspace), *args)
    assert result.returncode == 1, result.stderr
    line = one_error_line(result.stderr)
    if backend.is_pg:
        assert line.startswith("kb: error: no kb store in ") and " yet; run `kb nightly` to make it" in line, line
    else:
        assert line == (f"kb: error: no store yet at {workspace / '.kb' / 'kb.sqlite'}; "
                        "run `kb nightly` (or `kb ingest …`) to make it")
    assert _tree(workspace) == before                 # no kb.sqlite, no -wal or -shm, no folder
    assert _pg_tables(request, backend) is None       # no migration run in the empty database


def test_a_command_that_writes_still_makes_the_store(workspace: Path, backend: Backend,
                                                     request: pytest.FixtureRequest) -> None:
    backend.use(workspace)
    assert kb_inproc("--home", str(workspace), "db", "status").returncode == 1
    ingest = kb_inproc("--home", str(workspace), "ingest", "workspace")
    assert ingest.returncode == 0, ingest.stderr
    assert (workspace / ".kb" / "kb.sqlite").is_file() != backend.is_pg
    assert (_pg_tables(request, backend) is not None) == backend.is_pg
    status = kb_inproc("--home", str(workspace), "db", "status")
    assert status.returncode == 0 and "schema: " in status.stdout, status.stderr


@pytest.mark.parametrize("method", ["learned", "hints"])
def test_kb_eval_sections_measures_the_doc_alone_when_there_is_no_store_yet(
        workspace: Path, backend: Backend, request: pytest.FixtureRequest, method: str) -> None:
    """It reads the store for the anchored papers' titles when there is one; none is made for it, nor its
    folder (``--method hints`` reads the taxonomy: no ``.kb/cache/taxonomy.json`` made by a reader either)."""
    backend.use(workspace)
    shutil.copy(SAMPLE / "organized" / "knowledge" / "inference.md", workspace / "organized" / "knowledge")
    before = _tree(workspace)
    result = kb_inproc("--home", str(workspace), "eval", "sections", "inference", "--method", method)
    assert result.returncode == 0, result.stderr
    assert "leave-one-out top-1" in result.stdout
    assert _tree(workspace) == before
    assert _pg_tables(request, backend) is None
