"""The briefing's data: plain dataclasses, independent of the store and of the templates."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kb.records import Point


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

    @property
    def key(self) -> str:
        if self.path:
            return f"{self.path}#{self.entry}" if self.entry is not None else self.path
        return self.url or self.name


@dataclass
class Candidate:
    """An item of the window: one paper, post or note entry, merged across sources."""

    key: str
    arxiv_ids: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    points: list[Point] = field(default_factory=list)        # the team's bullets, with their tables and sub-items
    sources: list[SourceRef] = field(default_factory=list)
    upvotes: list[tuple[int, str, str]] = field(default_factory=list)   # (value, where, the day it was counted)
    markers: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)                   # announce types, featured, …
    card_relevance: str | None = None
    withdrawn_from: list[str] = field(default_factory=list)   # sections whose anchor of it the team withdrew
    card_title: str | None = None                                  # the team's card's title, if any
    bad_ids: list[tuple[str, str, str]] = field(default_factory=list)  # (as written, why, where): impossible IDs
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
    excluded: bool = False
    facts: list[str] = field(default_factory=list)
    score: float = 0.0
    why: list[dict[str, str]] = field(default_factory=list)   # [{"code", "detail"}], words in the templates
    put_forward: bool = False       # the briefing shows it, counts it as new, or its markers ask for a check

    @property
    def subjects(self) -> list[str]:
        return self.arxiv_ids + self.urls


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
    suggestion: str = ""
    id: int | None = None
    status: str = "open"
    label: str = ""                 # "#12": the stored id, the one `kb flags resolve 12` takes

    @property
    def fingerprint(self) -> str:
        return f"{self.rule}:{self.subject}"
