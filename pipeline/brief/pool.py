"""The window's items under construction: candidates merged by arXiv ID, URL, title and name (``Pool``), and the
papers of the window nobody needs judged again (``Listed``).

A paper the classify stage already called ``none`` for the doc, that the doc does not anchor and that nothing of
the window's own writing (a note, a card, a post) cites is the listing's alone: the briefing shows it nowhere, so
it is kept as a row (its title, the sources that carried it) for the sources' counts and the likely IDs of a slip,
not built, merged and judged as an item: most of a listing's papers are not the doc's. One the window's items reach
after all, by its title (``titled_as_unknown``) or by a name (``named_elsewhere``), is made an item where it would
have stood among them (``promote``): the pool is then the one every paper built as an item would give.
"""
from __future__ import annotations

import re
from bisect import insort
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from kb.arxiv_id import one_slip_apart
from kb.names import TOKEN, coined, coined_names, name_key, title_name
from kb.store.papers import SightingView
from kb.text import clean_heading, words_of
from pipeline.brief.entities import NameIndex, name_id_pairs
from pipeline.brief.model import Candidate, Flag

SAME_TITLE_MIN = 20   # characters of a compared title: a shorter one ("Introduction") names nothing


@dataclass
class Listed:
    """A paper of the window kept as a row: its title as of the window, the sources that listed it; its sightings
    and where among the pool's items it would have been made, should it be made an item (``Pool.promote``)."""

    title: str
    sources: set[str] = field(default_factory=set)
    rows: list[SightingView] = field(default_factory=list)
    place: tuple[int, ...] = ()


