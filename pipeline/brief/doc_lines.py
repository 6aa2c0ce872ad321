"""Which open flags of earlier briefings the team's new words speak of: the knowledge doc's new lines, a note's
correction of a flagged figure.

A team settles a question in its doc as often as with ``kb flags resolve``: v328's history line
"DittoKV、ReadyPool、 BaySwap、RetainKV 不锚：和已锚的 MeldKV、WarmStart、SwapServe、ReplayKV 重复" answers the
four boundary flags day 18 raised; Spark's "MFU 从 28% 改成 46%" Monday's unsourced 28%. What such a
line decides of the day's items is ``pipeline.brief.decisions.doc_decisions``; here kb shows, beside
the flags still open, the new lines (those the version of the previous briefing's day did not have)
whose sentences speak to what a flag asks — its papers, and its figure, its question's words or its
ID — and the notes that change its figure, so the reader closes what the team settled. A history
line that only names a flag's paper in passing ("和已锚的 … PredRoute 重复", beside "v343（Nov 24）" in
another sentence) answers none of its questions. Pure: lines and flags in."""
from __future__ import annotations

import re
from collections.abc import Mapping
from difflib import SequenceMatcher
from os.path import commonprefix
from typing import Any

from kb.arxiv_id import find_arxiv_ids
from kb.names import coined, coined_names, name_key, title_name
from kb.sections import without_section_numbers
from kb.text import phrase_at
from pipeline.brief.claim_quantity import quantity_before
from pipeline.brief.pool import names_word

# The rules whose question a sentence of the doc settles by speaking to it: what two papers are to each other (both
# named), a paper's figure (its name and the figure, as a figure of the flag's: ``_writes_figure``), which of a
# paper's IDs to cite (its name and the ID: "EtherKV 进 §2.4.1（卡 463 正文里的号抄错了，以 2611.01288 为准）"), what
# the team asked or doubted of a paper (its name and the words of the question: "GramJet 的 mask 开销作者回了：占整个
# decode 时间"). Others are slips in the team's files, or a paper's line names it for what it is (a history line
# listing "和已锚的 … WarmStart … 重复" settles no figure of WarmStart's).
SETTLED_IN_DOC = ("boundary", "number-conflict", "id-conflict", "unsourced-claim")
# A line edited rather than written anew (a section's prose that gains a clause) is new only where it changed: at
# least this many characters kept at its start and end say it is the old line.
_KEPT = 20
_NEAR = 2   # an edited line is looked for this many lines either side of its place


def new_lines(now: list[str] | None, then: list[str] | None) -> list[tuple[str, str]]:
    """The doc's lines that anchor nothing (``KnowledgeDoc.remarks``) now and not then, each with what it adds (a
    line edited from an old one: the text between what it kept of it); none where either version's lines were
    not kept (read before kb kept them)."""
    if now is None or then is None:
        return []
    old = set(then)
    out = []
    # each new line compared with the few old lines at its place in the block it replaced (difflib's blocks), not
    # with every old line: a doc-wide edit of thousands of lines stays linear
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=then, b=now, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            out += [(line, _added(line, then[i1:i2][max(0, k - _NEAR):k + _NEAR + 1]))
                    for k, line in enumerate(now[j1:j2]) if line not in old]
    return out


def _added(line: str, old_lines: list[str]) -> str:
    best = ("", 0, 0)
    for old in old_lines:
        start = len(commonprefix([line, old]))
        end = len(commonprefix([line[start:][::-1], old[start:][::-1]]))
        if start + end > best[1] + best[2]:
            best = (old, start, end)
    _, start, end = best
    return line[start:len(line) - end] if start + end >= _KEPT else line


