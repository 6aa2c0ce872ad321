"""Data-driven parser tests: every fixture in tests/fixtures/sources/ states its expectation.

A fixture ``NAME`` is tested when ``NAME.expect.json`` sits beside it. Keys:

* ``parser``: one parser name or a list (each is run); see ``PARSERS``;
* ``kwargs``: keyword arguments, each parser takes the ones it knows;
* ``format``: what ``detect_format`` must say (``"error:TEXT"``: must raise with TEXT);
* ``raises``: the parser must raise ``ParseError`` whose message contains this;
* counts (``papers``, ``sightings``, ``posts``, ``problems``), lists (``ids``,
  ``versions``, ``kinds``, ``seen_on``, ``keys``, ``post_arxiv_ids``,
  ``unknown_ids``, ``problem_contains``), ``empty_day``, ``total_results``;
* ``checks``: ``[path, value]`` pairs, path like ``papers.0.authors``.
"""
from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest

from kb.errors import ParseError
from kb.records import PaperRecord, ParseResult
from pipeline.sources.arxiv_api import parse_api_response
from pipeline.sources.arxiv_bulk import iter_bulk
from pipeline.sources.arxiv_listing import parse_listing
from pipeline.sources.blogs import parse_feed
from pipeline.sources.detect import detect_format
from pipeline.sources.hf_daily import parse_daily_papers
from pipeline.sources.xmlsafe import parse_xml
from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "sources"


def _bulk(data: bytes, **_: object) -> ParseResult:
    result = ParseResult()
    for item in iter_bulk(io.BytesIO(data)):
        (result.papers if isinstance(item, PaperRecord) else result.problems).append(item)
    return result


PARSERS = {
    "listing": lambda data, **kw: parse_listing(data),
    "api": lambda data, **kw: parse_api_response(data),
    "hf": lambda data, featured_date="2026-01-01", **kw: parse_daily_papers(data, featured_date=featured_date),
    "feed": lambda data, feed="feed", **kw: parse_feed(data, feed=feed),
    "bulk": _bulk,
    "xml": lambda data, **kw: parse_xml(data),
}


def _cases():
    for expect_path in sorted(FIXTURES.glob("*.expect.json")):
        expect = json.loads(expect_path.read_text(encoding="utf-8"))
        data_path = expect_path.with_name(expect_path.name.removesuffix(".expect.json"))
        parsers = expect["parser"] if isinstance(expect["parser"], list) else [expect["parser"]]
        for parser in parsers:
            yield pytest.param(data_path, parser, expect, id=f"{data_path.name}-{parser}")


def _get(obj: object, path: str) -> object:
    for part in path.split("."):
        obj = obj[int(part)] if part.isdigit() else getattr(obj, part)
    return obj


def _plain(value: object) -> object:
    """Dataclasses and tuples as JSON would show them, so expectations can be JSON."""
    if dataclasses.is_dataclass(value):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("path, parser, expect", list(_cases()))
def test_fixture(path: Path, parser: str, expect: dict) -> None:
    data = path.read_bytes()
    run = PARSERS[parser]
    if "raises" in expect:
        with pytest.raises(ParseError, match=expect["raises"]):
            run(data, **expect.get("kwargs", {}))
        return
    result = run(data, **expect.get("kwargs", {}))
    for key in ("papers", "sightings", "posts", "problems"):
        if key in expect:
            assert len(getattr(result, key)) == expect[key], (key, getattr(result, key))
    lists = {
        "ids": [p.arxiv_id for p in result.papers],
        "versions": [p.version for p in result.papers],
        "kinds": [s.kind for s in result.sightings],
        "seen_on": [s.seen_on for s in result.sightings],
        "keys": [p.key for p in result.posts],
        "post_arxiv_ids": [p.arxiv_ids for p in result.posts],
        "unknown_ids": result.unknown_ids,
    }
    for key, actual in lists.items():
        if key in expect:
            assert actual == expect[key], key
    for key in ("empty_day", "total_results"):
        if key in expect:
            assert getattr(result, key) == expect[key], key
    for needle in expect.get("problem_contains", []):
        assert any(needle in p for p in result.problems), (needle, result.problems)
    for path_, value in expect.get("checks", []):
        assert _plain(_get(result, path_)) == value, path_


@pytest.mark.parametrize("expect_path", sorted(FIXTURES.glob("*.expect.json")), ids=lambda p: p.name)
def test_fixture_format(expect_path: Path) -> None:
    expect = json.loads(expect_path.read_text(encoding="utf-8"))
    if "format" not in expect:
        pytest.skip("no format expectation")
    data = expect_path.with_name(expect_path.name.removesuffix(".expect.json")).read_bytes()
    if expect["format"].startswith("error:"):
        with pytest.raises(ParseError, match=expect["format"].removeprefix("error:")):
            detect_format(data)
    else:
        assert detect_format(data) == expect["format"]


def test_every_fixture_has_an_expectation() -> None:
    data_files = {p.name for p in FIXTURES.iterdir() if not p.name.endswith(".expect.json")}
    expected = {p.name.removesuffix(".expect.json") for p in FIXTURES.glob("*.expect.json")}
    assert data_files == expected
