"""Collect the window's items from the store and merge them into candidates.

An item belongs to the window by its own date — a note's timestamp, a card's
creation, a listing's announcement, an HF featured date, a post's date — never by
when kb ingested it, so a past day can be rebuilt from recordings.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, tzinfo

from kb.arxiv_id import find_impossible_ids, find_short_ids, parse_arxiv_id
from kb.citations import entry_papers, find_cited_ids
from kb.names import title_name
from kb.records import Point
from kb.store import Store
from kb.store.briefings import previous_date
from kb.store.cards import CardView, QueueView, cards, queue
from kb.store.notes import EntryView, NoteView, entries_of_notes, notes_between
from kb.store.papers import SightingView, existing_ids, paper_titles, papers_named, sightings_between
from kb.store.posts import PostView, earlier_texts, posts_published_between
from kb.text import clean_heading, find_markers, normalize_url
from pipeline.brief.by_paper import headless_subjects, marks_by_paper, marks_left, rows_by_paper
from pipeline.brief.entities import NameIndex, name_id_pairs
from pipeline.brief.model import FETCHED, Candidate, SourceRef, Window
from pipeline.brief.pool import Listed, Pool, add
from pipeline.brief.post_subject import headed_with_its_paper, post_is_about

QUEUE_PATH = "organized/queue/work-queue.md"
_WITHDRAWN = re.compile(r"\b(?:has been|is|was) withdrawn\b", re.I)


def compute_window(store: Store, topic: str, day: date, cutoff: str) -> Window:
    """From the previous briefing's cut-off (else one day back) to ``day``'s cut-off."""
    previous = previous_date(store, topic, day.isoformat())
    start = previous or (day - timedelta(days=1)).isoformat()
    return Window(f"{start}T{cutoff}", f"{day.isoformat()}T{cutoff}", previous)


def _cred(value: int | None, default: int) -> int:
    return value if isinstance(value, int) and 1 <= value <= 5 else default


def local_stamp(stamp: str | None, tz: tzinfo | None) -> str | None:
    """A post's UTC ``YYYY-MM-DDTHH:MM`` in the workspace's time zone (a bare date stays as written)."""
    if not stamp or "T" not in stamp or tz is None:
        return stamp
    try:
        utc = datetime.fromisoformat(stamp[:16]).replace(tzinfo=UTC)
    except ValueError:
        return stamp
    return utc.astimezone(tz).strftime("%Y-%m-%dT%H:%M")


@dataclass
class Collected:
    """The window's items (``candidates``), the papers kept as rows (``pool.Listed``, by arXiv ID), and the names of
    papers that are no item of the day written beside another known paper's ID (``Pool.miscited_elsewhere``)."""

    candidates: list[Candidate]
    listed: dict[str, Listed] = field(default_factory=dict)
    miscited_elsewhere: dict[str, dict[str, tuple[str, list[str]]]] = field(default_factory=dict)


@dataclass
class _Rows:
    """What the window's items are made of, read from the store once: a day gathered again reads nothing."""

    notes: list[tuple[NoteView, list[EntryView]]]
    cards: list[CardView]
    queue: list[QueueView]
    posts: list[tuple[PostView, str | None]]   # each with its local time
    post_papers: dict[str, str]                # the title of each paper a post alone cites
    sightings: list[SightingView]
    settled: set[str]                          # listed papers the doc has no use for (``collect_candidates``)


def _read(store: Store, window: Window, tz: tzinfo | None, settled: Callable[[set[str]], set[str]] | None) -> _Rows:
    day = window.end[:10]
    notes = [n for n in notes_between(store, *_days(window)) if window.contains(n.timestamp)]
    entries = entries_of_notes(store, [n.path for n in notes])
    posts = _window_posts(store, window, tz)
    # Blog mentions come with their post, dated in local time; backfill kinds are no news.
    sightings = [r for r in sightings_between(store, *_days(window)) if window.contains(r.seen_on)]
    return _Rows([(n, entries.get(n.path, [])) for n in notes], cards(store), queue(store, day), posts,
                 paper_titles(store, {p.cites[0] for p, _ in posts if len(p.cites) == 1}, day), sightings,
                 settled({r.arxiv_id for r in sightings}) if settled is not None and sightings else set())


