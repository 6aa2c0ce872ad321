"""The number rule (``number-conflict``): the same quantity of the same subject with different values in two places
— HF upvotes of one day, measurements with units within an item's sources (the doc's anchor line and the paper's
own abstract among them) and across items for a named system — and what its advice reads: a figure quoted wrongly,
a doc line a new version of its paper changed, a post corrected in place, signs (docs/briefing.md, step 5)."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from kb.citations import find_cited_ids
from kb.names import coined, coined_names, title_name
from kb.text import a_line_says, normalize_url, url_spans
from pipeline.brief.claims import Claim
from pipeline.brief.facts import DOC_PLACE, Facts
from pipeline.brief.figures import conflicts, number, unsigned
from pipeline.brief.likeness import LEADING_NAME
from pipeline.brief.model import Candidate, Flag

__all__ = ["number_conflicts", "upvotes_disagree", "PAPER_SOURCES", "UPVOTES"]

UPVOTES = "HF upvotes"   # the quantity of an upvote flag


def number_conflicts(cands: list[Candidate], facts: Facts) -> list[Flag]:
    """The same quantity of the same subject with different values in two sources (``pipeline.brief.claims``):
    HF upvotes of one day that a rising count does not explain (``upvotes_disagree``; upvotes that rose
    between days or through a day are a change over time), and measurements with units — within each
    item, and across items for a system named in each."""
    out = []
    # Upvotes drift through a day (a morning note, the nightly's fetch): compared for what the briefing
    # puts forward only, where a difference changes what it says.
    for c in [c for c in cands if c.put_forward]:
        for day in sorted({d[:10] for *_, d in c.upvotes}):
            # a place that writes two counts of one day ("12▲ yesterday, 31▲ now") tells a change, not a conflict
            by_place: dict[str, set[int]] = {}
            stamp: dict[str, str] = {}
            for v, w, d in c.upvotes:
                if d[:10] == day:
                    by_place.setdefault(w, set()).add(v)
                    stamp.setdefault(w, d)
            single = {w: vs.pop() for w, vs in by_place.items() if len(vs) == 1}
            times = {w: _time_of(stamp[w]) for w in single}
            values = _in_time_order(single, times)
            if upvotes_disagree([(v, times[w]) for w, v in single.items()]):
                out.append(Flag("number-conflict", f"{c.title} · upvotes", {
                    "quantity": UPVOTES, "day": day,
                    "values": {str(v): [w for w, x in single.items() if x == v] for v in values}},
                    context={"item": c.title, **_upvote_times(single, times)}))
    seen: set[tuple[str | None, str, str]] = set()
    said: list[frozenset[tuple[str, str]]] = []   # each item's conflict by its figures and places

    read_claims, texts = facts.kept_claims or facts.read_claims, {}

    def claims(text: str, where: str, about: str | None = None) -> list[Claim]:
        # each place's text, for the conditions a figure is given under: a place read with two texts has none
        texts[where] = text if texts.get(where, text) == text else None
        return read_claims(text, where, about)
    abstracts = {arxiv_id: (name, abstract, where) for arxiv_id, where, name, abstract in facts.cited_abstracts}
    read: set[str | None] = set()
    # a paper's own abstract is read as about the paper ("1.31x Megatron-style tensor parallelism" is its speed-up)
    claims_of = {id(c): [cl for name in [_paper_name(c)] for s in c.sources for cl in _measured_as_written(
        claims(s.text, s.key, name if s.kind in PAPER_SOURCES else None), s.text or "", facts.other_setup)]
        for c in cands}
    posts = {normalize_url(s.url): s for c in cands for s in c.sources if s.kind == "post" and s.url}
    corrected = {s.key: s.corrected for c in cands for s in c.sources if s.corrected}
    for c in cands:
        # what the doc's line says of the paper beside what the window says of it: a v2 that changed a figure the
        # line still holds ("−38% end-to-end agent latency", the abstract's 33% now) is the doc's to correct
        found = claims_of[id(c)]
        names = _own_names(c, found)
        if any(s.kind in PAPER_SOURCES for s in c.sources):   # its abstract, read as about its paper
            names |= {n.casefold() for n in [_paper_name(c)] if n}
        # a post of another item that an entry of this one links ("Post: <link>", its figures quoted in the entry's
        # bullets): one more place of the item's figures (day 29's "p99 TTFT at peak 1.9 s → 0.6 s", the post's 0.8 s)
        linked = _linked_posts(c, posts)
        found = found + [cl for s in linked for cl in _its_own(claims(s.text or "", s.key), names)]
        if found and c.arxiv_id in facts.anchor_lines:
            found = found + _its_own([cl for where, label in facts.anchor_lines[c.arxiv_id]
                                      for cl in claims(label, where)], names)
        if any(s.kind in PAPER_SOURCES for s in c.sources):
            read.add(c.arxiv_id)   # its abstract is one of its sources
        elif found and c.arxiv_id in abstracts:
            # a paper the window does not list, only writes about (TierKV's benchmark post): its own abstract is one
            # more place of its figures
            name, abstract, where = abstracts[c.arxiv_id]
            found = found + _its_own(claims(abstract, where), {name.casefold()})
            read.add(c.arxiv_id)
        for subject, quantity, unit, signed in conflicts(found, names, texts, facts.conditions):
            seen.add((subject.casefold() if subject else None, quantity, unit))
            what = f"{subject} {quantity}" if subject else quantity
            values = _unsigned(signed)
            said.append(_places(values))
            out.append(Flag("number-conflict", f"{c.title} · {what}", {"quantity": f"{what} ({_shown(unit, values)})",
                                                                    "values": values},
                            context={**_corrections(values, corrected), **_signs(signed), **_doc_line(values, c),
                                     **_quoted(values, c, facts.quoting, linked), "item": c.title,
                                     **_earlier(values, quantity, unit, {c.arxiv_id}, facts, claims),
                                     "measured": _measured(c.title, subject, quantity, _shown(unit, values))}))
    named = [cl for where, text in facts.speedup_texts for cl in claims(text, where)]
    # a paper the window cites whose abstract no item above read, against what a source citing its ID writes of it by
    # name ("ShardLoad（2610.32751）… 上线快 4.7×" in a week's table, its abstract's 4.1x); a post's figure of a system
    # whose paper it does not cite is of another version ("SGLang throughput 1.3x over v0.4"), and a name two cited
    # papers share names neither
    shared = {n.casefold() for n, k in Counter(n.casefold() for n, _, _ in abstracts.values()).items() if k > 1}
    cites: dict[str, set[str]] = {}   # a place's cited IDs (one entry's lines may be in two items), if it quotes
    for s in (s for c in cands for s in c.sources):
        cites.setdefault(s.key, set()).update(_cited_by(s) if _says_it_quotes(s, facts.quoting) else ())
    said_of = {(cl.subject.casefold(), arxiv_id) for c in cands for s in c.sources for cl in claims(s.text or "", s.key)
               if cl.subject for arxiv_id in _cited_by(s)}
    # (a listed paper's too: its item read its abstract against its own sources, not against a row of a week's
    # table or a reading group's minutes in another item that names it with its ID)
    named += [cl for arxiv_id, (name, abstract, where) in abstracts.items()
              if name.casefold() not in shared and (name.casefold(), arxiv_id) in said_of
              for cl in claims(abstract, where, name)]
    named += _quoted_papers(cands, claims, facts.quoting, shared, cites, facts.claim_words.paper_words,
                            facts.claim_words.reporting)
    # (an item's abstract read as about its paper names it only where it writes the name)
    named += [cl for c in cands for cl in claims_of[id(c)] if not cl.implied]
    named_conflicts = conflicts([cl for cl in named if cl.subject], set(), texts, facts.conditions)
    for subject, quantity, unit, signed in named_conflicts:
        values = _unsigned(signed)
        # not an item's conflict again: the same figures in (some of) the same places add nothing
        if (subject.casefold(), quantity, unit) not in seen and not any(_places(values) <= s for s in said):
            out.append(Flag("number-conflict", f"{subject} · {quantity}",
                            {"quantity": f"{subject} {quantity} ({_shown(unit, values)})", "values": values},
                            context={**_corrections(values, corrected), **_signs(signed),
                                     **_quotes_the_abstract(values, cites),
                                     **_earlier(values, quantity, unit, {i for w in _where(values)
                                                                         for i in cites.get(w, ())}, facts, claims),
                                     "measured": _measured(None, subject, quantity, _shown(unit, values))}))
    return out


def _measured_as_written(found: list[Any], text: str, words: list[str]) -> list[Any]:
    """``found``, the claims of ``text``, less those whose line says it was measured otherwise than the paper
    (``[markers] other_setup``: "摘要是 H100、batch 32 的数，卡和 batch 都不一样"): another measurement, not the
    paper's to compare. Most texts write none of the words, so their lines are not read one claim at a time."""
    folded = text.casefold()
    if not found or not any(w in folded for w in words):
        return found
    return [cl for cl in found if not _measured_otherwise(text, cl.written, words)]


