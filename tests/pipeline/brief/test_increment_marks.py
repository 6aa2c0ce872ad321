"""An increment's ⚠ lines: each open flag about it, by number (``write.briefing_data``, the templates)."""
from __future__ import annotations

import json

import pytest

from pipeline.brief.write import _ids_in_doubt, render
from tests.pipeline.brief.conftest import brief_json


def test_a_date_inconsistency_of_a_file_or_an_entry_of_the_item_is_in_doubt() -> None:
    """A card named with last month's prefix is its file; an ID from a later month, the entry citing it
    ("2612.00688 @ path#2", ``verify.date_inconsistencies``)."""
    inc = {"title": "SpillKV: Spilling KV to NVMe", "sources": [
        {"kind": "entry", "path": "inbox/jay/2026-11-06T1330-jay.md", "entry": 2},
        {"kind": "card", "path": "organized/paper_cards/480-2610-05555.md", "entry": None}]}
    entry_flag = {"kind": "date-inconsistency", "status": "open", "label": "#512",
                  "subject": "2612.00688 @ inbox/jay/2026-11-06T1330-jay.md#2",
                  "evidence": {"id": "2612.00688", "cited_in": "inbox/jay/2026-11-06T1330-jay.md#2"}}
    card_flag = {"kind": "date-inconsistency", "status": "open", "label": "#513",
                 "subject": "organized/paper_cards/480-2610-05555.md", "evidence": {}}
    other = dict(entry_flag, subject="2612.00688 @ inbox/tom/x.md#1", evidence={"cited_in": "inbox/tom/x.md#1"})
    assert _ids_in_doubt(entry_flag, inc) and _ids_in_doubt(card_flag, inc) and not _ids_in_doubt(other, inc)
    assert _ids_in_doubt({"kind": "id-conflict", "subject": inc["title"]}, inc)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unsourced_claim_is_numbered_on_its_increment_with_or_without_a_mark(sample_day, lang: str) -> None:
    """A figure from a source below ⭐⭐⭐⭐ with no ⚠/待核实 is flagged too: its number was shown only beside marks."""
    data = brief_json(sample_day)
    inc = data["increments"][0]
    inc.update(markers=["待核实"], unverified=["#77"])
    assert "#77" in render(json.loads(json.dumps(data)), lang, "md", sample_day)
    inc.update(markers=[])
    assert "#77" in render(json.loads(json.dumps(data)), lang, "md", sample_day)


@pytest.mark.parametrize(("lang", "said"), [("zh", "HF 票数前后对不上（#88）"), ("en", "its HF upvote counts disagree (#88)")])
def test_upvotes_that_disagree_are_not_called_figures(sample_day, lang: str, said: str) -> None:
    """The day-26 reader: "⚠ 各来源数字不一致（#499）" under a paper sent a reader looking for conflicting results; the only
    conflict was its HF upvotes."""
    data = brief_json(sample_day)
    inc = data["increments"][0]
    inc.update(disputed=[], upvotes_differ=["#88"])
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    assert said in text and "各来源数字不一致（#88）" not in text and "different figures (#88)" not in text
