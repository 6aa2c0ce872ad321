"""The team's decision on an item, which a morning reader looks for first ("不锚，不进队。（Tom）", "Verdict: anchor it
in §3.3"): the last clause of the team's own entries and cards about the item that decides (``[markers] decided``),
not one asking for a decision (``undecided``: "锚不锚今天定"), with where it was written."""
from __future__ import annotations

import re
from typing import Any

from pipeline.brief.model import Candidate
from pipeline.brief.rules import Rules

__all__ = ["team_decision"]

# A clause ends after 。；;！!？? or a newline, or after ". " (not inside "§3.3" or "2.4.3"); it keeps its end, so a
# question ("要不要进队列？") is known by its mark
_CLAUSE_END = re.compile(r"(?<=[。；;！!？?\n])|(?<=\.)(?=\s|$)")


def team_decision(c: Candidate, rules: Rules) -> dict[str, Any] | None:
    """``{"text", "where"}``: the clause of the team's last word on ``c`` that decides what becomes of it, or None.
    A card's or entry's clauses are read in time order; of one source, its last deciding clause."""
    if not rules.decided:
        return None
    said = []
    for s in c.sources:
        if s.kind not in ("entry", "card") or s.beside_subject or not s.text:
            continue
        for clause in _CLAUSE_END.split(s.text):
            low = clause.casefold()
            if any(w in low for w in rules.decided) and not any(w in low for w in rules.undecided):
                said.append((s.date or "", clause.strip(" -*•\t\n。；;！!."), s.key))
    if not said:
        return None
    _, text, where = max(said, key=lambda x: x[0])   # the last written; of equal times, the first in reading order
    return {"text": text, "where": where}