def _measured_otherwise(text: str, written: str, words: list[str]) -> bool:
    """Does the line writing the figure ``written`` say it was measured otherwise than the paper?"""
    return a_line_says(text, written, words)


def _quoted_papers(cands: list[Candidate], claims: Any, quoting: list[str], shared: set[str],
                   cites: dict[str, set[str]], paper_words: tuple[str, ...] = (),
                   verbs: tuple[str, ...] = ()) -> list[Any]:
    """The figures of each paper of the window, by its name, that a line saying it quotes papers, or naming the
    paper's own words ("the PredRoute paper reports 24%" in an engine's release post), gives a figure of by that name
    ("PaceSpec's paper says 2.2x on chat", a thread pasted into a note, no ID written): the paper's own abstract
    against the quote. Such a line cites the paper (``cites``, by place) as if it wrote its ID."""
    quoted: dict[str, set[str]] = {}   # a name a quoting line gives a figure of → those lines
    for s in (s for c in cands for s in c.sources if s.kind not in PAPER_SOURCES):
        quotes = _says_it_quotes(s, quoting)
        for cl in claims(s.text or "", s.key):
            if cl.subject and (quotes or _names_its_paper(s.text or "", cl.subject, paper_words, verbs)):
                quoted.setdefault(cl.subject.casefold(), set()).add(s.key)
    out = []
    for c in cands:
        name = title_name(c.title)
        if not name or name.casefold() not in quoted or name.casefold() in shared or not c.arxiv_id:
            continue
        out += [cl for s in c.sources if s.kind in PAPER_SOURCES for cl in claims(s.text or "", s.key, name)]
        for place in quoted[name.casefold()]:
            cites.setdefault(place, set()).add(c.arxiv_id)
    return out


