"""Named schema migrations, recorded in the ``migrations`` table and run on every open.

Each migration is frozen once released: a store on a user's disk was made by some
prefix of this list, and opening it applies the rest, in order, each in its own
transaction. Never edit a released migration; append a new one.

A migration that asks for the team's files to be read again does so by giving their
``workspace_files`` rows a hash no file has (``content_hash = ''``; a file's kept stat,
``stat_key``, vouches only for a real hash), never by deleting
them: the rows are what tells kb a file it read is gone, so a file removed before the
upgrade is forgotten with everything its reading stored. m010, m013, m015, m022 and
m023 deleted the rows when first released and were corrected so (the one exception
to the rule above: on a store that already applied them the change is nil, and on
one that has not it reads the same files again, only without losing the record that
they were read).

The list is written once for both backends (each runs it: ``backend_sqlite.migrate``,
``backend_pg.migrate``). The DDL is plain SQL that both accept; on PostgreSQL its column
types say what SQLite means by them (``pg_ddl``: 64-bit integers, an identity for an
``INTEGER PRIMARY KEY``, double precision, byte-order text). A migration marked
``sqlite_only`` (FTS5) carries its PostgreSQL counterpart in ``postgresql``.
"""
from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Migration:
    name: str
    statements: tuple[str, ...]
    sqlite_only: bool = False
    # Data that SQL alone cannot move (JSON to rows): run after the statements, in the same transaction,
    # on a DB-API connection taking ``?`` placeholders (sqlite3's, or kb's facade over psycopg).
    # A sqlite_only migration's step runs on SQLite only.
    then: Callable[[Any], None] | None = None
    # What a sqlite_only migration is on PostgreSQL (nothing, when SQLite alone needed it).
    postgresql: tuple[str, ...] = ()
    # The migration only asks for data to be made again (files read again on the next ingest): the tables
    # are this kb's without it, so a user who may only read the store reads it before a writer applies it.
    data_only: bool = False


