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
from pathlib import Path
from typing import Any

from kb.errors import ConfigError


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
    """What a label's strings are looked for in: the flag's subject and evidence, case folded, and the
    unit of the quantity it compares where its values are bare numbers (HF upvotes: ``▲``, as notes and
    docs/briefing.md write them)."""
    evidence = flag.get("evidence")
    quantity = evidence.get("quantity", "") if isinstance(evidence, dict) else ""
    unit = " ▲" if isinstance(quantity, str) and "upvotes" in quantity else ""
    return json.dumps([flag.get("subject"), evidence], ensure_ascii=False).casefold() + unit


def load_labels(path: Path, rules: tuple[str, ...]) -> Labels:
    """Read a labels file; a rule kb does not have, or a label without strings to match, is refused."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {getattr(e, 'strerror', None) or 'not UTF-8 text'}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not TOML: {e}") from None
    day = raw.get("day", {})
    flags = [_label(path, item, rules, decoy=False) for item in raw.get("flag", [])]
    decoys = [_label(path, item, rules, decoy=True) for item in raw.get("decoy", [])]
    exhaustive = set(day.get("exhaustive") or {label.rule for label in flags + decoys})
    if unknown := exhaustive - set(rules):
        raise ConfigError(f"{path}: [day] exhaustive names no rule of kb: {', '.join(sorted(unknown))}")
    if not isinstance(day.get("date"), str) or not isinstance(day.get("topic"), str):
        raise ConfigError(f"{path}: [day] needs date and topic")
    return Labels(day["date"], day["topic"], flags, decoys, exhaustive)


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
    unmatched = list(flags)
    found, missed = [], []
    for label in labels.flags:
        hit = next((f for f in unmatched if label.fits(f)), None)
        if hit is None:
            missed.append(label)
        else:
            unmatched.remove(hit)
            found.append((label, hit))
    judged = [f for f in unmatched if f.get("kind") in labels.exhaustive]
    rules = sorted({label.rule for label in labels.flags} | labels.exhaustive | {f.get("kind") for f in flags})
    per_rule = {rule: _figures(rule, labels, found, missed, judged, flags) for rule in rules}
    overall = _ratios(len(found), len(labels.flags),
                      sum(1 for _, f in found if f.get("kind") in labels.exhaustive) + len(judged))
    return {"date": labels.day, "topic": labels.topic, "rules": per_rule, **overall,
            "missed": [_label_row(label) for label in missed],
            "extra": [_extra_row(f, labels.decoys) for f in judged]}


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
