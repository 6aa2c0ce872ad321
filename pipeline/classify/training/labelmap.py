"""The label map (``label_map.toml``): curated list sections → kb topic slugs and relevance.

Training-time only. ``LabelMap.load(path)`` reads and checks the file;
``LabelMap.label(row)`` gives ``(relevance, topics)`` for one curated row (or ``None`` when
the row is skipped); ``merge`` combines the labels of one paper filed in several places.
See the comments at the top of ``label_map.toml`` for the rule language.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, utf8_error
from kb.resources import read_toml_file

__all__ = ["LEVELS", "LabelMap", "ListRules", "Rule", "SystemsNegatives", "TeamLabelled", "merge", "USES"]

LEVELS = ("primary", "adjacent", "none")
_RANK = {"none": 0, "adjacent": 1, "primary": 2}
USES = ("train", "eval", "exclude")
_PERMISSIVE = re.compile(r"^(MIT|Apache-2\.0|Modified Apache-2\.0.*|CC0-1\.0|BSD.*)$")


class LabelMapError(ConfigError, ValueError):
    """The label map, or the team-label file it names, is malformed: a configuration error (exit 2), one line
    naming the file and the table and key. ``LabelMap.load`` puts the label map's path first; ``placed``: the
    message names its own file already (a line of the team-label file)."""

    def __init__(self, message: str, *, placed: bool = False) -> None:
        super().__init__(message)
        self.placed = placed


@dataclass(frozen=True)
class Rule:
    relevance: str
    topics: tuple[str, ...] = ()
    section: re.Pattern | None = None
    file: re.Pattern | None = None
    badge: re.Pattern | None = None
    title: re.Pattern | None = None
    promote: str | None = None
    demote: str | None = None

    def matches(self, row: dict[str, Any]) -> bool:
        if self.section is not None and not self.section.search(row.get("section") or ""):
            return False
        if self.file is not None and not self.file.search(row.get("source_file") or ""):
            return False
        if self.badge is not None and not any(self.badge.search(b) for b in row.get("badges") or ()):
            return False
        if self.title is not None and not self.title.search(row.get("title") or ""):
            return False
        return True


@dataclass(frozen=True)
class ListRules:
    name: str
    licence: str
    use: str
    default: Rule | None
    rules: tuple[Rule, ...] = ()


@dataclass(frozen=True)
class SystemsNegatives:
    """``[abstracts.systems_negatives]``: hard ``none`` examples — abstracts of systems papers
    (an arXiv category in ``categories``) that no curator listed and whose title and abstract
    never match ``llm_terms`` (LLMs, language models, transformers, inference, serving …)."""

    categories: frozenset[str]
    selections: tuple[str, ...]
    llm_terms: re.Pattern
    weight: float

    def matches(self, record: dict[str, Any]) -> bool:
        """A record of the abstracts corpus that is one (the rule, the same on every split)."""
        return (record.get("selection") in self.selections
                and bool(self.categories & set(record.get("categories") or ()))
                and not self.llm_terms.search(f"{record.get('title') or ''}\n{record.get('abstract') or ''}"))


# How a held-out paper was drawn: at random from the pool, or among those the model was least sure of.
STRATA = ("random", "uncertain")


@dataclass(frozen=True)
class TeamLabelled:
    """``[abstracts.labelled]``: kb's own labels of corpus abstracts no curator listed, by arXiv ID
    (``file``, JSON lines ``{"arxiv_id", "relevance", "topics"}`` beside the label map). They label
    papers the way kb's labelled sets do — every topic a paper touches, kb's primary/adjacent line —
    where a curator's section gives one topic per paper; ``weight`` per example. ``[abstracts.held_out]`` is
    the same kind of file, never trained on: each line may add ``"stratum"`` (how its paper was drawn)."""

    path: Path
    weight: float
    key: str = "abstracts.labelled"

    def load(self, valid_topics: set[str] | None = None) -> dict[str, tuple[str, tuple[str, ...]]]:
        """``{arxiv_id: (relevance, topics)}``; a malformed line raises ``LabelMapError`` naming it."""
        out: dict[str, tuple[str, tuple[str, ...]]] = {}
        if not self.path.is_file():
            raise LabelMapError(f"{self.path}: no such file beside the label map (its {self.key}.file)",
                                placed=True)
        for n, line in enumerate(self._lines(), 1):
            if not line.strip():
                continue
            where = f"{self.path}:{n}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                raise LabelMapError(f"{where}: not a JSON object", placed=True) from None
            aid, rel, topics = (row.get("arxiv_id"), row.get("relevance"), row.get("topics", [])) \
                if isinstance(row, dict) else (None, None, None)
            if not isinstance(aid, str) or rel not in LEVELS or not isinstance(topics, list):
                raise LabelMapError(f"{where}: needs arxiv_id, relevance (primary/adjacent/none), topics",
                                    placed=True)
            bad = set(topics) - valid_topics if valid_topics is not None else set()
            if bad or (rel == "none" and topics):
                raise LabelMapError(f"{where}: unknown topic(s) {sorted(bad)}" if bad
                                    else f"{where}: a 'none' paper carries no topics", placed=True)
            if aid in out:
                raise LabelMapError(f"{where}: {aid} is labelled twice", placed=True)
            if "stratum" in row and row["stratum"] not in STRATA:
                raise LabelMapError(f"{where}: stratum {row['stratum']!r}: one of {', '.join(STRATA)}", placed=True)
            out[aid] = (rel, tuple(sorted(topics)))
        return out

    def digest(self) -> str:
        """The file's SHA-256, shortened: which labels a model was trained (or kept) against."""
        return hashlib.sha256(self.path.read_bytes()).hexdigest()[:16]

    def strata(self) -> dict[str, str]:
        """``{arxiv_id: stratum}`` of the lines that name one (``"stratum"``: how the paper was drawn)."""
        out = {}
        for line in self._lines():
            row = json.loads(line) if line.strip() else None
            if isinstance(row, dict) and isinstance(row.get("stratum"), str):
                out[str(row.get("arxiv_id"))] = row["stratum"]
        return out

    def _lines(self) -> list[str]:
        """The file's lines, decoded. A file that is not UTF-8 is one ``file:line`` line through kb's one helper
        (``utf8_error``, as the label map itself), never the decoder's traceback; an editor's byte-order mark
        is no part of the first line."""
        try:
            text = self.path.read_bytes().decode("utf-8").removeprefix("\ufeff")
        except UnicodeDecodeError as e:
            raise LabelMapError(str(utf8_error(self.path, e)), placed=True) from None
        except OSError as e:
            raise LabelMapError(f"{self.path}: cannot read: {e.strerror}", placed=True) from None
        return text.split("\n")   # JSON lines: a U+2028 inside a string is no line break


