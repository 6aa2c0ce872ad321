"""Coined names (``kb.names``): which words a title or a note writes are a system's name."""
from __future__ import annotations

import pytest

from kb.names import coined, coined_names, title_name


@pytest.mark.parametrize("name", ["FlashPD", "DeepEP-v2", "KVQuilt", "DISCO", "Qwen3", "Mamba2", "Seq2seq"])
def test_names_with_an_inner_capital_a_digit_or_all_capitals_are_coined(name: str) -> None:
    assert coined(name)


@pytest.mark.parametrize("name", ["Serving", "Position", "PD", "TP", "EP", "H2", "TODO", "GPU"])
def test_plain_words_and_two_letter_abbreviations_are_not(name: str) -> None:
    assert not coined(name)


@pytest.mark.parametrize(("title", "name"), [
    ("FlashPD: Fused Prefill-Decode Attention for Disaggregated Serving", "FlashPD"),
    ("Qwen3：技术报告", "Qwen3"),
    ("Position: Inference Scaling Is Not Enough", None),   # a title form, not a system
    ("Survey: KV Cache Compression", None),
    ("Efficient Serving: a study", None),
])
def test_the_name_a_title_starts_with(title: str, name: str | None) -> None:
    assert title_name(title) == name


def test_the_coined_names_a_text_writes_and_where() -> None:
    text = "比 LoftKV 论文里报的 1.1 s 慢，H200 上 Tessera 还没测"
    found = coined_names(text)
    assert [m[0] for m in found] == ["LoftKV", "H200"]
    assert text[found[0].start():].startswith("LoftKV") and coined_names("周四下午到今早新冒出来的") == []
