"""Work queue: one case per fixture under tests/fixtures/workspace/queue/."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.workspace.queue import parse_queue

CASES = sorted((Path(__file__).parents[1] / "fixtures" / "workspace" / "queue").glob("*.md"))


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_queue_fixture(md, load_case, check):
    text, expect = load_case(md)
    path = expect.pop("path")
    queue = parse_queue(text, path)
    assert queue.path == path
    check(queue, expect)
