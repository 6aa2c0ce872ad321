"""`kb anchor`: add one anchor line to a knowledge-doc section and record it in the store."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from kb.arxiv_id import lookup_arxiv_id
from kb.errors import ConfigError, NotFound, WorkspaceError
from kb.fsutil import write_atomically
from kb.store.anchors import save_knowledge_doc
from kb.store.notes import record_file
from kb.store.papers import title_of
from kb.text import strip_anchor_syntax
from pipeline.context import RunContext
from pipeline.workspace.knowledge import parse_knowledge

# A URL as an anchor line can hold it and read it back: no whitespace or control characters, none of the
# brackets and quotes that end a URL in running text, and not ending in punctuation a reader drops.
_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f()<>\[\]{}\"'`]*[^\s\x00-\x1f\x7f()<>\[\]{}\"'`.,;:!?]")


@dataclass
class AnchorResult:
    subject: str
    section: str
    path: str
    line: int
    diff: str


def _line_for(ctx: RunContext, ident: str, day: str) -> tuple[str, str]:
    aid = lookup_arxiv_id(ident)
    if aid is None:
        if not ident.startswith(("http://", "https://")):
            raise ConfigError(f"{ident!r} is neither an arXiv ID nor a URL")
        if not _URL.fullmatch(ident):
            raise ConfigError(f"{ident!r} is not one URL: no spaces, control characters, brackets or quotes, "
                              "and no trailing punctuation (an anchor line holds the URL as it is written; "
                              "a URL that needs them is anchored by writing its line by hand)")
        return ident, f"{ident} (anchored {day})"
    # The paper's title from the store, else from the team's card for it.
    title = strip_anchor_syntax(title_of(ctx.store, aid.id))
    return aid.id, f"{aid.id}" + (f" {title}" if title else "") + f" (anchored {day})"


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
        write_atomically(ctx.workspace.path(result.path), data)
        digest = hashlib.sha256(data).hexdigest()
        new_doc = parse_knowledge(new_text, result.path, slug, today=ctx.today.isoformat())
        save_knowledge_doc(tx, new_doc, digest, ctx.today.isoformat())
        record_file(tx, result.path, "knowledge", digest, new_doc.problems)
    return result


def _edit(ctx: RunContext, ident: str, section: str, slug: str, rel: str, day: str) -> tuple[AnchorResult, str]:
    """The anchor line inserted into the doc as it is now: (what was done, the doc's new text)."""
    from pipeline.workspace.edit import insert_anchor_line, unified_diff
    from pipeline.workspace.knowledge import find_sections
    path = ctx.workspace.path(rel)
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise NotFound(f"no knowledge doc {rel} for topic {slug!r}",
                       hint="create it, or fix [[topics]] in kb.toml") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise WorkspaceError(f"{rel}: cannot read it as UTF-8 text ({exc})") from exc
    doc = parse_knowledge(text, rel, slug)
    found = find_sections(doc, section)
    if len(found) > 1:
        raise ConfigError(f"§{found[0].number} is written twice in {rel} (lines "
                          + ", ".join(str(s.line) for s in found) + "): renumber one before anchoring there")
    if not found:
        raise ConfigError(f"no section §{section} in {rel}; sections: "
                          + ", ".join("§" + s.number for s in doc.sections))
    sec = found[0]
    subject, line_text = _line_for(ctx, ident, day)
    if any(a.arxiv_id == subject or a.url == subject for a in sec.anchors):
        raise ConfigError(f"{subject} is already anchored in §{sec.number} of {rel}")
    new_text = insert_anchor_line(text, sec.number, line_text)
    written = [a for s in find_sections(parse_knowledge(new_text, rel, slug), section) for a in s.anchors
               if subject in (a.arxiv_id, a.url)]
    if len(written) != 1 or any(a.arxiv_id not in (None, subject) for a in written):
        raise ConfigError(f"{ident!r}: the line kb would write would not read back as this one anchor; "
                          "anchor it by hand")
    diff = unified_diff(text, new_text, rel)
    line = next(i for i, (a, b) in enumerate(zip(text.splitlines() + [""], new_text.splitlines()), 1) if a != b)
    return AnchorResult(subject, sec.number, rel, line, diff), new_text
