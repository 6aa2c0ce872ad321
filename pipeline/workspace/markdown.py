"""Shared helpers for reading the team's Markdown files.

One MarkdownIt instance (CommonMark + tables), front matter split off and loaded with a
guarded safe YAML loader, and a walk over the token stream that turns blocks into plain
text lines that remember their links and their 1-based line in the file. The parsers in
this package (notes, cards, queue, knowledge) take their structure from these tokens;
regexes are only used on one inline text at a time (upvotes, IDs; URLs and dates in
``textscan``).

Everything here is pure: text in, values out, no I/O, no exceptions for bad input.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from kb.records import MAX_INT

__all__ = [
    "MD", "FRONT_MATTER_LIMIT", "split_lines", "FrontMatter", "split_front_matter",
    "ParsedDoc", "parse_document", "Link", "TextLine", "Block", "inline_lines", "inline_text",
    "iter_blocks", "item_parents", "fm_str", "fm_int", "fm_bool", "fm_list",
]

# One parser for the whole package. CommonMark keeps parsing predictable across
# editors; tables are on because notes and briefings use them for source lists.
# linkify is deliberately not used even when linkify-it-py happens to be installed:
# results must not depend on optional packages, so bare URLs come from find_urls().
MD = MarkdownIt("commonmark").enable(["table", "strikethrough"])

FRONT_MATTER_LIMIT = 64 * 1024   # bytes of UTF-8; far more than any honest front matter needs
_MAX_YAML_DEPTH = 32              # nested collections; guards the recursive composer

# markdown-it normalises exactly these to "\n"; every line count here must agree with it
# (str.splitlines would also split on \x0c, \x85, \u2028 … and shift line numbers).
_NEWLINE_RE = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` with their terminators kept, split the way markdown-it splits."""
    lines, start = [], 0
    for m in _NEWLINE_RE.finditer(text):
        lines.append(text[start:m.end()])
        start = m.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


# --------------------------------------------------------------------------- front matter
class _GuardedLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases and deep nesting and keeps dates as written.

    Aliases are refused outright: front matter never needs them, and refusing them is
    the only sure defence against "billion laughs" documents whose loaded value is huge.
    Timestamps stay strings so ``created: 2026-10-08`` reads back exactly as written.
    """

    _depth = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.composer.ComposerError(
                None, None, f"YAML alias *{event.anchor} refused (aliases are not allowed)",
                event.start_mark)
        self._depth += 1
        try:
            if self._depth > _MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {_MAX_YAML_DEPTH} levels", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# ``!!binary`` would turn a value into bytes (a title stored as ``b'hello'``): front matter is text, kept as written.
_GuardedLoader.add_constructor("tag:yaml.org,2002:binary", lambda loader, node: loader.construct_scalar(node))

_GuardedLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass
class FrontMatter:
    """The result of splitting a file into front matter and body.

    ``data`` is the loaded mapping with lower-cased string keys ({} when absent or
    refused); ``node`` the composed YAML node, kept so a caller can re-read a scalar as
    written (``raw_scalar``); ``body_line`` the 0-based line where the body starts.
    """

    data: dict[str, Any] = field(default_factory=dict)
    node: yaml.Node | None = None
    body: str = ""
    body_line: int = 0
    present: bool = False
    problems: list[str] = field(default_factory=list)

    def raw_scalar(self, key: str) -> str | None:
        """The text of ``key``'s scalar value exactly as written (``2610.10000``, not 2610.1)."""
        if not isinstance(self.node, yaml.MappingNode):
            return None
        for knode, vnode in self.node.value:
            if isinstance(knode, yaml.ScalarNode) and str(knode.value).strip().lower() == key:
                return vnode.value if isinstance(vnode, yaml.ScalarNode) else None
        return None


def _is_fence(line: str, closing: bool) -> bool:
    s = line.rstrip("\r\n").rstrip(" \t")
    return s == "---" or (closing and s == "...")


def _yaml_problem(exc: BaseException) -> str:
    """What YAML found wrong, with its line in the file (the front matter starts on line 2): ``line 3: expected
    ',' or ']', but got ':'``. PyYAML's message starts with its context ("while parsing a flow sequence"),
    which says neither what nor where, and goes on to quote the file, which an error never shows."""
    if isinstance(exc, yaml.MarkedYAMLError) and (exc.problem or exc.context):
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 2}: " if mark is not None else ""
        return where + str(exc.problem or exc.context).strip().splitlines()[0]
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def split_front_matter(text: str) -> FrontMatter:
    """Split ``---``-delimited YAML front matter from the body; never raises.

    A missing closing fence, oversize, malformed or hostile YAML, or a value that is not
    a mapping each become a problem; the body is still returned so the file is read.
    """
    lines = split_lines(text)
    if not lines or not _is_fence(lines[0].lstrip("\ufeff"), closing=False):
        return FrontMatter(body=text)
    close = next((i for i in range(1, len(lines)) if _is_fence(lines[i], closing=True)), None)
    if close is None:
        return FrontMatter(body=text, problems=["front matter is not closed (no second ---); read as body"])
    raw = "".join(lines[1:close])
    fm = FrontMatter(body="".join(lines[close + 1:]), body_line=close + 1, present=True)
    if len(raw.encode("utf-8", "surrogatepass")) > FRONT_MATTER_LIMIT:
        fm.problems.append(f"front matter larger than {FRONT_MATTER_LIMIT // 1024} KB refused")
        return fm
    try:
        loader = _GuardedLoader(raw)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else {}
        finally:
            loader.dispose()
    except (yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError) as exc:
        # ValueError/TypeError/OverflowError: odd scalars the safe constructors choke on.
        fm.problems.append(f"front matter is not valid safe YAML: {_yaml_problem(exc)}")
        return fm
    if data is None:
        data = {}
    if not isinstance(data, dict):
        fm.problems.append(f"front matter is a {type(data).__name__}, not a mapping")
        return fm
    fm.node = node
    fm.data = {str(k).strip().lower(): v for k, v in data.items()}
    return fm


