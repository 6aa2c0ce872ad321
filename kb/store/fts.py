"""Text preparation for the full-text index.

SQLite's unicode61 tokenizer treats a run of Chinese characters as one token, so
a search for 推理 misses 推理框架. We index CJK runs as overlapping bigrams
(推理框架 → 推理 理框 框架) and turn a query the same way into a phrase, which
finds two-character words and longer ones alike; Latin text passes through.
"""
from __future__ import annotations

import re

# CJK ideographs, kana and hangul: scripts written without spaces between words.
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def _bigrams(run: str) -> str:
    if len(run) == 1:
        return run
    return " ".join(run[i:i + 2] for i in range(len(run) - 1))


def segment(text: str) -> str:
    """Text as it goes into the index: CJK runs become space-separated bigrams."""
    return _CJK_RUN.sub(lambda m: f" {_bigrams(m.group())} ", text)


_WORD = re.compile(r"[\w\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+")


def to_match_query(text: str) -> str:
    """An FTS5 MATCH expression for a user's words: every word must occur.

    Each word is quoted (so FTS5 syntax in user input is inert); a CJK word
    becomes the phrase of its bigrams. Returns "" when nothing searchable is left.
    """
    parts = []
    for word in _WORD.findall(text):
        if _CJK_RUN.fullmatch(word):
            parts.append('"' + _bigrams(word) + '"')
        else:
            parts.append('"' + word.replace('"', "") + '"')
    return " AND ".join(parts)
