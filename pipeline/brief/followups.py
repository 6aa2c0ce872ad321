"""What the summary's last lines ask of a reader: the day's open flags by kind, each called by a short name
("#264 ShelfCtx ~ PrimeCtx"), not a copy of the flags section's headings (docs/briefing.md, step 8)."""
from __future__ import annotations

import re
from typing import Any

from kb.arxiv_id import find_arxiv_ids, parse_arxiv_id
from kb.names import coined_names, short_name
from pipeline.brief.verify import RULE_ORDER

# The flags a reading settles (a source found, two papers read side by side, an ID corrected): the follow-ups.
# The others (figures, dates, impossible IDs) are the flags section's, counted beside them.
FOLLOWED = ("unsourced-claim", "boundary", "id-conflict")


def flag_name(flag: dict[str, Any]) -> str:
    """A flag by its items' short names: "ShelfCtx ~ PrimeCtx" for a boundary, else the item's."""
    evidence, context = flag.get("evidence", {}), flag.get("context", {})
    if flag["kind"] == "boundary":
        anchored = context.get("anchored_title") or evidence.get("anchored_title")
        return f"{short_name(evidence.get('new_title'))} ~ {short_name(anchored)}"
    measured = context.get("measured") or {}
    if flag["kind"] == "unsourced-claim" and not context.get("item"):
        return _claim_name(flag["subject"], [*context.get("said", []), *evidence.get("claims", [])])
    return short_name(context.get("item") or measured.get("item") or measured.get("system") or flag["subject"])


def _claim_name(subject: str, lines: list[str]) -> str:
    """An unsourced claim under a heading that names nothing ("听来的 · 37%", "会上顺带说的") with the systems its line
    names: "听来的 (FoldQ TwirlQ H20) · 37%" — not a link's fragment, nor a word in capitals ("IIRC", "OOM", "MFU").
    The flag keeps its subject (its identity); only the summary reads this."""
    title, _, figures = subject.partition(" · ")
    if coined_names(title) or not lines:
        return short_name(subject)
    text = _URL.sub(" ", lines[0])
    names = list(dict.fromkeys(w for m in coined_names(text)
                               if not ((w := m[0]).isupper() and not any(ch.isdigit() for ch in w))))[:3]
    if not names:
        return short_name(subject)
    return short_name(f"{title} ({' '.join(names)})") + (f" · {figures}" if figures else "")


_URL = re.compile(r"(?:https?://|www\.)\S+", re.I)


def by_kind(flags: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The open flags grouped by kind in the rules' order: ``{"kind", "followed", "labels", "flags": [{"label",
    "name"}]}``, ``labels`` the group's numbers with runs joined ("#256–#261", "#270")."""
    groups: dict[str, list[dict[str, str]]] = {}
    for f in flags:
        if f.get("status") == "open":
            groups.setdefault(f["kind"], []).append({"label": f.get("label") or "", "name": flag_name(f)})
    order = [k for k in RULE_ORDER if k in groups] + sorted(k for k in groups if k not in RULE_ORDER)
    return [{"kind": k, "followed": k in FOLLOWED, "labels": runs([f["label"] for f in groups[k]]),
             "flags": groups[k]} for k in order]


def runs(labels: list[str]) -> list[str]:
    """Flag numbers with consecutive ones joined: ["#256", "#257", "#258", "#270"] → ["#256–#258", "#270"]; a
    flag a preview has not numbered ("") is left out."""
    numbers = sorted({int(label[1:]) for label in labels if label[1:].isdigit()})
    out: list[str] = []
    start = prev = None
    for n in [*numbers, None]:
        if n is not None and prev is not None and n == prev + 1:
            prev = n
            continue
        if start is not None:
            out.append(f"#{start}" if start == prev else f"#{start}–#{prev}")
        start = prev = n
    return out


def questions_id(flag: dict[str, Any], todo: dict[str, Any]) -> bool:
    """Does ``flag`` question an ID the to-do ``todo`` (``{"title", "point", "sources"}``: its item's title and
    sources) writes, there: one that cannot be or is dated after its note, flagged where the item's sources write
    it; or an ID conflict's wrong one, of the to-do's item ("PieceFill (2610.16059)", ShallowDraft's ID — a
    ShallowDraft to-do quoting it is right)?"""
    evidence, text = flag["evidence"], todo["point"]
    if flag["kind"] in ("impossible-id", "date-inconsistency"):
        here = evidence.get("cited_in") in todo.get("sources", ()) or evidence.get("title") == todo["title"]
        return here and _writes_id(text, evidence.get("id"))
    if flag["kind"] == "id-conflict" and (flag["subject"] == todo["title"]
                                          or flag["subject"].startswith(f"{todo['title']} · ")):
        return any(_writes_id(text, i) for i in evidence.get("ids", {}) if i not in evidence.get("resolved", []))
    return False


def _writes_id(text: str, written: str | None) -> bool:
    """Does ``text`` write the ID ``written``, in any form kb reads ("arXiv:…v2", a DOI's "arXiv.…"); one that cannot
    be an ID as written, not inside a longer number ("2611.0583" is not in "2611.05836")?"""
    if not written:
        return False
    if parse_arxiv_id(written) is not None:
        return written in {a.id for a in find_arxiv_ids(text)}
    return re.search(rf"(?:arxiv\s*[:：.]?\s*|(?<![\d.])){re.escape(written)}(?!\d|\.\d)", text, re.I) is not None
