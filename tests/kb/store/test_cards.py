"""The cards' and the queue's reads: which mismatched cards belong to a briefing's window; the queue of a day."""
from __future__ import annotations

from kb.records import Card, QueueItem
from kb.store import Store
from kb.store.cards import card_mismatches, forget_queue, mentions_as_of, queue, save_card, save_queue
from kb.store.notes import mentions_until

QUEUE = "organized/queue/work-queue.md"


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


def test_the_queue_of_a_day_is_the_one_read_last_by_it(store: Store) -> None:
    """The team re-ranks the queue on the 9th and removes its file on the 11th: the 8th rebuilt later lists
    the 8th's queue, the 10th the 9th's, the 11th none; a day before kb's first reading, the queue as it is
    now (kb kept nothing of it). A second reading the same day replaces the first."""
    a, b, c = (QueueItem(1, "2609.31877", title="PrefixFlow"), QueueItem(2, "2609.28846", title="SpecRoute"),
               QueueItem(1, "2610.11842", title="FlashPD"))
    with store.transaction() as tx:
        save_queue(tx, QUEUE, [a, b], "2026-10-08")
        save_queue(tx, QUEUE, [c], "2026-10-09")
        save_queue(tx, QUEUE, [c, QueueItem(2, "2609.31877", title="PrefixFlow")], "2026-10-09")

    def titles(day: str | None) -> list[str]:
        return [q.title for q in queue(store, day)]
    assert titles("2026-10-08") == ["PrefixFlow", "SpecRoute"]
    assert titles("2026-10-10") == titles(None) == titles("2026-10-01") == ["FlashPD", "PrefixFlow"]
    # PrefixFlow has been queued since the 8th: re-ranked on the 9th, its mention keeps the 8th
    assert "2609.31877" in mentions_until(store, "2026-10-08") and "2610.11842" not in mentions_until(
        store, "2026-10-08")
    with store.transaction() as tx:
        forget_queue(tx, QUEUE, "2026-10-11")
        forget_queue(tx, "organized/cards/x.md", "2026-10-11")    # not a queue: nothing kept
    assert titles("2026-10-11") == [] and titles("2026-10-10") == ["FlashPD", "PrefixFlow"]
    assert store.query("SELECT count(*) FROM queue_readings")[0][0] == 3


def test_a_day_s_mentions_keep_a_queued_paper_the_team_took_off_the_queue_later(store: Store) -> None:
    """LayerLink was queued on the 12th and taken off on the 14th (its mention went with the re-read): the 12th
    rebuilt later still finds it queued, between the card and the notes by path; the 14th does not."""
    with store.transaction() as tx:
        save_card(tx, Card(path="organized/paper_cards/401-2610-13590.md", arxiv_id="2610.13590"))
        save_queue(tx, QUEUE, [QueueItem(1, "2610.13590", title="LayerLink")], "2026-10-12")
        save_queue(tx, QUEUE, [QueueItem(1, None, "https://arxiv.org/abs/2610.11842v2", "FlashPD")], "2026-10-14")
    assert mentions_as_of(store, "2026-10-12")["2610.13590"] == ["organized/paper_cards/401-2610-13590.md", QUEUE]
    assert "2610.11842" not in mentions_as_of(store, "2026-10-12")
    assert mentions_as_of(store, "2026-10-14")["2610.13590"] == ["organized/paper_cards/401-2610-13590.md"]
    assert mentions_as_of(store, "2026-10-14")["2610.11842"] == [QUEUE]
