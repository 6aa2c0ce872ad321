"""Bulk readers must stream: memory stays flat however many records the file holds.

Each test writes a 20,000-record file (several MB) and checks that the peak of
traced allocations while iterating stays under a small bound. A reader that
kept its records (or its parsed tree) would need far more, so these can fail.
"""
from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from kb.records import PaperRecord
from pipeline.sources.arxiv_bulk import iter_bulk, iter_kaggle

N = 20_000
PEAK_LIMIT = 3 * 1024 * 1024  # bytes; the files themselves are ~10 MB
ABSTRACT = "A sentence that makes the record about as long as a real abstract is. " * 8


def _kaggle_file(path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for i in range(N):
            f.write(json.dumps({
                "id": f"2401.{i:05d}", "title": f"Paper {i}", "abstract": ABSTRACT,
                "authors": "A. Author and B. Author", "categories": "cs.LG cs.DC",
                "versions": [{"version": "v1", "created": "Mon, 1 Jan 2024 10:00:00 GMT"}],
                "authors_parsed": [["Author", "A.", ""], ["Author", "B.", ""]],
                "update_date": "2024-01-02", "doi": None, "journal-ref": None, "comments": None,
            }) + "\n")
    return path


def _oai_file(path: Path) -> Path:
    with path.open("w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>\n')
        for i in range(N):
            f.write(
                f'<record><header><identifier>oai:arXiv.org:2401.{i:05d}</identifier>'
                f'<datestamp>2024-01-02</datestamp></header><metadata>'
                f'<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2401.{i:05d}</id>'
                f'<created>2024-01-01</created><authors><author><keyname>Author</keyname>'
                f'<forenames>A.</forenames></author></authors><title>Paper {i}</title>'
                f'<categories>cs.LG</categories><abstract>{ABSTRACT}</abstract></arXiv>'
                f'</metadata></record>\n')
        f.write("</ListRecords></OAI-PMH>\n")
    return path


def _peak_while_consuming(make_iter) -> tuple[int, int, str]:
    """(peak traced bytes, records seen, last ID) while draining the iterator, keeping nothing."""
    count, last = 0, ""
    tracemalloc.start()
    try:
        for item in make_iter():
            if isinstance(item, PaperRecord):
                count += 1
                last = item.arxiv_id
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak, count, last


def test_kaggle_streams_in_flat_memory(tmp_path: Path) -> None:
    path = _kaggle_file(tmp_path / "snapshot.jsonl")
    with path.open("rb") as f:
        peak, count, last = _peak_while_consuming(lambda: iter_kaggle(f))
    assert (count, last) == (N, f"2401.{N - 1:05d}")
    assert peak < PEAK_LIMIT, f"peak {peak / 1e6:.1f} MB while reading {path.stat().st_size / 1e6:.1f} MB"


def test_oai_streams_in_flat_memory(tmp_path: Path) -> None:
    # Through iter_bulk, so format detection and the replayed head are covered too.
    path = _oai_file(tmp_path / "harvest.xml")
    with path.open("rb") as f:
        peak, count, last = _peak_while_consuming(lambda: iter_bulk(f))
    assert (count, last) == (N, f"2401.{N - 1:05d}")
    assert peak < PEAK_LIMIT, f"peak {peak / 1e6:.1f} MB while reading {path.stat().st_size / 1e6:.1f} MB"
