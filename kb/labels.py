"""The team's corrections of the classifier: ``organized/labels/<doc>.jsonl``, one file per knowledge doc.

A correction says what an item *is* for one doc: ``{"id", "relevance", "topics", "date", "by",
"note"}`` — one JSON object a line, appended by ``kb label`` (or written by hand). The file is
the team's, versioned with their other files; it is the one team file kb writes to, and kb
only ever appends a line to it. Later lines win: the last correction of an ID is the one in
force, and a line with ``"relevance": null`` withdraws the ID's earlier corrections.

The next classify run adapts the doc's model to these labels (``pipeline.classify.docmodels``).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, WorkspaceError
from kb.workspace import Workspace, resolve_inside

LABELS_DIR = "organized/labels"
LEVELS = ("primary", "adjacent", "none")
_DOC_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


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

    def to_json(self) -> str:
        body: dict[str, Any] = {"id": self.id, "relevance": self.relevance}
        if self.topics is not None:
            body["topics"] = list(self.topics)
        body |= {k: v for k, v in (("date", self.date), ("by", self.by), ("note", self.note)) if v}
        return json.dumps(body, ensure_ascii=False, sort_keys=False)


def labels_path(workspace: Workspace, doc: str) -> Path:
    """``organized/labels/<doc>.jsonl`` inside the workspace (a doc slug only; never leaves the workspace)."""
    if not _DOC_RE.match(doc):
        raise ConfigError(f"{doc!r} is not a knowledge-doc slug")
    return resolve_inside(workspace.root, f"{LABELS_DIR}/{doc}.jsonl")


def read_labels(workspace: Workspace, doc: str, problems: list[str] | None = None) -> list[Correction]:
    """The corrections in force for ``doc``, in file order of their last line (none when there is no file).

    A malformed line is an error naming its file and line; with ``problems``, it is named there
    instead and skipped, so that one mistyped line costs that line only (the nightly's way)."""
    path = labels_path(workspace, doc)
    if not path.is_file():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{workspace.relative(path)}: not UTF-8 text") from None
    except OSError as e:
        raise ConfigError(f"{workspace.relative(path)}: cannot read: {e.strerror}") from None
    latest: dict[str, Correction] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                c = _parse(workspace.relative(path), n, line)
            except ConfigError as exc:
                if problems is None:
                    raise
                problems.append(f"{exc}: line skipped")
                continue
            latest.pop(c.id, None)          # re-inserted: the order is that of the last line
            latest[c.id] = c
    return [c for c in latest.values() if c.relevance is not None]


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
                      extra={k: v for k, v in raw.items() if k not in ("id", "relevance", "topics", *opt)})


def append_label(workspace: Workspace, doc: str, correction: Correction) -> Path:
    """Append one correction line to the doc's labels file (created with its folder when missing).

    Appending is the only write: every earlier byte of the file stays as the team left it. A
    file that does not end with a newline gets one first, so the new line stands alone.
    """
    path = labels_path(workspace, doc)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise WorkspaceError(f"{workspace.relative(path)}: not a regular file; kb appends only to one")
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
