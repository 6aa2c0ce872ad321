"""kb's JSON caches in a workspace (``kb.cachefile``): read back when kb wrote them, never through a link or from a
FIFO, and never the cause of a failed run when they cannot be written."""
from __future__ import annotations

import logging
import os
import signal
from datetime import date
from pathlib import Path

import pytest

from kb.cachefile import read_cache, write_cache

CACHE = ".kb/cache/some.json"


def test_what_is_written_is_read_back_in_its_key_order(tmp_path: Path) -> None:
    write_cache(tmp_path, CACHE, {"b": 1, "a": [1.5, None]}, what="x", sort_keys=False)
    assert list(read_cache(tmp_path, CACHE)) == ["b", "a"] and read_cache(tmp_path, CACHE)["a"] == [1.5, None]
    write_cache(tmp_path, CACHE, {"b": 1, "a": 2}, what="x")
    assert list(read_cache(tmp_path, CACHE)) == ["a", "b"]


def test_none_damaged_or_a_value_json_cannot_hold_reads_as_none(tmp_path: Path) -> None:
    assert read_cache(tmp_path, CACHE) is None
    write_cache(tmp_path, CACHE, {"day": date(2026, 10, 8)}, what="x")   # a TOML date
    assert not (tmp_path / CACHE).exists()
    (tmp_path / CACHE).parent.mkdir(parents=True)
    (tmp_path / CACHE).write_text("{not json", encoding="utf-8")
    assert read_cache(tmp_path, CACHE) is None


def test_a_link_in_its_place_is_read_as_none_and_replaced_not_written_through(tmp_path: Path) -> None:
    note = tmp_path / "inbox" / "note.md"
    note.parent.mkdir()
    note.write_text('{"a": 1}', encoding="utf-8")   # JSON, even: a link's target is never read as the cache
    (tmp_path / CACHE).parent.mkdir(parents=True)
    (tmp_path / CACHE).symlink_to(note)
    assert read_cache(tmp_path, CACHE) is None
    write_cache(tmp_path, CACHE, {"a": 2}, what="x")
    assert note.read_text(encoding="utf-8") == '{"a": 1}' and not (tmp_path / CACHE).is_symlink()
    assert read_cache(tmp_path, CACHE) == {"a": 2}


def test_a_fifo_in_its_place_is_not_waited_on(tmp_path: Path) -> None:
    (tmp_path / CACHE).parent.mkdir(parents=True)
    os.mkfifo(tmp_path / CACHE)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("reading the cache waited on a FIFO"))
    signal.alarm(5)
    try:
        assert read_cache(tmp_path, CACHE) is None
    finally:
        signal.alarm(0)


def test_a_cache_that_cannot_be_written_is_one_info_line(tmp_path: Path, caplog) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder should be")
    with caplog.at_level(logging.INFO, logger="kb.cachefile"):
        write_cache(tmp_path, CACHE, {"a": 1}, what="the claims")
    assert [r.getMessage().split(":")[0] for r in caplog.records] == ["the claims not kept"]
