"""A note entry's bullets as points, with what the team wrote under them.

A point is a list item's own text (its code spans remembered, so they are shown as code
again) and the blocks under it: its nested items, each with its depth, and any table or code
block (fenced or indented) written inside the item, inside one of its nested items, or right
after it. A bullet that ends in "：" and introduces a table or a launch command keeps it; the
briefing never shows a colon with nothing after it.
"""
from __future__ import annotations

from kb.records import Inline, Point, PointBlock

from .markdown import Block, TextLine

__all__ = ["inline_of", "points_of"]


def _join(parts: list[Inline], sep: str = " ") -> Inline:
    """``parts`` joined by ``sep``, their code spans moved along."""
    text, code = "", []
    for n, p in enumerate(parts):
        if n:
            text += sep
        code += [(a + len(text), b + len(text)) for a, b in p.code]
        text += p.text
    return Inline(text, tuple(code))


def _strip(p: Inline) -> Inline:
    """``p`` without surrounding whitespace; code spans cut to what is left."""
    lead, body = len(p.text) - len(p.text.lstrip()), p.text.strip()
    code = ((max(a - lead, 0), min(b - lead, len(body))) for a, b in p.code)
    return Inline(body, tuple((a, b) for a, b in code if a < b))


def inline_of(lines: list[TextLine]) -> Inline:
    """A paragraph's (or a cell's) lines as one line of text: each line stripped, joined by a space."""
    return _join([_strip(Inline(tl.text, tuple(tl.code))) for tl in lines])


class _Builder:
    """Points in document order; each remembers its paragraphs and the blocks under it."""

    def __init__(self, parents: dict[int, int | None], own_item: int | None) -> None:
        self.parents, self.own_item = parents, own_item
        self.texts: dict[int, list[Inline]] = {}          # item → its own paragraphs
        # point's item → ("item", i, depth) | ("table", id) | ("code", block, depth), in document order
        self.under: dict[int, list[tuple]] = {}
        self.rows: dict[int, list[Block]] = {}           # table id → its rows

    def top(self, item: int) -> tuple[int, int]:
        """(the point's item, depth below it): nested items climb to the item that is a point."""
        depth = 0
        while (up := self.parents.get(item)) not in (None, self.own_item):
            item, depth = up, depth + 1
        return item, depth

    def paragraph(self, b: Block) -> int:
        top, depth = self.top(b.item)
        self.under.setdefault(top, [])
        if depth and ("item", b.item, depth) not in self.under[top]:
            self.under[top].append(("item", b.item, depth))
        self.texts.setdefault(b.item, []).append(inline_of(b.lines))
        return top

    def table_row(self, b: Block, top: int) -> None:
        if b.table not in self.rows:
            self.rows[b.table] = []
            self.under.setdefault(top, []).append(("table", b.table))
        self.rows[b.table].append(b)

    def code(self, b: Block, top: int, depth: int) -> None:
        """A code block of point ``top``, written in its nested item at ``depth`` (0: the bullet itself)."""
        self.under.setdefault(top, []).append(("code", b, depth))

    def _text(self, item: int) -> Inline:
        return _strip(_join(self.texts.get(item, [])))

    def _blocks(self, top: int) -> tuple[PointBlock, ...]:
        """Tables and code as they are; consecutive nested items as one list."""
        out: list[PointBlock] = []
        items: list[tuple[int, Inline]] = []
        # Depth of the last item shown. Code sits no deeper than that: an item without text is not shown,
        # and a fence indented past the item before it would read as an indented code block.
        shown = 0
        for what in self.under[top] + [("end",)]:
            if what[0] != "item" and items:
                out.append(PointBlock("list", items=tuple(items)))
                items = []
            if what[0] == "item" and (text := self._text(what[1])).text:
                items.append((what[2], text))
                shown = what[2]
            elif what[0] == "table":
                rows = sorted(self.rows[what[1]], key=lambda r: not r.header)   # the header first
                out.append(PointBlock("table", rows=tuple(tuple(inline_of([c]) for c in r.cells) for r in rows)))
                shown = 0
            elif what[0] == "code":
                out.append(_code_block(what[1], min(what[2], shown)))
        return tuple(out)

    def points(self) -> list[Point]:
        out = []
        for top in self.under:
            head, blocks = self._text(top), self._blocks(top)
            if head.text or blocks:
                out.append(Point(head.text, head.code, blocks))
        return out


def _code_block(b: Block, depth: int) -> PointBlock:
    """A code block's lines exactly as written (no stripping: indentation is meaning in a config)."""
    return PointBlock("code", lines=tuple(tl.text for tl in b.lines), lang=b.lang, depth=depth)


def points_of(blocks: list[Block], own_item: int | None, parents: dict[int, int | None]) -> list[Point]:
    """An entry's points: each list item's own paragraphs as one line of text, in document order.

    ``own_item`` is the list item that is the entry itself (its direct sub-items are the points);
    ``parents`` maps each list item to the one it is nested in (``markdown.item_parents``). A table
    inside an item belongs to that item's point; a table right after a point (the list ended for it)
    belongs to that point too. So does a code block, which keeps the depth of the nested item it is in.
    """
    build = _Builder(parents, own_item)
    last: int | None = None       # the point the previous block belonged to
    for b in blocks:
        in_point = b.item is not None and b.item != own_item
        if b.kind == "paragraph" and in_point:
            last = build.paragraph(b)
        elif b.kind == "table_row" and (in_point or last is not None):
            last = build.top(b.item)[0] if in_point else last
            build.table_row(b, last)
        elif b.kind == "code" and (in_point or last is not None):
            last, depth = build.top(b.item) if in_point else (last, 0)
            if any(tl.text.strip() for tl in b.lines):    # an empty fence holds nothing to keep
                build.code(b, last, depth)
        else:
            last = None
    return build.points()
