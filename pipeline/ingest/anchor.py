"""`kb anchor`: add one anchor line to a knowledge-doc section and record it in the store."""
from __future__ import annotations

import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from kb.arxiv_id import lookup_arxiv_id
from kb.errors import ConfigError, NotFound, WorkspaceError
from kb.fsutil import write_atomically
from kb.store.anchors import save_knowledge_doc
from kb.store.notes import record_file
from kb.store.papers import title_of
from kb.text import strip_anchor_syntax
from pipeline.context import RunContext
from pipeline.workspace.knowledge import parse_knowledge

# A URL kb writes on an anchor line: no whitespace, control or invisible characters (a zero-width space
# would make two look-alike anchors), none of ``<>"`` (no written form holds them), and no trailing
# punctuation, which a reader takes for the sentence's. Whether a line holds the rest is checked by reading
# the line back: as written, else as an autolink ``<URL>`` (``Foo_(bar)``, ``__init__.py``).
_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f\u200b-\u200f\u2060\ufeff<>\"]*"
                  r"[^\s\x00-\x1f\x7f\u200b-\u200f\u2060\ufeff<>\".,;:!?]")
BOM = "\ufeff"   # an editor's byte-order mark: kept in the file, never part of what is read


@dataclass
class AnchorResult:
    subject: str
    section: str
    path: str
    line: int
    diff: str
    elsewhere: tuple[str, ...] = ()   # the doc's other sections that already anchor the subject ("2.3")


def _lines_for(ctx: RunContext, ident: str, day: str) -> tuple[str, list[str]]:
    """The subject an identifier names and the lines that may anchor it, the plainest first."""
    aid = lookup_arxiv_id(ident)
    if aid is None:
        if not ident.startswith(("http://", "https://")):
            raise ConfigError(f"{ident!r} is neither an arXiv ID nor a URL")
        if not _URL.fullmatch(ident):
            raise ConfigError(f"{ident!r} is not one URL: no spaces, control or invisible characters, "
                              "no < > or \" and no trailing punctuation (a URL that needs them is anchored "
                              "by writing its line by hand)")
        return ident, [f"{ident} (anchored {day})", f"<{ident}> (anchored {day})"]
    # The paper's title from the store, else from the team's card for it.
    title = strip_anchor_syntax(title_of(ctx.store, aid.id))
    return aid.id, [f"{aid.id}" + (f" {title}" if title else "") + f" (anchored {day})"]


def anchor_item(ctx: RunContext, ident: str, section: str, *, topic: str | None = None,
                dry_run: bool = False, anchored_on: str | None = None) -> AnchorResult:
    """Insert the anchor line into the section (refusing an unknown section) and update the store.

    The line says ``(anchored D)`` with ``anchored_on`` (default: the run's day). The doc is read as of
    the run's day (``ctx.today``: its other lines, undated ones among them, are first seen that day,
    as a nightly would see them), so a line dated into the past dates nothing else. The doc is read,
    edited, written and recorded under the store's write lock, so a nightly reading it meanwhile (on
    this machine or another, on a shared store) saves this version, and two ``kb anchor`` at once each
    keep the other's line.
    """
    day = anchored_on or ctx.today.isoformat()
    topics = {t.slug: t for t in ctx.config.topics}
    slug = topic or ctx.config.topics[0].slug   # a --topic kb.toml does not configure is refused by the CLI
    if dry_run:
        return _edit(ctx, ident, section, slug, topics[slug].doc, day)[0]
    with ctx.store.transaction() as tx:
        result, new_text = _edit(ctx, ident, section, slug, topics[slug].doc, day)
        data = new_text.encode("utf-8")
        path = ctx.workspace.path(result.path)
        write_atomically(path, data, mode=_writable_mode(path, result.path))
        digest = hashlib.sha256(data).hexdigest()
        new_doc = parse_knowledge(new_text.removeprefix(BOM), result.path, slug, today=ctx.today.isoformat())
        save_knowledge_doc(tx, new_doc, digest, ctx.today.isoformat())
        record_file(tx, result.path, "knowledge", digest, new_doc.problems)
    return result


