"""The floor of ``bench/nightly.py``: the heavy day with no framework, in one child process.

ElementTree parse of the listing and the feeds, ``json.loads`` of HF, a line-based read of the
team's files, raw ``sqlite3`` executemany of the same records, one precompiled alternation regex
of every taxonomy term tagging every text, and one Jinja render of a simple template.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


FLOOR_TEMPLATE = """# floor · {{ day }}

{% for t in topics %}## {{ t.topic }} ({{ t.n }})
{% for s in t.rows %}- {{ s.key }} {{ s.title }} — {{ s.score }}
{% endfor %}
{% endfor %}
sources: {% for k, v in counts.items() %}{{ k }} {{ v }}{% if not loop.last %}, {% endif %}{% endfor %}
"""


def _trie_regex(words: list[str]) -> str:
    """One alternation of ``words`` factored by common prefixes; greedy, so the longest word wins."""
    import re
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = True

    def walk(node: dict) -> str:
        alts = [re.escape(ch) + walk(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body
    return walk(trie)


def child_floor(home: str, day: str) -> dict:
    """The day with no framework: stdlib parse + raw sqlite3 + one regex + one Jinja render."""
    t0 = time.perf_counter()
    import html
    import re
    import sqlite3
    import tomllib
    import xml.etree.ElementTree as ET

    import jinja2

    ws = Path(home)
    cfg = tomllib.loads((ws / "kb.toml").read_text(encoding="utf-8"))
    id_re = re.compile(r"\b(\d{4}\.\d{4,5})(?:v(\d+))?\b")
    url_re = re.compile(r"https?://[^\s)）<>\"]+")
    tag_re = re.compile(r"<[^>]+>")
    ws_re = re.compile(r"\s+")
    desc_re = re.compile(r"^\s*arXiv:(\S+)\s+Announce Type:\s*([\w-]+)\s*(?:Abstract:\s*(.*))?$", re.DOTALL)
    dc, arx, atom = "{http://purl.org/dc/elements/1.1/}", "{http://arxiv.org/schemas/atom}", "{http://www.w3.org/2005/Atom}"
    papers, sightings, posts, mentions = [], [], [], []
    # arXiv listing
    root = ET.fromstring((ws / cfg["arxiv"]["recording"].format(date=day)).read_bytes())
    for item in root.iter("item"):
        desc = item.findtext("description") or ""
        m = desc_re.match(desc)
        vid = (item.findtext("guid") or "").strip().removeprefix("oai:arXiv.org:")
        aid, _, ver = vid.rpartition("v")
        cats = [c.text for c in item.findall("category")]
        papers.append((aid, int(ver or 1), ws_re.sub(" ", item.findtext("title") or "").strip(),
                       ws_re.sub(" ", m[3] if m and m[3] else desc).strip(), item.findtext(dc + "creator"),
                       " ".join(cats), cats[0] if cats else None))
        sightings.append((aid, "arxiv", day, item.findtext(arx + "announce_type") or (m[2] if m else "new")))
    # HF
    for it in json.loads((ws / cfg["hf"]["recording"].format(date=day)).read_bytes()):
        p = it["paper"]
        papers.append((p["id"], 1, p["title"], p["summary"], ", ".join(a["name"] for a in p["authors"]), None, None))
        sightings.append((p["id"], "hf", day, "featured"))
    # feeds
    for b in cfg.get("blogs", []):
        root = ET.fromstring((ws / b["recording"]).read_bytes())
        if root.tag == atom + "feed":
            entries = [(e.findtext(atom + "title"), (e.find(atom + "link").get("href") if e.find(atom + "link") is not None else None),
                        e.findtext(atom + "published"), e.findtext(atom + "content") or e.findtext(atom + "summary") or "")
                       for e in root.iter(atom + "entry")]
        else:
            entries = [(i.findtext("title"), i.findtext("link"), i.findtext("pubDate"), i.findtext("description") or "")
                       for i in root.iter("item")]
        for title, link, published, body in entries:
            text = ws_re.sub(" ", html.unescape(tag_re.sub(" ", body))).strip()
            posts.append((f"{b['name']}:{link}", b["name"], title, link, published, text))
            mentions += [(m[1], "post", link) for m in id_re.finditer(text)]
    # workspace: notes (## entries or list items), cards, queue, knowledge doc
    notes, entries, cards, queue, anchors = [], [], [], [], []
    for path in sorted((ws / "inbox").rglob("*.md")):
        rel = path.relative_to(ws).as_posix()
        text = path.read_text(encoding="utf-8")
        body = text.split("\n---\n", 1)[1] if text.startswith("---\n") else text
        notes.append((rel, path.parent.name, path.name[:15], text.count("\n")))
        parts = re.split(r"^## ", body, flags=re.MULTILINE)[1:] or re.split(r"^- ", body, flags=re.MULTILINE)[1:]
        for k, e in enumerate(parts, 1):
            head, _, rest = e.partition("\n")
            entries.append((rel, k, head.strip(), rest))
            mentions += [(m[1], "entry", f"{rel}#{k}") for m in id_re.finditer(e)]
            mentions += [(u, "entry-url", f"{rel}#{k}") for u in url_re.findall(e)]
    for path in sorted((ws / "organized/paper_cards").glob("*.md")):
        fm, _, body = path.read_text(encoding="utf-8").removeprefix("---\n").partition("\n---\n")
        kv = dict(line.split(":", 1) for line in fm.splitlines() if ":" in line)
        cards.append((path.name, kv.get("arxiv_id", "").strip(), kv.get("title", "").strip().strip('"'), body))
    for line in (ws / "organized/queue/work-queue.md").read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^(\d+)\.\s+(\S+)\s+(.*)$", line):
            queue.append((int(m[1]), m[2], m[3]))
    section = None
    sec_re, date_re = re.compile(r"^#+\s+§(\S+)"), re.compile(r"[(（](?:anchored|锚定)\s+([\d-]+)[)）]")
    for n, line in enumerate((ws / "organized/knowledge/inference.md").read_text(encoding="utf-8").splitlines(), 1):
        if m := sec_re.match(line):
            section = m[1]
        elif line.startswith("- ") and section:
            d = date_re.search(line)
            for m in id_re.finditer(line):
                anchors.append((section, m[1], n, line, d[1] if d else None))
            for u in url_re.findall(line):
                anchors.append((section, u, n, line, d[1] if d else None))
    t_parse = time.perf_counter()
    # tagging: one precompiled alternation of every taxonomy term
    tax = tomllib.loads((ROOT / "data/taxonomy.toml").read_text(encoding="utf-8"))
    term_topic: dict[str, str] = {}
    for group in ("context", "adjacent", "off_domain"):
        for t in tax.get(group, {}).get("terms", {}):
            term_topic.setdefault(t.lower(), group)
    for slug, topic in tax["topics"].items():
        for t in list(topic.get("terms", {})) + list(topic.get("title_terms", {})):
            term_topic[t.lower()] = slug
    # Factored into a trie (one alternation, longest match first): the same matches as "|".join of the
    # terms, ~10x faster in re. Latin terms whole-word; Chinese terms anywhere (no word breaks in CJK).
    cjk = [t for t in term_topic if "\u2e80" <= t[0] <= "\u9fff"]
    latin = [t for t in term_topic if not "\u2e80" <= t[0] <= "\u9fff"]
    pattern = re.compile(r"\b(?:" + _trie_regex(latin) + r")\b" + ("|" + _trie_regex(cjk) if cjk else ""))
    subjects = ([("paper", p[0], p[2], p[3]) for p in papers] + [("post", p[0], p[2], p[5]) for p in posts]
                + [("entry", f"{e[0]}#{e[1]}", e[2], e[3]) for e in entries])
    tags = []
    for kind, key, title, text in subjects:
        counts: dict[str, int] = {}
        for m in pattern.findall(f"{title}\n{text}".lower()):
            counts[term_topic[m]] = counts.get(term_topic[m], 0) + 1
        tags += [(kind, key, t, c) for t, c in counts.items() if t not in ("context", "adjacent", "off_domain")]
    t_tag = time.perf_counter()
    # store: raw sqlite3, one transaction
    (ws / ".floor").mkdir(exist_ok=True)
    db = sqlite3.connect(ws / ".floor" / "floor.sqlite")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    db.executescript("""
        CREATE TABLE papers(arxiv_id TEXT, version INT, title TEXT, abstract TEXT, authors TEXT, categories TEXT,
                            primary_category TEXT);
        CREATE TABLE sightings(arxiv_id TEXT, source TEXT, seen_on TEXT, kind TEXT);
        CREATE TABLE posts(key TEXT PRIMARY KEY, feed TEXT, title TEXT, url TEXT, published TEXT, summary TEXT);
        CREATE TABLE mentions(subject TEXT, origin_kind TEXT, origin TEXT);
        CREATE TABLE notes(path TEXT PRIMARY KEY, author TEXT, timestamp TEXT, lines INT);
        CREATE TABLE note_entries(path TEXT, number INT, heading TEXT, text TEXT);
        CREATE TABLE cards(path TEXT, arxiv_id TEXT, title TEXT, body TEXT);
        CREATE TABLE queue_items(rank INT, ref TEXT, rest TEXT);
        CREATE TABLE anchors(section TEXT, subject TEXT, line INT, label TEXT, anchored_on TEXT);
        CREATE TABLE tags(kind TEXT, key TEXT, topic TEXT, n INT);
    """)
    with db:
        for table, rows in (("papers", papers), ("sightings", sightings), ("posts", posts), ("mentions", mentions),
                            ("notes", notes), ("note_entries", entries), ("cards", cards), ("queue_items", queue),
                            ("anchors", anchors), ("tags", tags)):
            if rows:
                db.executemany(f"INSERT OR REPLACE INTO {table} VALUES ({','.join('?' * len(rows[0]))})", rows)
    db.close()
    t_store = time.perf_counter()
    # one render
    titles = {k: t for _, k, t, _ in subjects}
    by_topic: dict[str, list] = {}
    for _kind, key, topic, c in tags:
        by_topic.setdefault(topic, []).append({"key": key, "title": titles[key], "score": c})
    topics = [{"topic": t, "n": len(v), "rows": sorted(v, key=lambda s: (-s["score"], s["key"]))[:10]}
              for t, v in sorted(by_topic.items())]
    counts = {"papers": len(papers), "posts": len(posts), "entries": len(entries), "cards": len(cards),
              "queue": len(queue), "anchors": len(anchors), "tags": len(tags)}
    text = jinja2.Environment().from_string(FLOOR_TEMPLATE).render(day=day, topics=topics, counts=counts)
    (ws / ".floor" / f"{day}-floor.md").write_text(text, encoding="utf-8")
    t_end = time.perf_counter()
    return {"seconds": t_end - t0, "parse_s": t_parse - t0, "tag_s": t_tag - t_parse, "store_s": t_store - t_tag,
            "render_s": t_end - t_store, "counts": counts, "terms": len(term_topic)}


def child_libraries(home: str, day: str) -> dict:
    """For orientation: what the design card's libraries alone cost on this day's bytes, with no kb logic —
    typer and SQLModel imported (with kb's table classes, the store's one description), feedparser on
    every feed as kb calls it, markdown-it on every file of the team, and two html renders of a
    briefing-sized page. The floor above pays none of it (stdlib parsers, raw sqlite3)."""
    t0 = time.perf_counter()
    import tomllib

    import feedparser
    import typer  # noqa: F401  (kb's CLI)
    from markdown_it import MarkdownIt

    from kb.store import schema  # noqa: F401  (SQLModel, SQLAlchemy and pydantic, kb's 23 tables)
    ws = Path(home)
    cfg = tomllib.loads((ws / "kb.toml").read_text(encoding="utf-8"))
    t_import = time.perf_counter()
    for b in cfg.get("blogs", []):
        feedparser.parse((ws / b["recording"]).read_bytes(), sanitize_html=False, resolve_relative_uris=False)
    t_feeds = time.perf_counter()
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"])
    for folder in ("inbox", "organized"):
        for path in sorted((ws / folder).rglob("*.md")):
            md.parse(path.read_text(encoding="utf-8"))
    page = max((p.read_text(encoding="utf-8") for p in ws.rglob("*.md")), key=len)   # kb's briefing, once it ran
    html = MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")
    for _ in range(2):
        html.render(page)
    t_end = time.perf_counter()
    return {"seconds": t_end - t0, "import_s": t_import - t0, "feeds_s": t_feeds - t_import,
            "markdown_s": t_end - t_feeds, "page_kb": round(len(page.encode()) / 1024)}