def _names_its_paper(text: str, name: str, paper_words: tuple[str, ...], verbs: tuple[str, ...]) -> bool:
    """Does ``text`` say what ``name``'s paper reports ("the PredRoute paper reports", "PaceSpec's abstract says"), not
    only mention it ("follows the PredRoute paper's design")?"""
    if not paper_words or not verbs:
        return False
    words, said = "|".join(map(re.escape, paper_words)), "|".join(map(re.escape, verbs))
    return re.search(rf"(?<![\w-]){re.escape(name)}(?:['’]s)?\s+(?:{words})\s+(?:{said})\b", text, re.I) is not None


def _earlier(values: dict[str, list[str]], quantity: str, unit: str, papers: set[str | None], facts: Facts,
             claims: Any) -> dict[str, Any]:
    """``{"earlier": [value]}``: the values the abstract of an earlier version of one of ``papers`` gives for this
    quantity, a version the window replaced (day 26's "PaceSpec's paper says 2.2x", v1 at batch size 1, against v2's
    1.6x at batch size 16): the figure of that version, not a misquote."""
    old = [cl for i in sorted(p for p in papers if p) if i in facts.earlier_abstracts
           for cl in claims(facts.earlier_abstracts[i], f"{ABSTRACT_PLACE}{i} (earlier)")]
    said = {number(cl.written) for cl in old if (cl.quantity, cl.unit) == (quantity, unit)}
    # a value the window's own abstract gives is the current version's, whatever the earlier one said
    current = {number(v) for v, places in values.items() if any(w.startswith(ABSTRACT_PLACE) for w in places)}
    found = [v for v in values if number(v) in said - current]
    return {"earlier": found} if found and len(found) < len(values) else {}


