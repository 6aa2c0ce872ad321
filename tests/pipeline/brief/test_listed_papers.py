"""The window's papers the doc has no use for, kept as rows (pipeline/brief/pool.py): a paper judged ``none`` that
nothing of the window reaches is no item, but still counted; one the window's writing reaches by its ID, its
title or its name is the item it always was, where it always stood among the items."""
from __future__ import annotations

from kb.records import PaperRecord, QueueItem, Sighting
from kb.store import Store
from kb.store.cards import save_queue
from kb.store.notes import save_note
from kb.store.papers import add_sightings, save_papers
from pipeline.brief.collect import collect_candidates
from pipeline.brief.model import Window
from pipeline.workspace.notes import parse_note

WINDOW = Window("2026-10-12T23:59", "2026-10-13T23:59", "2026-10-12")   # the listing of the 13th
PAPERS = {
    "2610.15401": "QuietNet: Sparse Operators for Weather Forecasting",                 # nothing reaches it
    "2610.15426": "PredRoute: Routing LLM Requests by Predicted Decode Work",          # the team's subject
    "2610.15433": "On Variational Inference via Conservative Penalties",                # an entry carries its title
    "2610.15462": "SurgeFormer: Neural Operators for Coastal Storm Surge Forecasting",  # the queue writes its ID
    "2610.15470": "TideMix: Mixing Tidal Harmonics at Scale",                           # cited beside a subject
    "2610.15480": "GaleNet: Wind Fields from Sparse Buoys",                             # nothing reaches it
}
NONE = {"2610.15401", "2610.15433", "2610.15462", "2610.15470", "2610.15480"}
NOTE = ("## 1. PredRoute (2610.15426)\n\n- Routes by predicted decode work; TideMix (2610.15470) is unrelated.\n\n"
        "## 2. On Variational Inference via Conservative Penalties\n\n- Worth a look for the penalty trick.\n")


def _day(store: Store) -> None:
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord(i, 1, title=t) for i, t in PAPERS.items()], "arxiv")
        add_sightings(tx, [Sighting(i, "arxiv", "2026-10-13", "new", 1) for i in PAPERS]
                      + [Sighting("2610.15401", "hf", "2026-10-13", "featured", 1, upvotes=3)])
        save_note(tx, parse_note(NOTE, "inbox/tom/2026-10-13T2130-tom-routing.md"))
        save_queue(tx, "organized/queue/work-queue.md", [QueueItem(3, "2610.15462", title=PAPERS["2610.15426"])], "2026-10-13")


def _shape(cands) -> list[tuple]:
    return [(c.key, c.arxiv_ids, c.titles, [s.key for s in c.sources], c.miscited) for c in cands]


def test_only_papers_nothing_reaches_are_kept_as_rows_and_the_items_are_those_of_every_paper_judged(
        store: Store) -> None:
    _day(store)
    every = collect_candidates(store, WINDOW, author_credibility={}, source_credibility={})
    asked: list[set[str]] = []

    def settled(ids: set[str]) -> set[str]:
        asked.append(ids)
        return ids & NONE
    kept = collect_candidates(store, WINDOW, author_credibility={}, source_credibility={}, settled=settled)
    assert asked == [set(PAPERS)]   # one question for the whole window
    assert sorted(kept.listed) == ["2610.15401", "2610.15480"]
    assert kept.listed["2610.15401"].sources == {"arxiv", "hf"}
    assert kept.listed["2610.15401"].title == PAPERS["2610.15401"]
    # the rest: the entry's title merged into its paper, the queue's ID beside another name, the ID cited beside
    # the subject — each the item it is when every paper is one, in the same order
    quiet = {"id:2610.15401", "id:2610.15480"}
    assert _shape(kept.candidates) == [s for s in _shape(every.candidates) if s[0] not in quiet]
    assert "2610.15433" in next(c for c in kept.candidates if c.titles[0].startswith("On Variational")).arxiv_ids


def test_without_a_judgement_every_paper_is_an_item(store: Store) -> None:
    _day(store)
    got = collect_candidates(store, WINDOW, author_credibility={}, source_credibility={}, settled=lambda ids: set())
    assert not got.listed and {i for c in got.candidates for i in c.arxiv_ids} >= set(PAPERS)


def test_a_listed_paper_whose_title_writes_a_name_beside_an_id_is_an_item(store: Store) -> None:
    """A title is read for names written beside IDs as a note's line is ("… Beyond FourCastNet (2202.11214)"): a note
    writing FourCastNet with a mistyped ID is then one item with the title's ID, as when every paper is one."""
    with store.transaction() as tx:
        save_papers(tx, [PaperRecord("2610.15401", 1, title="QuietNet: Sparse Weather Operators Beyond FourCastNet "
                                     "(2202.11214) at Scale"),
                         PaperRecord("2202.11214", 1, title="FourCastNet: A Global Data-driven Weather Model")], "arxiv")
        add_sightings(tx, [Sighting("2610.15401", "arxiv", "2026-10-13", "new", 1)])
        save_note(tx, parse_note("## 1. FourCastNet（2202.11241）\n\n- The baseline everyone compares with.\n",
                                 "inbox/tom/2026-10-13T2130-tom-weather.md"))
    every = collect_candidates(store, WINDOW, author_credibility={}, source_credibility={})
    kept = collect_candidates(store, WINDOW, author_credibility={}, source_credibility={},
                              settled=lambda ids: ids & {"2610.15401"})
    assert not kept.listed and _shape(kept.candidates) == _shape(every.candidates)
    assert ["2202.11241", "2202.11214"] in [c.arxiv_ids for c in kept.candidates]
