"""The term matcher: finds taxonomy terms in English and Chinese text, fast.

How it works (one pass over the text, no regex per term):

* The text is lowered and cut once into a stream of tokens: Latin/digit words
  (``[a-z0-9]+``) and runs of CJK characters. Everything else (spaces, hyphens,
  slashes, punctuation) separates tokens, so ``KV-cache``, ``KV cache`` and
  ``kv_cache`` give the same tokens.
* Latin words are compared by a light stem (plural ``-s``/``-es``/``-ies``, ``-ing``,
  ``-ed``, a final ``-e``), computed for the term and for the text the same way, so
  ``caches``/``caching``/``cached`` meet ``cache`` and ``batches`` meets ``batching``.
  Words are matched whole: ``moe`` never matches inside ``moment``.
* Latin terms sit in a trie keyed by stems; the scan does one dict look-up per text
  token (memoised from the raw token) and walks the trie only at a term's first word.
  A multi-word term also matches with any of its words run together
  (``kv cache`` matches ``KVCache``, ``pre-fill`` matches ``prefill``) — so write a
  compound with a hyphen or a space to match all its spellings.
* Pure CJK terms are matched as substrings of a CJK run (Chinese has no spaces);
  terms that mix both (``PD 分离``, ``KV Cache 传输``) match a token sequence where a
  leading CJK part ends a run, a trailing CJK part starts one and a middle part is a
  whole run. CJK work is skipped entirely for ASCII text.

``TermMatcher(terms).count(text)`` returns ``{term: occurrences}`` using the terms'
own spelling as keys.
"""
from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = ["TermMatcher", "normalize_text", "stem", "tokenize", "is_cjk", "match_key", "spellings"]

_CJK_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_LATIN_RE = re.compile(r"[a-z0-9]+")
_MIXED_RE = re.compile(rf"[a-z0-9]+|[{_CJK_CLASS}]+")
_MAX_JOIN_VARIANTS = 5      # join the words of terms up to this many words in all ways
_CACHE_LIMIT = 400_000      # memo size for raw token → trie node / stem

_VOWELS = frozenset("aeiou")
_NO_UNDOUBLE = frozenset("lsz")


def normalize_text(text: str) -> str:
    """Lower-case, with full-width forms folded (NFKC) when the text is not ASCII."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.lower()


def is_cjk(token: str) -> bool:
    """Does ``token`` start with a CJK ideograph (``_CJK_CLASS``)? Compared, not matched: a regex of these
    ranges takes milliseconds to compile, in every process that imports the matcher."""
    first = token[:1]
    return "\u3400" <= first <= "\u4dbf" or "\u4e00" <= first <= "\u9fff" or "\uf900" <= first <= "\ufaff"


def stem(word: str) -> str:
    """A deliberately small stemmer, identical for terms and text. Lower-case input."""
    n = len(word)
    if n <= 3 or word[-1].isdigit():
        return word
    if word.endswith("ies") and n > 4:
        word = word[:-3] + "y"
    elif word[-1] == "s" and word[-2] != "s":
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[: -len(suffix)]
            if not any(c in _VOWELS or c == "y" for c in base):
                break                      # "string"-like: no vowel left, keep it
            word = base
            if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in _VOWELS \
                    and word[-1] not in _NO_UNDOUBLE:
                word = word[:-1]           # planning → plan, shipped → ship
            break
    if len(word) > 3 and word[-1] == "e":
        word = word[:-1]                   # cache/caching/cached → cach
    return word


def tokenize(text: str) -> list[str]:
    """Tokens of normalised text: Latin words and CJK runs, in order."""
    text = normalize_text(text)
    if text.isascii():
        return _LATIN_RE.findall(text)
    return _MIXED_RE.findall(text)


def match_key(term: str) -> str:
    """Two terms with the same key match exactly the same text."""
    return " ".join(t if is_cjk(t) else stem(t) for t in tokenize(term))


def spellings(term: str) -> set[str]:
    """Every token sequence (as a stemmed key) that ``term`` matches.

    Two terms whose spellings overlap both fire on the same text (``prefill`` and
    ``pre-fill`` both fire on "prefill"): the taxonomy validator rejects that inside one
    table, since it would count the same words twice.
    """
    toks = tokenize(term)
    if not toks:
        return set()
    kinds = [is_cjk(t) for t in toks]
    if all(kinds):
        return {"".join(toks)}
    if any(kinds):
        return {match_key(term)}
    return {" ".join(path) for path in latin_paths(tuple(toks))}


@lru_cache(maxsize=8192)
def latin_paths(toks: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    """The stemmed word sequences a Latin term of tokens ``toks`` matches (``_join_variants``, each word
    stemmed). Cached: the taxonomy's check (``spellings``) and its matcher both ask for every term."""
    return frozenset(tuple(stem(t) for t in variant) for variant in _join_variants(list(toks)))