def flags_named(lines: list[tuple[str, str]], open_flags: list[tuple[int, str, dict[str, Any]]],
                raised_today: set[str], quantities: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Each new line (``new_lines``) with the open flags a sentence of what it adds speaks to (``open_flags``: id,
    ``rule:subject``, evidence), those raised today left out (their evidence is today's, which the doc may not speak
    of): a boundary's two papers both named (by coined name or arXiv ID); a conflict's paper and one of its figures,
    written as a figure of its quantity (``quantities``: ``[quantities]``, keyword → quantity); an ID conflict's paper
    and one of its IDs; an unsourced claim's paper and the words of what it asked or doubted. One sentence says it
    all: a line naming a paper in one sentence and a date in another settles nothing of it."""
    out = []
    named_once: set[int] = set()
    for line, added in lines:
        found = []
        for flag_id, fingerprint, evidence in open_flags:
            rule = fingerprint.split(":", 1)[0]
            if rule not in SETTLED_IN_DOC or fingerprint in raised_today or flag_id in named_once:
                continue
            papers = _papers_of(rule, fingerprint.split(":", 1)[1], evidence)
            if papers and any(all(_names(said, names) for names, _ in papers)
                              and _settles(rule, evidence, said, papers, quantities or {})
                              for said in _sentences(added)):
                found.append({"id": flag_id, "rule": rule, "subject": " ~ ".join(shown for _, shown in papers)})
                named_once.add(flag_id)
        if found:
            out.append({"line": line, "flags": found})
    return out


# A sentence of a doc's line: what one statement says ("FanPrune、LenScout 不锚：和已锚的 BranchCut、PredRoute 重复"),
# ended by 。；;！!？? or a line break, or by a dot before white space ("v3.1", "§2.4.1" end nothing).
_SENTENCE_END = re.compile(r"[。；;！!？?\n]|(?<=\.)\s+")


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]


def _settles(rule: str, evidence: dict[str, Any], text: str, papers: list[tuple[set[str], str]],
             quantities: Mapping[str, str]) -> bool:
    """Does a sentence naming the flag's papers speak to what the flag asks? A number conflict's must write one of
    its figures as a figure of its quantity (``_writes_figure``: "÷3.2 改成 ÷2.7", not "Nov 24"), an ID conflict's
    one of its IDs as the paper's (``_id_of``: "EtherKV 进 §2.4.1（…以 2611.01288 为准）"), an unsourced claim's the
    words of its question or doubt (``_answers``); a boundary's needs only its two papers."""
    if rule == "id-conflict":
        return _id_of(text, papers[0][1], set(_ids(evidence)))
    if rule == "unsourced-claim":
        return _answers(text, evidence, {n for names, _ in papers for n in names})
    if rule != "number-conflict":
        return True
    return _writes_figure(text, evidence, quantities)


def _id_of(text: str, name: str, ids: set[str]) -> bool:
    """Does ``text`` write one of ``ids`` as the paper ``name``'s: the coined name nearest before it is ``name``
    ("GraphHold（2611.01963）进 §2.1，和 GraphStash 各管一层" writes GraphHold's ID, not GraphStash's)?"""
    key = name_key(name)
    for written in (a.id for a in find_arxiv_ids(text) if a.id in ids):
        before = coined_names(text[:text.find(written)])
        if before and name_key(before[-1][0]) == key:
            return True
    return False


_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_VERSION = re.compile(r"(?<![A-Za-z])v\d+(?:\.\d+)*")
# A number that is no figure: part of a date ("Nov 24", "11 月 24 日", "11-24", "11/24") or a time ("09:30"). A name
# holding digits ("H20", "v343") is none either: a figure is never glued to a letter before it.
_MONTH = (r"(?<![a-z])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s*")
_NOT_A_FIGURE = re.compile(rf"(?i:{_MONTH})$|[A-Za-z\d.]$|\d\s*[-/:月]\s*$")
_DAY_AFTER = re.compile(r"\s*[日号]|\s*[-/:]\s*\d")
# Units a figure is written with, as the flag's values write them; those of one row are the same unit.
_UNITS = (("×", "x", "X", "倍"), ("%",), ("ms",), ("s",), ("µs", "us"), ("GB",), ("tokens/s", "tok/s"))
# A sign or operator before a figure says it is one ("÷3.2 改成 ÷2.7", "−34%").
_SIGNS = "÷×−+↓↑"


def _writes_figure(text: str, evidence: dict[str, Any], quantities: Mapping[str, str]) -> bool:
    """Does ``text`` write one of a number conflict's figures as a figure of the flag's: with the unit its value is
    written with ("2.2×" of "2.2x", "−29%"), or a sign before it ("÷2.7"), or, bare, in a sentence naming the flag's
    quantity ("upvotes", a ``[quantities]`` keyword of it)? A date's or a time's number, or one in a name ("H20",
    "v326", "§2.2") is none."""
    text = _VERSION.sub(" ", without_section_numbers(text))   # "PausePoint 进 §2.2" writes no 2.2×, "v326" no 326
    named = _names_quantity(text, evidence.get("quantity") or "", quantities)
    for value in evidence.get("values", {}):
        m = _NUMBER.search(value)
        if not m:
            continue
        unit = _unit_family(value[m.end():].strip())
        for at in re.finditer(rf"(?<![\d.]){re.escape(m[0])}(?![\d]|\.\d)", text):
            before, after = text[:at.start()], text[at.end():]
            if _NOT_A_FIGURE.search(before) or _DAY_AFTER.match(after):
                continue
            sign = before.rstrip()[-1:]
            with_unit = any(re.match(rf"\s*{re.escape(u)}(?![A-Za-z])", after) for u in unit)
            if named or (sign and sign in _SIGNS) or with_unit:
                return True
    return False


def _unit_family(unit: str) -> tuple[str, ...]:
    """The spellings of a value's unit ("2.7x" → ×, x, X, 倍); none for a bare number (upvotes)."""
    return next((family for family in _UNITS if unit in family), (unit,) if unit else ())


def _names_quantity(text: str, quantity: str, quantities: Mapping[str, str]) -> bool:
    """Does ``text`` name the quantity a number conflict compares ("PredRoute TTFT (%)": TTFT, 首 token; "HF
    upvotes": upvotes), by a ``[quantities]`` keyword of it or a word of its name (not a paper's name before it)?"""
    name = re.sub(r"\s*\([^)]*\)\s*$", "", quantity).strip()
    words = {k for k, q in quantities.items() if q.casefold() in (name.casefold(), _last_words(name))}
    words |= {w for w in re.findall(r"[A-Za-z][\w-]{2,}", name) if not coined(w) or w.isupper()}
    low = text.casefold()
    return any(phrase_at(low, w.casefold()) >= 0 for w in words)


def _last_words(name: str) -> str:
    """A quantity's name without the system written before it ("PredRoute TTFT" → "ttft")."""
    parts = name.split()
    return " ".join(parts[1:]).casefold() if len(parts) > 1 and coined(parts[0]) else name.casefold()


# An unsourced claim's question is answered by a sentence that shares this many of its words (beyond the paper's
# name): one word in common is a mention ("GramJet 的摘要"), three the same matter ("mask 开销 … 占整个 decode 时间").
_SHARED_WORDS = 3
# Characters that make no word of their own: a run of only these ("一个", "的是") is shared by any two sentences.
_FUNCTION_CHARS = set("的了是在和与及或也都就还又不没有这那个一我们你他她它上下中里吗呢吧啊么把被对从给到说要会")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+-]+")
_STOP = {"the", "of", "and", "or", "is", "are", "to", "in", "on", "for", "it", "its", "that", "this", "with", "as",
         "by", "be", "was", "not", "whether", "what", "which", "does", "do", "only", "all", "an"}


