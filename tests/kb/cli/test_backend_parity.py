"""The same commands give the same outputs on both backends: the sample day after its nightly, read
through every query command from a SQLite store and from a PostgreSQL one."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app
from tests.support.backends import Backend
from tests.support.paths import SAMPLE

DAY = "2026-10-08"
QUERIES = [
    ["query", "papers"], ["query", "papers", "--format", "json"], ["query", "papers", "--since", "2026-10-07",
                                                                   "--until", "2026-10-08", "--format", "csv"],
    ["query", "papers", "--source", "hf", "--format", "ids"], ["query", "papers", "--topic", "kv-cache",
                                                                "--relevance", "primary", "--format", "json"],
    ["query", "anchored"], ["query", "anchored", "--section", "2.3", "--format", "json"],
    ["query", "anchored", "--since", "2026-10-01", "--format", "csv"], ["query", "anchored", "--format", "ids"],
    ["search", "推理"], ["search", "推理框架", "--format", "json"], ["search", "prefill decode", "--format", "json"],
    ["search", "KV cache", "--limit", "5"], ["search", "vLLM", "--format", "json"], ["search", "昇腾 调度"],
    ["search", "arXiv:2609.33252"], ["search", "nothing-matches-this"],
    ["show", "2609.33252"], ["show", "2609.33252", "--format", "json"], ["show", "2610.03430", "--format", "json"],
    ["show", "2607.09701", "--format", "json"],
    ["flags"], ["flags", "--format", "json"], ["flags", "--open", "--rule", "unsourced-claim"], ["flags", "show", "1"],
    ["audit", "--format", "json"], ["sources", "status", "--format", "json"], ["explain", "2609.33252"],
]


def kb(home: Path, *args: str):
    result = CliRunner().invoke(app, ["--home", str(home), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.stdout


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> dict[str, Path]:
    """The sample after its offline nightly, once in a SQLite store and once in a PostgreSQL database."""
    from tests.support.backends import make_backend
    out = {}
    for name in ("sqlite", "postgresql"):
        backend: Backend = make_backend(request, name)
        ws = tmp_path_factory.mktemp(name) / "ws"
        shutil.copytree(SAMPLE, ws, ignore=shutil.ignore_patterns(".kb", "briefings"))
        kb(backend.use(ws), "nightly", "--date", DAY, "--offline", "--quiet")
        out[name] = ws
    return out


@pytest.mark.parametrize("args", QUERIES, ids=[" ".join(a) for a in QUERIES])
def test_a_read_command_prints_the_same_on_both_backends(nights: dict[str, Path], args: list[str]) -> None:
    assert kb(nights["postgresql"], *args) == kb(nights["sqlite"], *args)


def test_the_comparison_is_not_of_empty_outputs(nights: dict[str, Path]) -> None:
    found = {" ".join(a): kb(nights["sqlite"], *a) for a in QUERIES}
    assert len(json.loads(found["search 推理框架 --format json"])) == 1
    assert len(json.loads(found["search prefill decode --format json"])) >= 5
    assert len(json.loads(found["query papers --format json"])) >= 200
    assert json.loads(found["show 2609.33252 --format json"])["anchors"]
    assert "nothing-matches-this" not in found["search nothing-matches-this"]


def test_db_status_counts_the_same_rows(nights: dict[str, Path]) -> None:
    lite, pg = (json.loads(kb(nights[n], "db", "status", "--format", "json")) for n in ("sqlite", "postgresql"))
    assert (lite["backend"], pg["backend"]) == ("sqlite", "postgresql")
    assert pg["path"].startswith("postgresql://") and ":***@" in pg["path"]   # the password is never printed
    assert pg["counts"] == lite["counts"] and pg["migrations"] == lite["migrations"]
    assert lite["counts"]["papers"] >= 200


def test_the_briefings_are_the_same_bytes(nights: dict[str, Path]) -> None:
    for name in (f"{DAY}-inference.md", f"{DAY}-inference.en.md"):
        assert (nights["postgresql"] / "briefings" / name).read_bytes() == (nights["sqlite"] / "briefings" /
                                                                             name).read_bytes()
