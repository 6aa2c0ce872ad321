"""The cards' reads: which mismatched cards belong to a briefing's window."""
from __future__ import annotations

from kb.records import Card
from kb.store import Store
from kb.store.cards import card_mismatches, save_card


def test_a_window_s_card_mismatches_are_its_own_cards_and_the_undated(store: Store) -> None:
    """A briefing raises the mismatch of a card written in its window (after ``since``, up to ``until``); one
    written on an earlier day was that day's item (its flag stays open; `kb audit` lists it), and an undated
    one is every window's, since nobody can tell which it belongs to. A bare date counts as its end of day."""
    cards = {"a-before.md": "2026-10-08T20:00", "b-date-before.md": "2026-10-08", "c-in.md": "2026-10-09T10:00",
             "d-date-in.md": "2026-10-09", "e-undated.md": None, "f-later.md": "2026-10-10T09:00"}
    with store.transaction() as tx:
        for i, (path, created) in enumerate(cards.items()):
            save_card(tx, Card(path=path, file_id=f"2607.0970{i}", arxiv_id=f"2610.0970{i}", created=created))
    paths = [p for p, *_ in card_mismatches(store, "2026-10-09", "2026-10-08T23:59")]
    assert paths == ["c-in.md", "d-date-in.md", "e-undated.md"]
    assert [p for p, *_ in card_mismatches(store, "2026-10-09")] == [p for p in cards if p != "f-later.md"]
