"""Keys that let one item be recognised across sources: a URL without its dressing, a title reduced to words;
text without the hidden controls that would make it show other than it is."""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

from kb.arxiv_id import mask_arxiv_ids

_WORDS = re.compile(r"[^\w]+")
_SCHEME = re.compile(r"^https?://(www\.)?")
_HTML_SUFFIX = re.compile(r"\.html?$")


@lru_cache(maxsize=65536)   # a night normalises each item's URL several times (keys, subjects, titles)
def normalize_url(url: str) -> str:
    """``https://www.Example.org/post.html/`` → ``example.org/post``: the same page however it was written."""
    u = url.strip().rstrip("/.,;)）").lower()
    return _HTML_SUFFIX.sub("", _SCHEME.sub("", u))


@lru_cache(maxsize=65536)   # a night reads each title several times (candidates, titles compared, briefed keys)
def words_of(text: str) -> str:
    """``text`` in lower case, its words only, one space apart."""
    return " ".join(_WORDS.sub(" ", text.lower()).split())


def title_key(title: str | None) -> str | None:
    """A title reduced for matching across sources: lower case, words only; None when too short to trust."""
    key = words_of(title or "")
    return f"title:{key}" if len(key) >= 20 else None


def paper_title_key(title: str | None) -> str | None:
    """``title_key`` of an item put forward with an arXiv ID: a later item *without* one is the same paper
    by that title (a note re-mentioning it), another paper *with* an ID is not (kb.text.briefed_keys)."""
    key = title_key(title)
    return f"paper-{key}" if key else None


def briefed_keys(data: dict[str, Any]) -> list[str]:
    """What a briefing put forward, as keys a later day matches its candidates by: every ID
    spelling, the URL and the title of each increment and other item — the title of one put forward with
    an arXiv ID as ``paper_title_key``: a paper is known by its ID, and another paper with the same title,
    another day, is another paper; a note naming it by title is that paper."""
    keys: dict[str, None] = {}
    for inc in data.get("increments", []) + data.get("others", []):
        titled = (paper_title_key if inc.get("arxiv_id") else title_key)(inc.get("title"))
        for key in (inc.get("arxiv_id"), *inc.get("other_ids", []),
                    normalize_url(inc["url"]) if inc.get("url") else None, titled):
            if key:
                keys.setdefault(key, None)
    return list(keys)


# Characters that change what a reader sees without being text: C0 and C1 controls other than tab, line
# feed and carriage return (a terminal acts on ESC and CSI), DEL, bidirectional embeddings, overrides,
# isolates and marks (a title holding U+202E shows its words in another order: "Trojan source"),
# zero-width spaces, word joiners and invisible operators, the BOM, interlinear annotation marks, and
# tag characters (invisible "ASCII smuggling"). Kept: the zero-width joiner and non-joiner (emoji
# sequences, Persian and Indic scripts), variation selectors, soft hyphens, every letter and mark.
_HIDDEN_CLASS = ("\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e"
                 "\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0001\U000e0020-\U000e007f")
_HIDDEN_CHAR = re.compile(f"[{_HIDDEN_CLASS}]")
# A subdivision flag (🏴 + tag letters + cancel tag: England, Scotland, Wales) is the one use of tag
# characters that is text: the sequence is matched first and kept whole. Its tags spell a subdivision code
# (Unicode's: a region's two letters and one to four letters or digits, lower case), so a "flag" that hides
# a sentence in tag characters ("ASCII smuggling" behind a 🏴) is no flag and loses them.
_HIDDEN = re.compile("(\U0001f3f4[\U000e0061-\U000e007a]{2}[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,4}"
                     f"\U000e007f)|[{_HIDDEN_CLASS}]")
_SPACE_LIKE = frozenset("\x0b\x0c\x85")   # vertical tab, form feed, next line: they separated words


def without_hidden_controls(text: str, shown_as: Callable[[str], str] | None = None) -> str:
    """``text`` without the characters that make it look other than it is: controls, bidi overrides and
    isolates, zero-width and other invisible format characters (``_HIDDEN_CLASS``); a vertical tab, form
    feed or NEL becomes a space. ``shown_as`` gives each its replacement instead (an escape in JSON).

    The one normalisation of text from outside: every parser's text passes through it
    (``pipeline.sources.text.collapse_ws``), and every output a person reads (the CLI, the briefings),
    where the team's own text, stored as written, is shown without them too."""
    if _HIDDEN_CHAR.search(text) is None:   # nearly all text: one scan, no copy
        return text

    def replace(m: re.Match[str]) -> str:
        if m[1]:
            return m[1]
        if shown_as is not None:
            return shown_as(m[0])
        return " " if m[0] in _SPACE_LIKE else ""
    return _HIDDEN.sub(replace, text)


