"""What a line of the team's text cites: the arXiv IDs written bare or in a paper's address, never an
ID-shaped part of another page's address (a release tagged ``2610.09701``, a post's slug).

The addresses are the ones the workspace's parsers read (``kb.text.URL_RE``: ``https://…`` and
``www.…``), so a line's cited IDs and its addresses never overlap: an address either cites its paper or
is anchored as itself. The paper sites are data (``data/paper_sites.toml``).
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from urllib.parse import urlsplit

from kb.arxiv_id import ArxivId, clean_text, find_arxiv_ids, parse_arxiv_id
from kb.resources import read_resource
from kb.text import URL_RE, trim_url


@lru_cache(maxsize=1)
def _paper_sites() -> tuple[tuple[str, str], ...]:
    sites = tomllib.loads(read_resource("data/paper_sites.toml"))["sites"]
    return tuple((s["host"].lower(), s["path"].lower()) for s in sites)


def names_a_paper(url: str) -> bool:
    """Does ``url`` name an arXiv paper by the ID in it (arxiv.org/abs/…, huggingface.co/papers/…, the
    arXiv DOI)? A GitHub release tagged ``2610.09701`` does not."""
    url = url.strip()
    parts = urlsplit(url if "://" in url else f"http://{url}")
    try:
        host = (parts.hostname or "").lower()
    except ValueError:   # a malformed address ("http://[x") names nothing
        return False
    path = (parts.path or "/").lower()
    return any((host == site or host.endswith("." + site)) and path.startswith(prefix)
               for site, prefix in _paper_sites())


def written_id(word: str) -> ArxivId | None:
    """The paper ``word`` names when it is one ID written whole, in a form a reader copies: bare or
    ``arXiv:…``, or the address of a paper's page (arxiv.org, its Hugging Face page, the arXiv DOI, with or
    without ``https://doi.org/``: the sites of ``names_a_paper``). None for anything else, an ID inside
    other words too (``论文2610.08977提出``: the words are the writer's)."""
    strict = parse_arxiv_id(word)
    if strict is not None:
        return strict
    written = clean_text(word).strip()
    url = f"doi.org/{written}" if written.lower().startswith("10.48550/") else written
    if "/" not in url or not names_a_paper(url):
        return None
    found = {a.id: a for a in find_arxiv_ids(url)}
    return next(iter(found.values())) if len(found) == 1 else None


def find_cited_ids(text: str) -> list[ArxivId]:
    """``find_arxiv_ids`` of ``text`` less the IDs written inside the address of a page that is not a paper's."""
    found = find_arxiv_ids(text)
    if found and ("://" in text or "www." in text.lower()):   # most text has no ID, or no address
        def mask(m) -> str:
            url = trim_url(m[0])
            return m[0] if names_a_paper(url) else " " * len(url) + m[0][len(url):]
        found = find_arxiv_ids(URL_RE.sub(mask, text))
    return found


def entry_papers(heading: str, urls: list[str], text: str) -> tuple[str | None, tuple[str, ...]]:
    """``(subject, also)``: the paper a note entry is about (``pipeline.workspace.notes.entry_subject``) and the
    other papers it is about too: the one answer the parser, the briefing's items and its rules read.

    A heading's ID or a source URL names the one thing the entry is about: the IDs its text cites beside it
    are mentions in passing (a docs page's note naming AWQ and GPTQ). An entry that names neither is about
    what its text cites, all of it: "H2O (2306.14048) and StreamingLLM (2309.17453) drop KV" is the first
    one's item, and StreamingLLM is as much its subject. ``urls``: the entry's source URLs that are not
    arXiv's (an arXiv link is one of the IDs its text cites)."""
    for where in [heading] + urls[:1]:
        found = find_cited_ids(where)
        if found:
            return found[0].id, ()
    if urls:
        return None, ()
    ids = list(dict.fromkeys(a.id for a in find_cited_ids(text)))
    return (ids[0], tuple(ids[1:])) if ids else (None, ())
