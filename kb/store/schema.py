"""SQLModel tables: the typed description of the schema that the migrations create.

The migrations (``kb.store.migrations``) are the source of truth for what is on
disk; these classes describe the same tables for typed writes through SQLAlchemy
Core, and ``tests/store/test_schema.py`` checks that the two agree column by column.
JSON lists are stored as TEXT (portable to PostgreSQL as-is).
"""
from __future__ import annotations

from sqlmodel import Field, SQLModel


class Paper(SQLModel, table=True):
    __tablename__ = "papers"
    arxiv_id: str = Field(primary_key=True)
    latest_version: int | None = None
    title: str = ""
    authors: str = "[]"
    abstract: str = ""
    categories: str = "[]"
    primary_category: str | None = None
    published: str | None = None
    updated: str | None = None
    doi: str | None = None
    journal_ref: str | None = None
    comment: str | None = None
    first_seen: str | None = None
    name_key: str | None = None          # the title's coined name, folded (kb.names.title_name_key)


class PaperVersion(SQLModel, table=True):
    __tablename__ = "paper_versions"
    arxiv_id: str = Field(primary_key=True, foreign_key="papers.arxiv_id")
    version: int = Field(primary_key=True)
    date: str | None = None


class PaperChange(SQLModel, table=True):
    __tablename__ = "paper_changes"
    id: int | None = Field(default=None, primary_key=True)
    arxiv_id: str = Field(foreign_key="papers.arxiv_id")
    version: int | None = None
    field: str
    old_value: str | None = None
    new_value: str | None = None
    source: str


class SightingRow(SQLModel, table=True):
    __tablename__ = "sightings"
    id: int | None = Field(default=None, primary_key=True)
    arxiv_id: str
    source: str
    seen_on: str
    kind: str = ""
    version: int | None = None
    upvotes: int | None = None
    url: str | None = None


class Post(SQLModel, table=True):
    __tablename__ = "posts"
    key: str = Field(primary_key=True)
    feed: str
    title: str = ""
    url: str | None = None
    published: str | None = None
    authors: str = "[]"
    summary: str = ""
    tags: str = "[]"
    content: str = ""
    updated: str | None = None


class PostVersion(SQLModel, table=True):
    __tablename__ = "post_versions"
    id: int | None = Field(default=None, primary_key=True)
    key: str                             # the post's
    valid_from: str | None = None        # the feed's date of this text: its earlier correction, else publication
    title: str = ""
    summary: str = ""
    content: str = ""
    updated: str | None = None


class Source(SQLModel, table=True):
    __tablename__ = "sources"
    name: str = Field(primary_key=True)
    kind: str
    url: str | None = None
    credibility: int | None = None
    etag: str | None = None
    last_modified: str | None = None
    payload_hash: str | None = None


class SourceRun(SQLModel, table=True):
    __tablename__ = "source_runs"
    id: int | None = Field(default=None, primary_key=True)
    source: str
    run_date: str | None = None
    started_at: str
    duration_ms: int | None = None
    status: str
    http_status: int | None = None
    bytes: int | None = None
    parsed: int = 0
    new: int = 0
    updated: int = 0
    skipped: int = 0
    error: str | None = None
    problems: str = "[]"
    manual: int = 0
    recording: int = 0


class WorkspaceFile(SQLModel, table=True):
    __tablename__ = "workspace_files"
    path: str = Field(primary_key=True)
    kind: str
    content_hash: str
    problems: str = "[]"
    stat_key: str | None = None


class NoteRow(SQLModel, table=True):
    __tablename__ = "notes"
    path: str = Field(primary_key=True)
    author: str
    timestamp: str
    title: str = ""
    credibility: int | None = None
    tags: str = "[]"


class NoteEntryRow(SQLModel, table=True):
    __tablename__ = "note_entries"
    id: int | None = Field(default=None, primary_key=True)
    path: str
    number: int
    heading: str = ""
    text: str = ""
    points: str = "[]"
    upvotes: str = "[]"
    markers: str = "[]"
    urls: str = "[]"
    subject: str | None = None
    cites: str = "[]"
    bad_ids: str = "[]"


class Mention(SQLModel, table=True):
    __tablename__ = "mentions"
    id: int | None = Field(default=None, primary_key=True)
    subject: str
    arxiv_id: str | None = None
    version: int | None = None
    origin_kind: str
    origin: str
    entry: int = 0
    seen_on: str | None = None


class CardRow(SQLModel, table=True):
    __tablename__ = "cards"
    path: str = Field(primary_key=True)
    number: int | None = None
    file_id: str | None = None
    arxiv_id: str | None = None
    title: str = ""
    created: str | None = None
    source: str | None = None
    hf_upvotes: int | None = None
    topics: str = "[]"
    primary_topic: int | None = None
    body: str = ""


class QueueItemRow(SQLModel, table=True):
    __tablename__ = "queue_items"
    path: str = Field(primary_key=True)
    rank: int = Field(primary_key=True)
    arxiv_id: str | None = None
    url: str | None = None
    title: str = ""
    score: float | None = None
    note: str = ""


