"""Read the team's workspace into the store: notes, cards, the queue, knowledge docs.

Only files whose content hash changed are parsed again, and a file whose stat (identity, size,
modification and change times) is as it was when kb last read it is not even read: a night's
cost follows the files that changed, not the team's history. Each file is saved in its own
transaction, so one unreadable file never costs the others. Nothing is followed outside the
workspace, and nothing in the workspace is written.
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import KBError, StoreError, StoreUnreachable
from kb.records import Finding, KnowledgeDoc
from kb.store.anchors import docs_read_as
from kb.store.notes import file_problems, file_readings, problem_counts, record_stat_keys
from kb.text import counted
from pipeline.context import RunContext, no_progress
from pipeline.ingest.run import SourceReport, SourceSpec, source_run
from pipeline.ingest.walk import WorkspaceFileRef, list_workspace_files

log = logging.getLogger(__name__)

MAX_BYTES = 5 * 1024 * 1024   # a note larger than this is not a note
PROGRESS_FROM = 500           # a bar only for a workspace that takes a while to read


READ_ATTEMPTS = 5
# A file changed less than this before kb read it keeps no stat key (it is read again next night): a second change
# within the same tick of the file system's clock would leave its stat as it was ("racily clean", as git says).
SETTLED_NS = 2_000_000_000


# A stat key vouches for a reading whose hash is a file's: a migration asks for files to be read again by giving
# their rows a hash no file has ('', kb.store.migrations), and a file kb could not read is kept as "unread:…".
_DIGEST = re.compile(r"[0-9a-f]{64}")


def stat_key(st: os.stat_result) -> str:
    """What says a file is as kb read it: its inode, size, and modification and change times. The change
    time moves with every write and cannot be set back (``touch -d`` moves it too)."""
    return f"{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"


def kept_key(st: os.stat_result, started_ns: int) -> str | None:
    """The stat key to keep for a file read by a run that started at ``started_ns`` (``time.time_ns``): None
    while its last change is within ``SETTLED_NS`` of the run (or after it: a clock set forward)."""
    return stat_key(st) if max(st.st_mtime_ns, st.st_ctime_ns) < started_ns - SETTLED_NS else None


class _Unsettled(Exception):
    """The file kept changing while it was read."""


def _read_settled(path: Path, *, attempts: int = READ_ATTEMPTS, pause: float = 0.05) -> tuple[bytes, os.stat_result]:
    """The bytes of ``path`` as of one moment, and its stat then: re-read while the file changes under us.

    An editor saving in place (truncate, then write) while kb reads would otherwise hand
    kb a mix of the old and the new text, recorded under a hash of neither. The file's
    identity, size and mtime are taken before and after the read; the read counts only if
    they agree and the byte count matches.
    """
    for attempt in range(attempts):
        before = path.stat()
        data = path.read_bytes()
        after = path.stat()
        key = lambda st: (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)  # noqa: E731
        if key(before) == key(after) and len(data) == after.st_size:
            if data:
                return data, after
            # Empty: perhaps an editor's save caught between truncate and write. Look again.
            time.sleep(pause)
            if key(path.stat()) == key(after):
                return data, after
            continue
        time.sleep(pause * (attempt + 1))
    raise _Unsettled(f"{path.name} kept changing while it was read")


def _decode(data: bytes, rel: str) -> tuple[str | None, str | None]:
    """Text of a Markdown file, or a reason to skip it (binary junk, too large)."""
    if len(data) > MAX_BYTES:
        return None, f"{rel}: skipped, {len(data):,} bytes is too large for a Markdown file"
    if b"\x00" in data:
        return None, f"{rel}: skipped, binary content (NUL bytes)"
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd")
    if bad > max(8, len(text) // 50):
        return None, f"{rel}: skipped, not UTF-8 text ({counted(bad, 'undecodable byte')})"
    # an editor's byte-order mark is no part of the text: before a queue's "1." it hid the whole list
    return text.removeprefix("\ufeff"), (f"{rel}: {counted(bad, 'undecodable byte')} replaced" if bad else None)


def _save(ctx: RunContext, ref: WorkspaceFileRef, text: str, digest: str, problems: list[str],
          stat: str | None = None) -> list[str]:
    """Parse the file and save it with its reading (``stat``: its stat key, ``kept_key``)."""
    from kb.store.anchors import save_knowledge_doc
    from kb.store.cards import save_card, save_queue
    from kb.store.notes import record_file, save_note
    from pipeline.workspace.cards import parse_card
    from pipeline.workspace.knowledge import parse_knowledge
    from pipeline.workspace.notes import parse_note
    from pipeline.workspace.queue import parse_queue
    day = ctx.today.isoformat()
    findings: list[Finding] = []
    with ctx.store.transaction() as tx:
        if ref.kind == "note":
            note = parse_note(text, ref.rel)
            problems += note.problems + _dated_after(note.timestamp, day, "the note's date")
            save_note(tx, note)
        elif ref.kind == "card":
            card = parse_card(text, ref.rel)
            problems += card.problems + _dated_after(card.created, day, "the card's created date")
            findings = card.findings
            save_card(tx, card)
        elif ref.kind == "queue":
            queue = parse_queue(text, ref.rel)
            problems += queue.problems
            save_queue(tx, ref.rel, queue.items, day)
        else:
            read_as, (text, digest) = digest, _as_it_is_now(ref, text, digest)
            stat = stat if digest == read_as else None   # saved as it was read again: its stat is not known
            doc = parse_knowledge(text, ref.rel, ref.topic or "", today=day)
            problems += doc.problems
            _refuse_if_suspect(ctx, doc)
            save_knowledge_doc(tx, doc, digest, day)
        record_file(tx, ref.rel, ref.kind, digest, problems, findings, stat)
    return problems + [f.text for f in findings]


def _record_unread(ctx: RunContext, ref: WorkspaceFileRef, digest: str, why: str) -> None:
    """Remember a file kb could not read (binary, not UTF-8, too large) with why, so ``kb audit`` lists it.
    Its hash is marked unread, so every night tries it again and names it again; what an earlier
    reading of it saved is kept."""
    from kb.store.notes import record_file
    with ctx.store.transaction() as tx:
        record_file(tx, ref.rel, ref.kind, f"unread:{digest}", [why])


_CREATED_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


# What ``_dated_after`` and the knowledge doc's reader say of a date after the day a file was read.
_FUTURE_DATE = re.compile(r"(\d{4}-\d{2}-\d{2}) is after \d{4}-\d{2}-\d{2}, the day the (?:file|doc) was read")


def _dated_days_come(store: Any, day: str) -> set[str]:
    """Files whose last reading named a date after that day which ``day`` has reached: an unchanged file is
    not read again, and its "is after" problem would stay in `kb audit` long after the date came."""
    return {path for path, problem in file_problems(store)
            if (m := _FUTURE_DATE.search(problem)) and m[1] <= day}


def _dated_after(when: str | None, day: str, what: str) -> list[str]:
    """A file dated after the day it is read (a mistyped year): named, as a future anchoring date is."""
    if when and _CREATED_DAY.match(when) and when[:10] > day:   # an unreadable date is its own problem
        return [f"{what} {when[:10]} is after {day}, the day the file was read"]
    return []


def _as_it_is_now(ref: WorkspaceFileRef, text: str, digest: str) -> tuple[str, str]:
    """The knowledge doc as it is now, read again under the store's write lock: a ``kb anchor`` (from
    this machine or another, on a shared store) may have rewritten and recorded it since it was read,
    and saving the older text would end the anchor it just added."""
    try:
        data, _ = _read_settled(ref.path)
    except (OSError, _Unsettled):
        return text, digest
    now = hashlib.sha256(data).hexdigest()
    fresh = _decode(data, ref.rel)[0] if now != digest else None
    return (fresh, now) if fresh is not None else (text, digest)


class SuspectDoc(KBError):
    """A knowledge doc that lost everything that makes it one: probably overwritten by mistake."""


def _refuse_if_suspect(ctx: RunContext, doc: KnowledgeDoc) -> None:
    """A doc with no anchors and either no ``version:`` line or no sections at all (cut down to its
    version line), where the store holds anchors of its topic, is not read: its anchors are kept and
    the night fails, so the team looks. Withdrawing anchors (struck through) keeps the sections."""
    from kb.store.anchors import anchored_subject_count
    if any(s.anchors for s in doc.sections) or (doc.version is not None and doc.sections):
        return
    kept = anchored_subject_count(ctx.store, doc.topic)
    if kept:
        lost = "no version line" if doc.version is None else "no sections"
        raise SuspectDoc(f"has {lost} and no anchors (was it overwritten?); the {counted(kept, 'anchor')} "
                         f"of topic {doc.topic!r} {'is' if kept == 1 else 'are'} kept until it has anchors again")


def ingest_workspace(ctx: RunContext) -> SourceReport:
    """Read every changed workspace file; forget files that were removed. One ledger row."""
    with source_run(ctx, SourceSpec("workspace", "workspace")) as report:
        _read_files(ctx, report)
    return report


def _read_files(ctx: RunContext, report: SourceReport) -> None:
    walk_problems: list[str] = []
    started = time.time_ns()
    refs = list_workspace_files(ctx, walk_problems)
    readings = file_readings(ctx.store)
    stored = {path: digest for path, (digest, _) in readings.items()}
    known = dict(stored)
    for path in _dated_days_come(ctx.store, ctx.today.isoformat()):
        known.pop(path, None)          # read again though unchanged: its future date is no longer one
    read_as = docs_read_as(ctx.store)
    for ref in refs:
        if ref.kind == "knowledge" and read_as.get(ref.topic or "") != stored.get(ref.rel):
            known.pop(ref.rel, None)   # unchanged, but its topic's anchors are not of this text (a slug renamed)
    unchanged: set[str] = set()
    stats = _Stats(started, {path: key for path, (_, key) in readings.items()})
    with ctx.progress("workspace files", len(refs)) if len(refs) >= PROGRESS_FROM else no_progress("") as bar:
        for ref in refs:
            if not _read_one(ctx, ref, known, report, walk_problems, stats, read_before=ref.rel in stored):
                unchanged.add(ref.rel)
            bar.advance()
    if stats.changed:
        record_stat_keys(ctx.store, stats.changed)
    _docs_gone(ctx, refs, read_as, report)
    report.standing = sum(n for path, n in problem_counts(ctx.store).items() if path in unchanged)
    report.skipped = len(walk_problems)
    report.problems = walk_problems + _forget_gone(ctx, refs, stored) + report.problems


def _docs_gone(ctx: RunContext, refs: list[WorkspaceFileRef], read_as: dict[str, str], report: SourceReport) -> None:
    """A knowledge doc kb has read that is no longer where kb.toml says (moved, renamed, deleted) fails the
    stage: its anchors as last read still count, and a quiet exit 0 let the team believe the doc was read
    (a doc never read yet, a new workspace's, is only named: its briefing says no doc was read)."""
    found = {ref.topic for ref in refs if ref.kind == "knowledge"}
    for topic in ctx.config.topics:
        if topic.slug not in found and topic.slug in read_as and report.status != "failed":
            report.status = "failed"
            report.error = (f"{topic.doc}: the knowledge doc of topic {topic.slug!r} is gone (moved or deleted?); "
                            "its anchors as last read still count")


@dataclass
class _Stats:
    """The run's start (``kept_key``), each file's stat key as kb last read it, and the keys of files read again
    and found unchanged whose key is not the one kept (to record)."""

    started: int
    kept: dict[str, str | None]
    changed: dict[str, str | None] = field(default_factory=dict)

    def unchanged(self, ref: WorkspaceFileRef) -> bool:
        """Is the file's stat the one kept when kb last read it? (Not read, then.)"""
        try:
            return self.kept.get(ref.rel) == stat_key(ref.path.stat())
        except OSError:   # reading it names why
            return False


def _read_one(ctx: RunContext, ref: WorkspaceFileRef, known: dict[str, str], report: SourceReport,
              walk_problems: list[str], stats: _Stats, *, read_before: bool) -> bool:
    """Read one file if its stat or content changed (``stats``, ``known``), parse and save it; what went wrong
    is named, not raised. ``read_before``: the store holds a reading of it (an update, not a new file, when
    read again). False when the file is as the store last read it (nothing done)."""
    if ref.rel in known and _DIGEST.fullmatch(known[ref.rel]) and stats.unchanged(ref):
        return False
    try:
        data, st = _read_settled(ref.path)
    except OSError as exc:
        walk_problems.append(f"{ref.rel}: cannot read: {exc.strerror}")
        return True
    except _Unsettled:
        walk_problems.append(f"{ref.rel}: skipped, it kept changing while kb read it (read next run)")
        return True
    report.bytes += len(data)
    digest = hashlib.sha256(data).hexdigest()
    key = kept_key(st, stats.started)
    if known.get(ref.rel) == digest:
        if stats.kept.get(ref.rel) != key:
            stats.changed[ref.rel] = key
        return False
    text, why = _decode(data, ref.rel)
    if text is None:
        walk_problems.append(why or ref.rel)
        _record_unread(ctx, ref, digest, (why or "").removeprefix(f"{ref.rel}: "))
        return True
    try:
        found = _save(ctx, ref, text, digest, [why] if why else [], key)
    except SuspectDoc as exc:
        walk_problems.append(f"{ref.rel}: not read: {exc}")
        report.status, report.error = "failed", f"{ref.rel} {exc}"
        return True
    except StoreUnreachable:   # the run's failure, not this file's (pipeline.ingest.run.failures_recorded)
        raise
    except StoreError as exc:  # the store refused the write (full, read-only): the file waits, the run failed
        walk_problems.append(f"{ref.rel}: not saved: {exc}")
        report.status, report.error = "failed", f"{ref.rel} not saved: {exc}"
        return True
    except KBError as exc:
        walk_problems.append(f"{ref.rel}: not saved: {exc}")
        return True
    report.parsed += 1
    report.problems += [p if p.startswith(ref.rel) else f"{ref.rel}: {p}" for p in found]
    if read_before:   # not ``known``: a file read again though unchanged (a renamed slug) is no new file
        report.updated += 1
    else:
        report.new += 1
    return True


def _forget_gone(ctx: RunContext, refs: list[WorkspaceFileRef], known: dict[str, str]) -> list[str]:
    """Forget the files that are gone; name a whole folder that went with them (an unmounted share, a
    folder moved away): its files are forgotten tonight and read again when it is back."""
    present = {r.rel for r in refs}
    gone = sorted(set(known) - present)
    if gone:
        from kb.store.cards import forget_queue
        from kb.store.notes import forget_file
        with ctx.store.transaction() as tx:
            for rel in gone:
                forget_file(tx, rel)
                forget_queue(tx, rel, ctx.today.isoformat())
    missing: dict[str, int] = {}
    for rel in gone:
        top = rel.split("/", 1)[0]
        if "/" in rel and not (ctx.workspace.root / top).is_dir():
            missing[top] = missing.get(top, 0) + 1
    return [f"{top}/: the folder is missing; " + (f"its {n} files read before are" if n != 1 else
                                                   "its one file read before is")
            + " forgotten (read again when it is back)" for top, n in missing.items()]


