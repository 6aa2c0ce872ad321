"""The one place kb parses XML.

A hostile or broken payload ends as a ``ParseError`` with a readable message
instead of an entity bomb, a file read (XXE) or a bare ``xml.etree`` exception.
Every payload's prolog is read first by expat with a handler that refuses any
entity declaration (the only way to a billion-laughs or an XXE), then the document
is read by the C ElementTree, which fetches no external DTD:

* entity declarations are refused outright (billion laughs, XXE);
* syntax errors, truncated and empty bodies name the line and column;
* an HTML page served where a feed was expected is recognised as such;
* bytes that are not the UTF-8 they declare are refused with their offset.

``iter_elements`` streams big files (bulk dumps) in constant memory.
"""
from __future__ import annotations

import gc
import io
import re
import xml.etree.ElementTree as ET
import xml.parsers.expat
from collections.abc import Iterable, Iterator
from typing import IO

from kb.errors import ParseError

__all__ = [
    "parse_xml", "iter_elements", "HeadThenRest", "check_feed_bytes", "refuse_entity_declarations",
    "localname", "child", "children", "child_text",
]

# expat's "no element found": nothing, or not all of it, arrived.
_XML_ERROR_NO_ELEMENTS = 3

_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")

# What may precede the root element: whitespace, the XML declaration, other processing
# instructions and comments (PROLOG_ITEM); then perhaps a DOCTYPE, internal subset included.
PROLOG_ITEM = rb"\s+|<\?.*?\?>|<!--.*?-->"
DOCTYPE = rb"<!DOCTYPE[^\[>]*(?:\[.*?\])?\s*>"
_HTML_RE = re.compile(rb"^(?:" + PROLOG_ITEM + rb")*<(?:!doctype\s+html|html[\s>/])", re.I | re.S)
_DECL_ENCODING_RE = re.compile(rb"^\s*<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']", re.S)


def localname(tag: str) -> str:
    """``{namespace}name`` → ``name`` (plain names pass through)."""
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def child(elem: ET.Element, name: str) -> ET.Element | None:
    """First direct child whose local name is ``name``, whatever its namespace."""
    for sub in elem:
        if localname(sub.tag) == name:
            return sub
    return None


def children(elem: ET.Element, name: str) -> list[ET.Element]:
    """Every direct child whose local name is ``name``, whatever its namespace."""
    return [sub for sub in elem if localname(sub.tag) == name]


def child_text(elem: ET.Element, name: str) -> str:
    """All the text of the first child named ``name`` (``""`` when absent), not trimmed."""
    sub = child(elem, name)
    return "".join(sub.itertext()) if sub is not None else ""


def _strip_bom(data: bytes) -> bytes:
    return data[3:] if data.startswith(_BOMS[0]) else data


def looks_like_html(head: bytes) -> bool:
    """Whether a payload's first bytes (no byte-order mark) are an HTML page: an error or login page."""
    return _HTML_RE.match(head) is not None


def check_feed_bytes(data: bytes) -> None:
    """Refuse payloads no feed parser should be handed: empty, HTML, or broken UTF-8.

    Raises ``ParseError``; returns None when the bytes may be parsed.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise ParseError(f"expected bytes, got {type(data).__name__}")
    body = _strip_bom(bytes(data))
    if not body.strip():
        raise ParseError("empty body: no document to parse")
    head = body[:4096]
    if looks_like_html(head):
        raise ParseError("got an HTML page, not a feed",
                         hint="the server answered with a web page (error or login page?)")
    m = _DECL_ENCODING_RE.match(head)
    if m and m[1].lower().replace(b"_", b"-") in (b"utf-8", b"utf8"):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as exc:
            line = body.count(b"\n", 0, exc.start) + 1
            raise ParseError(
                f"invalid UTF-8 at byte {exc.start} (line {line}) although the document declares UTF-8"
            ) from None


class _PrologDone(Exception):
    """The root element started: the prolog, where entities could be declared, is over."""


_PROLOG_WINDOW = 256 * 1024   # a stream's prolog must end within this many bytes


def _prolog_ends(data: bytes) -> bool:
    """Refuse entity declarations in ``data``'s prolog; True if the root element starts within ``data``."""
    parser = xml.parsers.expat.ParserCreate()

    def entity(*_args: object) -> None:
        raise ParseError("XML refused: the document declares entities",
                         hint="entity declarations are how billion-laughs and XXE attacks work")

    def start(*_args: object) -> None:
        raise _PrologDone

    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = entity
    parser.StartElementHandler = start
    try:
        for i in range(0, len(data), 65536):
            parser.Parse(data[i:i + 65536], False)
    except _PrologDone:
        return True
    except xml.parsers.expat.ExpatError:
        return True   # not well-formed: the parse that follows reports it with its position
    return False