# --------------------------------------------------------------------------- front-matter values
def fm_str(value: Any) -> str | None:
    """A scalar as a stripped string (numbers and booleans too); None for collections."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value).strip()


def fm_int(value: Any) -> int | None:
    """An integer from an int, an integral float or a digit string ("12", "12▲"); else None (also for
    one no store column holds, beyond ``MAX_INT``)."""
    if isinstance(value, bool):
        return None
    n = None
    if isinstance(value, int):
        n = value
    elif isinstance(value, float) and value.is_integer():
        n = int(value)
    elif isinstance(value, str):
        m = re.fullmatch(r"\s*(\d{1,30})\s*(?:▲|upvotes?)?\s*", value, re.I)
        n = int(m[1]) if m else None
    return n if n is not None and abs(n) <= MAX_INT else None


_TRUE = {"true", "yes", "y", "on", "1", "是"}
_FALSE = {"false", "no", "n", "off", "0", "否"}


def fm_bool(value: Any) -> bool | None:
    """A boolean from a YAML bool or a yes/no word; None when it is neither."""
    if isinstance(value, bool):
        return value
    text = fm_str(value)
    if text is None:
        return None
    low = text.lower()
    return True if low in _TRUE else False if low in _FALSE else None


def fm_list(value: Any) -> list[str] | None:
    """A list of strings from a YAML list or a comma-separated string; None if neither."""
    if value is None:
        return []
    if isinstance(value, str):
        return [p.strip() for p in re.split(r"[,，、]", value) if p.strip()]
    if isinstance(value, list):
        out = [fm_str(v) for v in value]
        return [v for v in out if v]
    return None


# --------------------------------------------------------------------------- document
@dataclass
class ParsedDoc:
    """A file split and tokenised: front matter, body tokens and the raw lines."""

    front: FrontMatter
    tokens: list[Token]
    lines: list[str]          # the whole text's lines, terminators kept

    @property
    def offset(self) -> int:
        """Lines before the body: add to a token's 0-based map line."""
        return self.front.body_line


def parse_document(text: str) -> ParsedDoc:
    """Split front matter and tokenise the body with the shared parser."""
    front = split_front_matter(text)
    return ParsedDoc(front, MD.parse(front.body), split_lines(text))


# --------------------------------------------------------------------------- inline text
@dataclass
class Link:
    """A link inside a TextLine: its target and the span of its text in the line."""

    href: str
    start: int
    end: int


@dataclass
class TextLine:
    """One source line of plain text (Markdown stripped), with its links and line number."""

    text: str
    links: list[Link] = field(default_factory=list)
    line: int = 0             # 1-based line in the file
    struck: list[tuple[int, int]] = field(default_factory=list)   # spans written ~~struck through~~
    code: list[tuple[int, int]] = field(default_factory=list)     # spans written as `code`

    def is_struck(self, start: int, end: int) -> bool:
        """Does the span ``[start, end)`` lie inside struck-through text?"""
        return any(s <= start and end <= e for s, e in self.struck)


def inline_lines(inline: Token, first_line: int) -> list[TextLine]:
    """Plain text of an ``inline`` token, one TextLine per source line (soft/hard breaks)."""
    lines = [TextLine("", [], first_line)]
    open_links: list[tuple[str, int]] = []
    struck_from: int | None = None

    def close_open_links() -> None:
        cur = lines[-1]
        for href, start in open_links:
            cur.links.append(Link(href, start, len(cur.text)))
        open_links.clear()

    for child in inline.children or []:
        cur = lines[-1]
        if child.type in ("softbreak", "hardbreak"):
            close_open_links()   # a link broken over two lines is recorded on its first
            lines.append(TextLine("", [], cur.line + 1))
        elif child.type == "link_open":
            open_links.append((str(child.attrGet("href") or ""), len(cur.text)))
        elif child.type == "link_close":
            if open_links:
                href, start = open_links.pop()
                cur.links.append(Link(href, start, len(cur.text)))
        elif child.type == "s_open":
            struck_from = len(cur.text)
        elif child.type == "s_close":
            if struck_from is not None:
                cur.struck.append((struck_from, len(cur.text)))
            struck_from = None
        elif child.type == "code_inline":
            cur.code.append((len(cur.text), len(cur.text) + len(child.content)))
            cur.text += child.content
        elif child.type == "image":
            cur.text += "".join(c.content for c in child.children or []) or child.content
        elif child.type == "html_inline":
            continue             # tags are markup, not text
        elif child.content:
            cur.text += child.content
    close_open_links()
    return lines


