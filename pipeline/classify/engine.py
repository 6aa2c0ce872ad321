"""The classifier a workspace uses (``[classify] model`` in kb.toml), with one adapted model per knowledge doc.

* ``learned`` (``[classify] model = "learned"``): the shipped linear model (``data/classifier_model.npz``, trained by
  ``kb train``; a workspace may name its own with ``[classify] model_file``) for topic tags and
  a doc-independent relevance, and for each knowledge doc that model adapted to the doc's
  anchors, cards and corrections (``pipeline.classify.docmodels``) for the relevance *to that
  doc* — what its briefing keeps;
* ``keyword`` (the default, until the learned model keeps unrelated papers out of a nightly stream
  as well as it does: ``docs/classify.md``): the taxonomy's hand-weighted term scorer
  (``pipeline.classify.classifier``), the same for every doc; the benchmark's baseline.

``Engine.hash`` is what the classify stage stores with every result: it changes with the base
model and with any doc's labels, so a subject classified under another hash is re-tagged.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, KBError

log = logging.getLogger(__name__)

MODEL_FILE = "data/classifier_model.npz"
CHOICES = ("learned", "keyword")

_LOADED: dict[tuple[str, float], Any] = {}      # (path, mtime) → Model: loaded once per process

TagTriple = tuple[str, float, list[str]]


@dataclass
class Judgement:
    """One subject's classification, compact: what the classify stage stores."""

    relevance: str
    tags: list[TagTriple]
    docs: dict[str, tuple[str, list[TagTriple]]] = field(default_factory=dict)


def model_path(workspace: Any) -> Path:
    """The base model file: ``[classify] model_file`` (a workspace path), else the shipped one."""
    from kb.resources import find_resource
    own = getattr(workspace.config, "classify_model_file", None)
    if own:
        try:
            path = workspace.path(own)
        except KBError as exc:   # "…: path leads outside the workspace" said which file, not which setting
            raise ConfigError(f"kb.toml: classify.model_file: {exc}") from None
        if path.is_dir():
            raise ConfigError(f"kb.toml: classify.model_file: {own} is a folder; name the model file (kb train --out)")
        if not path.is_file():
            raise ConfigError(f"kb.toml: classify.model_file: {own} does not exist")
        return path
    try:
        return find_resource(MODEL_FILE, workspace.root)
    except KBError as exc:
        raise ConfigError(str(exc)) from exc


def load_base(path: Path) -> Any:
    """The trained model at ``path``, loaded once per process (numpy is imported here, not before)."""
    from pipeline.classify.model import Model, ModelError
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError as exc:
        raise ConfigError(f"model file {path}: {exc.strerror}") from None
    if key not in _LOADED:
        try:
            _LOADED[key] = Model.load(path)
        except ModelError as exc:
            raise ConfigError(str(exc)) from exc
    return _LOADED[key]


