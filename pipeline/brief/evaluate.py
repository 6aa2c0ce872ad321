"""The verification rules measured against a day labelled by people (`kb eval flags LABELS`).

A labels file (TOML) lists every flag a careful analyst expects in one day's briefing of one topic,
and decoys: cases that look like flags and must not be raised::

    [day]
    date = "2026-10-12"
    topic = "inference"
    exhaustive = ["id-conflict", "number-conflict"]   # optional: the rules whose flags are all listed

    [[flag]]
    rule = "number-conflict"
    match = ["ZetaServe", "TTFT"]     # every string appears in the flag's subject or evidence (▲: upvotes)
    why = "note 380 ms, post 412 ms"

    [[decoy]]
    rule = "number-conflict"
    match = ["KVQuilt"]

Each expected flag is matched to at most one raised flag of its rule whose text holds every
``match`` string (case folded). Recall is per rule and overall; precision only over the rules the
labels list exhaustively (by default every rule that has a ``[[flag]]`` or ``[[decoy]]``): a flag
of another rule was not judged. A raised decoy is named as such among the extra flags.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from kb.errors import ConfigError, toml_error


@dataclass(frozen=True)
class Label:
    rule: str
    match: tuple[str, ...]
    why: str = ""
    decoy: bool = False

    def fits(self, flag: dict[str, Any]) -> bool:
        """Is ``flag`` of this label's rule, its text holding every match string?"""
        text = flag_text(flag)
        return flag.get("kind") == self.rule and all(m.casefold() in text for m in self.match)


@dataclass
class Labels:
    day: str
    topic: str
    flags: list[Label]
    decoys: list[Label]
    exhaustive: set[str] = field(default_factory=set)


def flag_text(flag: dict[str, Any]) -> str:
    """What a label's strings are looked for in: what the briefing shows of the flag — its subject, its
    evidence, the lines it quotes beside them (``context.said``: where a bare figure was said) and the figures as
    written with their sign (``context.signed``), case folded —
    and the unit of the quantity it compares where its values are bare numbers (HF upvotes: ``▲``, as notes
    and docs/briefing.md write them)."""
    evidence = flag.get("evidence")
    quantity = evidence.get("quantity", "") if isinstance(evidence, dict) else ""
    unit = " ▲" if isinstance(quantity, str) and "upvotes" in quantity else ""
    context = flag.get("context") or {}
    shown = [flag.get("subject"), evidence, context.get("said") or [], context.get("signed") or {}]
    return json.dumps(shown, ensure_ascii=False).casefold() + unit