def collect_candidates(store: Store, window: Window, *, author_credibility: dict[str, int],
                       source_credibility: dict[str, int], tz: tzinfo | None = None,
                       compared: tuple[str, ...] = (),
                       settled: Callable[[set[str]], set[str]] | None = None) -> Collected:
    """Every item of the window, merged: note entries, cards, sightings, posts. ``compared``: the words after
    which a name written beside an ID is a baseline's (``[compared] words`` of data/briefing.toml);
    ``settled(ids)``: those of the window's listed papers the doc has no use for (judged ``none``, not
    anchored), kept as rows unless the window's items reach them (``pool``'s docstring).

    Only the window's days are read (by indexed dates), never the whole store. A note entry about a
    system written with another known paper's ID (``TreeDraft（2610.08810）``, 2610.08810 being
    *TeraTune: …*) is the named paper's: the day is gathered again with the entry moved (a rare day's
    cost), so the other paper does not carry the note's words.
    """
    rows = _read(store, window, tz, settled)
    window_ids = _window_ids(rows, window)

    def sighting(c: Candidate, r: SightingView) -> None:
        _add_sighting(c, r, source_credibility)

    def gather(moved: dict[str, str]) -> tuple[Pool, NameIndex, dict[str, str], dict]:
        pool = Pool()
        _entries(store, rows, pool, author_credibility, moved, window_ids, compared)
        _cards(rows, window, pool)
        cited = pool.ids_written() | {i for p, _ in rows.posts for i in p.cites}
        _sightings(rows, pool, source_credibility, rows.settled - cited)
        keyed = _add_posts(rows, pool, source_credibility, tz)
        pool.merge_unlinked_entries(keyed)
        # a listed paper is known to the store (the classify stage judged it), as it was when it was an item
        pool.known_ids = existing_ids(store, {i for c in pool.items for i in c.arxiv_ids}) | pool.listed.keys()
        pool.promote(dict.fromkeys(pool.titled_as_unknown() + pool.named_in_headings()), sighting)
        pool.merge_same_titles()
        pool.merge_named_entries(compared)
        names = _names(rows, pool, compared)
        if reached := pool.named_elsewhere(names):
            pool.promote(reached, sighting)
            names = _names(rows, pool, compared)
        titles = paper_titles(store, names.ids_to_title(), window.end[:10])
        named = papers_named(store, names.unexplained(titles) | names.written_only_with_unknown_ids(titles))
        titles.update((i, t) for by_id in named.values() for i, t in by_id.items())
        return pool, names, titles, named

    # an entry with no ID, no link and a heading naming nothing is the one paper its text names: known before any pool
    moved = headless_subjects(((f"{n.path}#{e.number}", e.heading, e.text) for n, es in rows.notes for e in es
                               if not e.subject and not e.cites and not e.urls), lambda keys: papers_named(store, keys),
                              window_ids, compared)
    pool, names, titles, named = gather(moved)
    more = pool.miscited_entries(names, titles, named) | pool.slipped_entries(names, titles, named)
    if more:
        pool, names, titles, named = gather(moved | more)
    # another known paper's ID written beside a name is that paper's, not a slip of the name's own ID: an entry moved
    # to the paper it names leaves that ID no item's, and "one known ID, the rest slips" must not take it back
    pool.merge_same_systems(names, others={i for _, _, wrong in names.miscited(titles, named) for i in wrong})
    pool.mark_miscited(names, titles, named)
    return Collected(pool.items, pool.listed, pool.miscited_elsewhere(names, titles, named))


def _window_ids(rows: _Rows, window: Window) -> dict[str, set[str]]:
    """The papers of the window, each with where: listed or featured (``"listing"``), carded (the card's file), cited
    by a note entry (``path#N``)."""
    out: dict[str, set[str]] = {}
    for note, entries in rows.notes:
        for e in entries:
            for a in filter(None, map(parse_arxiv_id, e.cites)):
                out.setdefault(a.id, set()).add(f"{note.path}#{e.number}")
    for r in rows.sightings:
        out.setdefault(r.arxiv_id, set()).add("listing")
    for c in rows.cards:
        if c.arxiv_id and window.contains(c.created):
            out.setdefault(c.arxiv_id, set()).add(c.path)
    return out


