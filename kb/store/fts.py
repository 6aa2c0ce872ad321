"""Text preparation for the full-text index, the same tokens on both backends.

SQLite's unicode61 tokenizer treats a run of Chinese characters as one token, so
a search for 推理 misses 推理框架. We index CJK runs as overlapping bigrams
(推理框架 → 推理 理框 框架) and turn a query the same way into a phrase, which
finds two-character words and longer ones alike; Latin text passes through.

What is indexed is ``index_text(text)``: the tokens unicode61 (``remove_diacritics 2``) makes of
the segmented text, done here in Python. FTS5 keeps each of them as it is, and PostgreSQL gets
the same tokens as a tsvector (``to_tsvector_literal``), so the two backends match the same
documents and bm25 sees the same document lengths, whatever PostgreSQL's parser and locale
would have made of the text. unicode61's rules: ASCII letters and digits are token
characters, other ASCII separates; beyond ASCII, letters (L*), numbers (N*) and private use
(Co) are token characters, everything else separates; tokens are lower-cased and Latin
diacritics removed (é → e).
"""
from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from typing import Any

# The index's patterns of Unicode ranges are compiled when first used: each takes milliseconds to compile,
# and most processes that load the index's writers index nothing (a night with nothing new).


@cache
def _cjk_run() -> re.Pattern[str]:
    """CJK ideographs, kana and hangul: scripts written without spaces between words."""
    return re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