def load_labels(path: Path, rules: tuple[str, ...]) -> Labels:
    """Read a labels file (an editor's byte-order mark is no part of it); a file that is not TOML is
    refused at its line, and so is a rule kb does not have, or a label without strings to match."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or 'not UTF-8 text'}") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise toml_error(path, e, text) from None
    day = raw.get("day", {})
    if not isinstance(day, dict):
        raise ConfigError(f"{path}: day must be a table ([day] with date and topic)")
    flags = [_label(path, item, rules, decoy=False) for item in _array(path, raw, "flag")]
    decoys = [_label(path, item, rules, decoy=True) for item in _array(path, raw, "decoy")]
    listed = day.get("exhaustive") or []
    if not isinstance(listed, list) or not all(isinstance(r, str) for r in listed):
        raise ConfigError(f"{path}: [day] exhaustive must list rule names")
    exhaustive = set(listed or {label.rule for label in flags + decoys})
    if unknown := exhaustive - set(rules):
        raise ConfigError(f"{path}: [day] exhaustive names no rule of kb: {', '.join(sorted(unknown))}")
    if not isinstance(day.get("topic"), str) or (when := _day_of(day.get("date"))) is None:
        raise ConfigError(f"{path}: [day] needs date (YYYY-MM-DD) and topic")
    if not (flags or decoys or listed):
        # nothing expected, nothing to keep out and no rule said to be complete: no figure can come of it
        raise ConfigError(f"{path}: no [[flag]], no [[decoy]] and no [day] exhaustive: nothing to measure")
    return Labels(when, day["topic"], flags, decoys, exhaustive)


def _array(path: Path, raw: dict[str, Any], key: str) -> list[Any]:
    """``[[key]]`` entries; a ``key`` written as one value or one table is refused, not read letter by letter."""
    items = raw.get(key, [])
    if not isinstance(items, list):
        raise ConfigError(f"{path}: {key} must be an array of tables ([[{key}]])")
    return items


def _day_of(value: Any) -> str | None:
    """A labels file's day as YYYY-MM-DD: a TOML date or a string naming a real one; None otherwise (a
    date-time too: a datetime is a date, and its isoformat no day)."""
    if isinstance(value, date) and not isinstance(value, datetime):
        return value.isoformat()
    try:
        return date.fromisoformat(value).isoformat() if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


def _label(path: Path, item: Any, rules: tuple[str, ...], *, decoy: bool) -> Label:
    what = "[[decoy]]" if decoy else "[[flag]]"
    rule, match = (item.get("rule"), item.get("match")) if isinstance(item, dict) else (None, None)
    if rule not in rules:
        raise ConfigError(f"{path}: {what} rule {rule!r}: expected one of {', '.join(rules)}")
    if not isinstance(match, list) or not match or not all(isinstance(m, str) and m.strip() for m in match):
        raise ConfigError(f"{path}: {what} of rule {rule}: match must list the strings the flag holds")
    return Label(rule, tuple(match), str(item.get("why", "")), decoy)


def score(flags: list[dict[str, Any]], labels: Labels) -> dict[str, Any]:
    """Match the raised ``flags`` to the labels: per rule and overall, what was found, missed and extra."""
    pairs = _matching(labels.flags, flags)
    found = [(label, flags[pairs[i]]) for i, label in enumerate(labels.flags) if i in pairs]
    missed = [label for i, label in enumerate(labels.flags) if i not in pairs]
    taken = set(pairs.values())
    judged = [f for j, f in enumerate(flags) if j not in taken and f.get("kind") in labels.exhaustive]
    rules = sorted({label.rule for label in labels.flags} | labels.exhaustive | {f.get("kind") for f in flags})
    per_rule = {rule: _figures(rule, labels, found, missed, judged, flags) for rule in rules}
    found_judged = sum(1 for _, f in found if f.get("kind") in labels.exhaustive)
    return {"date": labels.day, "topic": labels.topic, "rules": per_rule,
            "recall": len(found) / len(labels.flags) if labels.flags else None,
            "precision": found_judged / (found_judged + len(judged)) if found_judged + len(judged) else None,
            "missed": [_label_row(label) for label in missed],
            "extra": [_extra_row(f, labels.decoys) for f in judged]}


def _matching(labels: list[Label], flags: list[dict[str, Any]]) -> dict[int, int]:
    """The most labels matched to distinct flags they fit (label index → flag index), whatever the order
    of either: a general label never takes the one flag a specific label needs (augmenting paths)."""
    fits = [[j for j, f in enumerate(flags) if label.fits(f)] for label in labels]
    owner: dict[int, int] = {}          # flag → label

    def assign(i: int, seen: set[int]) -> bool:
        for j in fits[i]:
            if j not in seen:
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    for i in range(len(labels)):
        assign(i, set())
    return {i: j for j, i in owner.items()}


def _figures(rule: str, labels: Labels, found: list, missed: list, judged: list, flags: list) -> dict[str, Any]:
    expected = sum(1 for label in labels.flags if label.rule == rule)
    hits = sum(1 for label, _ in found if label.rule == rule)
    raised = sum(1 for f in flags if f.get("kind") == rule)
    row = {"expected": expected, "raised": raised, "found": hits,
           "missed": sum(1 for label in missed if label.rule == rule),
           "extra": sum(1 for f in judged if f.get("kind") == rule),
           "decoys_raised": sum(1 for f in judged if f.get("kind") == rule and _decoy_of(f, labels.decoys))}
    ratios = _ratios(hits, expected, raised if rule in labels.exhaustive else None)
    return row | ratios


def _ratios(found: int, expected: int, raised: int | None) -> dict[str, float | None]:
    recall = found / expected if expected else None
    precision = found / raised if raised else None   # nothing raised, or a rule not judged in full
    return {"recall": recall, "precision": precision}


def _decoy_of(flag: dict[str, Any], decoys: list[Label]) -> Label | None:
    return next((d for d in decoys if d.fits(flag)), None)


def _label_row(label: Label) -> dict[str, Any]:
    return {"rule": label.rule, "match": list(label.match), "why": label.why}


def _extra_row(flag: dict[str, Any], decoys: list[Label]) -> dict[str, Any]:
    decoy = _decoy_of(flag, decoys)
    return {"rule": flag.get("kind"), "subject": flag.get("subject"), "decoy": (decoy.why or True) if decoy else None}


def format_flags_table(result: dict[str, Any]) -> str:
    """``score``'s result as lines: per rule, then overall, then what was missed and what was extra."""
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x:.3f}"
    lines = [f"{result['topic']} {result['date']}",
             f"{'rule':<20} {'expected':>8} {'raised':>6} {'found':>5} {'missed':>6} {'extra':>5} "
             f"{'decoys':>6} {'recall':>6} {'precision':>9}"]
    for rule, r in result["rules"].items():
        lines.append(f"{rule:<20} {r['expected']:>8} {r['raised']:>6} {r['found']:>5} {r['missed']:>6} "
                     f"{r['extra']:>5} {r['decoys_raised']:>6} {pct(r['recall']):>6} {pct(r['precision']):>9}")
    lines.append(f"{'all':<20} recall {pct(result['recall'])}, precision {pct(result['precision'])} "
                 "(precision over the rules the labels list in full)")
    lines += [f"missed  {m['rule']}: {' + '.join(m['match'])}" + (f" — {m['why']}" if m["why"] else "")
              for m in result["missed"]]
    lines += [f"extra   {x['rule']}: {x['subject']}" + (" (a decoy)" if x["decoy"] else "") for x in result["extra"]]
    return "\n".join(lines)