def cited_anchored(cands: list[Candidate], anchored: set[str]) -> list[Candidate]:
    """The papers the doc anchors that the window's note entries are about beside their subject: one item
    each, its source the entries, its points their lines that cite it.

    An entry is one item, keyed by its subject; an entry whose text names its papers (no ID in its heading,
    no source URL) is about each of them (``kb.citations.entry_papers``: the one answer to which papers an entry is
    about; every ID written in it, ``SourceRef.cites``, is a mention). One the doc anchors is the doc's by the
    team's word, so it is listed, 🟡 already anchored ("H2O (2306.14048) and StreamingLLM (2309.17453) drop
    KV": both papers). One not anchored is not put forward as new on a line naming it. The entry's text stays
    its subject's item's (the source here carries none), so its figures and markers are read once; its
    points are the entry's own lines that cite the paper, never another source's of the subject's item."""
    have = {i for c in cands for i in c.written_ids}
    found: dict[str, Candidate] = {}
    for c in cands:
        for s in c.sources:
            if s.kind != "entry":
                continue
            for aid in s.also_about:
                if aid in have or aid not in anchored:
                    continue
                item = found.setdefault(aid, Candidate(key=f"id:{aid}"))
                # the bullets citing it, else its text's lines that do (a table's row under no bullet)
                lines = [p for p in s.own_points if any(_cites(line, aid) for line in p.lines())] or [
                    Point(line.strip()) for line in (s.text or "").splitlines() if _cites(line, aid)]
                add(item, ids=[aid], points=lines, source=SourceRef(
                    "entry", s.name, s.path, s.entry, None, s.date, s.credibility, "", (aid,), beside_subject=True))
    return list(found.values())


def _cites(line: str, arxiv_id: str) -> bool:
    return any(a.id == arxiv_id for a in find_cited_ids(line))


def _as_of_window(store: Store, posts: list[PostView], window: Window, tz: tzinfo | None) -> list[PostView]:
    """Each post as the window's last day had it: one corrected in place after the window reads with the text
    it had then (``earlier_texts``), when kb kept it; a past day rebuilt later shows that night's figures."""
    def after(p: PostView) -> bool:
        return bool(p.updated) and local_stamp((p.updated or "")[:16], tz) > window.end
    later = {p.key for p in posts if after(p)}
    if not later:
        return posts
    earlier = earlier_texts(store, later)
    out = []
    for p in posts:
        then = [e for e in earlier.get(p.key, []) if not after(e)]
        out.append(replace(then[-1], cites=p.cites) if p.key in later and then else p)
    return out


def _corrected_on(published: str | None, updated: str | None, tz: tzinfo | None) -> str | None:
    """The local day a post was corrected in place, when that is after the day it was published."""
    first, later = (local_stamp(t[:16], tz)[:10] if t else "" for t in (published, updated))
    return later if later and first and later > first else None


def _names(rows: _Rows, pool: Pool, compared: tuple[str, ...]) -> NameIndex:
    """Every place that ties a coined name to an ID: the window's items, and the team's cards and queue (as
    of the window's last day)."""
    index = NameIndex(compared)
    for c in pool.items:
        own = c.arxiv_ids[0] if len(c.arxiv_ids) == 1 else None
        for t in c.titles:
            index.add_text(t, c.key)
            index.add_title(t, own, c.key)
        for s in c.sources:
            if s.kind == "entry":
                index.add_text(s.text, s.key)
    for card in rows.cards:
        index.add_title(card.title, card.arxiv_id, card.path)
    for q in rows.queue:
        index.add_title(q.title, q.arxiv_id, f"{QUEUE_PATH} rank {q.rank}")
    return index


def _days(window: Window, pad: int = 0) -> tuple[str, str]:
    """The first and last calendar day of the window, widened by ``pad`` days (time zones)."""
    first = date.fromisoformat(window.start[:10]) - timedelta(days=pad)
    last = date.fromisoformat(window.end[:10]) + timedelta(days=pad)
    return first.isoformat(), last.isoformat()


