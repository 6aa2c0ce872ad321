"""The briefing's data: plain dataclasses, independent of the store and of the templates."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from kb.records import Point

# When a source's fetch counted upvotes: the nightly's read of the day's list, the day's last count.
FETCHED = "T24:00"


@dataclass
class SourceRef:
    """One place an item came from, citable in the briefing."""

    kind: str                       # entry, card, post, arxiv, hf, api, bulk
    name: str                       # author, feed, or source name
    path: str | None = None         # workspace file (entries, cards)
    entry: int | None = None        # entry number within a note
    url: str | None = None
    date: str | None = None
    credibility: int = 3
    text: str = ""                  # what this source says of the item (a note entry, a post, an abstract)
    cites: tuple[str, ...] = ()     # every arXiv ID the source cites (a note entry may cite several)
    corrected: str | None = None    # a post corrected in place after it was published: the day it changed
    also_about: tuple[str, ...] = ()  # a note entry whose text names its papers: the others beside its subject
    own_points: tuple[Any, ...] = ()  # such an entry's own points (its item's are every source's, merged)
    # a note entry listed as a source of a paper it cites beside its subject (``collect.cited_anchored``): its
    # key names the subject's item, so the team's label of that key and its stored result are not this item's
    beside_subject: bool = False
    post_key: str | None = None     # a post's key in the store (``feed|guid``), which a correction of it names

    @property
    def key(self) -> str:
        if self.path:
            return f"{self.path}#{self.entry}" if self.entry is not None else self.path
        return self.url or self.name


CHECKABLE_CREDIBILITY = 4   # ⭐⭐⭐⭐: a source trusted with figures it gives no link for


@dataclass(eq=False)   # an item is itself, not its fields' values: ``c in shown`` is by identity
class Candidate:
    """An item of the window: one paper, post or note entry, merged across sources."""

    key: str
    arxiv_ids: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    points: list[Point] = field(default_factory=list)        # the team's bullets, with their tables and sub-items
    sources: list[SourceRef] = field(default_factory=list)
    # (value, where, when it was counted: a day, a day and time, or a day and FETCHED)
    upvotes: list[tuple[int, str, str]] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)                   # announce types, featured, …
    replaced: int = 0        # the version a replacement the window announces carries (v2 of an anchored paper)
    withdrawn: bool = False  # … and that replacement is its authors' withdrawal ("This paper has been withdrawn")
    card_relevance: str | None = None
    withdrawn_from: list[str] = field(default_factory=list)   # sections whose anchor of it the team withdrew,
    # each as the doc version that last had it numbers it ("2.3 (v310)")
    card_title: str | None = None                                  # the team's card's title, if any
    post_title: str | None = None   # the title its post was published under (an English briefing's heading)
    card_topics: list[str] = field(default_factory=list)           # the tags the team's card gives it
    bad_ids: list[tuple[str, str, str]] = field(default_factory=list)  # (as written, why, where): impossible IDs
    short_ids: list[tuple[str, str, str]] = field(default_factory=list)   # (as written, why, where): "2610.1635"
    # another known paper's ID written beside this one's name → (arXiv's title of that ID, where it was written)
    miscited: dict[str, tuple[str, list[str]]] = field(default_factory=dict)
    # the IDs a team card writes where its front matter says another: its file name's ("406-2610-15590.md"
    # with arxiv_id 2610.15950), its text's beside its own name ("EtherKV（2611.01828）"): written by the team, so
    # IDs of the item, never the key it is merged by
    card_file_ids: list[str] = field(default_factory=list)
    # Filled by the judge:
    arxiv_id: str | None = None
    url: str | None = None
    title: str = ""
    relevance: str = "none"
    topics: list[str] = field(default_factory=list)
    terms: set[str] = field(default_factory=set)
    section: str | None = None
    category: str = "confirmation"
    anchored_in: list[str] = field(default_factory=list)
    briefed_on: str | None = None
    recap: bool = False
    # the anchored papers the team's own lines say the item does the same as ("和今早刚锚的 PrimeCtx 基本是一回事"),
    # each by its name: a repeat by the team's word, shown as a confirmation with its boundary flag
    same_as: list[str] = field(default_factory=list)
    excluded: bool = False
    excluded_by: list[str] = field(default_factory=list)   # who says it is not for the doc: authors, cards' files
    # the fields off the doc's domain its words name ("graph attention network"): an adjacent item the doc has no
    # section for (``placing.off_the_domain``)
    off_domain: list[str] = field(default_factory=list)
    # the team's last word on what becomes of it (``decisions.decision_of``): the doc's ("KernCast、GraphKeep 不锚：…"
    # in its history), its notes' or cards' ("不锚，不进队")
    decision: dict[str, Any] | None = None
    facts: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)   # figures the doc's line gives too: "34% (LayerLink, §2.4.1)"
    score: float = 0.0
    why: list[dict[str, str]] = field(default_factory=list)   # [{"code", "detail"}], words in the templates
    put_forward: bool = False       # the briefing shows it, counts it as new, or its markers ask for a check
    aside: bool = False             # no paper of the doc's, a measurement of the team's it checks (build.py)

    @property
    def decided_out(self) -> bool:
        """The doc itself keeps the item out ("不锚", "不进文档" in its history): settled, not proposed again."""
        return bool(self.decision and self.decision.get("in_doc") and self.decision["against"])

    @property
    def suggested_section(self) -> str | None:
        """The section the briefing suggests (``§2.1``): none for an item the doc itself keeps out, whose ``section``
        still says which anchors it is read against."""
        return f"§{self.section}" if self.section and not self.decided_out else None

    @property
    def subjects(self) -> list[str]:
        return self.arxiv_ids + self.urls

    @property
    def written_ids(self) -> list[str]:
        """Every arXiv ID the item is written with: its IDs, then those its card writes against its front matter
        (the file name's, its text's beside its own name). More than one is an ID conflict (``verify.id_conflicts``)."""
        return self.arxiv_ids + [i for i in self.card_file_ids if i not in self.arxiv_ids]

    @property
    def entry_keys(self) -> list[str]:
        """The keys (``path#N``) of the note entries the item is the subject of: what a team correction
        (``kb label``) and the classify stage's stored result of an entry are keyed by. An entry that only cites
        the item beside its subject is not among them: its key is the subject's."""
        return [s.key for s in self.sources if s.kind == "entry" and not s.beside_subject]

    @property
    def label_keys(self) -> list[str]:
        """Every key a team correction (``kb label``) of the item may be written under, the first one corrected
        deciding: its arXiv IDs, then its note entries, then its posts (an item merging a post with a note about
        it is the post's too)."""
        return [*self.arxiv_ids, *self.entry_keys, *(s.post_key for s in self.sources if s.post_key)]

    @property
    def unsourced(self) -> bool:
        """Figures with nothing to check them against: from sources below ⭐⭐⭐⭐, with no arXiv ID or URL.

        The ``unsourced-claim`` rule flags them, and the judge calls the item an observation awaiting
        verification rather than an engineering increment: a briefing that counts a figure as new must
        not also say nobody can check it."""
        best = max((s.credibility for s in self.sources), default=3)
        return best < CHECKABLE_CREDIBILITY and bool(self.facts) and not self.arxiv_ids and not self.url


@dataclass
class Window:
    start: str                      # exclusive local datetime (YYYY-MM-DDTHH:MM)
    end: str                        # inclusive
    previous: str | None            # date of the previous briefing, if any

    def contains(self, stamp: str | None) -> bool:
        """Is a date or local datetime inside the window? A bare date counts as its end of day."""
        if not stamp:
            return False
        s = stamp if "T" in stamp else stamp + "T23:59"
        return self.start < s[:16] <= self.end


@dataclass
class Flag:
    rule: str
    subject: str
    evidence: dict[str, Any]
    # What the briefing says beside the evidence without being part of it: a change here reopens nothing.
    context: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    status: str = "open"
    label: str = ""                 # "#12": the stored id, the one `kb flags resolve 12` takes

    @property
    def fingerprint(self) -> str:
        return f"{self.rule}:{self.subject}"


@dataclass
class Briefing:
    """A day's briefing of one topic, as ``build_briefing`` makes it: ``as_dict()`` is the ``--format json``
    contract and what the templates read. Its flags are ``Flag``s until ``sync_flags`` gives them ids."""

    topic: str                                  # the knowledge doc's slug
    date: str                                   # the briefing's day D (YYYY-MM-DD)
    timezone: str                               # [workspace] timezone: the window's local time
    section_titles: dict[str, str]              # "§2.1" → the doc's heading
    topic_titles: dict[str, dict[str, str]]     # taxonomy topic → {"zh": …, "en": …}
    follow_ups: list[dict[str, Any]]            # what the sources say to do next: {"title", "name", "point", "sources"}
    top_item: dict[str, Any] | None             # the best increment shown, by tier then score: {"title", "why"}
    stale_sources: list[dict[str, Any]]         # sources failing or quiet for several runs
    window: dict[str, str | None]               # {"start", "end", "previous_briefing"}
    baseline: dict[str, Any]                    # the knowledge doc read: path, version, anchors cited
    density: dict[str, Any]                     # NET-new count, level and what it was compared with
    since_previous: dict[str, Any] | None       # what changed since the previous briefing (None: the first)
    counts: dict[str, int]                      # every number the briefing prints
    increments: list[dict[str, Any]]            # §2: the top items, with sources, points and relation
    others: list[dict[str, Any]]                # every other relevant item, NET-new and engineering first
    others_total: int                           # len(others)
    others_listed: int                          # how many of others the Markdown lists
    flags: list[Flag]                           # what the verification rules raised (§3)
    arxiv_ids: list[dict[str, Any]]             # §4: NET-new papers, then continuing anchors, each ID once
    sources: list[dict[str, Any]]               # every source and team file of the window, with its status
    failing_sources: list[dict[str, Any]]       # the sources that failed today (of sources)
    team_files_error: str | None = None         # why today's read of the team's files failed (a doc refused)

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict, in order (shallow: the values are already plain data; the flags
        are whatever the field holds, so the caller puts ``sync_flags``' dicts in their place)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
