"""BibTeX for the arXiv IDs the team anchored in its knowledge docs or a briefing listed as citable.

One ``@misc`` entry per ID in the form arXiv's own export uses (``eprint``, ``archivePrefix``,
``primaryClass``, ``url``), written by bibtexparser. Every value comes from outside (titles and
abstracts from feeds, the team's notes), so LaTeX's special characters are escaped and braces
always balance: a stray ``}`` or ``%`` in a title can neither end the entry nor comment out the
rest of the file. Where the store has no metadata for an ID (cited before it was fetched), the
entry still carries the ID, its URL and where kb saw it.
"""
from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from kb.sections import section_matches
from kb.store import Store
from kb.text import without_hidden_controls

_LATEX = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
          "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_LATEX_RE = re.compile("|".join(re.escape(k) for k in _LATEX))


def latex(text: str | None) -> str:
    """Text for a BibTeX field: one line, LaTeX's special characters escaped (so braces balance), without
    hidden controls (a .bib written with --out never passes the CLI's echo)."""
    return _LATEX_RE.sub(lambda m: _LATEX[m[0]], " ".join(without_hidden_controls(text or "").split()))


def _year(arxiv_id: str, published: str | None) -> str:
    if published and re.match(r"\d{4}", published):
        return published[:4]
    m = re.match(r"(?:[a-z-]+(?:\.[A-Z]{2})?/)?(\d{2})\d{2}", arxiv_id)   # 2610.09701, hep-th/9901001
    return ("19" if int(m[1]) >= 91 else "20") + m[1] if m else ""


def cited(store: Store, *, topic: str | None = None, section: str | None = None,
          since: str | None = None, topics: Collection[str] | None = None) -> list[dict[str, Any]]:
    """The IDs to export, each once (in ID order), with where they were anchored and briefed."""
    from kb.store.anchors import query_anchored
    from kb.store.briefings import briefed_ids
    seen: dict[str, dict[str, Any]] = {}

    def entry(aid: str, title: str | None) -> dict[str, Any]:
        e = seen.setdefault(aid, {"title": None, "anchored": [], "briefed": []})
        e["title"] = e["title"] or title      # the anchor line's or the briefing's, when the store has none
        return e

    for a in query_anchored(store, topic=topic, section=section, since=since, topics=topics):
        if a["arxiv_id"]:
            entry(a["arxiv_id"], a.get("title"))["anchored"].append(
                f"{a['topic']} {a['section']} ({a['anchored_on'] or 'undated'})")
    for b in briefed_ids(store, topic=topic, since=since, topics=topics):
        where = (b["section"] or "").lstrip("§")
        if section is not None and not (where and section_matches(where, section)):
            continue
        entry(b["arxiv_id"], b.get("title"))["briefed"].append(
            f"{b['topic']} {b['section'] or ''} ({b['date']})".replace("  ", " "))
    return [{"arxiv_id": k, **v} for k, v in sorted(seen.items())]


def bibtex(store: Store, *, topic: str | None = None, section: str | None = None, since: str | None = None,
           topics: Collection[str] | None = None) -> str:
    """The BibTeX of every ID ``cited`` selects ("" when none)."""
    import bibtexparser
    from bibtexparser.model import Entry, Field

    from kb.store.papers import paper_metadata
    rows = cited(store, topic=topic, section=section, since=since, topics=topics)
    meta = paper_metadata(store, [r["arxiv_id"] for r in rows])
    library = bibtexparser.Library()
    for r in rows:
        aid, p = r["arxiv_id"], meta.get(r["arxiv_id"], {})
        fields = [("title", "{" + latex(p.get("title") or r["title"] or aid) + "}"),   # {…}: keep its case
                  ("author", " and ".join(latex(a) for a in p.get("authors") or [])),
                  ("year", _year(aid, p.get("published"))), ("eprint", aid), ("archivePrefix", "arXiv"),
                  ("primaryClass", p.get("primary_category") or ""), ("url", f"https://arxiv.org/abs/{aid}"),
                  ("doi", latex(p.get("doi"))), ("journal", latex(p.get("journal_ref"))),
                  ("abstract", latex(p.get("abstract"))),
                  ("note", latex("kb: " + "; ".join([f"anchored {x}" for x in r["anchored"]]
                                                    + [f"briefed {x}" for x in r["briefed"]])))]
        library.add(Entry("misc", f"arXiv:{aid}", [Field(k, v) for k, v in fields if v]))
    return bibtexparser.write_string(library) if rows else ""