class Engine:
    """Classify for the whole workspace (tags, base relevance) and for each of its docs."""

    def __init__(self, name: str, taxonomy: Any, base: Any = None,
                 docs: dict[str, tuple[Any, str]] | None = None) -> None:
        self.name, self.taxonomy, self.base = name, taxonomy, base
        self.docs = {d: m for d, (m, _) in (docs or {}).items()}
        keys = sorted(f"{d}={k}" for d, (_, k) in (docs or {}).items())
        ident = taxonomy.hash if base is None else f"{base.id}:{taxonomy.hash}"
        self.hash = ident if base is None else hashlib.sha256(
            "|".join([ident, *keys]).encode("utf-8")).hexdigest()[:16]

    # ------------------------------------------------------------------ one item
    def classify(self, text: str, *, title: str = "", primary_category: str | None = None,
                 hints: Iterable[str] = (), taxonomy: Any = None, doc: str | None = None,
                 explain_terms: int = 0) -> Any:
        """The classification of one text (for ``doc``: as that doc's model judges it)."""
        if self.base is None:
            from pipeline.classify.classifier import classify
            return classify(text, title=title, primary_category=primary_category, hints=hints,
                            taxonomy=self.taxonomy)
        model = self.docs.get(doc) if doc else None
        if model is not None:
            return model.classify(text, title=title, hints=hints, explain_terms=explain_terms)
        return self.base.classify(text, title=title, hints=hints, explain_terms=explain_terms)

    def for_doc(self, doc: str, keys: Iterable[str] = ()):
        """``classify`` as the briefing of ``doc`` calls it: ``f(text, title=…, taxonomy=…, …)``. With the
        item's ``keys`` (its arXiv IDs, entry keys), a team correction of one of them decides."""
        fixed = self.correction(doc, keys)

        def run(text: str, *, title: str = "", primary_category: str | None = None,
                hints: Iterable[str] = (), taxonomy: Any = None) -> Any:
            result = self.classify(text, title=title, primary_category=primary_category, hints=hints, doc=doc)
            if fixed is not None:
                from kb.records import Tag
                rel, topics = fixed
                scores = {t.topic: t for t in result.tags}
                result.relevance = rel
                result.tags = [] if rel == "none" else result.tags if topics is None else [
                    scores.get(t, Tag(t, 1.0, ())) for t in topics]
            return result
        return run

    def correction(self, doc: str, keys: Iterable[str] = ()) -> tuple[str, tuple[str, ...] | None] | None:
        """The team's correction (``kb label``) of the first of ``keys`` that has one, for ``doc``:
        ``(relevance, topics or None)``; None without one (and always in keyword mode)."""
        model = self.docs.get(doc)
        return next((model.overrides[k] for k in keys if k in model.overrides), None) if model else None

    # ------------------------------------------------------------------ batches
    def judge_many(self, items: Sequence[tuple[str, str, str | None, Sequence[str]]],
                   keys: Sequence[str] | None = None) -> list[Judgement]:
        """``(title, text, category, hints)`` → a ``Judgement`` each: one feature pass for the base model
        and every doc model (the classify stage's hot path). ``keys`` (the subjects' store keys) let a
        doc's corrections decide their own items."""
        if self.base is None:
            out = []
            for title, text, category, hints in items:
                r = self.classify(text, title=title, primary_category=category, hints=hints)
                out.append(Judgement(r.relevance, [(t.topic, t.score, list(t.terms)) for t in r.tags]))
            return out
        import numpy as np
        base = self.base
        rows, idx, val = base.flat_vectors([(t, x) for t, x, _, _ in items])
        Z = base.logits_flat(len(items), rows, idx, val)
        bare = np.array([not (x or "").strip() for _, x, _, _ in items], dtype=bool)
        hints = [h for *_, h in items]
        judged = [Judgement(rel, [(t, s, []) for t, s in tags]) for rel, tags in base.decide_many(Z, bare, hints)]
        for d, model in self.docs.items():
            for n, (j, (rel, tags)) in enumerate(zip(judged, base.decide_many(model.correct(Z, rows, idx, val),
                                                                               bare, hints))):
                fixed = model.overrides.get(keys[n]) if keys and model.overrides else None
                if fixed is not None:
                    rel = fixed[0]
                    if rel == "none":
                        tags = []
                    elif fixed[1] is not None:
                        scores = dict(tags)
                        tags = [(t, scores.get(t, 1.0)) for t in fixed[1]]
                j.docs[d] = (rel, [(t, s, []) for t, s in tags])
        return judged

    # ------------------------------------------------------------------ sections
    def section_suggester(self, headings: Iterable[tuple[str, str]], anchored: Sequence[Any], doc: str | None = None,
                          kept: Any = None):
        """``f(title, text, sections) → [section numbers]``: the doc's sections nearest an item, from the
        doc's headings (``(number, title)`` in order) and its anchors (title and abstract when known, and
        the anchor's line). The keyword engine suggests by the topics' section hints. ``kept``
        (``memo.JudgedTexts``) answers the rankings it holds; the sections' models are fitted only
        for an item it does not."""
        if self.base is None:   # the keyword classifier: the briefing suggests by the item's topics
            return None
        from kb.text import strip_anchor_syntax
        from pipeline.classify.sections import SectionItem, join_headings
        items = []
        for a in anchored:
            label = strip_anchor_syntax(a.label)
            title = a.title or label
            items.append(SectionItem(a.section, a.arxiv_id or a.subject, title, a.abstract or "",
                                     label if label != title else ""))
        heads = join_headings((k.lstrip("§"), v) for k, v in headings)

        def make():
            from pipeline.classify.sections import SectionIndex, suggest_sections
            index = SectionIndex.build(self.base, heads, items) if heads else None
            return lambda title, text, sections: suggest_sections(index, title, text, sections=sections)
        if kept is None:
            return make()
        # the headings in the doc's order: sections an item scores alike are ranked in it
        identity = json.dumps([list(heads.items()), [astuple(it) for it in items]], ensure_ascii=False)
        return kept.wrap_suggest(hashlib.blake2b(identity.encode("utf-8"), digest_size=16).hexdigest(), make)

    # ------------------------------------------------------------------ why
    def explain(self, title: str, text: str, *, hints: Sequence[str] = (), category: str | None = None,
                docs: Sequence[str] = (), key: str | None = None) -> list[str]:
        """``kb explain``: the base decision with the features that made it, then each doc's."""
        if self.base is None:
            return self.classify(text, title=title, primary_category=category, hints=hints).explain()
        from pipeline.classify.explain import explain_lines
        return explain_lines(self, title, text, hints=hints, docs=docs, key=key)