def bytes_escaped(text: str) -> str:
    """``text`` as a line may say it: the bytes of a name or argument that is not UTF-8 (the system hands them
    to Python as surrogate escapes, which no UTF-8 output or store can hold) written as ``\\xNN``; other text
    unchanged."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return text


def _json_escape(ch: str) -> str:
    return json.dumps(ch)[1:-1]   # "\\u202e"; a tag character as its surrogate pair, as JSON writes it


def hidden_controls_escaped(json_text: str) -> str:
    """JSON text (``ensure_ascii=False``) with each hidden control in its strings written as a ``\\u``
    escape: the same data for a program that reads it, nothing a terminal acts on for a person."""
    return without_hidden_controls(json_text, _json_escape)



_HEADING_NOISE = re.compile(r"^\s*(?:\d+|[一二三四五六七八九十]+)\s*[.、)）]\s*"
                            r"|\s*[—–-]+\s*(?:▲\s*\d+|\d+\s*▲|\d+\s*upvotes?)\s*$"
                            # an upvote tail in brackets: "…（7▲）", "… (12 upvotes)"
                            r"|\s*[(（]\s*(?:▲\s*\d+|\d+\s*▲|\d+\s*upvotes?)\s*[)）]\s*$"
                            r"|\s*(?:⚠️?|待核实|待确认)\s*[:：]?\s*", re.I)   # "待确认：X" is X


# Every match of _HEADING_NOISE holds one of these: a heading without them has no noise to remove.
_NOISE_MARKS = frozenset(".、)）—–-⚠待")   # an upvote tail in brackets ends in ) or ）


def clean_heading(heading: str) -> str:
    """An entry heading without its number, upvote tail and verification markers."""
    if not _NOISE_MARKS.isdisjoint(heading):
        heading = _HEADING_NOISE.sub(" ", heading)
    return " ".join(heading.split())


# A URL runs until whitespace, quotes, angle brackets, CJK text or CJK punctuation: notes are mostly
# Chinese and write text right after a URL without a space. The workspace's parser reads URLs with it.
# Case is ignored in the scheme only: the class after it matches the same characters either way, and
# without IGNORECASE its compile (in every process that reads a URL) need not case-fold each character of
# its CJK ranges. A URL's first letter is looked for first: the lookbehind is then tried only where one can start.
URL_RE = re.compile(r"(?=(?i:[hw]))(?i:https?://|(?<![A-Za-z0-9_.])www\.)"
                    r"[^\s<>\"'`\x00\x01\u2026\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+")
_TRAILING = ".,;:!?*_~"


def trim_url(url: str) -> str:
    """``url`` without sentence punctuation or an unbalanced closing bracket at its end (not part of it)."""
    while url:
        if url[-1] in _TRAILING:
            url = url[:-1]
        elif url[-1] == ")" and url.count(")") > url.count("("):
            url = url[:-1]
        elif url[-1] == "]" and url.count("]") > url.count("["):
            url = url[:-1]
        else:
            break
    return url


def url_spans(text: str) -> list[tuple[int, int]]:
    """Spans of everything that looks like a URL in ``text``."""
    return [(m.start(), m.start() + len(trim_url(m[0]))) for m in URL_RE.finditer(text)]


# What strip_anchor_syntax removes is marked first (a URL or date as _GONE, an ID as _ID), so that only
# what the removal left behind goes with it, never a title's own "fork()", "on arXiv", "--help" or
# " .NET": an "arXiv:" before a removed ID, a link whose URL went ([label](url) keeps its label),
# brackets that held only removed parts, separators between removed parts or between one and the
# line's edge, a space a removal left before a colon or comma.
_GONE, _ID = "\x00", "\x01"
# (Each pattern below that starts with a lookahead says its first character, so the engine skips the rest.)
# "(anchored 2026-10-08)", "（锚定：2026-10-08）": the knowledge parser reads an anchor's date with it.
ANCHORED_RE = re.compile(r"[(（]\s*(?:anchored|锚定)(?:\s+on)?\s*[:：]?\s*(?P<when>[^)）]*)[)）]", re.I)
_ARXIV_PREFIX = re.compile(r"\barxiv\s*:?\s*(?=\x01)", re.I)
_LINK_TEXT = re.compile(r"\[([^\]]*)\]\(\s*[\x00\x01]\s*\)")
_EMPTY_BRACKETS = re.compile(r"[\[(（<][\s\x00\x01]*[\x00\x01][\s\x00\x01]*[\])）>]")
_SEP = "—–\\-:：·|"
_BETWEEN_REMOVED = re.compile(rf"[\x00\x01](?:[\s{_SEP}]*[\x00\x01])+")
_LEADING = re.compile(rf"^\s*[\x00\x01]\s*(?:[{_SEP}]+(?=\s|$))?")
_TRAILING_REMOVED = re.compile(rf"(?=[{_SEP}\s\x00\x01])[{_SEP}]*\s*[\x00\x01]\s*$")
_GONE_BEFORE_PUNCT = re.compile(r"(?=[\s\x00\x01])\s*[\x00\x01](?=[:：,，;；])")


def _mask_urls(text: str) -> str:
    for start, end in reversed(url_spans(text)):
        text = text[:start] + _GONE + text[end:]
    return text


@lru_cache(maxsize=16384)
def strip_anchor_syntax(text: str) -> str:
    """``text`` without what the knowledge parser reads as anchoring: arXiv IDs (as ``find_arxiv_ids``
    finds them: any case, full-width digits, invisible characters), URLs and "(anchored …)" dates.

    Used both ways: to show an anchor line as a title, and to write an outside title into a
    doc without it anchoring anything by itself. Cached: a briefing asks for each anchor's label
    in several places.
    """
    text = " ".join(text.replace(_GONE, " ").replace(_ID, " ").split())
    text = mask_arxiv_ids(_mask_urls(ANCHORED_RE.sub(_GONE, text)), _ID)
    text = _EMPTY_BRACKETS.sub(_GONE, _LINK_TEXT.sub(r"\1", _ARXIV_PREFIX.sub(_ID, text)))
    text = _BETWEEN_REMOVED.sub(_GONE, text)
    text = _GONE_BEFORE_PUNCT.sub("", _TRAILING_REMOVED.sub("", _LEADING.sub("", text)))
    return " ".join(text.replace(_GONE, " ").replace(_ID, " ").split())


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the English noun in its number: ``1 increment``, ``0 increments``, ``2 arXiv IDs``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def shortened(text: str, limit: int) -> str:
    """``text`` on one line in at most ``limit`` characters: whole when it fits; else cut before the word the
    limit falls in, with "…" (mid-word only when that would drop more than half: a Chinese title has no
    spaces, and a long first word is better cut than gone)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit - 1]
    space = cut.rfind(" ")
    if flat[limit - 1] != " " and space >= limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:·—–-") + "…"