class Pool:
    """Candidates under construction, merged by arXiv ID, URL, and title (``merge_same_titles``); and the listed
    papers kept as rows (``listed``, the module's docstring) until an item reaches them (``promote``)."""

    def __init__(self) -> None:
        self.items: list[Candidate] = []
        self.by_key: dict[str, Candidate] = {}
        self.known_ids: set[str] = set()   # IDs of the pool the store has metadata for
        self.listed: dict[str, Listed] = {}   # papers kept as rows, by arXiv ID (the module's docstring)
        self._made = 0   # items made so far: each one's place among them, which merges keep
        self._place: dict[int, tuple[int, ...]] = {}   # id(item) → its place (an alive item's id is its own)

    def get(self, keys: list[str]) -> Candidate:
        found = [self.by_key[k] for k in keys if k in self.by_key]
        if not found:
            c = Candidate(key=keys[0])
            self.items.append(c)
            self._place[id(c)] = (self._made, 0)
            self._made += 1
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
        keep.replaced = max(keep.replaced, other.replaced)
        keep.withdrawn = keep.withdrawn or other.withdrawn
        keep.card_relevance = keep.card_relevance or other.card_relevance
        keep.card_title = keep.card_title or other.card_title
        keep.card_topics = keep.card_topics or other.card_topics
        keep.post_title = keep.post_title or other.post_title
        self.items.remove(other)
        for k, v in list(self.by_key.items()):
            if v is other:
                self.by_key[k] = keep

    def merge_same_systems(self, names: NameIndex, others: set[str] = frozenset()) -> None:
        """One candidate per system written under several IDs (at most one known to the store),
        carrying every ID it is written with (a queue line's included); ``others``, IDs of other known papers
        written beside a name (``NameIndex.miscited``), are none of its."""
        for _, ids in names.one_system_many_ids(self.known_ids, leave_out=others):
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

    def miscited_elsewhere(self, names: NameIndex, titles: dict[str, str], named: dict[str, dict[str, str]]
                           ) -> dict[str, dict[str, tuple[str, list[str]]]]:
        """The papers no item of the day is, written by name beside another known paper's ID (a week's recap of the
        anchored GraphStash as "GraphStash（2611.01963）", GraphHold's ID): their ID → {that ID: (its title, the
        places that wrote it)}. The rules ask the doc's which to cite (``verify.anchored_name_conflicts``)."""
        out: dict[str, dict[str, tuple[str, list[str]]]] = {}
        for name, own, wrong in names.miscited(titles, named):
            c = self.by_key.get(f"id:{own}")
            # no item of the day to weigh it against: only the name written with the ID in brackets counts
            bracketed = {aid: places for aid, places in wrong.items() if (name_key(name), aid) in names.bracketed}
            if (c is None or c not in self.items) and bracketed:
                out[own] = {aid: (titles[aid], [p for p in places if p not in self.by_key])
                            for aid, places in bracketed.items()}
        return out

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

    def slipped_entries(self, names: NameIndex, titles: dict[str, str], named: dict[str, dict[str, str]]
                        ) -> dict[str, str]:
        """Note entries (``path#N``) whose subject is an ID the store does not know, written beside the coined name of
        exactly one paper it does (``NameIndex.written_only_with_unknown_ids``) whose ID it is one typo from
        (``one_slip_apart``) → that paper's ID: the entry is about the named paper, its ID slipped (day 17's week's
        table, "QuietLane（2610.29004）" for 2610.29040), and is no new paper of its own. A new paper that shares an
        older one's name is not one typo from its ID. The ID as written stays in its text, for the ID rules."""
        moved: dict[str, str] = {}
        for k in names.written_only_with_unknown_ids(titles):
            owners = named.get(k, {})
            if len(owners) != 1:
                continue
            (own,) = owners
            for aid, places in names.ids[k].items():
                if not one_slip_apart(aid, own):
                    continue
                c = self.by_key.get(f"id:{aid}")
                entries = {s.key for s in c.sources if s.kind == "entry"} if c is not None else set()
                moved.update((p, own) for p in places if p in entries)
        return moved

    def merge_same_titles(self) -> None:
        """Merge a paper written under an ID the store does not know into the known paper of the same title.

        Two known papers that share a title stay apart: they are different papers. Titles compare
        as words (``norm_title``: case, punctuation and spacing aside); a name written with another
        ID is entity resolution's (``merge_same_systems``), not a near title's.
        """
        unknown = self._unknown()
        if not unknown:
            return
        exact = {t: c for c in self.items if c.arxiv_ids and set(c.arxiv_ids) & self.known_ids
                 for t in _compared_titles(c.titles)}
        for u in unknown:
            match = next((exact[t] for t in _compared_titles(u.titles) if t in exact), None)
            if match is not None and match is not u and match in self.items and u in self.items:
                self._absorb(match, u)

    def _unknown(self) -> list[Candidate]:
        """Items written under IDs the store does not know, and the team's entries citing no paper (an ID that
        cannot be one in their link): "PairUp: Matching Prefilled Requests …" with a month-13 address is the
        day's PairUp, not a second item of that title."""
        return [c for c in self.items if (c.arxiv_ids and not set(c.arxiv_ids) & self.known_ids)
                or (not c.arxiv_ids and c.sources and all(s.kind == "entry" for s in c.sources))]

    def ids_written(self) -> set[str]:
        """Every arXiv ID the pool's items are, or their sources write."""
        return {i for c in self.items for i in (*c.arxiv_ids, *(i for s in c.sources for i in s.cites))}

    def keep_as_row(self, arxiv_id: str, title: str | None, source: str, row: SightingView) -> None:
        """Keep a paper nobody needs judged as a row (the module's docstring)."""
        listed = self.listed.get(arxiv_id)
        if listed is None:   # before the item made next, after those listed before it (sightings come in order)
            listed = self.listed[arxiv_id] = Listed(title or arxiv_id, place=(self._made, -1, len(self.listed)))
        listed.sources.add(source)
        listed.rows.append(row)

    def titled_as_unknown(self) -> list[str]:
        """The listed papers whose title an item without a known ID is written with (``merge_same_titles`` would
        merge it into the paper)."""
        unknown = {t for c in self._unknown() for t in _compared_titles(c.titles)}
        return [i for i, row in self.listed.items() if unknown and unknown.intersection(_compared_titles([row.title]))]

    def named_elsewhere(self, names: NameIndex) -> list[str]:
        """The listed papers tied to a name the way entity resolution reads names (every ID of a name): their ID
        written beside one by the window's items, texts, cards or queue (a queue line "PredRoute 2610.15462" with
        SurgeFormer's ID); their title's coined name written with another ID; or a name written beside an ID in
        their own title ("… Beyond FourCastNet (2202.11214)"), which an item's title gives the index."""
        written = {i for by_id in names.ids.values() for i in by_id}

        def reached(arxiv_id: str, title: str) -> bool:
            if arxiv_id in written or name_id_pairs(title, names.compared):
                return True
            name = title_name(title)
            return bool(name and names.ids.get(name_key(name), {}).keys() - {arxiv_id})
        return [i for i, row in self.listed.items() if reached(i, row.title)]

    def promote(self, ids: Iterable[str], build: Callable[[Candidate, SightingView], None]) -> None:
        """Make these listed papers items, each where its first sighting would have made it among the items
        (merges keep the items' order), ``build(item, sighting)`` adding each of its sightings."""
        for arxiv_id in ids:
            listed = self.listed.pop(arxiv_id)
            c = Candidate(key=f"id:{arxiv_id}")
            for r in listed.rows:
                build(c, r)
            self._place[id(c)] = listed.place
            insort(self.items, c, key=lambda item: self._place[id(item)])
            self.by_key[c.key] = c
            self.known_ids.add(arxiv_id)

    def named_in_headings(self) -> list[str]:
        """The listed papers whose title's coined name an entry citing nothing names in its heading
        (``merge_named_entries`` may make the entry theirs)."""
        headings = [t for c in self._citing_nothing(links=True) for t in c.titles]
        if not headings:
            return []
        words = {m[0] for h in headings for m in _TOKEN.finditer(h)}   # a name is a whole word: look it up first
        return [i for i, row in self.listed.items()
                if (name := title_name(row.title)) and name in words and any(names_word(name, h) for h in headings)]

    def merge_named_entries(self, compared: tuple[str, ...] = ()) -> None:
        """A note entry that cites no ID, nor a page of the window's (its links, if any, a project page or code that
        no source of the window is: day 28's MuffleKV, known to arXiv only through HF), whose heading names exactly
        one of the window's papers by its title's coined name, is that paper's ("收回早上的说法：PoolVerify 和
        VerifyBatch 不是一回事" is PoolVerify's, VerifyBatch being no paper of the window), as when its heading carries
        the paper's ID. A heading naming two
        of the day's papers compares them: it stays an item of its own. A heading that coins no name at all ("周四
        下午到今早新冒出来的", a week's recap) says nothing of what the entry is about: then, the entry linking nothing,
        its text decides, by the same rule ("待核实：群里有人说 LoftKV 用的 CXL 扩展卡只在工程样品上测过" is
        LoftKV's). ``compared``: ``[compared] words``."""
        entries = self._citing_nothing(links=True)
        papers: dict[str, list[Candidate]] = {}   # a paper's name → the papers of that name
        for c in (self.items if entries else ()):
            if c.arxiv_ids and set(c.arxiv_ids) & self.known_ids:
                for name in _own_names(c, compared):
                    papers.setdefault(name, []).append(c)
        for entry in entries:
            # a heading coining no name: the text decides, for an entry with no link (one linking an issue or a page
            # is about what it links, whatever its text mentions)
            heads = entry.titles if any(coined_names(h) for h in entry.titles) else [] if entry.urls else entry.texts
            words = {m[0] for h in heads for m in _TOKEN.finditer(h)}
            found = {id(c): c for name in words & papers.keys() for c in papers[name]
                     if any(names_word(name, h) for h in heads)}
            if len(found) == 1:
                (paper,) = found.values()
                if paper in self.items and entry in self.items and paper is not entry:
                    self._absorb(paper, entry)

    def _citing_nothing(self, links: bool = False) -> list[Candidate]:
        """The items that are a team's entries citing no ID and no URL (``links``: or only URLs no other source of
        the window has: an entry linking a post is that post's item already)."""
        return [c for c in self.items if not c.arxiv_ids and (links or not c.urls) and c.sources
                and all(s.kind == "entry" for s in c.sources)]

    def merge_unlinked_entries(self, posts: list[tuple[str, str]]) -> None:
        """A note entry that cites no ID and no URL is the item of the window's post whose name its heading
        carries, version and all (``posts``: each post's title and its pool key): "LMCache 的 CacheGen 3：KV
        出节点前先压缩" is the team's note of the post *CacheGen 3: Compressing KV Cache on the Wire …*, its
        link not pasted. A heading naming two posts' names, or none, stays an item of its own; "CacheGen 3"
        names neither *CacheGen 2: …* nor a post without a name before its colon."""
        names = [(rx, key) for title, key in posts if (rx := _release_pattern(title)) is not None]
        for c in self._citing_nothing():
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