WORKSPACE_TAXONOMY = "taxonomy.toml"   # a workspace's override, merged over the shipped one


def load_workspace_taxonomy(ctx: Any) -> Any:
    """The shipped taxonomy, with ``<workspace>/taxonomy.toml`` merged over it when present (once per run). A run
    that only reads (its store opened read-only: ``kb brief --preview`` or ``--out``) keeps no reading of it."""
    if ctx.taxonomy is None:
        ctx.taxonomy = workspace_taxonomy(ctx.workspace, keep=not getattr(ctx.store, "readonly", False))
    return ctx.taxonomy


def workspace_taxonomy(workspace: Any = None, *, keep: bool = True) -> Any:
    """The shipped taxonomy, with ``workspace``'s ``taxonomy.toml`` merged over it when present (as last read
    and checked, when the workspace keeps that reading: ``kept_taxonomy``). ``keep=False``: a command that only
    reads (``kb eval sections``) may read a kept reading back but writes none (it makes no ``.kb/cache``)."""
    if workspace is None:
        from pipeline.classify.taxonomy import load_taxonomy
        return load_taxonomy()
    from pipeline.classify.kept_taxonomy import load_kept_taxonomy
    override = workspace.root / WORKSPACE_TAXONOMY
    return load_kept_taxonomy(workspace.root, override if override.is_file() else None, keep=keep)


def load_engine(ctx: Any) -> Engine:
    """The run's classifier (built once per run and kept on the context)."""
    if getattr(ctx, "classifier", None) is not None:
        return ctx.classifier
    taxonomy = load_workspace_taxonomy(ctx)
    name = getattr(ctx.config, "classify_model", "keyword")
    if name == "keyword":
        if getattr(ctx.config, "classify_model_file", None):
            # a mistyped model_file is said now, not first on the night learned is chosen; unread, it stops nothing
            try:
                model_path(ctx.workspace)
            except ConfigError as exc:
                log.warning("%s (the keyword classifier reads no model)", exc)
        engine = Engine("keyword", taxonomy)
    else:
        import copy

        from pipeline.classify.docmodels import doc_models
        base = copy.copy(load_base(model_path(ctx.workspace)))   # shares the arrays; its own taxonomy
        base.taxonomy = taxonomy        # the keyword scorer's verdict (a feature) reads the workspace's
        docs = doc_models(base, ctx.store, ctx.workspace, [t.slug for t in ctx.config.topics])
        engine = Engine(name, taxonomy, base, docs)
    ctx.classifier = engine
    return engine
