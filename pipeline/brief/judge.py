"""Judge the window's candidates: relevance and topics, anchored or not, category, rank.

Categories (the seed's wording): 🟢 ``net-new`` — a paper never anchored and never
in an earlier briefing; 🟠 ``engineering`` — new concrete facts (parameters,
measurements) from an engineering source without an arXiv ID; 🟡 ``confirmation``
— re-confirms something anchored or briefed, is only adjacent, is marked by its
author as a recap, or is an unverified observation. Anchored items are never NET-new.
"""
from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from kb.names import title_name_key
from kb.text import normalize_url, paper_title_key, strip_anchor_syntax, title_key
from pipeline.brief.claim_forms import stored_size
from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.decisions import DocDecisions, decision_of
from pipeline.brief.figures import sign, unsigned
from pipeline.brief.likeness import AnchoredNames, Names, likeness, subject_named, without_comparisons, without_ids
from pipeline.brief.model import Candidate
from pipeline.brief.placing import off_the_domain, refused_section_numbers, stated_section, suggest_section
from pipeline.brief.rules import Rules
from pipeline.classify.classifier import classify as keyword_classify

if TYPE_CHECKING:
    from kb.store.anchors import AnchorView


_URL = re.compile(r"https?://\S+|www\.\S+", re.I)
_SIZE = re.compile(r"[KMGT]i?B$")   # a size: what a store holds is no fact of serving ("du 出来 1012 GB")


def _on_topic(line: str, off_topic: list[str]) -> str:
    """``line`` without what its author calls off the subject, from the word to its sentence's end ("题外话：打印机
    碳粉只剩 12%。回到正题：网关 p99 TTFT 1.4 s" keeps the 1.4 s)."""
    low = line.casefold()
    at = min((i for w in off_topic if (i := low.find(w)) >= 0), default=-1)
    if at < 0:
        return line
    end = _SENTENCE_END.search(line, at)
    return line[:at] + (_on_topic(line[end.end():], off_topic) if end else "")


_SENTENCE_END = re.compile(r"[。！？；;!?]|\.(?=\s)")


def engineering_facts(text: str, rules: Rules) -> list[str]:
    """Concrete parameters and measurements written in ``text`` (env vars, flags, numbers with units).

    URLs are not read (a release tag in a link is not a new fact), nor a line its author calls off the subject
    ("题外话：…碳粉只剩 12%"), nor a size of what a store holds ("日志目录 du 出来 1012 GB"); a bare
    variable is dropped when the same variable is also written with a value.
    """
    prose = "\n".join(_on_topic(line, rules.off_topic) for line in _URL.sub(" ", text).splitlines())
    found: dict[str, None] = {}
    for pattern in rules.facts.values():
        for m in pattern.finditer(prose):
            if not _SIZE.search(m.group()) or not stored_size(prose[prose.rfind("\n", 0, m.start()) + 1:m.start()]):
                found.setdefault(m.group().strip(), None)
    valued = {f.split("=", 1)[0] for f in found if "=" in f}
    return [f for f in found if "=" in f or f not in valued]


def _own_text(c: Candidate) -> str:
    """The text the team or a blog wrote about the item (not a paper abstract)."""
    return "\n".join([line for p in c.points for line in p.lines()] + [t for t in c.texts if t])


def team_aside(c: Candidate) -> bool:
    """Is the item only the team's own note entries, naming no paper and no page? Such an entry (a cluster's
    utilisation heard at a meeting) is no paper of any topic, yet its figures are the team's claims."""
    return bool(c.sources) and all(s.kind == "entry" for s in c.sources) and not (c.arxiv_ids or c.urls)