class _Node:
    __slots__ = ("term", "children")

    def __init__(self) -> None:
        self.term: int = -1
        self.children: dict[str, _Node] = {}


class TermMatcher:
    """Match a fixed set of terms (Latin, CJK or mixed) in many texts."""

    def __init__(self, terms: Iterable[str]) -> None:
        self.terms: list[str] = []
        seen: dict[str, int] = {}
        self._root: dict[str, _Node] = {}
        self._cjk: dict[str, int] = {}           # pure CJK term → id
        self._cjk_lengths: list[int] = []
        self._cjk_first: frozenset[str] = frozenset()
        self._mixed: dict[str, list[tuple[int, int, tuple[tuple[bool, str], ...]]]] = {}
        self._unmatchable: list[str] = []
        self._also: dict[int, list[int]] = {}
        cjk_first: set[str] = set()
        for term in terms:
            if term in seen:
                continue
            tid = seen[term] = len(self.terms)
            self.terms.append(term)
            toks = tokenize(term)
            if not toks:
                self._unmatchable.append(term)
                continue
            kinds = [is_cjk(t) for t in toks]
            if all(kinds):
                variant = "".join(toks)
                first = self._cjk.setdefault(variant, tid)
                if first != tid:
                    self._also.setdefault(first, []).append(tid)
                cjk_first.add(variant[0])
            elif not any(kinds):
                self._add_latin(toks, tid)
            else:
                self._add_mixed(toks, kinds, tid)
        self._cjk_lengths = sorted({len(k) for k in self._cjk}, reverse=True)
        self._cjk_first = frozenset(cjk_first)
        self._raw_root: dict[str, _Node | None] = {}
        self._raw_stem: dict[str, str] = {}

    # ------------------------------------------------------------------ building
    def _add_latin(self, toks: list[str], tid: int) -> None:
        for path in latin_paths(tuple(toks)):
            node = self._root.get(path[0])
            if node is None:
                node = self._root[path[0]] = _Node()
            for key in path[1:]:
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node()
                node = child
            if node.term == -1:
                node.term = tid
            elif node.term != tid and tid not in self._also.setdefault(node.term, []):
                self._also[node.term].append(tid)   # two terms, one spelling: report both

    def _add_mixed(self, toks: list[str], kinds: list[bool], tid: int) -> None:
        # index on the first Latin token; remember its offset inside the term
        first_latin = kinds.index(False)
        parts = tuple((k, t if k else stem(t)) for k, t in zip(kinds, toks))
        self._mixed.setdefault(parts[first_latin][1], []).append((tid, first_latin, parts))

    @property
    def unmatchable(self) -> list[str]:
        """Terms with no letters, digits or CJK characters (they can never match)."""
        return list(self._unmatchable)

    # ------------------------------------------------------------------ matching
    def _stem(self, raw: str) -> str:
        s = self._raw_stem.get(raw)
        if s is None:
            if len(self._raw_stem) > _CACHE_LIMIT:
                self._raw_stem.clear()
            s = self._raw_stem[raw] = stem(raw)
        return s

    def find_ids(self, text: str) -> list[int]:
        """Term ids found in ``text``, one entry per occurrence (overlaps included)."""
        return [h[0] for h in self.find_spans(text)]

    def find_spans(self, text: str) -> list[tuple[int, int, int]]:
        """``(term id, start, end)`` per occurrence, overlaps included.

        Positions are comparable, not character offsets: token ``i`` covers
        ``[i·2²⁰, i·2²⁰ + its length)``, so a match inside another has a span inside its span.
        """
        text = text.lower()
        ascii_text = text.isascii()
        if not ascii_text:
            text = unicodedata.normalize("NFKC", text)
            toks = _MIXED_RE.findall(text)
        else:
            toks = _LATIN_RE.findall(text)
        hits: list[tuple[int, int, int]] = []
        raw_root = self._raw_root
        n = len(toks)
        # each token's trie node (None: no term starts with it), looked up in C; the loop below
        # visits only the tokens a term starts with
        nodes = list(map(raw_root.get, toks, itertools.repeat(_MISSING, n)))
        if _MISSING in nodes:
            if len(raw_root) > _CACHE_LIMIT:
                raw_root.clear()
            for i in [i for i, node in enumerate(nodes) if node is _MISSING]:
                tok = toks[i]
                node = raw_root.get(tok, _MISSING)
                if node is _MISSING:
                    node = raw_root[tok] = self._root.get(self._stem(tok))
                nodes[i] = node
        for i in itertools.compress(range(n), nodes):
            node = nodes[i]
            tok = toks[i]
            if node.term >= 0:
                hits.append((node.term, i << _SHIFT, (i << _SHIFT) + len(tok)))
            j = i + 1
            while node.children and j < n:
                node = node.children.get(self._stem(toks[j]))
                if node is None:
                    break
                if node.term >= 0:
                    hits.append((node.term, i << _SHIFT, (j << _SHIFT) + len(toks[j])))
                j += 1
        if not ascii_text:
            if self._cjk:
                self._scan_cjk(toks, hits)
            if self._mixed:
                self._scan_mixed(toks, hits)
        if self._also and hits:
            also = self._also
            for tid, a, b in [h for h in hits if h[0] in also]:
                hits.extend((other, a, b) for other in also[tid])
        return hits

    def _scan_cjk(self, toks: list[str], hits: list[tuple[int, int, int]]) -> None:
        table = self._cjk
        lengths = self._cjk_lengths
        first = self._cjk_first
        for t, tok in enumerate(toks):
            if not _is_cjk_token(tok):
                continue
            size = len(tok)
            base = t << _SHIFT
            for i, ch in enumerate(tok):
                if ch not in first:
                    continue
                room = size - i
                for length in lengths:
                    if length <= room:
                        tid = table.get(tok[i:i + length])
                        if tid is not None:
                            hits.append((tid, base + i, base + i + length))

    def _scan_mixed(self, toks: list[str], hits: list[tuple[int, int, int]]) -> None:
        mixed = self._mixed
        n = len(toks)
        for i, tok in enumerate(toks):
            if _is_cjk_token(tok):
                continue
            cands = mixed.get(self._stem(tok))
            if not cands:
                continue
            for tid, offset, parts in cands:
                start = i - offset
                if start < 0 or start + len(parts) > n:
                    continue
                last = len(parts) - 1
                for k, (cjk, want) in enumerate(parts):
                    got = toks[start + k]
                    if cjk:
                        if not _is_cjk_token(got):
                            break
                        if k == 0 and last > 0:
                            ok = got.endswith(want)
                        elif k == last and last > 0:
                            ok = got.startswith(want)
                        else:
                            ok = got == want
                        if not ok:
                            break
                    elif _is_cjk_token(got) or self._stem(got) != want:
                        break
                else:
                    first_tok, last_tok = toks[start], toks[start + last]
                    a = (start << _SHIFT) + (len(first_tok) - len(parts[0][1]) if parts[0][0] else 0)
                    b = ((start + last) << _SHIFT) + (len(parts[last][1]) if parts[last][0] else len(last_tok))
                    hits.append((tid, a, b))

    def count(self, text: str) -> dict[str, int]:
        """``{term: occurrences}`` for every term found in ``text``."""
        out: dict[str, int] = {}
        terms = self.terms
        for tid in self.find_ids(text):
            term = terms[tid]
            out[term] = out.get(term, 0) + 1
        return out

    def __len__(self) -> int:
        return len(self.terms)


_MISSING = object()
_SHIFT = 20                 # token index → span position (tokens are shorter than 2**20)


def _is_cjk_token(tok: str) -> bool:
    # tokens are either all [a-z0-9] or all CJK: the first character decides
    return tok[0] > "\u3000"


def _join_variants(toks: list[str]) -> set[tuple[str, ...]]:
    """``[kv, cache, transfer]`` → itself, ``(kvcache, transfer)``, ``(kv, cachetransfer)``, …"""
    if len(toks) == 1 or len(toks) > _MAX_JOIN_VARIANTS:
        return {tuple(toks)}
    out = set()
    for cuts in itertools.product((False, True), repeat=len(toks) - 1):
        words = [toks[0]]
        for tok, join in zip(toks[1:], cuts):
            if join:
                words[-1] += tok
            else:
                words.append(tok)
        out.add(tuple(words))
    return out