def inline_text(inline: Token, sep: str = "\n") -> str:
    """Plain text of an inline token, its source lines joined by ``sep``."""
    return sep.join(tl.text for tl in inline_lines(inline, 0)).strip()


@dataclass
class Block:
    """A block of text met while walking tokens.

    ``kind`` is heading / paragraph / table_row / code. ``item`` is the index of the
    list_item_open token the block sits directly in (None outside lists, or when a
    blockquote stands between), so list items' own text can be told from nested items'
    (and a table or a code block written inside an item belongs to it).
    """

    kind: str
    lines: list[TextLine]
    line: int                 # 1-based first line
    tag: str = ""             # h1…h6 for headings
    item: int | None = None
    token_index: int = 0
    nested: bool = False      # inside a list item or blockquote
    cells: list[TextLine] = field(default_factory=list)   # table rows: one line per cell
    table: int | None = None  # table rows: token index of their table (rows of one table share it)
    header: bool = False      # table rows: the header row
    lang: str = ""            # code: the fence's language word, as written (first word of its info string)

    @property
    def text(self) -> str:
        return "\n".join(tl.text for tl in self.lines)


def _line(token: Token, offset: int) -> int:
    return (token.map[0] if token.map else 0) + offset + 1


def _item(containers: list[tuple[str, int]]) -> int | None:
    """The list item a block sits directly in: None outside lists or when a blockquote is nearer."""
    return containers[-1][1] if containers and containers[-1][0] == "list_item_open" else None


def iter_blocks(tokens: list[Token], offset: int = 0, base: int = 0) -> Iterator[Block]:
    """Walk ``tokens`` (a whole stream or a slice) and yield their text blocks in order.

    ``offset`` is added to token lines (front matter), ``base`` to token indices (slices).
    """
    containers: list[tuple[str, int]] = []
    table: int | None = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "table_open":
            table = base + i
        elif tok.type in ("list_item_open", "blockquote_open"):
            containers.append((tok.type, base + i))
        elif tok.type in ("list_item_close", "blockquote_close"):
            if containers:
                containers.pop()
        elif tok.type in ("heading_open", "paragraph_open") and i + 1 < len(tokens) \
                and tokens[i + 1].type == "inline":
            item = _item(containers)
            kind = "heading" if tok.type == "heading_open" else "paragraph"
            yield Block(kind, inline_lines(tokens[i + 1], _line(tok, offset)), _line(tok, offset),
                        tok.tag if kind == "heading" else "", item, base + i, bool(containers))
            i += 2
            continue
        elif tok.type == "tr_open":
            j, row, cells = i + 1, TextLine("", [], _line(tok, offset)), []
            header = i > 0 and tokens[i - 1].type == "thead_open"
            while j < len(tokens) and tokens[j].type != "tr_close":
                if tokens[j].type == "inline":
                    cell = inline_lines(tokens[j], row.line)
                    cells.append(cell[0])
                    shift = len(row.text) + (3 if row.text else 0)
                    row.text += (" | " if row.text else "") + " ".join(c.text for c in cell)
                    # cells are one line each; keep link spans right after the join
                    row.links += [Link(l.href, l.start + shift, l.end + shift) for l in cell[0].links]
                j += 1
            item = _item(containers)
            yield Block("table_row", [row], row.line, item=item, token_index=base + i, nested=bool(containers),
                        cells=cells, table=table, header=header)
            i = j + 1
            continue
        elif tok.type in ("fence", "code_block"):
            first = _line(tok, offset) + (1 if tok.type == "fence" else 0)
            content = tok.content[:-1] if tok.content.endswith("\n") else tok.content
            code = [TextLine(t, [], first + k) for k, t in enumerate(content.split("\n"))] if content else []
            yield Block("code", code, _line(tok, offset), item=_item(containers), token_index=base + i,
                        nested=bool(containers), lang=(tok.info.split() or [""])[0])
        i += 1


def item_parents(tokens: list[Token], base: int = 0) -> dict[int, int | None]:
    """Each list item's token index (plus ``base``) → the list item it is nested in, or None."""
    parents: dict[int, int | None] = {}
    open_items: list[int] = []
    for i, tok in enumerate(tokens):
        if tok.type == "list_item_open":
            parents[base + i] = open_items[-1] if open_items else None
            open_items.append(base + i)
        elif tok.type == "list_item_close" and open_items:
            open_items.pop()
    return parents
