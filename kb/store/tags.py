"""Classification results: topic tags with evidence and relevance per subject, and the queue of
subjects waiting for them.

Writers of papers, posts and note entries put what they changed on ``classify_queue``;
the classify stage drains it. So a night classifies what the night brought, whatever the
store holds; only a new model (its hash differs from the stored one) means re-tagging all.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from kb.records import Tag
from kb.store.db import Store
from kb.store.rows import Tx, chunks, row

KINDS = ("paper", "post", "entry")


@dataclass
class Classified:
    """One subject's classification, ready to store."""

    kind: str                          # paper, post, entry
    subject: str
    relevance: str
    tags: list[tuple[str, float, list[str]]] = field(default_factory=list)  # (topic, score, matched terms)
    # per knowledge doc (its slug): that doc's model's relevance and tags
    docs: dict[str, tuple[str, list[tuple[str, float, list[str]]]]] = field(default_factory=dict)


@dataclass
class StoredResult:
    """A classification the classify stage stored, shaped like the classifier's result."""

    relevance: str
    tags: list[Tag] = field(default_factory=list)


@dataclass(frozen=True)
class SubjectText:
    kind: str
    key: str
    title: str
    text: str
    category: str | None = None
    feed: str | None = None


# --------------------------------------------------------------------------- writes
def enqueue(tx: Tx, kind: str, subjects: Iterable[str]) -> None:
    """Mark subjects whose text changed as waiting for classification."""
    tx.upsert("classify_queue", [row("classify_queue", subject_kind=kind, subject=s) for s in subjects],
              ["subject_kind", "subject"], update=[])


SCORE_DIGITS = 4   # a tag's score as stored


def save_classifications(tx: Tx, items: list[Classified], model_hash: str) -> None:
    """Replace the tags and relevance of a batch of subjects and take them off the queue."""
    by_kind: dict[str, list[str]] = {}
    for c in items:
        by_kind.setdefault(c.kind, []).append(c.subject)
    _delete_subjects(tx, "tags", by_kind)
    tx.insert("tags", [row("tags", subject_kind=c.kind, subject=c.subject, topic=t, score=round(score, SCORE_DIGITS),
                           terms=terms, taxonomy_hash=model_hash) for c in items for t, score, terms in c.tags])
    tx.upsert("classifications", [row("classifications", subject_kind=c.kind, subject=c.subject,
                                      relevance=c.relevance, taxonomy_hash=model_hash, input_hash="")
                                  for c in items], ["subject_kind", "subject"])
    _delete_subjects(tx, "doc_relevance", by_kind)
    tx.insert("doc_relevance", [row("doc_relevance", subject_kind=c.kind, subject=c.subject, doc=doc, relevance=rel,
                                    tags=[[t, round(score, SCORE_DIGITS), terms] for t, score, terms in tags],
                                    model_hash=model_hash)
                                for c in items for doc, (rel, tags) in sorted(c.docs.items())])
    _delete_subjects(tx, "classify_queue", by_kind)


def _delete_subjects(tx: Tx, table: str, by_kind: dict[str, list[str]]) -> None:
    for kind, subjects in sorted(by_kind.items()):
        tx.run_in(f"DELETE FROM {table} WHERE subject_kind = :k AND subject IN :values", subjects, k=kind)


# --------------------------------------------------------------------------- reads
_TEXTS = {
    "paper": "SELECT 'paper', p.arxiv_id, p.title, p.abstract, p.primary_category, NULL FROM papers p",
    "post": "SELECT 'post', p.key, p.title, p.summary, NULL, p.feed FROM posts p",
    "entry": "SELECT 'entry', e.path || '#' || e.number, e.heading, e.text, NULL, NULL FROM note_entries e",
}
_QUEUED = {
    "paper": " JOIN classify_queue q ON q.subject_kind = 'paper' AND q.subject = p.arxiv_id",
    "post": " JOIN classify_queue q ON q.subject_kind = 'post' AND q.subject = p.key",
    "entry": " JOIN classify_queue q ON q.subject_kind = 'entry' AND q.subject = e.path || '#' || e.number",
}
_ORDER = {"paper": " ORDER BY p.arxiv_id", "post": " ORDER BY p.key", "entry": " ORDER BY e.path, e.number"}