M001_INITIAL = Migration("m001_initial", (
    """CREATE TABLE papers (
        arxiv_id TEXT PRIMARY KEY,
        latest_version INTEGER,
        title TEXT NOT NULL DEFAULT '',
        authors TEXT NOT NULL DEFAULT '[]',
        abstract TEXT NOT NULL DEFAULT '',
        categories TEXT NOT NULL DEFAULT '[]',
        primary_category TEXT,
        published TEXT,
        updated TEXT,
        doi TEXT,
        journal_ref TEXT,
        comment TEXT,
        first_seen TEXT
    )""",
    """CREATE TABLE paper_versions (
        arxiv_id TEXT NOT NULL REFERENCES papers(arxiv_id),
        version INTEGER NOT NULL,
        date TEXT,
        PRIMARY KEY (arxiv_id, version)
    )""",
    """CREATE TABLE paper_changes (
        id INTEGER PRIMARY KEY,
        arxiv_id TEXT NOT NULL REFERENCES papers(arxiv_id),
        version INTEGER,
        field TEXT NOT NULL,
        old_value TEXT,
        new_value TEXT,
        source TEXT NOT NULL
    )""",
    """CREATE TABLE sightings (
        id INTEGER PRIMARY KEY,
        arxiv_id TEXT NOT NULL,
        source TEXT NOT NULL,
        seen_on TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT '',
        version INTEGER,
        upvotes INTEGER,
        url TEXT,
        UNIQUE (arxiv_id, source, seen_on, kind)
    )""",
    "CREATE INDEX ix_sightings_seen_on ON sightings (seen_on)",
    """CREATE TABLE posts (
        key TEXT PRIMARY KEY,
        feed TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        url TEXT,
        published TEXT,
        authors TEXT NOT NULL DEFAULT '[]',
        summary TEXT NOT NULL DEFAULT '',
        tags TEXT NOT NULL DEFAULT '[]'
    )""",
    "CREATE INDEX ix_posts_published ON posts (published)",
    """CREATE TABLE sources (
        name TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        url TEXT,
        credibility INTEGER,
        etag TEXT,
        last_modified TEXT
    )""",
    """CREATE TABLE source_runs (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        run_date TEXT,
        started_at TEXT NOT NULL,
        duration_ms INTEGER,
        status TEXT NOT NULL,
        http_status INTEGER,
        bytes INTEGER,
        parsed INTEGER NOT NULL DEFAULT 0,
        new INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        skipped INTEGER NOT NULL DEFAULT 0,
        error TEXT
    )""",
    "CREATE INDEX ix_source_runs_source ON source_runs (source, id)",
    """CREATE TABLE workspace_files (
        path TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        problems TEXT NOT NULL DEFAULT '[]'
    )""",
    """CREATE TABLE notes (
        path TEXT PRIMARY KEY,
        author TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        credibility INTEGER,
        tags TEXT NOT NULL DEFAULT '[]'
    )""",
    """CREATE TABLE note_entries (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        number INTEGER NOT NULL,
        heading TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL DEFAULT '',
        points TEXT NOT NULL DEFAULT '[]',
        upvotes TEXT NOT NULL DEFAULT '[]',
        markers TEXT NOT NULL DEFAULT '[]',
        urls TEXT NOT NULL DEFAULT '[]',
        UNIQUE (path, number)
    )""",
    """CREATE TABLE mentions (
        id INTEGER PRIMARY KEY,
        subject TEXT NOT NULL,
        arxiv_id TEXT,
        version INTEGER,
        origin_kind TEXT NOT NULL,
        origin TEXT NOT NULL,
        entry INTEGER NOT NULL DEFAULT 0,
        seen_on TEXT,
        UNIQUE (origin_kind, origin, entry, subject)
    )""",
    "CREATE INDEX ix_mentions_subject ON mentions (subject)",
    """CREATE TABLE cards (
        path TEXT PRIMARY KEY,
        number INTEGER,
        file_id TEXT,
        arxiv_id TEXT,
        title TEXT NOT NULL DEFAULT '',
        created TEXT,
        source TEXT,
        hf_upvotes INTEGER,
        topics TEXT NOT NULL DEFAULT '[]',
        primary_topic INTEGER,
        body TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE queue_items (
        path TEXT NOT NULL,
        rank INTEGER NOT NULL,
        arxiv_id TEXT,
        url TEXT,
        title TEXT NOT NULL DEFAULT '',
        score REAL,
        note TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (path, rank)
    )""",
    """CREATE TABLE doc_versions (
        id INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        path TEXT NOT NULL,
        version TEXT,
        version_date TEXT,
        cited_count INTEGER,
        content_hash TEXT NOT NULL,
        read_on TEXT,
        sections TEXT NOT NULL DEFAULT '[]',
        UNIQUE (topic, content_hash)
    )""",
    """CREATE TABLE anchors (
        id INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        section TEXT NOT NULL,
        subject TEXT NOT NULL,
        arxiv_id TEXT,
        url TEXT,
        label TEXT NOT NULL DEFAULT '',
        anchored_on TEXT,
        first_seen TEXT,
        last_seen TEXT,
        ended_on TEXT,
        doc_version TEXT,
        UNIQUE (topic, section, subject)
    )""",
    "CREATE INDEX ix_anchors_arxiv ON anchors (arxiv_id)",
    """CREATE TABLE tags (
        subject_kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        topic TEXT NOT NULL,
        score REAL NOT NULL,
        terms TEXT NOT NULL DEFAULT '[]',
        taxonomy_hash TEXT NOT NULL,
        PRIMARY KEY (subject_kind, subject, topic)
    )""",
    """CREATE TABLE classifications (
        subject_kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        relevance TEXT NOT NULL,
        taxonomy_hash TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        PRIMARY KEY (subject_kind, subject)
    )""",
    """CREATE TABLE flags (
        id INTEGER PRIMARY KEY,
        rule TEXT NOT NULL,
        fingerprint TEXT NOT NULL UNIQUE,
        topic TEXT,
        subject TEXT NOT NULL,
        evidence TEXT NOT NULL DEFAULT '{}',
        evidence_hash TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'open',
        note TEXT,
        first_seen TEXT,
        last_seen TEXT
    )""",
    """CREATE TABLE briefings (
        topic TEXT NOT NULL,
        date TEXT NOT NULL,
        lang TEXT NOT NULL,
        format TEXT NOT NULL,
        path TEXT,
        content_hash TEXT NOT NULL,
        net_new INTEGER NOT NULL DEFAULT 0,
        increments INTEGER NOT NULL DEFAULT 0,
        data TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (topic, date, lang, format)
    )""",
))