def is_aside(c: Candidate, text: str, rules: Rules, taxonomy: Any, doc: str) -> bool:
    """Is ``c``, which the doc's classifier calls not relevant, the team's measurement of its serving all the same
    ("二期 H20 集群白天 GPU 利用率只有 41%")? Only the team's own entries, naming no paper or page (``team_aside``),
    not kept out of the doc by their author ("训练的事，不进 inference"), measuring a quantity ``[quantities]`` names:
    one only serving measures, by its keyword ("负载率只有 78%", ``SERVING_ONLY``), or any other where a word of
    inference serving is written too (the taxonomy's context: GPU, decode …; not a laptop's "内存 32 GB", a VPN's
    "延迟 30 ms", nor "进度快了 20%"). Or a claim about its serving the team marks for checking, with no figure
    ("⚠ 听说 H20 上 FP8 KV cache 有精度问题，待核实", "⚠ … 在线重排在 EP 大于 16 时有已知 bug": a term of the taxonomy
    written on the marked line; not "待确认：周三读书会换到 3 楼小会议室", nor "主讲 TBD" under a line on GPU nodes)."""
    if not team_aside(c) or rules.excluded_by(c, doc):
        return False
    strong = dataclasses.replace(rules.claim_words, beside=())
    if {claim.quantity for claim in claims_in(text, "", rules.quantities, rules.said_of, strong)} & SERVING_ONLY:
        return True
    if not claims_in(text, "", rules.quantities, rules.said_of, rules.claim_words):
        marked = "\n".join(line for line in text.splitlines() if any(m in line for m in c.markers))
        return bool(marked) and _names_a_topic(marked, taxonomy)
    if c.markers:   # the team itself asks for its figure to be checked ("待核实：二期 H20 节点的 NVLink 带宽只有 60%")
        return True
    return _speaks_of_serving(text, rules, taxonomy)


def _names_a_topic(text: str, taxonomy: Any) -> bool:
    """Does ``text`` write a term of the taxonomy's topics or of inference serving, however weak ("EP")?"""
    found = keyword_classify(text, taxonomy=taxonomy)
    return bool(found.context_terms) or any(t.terms for t in [*found.tags, *found.below_threshold])


def _speaks_of_serving(text: str, rules: Rules, taxonomy: Any) -> bool:
    """Is a word of inference serving written, besides a quantity's own ("延迟" is one of the taxonomy's context words
    as well)?"""
    return bool(set(keyword_classify(text, taxonomy=taxonomy).context_terms) - {k.lower() for k in rules.quantities})


# Quantities only serving measures: an aside measuring one needs no other word of serving ("负载率只有 78%"); a
# latency, a bandwidth or a speed-up may be a VPN's, a home line's or a CI cache's ("公司 VPN 到机房延迟 30 ms").
SERVING_ONLY = frozenset({"utilization", "MFU", "TTFT", "TPOT", "goodput", "hit rate", "SLO violations"})


def card_is_of(c: Candidate) -> bool:
    """Does the team's card describe the paper the item is? A card titled with another paper's name (UniPool's
    text under PoolDB's ID) speaks for that paper, not for the one its ID names; a title without a coined name,
    or the same name written another way ("Fleet-Size", "FlashAttention2"), says nothing against it."""
    mine, its = title_name_key(c.card_title), title_name_key(c.title)
    return mine is None or its is None or _bare(mine) == _bare(its)


def _bare(name: str) -> str:
    return re.sub(r"[\W_]", "", name).casefold()


def card_is_the_docs(c: Candidate, taxonomy: Any, sections: Mapping[str, str]) -> bool:
    """Is the doc the one the card's `primary_topic: true` speaks of? One of its topics is the taxonomy's and maps to
    one of this doc's sections (``Taxonomy.sections_for``): a workspace's docs share one taxonomy, and a card of
    the MoE doc's or an agents paper is not the inference doc's; nor does a section number say it (another doc may
    have a §3.2 too)."""
    numbered = {f"§{n}": title for n, title in sections.items()}
    return any(t in taxonomy.topics and taxonomy.sections_for(t, numbered) for t in c.card_topics)


SOURCE_ORDER = {"entry": 0, "card": 1, "post": 2, "arxiv": 3, "hf": 4, "listing": 5}