@dataclass
class LabelMap:
    """The parsed label map. ``topics`` is the set of valid slugs, for checking."""

    lists: dict[str, ListRules]
    abstract_sources: dict[str, dict[str, str]]
    patterns: dict[str, re.Pattern]
    topic_patterns: dict[str, re.Pattern]
    random_negative_selections: tuple[str, ...] = ()
    systems_negatives: SystemsNegatives | None = None
    labelled: TeamLabelled | None = None
    held_out: TeamLabelled | None = None
    path: str = ""
    raw_text: str = field(default="", repr=False)

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: str | Path, valid_topics: set[str] | None = None) -> LabelMap:
        """Read ``label_map.toml``; topics are checked against ``valid_topics`` when given. A mistake in it is a
        ``LabelMapError`` (a ConfigError, exit 2): ``<file>: <table.key>: what is wrong``."""
        text, raw = read_toml_file(Path(path))   # as kb.toml and the taxonomy are read
        try:
            lm = cls._parse(raw, text, Path(path))
            if valid_topics is not None:
                lm.check_topics(valid_topics)
        except LabelMapError as e:
            if e.placed:
                raise
            raise LabelMapError(f"{path}: {e}", placed=True) from None
        return lm

    @classmethod
    def _parse(cls, raw: dict[str, Any], text: str, path: Path) -> LabelMap:
        patterns = {k: _regex(v, f"patterns.{k}") for k, v in _table(raw, "patterns", "patterns").items()}
        tpat = {k: _regex(v, f"topic_patterns.{k}")
                for k, v in _table(raw, "topic_patterns", "topic_patterns").items()}
        lists: dict[str, ListRules] = {}
        for name, body in _table(raw, "lists", "lists").items():
            where = f"lists.{name}"
            body = _as_table(body, where)
            use = body.get("use", "train")
            if use not in USES:
                raise LabelMapError(f"{where}.use: must be one of {USES}, got {use!r}")
            default = _rule(body["default"], f"{where}.default", patterns) if "default" in body else None
            rules = tuple(_rule(r, f"{where}.rules[{i}]", patterns)
                          for i, r in enumerate(body.get("rules", [])))
            lists[name] = ListRules(name, str(body.get("licence", "unknown")), use, default, rules)
        abstracts = _table(raw, "abstracts", "abstracts")
        sources = {k: {"licence": str(v.get("licence", "unknown")), "use": v.get("use", "train")}
                   for k, v in ((k, _as_table(v, f"abstracts.sources.{k}"))
                                for k, v in _table(abstracts, "sources", "abstracts.sources").items())}
        for k, v in sources.items():
            if v["use"] not in USES:
                raise LabelMapError(f"abstracts.sources.{k}.use: must be one of {USES}")
        return cls(lists, sources, patterns, tpat, tuple(abstracts.get("random_negative_selections", ())),
                   _systems_negatives(abstracts.get("systems_negatives")),
                   _labelled(abstracts.get("labelled"), path.parent),
                   _labelled(abstracts.get("held_out"), path.parent, "abstracts.held_out"), str(path), text)

    def check_topics(self, valid: set[str]) -> None:
        for name, lr in self.lists.items():
            for r in ((lr.default,) if lr.default else ()) + lr.rules:
                bad = set(r.topics) - valid
                if bad:
                    raise LabelMapError(f"lists.{name}: unknown topic(s) {sorted(bad)}")
        bad = set(self.topic_patterns) - valid
        if bad:
            raise LabelMapError(f"topic_patterns: unknown topic(s) {sorted(bad)}")
        for team in (self.labelled, self.held_out):
            if team is not None:
                team.load(valid)
        if self.labelled is not None and self.held_out is not None:
            both = sorted(self.labelled.load().keys() & self.held_out.load().keys())
            if both:
                raise LabelMapError(f"abstracts.held_out: {both[0]} is also trained on (abstracts.labelled)"
                                    + (f", and {len(both) - 1} more" if len(both) > 1 else ""))

    def with_policy(self, policy: str) -> LabelMap:
        """``"default"``: as written; ``"permissive"``: only MIT/Apache/CC0/BSD sources train."""
        if policy == "default":
            return self
        if policy != "permissive":
            raise LabelMapError(f"unknown licence policy {policy!r}")
        lists = {k: (v if v.use != "train" or _PERMISSIVE.match(v.licence) else
                     ListRules(v.name, v.licence, "eval", v.default, v.rules)) for k, v in self.lists.items()}
        sources = {k: (v if v["use"] != "train" or _PERMISSIVE.match(v["licence"]) else
                       {**v, "use": "eval"}) for k, v in self.abstract_sources.items()}
        return LabelMap(lists, sources, self.patterns, self.topic_patterns,
                        self.random_negative_selections, self.systems_negatives, self.labelled,
                        self.held_out, self.path, self.raw_text)

    # ------------------------------------------------------------------ labelling
    def label(self, row: dict[str, Any]) -> tuple[str, tuple[str, ...]] | None:
        """``(relevance, topics)`` for a curated row, ``None`` if skipped or unmapped."""
        lr = self.lists.get(row.get("list", ""))
        if lr is None or lr.use == "exclude":
            return None
        rule = next((r for r in lr.rules if r.matches(row)), lr.default)
        if rule is None or rule.relevance == "skip":
            return None
        title = row.get("title") or ""
        rel = rule.relevance
        if rule.promote and rel != "primary" and self.patterns[rule.promote].search(title):
            rel = "primary"
        elif rule.demote and rel == "primary" and self.patterns[rule.demote].search(title):
            rel = "adjacent"
        topics = set(rule.topics)
        if rel != "none":
            topics |= {slug for slug, pat in self.topic_patterns.items() if pat.search(title)}
        else:
            topics = set()                      # "none" carries no tags (kb's contract)
        return rel, tuple(sorted(topics))