def queued_subjects(store: Store) -> Iterator[SubjectText]:
    """Subjects waiting for classification, with their text (papers, then posts, then note entries)."""
    for kind in KINDS:
        for r in store.query(_TEXTS[kind] + _QUEUED[kind] + _ORDER[kind]):
            yield SubjectText(*r)
    # What was queued but has since gone (a deleted note) leaves nothing to classify.


def subject_count(store: Store, *, queued: bool) -> int:
    """How many subjects wait for classification (``queued``), or exist at all."""
    if queued:
        return store.query("SELECT count(*) FROM classify_queue")[0][0]
    return sum(store.query(f"SELECT count(*) FROM {t}")[0][0] for t in ("papers", "posts", "note_entries"))


def all_subjects(store: Store, batch: int = 5000) -> Iterator[SubjectText]:
    """Every classifiable subject, streamed in pages of ``batch`` (for ``kb classify --all``)."""
    for kind in KINDS:
        offset = 0
        while True:
            rows = store.query(_TEXTS[kind] + _ORDER[kind] + " LIMIT ? OFFSET ?", (batch, offset))
            yield from (SubjectText(*r) for r in rows)
            if len(rows) < batch:
                break
            offset += batch


def subject_text(store: Store, kind: str, key: str) -> SubjectText | None:
    """One subject's text (``kb explain``)."""
    where = {"paper": " WHERE p.arxiv_id = ?", "post": " WHERE p.key = ?",
             "entry": " WHERE e.path || '#' || e.number = ?"}[kind]
    rows = store.query(_TEXTS[kind] + where, (key,))
    return SubjectText(*rows[0]) if rows else None


_STALE = ("FROM classify_queue WHERE NOT EXISTS (SELECT 1 FROM note_entries e WHERE classify_queue.subject_kind = "
          "'entry' AND e.path || '#' || e.number = classify_queue.subject) AND NOT EXISTS (SELECT 1 FROM papers p "
          "WHERE classify_queue.subject_kind = 'paper' AND p.arxiv_id = classify_queue.subject) AND NOT EXISTS "
          "(SELECT 1 FROM posts p WHERE classify_queue.subject_kind = 'post' AND p.key = classify_queue.subject)")


def stale_queued(store: Store) -> bool:
    """Is anything queued whose subject no longer exists?"""
    return bool(store.query("SELECT 1 " + _STALE + " LIMIT 1"))


def clear_stale_queue(tx: Tx) -> None:
    """Drop queue entries whose subject no longer exists."""
    tx.run("DELETE " + _STALE)


def classified_with_other_model(store: Store, model_hash: str) -> bool:
    """Was anything classified by a model other than ``model_hash``? Two index searches, one on each side of
    the hash: ``<>`` would walk the whole index, every row of a backfilled store sharing the one hash."""
    return bool(store.query(OTHER_MODEL, (model_hash, model_hash)))


OTHER_MODEL = "SELECT 1 FROM classifications WHERE taxonomy_hash < ? OR taxonomy_hash > ? LIMIT 1"


def stored_results(store: Store, model_hash: str, kind: str, subjects: Iterable[str], *,
                   doc: str) -> dict[str, StoredResult]:
    """The stored classification of the given subjects of one kind, when made with ``model_hash``, as the
    knowledge doc ``doc``'s model judged them where it did (else as the base model did).

    Looked up by primary key; the model is compared here, not in SQL, so that no planner is
    tempted by the index on the model (which every row of a backfilled store shares).
    """
    out: dict[str, StoredResult] = {}
    for part, marks in _parts(subjects):
        out.update((subject, StoredResult(relevance)) for subject, relevance in _base(store, model_hash, kind, part,
                                                                                      marks))
        for subject, topic, score, terms, model in store.query(
                f"SELECT subject, topic, score, terms, taxonomy_hash FROM tags WHERE subject_kind = ? "
                f"AND subject IN ({marks}) ORDER BY subject, score DESC, topic", (kind, *part)):
            if subject in out and model == model_hash:
                out[subject].tags.append(Tag(topic, score, tuple(json.loads(terms))))
        for subject, relevance, tags, model in store.query(
                f"SELECT subject, relevance, tags, model_hash FROM doc_relevance WHERE subject_kind = ? "
                f"AND doc = ? AND subject IN ({marks})", (kind, doc, *part)):
            if subject in out and model == model_hash:
                out[subject] = StoredResult(relevance, [Tag(t, s, tuple(terms)) for t, s, terms
                                                        in json.loads(tags)])
    return out