def _answers(text: str, evidence: dict[str, Any], names: set[str]) -> bool:
    """Does a sentence speak to what an unsourced claim asked or doubted: share ``_SHARED_WORDS`` of its words — of
    its question, where it asks one (the clause ending in a question mark), else of all it claims — not counting the
    paper's names, its verification markers or figures? Latin words whole; of Chinese, the longest runs of two
    characters or more the claim writes too."""
    claims = [c for c in evidence.get("claims", []) if isinstance(c, str)]
    asked = [q for c in claims for q in re.findall(r"[^。；;！!？?\n]*[？?]", c)]
    said = " ".join(asked or claims)
    for marker in evidence.get("markers", []):
        said = said.replace(marker, " ")
    if not said.strip():
        return False
    own = {n.casefold() for n in names}
    said_folded = said.casefold()
    shared = {w.casefold() for w in _LATIN_WORD.findall(text)
              if w.casefold() not in own | _STOP
              and phrase_at(said_folded, w.casefold()) >= 0}
    for run in _HAN_RUN.findall(text):
        i = 0
        while i < len(run) - 1:
            j = next((j for j in range(len(run), i + 1, -1) if run[i:j] in said), None)
            if j is None:
                i += 1
                continue
            if not set(run[i:j]) <= _FUNCTION_CHARS:
                shared.add(run[i:j])
            i = j
    return len(shared) >= _SHARED_WORDS


