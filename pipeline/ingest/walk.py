"""The team's files kb reads, found in the workspace: notes under inbox/, cards under organized/paper_cards/, the
work queue and each topic's knowledge doc. Only links are followed, and nothing outside the workspace is read: a
link leading out, a loop, a name that is not UTF-8 is one problem line, and the other files are still read."""
from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kb.errors import KBError, WorkspaceError
from kb.text import bytes_escaped
from kb.workspace import followed
from pipeline.context import RunContext

__all__ = ["QUEUE_PATH", "WorkspaceFileRef", "list_workspace_files"]

QUEUE_PATH = "organized/queue/work-queue.md"


@dataclass
class WorkspaceFileRef:
    rel: str          # workspace-relative POSIX path
    kind: str         # note, card, queue, knowledge
    path: Path
    topic: str | None = None


def _walk(root: Path, folder: str, problems: list[str]) -> Iterator[tuple[Path, str]]:
    """Markdown files under ``root/folder`` with their workspace paths, sorted; symlinks leading outside are
    named and skipped.

    Linked folders are never entered (a link to a folder outside would import it; one inside
    is read where it really is); those leading outside are named. A regular file reached through
    real folders of a folder that is inside the workspace is inside too: only links are followed.
    """
    base = root / folder
    if not base.is_dir():
        return
    real_root = root.resolve()
    real_base = base.resolve()
    inside = real_base == real_root or real_root in real_base.parents
    found: list[tuple[str, Path, bool]] = []
    _scan(base, folder, root, real_root, problems, found)
    for rel, path, plain in sorted(found, key=lambda f: f[0].split("/")):   # as paths sort: part by part
        if not _utf8_name(rel, problems):
            continue
        if plain and inside:
            yield path, rel
            continue
        real = _followed(path, root, problems)
        if real is None:
            continue
        if real_root not in real.parents:
            problems.append(f"{_named(path, root)}: skipped, it leads outside the workspace")
            continue
        if path.is_file():
            yield path, rel


def _scan(here: Path, rel: str, root: Path, real_root: Path, problems: list[str],
          found: list[tuple[str, Path, bool]]) -> None:
    """``os.walk`` without following links, top-down: each Markdown file as (workspace path, path, a regular
    file), each folder link leading outside named."""
    try:
        entries = sorted(os.scandir(here), key=lambda e: e.name)
    except OSError:   # as os.walk: a folder that cannot be listed is passed over
        return
    folders = []
    for e in entries:
        path = here / e.name
        try:
            is_dir = e.is_dir()
        except OSError:
            is_dir = False
        if not is_dir:
            if e.name.endswith(".md"):
                found.append((f"{rel}/{e.name}", path, e.is_file(follow_symlinks=False)))
        elif e.is_symlink():
            if (real := _followed(path, root, problems)) and real_root not in real.parents:
                problems.append(f"{_named(path, root)}: skipped, it leads outside the workspace")
        else:
            folders.append((path, f"{rel}/{e.name}"))
    for path, sub in folders:
        _scan(path, sub, root, real_root, problems, found)


def _named(path: Path, root: Path) -> str:
    """A workspace path as a problem line names it (``bytes_escaped``: the line is stored and printed)."""
    return bytes_escaped(path.relative_to(root).as_posix())


def _utf8_name(rel: str, problems: list[str]) -> bool:
    """Whether a file's name is UTF-8, as the store keeps every name: one that is not (a Latin-1 "café"
    copied in from elsewhere) is named, with its bytes written as escapes, and skipped, so the other files
    are read; it stopped the whole workspace's reading at that file."""
    if rel.isascii() or (named := bytes_escaped(rel)) == rel:
        return True
    problems.append(f"{named}: skipped, its name is not UTF-8 (rename the file)")
    return False


def _followed(path: Path, root: Path, problems: list[str]) -> Path | None:
    """``path`` with its symlinks followed; None, and the file named, for a loop (``a.md → b.md → a.md``):
    one such link must not keep the rest of the workspace from being read."""
    where = _named(path, root)
    try:
        return followed(path, where)
    except WorkspaceError:
        problems.append(f"{where}: skipped, a symlink loop (or a link that cannot be followed)")
        return None


def list_workspace_files(ctx: RunContext, problems: list[str]) -> list[WorkspaceFileRef]:
    """Every file kb reads, by kind, in a stable order."""
    root = ctx.workspace.root
    refs = [WorkspaceFileRef(rel, "note", p) for p, rel in _walk(root, "inbox", problems)]
    refs += [WorkspaceFileRef(rel, "card", p) for p, rel in _walk(root, "organized/paper_cards", problems)]
    queue = root / QUEUE_PATH
    if queue.is_file() or queue.is_symlink():
        real = _followed(queue, root, problems)
        if real is not None and root.resolve() in real.parents:
            refs.append(WorkspaceFileRef(QUEUE_PATH, "queue", queue))
        elif real is not None:
            problems.append(f"{QUEUE_PATH}: skipped, it leads outside the workspace")
    for topic in ctx.config.topics:
        try:
            doc = ctx.workspace.path(topic.doc)
        except KBError as exc:
            problems.append(str(exc))   # it names the path
            continue
        if doc.is_file():
            refs.append(WorkspaceFileRef(topic.doc, "knowledge", doc, topic.slug))
        else:
            problems.append(f"{topic.doc}: knowledge doc of topic {topic.slug!r} not found")
    return refs