# Full-text search over papers, note entries and posts. CJK text is indexed as
# overlapping bigrams (kb.store.fts.segment) under unicode61, so two-character
# words such as 推理 are found; see docs/architecture.md for the measurement.
# On PostgreSQL: the same tokens as a tsvector (title weighted A, body D) made by kb, its
# length for bm25, and the corpus totals as rows that writers add (one writer's delta each,
# so no row is fought over; the nightly adds them up). kb_bm25 is FTS5's bm25() (k1 1.2,
# b 0.75, every column weight 1) in FTS5's order of float operations: the same scores. tf is
# ts_rank_cd with all weights 1 and no normalisation, which counts the occurrences of a
# lexeme, or of a phrase inside one column.
M002_FTS = Migration("m002_fts", (
    """CREATE VIRTUAL TABLE search_index USING fts5(
        kind UNINDEXED, ref UNINDEXED, title, body, tokenize = 'unicode61 remove_diacritics 2'
    )""",
), sqlite_only=True, postgresql=(
    """CREATE TABLE search_index (
        kind TEXT COLLATE "C" NOT NULL,
        ref TEXT COLLATE "C" NOT NULL,
        tsv tsvector NOT NULL,
        ntok BIGINT NOT NULL,
        PRIMARY KEY (kind, ref)
    )""",
    "CREATE INDEX ix_search_index_tsv ON search_index USING gin (tsv)",
    "CREATE TABLE search_stats (ndocs BIGINT NOT NULL, ntok BIGINT NOT NULL)",
    """CREATE FUNCTION kb_bm25(doc tsvector, ntok bigint, pq tsquery[], idf float8[], avgdl float8)
    RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT sum(idf[i] * ((tf * (1.2::float8 + 1.0::float8))
                             / (tf + 1.2::float8 * (1::float8 - 0.75::float8 + 0.75::float8 * ntok / avgdl)))
                   ORDER BY i)
          FROM generate_subscripts(pq, 1) AS i,
               LATERAL (SELECT ts_rank_cd('{1,1,1,1}', doc, pq[i])::float8 AS tf) AS t
    $$""",
))

# Posts keep their body text: the briefing quotes its facts (parameters, measurements).
M003_POST_CONTENT = Migration("m003_post_content", (
    "ALTER TABLE posts ADD COLUMN content TEXT NOT NULL DEFAULT ''",
))

# What the arXiv API said about IDs the team cited: found, or unknown to arXiv.
M004_ID_CHECKS = Migration("m004_id_checks", (
    """CREATE TABLE id_checks (
        arxiv_id TEXT PRIMARY KEY,
        status TEXT NOT NULL,
        checked_on TEXT NOT NULL
    )""",
))

# The ledger names what a run skipped (a bad item, a file outside the workspace), not only failures.
M005_RUN_PROBLEMS = Migration("m005_run_problems", (
    "ALTER TABLE source_runs ADD COLUMN problems TEXT NOT NULL DEFAULT '[]'",
))

# Incremental nightlies: the digest of each source's last payload (an unchanged recording or
# body is not parsed again) and of the inputs each briefing was built from (reused if unchanged).
M006_INCREMENTAL = Migration("m006_incremental", (
    "ALTER TABLE sources ADD COLUMN payload_hash TEXT",
    "ALTER TABLE briefings ADD COLUMN inputs_hash TEXT",
))