def _papers_of(rule: str, subject: str, evidence: dict[str, Any]) -> list[tuple[set[str], str]]:
    """The papers a flag is about, each as the names a line may write it by (coined name, arXiv ID) and the one
    the briefing shows; [] when a paper has no name a line could carry."""
    if rule == "boundary":
        sides = [(evidence.get("new"), evidence.get("new_title")),
                 (evidence.get("anchored"), evidence.get("anchored_title"))]
    else:   # the item the flag is raised on: its subject before " · " (a quantity), its IDs
        sides = [(next(iter(_ids(evidence)), None), subject.split(" · ", 1)[0])]
    papers = []
    for key, title in sides:
        names = {n for n in (_name(title), key if key and find_arxiv_ids(key) else None) if n}
        if not names:
            return []
        papers.append((names, _name(title) or key))
    return papers


def _ids(evidence: dict[str, Any]) -> list[str]:
    return [i for i in evidence.get("arxiv_ids", []) or evidence.get("ids", []) if isinstance(i, str)]


def _name(title: str | None) -> str | None:
    """A paper's coined name: its title's ("DittoKV: …"), or a title that is one ("ShardLoad"); a release post's
    name and version before its title's colon ("llm-d 0.9: Relay Transfers …", "llm-d 0.9：直连拥塞时走中转")."""
    if not title:
        return None
    name = title_name(title)
    if name or (_ONE_WORD.fullmatch(title) and coined(title)):
        return name or title
    release = _RELEASE.match(title)
    return release[1] if release else None


_ONE_WORD = re.compile(r"[A-Za-z][A-Za-z0-9-]*")
_RELEASE = re.compile(r"\s*([A-Za-z][\w.+-]*\s+v?\d+(?:\.\d+)+)\s*[:：]")


def _names(line: str, names: set[str]) -> bool:
    return any(names_word(n, line) if not find_arxiv_ids(n) else n in line for n in names)


