"""The team's own labels, per knowledge doc: anchors, cards and corrections as ``Labelled`` items.

* **anchors** of a doc are positives for that doc (``primary``), with their section; the
  other docs' anchors are its membership head's negatives (``docmodels.with_cross_negatives``);
* **cards** carry the team's topics (every doc's topic heads learn from them) and, with
  ``primary_topic``, a relevance — for the docs that anchor the card's paper, or, when none
  does, for the workspace's main doc (the first of kb.toml), since a card does not say which
  doc it judged for;
* **corrections** (``kb label``, ``organized/labels/<doc>.jsonl``) say what an item is for
  one doc; they win over the rest and weigh the most.

Texts come from the store (a paper's title and abstract, a note entry's heading and text), so
an item the store does not hold yet is left out until it does.
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Collection, Sequence
from typing import Any

from kb.arxiv_id import find_impossible_ids, lookup_arxiv_id
from kb.errors import ConfigError
from kb.labels import card_speaks_for, read_labels, unread_labels_files
from kb.store.anchors import current_anchors
from kb.store.cards import card_labels
from kb.store.posts import post_keys_by_url
from kb.store.tags import subject_text
from kb.text import bytes_escaped, clean_heading, normalize_url, shortened, strip_anchor_syntax
from pipeline.classify.adapt import Labelled

log = logging.getLogger(__name__)

ANCHOR_WEIGHT = 1.0
CARD_WEIGHT = 1.0
CORRECTION_WEIGHT = 3.0      # a person looked at this item for this doc: it counts for three anchors


def refuse_unknowable_ident(ident: str) -> None:
    """A usage error (exit 2) for an ID argument no item can have: blank (an unset shell variable), or an arXiv
    ID no paper can have (``2699.99999``, month 99); "not in the store" (exit 1) is for one that could be."""
    if not ident.strip():
        raise ConfigError("give an ID: an arXiv ID, a post key or a note entry as path#N")
    if (shown := bytes_escaped(ident)) != ident:   # a Latin-1 terminal's bytes: an internal error further on
        raise ConfigError(f"'{shortened(shown, 80)}' is not UTF-8 text (the terminal's encoding?)")
    # the argument is an ID by intent: read as one written "arXiv:…", as the notes' rule reads it
    impossible = find_impossible_ids(f"arXiv:{ident.strip()}") if lookup_arxiv_id(ident) is None else []
    if impossible:
        raise ConfigError(f"{shortened(ident, 80)!r} is not an arXiv ID ({impossible[0][1]}): no paper can have it")


def subject_of(store: Any, ident: str, post_urls: dict[str, str] | None = None) -> tuple[str, str, str, str] | None:
    """``(kind, key, title, text)`` of a paper (any ID form), note entry (path#N), post key or post URL in the
    store; ``post_urls`` (``post_keys_by_url``), when a caller looks up many, is read once by it."""
    aid = lookup_arxiv_id(ident)
    candidates = [("paper", aid.id)] if aid else [("entry", ident), ("post", ident)]
    if not aid and "://" in ident:   # a post as the briefing links it ("https://…", or "feed|https://…")
        url = ident[ident.index("|") + 1:] if "|" in ident.split("://")[0] else ident
        if (key := (post_urls if post_urls is not None else post_keys_by_url(store)).get(normalize_url(url))):
            candidates.append(("post", key))
    for kind, key in candidates:
        s = subject_text(store, kind, key)
        if s is not None:
            title = clean_heading(s.title) if kind == "entry" else s.title
            return kind, s.key, title or "", s.text or ""
    return None


def doc_labels(store: Any, workspace: Any, docs: Sequence[str], topics: Collection[str] | None = None
               ) -> dict[str, list[Labelled]]:
    """Each doc's labelled items (anchors, cards, corrections), later sources winning per item. A hand-written
    correction is held to what ``kb label`` checks (with ``topics``, the model's): a topic it does not
    know, and topics on a ``none``, are left out with one warning."""
    anchors = {d: current_anchors(store, d) for d in docs}
    anchored_in: dict[str, set[str]] = {}
    for d in docs:
        for a in anchors[d]:
            if a.arxiv_id:
                anchored_in.setdefault(a.arxiv_id, set()).add(d)
    cards = card_labels(store)
    post_urls: dict[str, str] | None = None   # read once, when a correction names a post by its link
    out: dict[str, list[Labelled]] = {}
    for d in docs:
        items: dict[str, Labelled] = {}
        for a in anchors[d]:
            # the line's URL, ID and "(anchored 2026-10-08)" are how it anchors, not what the paper is about:
            # kept, a doc learned its anchoring dates' digits as words of the doc
            title = a.title or strip_anchor_syntax(a.label)
            if not (title or a.abstract):   # a bare "2610.01234 (anchored …)" line: no words to learn from
                continue
            key = a.arxiv_id or a.subject
            items[key] = Labelled(title, a.abstract or "", "primary", None, a.section, ANCHOR_WEIGHT, key, "anchor")
        for c in cards:
            key = c.arxiv_id or c.title
            where = anchored_in.get(c.arxiv_id or "", set())
            mine = card_speaks_for(d in where, bool(where - {d}), d == docs[0])
            rel = ("primary" if c.primary else "adjacent") if (mine and c.primary is not None) else None
            if rel is None and key in items:
                rel = items[key].relevance            # an anchor's relevance, with the card's topics
            if rel is None and not c.topics:
                continue
            section = items[key].section if key in items else None
            text = c.abstract or c.body
            items[key] = Labelled(c.title, text, rel, tuple(c.topics) or None, section, CARD_WEIGHT, key, "card")
        problems: list[str] = []
        corrections = read_labels(workspace, d, problems)
        for problem in problems:
            _warn_once(workspace.root, problem)
        for corr in corrections:
            if post_urls is None and "://" in corr.id:
                post_urls = post_keys_by_url(store)
            found = subject_of(store, corr.id, post_urls)
            if found is None:
                continue
            kind, key, title, text = found
            section = items[key].section if key in items else None
            items[key] = Labelled(title, text, corr.relevance, _checked_topics(workspace, d, corr, topics),
                                  section, CORRECTION_WEIGHT, key, "correction")
        out[d] = list(items.values())
    for path, slug in unread_labels_files(workspace, docs):
        _warn_once(workspace.root, f"{path}: no knowledge doc {slug!r} in kb.toml ({', '.join(docs)}): "
                                   "its corrections are not read")
    return out


def _checked_topics(workspace: Any, doc: str, corr: Any, known: Collection[str] | None) -> tuple[str, ...] | None:
    """A correction's topics, less those ``kb label`` would refuse or the model cannot learn (named once);
    None (the relevance alone is labelled) when none is left, so the model's own topics stand."""
    if corr.topics is None:
        return None
    where = f"organized/labels/{doc}.jsonl{f':{corr.line}' if corr.line else ''}: {corr.id}"
    if corr.relevance == "none" and corr.topics:
        _warn_once(workspace.root, f"{where}: relevance none keeps no topics; its topics are left out")
        return ()
    unknown = [t for t in corr.topics if known is not None and t not in known]
    for t in unknown:
        _warn_once(workspace.root, f"{where}: topic {t!r} is no topic of the model; left out")
    kept = tuple(t for t in corr.topics if t not in unknown)
    return kept if kept or not corr.topics else None


_WARNED: set[tuple[Any, str]] = set()   # a night reads the labels for classify and for the briefing: say it once


def _warn_once(root: Any, problem: str) -> None:
    if (root, problem) not in _WARNED:
        _WARNED.add((root, problem))
        log.warning("%s", problem)


def labels_digest(items: Sequence[Labelled]) -> str:
    """A short hash of a doc's labelled items: the doc model is rebuilt when it changes."""
    blob = json.dumps([[i.id, i.title, i.text, i.relevance, list(i.topics) if i.topics is not None else None,
                        i.section, i.weight, i.origin] for i in items], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]
