"""Judgements of texts kept between nights, in ``.kb/cache/judged.json``.

A briefing judges texts the classify stage does not store: what the doc's anchors say (to tell what
each section holds), an item's text merged from its sources (a paper with a note and a card), and a
paper the stage has not tagged yet, as the stage would store it (``recall``, under ``stage_key``).
Most of them are the same tonight as last night, so their judgements are kept, one set per doc,
under the classifier's hash (``Engine.hash``: the taxonomy, the model and each doc's labels); a
night judges only texts it has not seen. A judgement read back is exactly the one computed: both
are a ``Judged``, what the briefing reads of a classification. The learned classifier's section
rankings of the items are kept the same way, under the doc's sections as the ranking read them
(``wrap_suggest``): a night whose items and doc are last night's fits no section model.

The file is only ever a shortcut: missing, damaged, written by another classifier or impossible to
write (a member who may only read ``.kb/``), it means judging again, never a failed briefing.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.cachefile import read_cache, write_cache
from kb.labels import LEVELS
from kb.records import Tag

Suggest = Callable[[str, str, set[str]], list[str]]

MEMO_FILE = ".kb/cache/judged.json"
FORMAT = 1   # the file's layout; another one is read as empty


@dataclass(frozen=True)
class Judged:
    """What a briefing reads of a classification: relevance, tags, and the topics below their threshold."""

    relevance: str
    tags: list[Tag] = field(default_factory=list)
    below_threshold: list[Tag] = field(default_factory=list)

    @classmethod
    def of(cls, result: Any) -> Judged:
        """The ``Judged`` of either classifier's result, as ``from_json`` reads it back (tuples of terms)."""
        return cls(result.relevance, [_tag(_tag_json(t)) for t in result.tags],
                   [_tag(_tag_json(t)) for t in getattr(result, "below_threshold", [])])

    def to_json(self) -> list[Any]:
        return [self.relevance, [_tag_json(t) for t in self.tags], [_tag_json(t) for t in self.below_threshold]]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Judged:
        rel, tags, below = raw
        return cls(rel, [_tag(t) for t in tags], [_tag(t) for t in below])


def _tag_json(t: Tag) -> list[Any]:
    return [t.topic, t.score, list(t.terms)]


def _tag(raw: list[Any]) -> Tag:
    topic, score, terms = raw
    # well-formed JSON of the wrong kinds (a score "2.5") would fail the briefing that reads it
    if not (isinstance(topic, str) and isinstance(score, (int, float)) and not isinstance(score, bool)
            and isinstance(terms, list) and all(isinstance(w, str) for w in terms)):
        raise TypeError("not a tag")
    return Tag(topic, score, tuple(terms))


class JudgedTexts:
    """One doc's judgements of texts under one classifier: ``wrap`` a classify function to use them,
    ``save`` to keep tonight's (only those used tonight: the file does not grow with the store)."""

    def __init__(self, root: Path | None, engine_hash: str, doc: str) -> None:
        self.root, self.doc = root, doc
        # the classifier's hash says which taxonomy, model and labels judged; the code that judges with them
        # changes with an upgrade of kb that leaves all three as they were
        self.engine_hash = f"{engine_hash}:{code_digest()}"
        self._file = _read(root)
        if self._file.get("engine") != self.engine_hash:
            self._file = {"format": FORMAT, "engine": self.engine_hash, "docs": {}}
        self._known: dict[str, list[Any]] = self._file["docs"].get(doc, {})
        self._used: dict[str, list[Any]] = {}
        self._known_ranked: dict[str, Any] = self._file.setdefault("ranked", {}).get(doc, {})
        self._used_ranked: dict[str, list[str]] = {}

    def wrap(self, classify: Callable[..., Any], correction: Any = None) -> Callable[..., Judged]:
        """``classify`` (``f(text, title=…, …)``) answering from the kept judgements first. ``correction``:
        the team's correction ``classify`` applies (``Engine.correction``), part of what is judged."""
        def run(text: str, *, title: str = "", primary_category: str | None = None,
                hints: Iterable[str] = (), taxonomy: Any = None) -> Judged:
            hints = tuple(hints)
            key = _key(text, title, primary_category, hints, correction)
            raw = self._used.get(key) or self._known.get(key)
            judged = _parse(raw)
            if judged is None:
                judged = Judged.of(classify(text, title=title, primary_category=primary_category, hints=hints,
                                            taxonomy=taxonomy))
                raw = judged.to_json()
            self._used[key] = raw
            return judged
        return run

    def wrap_suggest(self, identity: str, make: Callable[[], Suggest]) -> Suggest:
        """A section suggester (``f(title, text, sections) → section numbers``) answering from the kept
        rankings first. ``identity`` names what the rankings read of the doc (its headings and anchored
        items); ``make`` builds the real suggester, only when a ranking is missing."""
        built: list[Suggest] = []

        def suggest(title: str, text: str, sections: set[str]) -> list[str]:
            key = _key(text, title, identity, tuple(sorted(sections)), None)
            raw = self._used_ranked.get(key, self._known_ranked.get(key))
            if not _a_ranking_of(raw, sections):
                if not built:
                    built.append(make())
                raw = list(built[0](title, text, sections))
            self._used_ranked[key] = raw
            return list(raw)
        return suggest

    def recall(self, keys: list[str], judge: Callable[[list[int]], list[Judged]]) -> list[Judged]:
        """The kept judgement of each of ``keys`` (``stage_key``); those without one judged together, by
        ``judge(their indexes in keys)`` (one batch, as the classify stage judges)."""
        found = [_parse(self._used.get(k) or self._known.get(k)) for k in keys]
        missing = [n for n, j in enumerate(found) if j is None]
        for n, j in zip(missing, judge(missing) if missing else []):
            found[n] = j
        out: list[Judged] = []
        for k, j in zip(keys, found):
            if j is None:   # ``judge`` gave fewer than asked: a bug, never a judgement left out silently
                raise ValueError("a text was not judged")
            self._used[k] = j.to_json()
            out.append(j)
        return out

    def save(self) -> None:
        """Keep tonight's judgements of this doc, when they differ from the file's."""
        if self.root is None or (self._used == self._known and self._used_ranked == self._known_ranked):
            return
        self._file["docs"][self.doc] = self._used
        self._file["ranked"][self.doc] = self._used_ranked
        write_cache(self.root, MEMO_FILE, self._file, what="judgements")   # lost, it only means judging again
        self._known, self._known_ranked = self._used, self._used_ranked


