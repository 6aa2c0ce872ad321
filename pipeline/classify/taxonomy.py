"""The topic taxonomy as data: load, validate, merge a workspace override, hash.

The taxonomy ships as ``data/taxonomy.toml``; a workspace may override it with a file
of the same shape holding only what it changes. Tables merge key by key; a term whose
weight is set to ``0`` in the override is removed. Every error is a
``kb.errors.ConfigError`` that names the file and the dotted key.

``taxonomy_hash(t)`` is a hash of the *normalised content* (terms lowered and folded,
weights as numbers, keys sorted), so reordering the file or editing comments keeps it,
while changing a weight, a term, a threshold or a section changes it.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from kb.resources import read_toml_file
from pipeline.classify.matcher import spellings

__all__ = [
    "REQUIRED_TOPICS", "Settings", "Topic", "Taxonomy", "load_taxonomy", "parse_taxonomy",
    "default_taxonomy", "default_taxonomy_path", "taxonomy_hash", "normalize_term",
]

log = logging.getLogger(__name__)

#: Topic slugs are a contract with the rest of kb (cards, kb.toml, briefings).
REQUIRED_TOPICS: tuple[str, ...] = (
    "pd-disaggregation", "kv-cache", "kv-transfer", "moe", "speculative-decoding",
    "quantization", "scheduling", "attention-kernels", "long-context", "parallelism",
    "serving-systems", "routing", "agentic-serving", "multimodal", "edge-inference",
    "hardware", "security", "ai-for-systems", "compression", "benchmarking",
)

_SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_SECTION_RE = re.compile(r"^§\d+(?:\.(?:\d+|\(\d+\)))*$")
_TERM_GROUPS = ("context", "adjacent", "off_domain")
_TOPIC_KEYS = {"title_en", "title_zh", "requires_context", "evidence_share", "section_hint", "terms",
               "title_terms", "negative"}
_TOP_KEYS = {"schema", "settings", "topics", *_TERM_GROUPS}


@dataclass(frozen=True)
class Settings:
    """Thresholds and knobs of the classifier (``[settings]`` in the file)."""

    tag_threshold: float = 2.0            # a topic is tagged from this score
    relative_tag_threshold: float = 0.3   # … and only if ≥ this share of the best topic's score
    score_cap: float = 10.0               # … the best score counted at most this much for that share
    max_tags: int = 4
    title_bonus: float = 0.5              # a term also in the title adds this share of its weight
    repeat_bonus: float = 0.25            # each repeat of a term adds this share of its weight …
    repeat_cap: int = 2                   # … for at most this many repeats
    context_min: float = 1.5              # inference-context score a requires_context topic needs
    context_factor: float = 0.5           # … else its score is multiplied by this
    context_cap: float = 6.0              # the context score counts at most this much
    hint_bonus: float = 1.0               # added to a hinted topic that has evidence
    primary_evidence: float = 4.0         # inference evidence needed for "primary"
    primary_context_min: float = 2.0      # … of which at least this much from context terms
    primary_ratio: float = 1.0            # … and ≥ ratio × the adjacent-domain score
    adjacent_threshold: float = 1.0       # inference evidence a tagged text needs for "adjacent"
    context_tag_min: float = float("inf")  # from this inference context a text with no tag …
    context_tag_threshold: float = 2.0    # … is tagged with its best topic scoring at least this
    category_bonus: float = 1.5           # primary_categories add this to inference evidence
    category_penalty: float = 0.5         # none_categories multiply inference evidence by this
    off_domain_factor: float = 0.5        # off-domain score subtracted from context at this rate
    off_domain_demote: float = 1.0        # from this off-domain score, "primary" becomes "adjacent"
    primary_categories: tuple[str, ...] = ("cs.DC", "cs.PF", "cs.AR", "cs.OS", "cs.NI")
    none_categories: tuple[str, ...] = ("cs.CV", "q-bio", "physics", "astro-ph", "cond-mat")


_SETTING_TYPES = {f.name: f.type for f in fields(Settings)}


@dataclass(frozen=True)
class Topic:
    slug: str
    title_en: str
    title_zh: str
    terms: dict[str, float]
    negative: dict[str, float] = field(default_factory=dict)
    title_terms: dict[str, float] = field(default_factory=dict)   # count only in a title
    section_hint: tuple[str, ...] = ()   # words of the doc-section title the topic belongs to
    requires_context: bool = False
    evidence_share: float = 0.5     # share of the topic's score that counts as inference evidence


@dataclass(frozen=True)
class Taxonomy:
    topics: dict[str, Topic]
    context: dict[str, float]
    adjacent: dict[str, float]
    off_domain: dict[str, float] = field(default_factory=dict)
    group_negative: dict[str, dict[str, float]] = field(default_factory=dict)  # e.g. adjacent.negative
    settings: Settings = field(default_factory=Settings)
    sources: tuple[str, ...] = ()          # files it was read from, base first

    def section_for(self, topic: str, titles: dict[str, str]) -> str | None:
        """The section of a doc (``titles``: number as written → title, in the doc's order) a topic belongs
        to first (the first of ``sections_for``), else None."""
        found = self.sections_for(topic, titles)
        return found[0] if found else None

    def sections_for(self, topic: str, titles: dict[str, str]) -> list[str]:
        """Every section of a doc a topic belongs to, preferred first: each section whose title one of
        the topic's ``section_hint`` names (hints in their order, sections in the doc's). No number is
        written anywhere but in the doc, so a renumbered doc gives the same sections renumbered."""
        t = self.topics.get(topic)
        hints = [h.casefold() for h in (t.section_hint if t else ())]
        found: list[str] = []
        for hint in hints:
            found += [number for number, title in titles.items() if hint in title.casefold() and number not in found]
        return found

    @cached_property
    def hash(self) -> str:
        return taxonomy_hash(self)


# ---------------------------------------------------------------------------- normalising
def normalize_term(term: str) -> str:
    """NFKC, lower case, single spaces: the form terms are compared and hashed in."""
    return " ".join(unicodedata.normalize("NFKC", term).lower().split())


def _canonical(t: Taxonomy) -> dict[str, Any]:
    def weights(d: dict[str, float]) -> dict[str, float]:
        return {k: round(float(v), 6) for k, v in d.items()}

    s = {f.name: getattr(t.settings, f.name) for f in fields(Settings)}
    s = {k: (sorted(v) if isinstance(v, tuple) else round(float(v), 6)) for k, v in s.items()}
    return {
        "settings": s,
        **{g: weights(getattr(t, g)) for g in _TERM_GROUPS},
        "group_negative": {g: weights(d) for g, d in t.group_negative.items() if d},
        "topics": {
            slug: {
                "title_en": tp.title_en, "title_zh": tp.title_zh,
                "requires_context": tp.requires_context, "section_hint": list(tp.section_hint),
                "evidence_share": round(tp.evidence_share, 6),
                "terms": weights(tp.terms), "negative": weights(tp.negative),
                "title_terms": weights(tp.title_terms),
            }
            for slug, tp in t.topics.items()
        },
    }


def taxonomy_hash(taxonomy: Taxonomy) -> str:
    """Stable 16-hex-digit hash of the normalised taxonomy content."""
    blob = json.dumps(_canonical(taxonomy), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


# ---------------------------------------------------------------------------- loading
def default_taxonomy_path() -> Path:
    """The shipped ``taxonomy.toml`` (a checkout's ``data/`` or the installed copy; see kb.resources)."""
    from kb.errors import KBError
    from kb.resources import find_resource
    try:
        return find_resource("data/taxonomy.toml")
    except KBError as exc:
        raise ConfigError(str(exc)) from exc


_DEFAULT: Taxonomy | None = None


def default_taxonomy() -> Taxonomy:
    """The shipped taxonomy, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_taxonomy()
    return _DEFAULT


def _read(path: Path) -> dict[str, Any]:
    if not path.exists():
        raise ConfigError(f"{path}: taxonomy file not found")
    return read_toml_file(path)[1]


def load_taxonomy(override: str | Path | None = None, *, base: str | Path | None = None) -> Taxonomy:
    """Load the base taxonomy (default: the shipped one) and merge ``override`` on top."""
    raw, where, sources = read_merged(override, base=base)
    return parse_taxonomy(raw, where=where, sources=sources)   # checks the (merged) whole


def read_merged(override: str | Path | None = None, *, base: str | Path | None = None
                ) -> tuple[dict[str, Any], str, tuple[str, ...]]:
    """The base taxonomy's table with ``override``'s merged over it (each file's shape checked on its own
    when there are two), what its errors call it, and the files it was read from, base first."""
    base_path = Path(base) if base is not None else default_taxonomy_path()
    raw = _read(base_path)
    sources = [str(base_path)]
    where = str(base_path)
    if override is not None:
        _check_shape(raw, str(base_path), partial=False)   # its own errors name its own file
        o_path = Path(override)
        o_raw = _read(o_path)
        _check_shape(o_raw, str(o_path), partial=True)
        raw = _merge(raw, o_raw)
        sources.append(str(o_path))
        where = f"{o_path} (merged over {base_path.name})"
    return raw, where, tuple(sources)


def _merge(base: dict[str, Any], over: dict[str, Any], path: tuple[str, ...] = ()) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        here = path + (key,)
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value, here)
        else:
            out[key] = value
        is_weight_table = here[-2:-1] in (("terms",), ("negative",), ("title_terms",))
        if is_weight_table and isinstance(value, (int, float)) and value == 0:
            out.pop(key, None)            # weight 0 in an override removes the term
    return out


# ---------------------------------------------------------------------------- validating
def _err(where: str, key: str, problem: str) -> ConfigError:
    return ConfigError(f"{where}: {key}: {problem}")


_WARNED: set[str] = set()
_HEARD: list[list[str]] = []


@contextlib.contextmanager
def warnings_heard() -> Iterator[list[str]]:
    """The warnings reading a taxonomy gives inside the block, each time (``kept_taxonomy`` says them again
    when it reads the taxonomy back)."""
    heard: list[str] = []
    _HEARD.append(heard)
    try:
        yield heard
    finally:
        _HEARD.remove(heard)


def warn_once(message: str) -> None:
    """A key an earlier kb read, now ignored: said once a process (a taxonomy is read more than once a run)."""
    for heard in _HEARD:
        heard.append(message)
    if message not in _WARNED:
        _WARNED.add(message)
        log.warning("%s", message)


def _check_shape(raw: dict[str, Any], where: str, *, partial: bool) -> None:
    """Types and names only (an override may be partial)."""
    for key in raw:
        if key not in _TOP_KEYS:
            raise _err(where, key, f"unknown table (expected one of {', '.join(sorted(_TOP_KEYS))})")
    settings = raw.get("settings", {})
    if not isinstance(settings, dict):
        raise _err(where, "settings", "must be a table")
    for key, value in settings.items():
        if key not in _SETTING_TYPES:
            raise _err(where, f"settings.{key}", "unknown setting")
        _check_setting(where, key, value)
    for group in _TERM_GROUPS:
        if group in raw:
            tbl = raw[group]
            if not isinstance(tbl, dict) or set(tbl) - {"terms", "negative"}:
                raise _err(where, group, "must be a table holding [terms] and [negative] tables")
            for k in ("terms", "negative"):
                if k in tbl:
                    _check_weights(where, f"{group}.{k}", tbl[k], allow_zero=partial)
    topics = raw.get("topics", {})
    if not isinstance(topics, dict):
        raise _err(where, "topics", "must be a table of topics")
    for slug, body in topics.items():
        key = f"topics.{slug}"
        if not _SLUG_RE.match(slug):
            raise _err(where, key, "a topic slug is lower-case words joined by hyphens")
        if not isinstance(body, dict):
            raise _err(where, key, "must be a table")
        for k in list(body):
            if k == "sections":   # a doc's section numbers written into the taxonomy broke on every renumbering
                warn_once(f"{where}: {key}.sections is no longer read (a section's number comes from the doc): "
                           "write the words of its title in section_hint")
                del body[k]       # nor merged into what the override is laid over
                continue
            if k not in _TOPIC_KEYS:
                raise _err(where, f"{key}.{k}", f"unknown key (expected {', '.join(sorted(_TOPIC_KEYS))})")
        for k in ("title_en", "title_zh"):
            if k in body and (not isinstance(body[k], str) or not body[k].strip()):
                raise _err(where, f"{key}.{k}", "must be a non-empty string")
        if "requires_context" in body and not isinstance(body["requires_context"], bool):
            raise _err(where, f"{key}.requires_context", "must be true or false")
        share = body.get("evidence_share", 0.5)
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
            raise _err(where, f"{key}.evidence_share", f"must be a number from 0 to 1, got {share!r}")
        hint = body.get("section_hint", [])
        if isinstance(hint, str):
            hint = [hint]
        if not isinstance(hint, list) or not all(isinstance(h, str) and h.strip() for h in hint):
            raise _err(where, f"{key}.section_hint", "must be a section title's words, or a list of them "
                       "(a number would break when the doc is renumbered)")
        if any(_SECTION_RE.match(h.strip()) for h in hint):
            raise _err(where, f"{key}.section_hint", "names a section number; write the words of its title")
        for k in ("terms", "title_terms", "negative"):
            if k in body:
                _check_weights(where, f"{key}.{k}", body[k], allow_zero=partial)
        if not partial:
            for k in ("title_en", "title_zh", "terms"):
                if k not in body:
                    raise _err(where, f"{key}.{k}", "missing")
    if not partial:
        missing = [s for s in REQUIRED_TOPICS if s not in topics]
        if missing:
            raise _err(where, "topics", "missing required topic(s): " + ", ".join(missing))


def _check_setting(where: str, key: str, value: Any) -> None:
    kind = _SETTING_TYPES[key]
    name = f"settings.{key}"
    if "tuple" in str(kind):
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise _err(where, name, "must be a list of strings")
    elif kind in ("int", int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise _err(where, name, f"must be a positive integer, got {value!r}")
    else:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise _err(where, name, f"must be a number ≥ 0, got {value!r}")


def _check_weights(where: str, key: str, tbl: Any, *, allow_zero: bool) -> None:
    if not isinstance(tbl, dict):
        raise _err(where, key, "must be a table of \"term\" = weight")
    seen: dict[str, str] = {}
    for term, w in tbl.items():
        tkey = f'{key}."{term}"'
        if isinstance(w, bool) or not isinstance(w, (int, float)):
            raise _err(where, tkey, f"weight must be a number, got {w!r}")
        if w < 0 or (w == 0 and not allow_zero) or w > 10:
            raise _err(where, tkey, f"weight must be in (0, 10], got {w!r}"
                       + (" (0 removes a term, in an override only)" if w == 0 else ""))
        keys = spellings(term)
        if not keys:
            raise _err(where, tkey, "a term needs letters, digits or CJK characters")
        for k in keys:
            if k in seen:
                raise _err(where, tkey, f'matches the same words as "{seen[k]}" in this table '
                                        "(hyphenated terms also match their words run together)")
        seen.update(dict.fromkeys(keys, term))


def parse_taxonomy(raw: dict[str, Any], *, where: str = "<taxonomy>",
                   sources: tuple[str, ...] = (), checked: bool = False) -> Taxonomy:
    """Build a validated ``Taxonomy`` from the (merged) TOML content. ``checked``: this very content passed
    this code's check before (``kept_taxonomy``), which is not done again."""
    if not checked:
        _check_shape(raw, where, partial=False)
    s = raw.get("settings", {})
    settings = Settings(**{k: (tuple(v) if isinstance(v, list) else v) for k, v in s.items()})
    if not 0 <= settings.relative_tag_threshold <= 1:
        raise _err(where, "settings.relative_tag_threshold", "must be between 0 and 1")

    def weights(tbl: dict[str, Any]) -> dict[str, float]:
        return {normalize_term(k): float(v) for k, v in tbl.items() if v}

    topics = {}
    for slug, body in raw["topics"].items():
        terms = weights(body["terms"])
        if not terms:
            raise _err(where, f"topics.{slug}.terms", "needs at least one term")
        topics[slug] = Topic(
            slug=slug, title_en=body["title_en"].strip(), title_zh=body["title_zh"].strip(),
            terms=terms, negative=weights(body.get("negative", {})),
            title_terms=weights(body.get("title_terms", {})),
            section_hint=tuple(h.strip() for h in ([body["section_hint"]] if isinstance(body.get("section_hint"), str)
                                                   else body.get("section_hint", []))),
            requires_context=bool(body.get("requires_context", False)),
            evidence_share=float(body.get("evidence_share", 0.5)),
        )
    groups = {g: weights(raw.get(g, {}).get("terms", {})) for g in _TERM_GROUPS}
    group_neg = {g: weights(raw.get(g, {}).get("negative", {})) for g in _TERM_GROUPS}
    if not groups["context"]:
        raise _err(where, "context.terms", "needs at least one inference-context term")
    return Taxonomy(topics=topics, settings=settings, sources=sources,
                    group_negative=group_neg, **groups)
