"""arXiv identifiers: find them in text, normalise and validate them.

Pure functions, no I/O. An ID is kept as a canonical, versionless string
(``2607.09701``, ``hep-th/9901001``) with the version (``2``) apart, because a
paper is one card whatever version a source happened to cite.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from dataclasses import dataclass

__all__ = ["ArxivId", "parse_arxiv_id", "lookup_arxiv_id", "find_arxiv_ids", "normalize_arxiv_id", "clean_text",
           "one_slip_apart"]

# Old-style archives (pre-2007). Subject classes such as math.GT are allowed
# after the archive name (``math.GT/0309136``); they are not part of the identity.
_ARCHIVES = (
    "acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph "
    "cmp-lg comp-gas cond-mat cs dg-ga funct-an gr-qc hep-ex hep-lat hep-ph hep-th "
    "math math-ph mtrl-th nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio "
    "quant-ph solv-int supr-con"
).split()

_NEW = r"(?P<new>(?P<yy>\d{2})(?P<mm>\d{2})\.(?P<num>\d{4,5}))"
_OLD = (
    r"(?P<old>(?P<arch>" + "|".join(re.escape(a) for a in sorted(_ARCHIVES, key=len, reverse=True))
    + r")(?:\.(?P<subj>[A-Z]{2}))?/(?P<oyy>\d{2})(?P<omm>\d{2})(?P<onum>\d{3}))"
)
_VERSION = r"(?:v(?P<ver>\d{1,3}))?"
# A bare ID must not sit inside a longer number or Latin word (``12607.09701``, ``2607.097012``,
# a DOI's ``2026.11685822``), except after the ``arXiv.`` of an arXiv DOI. The word characters are
# ASCII: Chinese notes write an ID against the text around it (``论文2610.08977提出``); a number followed by a
# Chinese numeral unit or a percent sign is an amount (``营收1201.5678万元``).
_WORD = "A-Za-z0-9_"
_AFTER = r"(?![" + _WORD + r"万亿千百元倍%％]|\.\d)"
# Every ID starts with a digit or an archive's first letter: saying so first lets the engine pass every other
# position before it tries the lookbehinds and the archive names (a third of the pattern's time on prose).
_FIRST = r"(?=[\d" + "".join(sorted({a[0] for a in _ARCHIVES})) + "])"
_ID_RE = re.compile(_FIRST + r"(?:(?<=arxiv\.)|(?<![" + _WORD + r".-]))(?:" + _NEW + "|" + _OLD + ")" + _VERSION
                    + _AFTER, re.I)
# What every ID contains: four digits, a dot and four more (new style), or a slash and seven digits (old
# style). Scanning for it is ~40x cheaper than the full pattern, whose lookbehinds and case-folded
# archive names are tried at every position: text without it (most abstracts, posts and notes) is skipped.
_SHAPE_RE = re.compile(r"\d{4}\.\d{4}|/\d{7}")

# Characters that change how an ID looks without changing what it is: zero-width
# characters and bidi controls. They are stripped before matching so that
# "2607.09701" with a zero-width space is the same paper, not a second one.
_INVISIBLE = dict.fromkeys(
    [0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0x200E, 0x200F,
     *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)


@dataclass(frozen=True, order=True)
class ArxivId:
    """A validated arXiv identifier: canonical versionless ``id`` plus optional ``version``."""

    id: str
    version: int | None = None

    @property
    def versioned(self) -> str:
        """The ID with its version suffix when known (``2607.09701v2``)."""
        return f"{self.id}v{self.version}" if self.version else self.id

    @property
    def yymm(self) -> str:
        """Year and month of submission as ``YYMM`` (for both ID schemes)."""
        return self.id.split("/")[-1][:4] if "/" in self.id else self.id[:4]

    @property
    def is_old_style(self) -> bool:
        return "/" in self.id

    def __str__(self) -> str:
        return self.versioned


_INVISIBLE_RE = re.compile("[" + "".join(map(chr, _INVISIBLE)) + "]")


def clean_text(text: str) -> str:
    """Fold compatibility forms (full-width digits) and drop invisible characters."""
    if text.isascii():   # both are no-ops on ASCII, and most text is ASCII: skip the per-character passes
        return text
    text = unicodedata.normalize("NFKC", text)
    return text.translate(_INVISIBLE) if _INVISIBLE_RE.search(text) else text


def _from_match(m: re.Match[str]) -> ArxivId | None:
    ver = int(m["ver"]) if m["ver"] else None
    if ver == 0:
        return None
    if m["new"]:
        yy, mm, num = int(m["yy"]), int(m["mm"]), m["num"]
        if not 1 <= mm <= 12 or yy < 7:
            return None
        # 4 digits after the dot until 2014-12, 5 digits from 2015-01 on.
        if (len(num) == 5) != ((yy, mm) >= (15, 1)):
            return None
        return ArxivId(f"{m['yy']}{m['mm']}.{num}", ver)
    yy, mm = int(m["oyy"]), int(m["omm"])
    if not 1 <= mm <= 12 or 8 <= yy <= 90:  # old scheme ran 1991-08 .. 2007-03
        return None
    return ArxivId(f"{m['arch'].lower()}/{m['oyy']}{m['omm']}{m['onum']}", ver)


def find_arxiv_ids(text: str) -> list[ArxivId]:
    """Every valid arXiv ID in ``text``, in order of appearance, duplicates kept once.

    Accepts bare IDs, ``arXiv:`` prefixes, abs/pdf/html URLs on arxiv.org and
    export.arxiv.org, versions and old-style IDs. Invalid look-alikes are skipped.
    """
    text = clean_text(text)
    if not _SHAPE_RE.search(text):
        return []
    seen: dict[ArxivId, None] = {}
    for m in _ID_RE.finditer(text):
        aid = _from_match(m)
        if aid is not None:
            seen.setdefault(aid, None)
    return list(seen)


def mask_arxiv_ids(text: str, mark: str, only: Collection[str] | None = None) -> str:
    """``text`` with each valid arXiv ID that ``find_arxiv_ids`` finds (of ``only``'s canonical IDs, when given)
    replaced by ``mark``. An ID written with full-width digits or invisible characters is found in, and replaced
    in, the ``clean_text`` form."""
    def repl(m: re.Match[str]) -> str:
        found = _from_match(m)
        return mark if found is not None and (only is None or found.id in only) else m[0]
    masked = _ID_RE.sub(repl, text) if _SHAPE_RE.search(text) else text   # no shape, no ID: nothing to replace
    rest = find_arxiv_ids(masked)
    return _ID_RE.sub(repl, clean_text(masked)) if rest and (only is None or any(a.id in only for a in rest)) \
        else masked


_WHOLE_RE = re.compile(
    r"^\s*(?:arxiv\s*:\s*)?(?:(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/)?"
    r"(?P<body>[^\s?#]+?)(?:\.pdf)?/?(?:[?#]\S*)?\s*$",
    re.I,
)


def parse_arxiv_id(text: str) -> ArxivId | None:
    """Parse one string that should be exactly one ID in any common form; None if it is not."""
    m = _WHOLE_RE.match(clean_text(text))
    if not m:
        return None
    inner = _ID_RE.fullmatch(m["body"])
    return _from_match(inner) if inner else None


def normalize_arxiv_id(text: str) -> str | None:
    """The canonical versionless ID of ``text`` (``arXiv:2607.09701v2`` → ``2607.09701``)."""
    aid = parse_arxiv_id(text)
    return aid.id if aid else None


def lookup_arxiv_id(text: str) -> ArxivId | None:
    """An ID a user typed where a command takes one, in any form notes use: ``2610.09701``,
    ``arXiv 2610.09701``, ``arxiv.org/abs/…`` (with or without a scheme), a Hugging Face paper
    URL, a DOI that embeds the ID (``10.48550/arXiv.2610.09701``). None unless the text names
    exactly one paper and nothing else."""
    strict = parse_arxiv_id(text)
    if strict is not None:
        return strict
    words = clean_text(text).split()
    if not words or len(words) > 2 or (len(words) == 2 and words[0].lower().rstrip(":") != "arxiv"):
        return None
    found = {a.id: a for a in find_arxiv_ids(words[-1])}
    return next(iter(found.values())) if len(found) == 1 else None


# Something written like a new-style arXiv ID: four digits, a dot, four or five digits. Its context (``ctx``)
# says it is one: "arXiv", an arxiv.org URL (abstract, PDF or HTML page), or a Hugging Face or alphaXiv paper URL
# (keyed by the paper's arXiv ID).
_LOOKALIKE_RE = re.compile(r"(?:(?P<ctx>arxiv\s*[:.]?\s*|arxiv\.org/(?:abs|pdf|html)/|huggingface\.co/papers/"
                           r"|alphaxiv\.org/(?:abs|overview)/)"
                           r"|(?<![" + _WORD + r".-]))"
                           r"(?P<id>(?P<yy>\d{2})(?P<mm>\d{2})\.(?P<num>\d{3,6}))(?:v\d{1,3})?" + _AFTER, re.I)


# A bare number is read as a short ID only where the words around it say one paper follows another ("作者说是
# 2610.1635 的后续"): a few weeks of listings extend almost any "26MM.NNNN", and "论文表 3：2605.3125" is a number.
_CUE_REACH = 16
_PAPER_CUE = re.compile(r"后续|续作|续集|后传|升级版|二代|第二代|前作|follow-?up|sequel|second generation|prior work|"
                        r"earlier paper|previous paper|successor|predecessor|后继|前身|(?<![此这个该])基础上|"
                        r"builds? on|built on|脱胎于|衍生自|往下做|derived from|grew out of", re.I)

# arXiv's first ID of the form YYMM.NNNN: 0704.0001 (April 2007)
_FIRST_NEW_STYLE = (7, 4)
# A unit right after a bare number makes it a measurement ("1203.45678 ms", "1203.45678 秒"), not an ID
_UNIT_AFTER = re.compile(r"\s*(?:(?:ms|s|µs|us|ns|min|h|GB|GiB|MB|MiB|TB|KB|tokens?|tok|kWh|MWh|Wh|W|kW|J|TFLOPS|QPS"
                         r"|req/s)"
                         r"(?![A-Za-z])|°C|毫秒|秒|分钟|小时|美元|元)")


def find_impossible_ids(text: str) -> list[tuple[str, str]]:
    """IDs that are written like arXiv IDs but cannot exist: ``(as written, why)``, in order.

    A month of 00 or 13+ is impossible in an ID of five digits after the dot, or one the text calls
    an arXiv ID; a wrong number of digits
    after the dot (4 until 2014-12, 5 from 2015-01) counts where the text says it is an arXiv ID
    (``arXiv 2610.1107``, an arxiv.org URL), and for five digits in a month of four even bare
    (``1207.05800``): a bare ``2026.1107`` may be anything. A bare number of a month before 2007-04, when
    arXiv first numbered so (``0512.12345``, ``0003.14159``), is never one: there is no ID it could be a slip of;
    nor is a bare number with a unit after it (``1203.45678 ms``): a measurement.
    """
    out: list[tuple[str, str]] = []
    text_clean = clean_text(text)
    for m in _LOOKALIKE_RE.finditer(text_clean):
        yy, mm, num = int(m["yy"]), int(m["mm"]), m["num"]
        if not m["ctx"] and ((yy, mm) < _FIRST_NEW_STYLE or _UNIT_AFTER.match(text_clean, m.end())):
            continue   # bare, before arXiv numbered so, or with a unit after it: another number
        if not 1 <= mm <= 12:
            # a bare 4.4 number ("2026.1107") is often a version or a date; 4.5 is an arXiv shape, but a
            # bare one with a month no one-digit slip makes ("1699.12345", a timestamp) is another number
            if m["ctx"] or (len(num) == 5 and mm <= 19):
                out.append((m["id"], f"there is no month {m['mm']}"))
            continue
        want = 5 if (yy, mm) >= (15, 1) else 4
        # five digits where arXiv had four is an arXiv shape gone wrong even bare ("the dropout paper as
        # 1207.05800"); four where it has five may be anything ("2026.1107")
        if len(num) != want and (m["ctx"] or (len(num) == 5 and want == 4)):
            out.append((m["id"], _digits_why(m, want)))
    return out


def _digits_why(m: re.Match, want: int) -> str:
    """Why an ID written with the wrong number of digits after the dot for its month cannot be one."""
    return f"{len(m['num'])} digits after the dot; arXiv IDs of 20{m['yy']}-{m['mm']} have {want}"


def find_short_ids(text: str) -> list[tuple[str, str]]:
    """Bare numbers written like an arXiv ID with a digit too few for their month (``作者说是 2610.1635 的后续``:
    four digits after the dot from 2015-01 on, when arXiv has five), in order, each with why it is no ID. Such a
    number may as well be a measurement (``QPS 2105.3333``): it is an ID with a digit dropped only if a paper's ID
    starts with it, which the briefing asks the store (``pipeline.brief.verify.impossible_ids``). One the text says
    is an arXiv ID is ``find_impossible_ids``'."""
    out: list[tuple[str, str]] = []
    text_clean = clean_text(text)
    for m in _LOOKALIKE_RE.finditer(text_clean):
        yy, mm, num = int(m["yy"]), int(m["mm"]), m["num"]
        near = text_clean[max(0, m.start() - _CUE_REACH):m.end() + _CUE_REACH]
        if (not m["ctx"] and len(num) == 4 and 1 <= mm <= 12 and (yy, mm) >= (15, 1)
                and not _UNIT_AFTER.match(text_clean, m.end()) and _PAPER_CUE.search(near)
                and m["id"] not in {i for i, _ in out}):
            out.append((m["id"], _digits_why(m, 5)))
    return out


def one_slip_apart(a: str, b: str) -> bool:
    """Whether two IDs as written (same length) differ by one character, or by two neighbours swapped: a typo of
    one another ("2610.29004" for "2610.29040")."""
    if len(a) != len(b):
        return False
    diff = [k for k, (x, y) in enumerate(zip(a, b)) if x != y]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                              and a[diff[1]] == b[diff[0]])

