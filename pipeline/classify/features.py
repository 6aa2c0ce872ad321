"""Text → sparse features for kb's learned classifier. Pure Python, deterministic.

The same code turns text into features at training time and at run time, so a model
trained once gives the same scores in every process and Python version: features are
plain strings looked up in the model's vocabulary (no ``hash()``, whose seed changes per
process, and no hashing trick whose collisions would make explanations ambiguous).

Feature kinds (all in one string namespace; the prefixes keep them apart):

* ``cach``            a word, lower-cased and lightly stemmed (``caches``/``caching`` → ``cach``);
* ``kv cach``         two consecutive words (a word bigram);
* ``kv`` / ``quant``  parts of a CamelCase name, as words: ``KVQuant``, ``SpotServe`` and
  ``FlashInfer`` mean something through their parts, and new system names are everywhere;
* ``推理`` / ``推``    Chinese: character bigrams and single characters of each run of CJK
  characters, so Chinese needs no word segmentation;
* ``@kv-cache``       one hit of any term the taxonomy lists for a topic, and ``@@context``,
  ``@@adjacent``, ``@@off_domain`` for its term groups. These carry the taxonomy's
  knowledge (English *and* Chinese terms) into the learned model: a weight learned for
  ``@speculative-decoding`` on English papers also applies to ``投机解码`` in a note.

``extract`` returns raw counts in three blocks (title, body, taxonomy hits); ``tfidf``
turns them into one TF-IDF vector over a model's vocabulary, each block L2-normalised.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from typing import Any

import numpy as np

from kb.text import STEMMED, stem  # one stemmer for the classifier and the briefing's rules (no numpy there)

__all__ = ["TermIndex", "Blocks", "extract", "feature_names", "tfidf", "tokens", "stem", "keyword_verdict",
           "block_weights", "N_BLOCKS", "FEATURE_VERSION"]

#: Bump when the feature definition changes: a model records the version it was trained
#: with and refuses to run with different features.
FEATURE_VERSION = 1

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN_RE = re.compile(rf"[a-z0-9]+|[{_CJK}]+")
# words with an upper-case letter after the first character: CamelCase candidates only
_RAW_WORD_RE = re.compile(r"\b[A-Za-z][a-z0-9]*[A-Z][A-Za-z0-9]*")   # \b: tried at word starts only
_CAMEL_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _normalise(text: str) -> str:
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text)
    return text.lower()


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens (``[a-z0-9]+``) and CJK runs, in order."""
    return _TOKEN_RE.findall(_normalise(text))


def _is_cjk(tok: str) -> bool:
    return tok[0] > "\u3000"


def _camel_parts(raw: str) -> list[str]:
    """Parts of CamelCase words (``KVQuant`` → ``kv``, ``quant``); nothing for plain words."""
    out: list[str] = []
    for word in _RAW_WORD_RE.findall(raw):
        tail = word[1:]
        if tail.islower() or word.isupper() or tail.isdigit():
            continue                        # "Serving", "LLM", "H100": not CamelCase
        parts = _CAMEL_RE.findall(word)
        if len(parts) > 1:
            out.extend(p.lower() for p in parts if len(p) > 1)
    return out


