"""Classify a text against the taxonomy: topic tags with evidence, and relevance.

``classify(text, title=…, primary_category=…, hints=…, taxonomy=…)`` returns a
``Classification``: ``relevance`` is ``"primary"`` (the main contribution is LLM
inference), ``"adjacent"`` (it touches inference but its field is elsewhere: agents,
RAG, training, vector databases) or ``"none"``; ``tags`` are the topics that scored,
best first, each with the terms that made its score; ``explain()`` says why, in lines.

Scoring, all weights and thresholds from the taxonomy's ``[settings]``:

* each matched term adds ``weight × (1 + repeat_bonus·min(repeats, repeat_cap)
  + title_bonus if it is in the title)``; a topic's negative terms subtract the same way;
  a topic's ``title_terms`` count only in the title. Inside one topic (or group) a match
  lying within a longer match counts once ("KV cache" is not also "cache");
* a ``requires_context`` topic is scaled by ``context_factor`` unless the inference
  context — context terms plus evidence from topics that need none — reaches
  ``context_min``; a topic the source hints at gets ``hint_bonus``;
* tags: score ≥ ``tag_threshold`` and ≥ ``relative_tag_threshold`` × min(best score,
  ``score_cap``), at most ``max_tags``; a text with none whose inference context reaches
  ``context_tag_min`` gets its best topic if that scores ``context_tag_threshold``;
* relevance: no tag → ``none``. Inference evidence = context score (capped, less
  off-domain terms) + Σ ``evidence_share`` × score over the tags (+ ``category_bonus`` for
  systems categories, × ``category_penalty`` for far categories without a serving topic,
  + ``hint_bonus`` for hinted sources). ``primary`` needs evidence ≥ ``primary_evidence``,
  ≥ ``primary_ratio`` × the adjacent-domain score (agents, RAG, training … — words that
  are also evidence for a tag do not count there) and off-domain terms (BERT, ImageNet,
  OLTP …) below ``off_domain_demote``; else ``adjacent`` if evidence ≥
  ``adjacent_threshold``; else ``none``. A text judged ``none`` keeps no tags.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from kb.records import Tag
from pipeline.classify.matcher import TermMatcher
from pipeline.classify.taxonomy import Taxonomy, default_taxonomy

__all__ = ["Tag", "Classification", "CompiledTaxonomy", "classify", "compile_taxonomy",
           "RELEVANCE_LEVELS"]

RELEVANCE_LEVELS = ("primary", "adjacent", "none")

_TOPIC, _NEG, _CTX, _CTX_NEG, _ADJ, _ADJ_NEG, _OFF, _TITLE = range(8)


@dataclass
class Classification:
    relevance: str
    tags: list[Tag]
    inference_score: float = 0.0    # the evidence the relevance was decided on
    context_score: float = 0.0
    adjacent_score: float = 0.0
    context_terms: tuple[str, ...] = ()
    adjacent_terms: tuple[str, ...] = ()
    off_domain_terms: tuple[str, ...] = ()
    off_domain_score: float = 0.0   # what those terms weigh: at ``off_domain_demote`` the text is another field's
    negative_terms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    below_threshold: list[Tag] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    taxonomy_hash: str = ""

    @property
    def topics(self) -> list[str]:
        return [t.topic for t in self.tags]

    def explain(self) -> list[str]:
        """Why this result: one line per decision, tag and piece of evidence."""
        lines = [f"relevance: {self.relevance} (inference evidence {self.inference_score:.1f}, "
                 f"adjacent {self.adjacent_score:.1f})"]
        lines += [f"  because {r}" for r in self.reasons]
        for t in self.tags:
            lines.append(f"tag {t.topic} {t.score:.1f}: " + ", ".join(t.terms))
        for t in self.below_threshold:
            lines.append(f"not tagged {t.topic} {t.score:.1f}: " + ", ".join(t.terms))
        for slug, terms in sorted(self.negative_terms.items()):
            lines.append(f"against {slug}: " + ", ".join(terms))
        lines.append(f"context {self.context_score:.1f}: " + (", ".join(self.context_terms) or "-"))
        lines.append(f"adjacent {self.adjacent_score:.1f}: " + (", ".join(self.adjacent_terms) or "-"))
        if self.off_domain_terms:
            lines.append("off-domain: " + ", ".join(self.off_domain_terms))
        if self.taxonomy_hash:
            lines.append(f"taxonomy {self.taxonomy_hash}")
        return lines


class CompiledTaxonomy:
    """A taxonomy turned into one matcher plus, per matched term, what it counts for."""

    def __init__(self, taxonomy: Taxonomy) -> None:
        groups: list[tuple[int, str | None, dict[str, float]]] = []
        for slug, topic in taxonomy.topics.items():
            groups.append((_TOPIC, slug, topic.terms))
            groups.append((_NEG, slug, topic.negative))
            groups.append((_TITLE, slug, topic.title_terms))
        neg = taxonomy.group_negative
        groups += [(_CTX, None, taxonomy.context), (_CTX_NEG, None, neg.get("context", {})),
                   (_ADJ, None, taxonomy.adjacent), (_ADJ_NEG, None, neg.get("adjacent", {})),
                   (_OFF, None, taxonomy.off_domain)]
        terms: dict[str, int] = {}
        entries: list[list[tuple[int, str | None, float]]] = []
        for kind, slug, table in groups:
            for term, weight in table.items():
                tid = terms.setdefault(term, len(terms))
                if tid == len(entries):
                    entries.append([])
                entries[tid].append((kind, slug, weight))
        self.matcher = TermMatcher(terms)
        self.entries = entries
        self.terms = self.matcher.terms
        self.order = {slug: i for i, slug in enumerate(taxonomy.topics)}


_COMPILED: dict[int, tuple[Taxonomy, CompiledTaxonomy]] = {}


def compile_taxonomy(taxonomy: Taxonomy) -> CompiledTaxonomy:
    """The taxonomy's matcher, compiled once per taxonomy object."""
    found = _COMPILED.get(id(taxonomy))
    if found is None or found[0] is not taxonomy:
        found = _COMPILED[id(taxonomy)] = (taxonomy, CompiledTaxonomy(taxonomy))
    return found[1]