def corrected_flags(entries: list[tuple[str, str]], open_flags: list[tuple[int, str, dict[str, Any]]],
                    raised_today: set[str], connectors: list[str], flagged: dict[str, str],
                    quantities: dict[str, str], settled: list[str] = (), unsettled: list[str] = ()
                    ) -> list[dict[str, Any]]:
    """The window's team entries (``(place, text)``) that correct a figure an open flag of an earlier briefing
    questions: a line that writes the flag's figure changed to another (``[markers] correction``, the words between
    them: "从 28% 改成 46%", "3.2× → 2.7×"). An unsourced claim's flag named by its figures ("周六值班 · 28%", a team
    aside) is corrected by its figure as a measure of the same quantity as the flag's own entry (``flagged``: place →
    text) wrote it (the ``[quantities]`` keyword nearest before it); a conflict's by one of its figures changed to
    another of them (Jay's "我那条从 3.2× 改成 2.7×" of KeyFold's 3.2× against 2.7x). "把 batch 改成 64 后 MFU 仍是 28%"
    changes no figure of the flag's. A conflict's line may instead name its paper and one of its figures with a
    ``settled`` word and none of ``unsettled`` ("AtticPool 是 TTFT −19%；纪要表里它那一行抄错了，以摘要为准": which
    figure holds; not "是不是写错了？"). Each with the line, for the reader to close the flag."""
    if not connectors and not settled:
        return []
    change = re.compile(rf"(?<![\d.])(?P<old>\d+(?:\.\d+)?)\s*[%×xX倍]?\s*(?:{'|'.join(map(re.escape, connectors))})"
                        rf"\s*[−-]?\s*(?P<new>\d+(?:\.\d+)?)", re.I) if connectors else None
    out, done = [], set()
    for where, text in entries:
        for line in text.splitlines():
            changes = [(m["old"], m["new"], m.start()) for m in change.finditer(line) if m["old"] != m["new"]] \
                if change else []
            said = line.casefold()
            settles = not changes and any(w in said for w in settled) and not any(w in said for w in unsettled)
            found = [{"id": flag_id, "rule": fingerprint.split(":", 1)[0], "subject": fingerprint.split(":", 1)[1]}
                     for flag_id, fingerprint, evidence in open_flags if (changes or settles) and flag_id not in done
                     and fingerprint not in raised_today and (any(_changes_its_figure(
                         fingerprint, evidence, line, old, new, at, flagged, quantities) for old, new, at in changes)
                         or settles and _names_one_figure(fingerprint, evidence, line))]
            done |= {f["id"] for f in found}
            if found:
                out.append({"where": where, "line": line.strip().lstrip("-*").strip(), "flags": found})
    return out


def _names_one_figure(fingerprint: str, evidence: dict[str, Any], line: str) -> bool:
    """Does ``line`` name a number conflict's paper and exactly one of its figures (which one holds)?"""
    rule, subject = fingerprint.split(":", 1)
    if rule != "number-conflict":
        return False
    papers = _papers_of(rule, subject, evidence)
    numbers = {m[0] for v in evidence.get("values", {}) if (m := _NUMBER.search(v))}
    written = {n for n in numbers if re.search(rf"(?<![\d.]){re.escape(n)}(?![\d])", line)}
    return bool(papers) and all(_names(line, names) for names, _ in papers) and len(written) == 1


def _changes_its_figure(fingerprint: str, evidence: dict[str, Any], line: str, old: str, new: str, at: int,
                        flagged: dict[str, str], quantities: dict[str, str]) -> bool:
    rule, subject = fingerprint.split(":", 1)
    if rule == "number-conflict":
        numbers = {m[0] for v in evidence.get("values", {}) if (m := _NUMBER.search(v))}
        return old in numbers and new in numbers
    if rule != "unsourced-claim" or " · " not in subject:
        return False
    figures = [f for f in subject.split(" · ", 1)[1].split(", ") if (m := _NUMBER.search(f)) and m[0] == old]
    said = {_measures(flagged.get(p, ""), f, quantities) for f in figures for p in evidence.get("sources", [])}
    return bool(figures) and quantity_before(line, at, quantities) in said - {None}


def _measures(text: str, figure: str, quantities: dict[str, str]) -> str | None:
    """The quantity ``text`` writes ``figure`` of: the ``[quantities]`` keyword that ends nearest before it."""
    m = re.search(rf"(?<![\d.]){re.escape(figure)}", text)
    return quantity_before(text, m.start(), quantities) if m else None


