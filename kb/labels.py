"""The team's corrections of the classifier: ``organized/labels/<doc>.jsonl``, one file per knowledge doc.

A correction says what an item *is* for one doc: ``{"id", "relevance", "topics", "date", "by",
"note"}`` — one JSON object a line, appended by ``kb label`` (or written by hand); ``kb label`` fills
``by`` with who labelled (``--by NAME``, else the login name: ``member_name``). The file is
the team's, versioned with their other files; it is the one team file kb writes to, and kb
only ever appends a line to it. Later lines win: the last correction of an ID is the one in
force, and a line with ``"relevance": null`` withdraws the ID's earlier corrections.

The next classify run adapts the doc's model to these labels (``pipeline.classify.docmodels``).
"""
from __future__ import annotations

import getpass
import json
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.arxiv_id import lookup_arxiv_id
from kb.config_values import NAME_RE
from kb.errors import ConfigError, WorkspaceError
from kb.workspace import Workspace, resolve_inside

LABELS_DIR = "organized/labels"
LEVELS = ("primary", "adjacent", "none")
BOM = b"\xef\xbb\xbf"   # an editor's byte-order mark: not part of the first line


@dataclass(frozen=True)
class Correction:
    """One labelled item for one doc (``relevance`` None: the ID's corrections withdrawn)."""

    id: str
    relevance: str | None
    topics: tuple[str, ...] | None = None      # None: the topics are not labelled, only the relevance
    date: str | None = None
    by: str | None = None
    note: str | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    line: int = field(default=0, compare=False)   # where the file writes it (0: not read from a file)

    def to_json(self) -> str:
        body: dict[str, Any] = {"id": self.id, "relevance": self.relevance}
        if self.topics is not None:
            body["topics"] = list(self.topics)
        body |= {k: v for k, v in (("date", self.date), ("by", self.by), ("note", self.note)) if v}
        return json.dumps(body, ensure_ascii=False, sort_keys=False)


def member_name() -> str | None:
    """Who is labelling, for a correction's ``by``: the login name (``$LOGNAME``, ``$USER``, else the system's
    account database, as ``getpass`` finds it); None when the system knows no name (a container's bare uid)."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):   # no variable and no account entry: the line just names no one
        return None
    return name.strip() or None


def card_speaks_for(anchored_here: bool, anchored_elsewhere: bool, main_doc: bool) -> bool:
    """Does a card's ``primary_topic`` judge its paper for this doc? A card does not say which doc it judged
    for: the doc that anchors its paper, or, when no doc does, the workspace's main doc (the first)."""
    return anchored_here or (main_doc and not anchored_elsewhere)


def labels_path(workspace: Workspace, doc: str) -> Path:
    """``organized/labels/<doc>.jsonl`` inside the workspace (a doc slug only; never leaves the workspace)."""
    if not NAME_RE.fullmatch(doc):   # kb.toml's rule for topic slugs: a slug kb.toml takes has a labels file
        raise ConfigError(f"{doc!r} is not a knowledge-doc slug")
    return resolve_inside(workspace.root, f"{LABELS_DIR}/{doc}.jsonl")


# A file whose lines are mostly not corrections (another file saved under the name) is named line by line
# this far, then counted: the console stays readable, and the first lines say what went wrong.
NAMED_SKIPS = 5


def read_labels(workspace: Workspace, doc: str, problems: list[str] | None = None) -> list[Correction]:
    """The corrections in force for ``doc``, in file order of their last line (none when there is no file).

    A malformed line (not JSON, not UTF-8) is an error naming its file and line; with ``problems``, it
    is named there instead and skipped, so that one mistyped line costs that line only (the nightly's
    way), and a file that cannot be read at all (it leads outside the workspace) costs its corrections.
    An ID is keyed as ``kb show`` reads it: ``2610.09560`` withdraws what ``arXiv:2610.09560`` said."""
    try:
        path = labels_path(workspace, doc)
        if not path.is_file():
            return []
        where = workspace.relative(path)
        data = path.read_bytes()
    except (OSError, WorkspaceError) as e:
        if problems is None and isinstance(e, WorkspaceError):
            raise
        message = str(e) if isinstance(e, WorkspaceError) else f"{LABELS_DIR}/{doc}.jsonl: cannot read: {e.strerror}"
        if problems is None:
            raise ConfigError(message) from None
        problems.append(f"{message}: its corrections are not read")
        return []
    latest: dict[str, Correction] = {}
    skipped = 0
    for n, raw in enumerate(data.removeprefix(BOM).split(b"\n"), 1):
        try:
            line = raw.decode("utf-8").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            c = _parse(where, n, line)
        except (ConfigError, UnicodeDecodeError) as exc:
            problem = f"{where}:{n}: not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else str(exc)
            if problems is None:
                raise ConfigError(problem) from None
            skipped += 1
            if skipped <= NAMED_SKIPS:
                problems.append(f"{problem}: line skipped")
            continue
        key = _subject_key(c.id)
        latest.pop(key, None)          # re-inserted: the order is that of the last line
        latest[key] = c
    if problems is not None and skipped > NAMED_SKIPS:
        problems.append(f"{where}: {skipped - NAMED_SKIPS} more lines skipped (not corrections kb can read)")
    return [c for c in latest.values() if c.relevance is not None]


