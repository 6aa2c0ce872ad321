"""Collect the window's items from the store and merge them into candidates.

An item belongs to the window by its own date — a note's timestamp, a card's
creation, a listing's announcement, an HF featured date, a post's date — never by
when kb ingested it, so a past day can be rebuilt from recordings.
"""
from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta, tzinfo

from kb.arxiv_id import find_impossible_ids, find_short_ids, parse_arxiv_id
from kb.citations import entry_papers, find_cited_ids
from kb.names import TOKEN, coined, title_name
from kb.records import Point
from kb.store import Store
from kb.store.briefings import previous_date
from kb.store.cards import cards, queue
from kb.store.notes import entries_of, notes_between
from kb.store.papers import existing_ids, paper_titles, papers_named, sightings_between
from kb.store.posts import PostView, earlier_texts, posts_published_between
from kb.text import clean_heading, find_markers, normalize_url, words_of
from pipeline.brief.entities import NameIndex
from pipeline.brief.model import FETCHED, Candidate, SourceRef, Window

QUEUE_PATH = "organized/queue/work-queue.md"


def compute_window(store: Store, topic: str, day: date, cutoff: str) -> Window:
    """From the previous briefing's cut-off (else one day back) to ``day``'s cut-off."""
    previous = previous_date(store, topic, day.isoformat())
    start = previous or (day - timedelta(days=1)).isoformat()
    return Window(f"{start}T{cutoff}", f"{day.isoformat()}T{cutoff}", previous)


def _cred(value: int | None, default: int) -> int:
    return value if isinstance(value, int) and 1 <= value <= 5 else default