# A night classifies what the night brought: writers queue the subjects they changed (every subject
# not yet classified is queued here once). Briefings are built every night and written when their
# bytes differ, so the inputs digest goes.
M007_CLASSIFY_QUEUE = Migration("m007_classify_queue", (
    """CREATE TABLE classify_queue (
        subject_kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        PRIMARY KEY (subject_kind, subject)
    )""",
    "INSERT INTO classify_queue (subject_kind, subject) SELECT 'paper', arxiv_id FROM papers p WHERE NOT EXISTS "
    "(SELECT 1 FROM classifications c WHERE c.subject_kind = 'paper' AND c.subject = p.arxiv_id)",
    "INSERT INTO classify_queue (subject_kind, subject) SELECT 'post', key FROM posts p WHERE NOT EXISTS "
    "(SELECT 1 FROM classifications c WHERE c.subject_kind = 'post' AND c.subject = p.key)",
    "INSERT INTO classify_queue (subject_kind, subject) SELECT 'entry', path || '#' || number FROM note_entries e "
    "WHERE NOT EXISTS (SELECT 1 FROM classifications c WHERE c.subject_kind = 'entry' AND "
    "c.subject = e.path || '#' || e.number)",
    "CREATE INDEX ix_classifications_model ON classifications (taxonomy_hash)",
    "CREATE INDEX ix_notes_timestamp ON notes (timestamp)",
    "ALTER TABLE briefings DROP COLUMN inputs_hash",
    # A run on files the user named speaks for that run, not for the configured source's health;
    # a run on the configured recordings (offline) is told apart from a fetch.
    "ALTER TABLE source_runs ADD COLUMN manual INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE source_runs ADD COLUMN recording INTEGER NOT NULL DEFAULT 0",
))



def _briefed_from_json(conn: sqlite3.Connection) -> None:
    """Fill ``briefed_items`` from the data of the briefings written before it existed."""
    from kb.text import briefed_keys
    for topic, day, blob in conn.execute("SELECT topic, date, data FROM briefings WHERE format = 'json' AND lang = ''"):
        rows = [(topic, key, day) for key in briefed_keys(json.loads(blob))]
        conn.executemany("INSERT INTO briefed_items (topic, key, date) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", rows)


# What each briefing put forward, one row per ID spelling, URL and title key: a later day asks
# about its own candidates instead of reading every earlier briefing's JSON.
M008_BRIEFED_ITEMS = Migration("m008_briefed_items", (
    """CREATE TABLE briefed_items (
        topic TEXT NOT NULL,
        key TEXT NOT NULL,
        date TEXT NOT NULL,
        PRIMARY KEY (topic, key, date)
    )""",
), then=_briefed_from_json)

# FTS5 merges index segments as it inserts (automerge), and on a backfilled store those merges
# cost more than the night's own writes. They are turned off; each nightly does a bounded
# amount of merge work instead (kb.store.search.merge_some), so a night's cost stays the night's.
M009_FTS_MERGE = Migration("m009_fts_bounded_merge", (
    "INSERT INTO search_index (search_index, rank) VALUES ('automerge', 0)",
), sqlite_only=True)

# One answer to "which papers does this note entry cite": the parser's, stored — the entry's
# subject, every ID it cites, and what it writes like an ID that cannot exist. Notes are read
# again on the next ingest to fill them.
M010_ENTRY_CITES = Migration("m010_entry_cites", (
    "ALTER TABLE note_entries ADD COLUMN subject TEXT",
    "ALTER TABLE note_entries ADD COLUMN cites TEXT NOT NULL DEFAULT '[]'",
    "ALTER TABLE note_entries ADD COLUMN bad_ids TEXT NOT NULL DEFAULT '[]'",
    "UPDATE workspace_files SET content_hash = '' WHERE kind = 'note'",
    # A post corrected in place keeps its published date; the day it changed puts it in that day's window.
    "ALTER TABLE posts ADD COLUMN updated TEXT",
    "CREATE INDEX ix_posts_updated ON posts (updated)",
    "UPDATE sources SET payload_hash = NULL WHERE kind = 'blog'",
))


REINDEX_BATCH = 5000      # documents per insert when the index is rebuilt