def _where(values: dict[str, list[str]]) -> set[str]:
    return {w for places in values.values() for w in places}


def _paper_name(c: Candidate) -> str | None:
    """The coined name the item's title starts with ("KnitTP" of "KnitTP: Overlapping …"), if any."""
    m = LEADING_NAME.match(c.title or "")
    return m[0].strip() if m and coined(m[0].strip()) else None


def _own_names(c: Candidate, found: list[Any]) -> set[str]:
    """The item's own names, folded: its titles' first coined word; and, for a post or a note, the one coined name
    of its title that its figures are written of ("llm-d 0.7: KV-Aware Autoscaling with WarmPool", "WarmPool 冷启动
    p99 TTFT 1.3 s": the post's own feature). A title whose figures are of two of its names ("SGLang vs vLLM", "vLLM
    v0.7: FlashInfer backend and DeepEP") keeps them apart."""
    names = {m[0].casefold() for t in c.titles if (m := LEADING_NAME.match(t)) and coined(m[0].strip())}
    if not c.arxiv_ids:
        titled = {m[0].casefold() for t in c.titles for m in coined_names(t)}
        written = titled & {cl.subject.casefold() for cl in found if cl.subject}
        names |= written if len(written) == 1 else set()
    return names


def _its_own(found: list[Any], names: set[str]) -> list[Any]:
    """The figures of a text about one paper (its doc line, its abstract) that are the paper's own: those no name
    is written before, and those its own names are ("VeilServe adds 6% to TTFT" in VeilServe's abstract)."""
    return [replace(cl, subject=None) if cl.subject and cl.subject.casefold() in names else cl
            for cl in found if cl.subject is None or cl.subject.casefold() in names]


def _quotes_the_abstract(values: dict[str, list[str]], cites: dict[str, set[str]]) -> dict[str, Any]:
    """``{"quoted": {place: [abstract]}}`` for each source that says it copies the papers' figures (``cites``: the
    IDs each such place cites) and writes a figure of a paper it cites by ID against the figure of that paper's
    own abstract: a figure copied wrongly, not another measurement (day 17's week table, "ShardLoad（2610.32751）…
    上线快 4.7×", its figures "从摘要抄的", against the abstract's 4.1x; a reproduction "在我们 8 卡机上复现：3.2×" says
    no such thing: its setup is to compare)."""
    value_of = {w: v for v, places in values.items() for w in places}
    quoted: dict[str, list[str]] = {}
    for w, v in value_of.items():
        for arxiv_id in sorted(cites.get(w, ())):
            page = ABSTRACT_PLACE + arxiv_id
            if value_of.get(page, v) != v:
                quoted.setdefault(w, []).append(page)
    return {"quoted": quoted} if quoted else {}


def _places(values: dict[str, list[str]]) -> frozenset[tuple[str, str]]:
    """A conflict's figures with their places: the same conflict found by the item and by the name it writes."""
    return frozenset((v, w) for v, places in values.items() for w in places)


def _cited_by(s: Any) -> set[str]:
    """The arXiv IDs a source cites: those its parser kept, else those its text cites (``kb.citations``)."""
    return set(s.cites) or {a.id for a in find_cited_ids(s.text or "")}


def _says_it_quotes(s: Any, quoting: list[str]) -> bool:
    return s.kind == "entry" and any(w in (s.text or "").casefold() for w in quoting)