def sourced_flags(entries: list[tuple[str, str, str]], open_flags: list[tuple[int, str, dict[str, Any]]],
                  raised_today: set[str], flagged: dict[str, str], quantities: dict[str, str],
                  sourced: list[str] = (), unsourced: list[str] = ()) -> list[dict[str, Any]]:
    """The window's team entries (``(place, heading and text, source URL)``) that give a source for a figure an
    open unsourced claim of an earlier briefing questions: the team's own figure with no paper behind it ("二期 H200
    池子压测 · 2.4 s"), written again or read anew, as a measure of the same quantity (the ``[quantities]`` keyword
    nearest before it, as the flag's own entry wrote it), on a line that says where it was measured (a URL, or a
    ``[markers] sourced`` word and none of ``unsourced``: "看板见上面的链接", not "出处还没找到"), in an entry that
    cites a page and speaks of what the flag's entry did (``_speaks_of``; Spark's follow-up "来源：<dashboard> … p99
    TTFT 从 2.4 s 降到 1.1 s"). Each with the line and the source, for the reader to close the flag once the source
    holds it."""
    out, done = [], set()
    asides = [(flag_id, fingerprint, evidence) for flag_id, fingerprint, evidence in open_flags
              if fingerprint.startswith("unsourced-claim:") and " · " in fingerprint and not _ids(evidence)
              and fingerprint not in raised_today]
    for where, text, url in entries if asides else ():
        folded = text.casefold()
        mine = [a for a in asides if where not in a[2].get("sources", []) and _speaks_of(a[1], folded)]
        for line in text.splitlines() if mine else ():
            said = line.casefold()
            if not ("://" in said or any(w in said for w in sourced)) or any(w in said for w in unsourced):
                continue
            found = [{"id": flag_id, "rule": "unsourced-claim", "subject": fingerprint.split(":", 1)[1]}
                     for flag_id, fingerprint, evidence in mine if flag_id not in done
                     and _writes_its_figure(fingerprint, evidence, line, flagged, quantities)]
            done |= {f["id"] for f in found}
            if found:
                out.append({"where": where, "url": url, "line": line.strip().lstrip("-*").strip(), "flags": found})
    return out


def _speaks_of(fingerprint: str, folded: str) -> bool:
    """Does an entry (its heading and text, case-folded) speak of what the flag's entry did? Every Latin word of
    the flag's name as a whole word ("H20" is not "H200"), every short run of Chinese characters whole (二期 is not
    一期), and half of the character pairs of each longer run ("二期 H200 池子压测"). The same figure of the same
    quantity may be another week's ("周二晚高峰二期的 p99 TTFT 到了 2.4 s", two weeks before the H200 pool's)."""
    name = fingerprint.split(":", 1)[1].split(" · ", 1)[0]
    for word in _LATIN.findall(name):
        if not re.search(rf"(?<![a-z0-9]){re.escape(word.casefold())}(?![a-z0-9])", folded):
            return False
    for run in _HAN.findall(name):
        pairs = [run[i:i + 2] for i in range(len(run) - 1)]
        if len(run) <= 2 and run not in folded or sum(p in folded for p in pairs) * 2 < len(pairs):
            return False
    return True


_HAN = re.compile(r"[\u4e00-\u9fff]+")
_LATIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9.+-]*[A-Za-z0-9]|[A-Za-z0-9]")


def _writes_its_figure(fingerprint: str, evidence: dict[str, Any], line: str, flagged: dict[str, str],
                       quantities: dict[str, str]) -> bool:
    """Does ``line`` write a figure of the quantity the flag's own entry measured — the flagged one ("p99 TTFT 从 2.4 s
    降到 1.1 s") or a new reading of it ("修好以后命中率回到 71%，看板：…", the answer to "命中率只有 52%")?"""
    figures = [f for f in fingerprint.split(" · ", 1)[1].split(", ") if _NUMBER.search(f)]
    said = {_measures(flagged.get(p, ""), f, quantities) for f in figures for p in evidence.get("sources", [])}
    said.discard(None)
    return bool(said) and any(quantity_before(line, m.start(), quantities) in said for m in _FIGURE.finditer(line))


_FIGURE = re.compile(r"(?<![\d.\w])\d+(?:\.\d+)?(?![\d])")
