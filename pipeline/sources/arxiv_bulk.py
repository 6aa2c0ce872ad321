"""Bulk arXiv metadata for backfill, streamed: Kaggle JSON lines and OAI-PMH XML.

These files run to gigabytes, so every reader here is a generator over a file
object, yielding one ``PaperRecord`` per paper or one problem string per record
it had to skip (a bad line, a deleted record). Memory does not grow with the
file: JSON lines are read one at a time, XML through ``xmlsafe.iter_elements``,
which clears each record once it has been read.
"""
from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import IO

from kb.arxiv_id import parse_arxiv_id
from kb.errors import ParseError
from kb.records import PaperRecord
from pipeline.sources.text import collapse_ws, iso_date, rfc822_date, split_authors
from pipeline.sources.xmlsafe import (
    PROLOG_ITEM,
    HeadThenRest,
    child,
    child_text,
    children,
    iter_elements,
    localname,
)

__all__ = ["iter_kaggle", "iter_oai", "iter_bulk", "BulkItem"]

BulkItem = PaperRecord | str

_OAI_ID_PREFIX = "oai:arXiv.org:"
_HEAD_BYTES = 4096


# --------------------------------------------------------------------------- Kaggle JSON lines
def iter_kaggle(fileobj: IO[bytes] | IO[str]) -> Iterator[BulkItem]:
    """Read the Kaggle ``arxiv-metadata-oai-snapshot`` JSON lines, one paper per line.

    Yields a ``PaperRecord`` per good line and a ``"line N: …"`` problem string
    per line that is not JSON, not an object, or has no valid ``id``.
    """
    for n, raw in enumerate(fileobj, start=1):
        try:
            line = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            yield f"line {n}: not UTF-8 ({exc.reason} at byte {exc.start})"
            continue
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield f"line {n}: not JSON ({exc.msg} at column {exc.colno})"
            continue
        except RecursionError:
            yield f"line {n}: JSON nested too deeply, skipped"
            continue
        if not isinstance(obj, dict):
            yield f"line {n}: a JSON {type(obj).__name__}, not an object"
            continue
        paper = _kaggle_record(obj)
        yield paper if paper is not None else f"line {n}: no valid arXiv id ({obj.get('id')!r})"


def _kaggle_record(obj: dict) -> PaperRecord | None:
    aid = parse_arxiv_id(str(obj.get("id") or ""))
    if aid is None:
        return None
    versions = _kaggle_versions(obj.get("versions"))
    categories = collapse_ws(_str(obj.get("categories"))).split()
    return PaperRecord(
        arxiv_id=aid.id,
        version=versions[-1][0] if versions else aid.version,
        title=collapse_ws(_str(obj.get("title"))),
        authors=_kaggle_authors(obj),
        abstract=collapse_ws(_str(obj.get("abstract"))),
        categories=categories,
        primary_category=categories[0] if categories else None,
        published=versions[0][1] if versions else None,
        # The date of the latest version; update_date is when the *metadata* last changed.
        updated=versions[-1][1] if versions else iso_date(_str(obj.get("update_date"))),
        doi=collapse_ws(_str(obj.get("doi"))) or None,
        journal_ref=collapse_ws(_str(obj.get("journal-ref"))) or None,
        comment=collapse_ws(_str(obj.get("comments"))) or None,
        versions=versions,
    )


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _kaggle_versions(raw: object) -> list[tuple[int, str]]:
    versions: list[tuple[int, str]] = []
    for v in raw if isinstance(raw, list) else []:
        if not isinstance(v, dict):
            continue
        m = re.fullmatch(r"v(\d+)", _str(v.get("version")).strip())
        day = rfc822_date(_str(v.get("created")))
        if m and day:
            versions.append((int(m[1]), day))
    return sorted(set(versions))


def _kaggle_authors(obj: dict) -> list[str]:
    # authors_parsed has Unicode names ("Balázs"); authors keeps TeX accents. Prefer the former.
    parsed = obj.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        names = []
        for row in parsed:
            if isinstance(row, list) and row:
                last, first, suffix = ([*map(_str, row[:3])] + ["", ""])[:3]
                name = collapse_ws(" ".join(p for p in (first, last, suffix) if p.strip()))
                if name:
                    names.append(name)
        if names:
            return names
    return split_authors(_str(obj.get("authors")))


# --------------------------------------------------------------------------- OAI-PMH
def iter_oai(fileobj: IO[bytes]) -> Iterator[BulkItem]:
    """Read OAI-PMH ``ListRecords``/``GetRecord`` XML in the ``arXiv`` or ``oai_dc`` metadata format.

    Also reads a bare ``<ListRecords>`` root without namespaces (concatenated
    harvests). Deleted records and OAI-PMH ``<error>`` answers become problem
    strings. Raises ``ParseError`` if the XML itself is broken or hostile.
    """
    for elem in iter_elements(fileobj, ("record", "error")):
        if localname(elem.tag) == "error":
            yield f"OAI-PMH error {elem.get('code', '?')}: {collapse_ws(''.join(elem.itertext()))}"
        else:
            yield _oai_record(elem)


def _oai_record(record: ET.Element) -> BulkItem:
    header = child(record, "header")
    oai_id = collapse_ws(child_text(header, "identifier")) if header is not None else ""
    if header is not None and header.get("status") == "deleted":
        return f"{oai_id or 'record'}: deleted, skipped"
    metadata = child(record, "metadata")
    fmt = next(iter(metadata), None) if metadata is not None else None
    if fmt is None:
        return f"{oai_id or 'record'}: no metadata"
    kind = localname(fmt.tag)
    if kind == "arXiv":
        paper = _arxiv_format(fmt)
    elif kind == "dc":
        paper = _oai_dc_format(fmt)
    else:
        return f"{oai_id or 'record'}: unsupported metadata format <{kind}>"
    if paper is None:
        # The header identifier is the fallback key for the problem note only.
        return f"{oai_id or 'record'}: no valid arXiv id in the metadata"
    return paper


