"""Which paper a note entry, or lines of it, are about, beyond the subject its parser found.

An entry with no ID, no link and a heading that names nothing ("周四下午到今早新冒出来的") is about the one paper
its text names (``headless_subjects``).

An entry is one item, keyed by its subject (``collect``); the reading group's minutes of LoftKV hold a table row of
AtticPool's figures ("| AtticPool（2611.04265） | Spark | … | TTFT −27% |"). Shown under LoftKV, that row reads as
LoftKV's; it is AtticPool's, and its item is where a reader looks for it. Pure: the entry's text or points in.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace

from kb.citations import find_cited_ids
from kb.names import TOKEN, coined, name_key
from kb.records import Point, PointBlock
from kb.text import find_markers


def headless_subjects(entries: Iterable[tuple[str, str, str]],
                      papers_named: Callable[[set[str]], dict[str, dict[str, str]]]) -> dict[str, str]:
    """``{place: arXiv ID}`` of the entries (``(place, heading, text)``, each citing no ID and no link) whose heading
    coins no name and whose text names exactly one paper: one coined name that exactly one stored paper's title
    carries (``papers_named``: folded names → {ID: title}, one store query). A week's recap "待核实：群里有人说
    LoftKV 用的 CXL 扩展卡只在工程样品上测过" under "周四下午到今早新冒出来的" is LoftKV's; naming two papers, it
    compares them."""
    named_by = {}
    for place, heading, text in entries:
        if any(coined(w) for w in _TOKEN.findall(heading)):
            continue
        keys = {name_key(w) for w in _TOKEN.findall(text) if coined(w)}
        if keys:
            named_by[place] = keys
    if not named_by:
        return {}
    stored = papers_named(set().union(*named_by.values()))
    out = {}
    for place, keys in named_by.items():
        papers = {aid for k in keys for aid in stored.get(k, {})}
        if len(papers) == 1 and sum(k in stored for k in keys) == 1:
            out[place] = papers.pop()
    return out


_TOKEN = re.compile(TOKEN)


def rows_by_paper(points: list[Point], subject: str | None, others: tuple[str, ...]
                  ) -> tuple[list[Point], dict[str, list[Point]]]:
    """``(the subject's points, {other paper: its points})``: a table's body row whose first cell cites one of
    ``others`` (papers the store knows) and not the subject is that paper's, shown under the bullet above the
    table with the table's header; the rest stays the subject's (a row of the subject's, a row naming no paper,
    a bullet comparing the subject with another paper)."""
    if not others:
        return points, {}
    theirs: dict[str, list[Point]] = {}
    mine = []
    for p in points:
        blocks = []
        for b in p.blocks:
            if b.kind != "table" or len(b.rows) < 2:
                blocks.append(b)
                continue
            kept = [b.rows[0]]
            for row in b.rows[1:]:
                cited = {a.id for a in find_cited_ids(row[0].text)} if row else set()
                named = [i for i in others if i in cited]
                if not named or subject in cited:
                    kept.append(row)
                    continue
                for aid in named:
                    theirs.setdefault(aid, []).append(
                        Point(p.text, p.code, (PointBlock("table", rows=(b.rows[0], row)),)))
            if len(kept) > 1:
                blocks.append(replace(b, rows=tuple(kept)))
        mine.append(p if tuple(blocks) == p.blocks else replace(p, blocks=tuple(blocks)))
    return mine, {aid: _one_table(ps) for aid, ps in theirs.items()}


def _one_table(points: list[Point]) -> list[Point]:
    """A paper's rows of one table, under one bullet: the rows joined, in the order written."""
    out: list[Point] = []
    for p in points:
        last = out[-1] if out else None
        if last is not None and last.text == p.text and last.blocks[0].rows[0] == p.blocks[0].rows[0]:
            rows = last.blocks[0].rows + p.blocks[0].rows[1:]
            out[-1] = replace(last, blocks=(PointBlock("table", rows=rows),))
        else:
            out.append(p)
    return out


def marks_by_paper(text: str, marks: list[str], subject: str | None, others: tuple[str, ...]
                    ) -> tuple[list[str], dict[str, tuple[list[str], list[str]]]]:
    """``(the subject's marks, {other paper: (its marks, its marked rows)})`` of an entry citing other papers: a
    marked table row whose first cell names one of ``others`` (papers the store knows) and not the subject ("|
    EvenTime（2610.22108） | TTFT 多 6% | 待核实：… |") is that paper's. Every other mark stays the subject's: a line
    comparing the subject with another paper ("⚠ 比 EAGLE（2401.15077）还快 1.6×") is about the subject."""
    theirs: dict[str, tuple[list[str], list[str]]] = {}
    kept: set[str] = set()
    for line in text.splitlines():
        found = find_markers(line)
        if not found:
            continue
        # a table row as the note keeps it ("EvenTime（2610.22108） | TTFT 多 6% | 待核实"), outer pipes or not
        cells = line.strip().strip("|").split("|") if "|" in line else []
        cited = {a.id for a in find_cited_ids(cells[0])} if cells else set()
        named = [i for i in others if i in cited]
        if not named or subject in cited:
            kept.update(found)
            continue
        for aid in named:
            got, lines = theirs.setdefault(aid, ([], []))
            got += [m for m in found if m not in got]
            lines.append(line.strip())
    moved = {m for got, _ in theirs.values() for m in got}
    return [m for m in marks if m in kept or m not in moved], theirs
