"""Paper cards: one case per fixture under tests/fixtures/workspace/cards/."""
from __future__ import annotations

import pytest

from pipeline.workspace.cards import card_file_id, parse_card
from tests.support.paths import FIXTURES

CASES = sorted((FIXTURES / "workspace" / "cards").glob("*.md"))


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_card_fixture(md, load_case, check):
    text, expect = load_case(md)
    card = parse_card(text, expect.pop("path"))
    check(card, expect)


@pytest.mark.parametrize("name, expected", [
    ("378-2607-09701.md", (378, "2607.09701")),
    ("001-0704-0001.md", (1, "0704.0001")),
    ("378-2607-09701v2.md", (378, "2607.09701")),
    ("378-2613-09701.md", (378, None)),       # month 13: the name fits, the ID does not
    ("slimwise.md", (None, None)),
    ("202610081230-2610-09701.md", (202610081230, "2610.09701")),   # numbered by a timestamp: 64-bit
    ("99999999999999999999-2610-09701.md", (None, None)),          # no store column holds that number
])
def test_card_file_id(name, expected):
    assert card_file_id(name) == expected


def test_a_file_name_of_the_card_form_without_a_valid_id_is_a_problem():
    card = parse_card("---\narxiv_id: 2607.09701\n---\n# SlimWise\n", "organized/paper_cards/378-2613-09701.md")
    assert (card.number, card.file_id, card.arxiv_id) == (378, None, "2607.09701")
    assert card.problems == ["file name '378-2613-09701.md' does not spell a valid arXiv ID"]


@pytest.mark.parametrize("written, created, problem", [
    ("2026-10-08T10:00", "2026-10-08T10:00", None),
    ("2026-10-08 10:00", "2026-10-08T10:00", None),
    ("2026-02-30T10:00", None, "created '2026-02-30T10:00' is no such date-time: the card's date is unknown"),
    ("2026-02-30", None, "created '2026-02-30' is no such date: the card's date is unknown"),
    ("2026-10-08T25:00", None, "created '2026-10-08T25:00' is no such date-time: the card's date is unknown"),
    ("2026-13-01", None, "created '2026-13-01' is no such date: the card's date is unknown"),
    ("2026/10/08", "2026/10/08", "created '2026/10/08' is not an ISO date or date-time"),
])
def test_an_impossible_created_date_is_a_problem_and_unknown(written, created, problem):
    card = parse_card(f"---\narxiv_id: 2610.09560\ncreated: {written}\n---\n# X\n",
                      "organized/paper_cards/393-2610-09560.md")
    assert card.created == created
    assert card.problems == ([problem] if problem else [])