def _arxiv_format(meta: ET.Element) -> PaperRecord | None:
    # One pass over the fields: backfills read millions of these.
    field = {localname(sub.tag): sub for sub in meta}

    def text(name: str) -> str:
        sub = field.get(name)
        return collapse_ws("".join(sub.itertext())) if sub is not None else ""

    aid = parse_arxiv_id(text("id"))
    if aid is None:
        return None
    authors = []
    for a in field["authors"] if "authors" in field else []:
        parts = {localname(p.tag): p.text or "" for p in a}
        name = collapse_ws(" ".join(parts.get(k, "") for k in ("forenames", "keyname", "suffix")))
        if name:
            authors.append(name)
    categories = text("categories").split()
    created = iso_date(text("created"))
    return PaperRecord(
        arxiv_id=aid.id,
        title=text("title"),
        authors=authors,
        abstract=text("abstract"),
        categories=categories,
        primary_category=categories[0] if categories else None,
        published=created,
        # <updated> is the latest version's date, absent for single-version papers.
        updated=iso_date(text("updated")) or created,
        doi=text("doi") or None,
        journal_ref=text("journal-ref") or None,
        comment=text("comments") or None,
        versions=[(1, created)] if created else [],
    )


def _oai_dc_format(meta: ET.Element) -> PaperRecord | None:
    aid, doi, refs = None, None, []
    for ident in (collapse_ws("".join(i.itertext())) for i in children(meta, "identifier")):
        if ident.lower().startswith("doi:"):
            doi = doi or ident[4:].strip()
        elif "arxiv.org/abs/" in ident:
            aid = aid or parse_arxiv_id(ident)
        elif ident and not ident.startswith("http"):
            refs.append(ident)  # a bare identifier that is neither URL nor DOI is the journal ref
    if aid is None:
        return None
    descriptions = [collapse_ws("".join(d.itertext())) for d in children(meta, "description")]
    comment = next((d[len("Comment:"):].strip() for d in descriptions if d.startswith("Comment:")), None)
    abstract = next((d for d in descriptions if not d.startswith("Comment:")), "")
    # One dc:date for v1, a second for the latest version when there is one.
    dates = [d for d in (iso_date(collapse_ws(x.text)) for x in children(meta, "date")) if d]
    return PaperRecord(
        arxiv_id=aid.id,
        title=collapse_ws(child_text(meta, "title")),
        authors=[_last_first(collapse_ws(c.text)) for c in children(meta, "creator") if collapse_ws(c.text)],
        abstract=abstract,
        # dc:subject holds category *names* ("Quantum Physics"), not codes: nothing to keep.
        published=dates[0] if dates else None,
        updated=dates[-1] if dates else None,
        doi=doi,
        journal_ref="; ".join(refs) or None,
        comment=comment or None,
        versions=[(1, dates[0])] if dates else [],
    )


def _last_first(name: str) -> str:
    """``"Rao, A. V. Gopala"`` → ``"A. V. Gopala Rao"``; names without a comma stay as they are."""
    last, sep, first = name.partition(",")
    return f"{first.strip()} {last.strip()}".strip() if sep else name


# --------------------------------------------------------------------------- auto-detect
# The root element after the prolog, comments and a DOCTYPE without an internal subset (one with a subset
# is the XML reader's to refuse, first).
_ROOT_RE = re.compile(rb"^(?:" + PROLOG_ITEM + rb"|<!DOCTYPE[^\[>]*>)*<([A-Za-z_][\w.:-]*)", re.S | re.I)
# Documents that are surely no harvest (iter_oai reads <record> elements under any root otherwise).
NOT_HARVESTS = {"html", "rss", "feed", "rdf"}


def _refuse_other_xml(head: bytes) -> None:
    """An XML file that is not an OAI-PMH harvest (an HTML error page, an RSS listing, an Atom feed)
    holds no bulk records: say so, rather than read it as a harvest with none."""
    m = _ROOT_RE.match(head.lstrip(b"\xef\xbb\xbf"))
    root = m[1].decode("ascii", "replace").rpartition(":")[2] if m else None
    if root is not None and root.lower() in NOT_HARVESTS:
        raise ParseError(f"not an OAI-PMH harvest: the document is <{root}> (bulk files are Kaggle JSON lines "
                         "or OAI-PMH XML)")


def iter_bulk(fileobj: IO[bytes]) -> Iterator[BulkItem]:
    """Stream any bulk file: JSON lines go to ``iter_kaggle``, XML to ``iter_oai``.

    The format is decided from the first bytes, which are then replayed, so the
    file object need not be seekable. Raises ``ParseError`` for anything else.
    """
    head = fileobj.read(_HEAD_BYTES)
    if isinstance(head, str):
        raise ParseError("bulk files must be opened in binary mode")
    stream = io.BufferedReader(HeadThenRest(head, fileobj))
    first = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if first == b"{":
        return iter_kaggle(stream)
    if first == b"<":
        _refuse_other_xml(head)
        return iter_oai(stream)
    if not first:
        raise ParseError("empty body: no bulk records")
    raise ParseError("unrecognised bulk format: neither JSON lines nor XML")
