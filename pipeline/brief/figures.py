"""Claims compared across sources: the same quantity of the same subject with different values (``conflicts``).

A source that gives several values for one quantity of one subject (a table of conditions) is compared only
condition by condition, with the places that name one of its conditions (``conditions.py``); consistent repeats
are never a conflict, nor is a figure rounded from another ("46 GB/s", "46.1 GB/s"); different systems are
different subjects. Signs are shown but not compared: "−38%" and "by 38%" agree.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pipeline.brief.claims import Claim
from pipeline.brief.conditions import ConditionWords, fold, sized_model, value_conditions

__all__ = ["conflicts", "number", "sign", "span", "unsigned"]


Conflict = tuple[str | None, str, str, dict[str, list[str]]]


def conflicts(claims: Iterable[Claim], item_names: set[str], texts: Mapping[str, str | None] | None = None,
              words: ConditionWords | None = None) -> list[Conflict]:
    """(subject, quantity, unit, {value as written: [where…]}) wherever two sources disagree.

    A name that is one of the item's own names (``item_names``, folded) counts as the item itself. Values
    are compared without their sign; one written with a sign ("−38%") is shown with it, rather than as
    another source wrote it without ("reduces … by 38%"): the sign says which way the figure goes. With
    ``texts`` (each place's text) and ``words`` (``[conditions]``), a place that gives one quantity several
    values under named conditions is compared, condition by condition, with the places naming one of them
    (``conditions.py``); the quantity is then shown with its condition ("thinking tokens (QwQ-32B)").
    """
    groups: dict[Key, dict[str, dict[float, str]]] = {}
    spelling: dict[str, str] = {}
    over: dict[tuple[str, float], str] = {}   # (place, value) → the system the factor is over, where named
    subjects = []
    for c in claims:
        subject = None if c.subject and c.subject.casefold() in item_names else c.subject
        if subject:
            spelling.setdefault(subject.casefold(), subject)
        subjects.append((c, subject.casefold() if subject else None))
        groups.setdefault((subjects[-1][1], c.quantity, c.unit), {}).setdefault(c.where, {}).setdefault(c.value,
                                                                                                     c.written)
        if c.over:
            over.setdefault((c.where, c.value), c.over.casefold())
    out: list[Conflict] = []
    for (subject, quantity, unit), by_source in sorted(groups.items(), key=lambda g: (g[0][0] or "", g[0][1:])):
        single = _one_value_each(by_source, over)
        if _disagree(single):
            out.append((spelling.get(subject or "", subject), quantity, unit, _places_of(single)))
    if texts is not None and words is not None and _several_in_one_place(subjects):
        # read condition by condition, a quantity's conflicts are those under each condition: the values of one
        # condition set against another's ("29%" on QwQ-32B against "38%" written for R1 and QwQ alike) are not
        conditioned, covered = _conditioned(subjects, over, texts, words)
        out = [c for c in out if not {w for ws in c[3].values() for w in ws}
               <= covered.get((c[0].casefold() if c[0] else None, _factor(c[1], c[2]), c[2]), set())]
        out += [(spelling.get(subject or "", subject), quantity, unit, places)
                for found in conditioned.values() for subject, quantity, unit, places in found]
    return out


Key = tuple[str | None, str, str]   # (subject, folded, or None for the item itself; quantity; unit)


def _several_in_one_place(subjects: list[tuple[Claim, str | None]]) -> bool:
    """Does a place give two values in one unit (most items' places give one): else nothing is read by condition."""
    seen: dict[tuple[str, str], float] = {}
    for c, _ in subjects:
        if seen.setdefault((c.where, c.unit), c.value) != c.value:
            return True
    return False


def _factor(quantity: str, unit: str) -> str:
    """A throughput given as a factor is a speed-up ("吞吐是 Megatron 式 TP 的 1.31×", "1.31x Megatron-style TP"):
    one quantity when the values are read condition by condition."""
    return "speed-up" if quantity == "throughput" and unit == "×" else quantity


def _conditioned(subjects: list[tuple[Claim, str | None]], over: dict[tuple[str, float], str],
                 texts: Mapping[str, str | None], words: ConditionWords
                 ) -> tuple[dict[Key, list[Conflict]], dict[Key, set[str]]]:
    """The conflicts under a condition, by the quantity (``_factor``'s) a place gives several values of (one conflict
    under two conditions, PCIe and L40S, is one), and the places read condition by condition: a plain conflict
    between those alone is superseded (a line giving the L40S its right figure against the NVLink one is none)."""
    members: dict[Key, dict[str, list[Claim]]] = {}
    for c, subject in subjects:
        # "Llama-3.1-70B 从零到首 token 0.9 s", "L40S 上加速 1.27×": a model or device written before the value is the
        # condition it was measured under, here (a model's own size, "Llama-3.1-70B 140 GB", stays the model's)
        if subject is not None and c.quantity != "memory" and (sized_model(subject) or words.is_term(subject)):
            subject = None
        members.setdefault((subject, _factor(c.quantity, c.unit), c.unit), {}).setdefault(c.where, []).append(c)
    out: dict[Key, list[Conflict]] = {}
    covered: dict[Key, set[str]] = {}
    for key, places in sorted(members.items(), key=lambda g: (g[0][0] or "", g[0][1:])):
        by_source = {w: dict(reversed([(c.value, c.written) for c in found_at])) for w, found_at in places.items()}
        tables = set(by_source) - set(_one_value_each(by_source, over))
        if not tables:
            continue
        merged: dict[str, tuple[dict[str, dict[float, str]], list[str]]] = {}
        for condition, each in _by_condition(places, tables, texts, words):
            covered.setdefault(key, set()).update(each)
            if _disagree(each):
                merged.setdefault(repr(sorted(each.items())), (each, []))[1].append(condition)
        if merged:
            out[key] = [(key[0], f"{key[1]} ({', '.join(conds)})", key[2], _places_of(each))
                        for each, conds in merged.values()]
    return out, covered


def _disagree(single: dict[str, dict[float, str]]) -> bool:
    """Do two of the places (one value each) give values that differ, beyond rounding or a range holding one?"""
    values = _by_value(single)
    ranges = [r for w, _ in values.values() if (r := span(w)) is not None]
    # a figure another rounds, or one inside another's range ("2.1×" of "1.6–2.1x"), says the same
    distinct = [w for w, _ in values.values() if not any(_rounds(w, other) for other, _ in values.values())
                and not (span(w) is None and any(lo <= (number(w) or -1.0) <= hi for lo, hi in ranges))]
    return len(single) >= 2 and len(distinct) >= 2


def _places_of(single: dict[str, dict[float, str]]) -> dict[str, list[str]]:
    return {written: places for _, (written, places) in sorted(_by_value(single).items())}


def _by_condition(places: dict[str, list[Claim]], tables: set[str], texts: Mapping[str, str | None],
                  words: ConditionWords) -> list[tuple[str, dict[str, dict[float, str]]]]:
    """For each condition a place of several values gives one value under (``tables``: those places), the one
    value each place gives under it: a table's own, or the value of a place of one value written beside the
    condition ("PCIe 的 L40S 上 … 1.31×" under PCIe and L40S; not "1.17× on H100 (1.35× on H20)" under H20)."""
    given: dict[str, dict[str, dict[float, str]]] = {}   # folded condition → place → its one value
    shown: dict[str, str] = {}
    for w in sorted(tables):
        text, found = texts.get(w), sorted(places[w], key=lambda c: c.span)
        if text is None or any(c.span[0] < 0 for c in found):
            continue
        under: dict[str, dict[float, str]] = {}
        for c, conds in zip(found, value_conditions(text, [c.span for c in found], words)):
            for cond in conds:
                shown.setdefault(fold(cond), cond)
                under.setdefault(fold(cond), {})[c.value] = c.written
        for cond, vals in under.items():
            if len(vals) == 1:   # a condition every value shares ("On 8 H100 GPUs") tells none apart
                given.setdefault(cond, {})[w] = vals
    among = {shown[k] for k in given}
    for w, found in sorted(places.items()):
        text = texts.get(w)
        if w in tables or text is None or len({c.value for c in found}) != 1 or found[0].span[0] < 0 or not among:
            continue
        [named] = value_conditions(text, [found[0].span], words, among)
        for cond in named:
            given[fold(cond)].setdefault(w, {found[0].value: found[0].written})
    return [(shown[k], each) for k, each in sorted(given.items())]


def _one_value_each(by_source: dict[str, dict[float, str]], over: dict[tuple[str, float], str]
                    ) -> dict[str, dict[float, str]]:
    """The places that give one value each: a table of conditions says nothing; but a place whose values are each
    over another named system ("2.3x faster than FlashAttention-2 and 1.4x faster than vLLM's kernel") gives, for
    the comparison another place makes ("1.7× over FlashAttention-2"), the one value over the same system."""
    single = {w: vals for w, vals in by_source.items() if len(vals) == 1}
    named = {over[(w, v)] for w, vals in single.items() for v in vals if (w, v) in over}
    for w, vals in by_source.items():
        if len(vals) > 1 and all((w, v) in over for v in vals) and len({over[(w, v)] for v in vals}) == len(vals):
            same = [v for v in vals if over[(w, v)] in named]
            if len(same) == 1:
                single[w] = {same[0]: vals[same[0]]}
    return single


def _by_value(single: dict[str, dict[float, str]]) -> dict[tuple[float, str], tuple[str, list[str]]]:
    """Each value with the places that give it: a figure and the same figure with a sign agree (the signed
    spelling is shown), but "+25%" and "−25%" are two values: the signs say the figure goes opposite ways."""
    signs: dict[float, set[str]] = {}
    for vals in single.values():
        [(v, written)] = vals.items()
        signs.setdefault(v, set()).add(sign(written))
    values: dict[tuple[float, str], tuple[str, list[str]]] = {}
    for w, vals in single.items():
        [(v, written)] = vals.items()
        written_sign = sign(written)
        explicit = signs[v] - {""}
        # an unsigned figure joins the one signed spelling of its value; beside two, it stands alone
        key = (v, written_sign if written_sign or len(explicit) != 1 else next(iter(explicit)))
        shown, places = values.setdefault(key, (written, []))
        places.append(w)
        if _signed(written) and not _signed(shown):
            values[key] = (written, places)
    return values


_SIGNS = {"−": "-", "-": "-", "+": "+"}


def sign(written: str) -> str:
    """The direction a figure is written with: "-" (− or -), "+", or "" when it has no sign."""
    return _SIGNS.get(written[:1], "")


def _signed(written: str) -> bool:
    """Is the figure written with a sign ("−44%", "+25%")?"""
    return bool(sign(written))


def unsigned(written: str) -> str:
    """A figure as written, without its sign ("−44%" → "44%")."""
    return written[1:] if _signed(written) else written


_FIGURE = re.compile(r"[−+-]?(?P<int>[\d,]+)(?:\.(?P<dec>\d+))?\s*(?P<unit>.*)")


_SPAN = re.compile(r"(?P<lo>\d[\d,]*(?:\.\d+)?)–(?P<hi>\d[\d,]*(?:\.\d+)?)")


def span(written: str) -> tuple[float, float] | None:
    """The two ends of a range a claim is written as ("1.6–2.1x", ``claims.claims_in``), else None."""
    m = _SPAN.match(written.strip())
    return (float(m["lo"].replace(",", "")), float(m["hi"].replace(",", ""))) if m else None


def number(written: str) -> float | None:
    """The number a figure is written with ("−2.2x" → 2.2, "1,480 tokens/s" → 1480)."""
    m = _FIGURE.match(written.strip())
    return float(f"{m['int'].replace(',', '')}.{m['dec'] or '0'}") if m and m["int"].strip(",") else None
# Spellings of one unit ("2.4x" and "2.41×", "1.9 s" and "1.93秒"); ms and s stay apart: the figures are as written.
_SPELLING = {"x": "×", "倍": "×", "秒": "s", "us": "µs", "token/s": "tokens/s", "tok/s": "tokens/s"}


def _rounds(short: str, long: str) -> bool:
    """Is ``short`` (as written, "46 GB/s") ``long`` ("46.1 GB/s") rounded to fewer decimals, in the same
    unit however spelt ("2.4x", "2.41×"), with at least two significant digits ("2×" is no rounding of
    "2.4×": it may be the claim)?"""
    a, b = _FIGURE.fullmatch(short.strip()), _FIGURE.fullmatch(long.strip())
    if a is None or b is None or _SPELLING.get(a["unit"], a["unit"]) != _SPELLING.get(b["unit"], b["unit"]):
        return False
    places, more = len(a["dec"] or ""), len(b["dec"] or "")
    digits = (a["int"].replace(",", "").lstrip("0") + (a["dec"] or "")).lstrip("0")
    if places >= more or len(digits) < 2:
        return False
    value = float(f"{a['int'].replace(',', '')}.{a['dec'] or '0'}")
    precise = float(f"{b['int'].replace(',', '')}.{b['dec']}")
    return abs(round(precise, places) - value) < 10 ** -(places + 6)
