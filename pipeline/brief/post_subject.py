"""Which paper a blog post is about: the one it cites, when its title or the team's heading of it names that paper.

A post citing one paper is that paper's item (its deployment, its benchmark); a post citing several, or one it is not
about (a release note that cites the paper behind one feature), is an item of its own (``collect._add_posts``).
"""
from __future__ import annotations

import re

from kb.names import title_name
from kb.text import normalize_url
from pipeline.brief.pool import Pool, names_word, norm_title

ABOUT_SHARE = 0.5   # of the paper title's words that a post's title shares, for the post to be about it
_SMALL = frozenset("a an the of for in on to and with via from by at is are as its our we under over".split())


def post_is_about(post_title: str | None, paper_title: str | None) -> bool:
    """Is a post that cites one paper about it? When its title carries the paper's coined name
    (``TierKV``), or most of the paper title's words ("Load-Adaptive Speculative Decoding in vLLM:
    Token Trees …" of *TreeDraft: Load-Adaptive Token-Tree Speculative Decoding …*). "LMCache v0.7:
    CacheBlend Meets Layer-wise Streaming, plus an NVMe Tier" cites TierKV for one feature: it is
    LMCache's release, an item of its own. A paper the store has no title for is taken as the subject."""
    if not paper_title or not post_title:
        return True
    name = title_name(paper_title)
    if name and name.casefold() in post_title.casefold():
        return True
    words = _title_words(paper_title)
    return bool(words) and len(words & _title_words(post_title)) >= ABOUT_SHARE * len(words)


def headed_with_its_paper(pool: Pool, url: str | None, paper_title: str | None) -> bool:
    """Does a team's entry linking the post head it with the coined name of the one paper it cites? Jay's
    "Tessera：MeldKV 上了长文档问答" over Tessera's "Merging Near-Duplicate Tokens for Long-Document QA" (which
    deploys MeldKV, arXiv:2610.34788): the team files the post under the paper, as a post titled with the name
    would be. Day 2's "LMCache v0.7：CacheBlend + layer-wise streaming 合并" names the release, not TierKV."""
    entry = pool.by_key.get(f"url:{normalize_url(url)}") if url else None
    name = title_name(paper_title) if paper_title else None
    return bool(entry is not None and name and any(names_word(name, t) and not _NOT_BEFORE.search(t[:t.find(name)])
                                                    for t in entry.titles))


# A heading naming the paper to say the post does not use it ("Tessera：没用 MeldKV，自己写的 token 合并").
_NOT_BEFORE = re.compile(r"(?:没|不|未|非|无|别|without|not|instead of|rather than|unlike)\s*[用上是做靠]?\s*$", re.I)


def _title_words(title: str) -> set[str]:
    """A title's words as titles are compared (``norm_title``), plural s dropped, small words left out
    ("Token-Tree" → token, tree)."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w
            for w in norm_title(title).split() if w not in _SMALL and len(w) > 1}