def boundary_context(evidence: Mapping[str, Any]) -> dict[str, Any]:
    """What a boundary flag shows beside its evidence: the anchored item's title as a reader reads it. An
    anchor the store has no paper for is titled by its line, shown without its ID and "(anchored …)"; the
    evidence keeps the line (a closed flag is compared by it). Empty when the title is shown as it is."""
    title = evidence.get("anchored_title") or ""
    shown = strip_anchor_syntax(title) or title
    return {"anchored_title": shown} if shown != title else {}


# Every word stemmed so far: the classifier's feature extraction looks words up here before calling stem().
STEMMED: dict[str, str] = {}
_STEM_CACHE_LIMIT = 200_000


def stem(word: str) -> str:
    """A small suffix stemmer (plural, -ing, -ed, final -e), the same for training and run time.

    Deliberately weak: it only merges forms that mean the same thing in this domain
    (``caches``/``cached``/``caching``, ``experts``/``expert``). Lower-case input.
    """
    s = STEMMED.get(word)
    if s is not None:
        return s
    w = word
    n = len(w)
    if n > 3 and not w[-1].isdigit():
        if w.endswith("ies") and n > 4:
            w = w[:-3] + "y"
        elif w.endswith("s") and not w.endswith("ss") and not w.endswith("us"):
            w = w[:-1]
        for suffix in ("ing", "ed"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                base = w[: -len(suffix)]
                if any(c in "aeiouy" for c in base):
                    w = base
                    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeioulsz":
                        w = w[:-1]          # planning → plan
                break
        if len(w) > 3 and w.endswith("e"):
            w = w[:-1]                      # cache → cach, so caching meets it
    if len(STEMMED) > _STEM_CACHE_LIMIT:
        STEMMED.clear()
    STEMMED[word] = w
    return w


# Verification markers, (canonical spelling, pattern). English words must not sit inside longer words; \b is no
# use here because CJK characters count as word characters next to Latin ones.
_MARKERS = [
    ("⚠", "⚠\ufe0f?"),
    ("待核实", "待核实"),
    ("待确认", "待确认"),
    ("unverified", r"(?<![A-Za-z])(?:unverified|unconfirmed)(?![A-Za-z])"),
    ("TBD", r"(?<![A-Za-z])TBD(?![A-Za-z])"),
    ("needs check", r"(?<![A-Za-z])needs[\s-]+check(?![A-Za-z])"),
    ("TBC", r"(?<![A-Za-z])(?:TBC|to be confirmed)(?![A-Za-z])"),
    ("TBV", r"(?<![A-Za-z])(?:TBV|to be verified)(?![A-Za-z])"),
]
_MARKER_RE = re.compile("|".join(f"(?P<m{i}>{rx})" for i, (_, rx) in enumerate(_MARKERS)), re.I)


def find_markers(text: str) -> list[str]:
    """Verification markers in ``text`` (a note's entry, a card's body), canonical spelling, first appearance
    order, once each. A "TBD" ending a line that writes no figure is a placeholder ("周五的 PD 切换演练：时间 TBD",
    "主讲 TBD"), not a doubt."""
    found: dict[str, None] = {}
    for m in _MARKER_RE.finditer(text):
        i = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        if _MARKERS[i][0] in ("TBD", "TBC") and _a_placeholder(text, m.start(), m.end()):
            continue
        found.setdefault(_MARKERS[i][0], None)
    return list(found)


# A figure with its unit in a team's line ("30%", "2.4x", "380 ms"): a line writing one claims it
FIGURE = re.compile(r"\d(?:[\d.,]*)\s*(?:[%×x倍]|ms|s\b|GB|tokens)", re.I)


def _a_placeholder(text: str, start: int, end: int) -> bool:
    """Is the "TBD" at ``start:end`` a field's value, on a line with no figure: the last word of the line after a
    short word ("主讲 TBD", "Venue TBC") or a field's colon ("代码：TBD"); or, whatever follows, after a word of when,
    where or who ("时间 TBD，等网络组排期", "speaker TBC"). Not after a claim ("会把 EAGLE-3 设成默认，TBD") nor a
    result before a reason to doubt it ("结论 TBD，Jay 那边复现不出来")."""
    line_start, line_end = text.rfind("\n", 0, start) + 1, (text.find("\n", end) + 1 or len(text) + 1) - 1
    if FIGURE.search(text, line_start, line_end):
        return False
    before = text[line_start:start]
    cut = max(before.rfind(ch) for ch in "，,：:；;。？?（(")
    field = before[cut + 1:].strip().lstrip("-*+ ").strip()
    if _LOGISTICS.search(field) and len(field) <= 30:
        return True
    if not field and _ASKS_WHO_OR_WHEN.match(text, end, line_end):   # "TBD：下周一读书会谁讲 ForkEP"
        return True
    if text[end:line_end].strip(" \t。.；;)）"):
        return False
    return 0 < len(field) <= 6 or (not field and cut >= 0 and before[cut] in "：:")


# a "TBD" heading its line, then what is to be decided: who, when or where
_ASKS_WHO_OR_WHEN = re.compile(r"\s*[：:]\s*[^\n]*?(?:谁|哪天|什么时候|几点|时间|日期|地点|\b(?:who|when|where)\b)",
                               re.I)
# the fields a "TBD" is a placeholder of even before a clause: when, where, who
_LOGISTICS = re.compile(r"(?:时间|日期|地点|会议室|主讲|负责人|排期|\b(?:time|date|when|venue|room|speaker|owner|eta|"
                        r"host)\b)\s*$", re.I)


@lru_cache(maxsize=4096)
def _whole_phrase(phrase: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])")


def phrase_at(text: str, phrase: str) -> int:
    """Where ``phrase`` is in ``text`` (both as the caller folded them), or -1: an ASCII one as a whole phrase, no
    letter, digit or hyphen on either side ("anchor it", not in "anchor iterations"), another as it is written (Chinese
    has no spaces between its words)."""
    if not phrase.isascii():
        return text.find(phrase)
    m = _whole_phrase(phrase).search(text)
    return m.start() if m else -1


def a_line_says(text: str, needle: str, words: Iterable[str]) -> bool:
    """Does a line of ``text`` that holds ``needle`` hold one of ``words`` too (folded: ``words`` are written
    lower-case)? How a mark on the line of an ID or a figure is read ("扩展版会以 2612.00688 挂出，现在还没放出来")."""
    words = list(words)
    return bool(words) and any(needle in line and any(w in line.casefold() for w in words)
                               for line in text.splitlines())
