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


def test_an_item_led_by_arxiv_and_a_space_or_naming_its_id_further_on():
    q = parse_queue("# Work queue\n\n1. arXiv: 2610.10507 RECAST — 0.5/5 — agent\n"
                    "2. RECAST follow-up (2610.10091v2) — 2/5 — agent\n", "organized/queue/work-queue.md")
    assert [(i.rank, i.arxiv_id, i.url, i.title, i.score, i.note) for i in q.items] == [
        (1, "2610.10507", None, "RECAST", 0.5, "agent"),
        (2, "2610.10091", None, "RECAST follow-up (2610.10091v2)", 2.0, "agent")]
    assert q.problems == []