def held_out_digest(label_map: str | Path | None = None) -> str | None:
    """A digest of the label map's ``[abstracts.held_out]`` file (the shipped map's by default), or None without
    one: ``kb train`` records it in the model, so that measuring a model on them can check it held them out."""
    if label_map is None:
        from kb.resources import find_resource
        label_map = find_resource("data/label_map.toml")
    lm = LabelMap.load(label_map)
    if lm.held_out is None:
        return None
    lm.held_out.load()   # a file the table names but that is missing or malformed is said so, in one line
    return lm.held_out.digest()


def merge(labels: list[tuple[str, tuple[str, ...]]]) -> tuple[str, tuple[str, ...]]:
    """One paper, several curators: the relevance most of its placements give (a tie goes
    to the higher level), and the union of the topics of its relevant placements.

    A vote rather than the maximum: one generous section (a QAT paper inside a list's
    "Quantization" chapter) should not outvote two curators who filed it under training."""
    votes = Counter(r for r, _ in labels)
    rel = max(votes, key=lambda r: (votes[r], _RANK[r]))
    topics: set[str] = set()
    if rel != "none":
        for r, t in labels:
            if r != "none":
                topics.update(t)
    return rel, tuple(sorted(topics))


def _table(parent: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    """``parent[key]``, a table (empty when missing)."""
    return _as_table(parent.get(key, {}), where)


def _as_table(value: Any, where: str) -> dict[str, Any]:
    """``value`` when it is a table; one of another kind (``lists.x = 3``) is named, never an AttributeError."""
    if not isinstance(value, dict):
        raise LabelMapError(f"{where}: a table is needed, not a {type(value).__name__}")
    return value


def _regex(value: Any, where: str) -> re.Pattern:
    if not isinstance(value, str):
        raise LabelMapError(f"{where}: a regex string is needed")
    try:
        return re.compile(value, re.IGNORECASE)
    except re.error as e:
        raise LabelMapError(f"{where}: bad regex: {e}") from None


def _systems_negatives(body: dict[str, Any] | None) -> SystemsNegatives | None:
    if body is None:
        return None
    where = "abstracts.systems_negatives"
    body = _as_table(body, where)
    unknown = set(body) - {"categories", "selections", "llm_terms", "weight"}
    if unknown:
        raise LabelMapError(f"{where}: unknown key(s) {sorted(unknown)}")
    for k in ("categories", "selections", "llm_terms"):
        if k not in body:
            raise LabelMapError(f"{where}.{k}: missing")
    weight = body.get("weight", 1.0)
    if not isinstance(weight, (int, float)) or weight <= 0:
        raise LabelMapError(f"{where}.weight: a positive number is needed")
    return SystemsNegatives(frozenset(body["categories"]), tuple(body["selections"]),
                            _regex(body["llm_terms"], f"{where}.llm_terms"), float(weight))


def _labelled(body: dict[str, Any] | None, base: Path, where: str = "abstracts.labelled") -> TeamLabelled | None:
    """``[abstracts.labelled]`` (trained on, with a ``weight``) or ``[abstracts.held_out]`` (only measured, so
    no weight)."""
    if body is None:
        return None
    body = _as_table(body, where)
    unknown = set(body) - ({"file", "weight"} if where == "abstracts.labelled" else {"file"})
    if unknown:
        raise LabelMapError(f"{where}: unknown key(s) {sorted(unknown)}")
    name = body.get("file")
    # a file beside the label map, never a path elsewhere
    if not isinstance(name, str) or not name or Path(name).name != name:
        raise LabelMapError(f"{where}.file: the name of a file beside the label map is needed")
    weight = body.get("weight", 1.0)
    if not isinstance(weight, (int, float)) or weight <= 0:
        raise LabelMapError(f"{where}.weight: a positive number is needed")
    return TeamLabelled(base / name, float(weight), where)


def _rule(body: dict[str, Any], where: str, patterns: dict[str, re.Pattern]) -> Rule:
    body = _as_table(body, where)
    rel = body.get("relevance")
    if rel not in (*LEVELS, "skip"):
        raise LabelMapError(f"{where}.relevance: must be primary/adjacent/none/skip, got {rel!r}")
    for k in ("promote", "demote"):
        if body.get(k) is not None and body[k] not in patterns:
            raise LabelMapError(f"{where}.{k}: no pattern {body[k]!r} in [patterns]")
    unknown = set(body) - {"relevance", "topics", "section", "file", "badge", "title", "promote", "demote"}
    if unknown:
        raise LabelMapError(f"{where}: unknown key(s) {sorted(unknown)}")
    return Rule(
        relevance=rel, topics=tuple(body.get("topics", ())),
        section=_regex(body["section"], f"{where}.section") if "section" in body else None,
        file=_regex(body["file"], f"{where}.file") if "file" in body else None,
        badge=_regex(body["badge"], f"{where}.badge") if "badge" in body else None,
        title=_regex(body["title"], f"{where}.title") if "title" in body else None,
        promote=body.get("promote"), demote=body.get("demote"),
    )