class _Pool:
    """Candidates under construction, merged by arXiv ID, URL, and title (``merge_same_titles``)."""

    def __init__(self) -> None:
        self.items: list[Candidate] = []
        self.by_key: dict[str, Candidate] = {}
        self.known_ids: set[str] = set()   # IDs of the pool the store has metadata for

    def get(self, keys: list[str]) -> Candidate:
        found = [self.by_key[k] for k in keys if k in self.by_key]
        if not found:
            c = Candidate(key=keys[0])
            self.items.append(c)
        else:
            c = found[0]
            for other in found[1:]:
                if other is not c:
                    self._absorb(c, other)
        for k in keys:
            self.by_key[k] = c
        return c

    def _absorb(self, keep: Candidate, other: Candidate) -> None:
        for attr in ("arxiv_ids", "urls", "titles", "texts", "points", "sources", "upvotes", "markers", "bad_ids",
                     "short_ids", "card_file_ids"):
            for v in getattr(other, attr):
                if v not in getattr(keep, attr):
                    getattr(keep, attr).append(v)
        keep.kinds |= other.kinds
        keep.card_relevance = keep.card_relevance or other.card_relevance
        keep.card_title = keep.card_title or other.card_title
        keep.card_topics = keep.card_topics or other.card_topics
        keep.post_title = keep.post_title or other.post_title
        self.items.remove(other)
        for k, v in list(self.by_key.items()):
            if v is other:
                self.by_key[k] = keep

    def merge_same_systems(self, names: NameIndex) -> None:
        """One candidate per system written under several IDs (at most one known to the store),
        carrying every ID it is written with (a queue line's included)."""
        for _, ids in names.one_system_many_ids(self.known_ids):
            found = [self.by_key[f"id:{i}"] for i in ids if f"id:{i}" in self.by_key]
            if not found:
                continue
            keep = found[0]
            for other in found[1:]:
                if other is not keep and other in self.items:
                    self._absorb(keep, other)
            for i in ids:
                if i not in keep.arxiv_ids:
                    keep.arxiv_ids.append(i)
                self.by_key[f"id:{i}"] = keep

    def mark_miscited(self, names: NameIndex, titles: dict[str, str], named: dict[str, dict[str, str]]) -> None:
        """A name written beside another known paper's ID (``TreeDraft（2610.08810）``, 2610.08810 being
        *TeraTune: …*) is an ID conflict of the day's paper titled with the name. Nothing is merged:
        both are real papers."""
        for _, own, wrong in names.miscited(titles, named):
            c = self.by_key.get(f"id:{own}")
            if c is not None and c in self.items:
                # where: the entries, cards and queue lines that wrote it (a candidate's own key is no place)
                c.miscited.update((aid, (titles[aid], [p for p in places if p not in self.by_key]))
                                  for aid, places in wrong.items())

    def miscited_entries(self, names: NameIndex, titles: dict[str, str], named: dict[str, dict[str, str]]
                         ) -> dict[str, str]:
        """Note entries (``path#N``) whose subject is another known paper's ID written beside a system's
        name → the ID of the paper titled with that name, which the entry is about."""
        moved: dict[str, str] = {}
        for _, own, wrong in names.miscited(titles, named):
            for aid, places in wrong.items():
                c = self.by_key.get(f"id:{aid}")
                entries = {s.key for s in c.sources if s.kind == "entry"} if c is not None else set()
                moved.update((p, own) for p in places if p in entries)
        return moved

    def merge_same_titles(self) -> None:
        """Merge a paper written under an ID the store does not know into the known paper of the same title.

        Two known papers that share a title stay apart: they are different papers. Titles compare
        as words (``_norm_title``: case, punctuation and spacing aside); a name written with another
        ID is entity resolution's (``merge_same_systems``), not a near title's.
        """
        def titles(c: Candidate) -> list[str]:
            return [t for t in (_norm_title(x) for x in c.titles) if len(t) >= 20]

        # and the team's entries citing no paper (an ID that cannot be one in their link): "PairUp: Matching
        # Prefilled Requests …" with a month-13 address is the day's PairUp, not a second item of that title
        unknown = [c for c in self.items if (c.arxiv_ids and not set(c.arxiv_ids) & self.known_ids)
                   or (not c.arxiv_ids and c.sources and all(s.kind == "entry" for s in c.sources))]
        if not unknown:
            return
        exact = {t: c for c in self.items if c.arxiv_ids and set(c.arxiv_ids) & self.known_ids for t in titles(c)}
        for u in unknown:
            match = next((exact[t] for t in titles(u) if t in exact), None)
            if match is not None and match is not u and match in self.items and u in self.items:
                self._absorb(match, u)

    def merge_unlinked_entries(self, posts: list[tuple[str, str]]) -> None:
        """A note entry that cites no ID and no URL is the item of the window's post whose name its heading
        carries, version and all (``posts``: each post's title and its pool key): "LMCache 的 CacheGen 3：KV
        出节点前先压缩" is the team's note of the post *CacheGen 3: Compressing KV Cache on the Wire …*, its
        link not pasted. A heading naming two posts' names, or none, stays an item of its own; "CacheGen 3"
        names neither *CacheGen 2: …* nor a post without a name before its colon."""
        names = [(rx, key) for title, key in posts if (rx := _release_pattern(title)) is not None]
        for c in list(self.items):
            if c.arxiv_ids or c.urls or not c.sources or any(s.kind != "entry" for s in c.sources):
                continue
            found = {key for rx, key in names if any(rx.search(t) for t in c.titles)}
            if len(found) != 1:
                continue
            post = self.by_key.get(found.pop())
            if post is not None and post is not c and post in self.items and c in self.items:
                self._absorb(c, post)   # the entry first, as when its note carries the post's link


# A release's name before the colon of its post's title: a coined name and the version after it, if any
# ("CacheGen 3", "LMCache v0.7", "DeepEP-v2").
_RELEASE = re.compile(rf"^\s*(?P<name>(?P<coined>{TOKEN})(?:\s+v?\d+(?:\.\d+)*)?)\s*[:：]\s*\S")


def _release_pattern(post_title: str | None) -> re.Pattern[str] | None:
    """The name a post's title starts with, as a whole word of a heading (case aside), or None."""
    m = _RELEASE.match(post_title or "")
    if m is None or not coined(m["coined"]):
        return None
    return re.compile(rf"(?<![A-Za-z0-9.+-]){re.escape(m['name'])}(?![A-Za-z0-9+-]|\.\d)", re.I)


def _norm_title(t: str) -> str:
    """A title as titles are compared: its words (``words_of``, shared with the briefed keys), heading noise
    gone."""
    return words_of(clean_heading(t))


