"""Helpers for the data-driven workspace tests.

Each case is a Markdown file under ``tests/fixtures/workspace/<kind>/`` with a sidecar
``<name>.expect.json`` stating what the parser must return. An expectation is a partial
description of the record: keys that are present are checked, others are not, except
that lists are compared whole. Two suffixes help: ``<field>__has`` lists substrings
that must occur (in a string, or in some element of a list of strings) and
``<field>__len`` gives a list's length. Keys the test itself consumes (``path``,
``topic``) are removed before checking.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import FIXTURES

FIXTURES = FIXTURES / "workspace"


def _get(actual: Any, key: str, where: str) -> Any:
    if isinstance(actual, dict):
        assert key in actual, f"{where}: no field {key!r}"
        return actual[key]
    assert hasattr(actual, key), f"{where}: no field {key!r} on {type(actual).__name__}"
    return getattr(actual, key)


def check(actual: Any, expected: Any, where: str = "$") -> None:
    """Assert that ``actual`` (records, dicts, lists, scalars) matches ``expected``."""
    if isinstance(expected, dict):
        for key, want in expected.items():
            if key.endswith("__has"):
                got = _get(actual, key[: -len("__has")], where)
                for s in want:
                    hay = got if isinstance(got, str) else [str(x) for x in got]
                    ok = s in hay if isinstance(hay, str) else any(s in h for h in hay)
                    assert ok, f"{where}.{key}: {s!r} not in {got!r}"
            elif key.endswith("__len"):
                got = _get(actual, key[: -len("__len")], where)
                assert len(got) == want, f"{where}.{key}: {len(got)} != {want} in {got!r}"
            else:
                check(_get(actual, key, where), want, f"{where}.{key}")
    elif isinstance(expected, list):
        got = list(actual)
        assert len(got) == len(expected), f"{where}: {len(got)} items != {len(expected)}: {got!r}"
        for i, (a, e) in enumerate(zip(got, expected)):
            check(a, e, f"{where}[{i}]")
    elif isinstance(expected, float):
        assert actual == pytest.approx(expected), f"{where}: {actual!r} != {expected!r}"
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def load(md: Path) -> tuple[str, dict]:
    """The fixture's text (bytes decoded as UTF-8, bad bytes replaced; CRLF kept) and expectation."""
    text = md.read_bytes().decode("utf-8", errors="replace")
    expect = json.loads(md.with_name(md.stem + ".expect.json").read_text(encoding="utf-8"))
    return text, expect


# Fixtures rather than imports: test modules need no sys.path tricks under any import mode.
@pytest.fixture(name="check")
def check_fixture():
    return check


@pytest.fixture(name="load_case")
def load_case_fixture():
    return load
