"""The claims reader measured on real abstracts labelled by people (`kb eval claims LABELS --corpus DIR`).

The number rule compares the figures a team's line gives of a paper with those its abstract gives
(``numbers.py``); what it compares is what ``claims.claims_in`` reads. Here people who never read kb's
code listed, for real arXiv abstracts, every figure an analyst would compare — its quantity (one of
``[quantities]``' names), unit, value and whose result it is — and kb's reading of the same abstracts is
scored against theirs at three levels:

- **figure**: the value and unit (kb found the number as a result, not as a setting or a baseline);
- **quantity**: and what it measures;
- **claim**: and whose it is (``own``: the paper's own system; else a name as written).

A labels file is JSON lines, IDs and labels only (the abstracts are read from the corpus)::

    {"id": "2406.01234", "split": "dev", "claims": [
        {"quantity": "throughput", "unit": "×", "value": 2.3, "subject": "own", "written": "2.3×"}]}
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from kb.names import title_name
from pipeline.brief.claims import Claim, claims_in
from pipeline.brief.figures import span
from pipeline.classify.training.corpus import load_jsonl

UNITS = ("×", "%", "s", "GB/s", "Gb/s", "MB/s", "TB/s", "tokens/s", "GB", "GiB", "bit")
LEVELS = ("figure", "quantity", "claim")
OWN = "own"


@dataclass(frozen=True)
class Figure:
    """One claim, as a label writes it or as kb's reading is turned into one."""

    quantity: str
    unit: str
    value: float
    subject: str       # ``OWN`` or a name, folded
    written: str = ""

    def key(self, level: str) -> tuple[Any, ...]:
        """What two figures must share to match at ``level``."""
        value = round(self.value, 6)
        return {"figure": (self.unit, value), "quantity": (self.quantity, self.unit, value),
                "claim": (self.quantity, self.unit, value, self.subject)}[level]


@dataclass(frozen=True)
class Labelled:
    id: str
    split: str
    figures: tuple[Figure, ...]


def load_claim_labels(path: Path, quantities: set[str]) -> list[Labelled]:
    """The labelled abstracts of ``path``; a malformed row is one line naming the file and the line."""
    out: list[Labelled] = []
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()   # a BOM (Notepad) reads too
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the labels ({type(e).__name__})") from None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            out.append(_row(json.loads(line), quantities))
        except (ValueError, TypeError, KeyError) as e:
            raise ConfigError(f"{path}:{n}: {e}") from None
    if not out:
        raise ConfigError(f"{path}: no labelled abstract")
    return out


def _row(raw: Any, quantities: set[str]) -> Labelled:
    if not isinstance(raw, dict) or not isinstance(raw.get("id"), str) or not isinstance(raw.get("claims"), list):
        raise ValueError("a row is an object with an `id` (string) and `claims` (list)")
    figures = []
    for c in raw["claims"]:
        if not isinstance(c, dict):
            raise ValueError("a claim is an object")
        if c.get("quantity") not in quantities:
            raise ValueError(f"quantity {c.get('quantity')!r} is none of [quantities]' names")
        if c.get("unit") not in UNITS:
            raise ValueError(f"unit {c.get('unit')!r}: one of {', '.join(UNITS)}")
        value = c.get("value")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"value {value!r} is not a number")
        subject = c.get("subject")
        if not isinstance(subject, str) or not subject.strip():
            raise ValueError("subject: `own` or a name")
        figures.append(Figure(c["quantity"], c["unit"], float(value), subject.strip().casefold(),
                              str(c.get("written", ""))))
    return Labelled(raw["id"], str(raw.get("split", "")), tuple(figures))


def corpus_abstracts(corpus: Path, ids: set[str]) -> dict[str, tuple[str, str]]:
    """``{id: (title, abstract)}`` of these arXiv IDs from the corpus' ``abstracts/*.jsonl`` (the first file, in
    name order, that holds one)."""
    folder = Path(corpus) / "abstracts"
    if not folder.is_dir():
        raise ConfigError(f"--corpus {corpus}: no abstracts/ folder")
    out: dict[str, tuple[str, str]] = {}
    for f in sorted(folder.glob("*.jsonl")):
        for row in load_jsonl(f):
            key = row.get("arxiv_id")
            if key in ids and key not in out:
                out[key] = (row.get("title") or "", row.get("abstract") or "")
    return out


Read = Callable[..., list[Claim]]   # (text, where, about=None) → claims (``Facts.read_claims``)


def reader(rules: Any) -> Read:
    """The claims reader of the briefing's words (``Rules``: ``[quantities]``, ``[said_of]``, ``[claim_words]``)."""
    def read(text: str, where: str, about: str | None = None) -> list[Claim]:
        return claims_in(text, where, rules.quantities, rules.said_of, rules.claim_words, about=about)
    return read


