"""Turn query results (lists of dicts) into the CLI's output formats: table, json, csv, ids."""
from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Sequence
from typing import Any

from kb.mdsafe import md_text
from kb.text import hidden_controls_escaped, shortened


def _width(s: str) -> int:
    # East-Asian wide characters take two terminal cells.
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def _cell(value: Any, limit: int = 60) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        value = ", ".join(str(v) for v in value)
    return shortened(str(value), limit)


def format_table(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None,
                 whole: str | None = None) -> str:
    """A plain aligned text table (no colours: it goes to cron mail and pipes too). Long cells are cut to
    keep the columns after them in line, but never the ``whole`` column (the ID a reader pastes into the next
    command, ``path#N``) nor the last one, which has nothing after it to keep in line (an audit's finding,
    a source's last error: cut, they lost what they were there to say)."""
    if not rows:
        return "(none)"
    columns = list(columns or rows[0].keys())
    cells = [[_cell(r.get(c), 10**9 if c == whole or i == len(columns) - 1 else 60) for i, c in enumerate(columns)]
             for r in rows]
    widths = [max(_width(c), *(_width(row[i]) for row in cells)) for i, c in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(v + " " * (w - _width(v)) for v, w in zip(values, widths)).rstrip()

    out = [line(columns), line(["-" * w for w in widths])]
    out += [line(row) for row in cells]
    return "\n".join(out)


def format_json(data: Any) -> str:
    """``data`` as indented JSON, any script as itself; hidden controls (a bidi override in a title) as
    ``\\u`` escapes, so the data is exact and a terminal shows the text as it is."""
    return hidden_controls_escaped(json.dumps(data, ensure_ascii=False, indent=2, sort_keys=False))


# What a spreadsheet reads as the start of a formula (``=HYPERLINK(…)``, ``+cmd|…``, ``@SUM(…)``).
_FORMULA_START = ("=", "+", "-", "@")


def _csv_cell(value: Any) -> str:
    """A CSV cell: text from outside (a feed's title, a note's heading) that a spreadsheet would run as a
    formula gets a leading apostrophe, which keeps it text there (OWASP's advice); numbers are left as
    they are."""
    s = _cell(value, 10**9)
    return "'" + s if isinstance(value, (str, list, tuple)) and s.startswith(_FORMULA_START) else s


def format_csv(rows: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    columns = list(columns or (rows[0].keys() if rows else []))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for r in rows:
        writer.writerow({c: _csv_cell(r.get(c)) for c in columns})
    return buf.getvalue().rstrip("\n")


def format_ids(rows: Sequence[dict[str, Any]], key: str = "arxiv_id") -> str:
    """One ID a line, each once, in order."""
    seen: dict[str, None] = {}
    for r in rows:
        if r.get(key):
            seen.setdefault(str(r[key]), None)
    return "\n".join(seen)


def format_rows(rows: Sequence[dict[str, Any]], fmt: str, columns: Sequence[str] | None = None,
                id_key: str = "arxiv_id") -> str:
    """Dispatch on ``fmt`` (table, json, csv, ids)."""
    if fmt == "json":
        return format_json(list(rows))
    if fmt == "csv":
        return format_csv(rows, columns)
    if fmt == "ids":
        return format_ids(rows, id_key)
    return format_table(rows, columns, whole=id_key)


def format_paper_md(p: dict[str, Any]) -> str:
    """A paper card as Markdown for the terminal; everything from outside is escaped (kb.mdsafe)."""
    t = md_text
    lines = [f"# {t(p['arxiv_id'])}" + (f" — {t(p['title'])}" if p.get("title") else "")]
    if p.get("authors"):
        lines.append("Authors: " + ", ".join(t(a) for a in p["authors"]))
    lines += [f"{k}: {t(p[k])}" for k in ("latest_version", "primary_category", "published", "updated",
                                          "first_seen", "doi", "journal_ref", "relevance") if p.get(k)]
    lines += [f"relevance for {t(doc)}: {t(rel)}" for doc, rel in (p.get("relevance_by_doc") or {}).items()]
    if p.get("abstract"):
        lines += ["", t(p["abstract"])]
    for title, key, fmt in (
        ("Versions", "versions", lambda v: f"v{v['version']} {t(v['date'] or '')}"),
        ("Sources", "sources", lambda s: f"{t(s['seen_on'])} {t(s['source'])} {t(s['kind'])}"
         + (f" {s['upvotes']}▲" if s["upvotes"] is not None else "")),
        # the doc version that last had the line: a renumbered doc's old §2.3.1 is another section now
        ("Anchors", "anchors", lambda a: f"{t(a['topic'])} §{t(a['section'])}"
         + (f" ({t(a['doc_version'])})" if a.get("doc_version") else "") + f" anchored {t(a['anchored_on'] or '?')}"
         + (f" (ended {t(a['ended_on'])})" if a["ended_on"] else "")),
        ("Mentions", "mentions", lambda m: t(m["origin"]) + (f" entry {m['entry']}" if m["entry"] else "")),
        ("Cards", "cards", lambda c: t(c["path"])),
        ("Tags", "tags", lambda g: f"{t(g['topic'])} {g['score']:.2f}" + (f" ({t(', '.join(g['terms']))})"
                                                                           if g["terms"] else "")),
        ("Flags", "flags", lambda f: f"#{f['id']} {t(f['rule'])} [{t(f['status'])}]"),
    ):
        if p.get(key):
            lines += ["", f"## {title}"] + [f"- {fmt(x)}" for x in p[key]]
    return "\n".join(lines)


def _evidence_lines(value: Any, depth: int = 0) -> list[str]:
    """A flag's evidence (any JSON shape) as nested bullets; a list of plain values goes on one line, and
    each object of a list is its own bullet (``key: value; key: value``), so two objects never run together."""
    pad = "  " * depth
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if _nested(item):
                out += [f"{pad}- {md_text(str(key))}:"] + _evidence_lines(item, depth + 1)
            else:
                out.append(f"{pad}- {md_text(str(key))}: {_plain(item)}")
        return out
    if isinstance(value, list):
        return [line for n, item in enumerate(value, 1) for line in _list_item_lines(item, n, depth)]
    return [f"{pad}- {_plain(value)}"]


def _list_item_lines(item: Any, n: int, depth: int) -> list[str]:
    """The ``n``-th element of a list of evidence: an object of plain values on one line of its own; an object
    or list holding more under a bullet of its own (``item n:``), its parts beneath; anything else its line."""
    pad = "  " * depth
    if isinstance(item, dict) and not any(_nested(v) for v in item.values()):
        return [f"{pad}- " + ("; ".join(f"{md_text(str(k))}: {_plain(v)}" for k, v in item.items()) or "—")]
    if _nested(item):
        return [f"{pad}- item {n}:"] + _evidence_lines(item, depth + 1)
    return [f"{pad}- {_plain(item)}"]


def _nested(value: Any) -> bool:
    """Whether a value takes bullets of its own: a dict, or a list of anything but short plain values."""
    return isinstance(value, dict) or (isinstance(value, list) and any(
        isinstance(v, (dict, list)) or len(str(v)) > 40 for v in value))


def _plain(value: Any) -> str:
    """A scalar, or a list of scalars joined, as escaped text ("—" for none)."""
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value) if value else "—"
    return "—" if value is None or value == "" else md_text(str(value))


def format_flag_md(f: dict[str, Any]) -> str:
    """A verification flag as Markdown for the terminal: what it is, when it was seen, what the briefing shows
    beside it (its context), its evidence. What the flag lacks (no topic, no dates) is left out, as `kb show`
    leaves out what a paper lacks; one date of the two unknown is "—"."""
    t = md_text
    head = " · ".join(t(str(v)) for v in (f.get("topic"), f.get("status")) if v)
    lines = [f"# #{f['id']} {t(f['rule'])}" + (f" · {head}" if head else ""), f"subject: {t(f['subject'])}"]
    if f.get("first_seen") or f.get("last_seen"):
        lines.append(f"seen: {_plain(f.get('first_seen'))} → {_plain(f.get('last_seen'))}")
    if f.get("note"):
        lines.append(f"note: {t(f['note'])}")
    context = {k: v for k, v in (f.get("context") or {}).items() if k != "signed"}   # shown in the evidence
    if context:
        lines += ["", "## Context"] + _evidence_lines(context)
    if f.get("evidence"):
        lines += ["", "## Evidence"] + _evidence_lines(_as_shown(f["evidence"], (f.get("context") or {}).get("signed")))
    return "\n".join(lines)


def _as_shown(evidence: Any, signed: Any) -> Any:
    """The evidence with its figures as the briefing shows them: a value written with its sign ("−44%") in
    place of the unsigned figure the evidence keeps (``context.signed``), in the values' own order."""
    values = evidence.get("values") if isinstance(evidence, dict) else None
    if not isinstance(signed, dict) or not signed or not isinstance(values, dict):
        return evidence
    return {**evidence, "values": {signed.get(v, v): where for v, where in values.items()}}