def _entries(store: Store, rows: _Rows, pool: Pool, author_credibility: dict[str, int],
             moved: dict[str, str], window_ids: dict[str, set[str]], compared: tuple[str, ...]) -> None:
    for note, entries in rows.notes:
        cred = _cred(note.credibility, author_credibility.get(note.author.casefold(), 3))
        for e in entries:
            urls = [u["url"] for u in e.urls if not parse_arxiv_id(u["url"])]
            # the parser's answer (pipeline.workspace.notes.entry_subject), unless the entry names another paper
            subject = moved.get(f"{note.path}#{e.number}", e.subject)
            ids = [subject] if subject else []
            keys = [f"id:{i}" for i in ids] or [f"url:{normalize_url(u)}" for u in urls[:1]] \
                or [f"entry:{note.path}#{e.number}"]
            c = pool.get(keys)
            also = entry_papers(e.heading, urls, e.text)[1]
            src = SourceRef("entry", note.author, note.path, e.number, urls[0] if urls else None,
                            note.timestamp, cred, e.text,
                            tuple(dict.fromkeys(a.id for i in e.cites if (a := parse_arxiv_id(i)))),
                            also_about=also, own_points=tuple(e.points) if also else ())
            markers, points = e.markers, e.points
            others = set(src.cites) - set(ids)
            if others:   # an entry citing other papers: a table row or marked line naming one is that paper's
                known = tuple(sorted(existing_ids(store, others)))
                # only to a paper of the window in its own right: a baseline row of the subject's results table
                # ("| vLLM（2309.06180） | 2.4 s |") names a paper this entry alone cites
                points, rows_of = rows_by_paper(e.points, ids[0] if ids else None, tuple(
                    i for i in known if window_ids.get(i, set()) - {f"{note.path}#{e.number}"}), compared)
                marks: dict[str, tuple[list[str], list[str]]] = {}
                if markers:
                    markers, marks = marks_by_paper(e.text, e.markers, ids[0] if ids else None, known)
                    markers = marks_left(e.text, markers, rows_of)
                for aid in dict.fromkeys([*rows_of, *marks]):
                    got, lines = marks.get(aid, ([], []))
                    got = list(dict.fromkeys([*got, *(m for q in rows_of.get(aid, ()) for m in find_markers(q.text))]))
                    add(pool.get([f"id:{aid}"]), ids=[aid], markers=got,
                        points=rows_of.get(aid) or [Point(line) for line in lines],
                        source=SourceRef("entry", note.author, note.path, e.number, None, note.timestamp, cred, "",
                                         (aid,), beside_subject=True))
            add(c, ids=ids, urls=urls[:1], title=clean_heading(e.heading), text=e.text,
                 points=points, source=src, markers=markers)
            c.upvotes += [(u, f"{note.path}#{e.number}", note.timestamp) for u in e.upvotes]
            c.bad_ids += [(written, why, f"{note.path}#{e.number}") for written, why in e.bad_ids]
            c.short_ids += [(written, why, f"{note.path}#{e.number}") for written, why in find_short_ids(e.text)]


def card_marks(body: str) -> list[str]:
    """The verification marks of a card's body: a "TBD" there is a placeholder ("代码：TBD"), not a doubt."""
    return [m for m in find_markers(body) if m != "TBD"]


def _cards(rows: _Rows, window: Window, pool: Pool) -> None:
    for card in rows.cards:
        if not window.contains(card.created):
            continue
        ids = [i for i in dict.fromkeys([card.arxiv_id, card.file_id]) if i]
        if not ids:
            continue
        c = pool.get([f"id:{ids[0]}"])
        # a mark the team wrote on its card ("⚠ 作者 README 说 vLLM 已经合进主线了") asks for a check as a note's does
        add(c, ids=ids[:1], title=card.title, text=card.body, markers=card_marks(card.body),
             source=SourceRef("card", "paper_cards", card.path, None, None, card.created, 4, card.body, tuple(ids)))
        # a card is the team's writing as a note entry is: an ID it writes that cannot be one is flagged there
        c.bad_ids += [(written, why, card.path) for written, why in find_impossible_ids(card.body)]
        c.short_ids += [(written, why, card.path) for written, why in find_short_ids(card.body)]
        if len(ids) > 1 and ids[1] not in c.card_file_ids:   # the file name says another ID than the card's
            c.card_file_ids.append(ids[1])
        # so does its text, beside the card's own name: card 463's "EtherKV（2611.01828）" for its 2611.01288
        name = title_name(card.title)
        c.card_file_ids += [i for written, i in name_id_pairs(card.body) if name and written.casefold() ==
                            name.casefold() and i not in ids and i not in c.card_file_ids]
        if card.hf_upvotes is not None:
            c.upvotes.append((card.hf_upvotes, card.path, card.created or ""))
        if card.primary_topic is not None:
            c.card_relevance = "primary" if card.primary_topic else "adjacent"
        c.card_topics = c.card_topics or list(card.topics)
        c.card_title = c.card_title or card.title or None