class TermIndex:
    """Finds taxonomy terms in token streams: ``{feature name: [term, …]}`` in, hits out.

    Latin terms are matched as whole stemmed word sequences (also with their words run
    together: ``kv cache`` matches ``KVCache``); CJK terms as substrings of a CJK run;
    mixed terms (``PD 分离``) as a token sequence whose CJK parts are contained in the
    neighbouring runs. Each term hit adds 1 to its feature (a term listed for two groups
    adds to both).
    """

    def __init__(self, groups: Mapping[str, Iterable[str]]) -> None:
        self.groups = {name: sorted(set(terms)) for name, terms in groups.items()}
        self._latin: dict[tuple[str, ...], set[str]] = {}
        self._cjk: dict[str, set[str]] = {}
        self._mixed: list[tuple[tuple[tuple[bool, str], ...], str]] = []
        for name, terms in self.groups.items():
            for term in terms:
                toks = tokens(term)
                if not toks:
                    continue
                kinds = [_is_cjk(t) for t in toks]
                if all(kinds):
                    self._cjk.setdefault("".join(toks), set()).add(name)
                elif not any(kinds):
                    stems = tuple(stem(t) for t in toks)
                    self._latin.setdefault(stems, set()).add(name)
                    if len(toks) > 1:       # the words run together: "kvcache"
                        self._latin.setdefault((stem("".join(toks)),), set()).add(name)
                else:
                    parts = tuple((k, t if k else stem(t)) for k, t in zip(kinds, toks))
                    self._mixed.append((parts, name))
        # single-word terms: one dict look-up per distinct stem; longer ones by first stem
        self._single = {k[0]: tuple(sorted(v)) for k, v in self._latin.items() if len(k) == 1}
        # by first stem: (the other stems, the term's word bigrams, names)
        multi: dict[str, list[tuple[list[str], tuple[str, ...], tuple[str, ...]]]] = {}
        for k, v in sorted(self._latin.items()):
            if len(k) > 1:
                pairs = tuple(a + " " + b for a, b in zip(k, k[1:]))
                multi.setdefault(k[0], []).append((list(k[1:]), pairs, tuple(sorted(v))))
        self._multi = multi
        self._first = frozenset(self._single) | frozenset(multi)

    def hits(self, stems: Sequence[str], toks: Sequence[str], counts: Mapping[str, int],
             out: dict[str, float], ascii_only: bool = False) -> None:
        """Add 1 to ``out[name]`` for each term hit in the token stream (``ascii_only``: the caller
        knows there is no CJK text, skip looking).

        ``counts`` are the stream's word and word-bigram counts (``_add_text``'s): a one-word term
        hits as often as its stem occurs and a two-word term as often as its bigram, so only terms
        of three words or more walk the stream (and only from the places their first word is).
        """
        present = self._first.intersection(counts)
        if present:
            single, multi = self._single, self._multi
            for s in sorted(present):           # sorted: the same block order in every process
                names = single.get(s)
                if names:
                    c = counts[s]
                    for name in names:
                        out[name] = out.get(name, 0.0) + c
                at: list[int] | None = None     # where s occurs, found once for its long terms
                for rest, pairs, names in multi.get(s, ()):
                    c = counts.get(pairs[0], 0)
                    if c and len(pairs) > 1:        # every bigram of the term occurs: look closer
                        if all(b in counts for b in pairs[1:]):
                            if at is None:
                                at = [i for i, x in enumerate(stems) if x == s]
                            k = len(rest)
                            c = sum(stems[i + 1:i + 1 + k] == rest for i in at)
                        else:
                            c = 0
                    if c:
                        for name in names:
                            out[name] = out.get(name, 0.0) + c
        if (self._cjk or self._mixed) and not ascii_only and any(t[0] > "\u3000" for t in toks):
            runs = [t for t in toks if _is_cjk(t)]
            if runs:
                for term, names in self._cjk.items():
                    c = sum(run.count(term) for run in runs)
                    if c:
                        for name in names:
                            out[name] = out.get(name, 0.0) + c
                if self._mixed:
                    self._mixed_hits(stems, toks, out)

    def _mixed_hits(self, stems: Sequence[str], toks: Sequence[str], out: dict[str, float]) -> None:
        n = len(toks)
        present = set(stems)
        for parts, name in self._mixed:
            # cheap filter first: every Latin word of the term must occur somewhere
            if any(not cjk and want not in present for cjk, want in parts):
                continue
            m = len(parts)
            for start in range(0, n - m + 1):
                ok = True
                for k, (cjk, want) in enumerate(parts):
                    got = toks[start + k]
                    if cjk != _is_cjk(got):
                        ok = False
                    elif cjk:
                        ok = (got.endswith(want) if k == 0 else
                              got.startswith(want) if k == m - 1 else got == want)
                    else:
                        ok = stems[start + k] == want
                    if not ok:
                        break
                if ok:
                    out[name] = out.get(name, 0.0) + 1.0

    def to_dict(self) -> dict[str, list[str]]:
        return {k: list(v) for k, v in self.groups.items()}


def _stems(toks: Sequence[str]) -> list[str]:
    cache = STEMMED
    out = list(map(cache.get, toks))
    if None in out:                             # the usual case once warm: every word seen before
        for i in [i for i, s in enumerate(out) if s is None]:
            t = toks[i]
            out[i] = t if t[0] > "\u3000" else stem(t)
    return out


def _add_text(text: str, counts: Counter, hits: dict[str, float] | None,
              terms: TermIndex | None) -> None:
    toks = tokens(text)
    if not toks:
        return
    stems = _stems(toks)
    if text.isascii():                          # the usual case: no CJK, no unicode
        feats = stems + [a + " " + b for a, b in zip(stems, stems[1:])]
    else:
        feats = []
        prev = None
        for t, s in zip(toks, stems):
            if t[0] > "\u3000":                # a CJK run: characters and character bigrams
                prev = None
                feats.append(t[0])
                for i in range(1, len(t)):
                    feats.append(t[i - 1:i + 1])
                    feats.append(t[i])
                continue
            feats.append(s)
            if prev is not None:
                feats.append(prev + " " + s)
            prev = s
    counts.update(feats)                        # a Counter: C-level counting
    if terms is not None and hits is not None:  # before the CamelCase parts: hits read words as written
        terms.hits(stems, toks, counts, hits, ascii_only=text.isascii())
    counts.update(stem(p) for p in _camel_parts(text))


