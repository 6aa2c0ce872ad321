"""A backfill merges the index segments it writes, so that no later night pays for them.

With FTS5's automerge off (m009) the first level to reach 16 segments is merged whole inside the
next insert, whatever that insert's size: a night's 2,000 papers once took 2.3 s to index on a
freshly backfilled store of 200k papers, 0.2 s once the backfill had merged its own segments.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app


def _kaggle(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({
                "id": f"2401.{i:05d}", "title": f"Paper {i}: serving KV caches", "categories": "cs.DC",
                "abstract": f"We study prefill and decode scheduling number {i}. " * 3,
                "authors": "A. Author and B. Author", "authors_parsed": [["Author", "A.", ""], ["Author", "B.", ""]],
                "versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 10:00:00 GMT"}], "update_date": "2024-01-01",
            }) + "\n")
    return path


def _segments(ws: Path) -> int:
    db = sqlite3.connect(ws / ".kb" / "kb.sqlite")
    try:
        return db.execute("SELECT count(DISTINCT segid) FROM search_index_idx").fetchone()[0]
    finally:
        db.close()


def test_a_backfill_of_many_batches_leaves_few_index_segments(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    runner = CliRunner()
    assert runner.invoke(app, ["init", str(ws)]).exit_code == 0
    data = _kaggle(tmp_path / "arxiv-metadata.jsonl", 600)
    result = runner.invoke(app, ["--home", str(ws), "--quiet", "ingest", "arxiv-bulk", str(data), "--batch", "20"])
    assert result.exit_code == 0, result.output
    # 30 transactions wrote at least 30 segments; FTS5's 'merge' leaves fewer than 4 per level
    assert _segments(ws) <= 6