def _category_matches(category: str | None, prefixes: Sequence[str]) -> bool:
    if not category:
        return False
    return any(category == p or category.startswith(p + ".") for p in prefixes)


def classify(text: str, *, title: str = "", primary_category: str | None = None,
             hints: Iterable[str] = (), taxonomy: Taxonomy | None = None) -> Classification:
    """Tag ``text`` (an abstract, a note entry) with topics and judge its relevance."""
    tax = taxonomy if taxonomy is not None else default_taxonomy()
    ix = compile_taxonomy(tax)
    s = tax.settings
    counts: dict[tuple[int, int], int] = {}      # (entry index, term id) -> occurrences
    in_title: set[tuple[int, int]] = set()
    for source, is_title in ((text, False), (title, True)):
        if source:
            for key in _group_hits(ix, ix.matcher.find_spans(source)):
                if not is_title and ix.entries[key[1]][key[0]][0] == _TITLE:
                    continue                        # title-only terms
                counts[key] = counts.get(key, 0) + 1
                if is_title:
                    in_title.add(key)

    pos: dict[str, list[tuple[float, str]]] = {}
    neg: dict[str, list[tuple[float, str]]] = {}
    ctx: list[tuple[float, str]] = []
    adj: list[tuple[float, str]] = []
    off: list[tuple[float, str]] = []
    ctx_neg = adj_neg = 0.0
    terms = ix.terms
    for (e, tid), n in counts.items():
        kind, slug, weight = ix.entries[tid][e]
        term = terms[tid]
        if kind == _TITLE:
            pos.setdefault(slug, []).append((weight, term))
            continue
        c = weight * (1.0 + s.repeat_bonus * min(n - 1, s.repeat_cap)
                      + (s.title_bonus if (e, tid) in in_title else 0.0))
        if kind == _TOPIC:
            pos.setdefault(slug, []).append((c, term))
        elif kind == _NEG:
            neg.setdefault(slug, []).append((c, term))
        elif kind == _CTX:
            ctx.append((c, term))
        elif kind == _ADJ:
            adj.append((c, term))
        elif kind == _CTX_NEG:
            ctx_neg += c
        elif kind == _ADJ_NEG:
            adj_neg += c
        else:
            off.append((c, term))

    context = min(max(sum(c for c, _ in ctx) - ctx_neg, 0.0), s.context_cap)
    off_score = sum(c for c, _ in off)
    context_eff = context - s.off_domain_factor * off_score
    hint_set = set(hints or ())

    raw: dict[str, float] = {}
    for slug, items in pos.items():
        score = sum(c for c, _ in items) - sum(c for c, _ in neg.get(slug, ()))
        if score > 0:
            raw[slug] = score + (s.hint_bonus if slug in hint_set else 0.0)
    # a requires_context topic needs inference evidence from elsewhere: context terms, or
    # topics whose words are not shared with other fields (KV cache, scheduling, …)
    support = context_eff + sum(tax.topics[k].evidence_share * v for k, v in raw.items()
                                if not tax.topics[k].requires_context and v >= s.tag_threshold)
    scored: list[Tag] = []
    for slug, score in raw.items():
        if tax.topics[slug].requires_context and support < s.context_min:
            score *= s.context_factor
        items = sorted(pos[slug], key=lambda x: (-x[0], x[1]))
        scored.append(Tag(slug, round(score, 3), tuple(t for _, t in items)))
    scored.sort(key=lambda t: (-t.score, ix.order.get(t.topic, 0)))
    best = scored[0].score if scored else 0.0
    floor = max(s.tag_threshold, s.relative_tag_threshold * min(best, s.score_cap))
    tags = [t for t in scored if t.score >= floor][: s.max_tags]
    if not tags and scored and context_eff >= s.context_tag_min and scored[0].score >= s.context_tag_threshold:
        # plain inference words ("LLM serving", "SLO", "TTFT") say what the text is about; its best topic, weak
        # alone, says where it goes: "Sizing GPU Fleets for LLM Serving" was none for want of a topic
        tags = scored[:1]
    below = [t for t in scored if t not in tags]

    # an adjacent-domain word that is also evidence for a tagged topic ("agent" in an
    # agentic-serving paper) supports the topic, not the other field
    tagged_terms = {term for t in tags for term in t.terms}
    adj_kept = [(c, t) for c, t in adj if t not in tagged_terms]
    adjacent = max(sum(c for c, _ in adj_kept) - adj_neg, 0.0)

    relevance, evidence, reasons = _judge(tax, tags, context_eff, adjacent, off_score,
                                          primary_category, hint_set)
    if relevance == "none" and tags:
        below = tags + below
        tags = []
    return Classification(
        relevance=relevance, tags=tags, inference_score=round(evidence, 3),
        context_score=round(context_eff, 3), adjacent_score=round(adjacent, 3),
        context_terms=_names(ctx), adjacent_terms=_names(adj_kept), off_domain_terms=_names(off),
        off_domain_score=round(off_score, 3), negative_terms={k: _names(v) for k, v in neg.items()},
        below_threshold=below, reasons=reasons, taxonomy_hash=tax.hash,
    )