def judge(c: Candidate, *, classify: Any, taxonomy: Any, doc: str, anchors: dict[str, list[str]],
          briefed: dict[str, str], known_ids: set[str], rules: Rules, sections: Mapping[str, str],
          stored: dict[str, Any] | None = None, known_titles: KnownTitles | None = None,
          withdrawn: dict[str, list[tuple[str, str | None]]] | None = None, suggest: Any = None,
          describe: Any = None, card_speaks: Any = None, anchored_names: Names | None = None,
          one_doc: bool = True, doc_decided: DocDecisions | None = None) -> None:
    """Fill in the candidate's relevance, topics, section, category and score. ``card_speaks(c)``: whether
    the team's card of the item judges it for this doc (``kb.labels.card_speaks_for``); ``anchored_names``:
    the doc's anchored papers by name (``likeness.anchored_names``), which a line comparing the item with
    one of them names; ``one_doc``: the workspace has no other doc a note's section number could mean;
    ``doc_decided``: the doc's deciding clauses (``decisions.doc_decisions``)."""
    # Sources in a reading order that does not depend on how candidates were merged.
    c.sources.sort(key=lambda s: (SOURCE_ORDER.get(s.kind, 9), s.date or "", s.path or "", s.entry or 0, s.name))
    c.arxiv_ids.sort(key=lambda i: (i not in known_ids, i))   # the ID arXiv resolves first
    c.arxiv_id = c.arxiv_ids[0] if c.arxiv_ids else None
    c.url = c.urls[0] if c.urls else next((s.url for s in c.sources if s.url), None)
    c.title = title_of(c, known_titles)
    # A paper only the listing or HF saw is exactly the subject the classify stage tagged (with its
    # arXiv category, which helps); so is one a note entry only cites beside its subject (the entry's stored
    # result is its subject's); anything the team or a blog wrote about is judged on the merged text.
    public_only = c.arxiv_id and all(s.kind in ("arxiv", "hf", "listing") or s.beside_subject for s in c.sources)
    one_entry = len(c.sources) == 1 and c.sources[0].kind == "entry" and len(c.texts) == 1
    key = c.arxiv_id if public_only else (f"entry:{c.sources[0].key}" if one_entry else None)
    result = (stored or {}).get(key) if key else None
    if result is None:
        result = classify("\n".join(c.titles[1:] + c.texts), title=c.title, taxonomy=taxonomy)
    if result.relevance == "none":
        # A note about a known paper is about the paper: a short line on it ("作者回信", an upvote count)
        # says little of the topic, the paper's own judgement (title, abstract) does.
        result = next((r for i in c.arxiv_ids if i in known_ids and (r := (stored or {}).get(i)) is not None
                       and r.relevance != "none"), result)
    c.relevance, c.topics = result.relevance, [t.topic for t in result.tags]
    c.terms = {term for t in result.tags for term in t.terms}
    subjects = c.arxiv_ids + [normalize_url(u) for u in c.urls]
    c.anchored_in = sorted({s for k in subjects for s in anchors.get(k, [])})
    if c.relevance == "none" and c.card_relevance == "primary" and not c.anchored_in and card_speaks is not None \
            and card_speaks(c) and card_is_of(c) and card_is_the_docs(c, taxonomy, sections):
        # the team's card of it for this doc ("primary_topic: true") is the team's word, as an anchor is; a card
        # saying the doc's subject is not the paper's ("primary_topic: false") says nothing of how near it is
        c.relevance = "primary"
    if c.relevance == "none" and one_doc and not c.anchored_in and not c.card_relevance and card_speaks is not None \
            and card_speaks(c) and not rules.excluded_by(c, doc) and stated_section(c, rules, sections):
        # a note asks for a section of the doc ("建议：§2.2"): the team's word that the item is the doc's, as a card's
        # is (a card's own `primary_topic` decides for it, above); in a workspace of several docs a section number
        # alone does not say which doc it means
        c.relevance = "primary"
    if c.relevance == "none":
        if not c.anchored_in:   # not the topic's: nothing below is shown or counted
            if is_aside(c, _own_text(c), rules, taxonomy, doc):   # but the team's serving measurement, with
                c.facts = engineering_facts(_own_text(c), rules)   # nothing to check it by, asks for a check
                c.aside = True
            return
        # The doc anchors it: the team's word that it is the doc's, whatever today's mention reads like
        # (a note that only records its upvotes). It is listed as already anchored.
        c.relevance = "primary"
    own_text = _own_text(c)
    # "和 HotSwapEP 几乎是同一件事" compares the item with an anchored paper (a boundary to read) and "和已锚的都
    # 不重叠" says it is new: neither says the item repeats what the team has (read again without such lines
    # only when a marker is found: most items hold none)
    c.recap = rules.is_recap(own_text.lower()) and rules.is_recap(
        without_comparisons(without_ids(own_text, c.miscited), anchored_names or {}, subjects,
                            rules.overlap_words).lower())
    c.excluded_by = rules.excluded_by(c, doc)
    c.excluded = bool(c.excluded_by)
    c.decision = decision_of(c, doc_decided, rules)   # the team's last word on it, the doc's new lines first
    # An item without an arXiv ID is engineering or a confirmation by its facts; a paper's facts only pick
    # the key points quoted when it is shown (``read_facts``), so they are read for those alone.
    c.facts = [] if c.arxiv_ids else engineering_facts(own_text, rules)
    c.withdrawn_from = [] if c.anchored_in else sorted({f"{s} ({v})" if v else s for k in subjects
                                                         for s, v in (withdrawn or {}).get(k, [])})
    if c.relevance == "primary" and carded_elsewhere(c, taxonomy) and (card_speaks is None or card_speaks(c)):
        c.relevance = "adjacent"
    # by title: an earlier item without an arXiv ID; and, for an item whose IDs the store knows none of, an
    # earlier paper too (two known papers with one title are two papers: kb.text.briefed_keys)
    known = any(i in known_ids for i in c.arxiv_ids)
    titled = [k for t in c.titles for k in (title_key(t), None if known else paper_title_key(t)) if k]
    c.briefed_on = next((briefed[k] for k in subjects + titled if k in briefed), None)
    # sections the team's own text rules out ("别归 §3.2") are never kb's suggestion
    refused = refused_section_numbers(c, rules)
    allowed = {k: v for k, v in sections.items() if k not in refused}
    # an item its author keeps out of the doc ("不进 inference") gets no section, as one asked for gets its own; so
    # does one adjacent only by another field's words, unless the team asks for a section all the same
    stated = None if c.anchored_in or c.excluded else stated_section(c, rules, sections)
    c.off_domain = (off_the_domain(c, taxonomy, rules.own_field)
                    if c.relevance == "adjacent" and not (c.anchored_in or stated) else [])
    c.section = (c.anchored_in[0] if c.anchored_in else None if c.excluded or c.off_domain else stated
                 or suggest_section(c, suggest, allowed, taxonomy, describe))
    c.same_as = said_the_same(c, anchored_names, rules) if anchored_names is not None and not c.anchored_in else []
    c.category, c.why = _category(c)
    c.score = _score(c, rules)