def _linked_posts(c: Candidate, posts: dict[str, Any]) -> list[Any]:
    """The window's posts that a team entry of ``c`` is written about (its own link: "Post: <link>", ``posts`` by
    address), that are no source of ``c`` and that name the item (its ID or its title's coined name): not a post a line
    only sets the item against ("Unlike the Lathe router post (<link>), …")."""
    mine = {id(s) for s in c.sources}
    names = [n for t in c.titles[:1] if (n := title_name(t))] + c.arxiv_ids
    out: dict[int, Any] = {}
    for s in (s for s in c.sources if s.kind == "entry" and s.url):
        post = posts.get(normalize_url(s.url))
        if post is not None and id(post) not in mine and any(n in (post.text or "") for n in names):
            out[id(post)] = post
    return list(out.values())


def _quoted(values: dict[str, list[str]], c: Candidate, quoting: list[str] = (),
            posts: list[Any] = ()) -> dict[str, Any]:
    """``{"quoted": {entry: [pages]}}`` for each team entry of ``c`` that links posts or pages other places of the
    values are, or says it copies the paper's figures (``quoting``: "The authors report 1.7x" beside the abstract's
    1.4x), and gives another value than they do: a figure quoted wrongly ("The vLLM post (<its link>) says
    MoveOut adds 14%", the post's 9%), not two measurements to tell apart by their setups."""
    pages = {normalize_url(s.url): s.key for s in [*c.sources, *posts] if s.kind != "entry" and s.url}
    abstracts = [s.key for s in c.sources if s.kind in PAPER_SOURCES]
    value_of = {w: v for v, places in values.items() for w in places}
    quoted = {}
    for s in c.sources:
        if s.kind != "entry" or s.key not in value_of:
            continue
        text = s.text or ""
        urls = [s.url or "", *(text[a:b] for a, b in url_spans(text))]
        linked = [pages[u] for u in (normalize_url(x) for x in urls if x) if u in pages]
        linked += abstracts if _says_it_quotes(s, quoting) else []
        differ = [p for p in dict.fromkeys(linked) if p in value_of and value_of[p] != value_of[s.key]]
        if differ:
            quoted[s.key] = differ
    return {"quoted": quoted} if quoted else {}


# Sources that speak for the paper itself: its abstract as arXiv, HF or a listing gives it (a new version's)
PAPER_SOURCES = frozenset({"arxiv", "hf", "listing", "api", "bulk"})
ABSTRACT_PLACE = "https://arxiv.org/abs/"   # a paper's abstract read from the store (``facts.cited_abstracts``)


def _doc_line(values: dict[str, list[str]], c: Candidate) -> dict[str, Any]:
    """Where the doc's own line gives one of a conflict's figures (``Facts.anchor_lines``' places), when another is
    the paper's own now (a new version's abstract) or a post's corrected in place: the briefing then asks for the
    line to be corrected once the figure is checked. Another source's figure (a vendor's benchmark on one node, a
    note) is another measurement, whose setup is to compare: day 16's reader saw "correct the doc's line" under
    LMCache's 2.2× of TierKV, where the team had written "他们的 CPU 内存比论文的小，那行先不改"."""
    doc = [(v, w) for v, places in values.items() for w in places if w.startswith(DOC_PLACE)]
    if len(doc) != 1 or len(values) == 1:
        return {}
    by_key = {s.key: s for s in c.sources}
    others = [w for v, places in values.items() if v != doc[0][0] for w in places]
    if not any(w.startswith(ABSTRACT_PLACE) or (s := by_key.get(w)) is not None and (s.kind in PAPER_SOURCES
                                                                                   or s.corrected) for w in others):
        return {}
    return {"doc_line": {"place": doc[0][1], "value": doc[0][0]}}


def _unsigned(signed: dict[str, list[str]]) -> dict[str, list[str]]:
    """A conflict's values without their signs: the evidence, which a closed flag is compared by, stays the
    figures as kb has always written them (a sign shown is not new evidence, and reopens nothing). Values
    that differ only by their sign ("+25%", "−25%") keep it: without it they are one."""
    bare = [unsigned(v) for v in signed]
    return {(b if bare.count(b) == 1 else v): places for (v, places), b in zip(signed.items(), bare)}