def reindex_tokens(conn: sqlite3.Connection) -> None:
    """Index every document of a SQLite store again as ``kb.store.fts.index_text`` writes it now
    (m011; ``kb db copy`` into a new file)."""
    from kb.store.fts import documents, index_text
    conn.execute("DELETE FROM search_index")
    batch: list[tuple[int, str, str, str, str]] = []
    for kind, rowid, ref, title, body in documents(conn.cursor().execute, rowids=True):
        batch.append((rowid, kind, ref, index_text(title), index_text(body)))
        if len(batch) >= REINDEX_BATCH:
            conn.executemany("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (?, ?, ?, ?, ?)", batch)
            batch = []
    conn.executemany("INSERT INTO search_index (rowid, kind, ref, title, body) VALUES (?, ?, ?, ?, ?)", batch)


# The index holds the tokens kb makes of the text (kb.store.fts.index_text: unicode61's rules applied in
# Python), not the text: the same tokens a PostgreSQL store indexes, so both match and rank alike. Only
# characters newer than unicode61's Unicode 6.1 tables (emoji) were tokens before; the rows are rebuilt.
M011_FTS_TOKENS = Migration("m011_fts_tokens", (), sqlite_only=True, then=reindex_tokens)


# The learned classifier judges relevance per knowledge doc (each doc's model is the base model
# adapted to that doc's anchors, cards and corrections): one row per subject and doc, beside the
# doc-independent tags and relevance in ``classifications``.
M012_DOC_RELEVANCE = Migration("m012_doc_relevance", (
    """CREATE TABLE doc_relevance (
        subject_kind TEXT NOT NULL,
        subject TEXT NOT NULL,
        doc TEXT NOT NULL,
        relevance TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '[]',
        model_hash TEXT NOT NULL,
        PRIMARY KEY (subject_kind, subject, doc)
    )""",
))

# A note entry's points keep the tables, nested items and code spans written under each bullet
# (``kb.records.Point``; the column holds their JSON). Notes are read again on the next ingest to fill them.
M013_POINT_BLOCKS = Migration("m013_point_blocks", (
    "UPDATE workspace_files SET content_hash = '' WHERE kind = 'note'",
))

# A flag closed by the team remembers after which briefing it was closed (the latest briefing of its
# topic at the time): the next briefing counts it among the flags closed since the previous one.
M014_FLAG_CLOSED_AFTER = Migration("m014_flag_closed_after", (
    "ALTER TABLE flags ADD COLUMN closed_after TEXT",
))

# Points keep the code blocks written under a bullet too (a launch command, a config: ``PointBlock`` kind
# "code", its lines and language word). The notes are read again on the next ingest, as for m013; points
# stored before it still load (their tables and nested items, no code).
M015_POINT_CODE = Migration("m015_point_code", (
    "UPDATE workspace_files SET content_hash = '' WHERE kind = 'note'",
))

def _paper_names(conn: Any) -> None:
    """Fill ``papers.name_key`` for the papers stored before it existed."""
    from kb.names import title_name_key
    rows = [(key, aid) for aid, title in conn.execute("SELECT arxiv_id, title FROM papers").fetchall()
            if (key := title_name_key(title))]
    conn.executemany("UPDATE papers SET name_key = ? WHERE arxiv_id = ?", rows)


# Each paper's coined name (``FlashPD: …`` → flashpd), indexed: a name a note writes beside the wrong
# ID is looked up among every stored paper, not only the day's (kb.names).
M016_PAPER_NAMES = Migration("m016_paper_names", (
    "ALTER TABLE papers ADD COLUMN name_key TEXT",
    "CREATE INDEX ix_papers_name_key ON papers (name_key)",
), then=_paper_names)

# The problems a reading of a knowledge doc found (duplicate section numbers, impossible and future dates),
# kept with that version: the briefing of the day a version is read lists them, and a rebuilt past day
# lists its own version's. Filled for stored versions from the file's last reading, where it is that version.
M017_DOC_PROBLEMS = Migration("m017_doc_problems", (
    "ALTER TABLE doc_versions ADD COLUMN problems TEXT NOT NULL DEFAULT '[]'",
    "UPDATE doc_versions SET problems = coalesce((SELECT w.problems FROM workspace_files w WHERE w.path = "
    "doc_versions.path AND w.content_hash = doc_versions.content_hash), '[]')",
))