def _group_hits(ix: CompiledTaxonomy, spans: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """``(entry index, term id)`` per hit, dropping a hit that lies inside a longer hit of
    the same topic or group: "KV cache" counts once for kv-cache, not also as "cache"."""
    groups: dict[tuple[int, str | None], list[tuple[int, int, int, int]]] = {}
    for tid, a, b in spans:
        for e, (kind, slug, _) in enumerate(ix.entries[tid]):
            groups.setdefault((kind, slug), []).append((e, tid, a, b))
    out = []
    for hits in groups.values():
        if len(hits) == 1:
            out.append(hits[0][:2])
            continue
        hits.sort(key=lambda h: (h[2], -h[3]))
        end = -1
        for h in hits:                      # the usual case: no two hits overlap
            if h[2] < end:
                break
            end = h[3]
        else:
            out.extend(h[:2] for h in hits)
            continue
        for e, tid, a, b in hits:
            if not any(a2 <= a and b <= b2 and (b2 - a2) > (b - a) for _, _, a2, b2 in hits):
                out.append((e, tid))
    return out


def _names(items: list[tuple[float, str]]) -> tuple[str, ...]:
    return tuple(t for _, t in sorted(items, key=lambda x: (-x[0], x[1])))


def _judge(tax: Taxonomy, tags: list[Tag], context: float, adjacent: float, off_domain: float,
           category: str | None, hints: set[str]) -> tuple[str, float, list[str]]:
    s = tax.settings
    reasons: list[str] = []
    shares = {slug: tp.evidence_share for slug, tp in tax.topics.items()}
    from_topics = sum(shares[t.topic] * t.score for t in tags)
    # a tag from an inference-only topic (speculative decoding, KV cache, …) is itself context
    inherent = any(shares[t.topic] >= 0.5 and t.score >= 1.5 * s.tag_threshold for t in tags)
    context = max(context, 0.0)
    # A systems category brings a paper that is about inference closer to serving; it does not make a
    # systems paper with no word of inference (blockchain sharding, energy counters) about it.
    if category and tags and _category_matches(category, s.primary_categories) and (context > 0 or inherent):
        context += s.category_bonus
        reasons.append(f"category {category} is a systems category (+{s.category_bonus:g})")
    evidence = context + from_topics
    serving = any(shares[t.topic] >= 0.5 for t in tags)
    if _category_matches(category, s.none_categories) and not serving:
        evidence *= s.category_penalty
        reasons.append(f"category {category} is far from inference and no serving topic "
                       f"(×{s.category_penalty:g})")
    if hints and tags:
        evidence += s.hint_bonus
        reasons.append(f"source hints {', '.join(sorted(hints))} (+{s.hint_bonus:g})")
    if not tags:
        reasons.append("no topic reached the tag threshold")
        return "none", evidence, reasons
    if evidence < s.adjacent_threshold:
        reasons.append(f"inference evidence {evidence:.1f} < {s.adjacent_threshold:g}")
        return "none", evidence, reasons
    failed = []
    if evidence < s.primary_evidence:
        failed.append(f"inference evidence {evidence:.1f} < {s.primary_evidence:g}")
    if context < s.primary_context_min and not inherent:
        failed.append(f"context {context:.1f} < {s.primary_context_min:g}")
    if evidence < s.primary_ratio * adjacent:
        failed.append(f"adjacent-domain evidence {adjacent:.1f} outweighs inference {evidence:.1f}")
    if off_domain >= s.off_domain_demote:
        failed.append(f"off-domain terms score {off_domain:.1f} ≥ {s.off_domain_demote:g}")
    if failed:
        reasons += failed
        return "adjacent", evidence, reasons
    reasons.append(f"inference evidence {evidence:.1f} (context {context:.1f}) ≥ {s.primary_evidence:g} "
                   f"and ≥ {s.primary_ratio:g} × adjacent {adjacent:.1f}")
    return "primary", evidence, reasons