def _compared_titles(titles: list[str]) -> list[str]:
    return [t for t in (norm_title(x) for x in titles) if len(t) >= SAME_TITLE_MIN]


def _title_names(titles: list[str]) -> set[str]:
    """The coined names ``titles`` start with."""
    return {n for t in titles if (n := title_name(t))}


def _own_names(c: Candidate, compared: tuple[str, ...]) -> set[str]:
    """The coined names ``c``'s titles start with that are its paper's: where the team writes a name beside one of
    its IDs ("KeyFold（2610.16833）"), only such a name. Jay's heading "vLLM：KeyFold 进了 vLLM" over that line names
    the engine that took the paper in, and a chat's "听说 vLLM 下个版本…" is no note of KeyFold's."""
    names = _title_names(c.titles)
    paired = {_unversioned(n): n for s in c.sources if s.kind in ("entry", "card")
              for n, i in name_id_pairs(s.text, compared) if i in c.arxiv_ids}
    if not paired:
        return names
    # no title carries the name written beside the ID (Tom's "KeyFold v2（…）改了什么" has none): that name is
    return {n for n in names if _unversioned(n) in paired} or set(paired.values())


def _unversioned(name: str) -> str:
    """A name as the team's spellings of one paper compare: case and a version after it aside ("KeyFold-v2")."""
    return re.sub(r"[-_\s]?v\d+$", "", name_key(name))