def refuse_entity_declarations(data: bytes) -> None:
    """Raise ``ParseError`` if the document declares entities (billion laughs, XXE).

    expat itself reads the prolog — comments, any encoding, the DOCTYPE's internal
    subset — with a handler that refuses the first entity declaration, and stops at
    the root element, so an article that merely *mentions* ``<!ENTITY`` is not refused.
    Syntax errors are left to the real parse, which names them.
    """
    _prolog_ends(bytes(data))


class HeadThenRest(io.RawIOBase):
    """A binary stream that gives back ``head`` and then the rest of ``rest``."""

    def __init__(self, head: bytes, rest: IO[bytes]) -> None:
        self._head = memoryview(head)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        chunk = self._rest.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


def _syntax_error(exc: ET.ParseError, data_empty: bool = False) -> ParseError:
    line, col = getattr(exc, "position", (0, 0))
    if data_empty:
        return ParseError("empty body: no XML document to parse")
    if getattr(exc, "code", None) == _XML_ERROR_NO_ELEMENTS:
        return ParseError(f"XML ends too early (truncated?) at line {line}, column {col}")
    reason = str(exc).split(":", 1)[0]
    return ParseError(f"XML syntax error at line {line}, column {col}: {reason}")


def parse_xml(data: bytes) -> ET.Element:
    """Parse a whole XML payload into its root element, safely.

    Runs ``check_feed_bytes`` first (empty body, HTML page, bad UTF-8) and refuses
    any entity declaration in the prolog — the only place entities can be declared,
    so no billion laughs and no external entity can follow. The document is then read
    by expat through the C ElementTree, which fetches no external DTD and rejects
    undeclared entities; defusedxml's pure-Python parser is ~2× slower on a
    20,000-entry API page, for a check already made (`bench/ingest.py`).
    Raises ``ParseError`` naming line and column on any failure.
    """
    check_feed_bytes(data)
    refuse_entity_declarations(data)
    # Building a tree makes no reference cycles; the collector would only walk the
    # growing tree again and again (a third of the parse on a big API page).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return ET.fromstring(bytes(data))
    except ET.ParseError as exc:
        raise _syntax_error(exc) from None
    finally:
        if collecting:
            gc.enable()


def iter_elements(fileobj: IO[bytes], tag_localnames: Iterable[str]) -> Iterator[ET.Element]:
    """Yield each complete element whose local name is in ``tag_localnames``, streaming.

    ``fileobj`` is a binary file object. Each yielded element is valid until the
    generator is resumed; then it is cleared and detached from its parent, and
    so is every element outside a wanted one, so memory stays flat however long
    the file is. A wanted element nested in another wanted one is yielded too
    but kept until its ancestor is done.
    """
    wanted = frozenset(tag_localnames)
    stack: list[tuple[ET.Element, bool]] = []  # open elements, and whether each is wanted
    open_wanted = 0
    seen_any = False
    wanted_tags: dict[str, bool] = {}
    # The prolog is checked by expat first (no entity may be declared), then the C iterparse
    # reads the stream: ~3× defusedxml's pure-Python parser on a big dump.
    head = fileobj.read(_PROLOG_WINDOW)
    if not _prolog_ends(head) and len(head) == _PROLOG_WINDOW:
        raise ParseError(f"XML refused: no root element in the first {_PROLOG_WINDOW // 1024} KiB")
    events = ET.iterparse(io.BufferedReader(HeadThenRest(head, fileobj)), events=("start", "end"))
    try:
        for event, elem in events:
            seen_any = True
            if event == "start":
                is_wanted = wanted_tags.get(elem.tag)
                if is_wanted is None:
                    # A few distinct tags recur millions of times: decide once per tag.
                    is_wanted = wanted_tags[elem.tag] = localname(elem.tag) in wanted
                stack.append((elem, is_wanted))
                open_wanted += is_wanted
                continue
            _, is_wanted = stack.pop()
            open_wanted -= is_wanted
            if is_wanted:
                yield elem
            if open_wanted == 0:
                # Nothing above needs this subtree any more: drop it.
                elem.clear()
                if stack:
                    stack[-1][0].remove(elem)
    except ET.ParseError as exc:
        raise _syntax_error(exc, data_empty=not seen_any and getattr(exc, "position", (1, 1)) == (1, 0)) from None