def said_the_same(c: Candidate, names: Names, rules: Rules) -> list[str]:
    """The papers anchored in ``c``'s section that the team's notes and cards about it say it repeats: named in the
    very statement a ``[overlap_words] repeat`` phrase makes ("和今早刚锚的 PrimeCtx 基本是一回事"; not "类似",
    "a variant of": a likeness is the boundary rule's, the item stays new), the team's last word counting as for the
    boundary (``likeness.likeness``), each by its coined name, else its ID or address. Not one of another section:
    "和 HotSwapEP 是同一件事，这是 vLLM 里能直接用的版本" names vLLM only as where it runs."""
    found = likeness(c, names, rules.overlap_words.repeats).same   # the team's last word, as the boundary's
    if not isinstance(names, AnchoredNames):   # names without their sections (a test's): every one
        return found
    return [names.name_of(s) or s for s in found if c.section and c.section in names.sections_of(s)]


def hold_back_known_figures(c: Candidate, rules: Rules, claims: Callable[[str, str], list[Claim]],
                            anchor_lines: Mapping[str, list[tuple[str, str]]], names: Names) -> None:
    """Take out of an engineering item's new facts the figures the doc's own line already gives: a post that quotes
    an anchored paper's result ("LayerLink lowers p99 TTFT by 34%", the line of §2.4.1 saying −34%) brings no new
    measurement by it. Read for the paper the claim is written of (its coined name or ID, as anchored) against the
    line's own figures of it (not a baseline's the line names, "Mooncake p99 TTFT −21%"): the same quantity and
    unit at the same size, the same way (a line writes a reduction as "−34%", a post as "by 34%"; "+34%" is the
    other way). A figure the item also writes of anything else ("our connector raises throughput by 34%") stays
    its own. An item left with no fact of its own is a confirmation that says where the doc holds them."""
    if c.category != "engineering":
        return
    held: dict[str, str] = {}
    own: set[str] = set()      # figures the item writes of something else than an anchored paper's line
    for s in c.sources:
        for cl in claims(s.text or "", s.key):
            paper = subject_named(names, cl.subject) if cl.subject else None
            line = [d for where, label in anchor_lines.get(paper or "", []) for d in claims(label, where)
                    if d.subject is None or subject_named(names, d.subject) == paper]
            if any(_same_figure(d, cl) for d in line):
                place = next(where for where, _ in anchor_lines[paper or ""])
                held.setdefault(unsigned(cl.written), f"{cl.subject}, {place.rsplit(' ', 1)[-1]}")
            else:
                own.add(unsigned(cl.written))
    held = {f: where for f, where in held.items() if f not in own}
    kept = [f for f in c.facts if unsigned(f) not in held]
    if len(kept) == len(c.facts):
        return
    c.facts, c.held = kept, [f"{f} ({where})" for f, where in held.items()]
    c.category, c.why = _category(c)
    c.score = _score(c, rules)


