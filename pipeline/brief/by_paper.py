"""Which paper a note entry, or lines of it, are about, beyond the subject its parser found.

An entry with no ID, no link and a heading that names nothing ("周四下午到今早新冒出来的") is about the one paper
its text names (``headless_subjects``).

An entry is one item, keyed by its subject (``collect``); the reading group's minutes of LoftKV hold a table row of
AtticPool's figures ("| AtticPool（2611.04265） | Spark | … | TTFT −27% |"). Shown under LoftKV, that row reads as
LoftKV's; it is AtticPool's, and its item is where a reader looks for it. Pure: the entry's text or points in.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace

from kb.arxiv_id import find_arxiv_ids, parse_arxiv_id
from kb.citations import find_cited_ids
from kb.names import coined_names, name_key
from kb.records import Point, PointBlock
from kb.text import find_markers
from pipeline.brief.entities import ID_WRITTEN, compared_before


def headless_subjects(entries: Iterable[tuple[str, str, str]],
                      papers_named: Callable[[set[str]], dict[str, dict[str, str]]], window: Collection[str],
                      compared: tuple[str, ...] = ()) -> dict[str, str]:
    """``{place: arXiv ID}`` of the entries (``(place, heading, text)``, each citing no ID and no link) whose heading
    coins no name and whose text names exactly one paper of the window (``window``: the day's listed, carded and
    cited papers), by a coined name that exactly one stored paper's title carries (``papers_named``: folded names →
    {ID: title}, one store query). A week's recap "待核实：群里有人说 LoftKV 用的 CXL 扩展卡只在工程样品上测过" under
    "周四下午到今早新冒出来的" is LoftKV's. A name after a ``[compared]`` word is a baseline ("比 LoftKV 论文里报的
    1.1 s 慢一倍多": the team's own measurement); naming two papers, it compares them; a paper of another day
    ("线上这周切到 SGLang 了") is the team's deployment, not a paper of the day."""
    after_compared = compared_before(compared)
    named_by = {}
    for place, heading, text in entries:
        if coined_names(heading):
            continue
        keys = {name_key(m[0]) for m in coined_names(text) if not after_compared.search(text, 0, m.start())}
        if keys:
            named_by[place] = keys
    if not named_by:
        return {}
    stored = papers_named(set().union(*named_by.values()))
    out = {}
    for place, keys in named_by.items():
        papers = {aid for k in keys for aid in stored.get(k, {})}
        if len(papers) == 1 and sum(k in stored for k in keys) == 1 and all(i in window for i in papers):
            out[place] = papers.pop()
    return out



def rows_by_paper(points: list[Point], subject: str | None, others: tuple[str, ...], compared: tuple[str, ...] = ()
                  ) -> tuple[list[Point], dict[str, list[Point]]]:
    """``(the subject's points, {other paper: its points})``: a table's body row whose first cell cites one of
    ``others`` (papers of the window the store knows: a baseline of a results table, "| vLLM（2309.06180） | 2.4 s |",
    is none of them) and not the subject is that paper's, shown under the bullet above the table with the table's
    header; so is a bullet citing one of them and not the subject ("TierKV（2610.11305v2）也挂了 v2，数还没看" in Jay's
    entry on LayerLink). The rest stays the subject's: a row or bullet of the subject's, one naming no paper or two
    others, one comparing the subject with another paper (the name after a ``[compared]`` word: "比 EAGLE（…）快")."""
    if not others:
        return points, {}
    theirs: dict[str, list[Point]] = {}
    mine = []
    after_compared = compared_before(compared)
    for p in points:
        if not p.blocks and (aid := _only_other(p.text, subject, others, after_compared)):
            theirs.setdefault(aid, []).append(p)
            continue
        blocks = []
        for b in p.blocks:
            if b.kind != "table" or len(b.rows) < 2:
                blocks.append(b)
                continue
            kept = [b.rows[0]]
            for row in b.rows[1:]:
                cited = {a.id for a in find_cited_ids(row[0].text)} if row else set()
                named = [i for i in others if i in cited]
                if len(named) != 1 or subject in cited:
                    kept.append(row)
                    continue
                theirs.setdefault(named[0], []).append(
                    Point(p.text, p.code, (PointBlock("table", rows=(b.rows[0], row)),)))
            if len(kept) > 1:
                blocks.append(replace(b, rows=tuple(kept)))
        mine.append(p if tuple(blocks) == p.blocks else replace(p, blocks=tuple(blocks)))
    return mine, {aid: _one_table(ps) for aid, ps in theirs.items()}


def _only_other(text: str, subject: str | None, others: tuple[str, ...], after_compared) -> str | None:
    """The paper of ``others`` a bullet is about: the one it opens with, by its name and ID or its ID ("TierKV（
    2610.11305v2）也挂了 v2"), when it cites neither the subject nor another. A bullet naming it later compares the
    subject with it ("和 TierKV（…）相比", "1.3x over TierKV (…)", "LayerLink 把 TierKV（…）的冷层接进来")."""
    m = _OPENS_WITH.match(text)
    if m is None or after_compared.search(text[:m.start("id")]):
        return None
    opened = parse_arxiv_id(m["id"])
    ids = {a.id for a in find_cited_ids(text)}
    named = [i for i in others if i in ids]
    if opened is None or named != [opened.id] or subject in ids:
        return None
    return opened.id


# a bullet opening with a paper: its name and ID ("TierKV（2610.11305v2）"), or its ID, after a mark or a label
_OPENS_WITH = re.compile(r"^[\W_]*(?:(?:⚠|待核实|待确认)\S*\s*)?(?:[A-Za-z][\w+-]*\s*[（(]\s*)?" + ID_WRITTEN, re.I)


def _one_table(points: list[Point]) -> list[Point]:
    """A paper's rows of one table, under one bullet: the rows joined, in the order written (its bullets as they
    are)."""
    out: list[Point] = []
    for p in points:
        last = out[-1] if out else None
        if last is not None and last.blocks and p.blocks and last.text == p.text \
                and last.blocks[0].rows[0] == p.blocks[0].rows[0]:
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


def marks_left(text: str, marks: list[str], moved: dict[str, list[Point]]) -> list[str]:
    """The entry's marks still written on a line of its own subject's: a ⚠ bullet given to another paper
    (``rows_by_paper``) takes its mark along, and the subject keeps it only if another of its lines carries it."""
    gone = {" ".join(p.text.split()) for ps in moved.values() for p in ps if not p.blocks}
    if not gone:
        return marks
    left = {m for line in text.splitlines() if " ".join(line.strip().lstrip("-*").split()) not in gone
            for m in find_markers(line)}
    return [m for m in marks if m in left]


def cites_its_own(sentence: str, own: list[str]) -> bool:
    """Does ``sentence`` cite one of ``own``, the item's IDs (its row of a recap's table)?"""
    return "." in sentence and any(a.id in own for a in find_arxiv_ids(sentence))


def cites_only_others(sentence: str, own: list[str]) -> bool:
    """Is ``sentence`` a table row whose first cell cites arXiv IDs, none of them ``own`` ("| SideSample（2611.02744）
    | §2.2 | … 1.4× |" under the week's first paper, MeldKV)? A sentence citing a baseline ("34% over Splitwise
    (arXiv:2311.18677)") is the item's."""
    cells = sentence.strip().strip("|").split("|") if "|" in sentence else []
    cited = {a.id for a in find_arxiv_ids(cells[0])} if len(cells) > 1 else set()
    return bool(cited) and not cited & set(own)