# An earlier briefing's item put forward with an arXiv ID leaves its title as a paper's title, which
# another known paper does not match (kb.text.briefed_keys): every stored briefing's keys made again.
M018_BRIEFED_TITLES = Migration("m018_briefed_titles", ("DELETE FROM briefed_items",), then=_briefed_from_json)


def _reindex(conn: Any) -> None:
    """The whole search index made again from the tables, on either backend (m019)."""
    raw = getattr(conn, "raw", None)   # kb's facade over psycopg
    if raw is not None:
        from kb.store.pg_reindex import rebuild
        rebuild(raw)
    else:
        reindex_tokens(conn)


# A CJK run's characters are tokens too (kb.store.fts.cjk_chars): a query of one character finds it inside
# a longer run (锚 in 已锚); every stored document is indexed again, on both backends.
M019_FTS_CJK_CHARS = Migration("m019_fts_cjk_chars", (), then=_reindex)

def _doc_readings(conn: Any) -> None:
    """Fill ``doc_readings`` from the versions' first readings (m020), in their order. A doc on disk that
    is not its topic's latest first reading was reverted after all of them, on a day not recorded: it is
    read the day after the latest, so every day up to that one keeps the version it was briefed with."""
    from datetime import date, timedelta
    rows = conn.execute("SELECT d.topic, d.content_hash, d.read_on, w.content_hash FROM doc_versions d "
                        "LEFT JOIN workspace_files w ON w.path = d.path AND w.content_hash = d.content_hash "
                        "WHERE d.read_on IS NOT NULL ORDER BY d.read_on, d.id").fetchall()
    readings = [(topic, h, day) for topic, h, day, _ in rows]
    last = {topic: (h, day) for topic, h, day, _ in rows}               # each topic's latest first reading
    for topic, h, _, on_disk in rows:
        if on_disk is not None and last[topic][0] != h:
            later = (date.fromisoformat(last[topic][1]) + timedelta(days=1)).isoformat()
            readings.append((topic, h, later))
    conn.executemany("INSERT INTO doc_readings (topic, content_hash, read_on) VALUES (?, ?, ?)", readings)


# Every reading of a knowledge doc's text, in order: the version of day D is the one read last by D. A
# version's own row keeps only its first reading, so a doc reverted to an earlier text the day it had
# changed briefed that day from the text no longer on disk.
M020_DOC_READINGS = Migration("m020_doc_readings", (
    """CREATE TABLE doc_readings (
        id INTEGER PRIMARY KEY,
        topic TEXT NOT NULL,
        content_hash TEXT NOT NULL,
        read_on TEXT NOT NULL
    )""",
    "CREATE INDEX ix_doc_readings_topic ON doc_readings (topic, read_on)",
), then=_doc_readings)

# The team's closures of a flag (verified, dismissed), each with the evidence it was made on, as a JSON map
# evidence hash → status: evidence that changed reopens the flag, and when evidence the team closed it on is
# back (a note moved away and back), so is that closure. Before, the hash of the evidence in between
# replaced it and the flag stayed open for good.
M021_FLAG_CLOSURES = Migration("m021_flag_closures", (
    "ALTER TABLE flags ADD COLUMN closures TEXT NOT NULL DEFAULT '{}'",
    "UPDATE flags SET closures = '{\"' || evidence_hash || '\": \"' || status || '\"}' "
    "WHERE status IN ('verified', 'dismissed') AND evidence_hash <> ''",
))

# An ID-shaped part of a web address that is not a paper's (a release tagged 2610.09701, a post's slug) cites
# no paper (``kb.citations.find_cited_ids``): the team's notes, queue and docs, and the blog feeds, are read
# again on the next ingest, so an anchor or a mention made from such an address is corrected.
M022_CITED_IDS = Migration("m022_cited_ids", (
    "UPDATE workspace_files SET content_hash = '' WHERE kind IN ('note', 'queue', 'knowledge')",
    "UPDATE sources SET payload_hash = NULL WHERE kind = 'blog'",
), data_only=True)