def _same_figure(line: Claim, written: Claim) -> bool:
    """The same measurement: quantity, unit and size, and no sign against the other's ("−34%" and "by 34%" agree)."""
    return ((line.quantity, line.unit) == (written.quantity, written.unit) and abs(line.value) == abs(written.value)
            and len({sign(line.written), sign(written.written)} - {""}) <= 1)


def read_facts(c: Candidate, rules: Rules) -> None:
    """The facts of a paper the briefing shows (``judge`` reads every other item's): its key points quote them."""
    if c.arxiv_ids and not c.facts:
        c.facts = engineering_facts(_own_text(c), rules)


class KnownTitles:
    """Titles by arXiv ID or normalised URL: the store's paper titles, else the label of an anchor line.

    A label is read (``strip_anchor_syntax``) only when an item asks for it: a night looks up a few
    of the doc's hundreds of anchors. The last anchor line of a key with a readable label wins.
    """

    def __init__(self, paper_titles: dict[str, str], anchored: list[AnchorView]) -> None:
        self._papers = {k: v for k, v in paper_titles.items() if v}
        self._labels: dict[str, list[str]] = {}
        for a in anchored:
            self._labels.setdefault(a.arxiv_id or normalize_url(a.url or ""), []).append(a.label)
        self._read: dict[str, str | None] = {}

    def get(self, key: str) -> str | None:
        """The title known for ``key``, or None."""
        if key in self._papers:
            return self._papers[key]
        if key not in self._read:
            self._read[key] = next((t for label in reversed(self._labels.get(key, []))
                                    if (t := strip_anchor_syntax(label))), None)
        return self._read[key]


