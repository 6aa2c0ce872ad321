"""Plain dataclasses that cross the pipeline.

Parsers return these; the store writes them; classifiers and renderers read them.
No database types here: SQLModel tables live in ``kb.store``.
Dates are ISO strings (``2026-10-08`` or ``2026-10-08T19:50``) so records compare,
serialise and hash the same everywhere.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

#: The largest integer a record may carry: the store's integer columns are 64-bit on both backends. A
#: count or number beyond it (upvotes of 10²³, a card numbered with 20 digits) is noise: parsers drop it.
MAX_INT = 2**63 - 1


# --------------------------------------------------------------------------- public sources
@dataclass(frozen=True)
class Tag:
    """A topic tag of a classified subject, from either classifier or from the store."""

    topic: str
    score: float                    # keyword: the topic's weighted evidence; learned: its probability
    terms: tuple[str, ...]          # the terms or features that contributed most, strongest first


@dataclass
class PaperRecord:
    """What one source says about one arXiv paper (one version of it)."""

    arxiv_id: str                       # canonical, versionless (kb.arxiv_id)
    version: int | None = None
    title: str = ""
    authors: list[str] = field(default_factory=list)
    abstract: str = ""
    categories: list[str] = field(default_factory=list)
    primary_category: str | None = None
    published: str | None = None        # date of v1 (ISO date)
    updated: str | None = None          # date of this version (ISO date)
    doi: str | None = None
    journal_ref: str | None = None
    comment: str | None = None
    versions: list[tuple[int, str]] = field(default_factory=list)  # (n, ISO date) when the source lists them


@dataclass
class Sighting:
    """A source saw a paper on a day: a listing announcement, an HF feature, an API hit.

    ``seen_on`` is the source's own date (announcement or featured date), never the
    time kb fetched it, so a past day can be rebuilt from recordings.
    """

    arxiv_id: str
    source: str                         # source name, e.g. "arxiv", "hf", "vllm-blog"
    seen_on: str                        # ISO date
    kind: str = ""                      # new / cross / replace / replace-cross / featured / api / bulk
    version: int | None = None
    upvotes: int | None = None          # HF upvotes observed that day
    url: str | None = None


@dataclass
class PostRecord:
    """One blog or news item, keyed by its guid (else its link)."""

    key: str
    feed: str                           # the configured feed name
    title: str = ""
    url: str | None = None
    published: str | None = None        # ISO date or datetime
    updated: str | None = None          # when the feed says the post last changed, if after it was published
    authors: list[str] = field(default_factory=list)
    summary: str = ""                   # plain text: HTML stripped
    content: str = ""                   # the post's body as plain text (capped), when the feed carries it
    tags: list[str] = field(default_factory=list)
    arxiv_ids: list[str] = field(default_factory=list)  # canonical IDs linked or written in the post


@dataclass
class ParseResult:
    """Everything one parse of one payload produced, plus what was wrong with it.

    ``problems`` are per-item issues that were skipped (the batch still stands);
    a payload that cannot be read at all raises ``kb.errors.ParseError`` instead.
    """

    papers: list[PaperRecord] = field(default_factory=list)
    sightings: list[Sighting] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    empty_day: bool = False             # a well-formed listing with no announcements
    unknown_ids: list[str] = field(default_factory=list)  # IDs a source answered "no such paper" for
    total_results: int | None = None    # the API's opensearch:totalResults, when given


# --------------------------------------------------------------------------- workspace
@dataclass
class UrlRef:
    """A URL written in a note, with the date written beside it, if any."""

    url: str
    date: str | None = None


@dataclass(frozen=True)
class Inline:
    """A line of text as written, Markdown stripped, with the spans that were `code` (start, end)."""

    text: str
    code: tuple[tuple[int, int], ...] = ()

    @classmethod
    def load(cls, value: Any) -> Inline:
        """From its JSON form (a dict), or a plain string as stores written before code spans hold."""
        if isinstance(value, str):
            return cls(value)
        return cls(value.get("text", ""), tuple((a, b) for a, b in value.get("code", ())))


@dataclass(frozen=True)
class PointBlock:
    """What sits under a bullet: a ``table`` (header row, then body rows, each a tuple of cells), a
    ``list`` of nested items, each with its depth below the bullet (1 = directly under it), or a
    ``code`` block: its lines as written, the fence's language word (as written; the renderer decides
    whether to show it) and the depth of the nested item it sits in (0 = the bullet itself)."""

    kind: str
    rows: tuple[tuple[Inline, ...], ...] = ()
    items: tuple[tuple[int, Inline], ...] = ()
    lines: tuple[str, ...] = ()
    lang: str = ""
    depth: int = 0

    @classmethod
    def load(cls, value: dict[str, Any]) -> PointBlock:
        """From its JSON form; fields a store written before code blocks were kept lacks take their defaults."""
        return cls(value["kind"], tuple(tuple(Inline.load(c) for c in r) for r in value.get("rows", ())),
                   tuple((d, Inline.load(i)) for d, i in value.get("items", ())),
                   tuple(value.get("lines", ())), value.get("lang", ""), value.get("depth", 0))


@dataclass(frozen=True)
class Point(Inline):
    """One bullet of a note entry: its text (code spans kept) and the tables, nested items and code blocks
    under it."""

    blocks: tuple[PointBlock, ...] = ()

    @classmethod
    def load(cls, value: Any) -> Point:
        """From its JSON form, or a plain string (a store written before points had structure)."""
        if isinstance(value, str):
            return cls(value)
        head = Inline.load(value)
        return cls(head.text, head.code, tuple(PointBlock.load(b) for b in value.get("blocks", ())))

    def lines(self) -> list[str]:
        """The bullet's text, then each nested item's: what the team wrote as its own lines."""
        return [self.text, *(i.text for b in self.blocks if b.kind == "list" for _, i in b.items)]

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class NoteEntry:
    """One entry of an inbox note: a level-2 section or a top-level list item."""

    number: int                         # 1-based, in order
    heading: str
    text: str                           # the entry's whole text, Markdown stripped to plain text
    points: list[Point] = field(default_factory=list)   # its bullet points
    arxiv_ids: list[str] = field(default_factory=list)  # versioned where written (2607.09701v2)
    urls: list[UrlRef] = field(default_factory=list)
    upvotes: list[int] = field(default_factory=list)
    markers: list[str] = field(default_factory=list)  # verification markers found (⚠, 待核实, …)
    subject: str | None = None          # the paper the entry is about (canonical ID), if it is about one
    bad_ids: list[tuple[str, str]] = field(default_factory=list)  # (as written, why): IDs that cannot exist


@dataclass
class Note:
    """An inbox note, ``inbox/<author>/<timestamp>-<slug>.md``."""

    path: str                           # workspace-relative, POSIX
    author: str
    timestamp: str                      # ISO local datetime from the file name (T00:00 if date only)
    title: str = ""
    credibility: int | None = None      # from front matter; None → kb.toml default
    tags: list[str] = field(default_factory=list)
    entries: list[NoteEntry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


#: The kind of finding a card whose file name and front matter name different papers is.
CARD_ID_MISMATCH = "card-id-mismatch"


@dataclass(frozen=True)
class Finding:
    """A problem in a team file that is a finding of a known kind about one subject (``card-id-mismatch``
    about the front matter's ID). Stored with its kind and subject, so `kb audit` tells two findings
    apart by (kind, subject, file), never by how their text is worded."""

    kind: str
    subject: str
    text: str                           # what a person reads: the ingest report, the file's problems


@dataclass
class Card:
    """A paper card, ``organized/paper_cards/<NNN>-<YYMM>-<NNNNN>.md``."""

    path: str
    number: int | None = None           # NNN of the file name
    file_id: str | None = None          # the ID the file name spells
    arxiv_id: str | None = None         # the front matter's ID (canonical)
    title: str = ""
    created: str | None = None
    source: str | None = None
    hf_upvotes: int | None = None
    topics: list[str] = field(default_factory=list)
    primary_topic: bool | None = None
    body: str = ""
    problems: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)   # problems of a known kind: file name vs arxiv_id


@dataclass
class QueueItem:
    """One line of the work queue."""

    rank: int
    arxiv_id: str | None = None
    url: str | None = None
    title: str = ""
    score: float | None = None
    note: str = ""


@dataclass
class AnchorRef:
    """An arXiv ID or URL written in a knowledge-doc section."""

    arxiv_id: str | None = None
    url: str | None = None
    label: str = ""                     # the line's text
    anchored_on: str | None = None      # the date written on the line, if any
    line: int = 0                       # 1-based line number in the doc
    date_unreadable: bool = False       # a date is written but is none ("2026-02-30"): the date is unknown


@dataclass
class Section:
    """A ``§``-numbered section of a knowledge doc."""

    number: str                         # as written without §: "2.3", "1.(9)", "2.3.1"
    title: str
    level: int                          # heading level (2 for ##)
    line: int                           # 1-based line of the heading
    end_line: int                       # last line that belongs to it (subsections included)
    parent: str | None = None
    anchors: list[AnchorRef] = field(default_factory=list)  # its own lines, not its subsections'


@dataclass
class KnowledgeDoc:
    """A curated knowledge doc, ``organized/knowledge/<topic>.md``."""

    path: str
    topic: str
    version: str | None = None          # "v310"
    version_date: str | None = None     # ISO date
    version_note: str = ""
    cited_count: int | None = None      # the hand-kept 引→N
    sections: list[Section] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)   # its lines that anchor nothing: a history, a section's prose