def _add(c: Candidate, *, ids=(), urls=(), title=None, text=None, points=(), source=None, markers=()) -> None:
    for have, values in ((c.arxiv_ids, ids), (c.urls, urls), (c.points, points), (c.markers, markers)):
        for v in values:
            if v not in have:
                have.append(v)
    if title and title not in c.titles:
        c.titles.append(title)
    if text and text not in c.texts:
        c.texts.append(text)
    if source and all(s.key != source.key or s.kind != source.kind for s in c.sources):
        c.sources.append(source)


def local_stamp(stamp: str | None, tz: tzinfo | None) -> str | None:
    """A post's UTC ``YYYY-MM-DDTHH:MM`` in the workspace's time zone (a bare date stays as written)."""
    if not stamp or "T" not in stamp or tz is None:
        return stamp
    try:
        utc = datetime.fromisoformat(stamp[:16]).replace(tzinfo=UTC)
    except ValueError:
        return stamp
    return utc.astimezone(tz).strftime("%Y-%m-%dT%H:%M")


def collect_candidates(store: Store, window: Window, *, author_credibility: dict[str, int],
                       source_credibility: dict[str, int], tz: tzinfo | None = None,
                       compared: tuple[str, ...] = ()) -> list[Candidate]:
    """Every item of the window, merged: note entries, cards, sightings, posts. ``compared``: the words after
    which a name written beside an ID is a baseline's (``[compared] words`` of data/briefing.toml).

    Only the window's days are read (by indexed dates), never the whole store. A note entry about a
    system written with another known paper's ID (``TreeDraft（2610.08810）``, 2610.08810 being
    *TeraTune: …*) is the named paper's: the day is gathered again with the entry moved (a rare day's
    cost), so the other paper does not carry the note's words.
    """
    def gather(moved: dict[str, str]) -> tuple[_Pool, NameIndex, dict[str, str]]:
        pool = _Pool()
        _entries(store, window, pool, author_credibility, moved)
        _cards(store, window, pool)
        _sightings(store, window, pool, source_credibility)
        posts = _posts(store, window, pool, source_credibility, tz)
        pool.merge_unlinked_entries(posts)
        pool.known_ids = existing_ids(store, {i for c in pool.items for i in c.arxiv_ids})
        pool.merge_same_titles()
        names = _names(store, pool, compared, window.end[:10])
        titles = paper_titles(store, names.ids_to_title(), window.end[:10])
        named = papers_named(store, names.unexplained(titles))
        titles.update((i, t) for by_id in named.values() for i, t in by_id.items())
        return pool, names, titles, named

    pool, names, titles, named = gather({})
    moved = pool.miscited_entries(names, titles, named)
    if moved:
        pool, names, titles, named = gather(moved)
    pool.merge_same_systems(names)
    pool.mark_miscited(names, titles, named)
    return pool.items


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
                lines = [p for p in s.own_points if any(_cites(line, aid) for line in p.lines())]
                _add(item, ids=[aid], points=lines, source=SourceRef(
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


ABOUT_SHARE = 0.5   # of the paper title's words that a post's title shares, for the post to be about it
_SMALL = frozenset("a an the of for in on to and with via from by at is are as its our we under over".split())


def post_is_about(post_title: str | None, paper_title: str | None) -> bool:
    """Is a post that cites one paper about it? When its title carries the paper's coined name
    (``TierKV``), or most of the paper title's words ("Load-Adaptive Speculative Decoding in vLLM:
    Token Trees …" of *TreeDraft: Load-Adaptive Token-Tree Speculative Decoding …*). "LMCache v0.7:
    CacheBlend Meets Layer-wise Streaming, plus an NVMe Tier" cites TierKV for one feature: it is
    LMCache's release, an item of its own. A paper the store has no title for is taken as the subject."""
    if not paper_title or not post_title:
        return True
    name = title_name(paper_title)
    if name and name.casefold() in post_title.casefold():
        return True
    words = _title_words(paper_title)
    return bool(words) and len(words & _title_words(post_title)) >= ABOUT_SHARE * len(words)


def _title_words(title: str) -> set[str]:
    """A title's words as titles are compared (``_norm_title``), plural s dropped, small words left out
    ("Token-Tree" → token, tree)."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w
            for w in _norm_title(title).split() if w not in _SMALL and len(w) > 1}


def _names(store: Store, pool: _Pool, compared: tuple[str, ...], day: str) -> NameIndex:
    """Every place that ties a coined name to an ID: the window's items, and the team's cards and queue (as
    of ``day``)."""
    index = NameIndex(compared)
    for c in pool.items:
        own = c.arxiv_ids[0] if len(c.arxiv_ids) == 1 else None
        for t in c.titles:
            index.add_text(t, c.key)
            index.add_title(t, own, c.key)
        for s in c.sources:
            if s.kind == "entry":
                index.add_text(s.text, s.key)
    for card in cards(store):
        index.add_title(card.title, card.arxiv_id, card.path)
    for q in queue(store, day):
        index.add_title(q.title, q.arxiv_id, f"{QUEUE_PATH} rank {q.rank}")
    return index


def _days(window: Window, pad: int = 0) -> tuple[str, str]:
    """The first and last calendar day of the window, widened by ``pad`` days (time zones)."""
    first = date.fromisoformat(window.start[:10]) - timedelta(days=pad)
    last = date.fromisoformat(window.end[:10]) + timedelta(days=pad)
    return first.isoformat(), last.isoformat()


def _entries(store: Store, window: Window, pool: _Pool, author_credibility: dict[str, int],
             moved: dict[str, str]) -> None:
    for note in notes_between(store, *_days(window)):
        if not window.contains(note.timestamp):
            continue
        cred = _cred(note.credibility, author_credibility.get(note.author.casefold(), 3))
        for e in entries_of(store, note.path):
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
            markers = e.markers
            others = set(src.cites) - set(ids)
            if markers and others:   # an entry citing other papers: a marked row naming one is that paper's
                markers, theirs = _marks_by_paper(e.text, e.markers, ids[0] if ids else None,
                                                  tuple(sorted(existing_ids(store, others))))
                for aid, (marks, lines) in theirs.items():
                    _add(pool.get([f"id:{aid}"]), ids=[aid], points=[Point(line) for line in lines], markers=marks,
                         source=SourceRef("entry", note.author, note.path, e.number, None, note.timestamp, cred, "",
                                          (aid,), beside_subject=True))
            _add(c, ids=ids, urls=urls[:1], title=clean_heading(e.heading), text=e.text,
                 points=e.points, source=src, markers=markers)
            c.upvotes += [(u, f"{note.path}#{e.number}", note.timestamp) for u in e.upvotes]
            c.bad_ids += [(written, why, f"{note.path}#{e.number}") for written, why in e.bad_ids]
            c.short_ids += [(written, why, f"{note.path}#{e.number}") for written, why in find_short_ids(e.text)]


def card_marks(body: str) -> list[str]:
    """The verification marks of a card's body: a "TBD" there is a placeholder ("代码：TBD"), not a doubt."""
    return [m for m in find_markers(body) if m != "TBD"]


def _marks_by_paper(text: str, marks: list[str], subject: str | None, others: tuple[str, ...]
                    ) -> tuple[list[str], dict[str, tuple[list[str], list[str]]]]:
    """``(the subject's marks, {other paper: (its marks, its marked rows)})`` of an entry citing other papers: a
    marked table row whose first cell names one of ``others`` (papers the store knows) and not the subject ("|
    EvenTime（2610.22108） | TTFT 多 6% | 待核实：… |") is that paper's. Every other mark stays the subject's: a line
    comparing the subject with another paper ("⚠ 比 EAGLE（2401.15077）还快 1.6×") is about the subject."""
    theirs: dict[str, tuple[list[str], list[str]]] = {}
    kept: set[str] = set()
    for line in text.splitlines():
        found = find_markers(line)
        if not found:
            continue
        # a table row as the note keeps it ("EvenTime（2610.22108） | TTFT 多 6% | 待核实"), outer pipes or not
        cells = line.strip().strip("|").split("|") if "|" in line else []
        cited = {a.id for a in find_cited_ids(cells[0])} if cells else set()
        named = [i for i in others if i in cited]
        if not named or subject in cited:
            kept.update(found)
            continue
        for aid in named:
            got, lines = theirs.setdefault(aid, ([], []))
            got += [m for m in found if m not in got]
            lines.append(line.strip())
    moved = {m for got, _ in theirs.values() for m in got}
    return [m for m in marks if m in kept or m not in moved], theirs


def _cards(store: Store, window: Window, pool: _Pool) -> None:
    for card in cards(store):
        if not window.contains(card.created):
            continue
        ids = [i for i in dict.fromkeys([card.arxiv_id, card.file_id]) if i]
        if not ids:
            continue
        c = pool.get([f"id:{ids[0]}"])
        # a mark the team wrote on its card ("⚠ 作者 README 说 vLLM 已经合进主线了") asks for a check as a note's does
        _add(c, ids=ids[:1], title=card.title, text=card.body, markers=card_marks(card.body),
             source=SourceRef("card", "paper_cards", card.path, None, None, card.created, 4, card.body, tuple(ids)))
        # a card is the team's writing as a note entry is: an ID it writes that cannot be one is flagged there
        c.bad_ids += [(written, why, card.path) for written, why in find_impossible_ids(card.body)]
        c.short_ids += [(written, why, card.path) for written, why in find_short_ids(card.body)]
        if len(ids) > 1 and ids[1] not in c.card_file_ids:   # the file name says another ID than the card's
            c.card_file_ids.append(ids[1])
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


def _sightings(store: Store, window: Window, pool: _Pool, source_credibility: dict[str, int]) -> None:
    # Blog mentions come with their post (_posts), dated in local time; backfill kinds are no news.
    for r in sightings_between(store, *_days(window)):
        if not window.contains(r.seen_on):
            continue
        c = pool.get([f"id:{r.arxiv_id}"])
        kind = sighting_kind(r.source, r.kind)
        _add(c, ids=[r.arxiv_id], title=r.title, text=r.abstract,
             source=SourceRef(kind, r.source, None, None, r.url or f"https://arxiv.org/abs/{r.arxiv_id}",
                              r.seen_on, source_credibility.get(r.source, 3), r.abstract or "", (r.arxiv_id,)))
        c.kinds.add(r.kind)
        if r.upvotes is not None:
            c.upvotes.append((r.upvotes, f"{r.source} {r.seen_on}", r.seen_on + FETCHED))


def _posts(store: Store, window: Window, pool: _Pool, source_credibility: dict[str, int],
           tz: tzinfo | None) -> list[tuple[str, str]]:
    """The window's posts into the pool; each post's title and its key there, for the entries that name it."""
    posts = []
    keyed: list[tuple[str, str]] = []
    for p in _as_of_window(store, posts_published_between(store, *_days(window, pad=1)), window, tz):
        local = local_stamp((p.published or "")[:16], tz)
        if not window.contains(local):
            local = local_stamp((p.updated or "")[:16], tz)   # corrected in place on the window's day
            if not window.contains(local):
                continue
        posts.append((p, local))
    cited = paper_titles(store, {p.cites[0] for p, _ in posts if len(p.cites) == 1}, window.end[:10])
    for p, local in posts:
        ids = list(p.cites)
        # A post about one paper is that paper's item; a post citing several, or one paper it is not
        # about (a release note that cites the paper behind one feature), stands on its own.
        about = len(ids) == 1 and post_is_about(p.title, cited.get(ids[0]))
        keys = ([f"id:{ids[0]}"] if about else []) + (
            [f"url:{normalize_url(p.url)}"] if p.url else [f"post:{p.key}"])
        c = pool.get(keys)
        if p.title:
            keyed.append((p.title, keys[-1]))
            c.post_title = c.post_title or p.title
        _add(c, ids=ids[:1] if about else [], urls=[p.url] if p.url else [], title=p.title,
             text="\n".join(t for t in (p.summary, p.content) if t),
             source=SourceRef("post", p.feed, None, None, p.url, (local or "")[:10],
                              source_credibility.get(p.feed, 3), "\n".join(t for t in (p.summary, p.content) if t),
                              p.cites, corrected=_corrected_on(p.published, p.updated, tz), post_key=p.key))
    return keyed