def kb_figures(title: str, abstract: str, read: Read) -> list[Figure]:
    """kb's reading of an abstract as the number rule reads it: about the paper its title names."""
    about = title_name(title)
    own = {OWN} | ({about.casefold()} if about else set())
    out = []
    for c in read(abstract, "abstract", about):
        subject = OWN if (c.subject or OWN).casefold() in own else c.subject.casefold()
        ends = span(c.written)   # a range is two figures, as people list it: its ends, in the claim's unit
        values = [c.value * ends[0] / ends[1], c.value] if ends and ends[1] else [c.value]
        out += [Figure(c.quantity, c.unit, v, subject, c.written) for v in values]
    return out


def score_claims(items: list[Labelled], found: dict[str, list[Figure]]) -> dict[str, Any]:
    """Precision, recall and F1 at each level over ``items`` (``found``: kb's figures by ID, or another
    person's), per quantity at the claim level, and each abstract's misses and extras at the quantity level."""
    totals = {lvl: Counter() for lvl in LEVELS}
    by_quantity: dict[str, Counter] = {}
    rows = []
    for it in items:
        got = found.get(it.id, [])
        for lvl in LEVELS:
            hit = _matched(it.figures, got, lvl)
            totals[lvl].update(expected=len(it.figures), found=len(got), matched=hit)
        for q in {f.quantity for f in (*it.figures, *got)}:
            mine, theirs = [f for f in it.figures if f.quantity == q], [f for f in got if f.quantity == q]
            by_quantity.setdefault(q, Counter()).update(expected=len(mine), found=len(theirs),
                                                        matched=_matched(mine, theirs, "claim"))
        missed, extra = _difference(it.figures, got, "quantity"), _difference(got, it.figures, "quantity")
        if missed or extra:
            rows.append({"id": it.id, "missed": [_shown(f) for f in missed], "extra": [_shown(f) for f in extra]})
    return {"abstracts": len(items), **{lvl: _prf(totals[lvl]) for lvl in LEVELS},
            "by_quantity": {q: _prf(c) for q, c in sorted(by_quantity.items())}, "items": rows}


def _matched(expected: tuple[Figure, ...] | list[Figure], got: list[Figure], level: str) -> int:
    return sum((Counter(f.key(level) for f in expected) & Counter(f.key(level) for f in got)).values())


def _difference(a: tuple[Figure, ...] | list[Figure], b: tuple[Figure, ...] | list[Figure], level: str
                ) -> list[Figure]:
    left = Counter(f.key(level) for f in b)
    out = []
    for f in a:
        if left[f.key(level)]:
            left[f.key(level)] -= 1
        else:
            out.append(f)
    return out


def _shown(f: Figure) -> str:
    who = "" if f.subject == OWN else f" of {f.subject}"
    return f"{f.quantity} {f.written or f'{f.value:g} {f.unit}'}{who}"


def _prf(c: Counter) -> dict[str, Any]:
    p = c["matched"] / c["found"] if c["found"] else None
    r = c["matched"] / c["expected"] if c["expected"] else None
    f1 = 2 * p * r / (p + r) if p and r else (0.0 if p is not None and r is not None else None)
    return {"expected": c["expected"], "found": c["found"], "matched": c["matched"],
            "precision": _round(p), "recall": _round(r), "f1": _round(f1)}


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 3)


def format_claims_table(result: dict[str, Any], people: dict[str, Any] | None = None) -> str:
    """The scores as a table, beside another person's agreement on the same abstracts when given."""
    lines = [f"{result['abstracts']} abstracts", "",
             f"{'level':<10} {'expected':>8} {'found':>6} {'matched':>7} {'precision':>9} {'recall':>6} {'F1':>6}"
             + ("   people F1" if people else "")]
    for lvl in LEVELS:
        r = result[lvl]
        extra = f"   {_num(people[lvl]['f1'])} ({people['abstracts']} abstracts)" if people else ""
        lines.append(f"{lvl:<10} {r['expected']:>8} {r['found']:>6} {r['matched']:>7} {_num(r['precision']):>9} "
                     f"{_num(r['recall']):>6} {_num(r['f1']):>6}{extra}")
    lines += ["", f"{'quantity (claim level)':<24} {'expected':>8} {'found':>6} {'matched':>7}"]
    lines += [f"{q:<24} {r['expected']:>8} {r['found']:>6} {r['matched']:>7}" for q, r in result["by_quantity"].items()]
    if result["items"]:
        lines += ["", "abstracts read otherwise (quantity level):"]
        for row in result["items"]:
            lines.append(f"  {row['id']}: missed {'; '.join(row['missed']) or '-'} | extra "
                         f"{'; '.join(row['extra']) or '-'}")
    return "\n".join(lines)


def _num(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"