class QueueReading(SQLModel, table=True):
    __tablename__ = "queue_readings"
    id: int | None = Field(default=None, primary_key=True)
    path: str
    read_on: str                         # the run's day
    items: str = "[]"                    # JSON [[rank, arxiv_id, url, title, score], ...], as queue_items held them


class DocVersion(SQLModel, table=True):
    __tablename__ = "doc_versions"
    id: int | None = Field(default=None, primary_key=True)
    topic: str
    path: str
    version: str | None = None
    version_date: str | None = None
    cited_count: int | None = None
    content_hash: str
    read_on: str | None = None
    sections: str = "[]"
    problems: str = "[]"                 # what that reading of the doc found (file and line)
    remarks: str | None = None           # JSON: its lines that anchor nothing (NULL: read before m030)


class DocReading(SQLModel, table=True):
    __tablename__ = "doc_readings"
    id: int | None = Field(default=None, primary_key=True)
    topic: str
    content_hash: str                    # the doc_versions row read (topic, content_hash)
    read_on: str                         # the run's day


class Anchor(SQLModel, table=True):
    __tablename__ = "anchors"
    id: int | None = Field(default=None, primary_key=True)
    topic: str
    section: str
    subject: str
    arxiv_id: str | None = None
    url: str | None = None
    label: str = ""
    anchored_on: str | None = None
    first_seen: str | None = None
    last_seen: str | None = None
    ended_on: str | None = None
    doc_version: str | None = None


class AnchorDate(SQLModel, table=True):
    __tablename__ = "anchor_dates"
    id: int | None = Field(default=None, primary_key=True)
    anchor_id: int                       # anchors.id
    until_day: str                       # the day of the reading that changed the date
    anchored_on: str | None = None       # the date the line gave until then


class TagRow(SQLModel, table=True):
    __tablename__ = "tags"
    subject_kind: str = Field(primary_key=True)
    subject: str = Field(primary_key=True)
    topic: str = Field(primary_key=True)
    score: float
    terms: str = "[]"
    taxonomy_hash: str


class ClassificationRow(SQLModel, table=True):
    __tablename__ = "classifications"
    subject_kind: str = Field(primary_key=True)
    subject: str = Field(primary_key=True)
    relevance: str
    taxonomy_hash: str
    input_hash: str


class DocRelevanceRow(SQLModel, table=True):
    __tablename__ = "doc_relevance"
    subject_kind: str = Field(primary_key=True)
    subject: str = Field(primary_key=True)
    doc: str = Field(primary_key=True)
    relevance: str
    tags: str = "[]"
    model_hash: str


class ClassifyQueueRow(SQLModel, table=True):
    __tablename__ = "classify_queue"
    subject_kind: str = Field(primary_key=True)
    subject: str = Field(primary_key=True)


class Flag(SQLModel, table=True):
    __tablename__ = "flags"
    id: int | None = Field(default=None, primary_key=True)
    rule: str
    fingerprint: str = Field(unique=True)
    topic: str | None = None
    subject: str
    evidence: str = "{}"
    evidence_hash: str = ""
    status: str = "open"
    note: str | None = None
    first_seen: str | None = None
    last_seen: str | None = None
    closed_after: str | None = None     # the date of the topic's latest briefing when the team closed it
    closures: str = "{}"                # the team's closures, evidence hash → status (kb.store.flags.status_after)
    signed: str | None = None           # JSON: unsigned figure → as written with its sign, as the briefing shows it


class Briefing(SQLModel, table=True):
    __tablename__ = "briefings"
    topic: str = Field(primary_key=True)
    date: str = Field(primary_key=True)
    lang: str = Field(primary_key=True)
    format: str = Field(primary_key=True)
    path: str | None = None
    content_hash: str
    net_new: int = 0
    increments: int = 0
    data: str = "{}"


class BriefedItem(SQLModel, table=True):
    __tablename__ = "briefed_items"
    topic: str = Field(primary_key=True)
    key: str = Field(primary_key=True)
    date: str = Field(primary_key=True)


class IdCheck(SQLModel, table=True):
    __tablename__ = "id_checks"
    arxiv_id: str = Field(primary_key=True)
    status: str
    checked_on: str


def _integers_are_64_bit() -> None:
    """Every integer column is 64-bit, as the migrations make it on both backends (SQLite's INTEGER is;
    PostgreSQL's columns are BIGINT, ``migrations.pg_ddl``): a plain ``int`` field would have SQLAlchemy
    send its values as 32-bit (``$1::INTEGER``), and a card numbered by a timestamp or a count above 2³¹
    would be saved on SQLite and refused on PostgreSQL."""
    from sqlalchemy import BigInteger, Integer
    for table in SQLModel.metadata.tables.values():
        for column in table.columns:
            if type(column.type) is Integer:
                column.type = BigInteger()


_integers_are_64_bit()