# A card whose file name and front matter disagree is kept among its file's problems as a finding with its
# kind and subject (``record_file``), which `kb audit` says once with the cards table's by (kind, subject,
# file), never by matching the text: the cards are read again on the next ingest, so what an earlier kb
# kept as text is replaced. Their rows stay (a hash no file has): a card removed since is still known, and
# forgotten, and one read again is an update, not a new file.
M023_CARD_FINDINGS = Migration("m023_card_findings", (
    "UPDATE workspace_files SET content_hash = '' WHERE kind = 'card'",
), data_only=True)

# The figures of a number conflict written with their sign ("−44%"), as the briefing shows them (its
# ``context.signed``: unsigned figure → signed), kept with the flag when it is synced, so `kb flags show`
# shows them as the briefing does. The evidence stays unsigned: it is the flag's identity, and a sign
# shown is no new evidence. NULL: no figure written with a sign, or a flag not synced since this migration.
M024_FLAG_SIGNED = Migration("m024_flag_signed", (
    "ALTER TABLE flags ADD COLUMN signed TEXT",
))

# Every reading of the work queue, in order: the queue of day D is the one read last by D, as a doc's version
# is, so a past day rebuilt after the team re-ranked or replaced the queue shows the queue that night had. A
# queue file removed is read as empty that day. Nothing is filled in: the days earlier readings were made on
# are not recorded, so a day before the first reading reads the queue as it is now, as before.
M025_QUEUE_READINGS = Migration("m025_queue_readings", (
    """CREATE TABLE queue_readings (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        read_on TEXT NOT NULL,
        items TEXT NOT NULL DEFAULT '[]'
    )""",
    "CREATE INDEX ix_queue_readings_path ON queue_readings (path, read_on)",
))

# The text a post had before it was corrected in place, with the feed's date of that text (its earlier
# correction, else its publication): a past day rebuilt after the correction shows the post as that night had
# it. Kept from this migration on; a post corrected earlier reads as corrected.
M026_POST_VERSIONS = Migration("m026_post_versions", (
    """CREATE TABLE post_versions (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        valid_from TEXT,
        title TEXT NOT NULL DEFAULT '',
        summary TEXT NOT NULL DEFAULT '',
        content TEXT NOT NULL DEFAULT '',
        updated TEXT
    )""",
    "CREATE INDEX ix_post_versions_key ON post_versions (key)",
))

# The date an anchor's line gave before a later reading changed it (a future date corrected, a date moved),
# until the day of that reading: a past day rebuilt later counts the anchor with the date its doc gave then.
# Kept from this migration on; a date changed earlier reads as corrected.
M027_ANCHOR_DATES = Migration("m027_anchor_dates", (
    """CREATE TABLE anchor_dates (
        id INTEGER PRIMARY KEY,
        anchor_id INTEGER NOT NULL,
        until_day TEXT NOT NULL,
        anchored_on TEXT
    )""",
    "CREATE INDEX ix_anchor_dates_anchor ON anchor_dates (anchor_id, until_day)",
))

# A past day reads a paper's title and abstract as they were before a later version changed them
# (``papers.texts_before``): paper_changes is asked by paper, for the window's papers only.
M028_PAPER_CHANGES_INDEX = Migration("m028_paper_changes_index", (
    "CREATE INDEX ix_paper_changes_arxiv ON paper_changes (arxiv_id)",
))

# A file's stat when kb last read it (``pipeline.ingest.workspace``): a file whose identity, size and times are
# as they were is not read and hashed again, so a night's cost follows the files that changed, not the team's
# history. NULL (every row before this, a file another writer recorded) means: read it.
M029_FILE_STAT = Migration("m029_file_stat", (
    "ALTER TABLE workspace_files ADD COLUMN stat_key TEXT",
))