#: An item's features in four blocks: title words, body words, taxonomy-term hits, the keyword
#: scorer's verdict.
Blocks = tuple[dict[str, float], dict[str, float], dict[str, float], dict[str, float]]
N_BLOCKS = 4


def keyword_verdict(result: Any) -> dict[str, float]:
    """The keyword scorer's verdict on an item as features (the fourth block): ``@kw=primary`` (its
    relevance), ``@kw:kv-cache`` (each tag it gave), ``@kw!off`` (off-domain terms seen), ``@kw!adj``
    (adjacent-field terms outweigh the inference context). The learned model weighs them like any
    other feature: the hand-weighted scorer is one more witness, not the judge."""
    out = {f"@kw={result.relevance}": 1.0}
    for t in result.tags:
        out[f"@kw:{t.topic}"] = 1.0
    if result.off_domain_terms:
        out["@kw!off"] = 1.0
    if result.adjacent_score > max(result.context_score, 0.0):
        out["@kw!adj"] = 1.0
    return out


def extract(title: str = "", text: str = "", terms: TermIndex | None = None,
            verdict: dict[str, float] | None = None) -> Blocks:
    """Raw feature counts of one item, as ``(title block, body block, taxonomy block, verdict block)``.

    The blocks are normalised separately (``tfidf``) and then added, so a title weighs the
    same whether or not an abstract follows it, and a long abstract does not drown the
    taxonomy evidence. This is what lets one model serve titles (curated lists), abstracts
    (arXiv) and short notes alike.
    """
    t: Counter = Counter()
    b: Counter = Counter()
    h: dict[str, float] = {}
    if title:
        _add_text(title, t, h, terms)
    if text:
        _add_text(text, b, h, terms)
    return t, b, h, dict(verdict or {})


def block_weights(weights: Sequence[float]) -> np.ndarray:
    """A model's block weights, one per block (a model made before the verdict block gets 1 for it)."""
    w = list(weights)[:N_BLOCKS]
    return np.asarray(w + [1.0] * (N_BLOCKS - len(w)), dtype=np.float64)


def feature_names(blocks: Blocks) -> set[str]:
    """Every feature present in any block (for document frequencies)."""
    return set().union(*blocks)


def tfidf(blocks: Blocks, index: Mapping[str, int], idf: Sequence[float] | np.ndarray,
          weights: Sequence[float] = (1.0, 1.0, 1.0, 1.0)) -> tuple[np.ndarray, np.ndarray]:
    """Sublinear TF × IDF per block, each block L2-normalised and scaled by its weight,
    summed: ``(indices, values)`` as numpy arrays, one entry per feature.

    Features outside the vocabulary are dropped *before* normalising (as scikit-learn's
    ``TfidfVectorizer`` does). Training builds its matrix with this very function, so
    training and run time agree exactly. (A larger taxonomy-block weight lets the
    taxonomy's terms speak louder under the same regularisation: a prior whose strength
    training picks.)
    """
    get = index.get
    parts_j, parts_c, parts_b = [], [], []
    for b, counts in enumerate(blocks):
        if counts:
            n = len(counts)
            # C-level iteration: look-ups with -1 for unknown features, then a mask
            j = np.array(list(map(get, counts, repeat(-1, n))), dtype=np.int64)
            c = np.array(list(counts.values()), dtype=np.float64)
            known = j >= 0
            parts_j.append(j[known])
            parts_c.append(c[known])
            parts_b.append(np.full(int(known.sum()), b, dtype=np.int64))
    if not parts_j:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    j = np.concatenate(parts_j)
    if not len(j):
        return j, np.zeros(0, dtype=np.float64)
    blk = np.concatenate(parts_b)
    v = (1.0 + np.log(np.concatenate(parts_c))) * np.asarray(idf)[j]
    norm = np.sqrt(np.bincount(blk, v * v, minlength=N_BLOCKS))
    scale = np.divide(block_weights(weights), norm, out=np.zeros(N_BLOCKS), where=norm > 0)
    v *= scale[blk]
    if blk[-1] != blk[0]:                       # a feature in two blocks: one entry
        u, inv = np.unique(j, return_inverse=True)
        if len(u) < len(j):
            return u, np.bincount(inv, v)
    return j, v
