"""A setting written after a sentence's last value: every value's where the values are told apart otherwise ("p99 …
54% and p50 … 21% on ShareGPT"), the last value's own where it is what tells them apart ("1.9x on H100 and 2.4x on
A100", "0.19 s when … hits … and 1.36 s on a miss")."""
from __future__ import annotations

from pipeline.brief.conditions import value_conditions
from tests.pipeline.brief.test_conditions_more import WORDS, _conflicts


def _conditions(text: str, *values: str) -> list[tuple[str, ...]]:
    spans = [(text.index(v), text.index(v) + len(v)) for v in values]
    return value_conditions(text, spans, WORDS)


def test_a_closing_dataset_is_every_value_s_when_percentiles_tell_them_apart() -> None:
    text = "LumaKV cuts p99 TTFT by 54% and p50 TTFT by 21% on ShareGPT."
    assert _conditions(text, "54%", "21%") == [("p99", "ShareGPT"), ("p50", "ShareGPT")]


def test_the_closing_setting_still_tells_a_misquote() -> None:
    """ShareGPT's p50 is 21%: a line giving it the p99's 54% is flagged, under the percentile."""
    abstract = "LumaKV cuts p99 TTFT by 54% and p50 TTFT by 21% on ShareGPT."
    found = _conflicts("LumaKV", abstract=abstract, note="- 摘要：ShareGPT 上 p50 TTFT 降 54%")
    assert [q for q, _ in found] and all("p50" in q for q, _ in found), found


def test_a_setting_after_each_value_stays_each_value_s_own() -> None:
    text = "DuoKV speeds decode up by 1.9x on H100 and 2.4x on A100."
    assert _conditions(text, "1.9x", "2.4x") == [("H100",), ("A100",)]
    assert _conflicts("DuoKV", abstract=text, note="- 摘要：A100 上 decode 快 1.9×")


def test_the_last_value_s_setting_stays_its_own_when_the_first_has_none() -> None:
    """"0.19 s when the prefix hits … and 1.36 s on a miss": the miss is what sets 1.36 s apart (day 38's RungCache)."""
    text = "TTFT is 0.19 s when the prefix hits a cached state and 1.36 s on a miss."
    assert _conditions(text, "0.19 s", "1.36 s")[1] == ("miss",)
    assert "miss" not in _conditions(text, "0.19 s", "1.36 s")[0]
    assert _conflicts("RungCache", abstract="RungCache: " + text, note="- miss 的时候 TTFT 也只有 0.19 s")


def test_an_opening_setting_alone_is_no_value_s_own() -> None:
    """The chat trace opens the sentence (every value's); the miss, after the last value, stays the 1.42 s's alone."""
    text = ("On a chat trace with shared system prompts, TTFT is 0.21 s when the prefix hits a cached state and "
            "1.42 s on a miss.")
    first, last = _conditions(text, "0.21 s", "1.42 s")
    assert "miss" not in first and "miss" in last