# A doc version's lines that anchor nothing (its history, a section's prose), kept with that version: a briefing
# names the open flags a new version's lines speak of ("DittoKV … 不锚：和已锚的 MeldKV … 重复"). NULL: a version
# read before this, whose lines were not kept (nothing is compared with it).
M030_DOC_REMARKS = Migration("m030_doc_remarks", (
    "ALTER TABLE doc_versions ADD COLUMN remarks TEXT",
))

MIGRATIONS: tuple[Migration, ...] = (M001_INITIAL, M002_FTS, M003_POST_CONTENT, M004_ID_CHECKS, M005_RUN_PROBLEMS,
                                     M006_INCREMENTAL, M007_CLASSIFY_QUEUE, M008_BRIEFED_ITEMS, M009_FTS_MERGE,
                                     M010_ENTRY_CITES, M011_FTS_TOKENS, M012_DOC_RELEVANCE, M013_POINT_BLOCKS,
                                     M014_FLAG_CLOSED_AFTER, M015_POINT_CODE, M016_PAPER_NAMES,
                                     M017_DOC_PROBLEMS, M018_BRIEFED_TITLES, M019_FTS_CJK_CHARS, M020_DOC_READINGS,
                                     M021_FLAG_CLOSURES, M022_CITED_IDS,
                                     M023_CARD_FINDINGS, M024_FLAG_SIGNED, M025_QUEUE_READINGS,
                                     M026_POST_VERSIONS, M027_ANCHOR_DATES,
                                     M028_PAPER_CHANGES_INDEX, M029_FILE_STAT, M030_DOC_REMARKS)

# The tables with an ``id INTEGER PRIMARY KEY``: SQLite numbers a new row max(id) + 1; PostgreSQL
# (pg_ddl) an identity sequence, which kb sets to the same next number in each write transaction.
ID_TABLES = ("paper_changes", "sightings", "source_runs", "note_entries", "mentions", "doc_versions", "doc_readings",
             "anchors", "flags", "queue_readings", "post_versions", "anchor_dates")

# The record of what was applied; on PostgreSQL the same columns, the time in the same form.
LEDGER = {
    "sqlite": """CREATE TABLE IF NOT EXISTS migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
)""",
    "postgresql": """CREATE TABLE IF NOT EXISTS migrations (
    name TEXT COLLATE "C" PRIMARY KEY,
    applied_at TEXT NOT NULL DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
)""",
}


def pending(done: list[str], migrations: tuple[Migration, ...] = MIGRATIONS) -> list[str]:
    """The migrations not in ``done``, in order; a store written by a newer kb is refused."""
    unknown = set(done) - {m.name for m in migrations}
    if unknown:
        from kb.errors import StoreError
        raise StoreError(f"the store was written by a newer kb (its migrations {', '.join(sorted(unknown))} are not "
                         "this kb's); upgrade kb")
    return [m.name for m in migrations if m.name not in done]


def readable_without(names: list[str], migrations: tuple[Migration, ...] = MIGRATIONS) -> bool:
    """Can this kb read a store that lacks only the migrations ``names``? Yes when each is ``data_only``."""
    by_name = {m.name: m for m in migrations}
    return all(by_name[n].data_only for n in names)


def statements_for(m: Migration, dialect: str) -> tuple[str, ...]:
    """What ``m`` runs on ``dialect`` ("sqlite" or "postgresql")."""
    if dialect == "sqlite":
        return m.statements
    return m.postgresql if m.sqlite_only else tuple(pg_ddl(sql) for sql in m.statements)


def pg_ddl(sql: str) -> str:
    """A table's DDL with the column types PostgreSQL needs to hold what SQLite holds: SQLite's integers
    are 64-bit and an ``INTEGER PRIMARY KEY`` numbers its rows, REAL is a double, and text compares
    and sorts by its bytes (kb's ORDER BY gives the same order on both, whatever the server's locale)."""
    if not re.match(r"\s*(CREATE TABLE|ALTER TABLE \w+ ADD COLUMN)\b", sql):
        return sql
    sql = re.sub(r"\bid INTEGER PRIMARY KEY\b", "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", sql)
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    return re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', sql)