def _signs(signed: dict[str, list[str]]) -> dict[str, Any]:
    """The values written with a sign ("−44%"), as the briefing shows them: which way a figure goes."""
    found = {k: v for k, v in zip(_unsigned(signed), signed) if k != v}
    return {"signed": found} if found else {}


def _measured(item: str | None, system: str | None, quantity: str, unit: str) -> dict[str, str | None]:
    """The parts of a conflicting-numbers flag's subject and quantity (both written in English: they are the
    flag's identity and evidence), so a briefing in another language can say what is measured in its own
    words: the item the flag is raised on (None: a system named in several items), the system named before
    the figures (None: the item itself), the quantity (``[quantities]``' name) and the unit shown."""
    return {"item": item, "system": system, "quantity": quantity, "unit": unit}


def upvotes_disagree(counts: list[tuple[int, str]]) -> bool:
    """Do one day's counts, ``(value, time of day or "")``, disagree? Upvotes only rise: counts that carry a
    time (a note's, a card's; a fetch's is the day's last), taken in time order and never falling, are one
    count rising through the day ("11▲ at 09:00", the evening's card and fetch 12▲). A count without a time
    must equal the others; two counts of one moment must be equal."""
    if len({v for v, _ in counts}) < 2:
        return False
    if any(not t for _, t in counts):
        return True
    ordered = sorted(counts, key=lambda vt: (vt[1], vt[0]))
    return any(b[0] < a[0] or (a[1] == b[1] and a[0] != b[0]) for a, b in zip(ordered, ordered[1:]))


def _in_time_order(counts: dict[str, int], times: dict[str, str]) -> list[int]:
    """One day's upvote counts in the order they were read (a count read by several places at its first
    reading; counts without a time of day last): the briefing lists "21 at 10:00; 23 at 10:30; 18 at 14:30",
    where a fall shows, not the values sorted. The flag's identity is its evidence's sorted JSON: unchanged."""
    first: dict[int, str] = {}
    for w, v in counts.items():
        first[v] = min(first.get(v, "~"), times[w] or "~")   # "~" after every time, "24:00" (a fetch) included
    return sorted(first, key=lambda v: (first[v], v))


def _upvote_times(counts: dict[str, int], times: dict[str, str]) -> dict[str, Any]:
    """What a reader needs to judge one day's upvote counts: the time each place read its count ("09:00"), and
    whether a later count is lower than an earlier one (``fell``: upvotes only rise, so one of the two is mistyped
    or of another day; a fetch's "24:00", the day's end, counts as the latest)."""
    timed = sorted((t, v) for w, v in counts.items() if (t := times[w]))
    fell = any(later < earlier for (_, earlier), (_, later) in zip(timed, timed[1:]))
    # shown for the places that read at a time of day; a fetch's "24:00" says no more than its place ("hf 10-23")
    return {"times": {w: t for w, t in times.items() if t and t != "24:00"}, **({"fell": True} if fell else {})}


def _time_of(stamp: str) -> str:
    """The time of day a stamp carries ("09:00", "24:00" for a fetch), or "" — 00:00 included, the stamp
    of a note or card dated without a time."""
    t = stamp[11:16]
    return "" if t in ("", "00:00") else t


def _corrections(values: dict[str, list[str]], corrected: dict[str, str]) -> dict[str, Any]:
    """The places of a conflict that are posts corrected in place, and when: their figure is the post's
    current one, and an older note may quote what it said before."""
    found = {w: corrected[w] for places in values.values() for w in places if w in corrected}
    return {"corrected": found} if found else {}


_WRITTEN_UNIT = re.compile(r"^[\d.,\s]+")   # a figure's digits: what is left is its unit


def _shown(unit: str, values: dict[str, list[str]]) -> str:
    """The unit a flag names: the one every value is written in ("380 ms", "412 ms" → ms), else the
    unit they were compared in (seconds for "0.4 s" against "380 ms")."""
    written = {_WRITTEN_UNIT.sub("", v).strip() for v in values}
    return written.pop() if len(written) == 1 and "" not in written else unit