_TOKEN = re.compile(TOKEN)   # a word a coined name may be ("PoolVerify" in "和PoolVerify不是一回事")


def names_word(name: str, text: str) -> bool:
    """Does ``text`` name the coined ``name`` itself: as written (SPARK is no "Spark"), a whole word (not in
    "config_TideKV_budget" or a link's path), no release after it ("SGLang 0.5", "DeepEP-v2": another thing)?"""
    return name in text and _name_regex(name).search(text) is not None


@lru_cache(maxsize=4096)
def _name_regex(name: str) -> re.Pattern[str]:
    # ASCII edges only: Chinese writes a name against its words ("和PoolVerify不是一回事")
    return re.compile(rf"(?<![A-Za-z0-9_./+-]){re.escape(name)}(?![A-Za-z0-9_/+-]|\.[A-Za-z0-9]|\s*v?\d)")


@lru_cache(maxsize=8192)
def norm_title(t: str) -> str:
    """A title as titles are compared: its words (``words_of``, shared with the briefed keys), heading noise
    gone."""
    return words_of(clean_heading(t))


def add(c: Candidate, *, ids=(), urls=(), title=None, text=None, points=(), source=None, markers=()) -> None:
    """Add what one source says of ``c`` to it: its IDs, links, title, text, points, marks, the source itself
    (each once)."""
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


def one_paper_listed_twice(relevant: list[Candidate], shown: list[Candidate], flags: list[Flag]
                            ) -> tuple[list[Candidate], list[Candidate]]:
    """A paper its authors submitted twice (one title under two known IDs, ``verify.listed_twice``: day 21's MuxStream,
    2611.04102 and 2611.04510) is one increment, not two NET-new papers: the item the team wrote most about carries
    the other's IDs ("also written 2611.04510: see section 3") and the team's sources, points and marks about it; the
    other is neither shown nor counted. The flag asks which ID to cite."""
    def team(c: Candidate) -> int:
        return sum(s.kind in ("entry", "card") and not s.beside_subject for s in c.sources)
    for f in flags:
        if f.rule != "id-conflict" or not f.evidence.get("twice"):
            continue
        items = [c for c in relevant if set(c.arxiv_ids) & set(f.evidence["ids"])]
        if len(items) < 2:
            continue
        keep = max(items, key=lambda c: (team(c), c.score))   # the one the team wrote most about
        for c in (c for c in items if c is not keep):   # its IDs, the team's words and marks about it come along
            add(keep, ids=c.arxiv_ids, points=c.points, markers=c.markers)
            for s in (s for s in c.sources if s.kind in ("entry", "card")):
                add(keep, source=s)
            keep.upvotes += [u for u in c.upvotes if u not in keep.upvotes]
            relevant = [x for x in relevant if x is not c]
            shown = [x for x in shown if x is not c]
    return relevant, shown