def sighting_kind(source: str, kind: str) -> str:
    """The briefing's kind of a public source's sighting: ``hf`` (a featured day), ``arxiv`` (the listing's,
    whose source is named "arxiv" in the registry), else ``listing``: another kind of paper source, shown by its
    own name, never as arXiv's."""
    if kind == "featured":
        return "hf"
    return "arxiv" if source == "arxiv" else "listing"


def _sightings(rows: _Rows, pool: Pool, source_credibility: dict[str, int], settled: set[str]) -> None:
    for r in rows.sightings:
        if r.arxiv_id in settled:
            pool.keep_as_row(r.arxiv_id, r.title, r.source, r)
        else:
            _add_sighting(pool.get([f"id:{r.arxiv_id}"]), r, source_credibility)


def _add_sighting(c: Candidate, r: SightingView, source_credibility: dict[str, int]) -> None:
    add(c, ids=[r.arxiv_id], title=r.title, text=r.abstract,
        source=SourceRef(sighting_kind(r.source, r.kind), r.source, None, None,
                         r.url or f"https://arxiv.org/abs/{r.arxiv_id}", r.seen_on, source_credibility.get(r.source, 3),
                         r.abstract or "", (r.arxiv_id,)))
    c.kinds.add(r.kind)
    if r.kind in ("replace", "replace-cross") and r.version:
        c.replaced = max(c.replaced, r.version)
        # arXiv's withdrawal is a new version whose abstract says so ("This paper has been withdrawn by the authors")
        c.withdrawn = c.withdrawn or bool(_WITHDRAWN.search((r.abstract or "")[:300]))
    if r.upvotes is not None:
        c.upvotes.append((r.upvotes, f"{r.source} {r.seen_on}", r.seen_on + FETCHED))


def _window_posts(store: Store, window: Window, tz: tzinfo | None) -> list[tuple[PostView, str | None]]:
    """The window's posts as the window had them, each with its local time."""
    posts = []
    for p in _as_of_window(store, posts_published_between(store, *_days(window, pad=1)), window, tz):
        local = local_stamp((p.published or "")[:16], tz)
        if not window.contains(local):
            local = local_stamp((p.updated or "")[:16], tz)   # corrected in place on the window's day
            if not window.contains(local):
                continue
        posts.append((p, local))
    return posts


def _add_posts(rows: _Rows, pool: Pool, source_credibility: dict[str, int], tz: tzinfo | None
               ) -> list[tuple[str, str]]:
    """The window's posts into the pool; each post's title and its key there, for the entries that name it."""
    keyed: list[tuple[str, str]] = []
    cited = rows.post_papers
    for p, local in rows.posts:
        ids = list(p.cites)
        # A post about one paper is that paper's item; a post citing several, or one paper it is not
        # about (a release note that cites the paper behind one feature), stands on its own.
        about = len(ids) == 1 and (post_is_about(p.title, cited.get(ids[0]))
                                   or headed_with_its_paper(pool, p.url, cited.get(ids[0])))
        keys = ([f"id:{ids[0]}"] if about else []) + (
            [f"url:{normalize_url(p.url)}"] if p.url else [f"post:{p.key}"])
        c = pool.get(keys)
        if p.title:
            keyed.append((p.title, keys[-1]))
            c.post_title = c.post_title or p.title
        add(c, ids=ids[:1] if about else [], urls=[p.url] if p.url else [], title=p.title,
             text="\n".join(t for t in (p.summary, p.content) if t),
             source=SourceRef("post", p.feed, None, None, p.url, (local or "")[:10],
                              source_credibility.get(p.feed, 3), "\n".join(t for t in (p.summary, p.content) if t),
                              p.cites, corrected=_corrected_on(p.published, p.updated, tz), post_key=p.key))
    return keyed
