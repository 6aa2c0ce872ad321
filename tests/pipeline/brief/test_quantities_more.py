"""Quantities read since the twentieth sitting: the time a piece of a model takes to come into GPU memory (an
adapter swapped in, weights loaded) and the load imbalance of experts or ranks; each a figure a line may misquote."""
from __future__ import annotations

import pytest

from tests.pipeline.brief.test_conditions_more import _conflicts, _read


@pytest.mark.parametrize(("text", "expected"), [
    ("DockLoRA brings a rank-16 adapter into GPU memory in 3.2 ms on average.", [("load time", "3.2 ms")]),
    ("- 一个 rank-16 的 adapter 换入平均 3.2 s", [("load time", "3.2 s")]),
    ("The swap-in time of an adapter falls to 4 ms.", [("load time", "4 ms")]),
    ("LevelEP cuts expert load imbalance from 3.1x to 1.3x.", [("load imbalance", "1.3x")]),
    ("- 专家负载不均衡从 3.1× 降到 1.8×", [("load imbalance", "1.8×")]),
])
def test_a_load_time_and_a_load_imbalance_are_read(text: str, expected: list) -> None:
    assert _read(text) == expected


def test_a_load_time_off_by_a_thousand_is_a_conflict() -> None:
    """Day 33's DockLoRA: the abstract's 3.2 ms quoted as 3.2 s."""
    abstract = "DockLoRA brings a rank-16 adapter into GPU memory in 3.2 ms on average."
    assert _conflicts("DockLoRA", abstract=abstract, note="- 摘要：一个 rank-16 的 adapter 换入平均 3.2 s") == [
        ("load time", {"3.2 ms": ["abstract"], "3.2 s": ["note"]})]


def test_a_load_time_is_in_seconds_and_a_swap_in_count_is_none() -> None:
    """A load time is a time: "swaps in 40% fewer adapters" is no load time (nor any figure kb compares)."""
    assert _read("DockLoRA swaps in 40% fewer adapters per minute.") == []