@cache
def _word() -> re.Pattern[str]:
    """A word of a query: letters, digits and _, and CJK runs."""
    return re.compile(r"[\w\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


@cache
def _token() -> re.Pattern[str]:
    """A token as unicode61 makes them. Python's [^\\W_] is exactly the letters (L*) and numbers (N*);
    private use (Co) is added. Less 21 characters that were marks in Unicode 6.1, whose tables unicode61
    uses, and are letters now (New Tai Lue vowel signs, two Vedic signs)."""
    return re.compile(r"(?:(?![\u19b0-\u19c0\u19c8\u19c9\u1cf2\u1cf3])[^\W_]"
                      r"|[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd])+")


@cache
def _token_special() -> re.Pattern[str]:
    """Without those 21 characters and private use, a token is simply a run of letters and numbers
    (``_PLAIN_TOKEN``), which the regex engine finds several times faster."""
    return re.compile(r"[\u19b0-\u19c0\u19c8\u19c9\u1cf2\u1cf3"
                      r"\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd]")


_ASCII_TOKEN = re.compile(r"[0-9A-Za-z]+")
_PLAIN_TOKEN = re.compile(r"[^\W_]+")
MAX_POS = 16383       # PostgreSQL clamps tsvector positions to this
MAX_POSITIONS = 256   # and keeps at most this many per lexeme


def _bigrams(run: str) -> str:
    if len(run) == 1:
        return run
    return " ".join(run[i:i + 2] for i in range(len(run) - 1))


def segment(text: str) -> str:
    """Text with its CJK runs as space-separated bigrams."""
    return _cjk_run().sub(lambda m: f" {_bigrams(m.group())} ", text)


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    for low in (ch.casefold(), ch.lower()):  # simple (one-character) folding, as unicode61: µ → μ, ß stays
        if len(low) == 1:
            break
    else:  # İ → i
        low = unicodedata.normalize("NFD", ch)[0].lower()
    if low < "\x80":
        return low
    base = unicodedata.normalize("NFD", low)
    if len(base) > 1 and base[0] < "\x80" and all(unicodedata.combining(c) for c in base[1:]):
        return base[0]  # a Latin letter with diacritics
    return low


@lru_cache(maxsize=262144)
def _fold(token: str) -> str:
    return "".join(map(_fold_char, token))


def _raw_tokens(text: str) -> list[str]:
    return (_PLAIN_TOKEN if _token_special().search(text) is None else _token()).findall(text)


def tokens(text: str) -> list[str]:
    """The index tokens of (already segmented) text, in order: what unicode61 makes of it."""
    if text.isascii():
        return _ASCII_TOKEN.findall(text.lower())
    return [t.lower() if t.isascii() else _fold(t) for t in _raw_tokens(text)]


# ASCII letters and digits kept (letters lower-cased), every other ASCII byte a separator: unicode61 on ASCII.
# The bytes of other characters (UTF-8's lead and continuation bytes) pass unchanged.
_ASCII_FOLD = bytes(c + 32 if 65 <= c <= 90 else c if 48 <= c <= 57 or 97 <= c <= 122 or c >= 128 else 32
                    for c in range(256))
_BEYOND_ASCII = re.compile(rb"[\x80-\xff]")


def index_text(text: str) -> str:
    """What the index holds of ``text`` on either backend: the tokens of its segmented form, then each
    character of its CJK runs (``cjk_chars``).

    One table pass in C folds the ASCII letters and turns every other ASCII character into a space (a
    separator for unicode61 too). What is left between spaces is a token, unless it holds another
    character: those words alone (an author's name, a CJK phrase, "1.9×") are segmented and tokenized
    in Python (``tokens``), in place. A CJK run or a token never spans an ASCII separator, so the tokens
    are the same, in the same order, as ``tokens(segment(text))``.
    """
    data = text.encode("utf-8", "surrogatepass").translate(_ASCII_FOLD)
    if text.isascii():   # most of what is indexed: no word to tokenize apart, no CJK
        return b" ".join(data.split()).decode("ascii")
    out, words, done = [], [], 0
    for m in _BEYOND_ASCII.finditer(data):
        if m.start() < done:
            continue   # inside a word already taken
        start = data.rfind(b" ", 0, m.start()) + 1
        end = data.find(b" ", m.end())
        end = len(data) if end < 0 else end
        word = data[start:end].decode("utf-8", "surrogatepass")
        words.append(word)
        out += [data[done:start].decode("ascii"), " ", " ".join(tokens(segment(word))), " "]
        done = end
    out.append(data[done:].decode("ascii"))
    joined = " ".join("".join(out).split())
    chars = cjk_chars(" ".join(words))   # the text's CJK runs are inside these words, in this order
    return " ".join([joined, *chars]) if chars else joined


def cjk_chars(text: str) -> list[str]:
    """Each character of the text's CJK runs of two or more, once, as tokens: a query of one character
    (锚) finds it inside a word (已锚). After every other token, so a phrase of bigrams stays consecutive."""
    chars = dict.fromkeys(ch for run in _cjk_run().findall(text) if len(run) > 1 for ch in run)
    return tokens(" ".join(chars)) if chars else []


def to_tsvector_literal(title: str, body: str) -> tuple[str, int]:
    """(tsvector as text, token count) of a document: title tokens weighted A, body tokens D.

    Body positions follow the title's; a phrase stays inside one column by the weights the query
    asks for (``phrase_tsqueries``). The token count is bm25's document length, FTS5's for the row.
    """
    t, b = index_text(title).split(), index_text(body).split()   # the tokens FTS5 gets, CJK characters last
    total = len(t) + len(b)
    pos: defaultdict[str, list[str | int]] = defaultdict(list)
    for i, tok in enumerate(t, 1):
        pos[tok].append(f"{min(i, MAX_POS)}A")
    # A body position is formatted only when written out: most lexemes of a document occur once.
    for i, tok in enumerate(b, len(t) + 1):
        pos[tok].append(i if i <= MAX_POS else MAX_POS)
    # Tokens are letters and digits only: nothing to quote. PostgreSQL refuses lexemes of 2 kB or more
    # (a token of 511 characters or fewer is under that in any encoding of them).
    text = " ".join(f"'{k}':{v[0]}" if len(v) == 1 else f"'{k}':" + ",".join(map(str, v[:MAX_POSITIONS]))
                    for k, v in pos.items() if len(k) <= 511 or len(k.encode()) < 2047)
    return text, total


def _quote(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def query_phrases(text: str) -> list[list[str]]:
    """The user's words as ``to_match_query`` reads them: one token list (a phrase) per word."""
    out = []
    for word in _word().findall(text):
        toks = _bigrams(word).split() if _cjk_run().fullmatch(word) else tokens(word.replace('"', ""))
        if toks:
            out.append(toks)
    return out


def phrase_tsqueries(text: str) -> list[str]:
    """One tsquery (as text) per word of the user's query: a lexeme, or a phrase inside one column."""
    parts = []
    for toks in query_phrases(text):
        if len(toks) == 1:
            parts.append(_quote(toks[0]))
        else:
            a = " <-> ".join(_quote(t) + ":A" for t in toks)
            d = " <-> ".join(_quote(t) + ":D" for t in toks)
            parts.append(f"(({a}) | ({d}))")
    return parts


def to_match_query(text: str) -> str:
    """An FTS5 MATCH expression for a user's words: every word must occur.

    Each word is quoted (so FTS5 syntax in user input is inert); a CJK word
    becomes the phrase of its bigrams. Returns "" when nothing searchable is left.
    """
    parts = []
    for word in _word().findall(text):
        if _cjk_run().fullmatch(word):
            parts.append('"' + _bigrams(word) + '"')
        else:
            parts.append('"' + word.replace('"', "") + '"')
    return " AND ".join(parts)


# ------------------------------------------------------------------ the documents of each kind
# FTS5 rows share one rowid space; each kind gets its own range of it (PostgreSQL keys rows by kind and ref).
KIND_BASE = {"paper": 0, "entry": 1 << 40, "post": 2 << 40}
_DOCUMENTS = {   # kind → (rowid expression on SQLite, the rest of the SELECT); ref first, then the text
    "paper": ("rowid", "arxiv_id, title, abstract, authors FROM papers ORDER BY arxiv_id"),
    "post": ("rowid", "key, title, summary, content FROM posts ORDER BY key"),
    "entry": ("id", "path || '#' || number, heading, text FROM note_entries ORDER BY path, number"),
}


def documents(execute: Callable[[str], Iterable[Any]], *, rowids: bool
              ) -> Iterator[tuple[str, int | None, str, str, str]]:
    """(kind, FTS5 rowid or None, ref, title, body) of every document the index holds, read with
    ``execute(sql)`` (rows streamed: a backfilled store is not held in memory)."""
    for kind, (rowid, rest) in _DOCUMENTS.items():
        for r in execute(f"SELECT {rowid + ', ' if rowids else ''}{rest}"):
            rid, values = (KIND_BASE[kind] + r[0], r[1:]) if rowids else (None, r)
            if kind == "paper":
                title, body = paper_document(*values[1:])
            elif kind == "post":
                title, body = post_document(*values[1:])
            else:
                title, body = values[1], values[2]
            yield kind, rid, values[0], title or "", body or ""


def paper_document(title: str, abstract: str, authors_json: str) -> tuple[str, str]:
    """(title, body) of a paper's index row: the abstract and the authors' names."""
    import json
    return title, abstract + " " + " ".join(json.loads(authors_json or "[]"))


def post_document(title: str, summary: str, content: str) -> tuple[str, str]:
    return title, summary + " " + content
