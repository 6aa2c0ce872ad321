"""The claims read from texts, kept between nights in ``.kb/cache/claims.json``.

Reading the claims of every text of a night (``claims.claims_in``) is most of what the number rule
costs, and most of a night's texts are last night's: the doc's own figures, the papers still in the
window, the team's notes. A text's claims are kept under a digest of the text and of what reads it
(the ``[quantities]``, ``[said_of]`` and ``[claim_words]`` of data/briefing.toml and the code of
``READING_MODULES``), so a claim read back is exactly the one read again. Each doc's briefing keeps
the texts it read tonight, one set per doc (a night briefs each doc in turn: one doc's save never drops
another's texts), and a text any doc read is read back by all: the file follows the nights, not the
store. A symlink in the file's place is replaced, never written through. Like the kept judgements
(``pipeline.classify.memo``) it is only ever a shortcut: missing, damaged, from another kb or
impossible to write, it means reading again.
"""
from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from kb.cachefile import read_cache, write_cache
from pipeline.brief.claim_words import ClaimWords, SaidOf
from pipeline.brief.claims import Claim
from pipeline.classify.memo import source_digest

CLAIMS_FILE = ".kb/cache/claims.json"
# the file's layout (2: one set of texts per doc; 3: a factor's named baseline); another one is read as empty
FORMAT = 4
# The modules whose code decides a text's claims: ``claims_in`` and what it reads names and baselines with.
# Every module of kb's that ``claims`` imports, directly or not (a test checks the list is whole).
READING_MODULES = ("pipeline.brief.claims", "pipeline.brief.claim_quantity", "pipeline.brief.claim_forms",
                   "pipeline.brief.claim_words", "pipeline.brief.conditions", "pipeline.brief.entities",
                   "pipeline.brief.words",
                   "pipeline.brief.model", "kb.names", "kb.arxiv_id", "kb.text", "kb.records")

Read = Callable[..., list[Claim]]   # (text, where, about=None) → its claims (``Facts.read_claims``)


class KeptClaims:
    """Claims of texts kept between nights: ``wrap`` a reader to use them, ``save`` to keep tonight's."""

    def __init__(self, root: Path | None, quantities: dict[str, str], said_of: SaidOf, words: ClaimWords, *,
                 doc: str) -> None:
        self.root, self.doc = root, doc
        self.reader = _reader_digest(quantities, said_of, words)
        raw = _read(root)
        self._docs: dict[str, dict[str, Any]] = raw["docs"] if raw.get("reader") == self.reader else {}
        self._known: dict[str, list[list[Any]]] = self._docs.get(doc, {})
        # what any doc read: the claims of a text do not depend on the doc that reads it
        self._any = {k: v for texts in self._docs.values() for k, v in texts.items()} | self._known
        self._used: dict[str, list[list[Any]]] = {}

    def wrap(self, read: Read) -> Read:
        """``read`` (``f(text, where, about=None) → claims``) answering from the kept claims first: a text's claims
        are kept under the text and the system it is about (a paper's abstract is read as about the paper)."""
        def claims(text: str, where: str, about: str | None = None) -> list[Claim]:
            keyed = text if about is None else f"{about}\x00{text}"
            key = hashlib.blake2b(keyed.encode("utf-8"), digest_size=16).hexdigest()
            raw = self._used.get(key, self._any.get(key))
            found = _parse(raw, where)
            if found is None:
                found = read(text, where, about)
                raw = [[c.subject, c.quantity, c.unit, c.value, c.written, c.over, *c.span, c.implied] for c in found]
            self._used[key] = raw
            return found
        return claims

    def save(self) -> None:
        """Keep tonight's claims of this doc's texts (the other docs' as the file holds them), when they differ."""
        if self.root is None or self._used == self._known:
            return
        docs = self._docs | {self.doc: self._used}
        write_cache(self.root, CLAIMS_FILE, {"format": FORMAT, "reader": self.reader, "docs": docs}, what="claims")
        self._docs, self._known = docs, self._used


def _reader_digest(quantities: dict[str, str], said_of: SaidOf, words: ClaimWords) -> str:
    config = json.dumps([sorted(quantities.items()), asdict(said_of), asdict(words)], sort_keys=True, default=sorted)
    # Python's regular expressions and Unicode data read the texts too: another Python reads them again
    code = f"{source_digest(READING_MODULES)}:{sys.version}:{unicodedata.unidata_version}"
    return hashlib.blake2b(f"{config}:{code}".encode(), digest_size=16).hexdigest()


def _parse(raw: Any, where: str) -> list[Claim] | None:
    """The claims ``raw`` holds, said in ``where``; None for anything but a list of well-formed claims."""
    if not isinstance(raw, list):
        return None
    out = []
    for c in raw:
        if not (isinstance(c, list) and len(c) == 9 and all(x is None or isinstance(x, str) for x in (c[0], c[5]))
                and all(isinstance(x, str) for x in (c[1], c[2], c[4]))
                and isinstance(c[3], (int, float)) and not isinstance(c[3], bool)
                and all(type(x) is int for x in c[6:8]) and isinstance(c[8], bool)):
            return None   # damaged by another hand: read the text again
        out.append(Claim(c[0], c[1], c[2], float(c[3]), c[4], where, c[5], (c[6], c[7]), c[8]))
    return out


def _read(root: Path | None) -> dict[str, Any]:
    raw = read_cache(root, CLAIMS_FILE) if root is not None else None
    ok = (isinstance(raw, dict) and raw.get("format") == FORMAT and isinstance(raw.get("docs"), dict)
          and all(isinstance(texts, dict) for texts in raw["docs"].values()))
    return raw if ok else {}