# The modules whose code decides a judgement (either classifier, the features, a doc's adaptation, sections).
JUDGING_MODULES = ("pipeline.classify.classifier", "pipeline.classify.matcher", "pipeline.classify.engine",
                   "pipeline.classify.model", "pipeline.classify.features", "pipeline.classify.adapt",
                   "pipeline.classify.sections",
                   "pipeline.classify.stage", "kb.store.tags",   # these two: what the stage stores, as read back
                   "kb.text")   # the stemmer every feature goes through (features.py)


def code_digest() -> str:
    """A digest of the source of ``JUDGING_MODULES``: kept judgements are never read back by other code."""
    return source_digest(JUDGING_MODULES)


@functools.cache
def source_digest(modules: tuple[str, ...]) -> str:
    """A digest of the source of ``modules``, found without importing them (the learned model's import
    numpy): what a cache keeps is read back only by the code that made it."""
    h = hashlib.blake2b(digest_size=8)
    for name in modules:
        spec = importlib.util.find_spec(name)
        try:
            h.update(Path(spec.origin).read_bytes() if spec and spec.origin else name.encode())
        except OSError:   # no source to read (a frozen install): the module's name only
            h.update(name.encode())
    return h.hexdigest()


def stage_key(title: str, text: str, category: str | None, correction: Any) -> str:
    """The key of a text's judgement as the classify stage stores it (``JudgedTexts.recall``): another key than
    ``wrap``'s of the same text, whose judgement is the briefing's own (unrounded, with every matched term)."""
    return _key(text, title, category, (), correction, kind="stage")


def _key(text: str, title: str, category: str | None, hints: tuple[str, ...], correction: Any, *,
         kind: str = "") -> str:
    parts = [title, text, category or "", "\x1e".join(hints), json.dumps(correction)] + ([kind] if kind else [])
    return hashlib.blake2b("\x1f".join(parts).encode("utf-8"), digest_size=16).hexdigest()


def _a_ranking_of(raw: Any, sections: set[str]) -> bool:
    """Is ``raw`` a ranking of ``sections`` (section numbers, each one of them)? A kept ranking always is (the
    key holds ``sections``); anything else was damaged by another hand, and a section the doc does not have
    would be the briefing's suggestion ("§9.9"), so it is ranked again."""
    return isinstance(raw, list) and all(isinstance(s, str) and s in sections for s in raw)


def _parse(raw: Any) -> Judged | None:
    if raw is None:
        return None
    try:
        judged = Judged.from_json(raw)
    except (TypeError, ValueError):   # an entry another hand damaged: judge again
        return None
    # well-formed JSON of the wrong kinds (a score "2.5", a relevance kb does not know) would fail the
    # briefing that reads it, where judging again costs one classification
    return judged if judged.relevance in LEVELS else None


def _read(root: Path | None) -> dict[str, Any]:
    raw = read_cache(root, MEMO_FILE) if root is not None else None
    ok = isinstance(raw, dict) and raw.get("format") == FORMAT and isinstance(raw.get("docs"), dict)
    ok = ok and all(isinstance(v, dict) for v in raw["docs"].values())
    ranked = raw.get("ranked", {}) if ok else None
    if ok and not (isinstance(ranked, dict) and all(isinstance(v, dict) for v in ranked.values())):
        raw["ranked"] = {}   # damaged rankings only: the judgements stay good
    return raw if ok else {}