def unread_labels_files(workspace: Workspace, docs: Collection[str]) -> list[tuple[str, str]]:
    """``(file, slug)`` of each ``organized/labels/*.jsonl`` whose slug names none of ``docs`` (kb.toml's): a
    mistyped file name, or a doc renamed in kb.toml. Nothing reads such a file, so its corrections count for
    nothing until someone is told."""
    try:
        names = sorted(p.name for p in (workspace.root / LABELS_DIR).iterdir() if p.name.endswith(".jsonl"))
    except OSError:     # no folder (no corrections yet), or one that cannot be listed: read_labels names that
        return []
    return [(f"{LABELS_DIR}/{n}", n.removesuffix(".jsonl")) for n in names if n.removesuffix(".jsonl") not in docs]


def in_force(workspace: Workspace, doc: str, ident: str, problems: list[str] | None = None) -> Correction | None:
    """The correction in force for ``ident`` (any ID form) in the doc's labels file, if any. Lines that do
    not read are skipped, each named in ``problems`` when given (as ``read_labels`` names them)."""
    key = _subject_key(ident)
    found = read_labels(workspace, doc, [] if problems is None else problems)
    return next((c for c in found if _subject_key(c.id) == key), None)


def same_labelling(a: Correction, b: Correction) -> bool:
    """Whether ``b`` says nothing ``a`` does not: the same relevance and topics (in any order), and no
    other note. Its date and author alone are no news."""
    def topics(c: Correction) -> tuple[str, ...] | None:
        return None if c.topics is None else tuple(sorted(set(c.topics)))
    return (a.relevance, topics(a)) == (b.relevance, topics(b)) and (b.note is None or b.note == a.note)


def _subject_key(ident: str) -> str:
    """One key for every form of an arXiv ID (``arXiv:2610.09560v2``, an HF URL); other IDs as written."""
    aid = lookup_arxiv_id(ident)
    return aid.id if aid is not None else ident


def _parse(where: str, n: int, line: str) -> Correction:
    try:
        raw = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        raise ConfigError(f"{where}:{n}: not a JSON object") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not raw["id"].strip():
        raise ConfigError(f"{where}:{n}: expected an object with an \"id\"")
    rel = raw.get("relevance")
    if rel is not None and rel not in LEVELS:
        raise ConfigError(f"{where}:{n}: relevance must be primary, adjacent, none or null, not {rel!r}")
    topics = raw.get("topics")
    if topics is not None and (not isinstance(topics, list) or not all(isinstance(t, str) for t in topics)):
        raise ConfigError(f"{where}:{n}: topics must be a list of topic slugs")
    opt = {k: raw.get(k) if isinstance(raw.get(k), str) else None for k in ("date", "by", "note")}
    return Correction(raw["id"].strip(), rel, None if topics is None else tuple(topics), **opt,
                      extra={k: v for k, v in raw.items() if k not in ("id", "relevance", "topics", *opt)}, line=n)


def appendable_labels_path(workspace: Workspace, doc: str) -> Path:
    """The doc's labels file, when kb may append to it: missing, or a regular file of its own. A link is
    refused (WorkspaceError): one to the knowledge doc stays inside the workspace, and kb would append JSON
    to the team's doc."""
    path = labels_path(workspace, doc)
    # labels_path has followed any link: a link is seen on the path as written
    written = workspace.root / LABELS_DIR / f"{doc}.jsonl"
    # a hard link is a regular file that is also another name's (the doc's): kb appends to a file of its own
    if written.is_symlink() or (path.exists() and (not path.is_file() or path.stat().st_nlink > 1)):
        raise WorkspaceError(f"{LABELS_DIR}/{doc}.jsonl: not a regular file of its own; kb appends only to one")
    return path


def append_label(workspace: Workspace, doc: str, correction: Correction) -> Path:
    """Append one correction line to the doc's labels file (created with its folder when missing).

    Appending is the only write: every earlier byte of the file stays as the team left it. A
    file that does not end with a newline gets one first, so the new line stands alone.
    """
    path = appendable_labels_path(workspace, doc)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a+b") as fh:
            fh.seek(0, 2)
            if fh.tell():
                fh.seek(-1, 2)
                if fh.read(1) != b"\n":
                    fh.write(b"\n")
            fh.write((correction.to_json() + "\n").encode("utf-8"))
    except OSError as e:
        raise WorkspaceError(f"{workspace.relative(path)}: cannot append: {e.strerror}") from None
    return path