def carded_elsewhere(c: Candidate, taxonomy: Any) -> bool:
    """The team's card files the paper under other fields: not primary for the doc, and none of its tags a
    topic of the taxonomy ("topics: [agents, context-reuse]"). A person read the paper and said so; a
    classifier that calls it primary from its words ("prefix cache") does not overrule them. A card that
    tags it with the doc's topics but not as primary (a MoE pruning paper "邻接 inference") says less,
    and kb's judgement stands."""
    known = getattr(taxonomy, "topics", None) or {}
    return c.card_relevance == "adjacent" and bool(c.card_topics) and not any(t in known for t in c.card_topics)


def title_of(c: Candidate, known: KnownTitles | None) -> str:
    """What an item is called: its paper's title from the store (listing, API, HF), else the team's card's,
    else the label of the line that anchors it, else what the note or post called it."""
    if known is not None:
        if c.arxiv_id and (title := known.get(c.arxiv_id)):
            return title
        if c.url and (key := normalize_url(c.url)) and (title := known.get(key)):
            return title
    if c.card_title:
        return c.card_title
    if c.titles:   # a note's heading: without the IDs and links written in it ("SpecMesh（2610.12319）：…")
        return strip_anchor_syntax(c.titles[0]) or c.titles[0]
    return c.arxiv_id or c.url or c.key


def _category(c: Candidate) -> tuple[str, list[dict[str, str]]]:
    """The category and why, as codes the templates put into words."""
    def why(code: str, detail: str = "") -> list[dict[str, str]]:
        return [{"code": code, "detail": detail}]
    if c.anchored_in:
        return "confirmation", why("anchored", "、".join(f"§{s}" for s in c.anchored_in))
    if c.withdrawn_from:   # the team took its anchor back: an update to re-read, not a new paper
        return "confirmation", why("withdrawn", "、".join(f"§{s}" for s in c.withdrawn_from))
    if c.briefed_on:
        return "confirmation", why("briefed", c.briefed_on)
    if c.excluded:   # its author says it is not for this doc: said so, with who
        return "confirmation", why("excluded", "、".join(c.excluded_by))
    if c.decided_out:   # the doc itself keeps it out ("不锚", "不进文档"): settled, said where
        return "confirmation", why("doc-decided", c.decision["where"])
    if c.off_domain:   # adjacent by words another field uses too: said so, with the field's words
        return "confirmation", why("off-domain", ", ".join(c.off_domain))
    if c.relevance == "adjacent":
        return "confirmation", why("adjacent")
    if c.recap:
        return "confirmation", why("recap")
    if c.same_as:   # the team's word that it repeats an anchored paper: the boundary flag asks for a reading
        return "confirmation", why("same-as", "、".join(c.same_as))
    if c.markers and not c.arxiv_ids:
        return "confirmation", why("unverified", " ".join(c.markers))
    if c.unsourced:
        return "confirmation", why("unsourced", ", ".join(c.facts[:4]))
    if c.arxiv_ids:
        return "net-new", why("new-paper")
    if c.facts:
        return "engineering", why("facts", ", ".join(c.facts[:4]))
    if c.held:   # its figures are the doc's already (``hold_back_known_figures``)
        return "confirmation", why("held", "; ".join(c.held[:4]))
    return "confirmation", why("no-facts")


def _score(c: Candidate, rules: Rules) -> float:
    w = rules.weights
    cred = max((s.credibility for s in c.sources), default=3)
    docs = len({s.key for s in c.sources})
    team = any(s.kind in ("entry", "card") for s in c.sources)
    up = max((u for u, *_ in c.upvotes), default=0)
    score = (w["credibility"] * cred + w["sources"] * min(docs, 4) + (w["team"] if team else 0.0)
             + (w["new"] if c.category in ("net-new", "engineering") else 0.0)
             + (w["unverified"] if c.markers and not c.recap else 0.0)
             + (w["recap"] if c.recap or c.excluded else 0.0) + w["upvotes"] * math.log2(1 + up))
    return round(score, 3)