def stored_relevance(store: Store, model_hash: str, kind: str, subjects: Iterable[str], *, doc: str) -> dict[str, str]:
    """The relevance ``stored_results`` reads for these subjects, without their tags: what a night needs to
    know of the many listed papers it shows nowhere."""
    out: dict[str, str] = {}
    for part, marks in _parts(subjects):
        out.update(_base(store, model_hash, kind, part, marks))
        for subject, relevance, model in store.query(
                f"SELECT subject, relevance, model_hash FROM doc_relevance WHERE subject_kind = ? "
                f"AND doc = ? AND subject IN ({marks})", (kind, doc, *part)):
            if subject in out and model == model_hash:
                out[subject] = relevance
    return out


def _parts(subjects: Iterable[str]) -> Iterator[tuple[list[str], str]]:
    """The subjects in chunks, each with its ``?`` marks."""
    for part in chunks(sorted(set(subjects))):
        yield part, ",".join("?" * len(part))


def _base(store: Store, model_hash: str, kind: str, part: list[str], marks: str) -> Iterator[tuple[str, str]]:
    """(subject, relevance) of the base model's stored judgement of each of ``part`` (its ``?`` marks) made with
    ``model_hash``."""
    for subject, relevance, model in store.query(
            f"SELECT subject, relevance, taxonomy_hash FROM classifications WHERE subject_kind = ? "
            f"AND subject IN ({marks})", (kind, *part)):
        if model == model_hash:
            yield subject, relevance


def read_back(c: Classified, doc: str) -> StoredResult:
    """What ``stored_results`` reads of ``c`` for ``doc`` once ``save_classifications`` has saved it, without
    saving it: ``doc``'s relevance and tags where its model judged (in their order), else the base model's (best
    score first, then by topic); scores rounded as stored."""
    if doc in c.docs:
        rel, tags = c.docs[doc]
        return StoredResult(rel, [Tag(t, round(s, SCORE_DIGITS), tuple(terms)) for t, s, terms in tags])
    base = sorted(((t, round(s, SCORE_DIGITS), tuple(terms)) for t, s, terms in c.tags), key=lambda x: (-x[1], x[0]))
    return StoredResult(c.relevance, [Tag(*x) for x in base])


def latest_arrival(store: Store) -> str | None:
    """The last day anything arrived (a paper sighted, a note written): where "recent" ends in a store of
    past days. Two indexed maxima."""
    days = [store.query("SELECT max(seen_on) FROM sightings")[0][0],
            store.query("SELECT max(substr(timestamp, 1, 10)) FROM notes")[0][0]]
    return max((d for d in days if d), default=None)


def recent_subjects(store: Store, since: str, limit: int = 5000) -> list[SubjectText]:
    """Subjects that arrived from ``since`` (a date) on: papers sighted, posts published, entries of notes
    written since then, at most ``limit`` of each kind (``kb label --uncertain``)."""
    where = {
        "paper": " WHERE p.arxiv_id IN (SELECT arxiv_id FROM sightings WHERE seen_on >= ?)",
        "post": " WHERE substr(coalesce(p.published, ''), 1, 10) >= ?",
        "entry": " WHERE e.path IN (SELECT path FROM notes WHERE substr(timestamp, 1, 10) >= ?)",
    }
    out: list[SubjectText] = []
    for kind in KINDS:
        out += [SubjectText(*r) for r in store.query(_TEXTS[kind] + where[kind] + _ORDER[kind] + " LIMIT ?",
                                                     (since, limit))]
    return out
