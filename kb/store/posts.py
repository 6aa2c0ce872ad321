"""Blog and news posts, keyed by ``feed|guid``; the arXiv IDs a post cites are its mentions."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from kb.records import PostRecord
from kb.store.db import Store
from kb.store.fts import post_document
from kb.store.notes import add_mentions, mention_row
from kb.store.papers import WriteCounts
from kb.store.rows import Tx, chunks, row
from kb.store.search import index_docs
from kb.store.tags import enqueue
from kb.text import normalize_url

_TEXT = ("title", "summary", "content")


def save_posts(tx: Tx, posts: list[PostRecord], *, read_at: str | None = None) -> WriteCounts:
    """Insert or update posts; index their text; record the arXiv IDs each one cites. ``read_at``: when the night
    read them (UTC ``YYYY-MM-DDTHH:MM``): a post whose text changed while its feed dates no correction (no ``updated``,
    as RSS mostly has it, or the last correction's again) was corrected in place by then, and is dated so; a
    correction dated once keeps its date."""
    counts = WriteCounts()
    old = {r._mapping["key"]: dict(r._mapping)
           for r in tx.select_in("SELECT * FROM posts WHERE key IN :values", [p.key for p in posts])}
    rows = {p.key: row("posts", p) for p in posts}
    dirty = []
    for key, new in rows.items():
        was = old.get(key)
        if was is not None and (not new["updated"] or new["updated"] == was["updated"]):
            # the feed dates no correction (none, or the last one's again): the night that read a new text does
            new["updated"] = read_at if read_at and any(was[f] != new[f] for f in _TEXT) else was["updated"]
        if key not in old:
            counts.new += 1
        elif old[key] != new:
            counts.updated += 1
        else:
            counts.unchanged += 1
            continue
        dirty.append(new)
    # a text corrected in place: keep the one it replaces, so a past day reads the post as it was then
    replaced = [old[r["key"]] for r in dirty if r["key"] in old and any(old[r["key"]][f] != r[f] for f in _TEXT)]
    if replaced:
        tx.insert("post_versions", [row("post_versions", key=o["key"], valid_from=o["updated"] or o["published"],
                                        updated=o["updated"], **{f: o[f] for f in _TEXT}) for o in replaced])
    tx.upsert("posts", dirty, ["key"])
    index_docs(tx, "post", [(r["key"], *post_document(r["title"], r["summary"], r["content"])) for r in dirty])
    enqueue(tx, "post", [r["key"] for r in dirty])
    add_mentions(tx, [mention_row(a, "post", p.key, 0, (p.published or "")[:10] or None)
                      for p in posts for a in p.arxiv_ids])
    return counts


@dataclass(frozen=True)
class PostView:
    key: str
    feed: str
    title: str
    url: str | None
    published: str | None
    summary: str
    content: str
    updated: str | None             # a later correction, if the feed says so
    cites: tuple[str, ...]          # arXiv IDs the post links or names


def posts_published_between(store: Store, first_day: str, last_day: str) -> list[PostView]:
    """Posts whose ``published`` date — or the date of a later correction — (UTC, as the feed wrote it)
    falls on ``first_day`` … ``last_day`` (indexed), with the IDs each one cites."""
    # NULLS FIRST: SQLite's order of a post with no published date, on PostgreSQL too.
    rows = store.query("SELECT key, feed, title, url, published, summary, content, updated FROM posts "
                       "WHERE (published >= ? AND published < ?) OR (updated >= ? AND updated < ?) "
                       "ORDER BY published NULLS FIRST, key", (first_day, last_day + "~", first_day, last_day + "~"))
    cites: dict[str, list[str]] = {}
    keys = [r[0] for r in rows]
    for i in range(0, len(keys), 500):
        part = keys[i:i + 500]
        for origin, aid in store.query(
                f"SELECT origin, arxiv_id FROM mentions WHERE origin_kind = 'post' AND origin IN "
                f"({','.join('?' * len(part))}) ORDER BY origin, arxiv_id", tuple(part)):
            cites.setdefault(origin, []).append(aid)
    return [PostView(*r, tuple(cites.get(r[0], ()))) for r in rows]


def earlier_texts(store: Store, keys: Iterable[str]) -> dict[str, list[PostView]]:
    """The texts the given posts had before they were corrected in place, newest last, each as a post whose
    ``updated`` is that text's correction date (``published`` stays the post's)."""
    out: dict[str, list[PostView]] = {}
    for part in chunks(sorted(set(keys))):
        for key, feed, url, published, title, summary, content, updated in store.query(
                "SELECT v.key, p.feed, p.url, p.published, v.title, v.summary, v.content, v.updated "
                "FROM post_versions v JOIN posts p ON p.key = v.key "
                f"WHERE v.key IN ({','.join('?' * len(part))}) ORDER BY v.key, v.id", tuple(part)):
            out.setdefault(key, []).append(PostView(key, feed, title, url, published, summary, content, updated, ()))
    return out


def post_keys_by_url(store: Store) -> dict[str, str]:
    """Each post's key by its URL as a briefing links it (normalised; the first key of a URL two feeds share):
    one read of the posts, for the commands and corrections that name a post by its link."""
    out: dict[str, str] = {}
    for key, url in store.query("SELECT key, url FROM posts WHERE url IS NOT NULL ORDER BY key"):
        out.setdefault(normalize_url(url), key)
    return out
