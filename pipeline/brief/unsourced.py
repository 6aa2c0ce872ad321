"""The ``unsourced-claim`` rule: claims the team marked for checking (⚠, 待核实, "needs check"), and figures from
sources below ⭐⭐⭐⭐ with nothing to check them against, each with what to do about it (``Flag.context``)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

from kb.names import title_name
from kb.text import FIGURE, find_markers
from pipeline.brief.facts import Facts
from pipeline.brief.likeness import GAP, phrase_spans
from pipeline.brief.model import Candidate, Flag
from pipeline.brief.words import content_words


def _where(c: Candidate) -> list[str]:
    return [s.key for s in c.sources]


def unsourced_claims(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """Claims marked ⚠/待核实, and numeric claims from sources below ⭐⭐⭐⭐ with nothing to check them against. A
    paper's claims marked in two or more of the team's files (Jay's ⚠ in his note, Omer's "needs check" in his; a
    card's "needs check" and Spark's 待确认) are each their own flag, "<title> · <who>": two doubts, each answered and
    closed on its own."""
    out = []
    for c in cands:
        if not (c.markers or c.unsourced):
            continue
        # the team's lines: its entries' points and its cards' bodies
        written = [line for p in c.points for line in p.lines()] + [
            line.strip() for s in c.sources if s.kind == "card" for line in (s.text or "").splitlines() if line.strip()]
        by_source = _distinct_claims(_marked_by_source(c), c) if c.markers and c.arxiv_ids else {}
        if len(by_source) > 1:
            out += [_unsourced_flag(c, marked, written, facts, f"{_claim_subject(c)} · {who}", [key])
                    for who, (key, marked) in by_source.items()]
            continue
        lines = [p for p in written if any(m in p for m in c.markers)] if c.markers else c.facts
        if c.markers and not lines:   # a mark outside the bullets: a quote, a paragraph, a table row
            lines = _marked_lines(c)
        out.append(_unsourced_flag(c, lines, written, facts, _claim_subject(c), _where(c)))
    return out


def _marked_by_source(c: Candidate) -> dict[str, tuple[str, list[str]]]:
    """The lines carrying one of ``c``'s marks in each of the team's files about it, by who wrote them (the note's
    author, "card 529"; a file's key where one author wrote two), each with the source's key."""
    marks = set(c.markers)
    found: dict[str, tuple[str, list[str]]] = {}
    for s in c.sources:
        if s.kind not in ("entry", "card") or s.beside_subject:
            continue
        lines = [line.strip().lstrip("-*>").strip() for line in (s.text or "").splitlines()
                 if marks & set(find_markers(line))]
        if lines:
            who = s.name if s.kind == "entry" else f"card {Path(s.path or s.name).name.split('-')[0]}"
            found[who if who not in found else s.key] = (s.key, lines)
    return found


def _distinct_claims(by_source: dict[str, tuple[str, list[str]]], c: Candidate) -> dict[str, tuple[str, list[str]]]:
    """``by_source`` (``_marked_by_source``) where each file marks a claim of its own: two files marking the same
    claim (Jay's "号称 2.2× ⚠ 待核实" and Spark's "号称 2.2× ⚠ 待确认": the same figure, or most of the same words) are
    one doubt, and ``{}`` is returned then."""
    terms = {who: _claim_terms(" ".join(lines), c) for who, (_, lines) in by_source.items()}
    for a, b in combinations(terms.values(), 2):
        figures_a, words_a = a
        figures_b, words_b = b
        shared = len(words_a & words_b) / max(1, min(len(words_a), len(words_b)))
        if figures_a & figures_b or shared >= _SAME_CLAIM:
            return {}
    return by_source


_SAME_CLAIM = 0.5   # the share of the fewer words two marked lines share when they make one claim
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]+")


def _claim_terms(text: str, c: Candidate) -> tuple[set[str], set[str]]:
    """The figures a marked text writes and its words (Latin content words and Chinese character pairs), without
    the marks and the item's own names: what two files' doubts are compared by."""
    for m in find_markers(text):
        text = re.sub(re.escape(m), " ", text, flags=re.I)
    figures = {re.sub(r"\s+", "", f.group()) for f in FIGURE.finditer(text)}
    names = {w.casefold() for t in c.titles if (w := title_name(t))}
    words = set(content_words(text, names)) | {run[k:k + 2] for run in _CJK_RUN.findall(text)
                                               for k in range(len(run) - 1)}
    return figures, words


def _unsourced_flag(c: Candidate, lines: list[str], written: list[str], facts: Facts, subject: str,
                    sources: list[str]) -> Flag:
    """The unsourced-claim flag of ``c``'s claims ``lines``, with what to do about them (``context``)."""
    best = max((s.credibility for s in c.sources), default=3)
    context: dict[str, Any] = {"papers": [i for i in c.arxiv_ids if i in facts.known_ids]}
    said_by_others = any(says(line.casefold(), w) for line in [*lines, *written] for w in facts.hearsay)
    if c.aside or said_by_others:   # no paper to find: a figure to ask its teller for ("群里有人说…")
        context["aside"] = True
        if lines and not any(FIGURE.search(line) for line in lines):   # … or a claim ("有已知 bug")
            context["no_figure"] = True
        elif not said_by_others and any(says(line.casefold(), w) for line in [*lines, *written]
                                        for w in facts.measured_by_us):
            context["own"] = True   # … or the author's own run, of another topic: ask who measured it
    elif not (c.arxiv_ids or c.urls) and all(s.kind in ("entry", "card") for s in c.sources):
        context["team"] = True   # the team's own measurement ("二期 H200 池子的 prefix cache 命中率 52%"): no paper
    if not c.markers:   # a bare figure ("25%") says little: the briefing quotes the lines that carry it
        context["said"] = [p for p in written if any(f in p for f in c.facts)][:3] or _prose_saying(c)
    elif lines and all(asks(line, c.markers) for line in lines[:3]):   # nothing to check: a thing to find out
        context["question"] = True
    return Flag("unsourced-claim", subject, {
        "markers": [m for m in c.markers if any(m in find_markers(line) for line in lines)] or c.markers,
        "claims": lines[:3], "sources": sources, "arxiv_ids": c.arxiv_ids,
        "credibility": best}, context=context)


GAP_REACH = 12   # characters of one clause between the parts of a hearsay phrase ("听…讲")
_CLAUSE_END = re.compile(r"[，。；,;:：！？!?]")


def says(line: str, phrase: str) -> bool:
    """Does the (folded) line hold ``phrase``; one with a gap (``likeness.GAP``: "听…讲") its parts in order, at most
    ``GAP_REACH`` characters of one clause between ("周六聚餐听推荐组的人讲"; not "听了一下午报告，讲完才去测")?"""
    if GAP not in phrase:
        return phrase in line
    spans = phrase_spans(line, phrase)
    return spans is not None and all(start - end <= GAP_REACH and not _CLAUSE_END.search(line, end, start)
                                      for (_, end), (start, _) in zip(spans, spans[1:]))


def asks(line: str, marks: Iterable[str] = ()) -> bool:
    """Does a marked line ask rather than claim ("待确认：换入换出走的是 PCIe 还是 NVLink，实验部分没写。", "Is the 2x
    with or without CUDA graphs?")? The paper may not say, and the flag is closed by an answer. A line with a figure
    claims it ("TTFT 还是高 30%": 还是 is "still"), and "不管是否", "whether or not" ask nothing. A question mark the
    line's own mark (``marks``) follows asks too ("decode 停不停？待确认，周一问作者"); not one an answer follows ("停不
    停？论文说不停，待核实"), nor a link's ("…?tab=readme")."""
    if _ASKED.search(line) or any(re.search(rf"[?？]\s*{re.escape(m)}", line) for m in marks):
        return True
    line = _NO_MATTER.sub(" ", line)
    return not FIGURE.search(line) and _EITHER.search(line) is not None


_ASKED = re.compile(r"[?？]\s*[)）]?\s*$")
_NO_MATTER = re.compile(r"(?:不管|无论|不论)是否|whether or not", re.I)
_EITHER = re.compile(r"是否|是不是|是[^，。；]{1,40}?还是|\bwhether\b", re.I)


def _prose_saying(c: Candidate) -> list[str]:
    """The sentences of the team's entries that write the item's figures, for a note written in prose, no bullets
    (day 20's new member: "…told me that the next vLLM release reaches an 80% prefix-cache hit rate once…")."""
    return [sentence for s in c.sources if s.kind == "entry" for line in (s.text or "").splitlines()
            for sentence in _SENTENCE_END.split(line.strip()) if any(f in sentence for f in c.facts)][:3]


_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")


def _claim_subject(c: Candidate) -> str:
    """What an unsourced claim's flag is named by (its identity): the item's title, and, for an item that is no paper
    and no page, the figures it claims too. A note's heading ("二期集群") heads a new claim every week: under the
    heading alone, Thursday's "prefix cache 命中率 62%" took over the flag of an earlier, still unchecked "41%"; the
    same claim written again is the same flag (a closed one stays closed)."""
    if c.arxiv_ids or c.urls or not c.facts:
        return c.title
    return f"{c.title} · {', '.join(c.facts[:3])}"


def _marked_lines(c: Candidate) -> list[str]:
    """The lines of the team's own entries about ``c`` that carry one of its marks, as written (a quote's ``>``
    taken off): ``> "In production it cut our GPU bill by a third." (unverified)``."""
    marks = set(c.markers)   # as kb.text.find_markers spells them: "needs-check" is "needs check"
    return [line.strip().lstrip(">").strip() for s in c.sources if s.kind == "entry" and not s.beside_subject
            for line in (s.text or "").splitlines() if marks & set(find_markers(line))]