def _writable_mode(path: Path, rel: str) -> int:
    """The doc's permission bits, which its new version keeps; a doc the team made read-only (no write bit,
    or not writable by this user) is refused, as an editor would: replacing it through a rename would
    otherwise succeed in a writable folder, and turn it writable (0644) too. A doc removed since it was read
    is named, not written again from the text read before."""
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        raise NotFound(f"{rel} was removed while kb anchor edited it; kb anchor changed nothing",
                       hint="restore it, then anchor again") from None
    except OSError as exc:
        raise WorkspaceError(f"{rel}: cannot read its permissions ({exc.strerror}); kb anchor changed nothing") \
            from exc
    if not mode & 0o222 or not os.access(path, os.W_OK):
        raise WorkspaceError(f"{rel} is read-only (mode {mode:04o}); kb anchor changed nothing",
                             hint="make it writable, or add the line by hand")
    return mode


def _edit(ctx: RunContext, ident: str, section: str, slug: str, rel: str, day: str) -> tuple[AnchorResult, str]:
    """The anchor line inserted into the doc as it is now: (what was done, the doc's new text).

    A byte-order mark an editor put first is no part of the text the doc is read from (the nightly's
    reader drops it too) and is written back as it was: the rest of the file keeps its bytes."""
    from pipeline.workspace.edit import insert_anchor_line, unified_diff
    from pipeline.workspace.knowledge import find_sections
    path = ctx.workspace.path(rel)
    try:
        raw = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise NotFound(f"no knowledge doc {rel} for topic {slug!r}",
                       hint="create it, or fix [[topics]] in kb.toml") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkspaceError(f"{rel}: cannot read it as UTF-8 text ({exc})") from exc
    mark = BOM if raw.startswith(BOM) else ""
    text = raw.removeprefix(mark)
    doc = parse_knowledge(text, rel, slug)
    found = find_sections(doc, section)
    if len(found) > 1:
        raise ConfigError(f"§{found[0].number} is written twice in {rel} (lines "
                          + ", ".join(str(s.line) for s in found) + "): renumber one before anchoring there")
    if not found:
        raise ConfigError(f"no section §{section} in {rel}; sections: "
                          + ", ".join("§" + s.number for s in doc.sections))
    sec = found[0]
    subject, lines = _lines_for(ctx, ident, day)
    if any(a.arxiv_id == subject or a.url == subject for a in sec.anchors):
        raise ConfigError(f"{subject} is already anchored in §{sec.number} of {rel}")
    # Another section may anchor it too (a cross-reference is the team's call), but it is said.
    elsewhere = tuple(dict.fromkeys(s.number for s in doc.sections if s is not sec
                                    and any(subject in (a.arxiv_id, a.url) for a in s.anchors)))
    new_text = next((t for line in lines if _reads_back(t := insert_anchor_line(text, sec.number, line),
                                                         rel, slug, section, subject)), None)
    if new_text is None:
        raise ConfigError(f"{ident!r}: no line kb can write would read back as this one anchor; anchor it by hand")
    diff = unified_diff(text, new_text, rel)
    line = next(i for i, (a, b) in enumerate(zip(text.splitlines() + [""], new_text.splitlines()), 1) if a != b)
    return AnchorResult(subject, sec.number, rel, line, diff, elsewhere), mark + new_text


def _reads_back(new_text: str, rel: str, slug: str, section: str, subject: str) -> bool:
    """Whether the doc with the new line reads as one more anchor of ``subject`` in the section, and
    nothing else on its line (a URL the reader also takes an arXiv ID from would anchor that paper)."""
    from pipeline.workspace.knowledge import find_sections
    written = [a for s in find_sections(parse_knowledge(new_text, rel, slug), section) for a in s.anchors
               if subject in (a.arxiv_id, a.url)]
    return len(written) == 1 and all(a.arxiv_id in (None, subject) for a in written)
