"""Work queue: one case per fixture under tests/fixtures/workspace/queue/."""
from __future__ import annotations

import pytest

from pipeline.workspace.queue import parse_queue
from tests.support.paths import FIXTURES

CASES = sorted((FIXTURES / "workspace" / "queue").glob("*.md"))


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_queue_fixture(md, load_case, check):
    text, expect = load_case(md)
    path = expect.pop("path")
    queue = parse_queue(text, path)
    assert queue.path == path
    check(queue, expect)
