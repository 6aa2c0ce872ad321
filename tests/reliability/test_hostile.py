"""Hostile content: entity bombs and XXE in every XML path, broken encodings, NUL, huge fields,
invisible characters in IDs, YAML that tries to expand or to run code, bidi overrides and controls in text."""
from __future__ import annotations

import contextlib
import json
import time
import tracemalloc
from pathlib import Path

import pytest

import pipeline.sources  # noqa: F401  (imported before tracemalloc starts: imports are not the payload)
import pipeline.sources.blogs  # noqa: F401
import pipeline.workspace.cards  # noqa: F401
import pipeline.workspace.knowledge  # noqa: F401
import pipeline.workspace.notes  # noqa: F401
import pipeline.workspace.queue  # noqa: F401
from pipeline.context import open_context
from pipeline.ingest.bulk import ingest_bulk_file
from pipeline.ingest.public import ingest, ingest_source
from pipeline.ingest.workspace import ingest_workspace
from pipeline.sources.registry import Source
from tests.reliability.support import DAY, dump, hidden_controls, ledger, seed, store_bytes
from tests.support.server import Reply

MiB = 1024 * 1024
HOSTILE_BLOG = Source("hostile-blog", "blog", "https://blog.example.org/feed.xml", None, 3)

# One document per XML path kb has; {doctype} goes in the prolog, {ref} in a title.
XML_PATHS = {
    "listing-rss": ("arxiv", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/" version="2.0"><channel>
<title>cs.DC updates on arXiv.org</title><link>http://rss.arxiv.org/rss/cs.DC</link>
<pubDate>Thu, 08 Oct 2026 00:00:00 -0400</pubDate>
<item><title>{ref} Prefill</title><link>https://arxiv.org/abs/2610.04444</link>
<description>arXiv:2610.04444v1 Announce Type: new
Abstract: {ref}</description><guid isPermaLink="false">oai:arXiv.org:2610.04444v1</guid>
<category>cs.DC</category><arxiv:announce_type>new</arxiv:announce_type><dc:creator>A B</dc:creator></item>
</channel></rss>"""),
    "listing-atom": ("arxiv", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
<id>http://rss.arxiv.org/atom/cs.DC</id><title>cs.DC updates on arXiv.org</title>
<link href="http://rss.arxiv.org/atom/cs.DC" rel="self"/><updated>2026-10-08T04:00:00Z</updated>
<entry><id>oai:arXiv.org:2610.04444v1</id><title>{ref} Prefill</title><published>2026-10-08T00:00:00-04:00</published>
<summary>arXiv:2610.04444v1 Announce Type: new
Abstract: {ref}</summary><link href="https://arxiv.org/abs/2610.04444" rel="alternate"/>
<category term="cs.DC"/><arxiv:announce_type>new</arxiv:announce_type></entry>
</feed>"""),
    "api": ("arxiv", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
<id>https://arxiv.org/api/x</id><title>arXiv Query</title><updated>2026-10-08T00:00:00-04:00</updated>
<opensearch:totalResults>1</opensearch:totalResults>
<entry><id>http://arxiv.org/abs/2610.04444v1</id><updated>2026-10-07T17:00:00Z</updated>
<published>2026-10-07T17:00:00Z</published><title>{ref} Prefill</title><summary>{ref}</summary>
<author><name>A B</name></author></entry>
</feed>"""),
    "oai-bulk": ("arxiv-bulk", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>
<record><header><identifier>oai:arXiv.org:2610.04444</identifier></header><metadata>
<arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>2610.04444</id><created>2026-10-07</created>
<title>{ref} Prefill</title><abstract>{ref}</abstract></arXiv></metadata></record>
</ListRecords></OAI-PMH>"""),
    "blog-rss": ("hostile-blog", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<rss version="2.0"><channel><title>Blog</title><link>https://blog.example.org/</link>
<item><title>{ref} Prefill</title><link>https://blog.example.org/1</link><guid>post-1</guid>
<pubDate>Thu, 08 Oct 2026 08:00:00 GMT</pubDate><description>{ref}</description></item>
</channel></rss>"""),
    "blog-atom": ("hostile-blog", b"""<?xml version="1.0" encoding="UTF-8"?>
{doctype}
<feed xmlns="http://www.w3.org/2005/Atom"><id>https://blog.example.org/</id><title>Blog</title>
<updated>2026-10-08T08:00:00Z</updated>
<entry><id>https://blog.example.org/1</id><title>{ref} Prefill</title><link href="https://blog.example.org/1"/>
<updated>2026-10-08T08:00:00Z</updated><summary>{ref}</summary></entry>
</feed>"""),
}

LAUGHS = b"<!DOCTYPE r [\n  <!ENTITY lol \"lol\">\n" + b"".join(
    b'  <!ENTITY lol%d "%s">\n' % (n, (b"&lol%d;" % (n - 1) if n > 2 else b"&lol;") * 10) for n in range(2, 11)
) + b"]>"


def _doc(kind: str, doctype: bytes, ref: bytes) -> bytes:
    return XML_PATHS[kind][1].replace(b"{doctype}", doctype).replace(b"{ref}", ref)


def _ingest(ctx, kind: str, path: Path):
    if kind.startswith("blog"):
        return ingest(ctx, HOSTILE_BLOG, [path])
    if kind == "oai-bulk":
        return ingest_bulk_file(ctx, path)
    return ingest_source(ctx, "arxiv", [path])


@pytest.fixture
def seeded(workspace: Path):
    ctx = open_context(str(workspace), DAY)
    seed(ctx)
    yield ctx
    ctx.store.close()


def test_the_documents_are_read_when_harmless(seeded, tmp_path: Path, kept) -> None:
    """Control: without the hostile prolog every document of XML_PATHS is a good payload."""
    for kind in XML_PATHS:
        f = tmp_path / f"{kind}.xml"
        f.write_bytes(_doc(kind, b"", b"Paged"))
        report = _ingest(seeded, kind, f)
        assert report.status == "ok" and report.parsed == 1, (kind, report.summary())
    assert kept.store(seeded.store.path) == "ok"


@pytest.mark.parametrize("kind", list(XML_PATHS))
def test_billion_laughs_is_refused_in_bounded_memory(seeded, tmp_path: Path, kept, kind: str) -> None:
    f = tmp_path / f"{kind}.xml"
    f.write_bytes(_doc(kind, LAUGHS, b"&lol10;"))        # 10^10 "lol"s if ever expanded
    before = dump(seeded.store.path)
    tracemalloc.start()
    started = time.monotonic()
    try:
        report = _ingest(seeded, kind, f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 5
    assert peak < 8 * MiB, f"{peak / MiB:.1f} MiB"
    assert report.status == "failed" and "declares entities" in report.error
    row = ledger(seeded.store.path, XML_PATHS[kind][0])
    assert row["status"] == "failed" and "declares entities" in row["error"]
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0 and _data(after, kind) == _data(before, kind)
    assert kept.store(seeded.store.path) == "ok"


def _data(d: dict, kind: str) -> dict:
    """A bulk run registers its source before it reads a byte; that row is bookkeeping, not data."""
    return {t: [r for r in rows if not (t == "sources" and kind == "oai-bulk" and r[0] == "arxiv-bulk")]
            for t, rows in d.items()}


def _secret_files(tmp_path: Path) -> tuple[bytes, Path, Path]:
    secret = b"TOPSECRET-kb-reliability-7f3a"
    target = tmp_path / "secret.txt"
    target.write_bytes(secret)
    dtd = tmp_path / "evil.dtd"
    dtd.write_bytes(b'<!ENTITY s SYSTEM "' + target.as_uri().encode() + b'">\n')
    return secret, target, dtd


@pytest.mark.parametrize("variant", ["internal-entity", "parameter-entity", "external-dtd"])
@pytest.mark.parametrize("kind", list(XML_PATHS))
def test_xxe_never_reads_the_file(seeded, tmp_path: Path, kept, kind: str, variant: str) -> None:
    secret, target, dtd = _secret_files(tmp_path)
    doctype, ref = {
        "internal-entity": (b'<!DOCTYPE r [<!ENTITY xxe SYSTEM "' + target.as_uri().encode() + b'">]>', b"&xxe;"),
        "parameter-entity": (b'<!DOCTYPE r [<!ENTITY % p SYSTEM "' + dtd.as_uri().encode() + b'"> %p;]>', b"&s;"),
        "external-dtd": (b'<!DOCTYPE r SYSTEM "' + dtd.as_uri().encode() + b'">', b"&s;"),
    }[variant]
    f = tmp_path / f"{kind}.xml"
    f.write_bytes(_doc(kind, doctype, ref))
    before = dump(seeded.store.path)
    report = _ingest(seeded, kind, f)
    if variant != "external-dtd":
        assert report.status == "failed" and "declares entities" in report.error
    # An external DTD is never loaded: the entity stays undefined (refused, or dropped by feedparser).
    seeded.store.conn.execute("PRAGMA wal_checkpoint")
    blobs = [store_bytes(seeded.workspace.root), report.summary().encode(), json.dumps(dump(seeded.store.path)).encode()]
    assert kept.secret_absent(secret, *blobs)
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0
    if report.status == "failed":
        assert _data(after, kind) == _data(before, kind)
    assert kept.store(seeded.store.path) == "ok"


# --------------------------------------------------------------------------- encodings, NUL
def _texts(db: Path) -> list[str]:
    return [v for rows in dump(db).values() for row in rows for v in row if isinstance(v, str)]


def test_invalid_utf8_is_refused_or_skipped_by_line(seeded, tmp_path: Path, kept) -> None:
    before = dump(seeded.store.path)
    listing = tmp_path / "listing.xml"
    listing.write_bytes(_doc("listing-rss", b"", b"caf\xe9 \xff\xfe"))
    report = ingest_source(seeded, "arxiv", [listing])
    assert report.status == "failed" and "invalid UTF-8 at byte" in report.error
    feed = tmp_path / "feed.xml"
    feed.write_bytes(_doc("blog-atom", b"", b"\xc3\x28 broken"))
    report = ingest(seeded, HOSTILE_BLOG, [feed])
    assert report.status == "failed" and "invalid UTF-8" in report.error
    hf = tmp_path / "daily_papers_2026-10-08.json"
    hf.write_bytes(b'[{"paper": {"id": "2610.04444", "title": "caf\xe9"}}]')
    report = ingest_source(seeded, "hf", [hf])
    assert report.status == "failed" and "not UTF-8" in report.error
    assert dump(seeded.store.path) == before
    # Line-oriented bulk files lose only the bad line.
    lines = [json.dumps({"id": f"2610.0{n:04d}", "title": f"Paper {n}", "categories": "cs.DC",
                         "versions": [{"version": "v1", "created": "Mon, 5 Oct 2026 10:00:00 GMT"}]}).encode()
             for n in range(1, 6)]
    lines[2] = lines[2].replace(b"Paper 3", b"Paper \xff\xfe 3")
    bulk = tmp_path / "k.jsonl"
    bulk.write_bytes(b"\n".join(lines) + b"\n")
    report = ingest_bulk_file(seeded, bulk)
    assert (report.parsed, report.skipped) == (4, 1) and "line 3: not UTF-8" in report.problems[0]
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0
    assert kept.items(4, len(after["papers"]) - len(before["papers"])) == 0
    assert kept.store(seeded.store.path) == "ok"


def test_nul_bytes_never_reach_the_store(seeded, tmp_path: Path, kept) -> None:
    before = dump(seeded.store.path)
    raw = tmp_path / "listing.xml"
    raw.write_bytes(_doc("listing-rss", b"", b"Null\x00Title"))
    assert ingest_source(seeded, "arxiv", [raw]).status == "failed"       # not XML at all
    feed = tmp_path / "feed.xml"
    feed.write_bytes(_doc("blog-rss", b"", b"Null\x00Title"))
    assert ingest(seeded, HOSTILE_BLOG, [feed]).status == "failed"
    assert dump(seeded.store.path) == before
    hf = tmp_path / "daily_papers_2026-10-08.json"
    hf.write_text(json.dumps([{"paper": {"id": "2610.04444", "title": "Null\u0000Title\u0007",
                                         "authors": [{"name": "A\u0000B"}], "summary": "x\u0000y"}}]))
    report = ingest_source(seeded, "hf", [hf])
    assert report.status == "ok" and report.new == 1
    bulk = tmp_path / "k.jsonl"
    bulk.write_bytes(json.dumps({"id": "2610.05555", "title": "Bulk\u0000Title", "categories": "cs.DC"}).encode()
                     + b"\n" + b'{"id": "2610.06666", "title": "raw\x00nul"}\n')
    report = ingest_bulk_file(seeded, bulk)
    assert (report.parsed, report.skipped) == (1, 1)                    # the raw NUL line is not JSON
    note = seeded.workspace.root / "inbox" / "amy" / "2026-10-08-nul.md"
    note.parent.mkdir(parents=True)
    note.write_bytes(b"## Entry\n\n- a NUL \x00 here\n")
    report = ingest_workspace(seeded)
    assert any("binary content" in p for p in report.problems)
    assert not any("\x00" in t for t in _texts(seeded.store.path))
    title = seeded.store.conn.execute("SELECT title FROM papers WHERE arxiv_id = '2610.04444'").fetchone()[0]
    assert title == "NullTitle"
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0 and kept.store(seeded.store.path) == "ok"


def test_a_10mb_title_is_cut_and_the_rest_kept(seeded, tmp_path: Path, kept) -> None:
    before = dump(seeded.store.path)
    huge = (b"Prefill " * 800_000 + "推理".encode() * 700_000)           # 10.6 MB
    listing = (Path(__file__).parents[1] / "fixtures" / "sources" / "listing_rss_3items.xml").read_bytes()
    f = tmp_path / "listing.xml"
    f.write_bytes(listing.replace(b"Speculative Decoding Revisited", huge))
    assert f.stat().st_size > 10 * 1000 * 1000
    started = time.monotonic()
    report = ingest_source(seeded, "arxiv", [f])
    assert time.monotonic() - started < 20
    assert report.status == "ok" and report.new == 3                     # every item kept …
    assert any("title of" in p and "cut to 1,000" in p for p in report.problems)
    titles = [r[0] for r in seeded.store.conn.execute("SELECT title FROM papers")]
    assert max(map(len, titles)) <= 1000                                 # … none of them 10 MB
    feed = tmp_path / "feed.xml"
    feed.write_bytes(_doc("blog-rss", b"", huge))
    report = ingest(seeded, HOSTILE_BLOG, [feed])
    assert report.status == "ok" and report.new == 1
    post = seeded.store.conn.execute("SELECT length(title), length(summary) FROM posts WHERE feed = 'hostile-blog'").fetchone()
    assert post[0] <= 1000 and post[1] <= 20000
    seeded.store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert seeded.store.path.stat().st_size < 3 * MiB
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0
    assert kept.items(len(before["papers"]) + 3, len(after["papers"])) == 0
    assert kept.store(seeded.store.path) == "ok"


def test_deeply_nested_json_is_refused_not_a_crash(seeded, tmp_path: Path, kept, server) -> None:
    """[[[[… 100,000 deep: Python's JSON parser raises RecursionError, which is no ParseError."""
    before = dump(seeded.store.path)
    deep = b"[" * 100_000 + b"]" * 100_000
    from tests.reliability.support import client
    seeded._http = client()
    seeded.config.hf_url = server.url("/hf")
    server.script("/hf", Reply(200, deep, {"Content-Type": "application/json"}))
    report = ingest_source(seeded, "hf")                                           # HF over HTTP
    assert report.status == "failed" and "nested too deeply" in report.error
    assert ledger(seeded.store.path, "hf")["status"] == "failed"
    recording = tmp_path / "deep.json"
    recording.write_bytes(b'{"id": "2610.04444", "versions": ' + deep + b"}\n")
    report = ingest_source(seeded, "arxiv", [recording])                  # format detection of a recording
    assert report.status == "failed" and "not an arXiv listing" in report.error
    bulk = tmp_path / "k.jsonl"
    good = json.dumps({"id": "2610.08881", "title": "Kept", "categories": "cs.DC"}).encode()
    bulk.write_bytes(good + b"\n" + b'{"id": "2610.06666", "x": ' + deep + b"}\n" + good.replace(b"08881", b"08882") + b"\n")
    report = ingest_bulk_file(seeded, bulk)                              # one line of a bulk file
    assert (report.parsed, report.skipped) == (2, 1) and "line 2: JSON nested too deeply" in report.problems[0]
    after = dump(seeded.store.path)
    assert kept.rows(before, after) == 0
    assert kept.items(len(before["papers"]) + 2, len(after["papers"])) == 0
    assert kept.store(seeded.store.path) == "ok"


# --------------------------------------------------------------------------- invisible characters in IDs
ZWSP, RLO, PDF, WJ = "\u200b", "\u202e", "\u202c", "\u2060"
PAPER = "2607.09701"
DISGUISED = [f"2607.0{ZWSP}9701", f"{RLO}2607.09701{PDF}", f"2607.09701{WJ}", "\ufeff2607.09701"]


def _listing_for(ident: str, version: int, title: str) -> bytes:
    listing = (Path(__file__).parents[1] / "fixtures" / "sources" / "listing_rss_3items.xml").read_text(encoding="utf-8")
    start, end = listing.index("<item>"), listing.index("</item>") + len("</item>")
    item = listing[start:end].replace("2610.01234v1", f"{ident}v{version}").replace("2610.01234", ident)
    item = item.replace("Paged Prefill for\n  Long Contexts", title)
    return (listing[:start] + item + listing[listing.rindex("</item>") + len("</item>"):]).encode("utf-8")


def test_invisible_characters_in_ids_from_a_listing(seeded, tmp_path: Path, kept, server) -> None:
    first = tmp_path / "first.xml"
    first.write_bytes(_listing_for(PAPER, 1, "SlimWise"))
    assert ingest_source(seeded, "arxiv", [first]).new == 1
    before = dump(seeded.store.path)
    for n, ident in enumerate(DISGUISED, start=2):
        f = tmp_path / f"disguised{n}.xml"
        f.write_bytes(_listing_for(ident, n, f"SlimWise v{n}"))
        report = ingest_source(seeded, "arxiv", [f])
        assert report.status == "ok" and report.new == 0 and report.updated == 1, report.summary()
    # … and over HTTP, from HF, with the disguise in the JSON id.
    seeded.config.hf_url = server.url("/hf")
    from tests.reliability.support import client
    seeded._http = client()
    server.script("/hf", Reply(200, json.dumps([{"paper": {"id": DISGUISED[0], "title": "SlimWise"}}]).encode()))
    assert ingest_source(seeded, "hf").new == 0
    ids = [r[0] for r in seeded.store.conn.execute("SELECT arxiv_id FROM papers")]
    assert len(ids) == len(before["papers"]) and ids.count(PAPER) == 1
    assert all(i.isascii() for i in ids)
    assert seeded.store.conn.execute("SELECT latest_version FROM papers WHERE arxiv_id = ?", (PAPER,)).fetchone()[0] == 5
    assert kept.items(len(before["papers"]), len(ids)) == 0
    assert kept.store(seeded.store.path) == "ok"


def test_invisible_characters_in_ids_from_a_note_and_a_card(seeded, kept, runner) -> None:
    first = seeded.workspace.root / "first.xml"
    first.write_bytes(_listing_for(PAPER, 1, "SlimWise"))
    assert ingest_source(seeded, "arxiv", [first]).new == 1
    root = seeded.workspace.root
    note = root / "inbox" / "amy" / "2026-10-08-ids.md"
    note.parent.mkdir(parents=True)
    note.write_text("## SlimWise\n\n" + "".join(f"- arXiv:{d} prefill decode\n" for d in DISGUISED), encoding="utf-8")
    card = root / "organized" / "paper_cards" / "001-2607-09701.md"
    card.write_text(f'---\narxiv_id: "{DISGUISED[0]}"\ntitle: SlimWise\n---\nBody.\n', encoding="utf-8")
    report = ingest_workspace(seeded)
    assert report.status == "ok"
    mentions = seeded.store.conn.execute(
        "SELECT subject, arxiv_id FROM mentions WHERE origin_kind IN ('entry', 'card')").fetchall()
    assert {m[1] for m in mentions} == {PAPER} and all(m[0].isascii() for m in mentions)
    row = seeded.store.conn.execute("SELECT arxiv_id, file_id FROM cards").fetchone()
    assert row == (PAPER, PAPER)
    assert not any("file name says" in p for p in report.problems)
    assert seeded.store.conn.execute("SELECT count(*) FROM papers WHERE arxiv_id LIKE '2607%'").fetchone()[0] == 1
    from kb.cli import app
    shown = runner.invoke(app, ["--home", str(root), "show", DISGUISED[1], "--format", "json"])
    assert shown.exit_code == 0 and json.loads(shown.output)["arxiv_id"] == PAPER
    assert kept.items(1, seeded.store.conn.execute("SELECT count(*) FROM papers WHERE arxiv_id = ?", (PAPER,)).fetchone()[0]) == 0
    assert kept.store(seeded.store.path) == "ok"


# --------------------------------------------------------------------------- YAML front matter
ALIAS_BOMB = "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi"))


def _front(fm: str, body: str) -> str:
    return f"---\n{fm}---\n{body}"


def test_front_matter_alias_bomb_is_refused(seeded, kept) -> None:
    root = seeded.workspace.root
    card = root / "organized" / "paper_cards" / "001-2610-04444.md"
    card.write_text(_front('arxiv_id: "2610.04444"\n' + ALIAS_BOMB, "# Bomb Card\n\nKV cache body.\n"), encoding="utf-8")
    note = root / "inbox" / "amy" / "2026-10-08-bomb.md"
    note.parent.mkdir(parents=True)
    note.write_text(_front(ALIAS_BOMB, "## Entry one\n\n- prefill 2610.04444\n\n## Entry two\n\n- decode\n"), encoding="utf-8")
    tracemalloc.start()
    started = time.monotonic()
    try:
        report = ingest_workspace(seeded)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 5 and peak < 16 * MiB, f"{peak / MiB:.1f} MiB"
    assert sum("alias" in p and "refused" in p for p in report.problems) == 2
    # Both files are still read: the body stands, only the front matter is refused.
    assert seeded.store.conn.execute("SELECT arxiv_id, title FROM cards").fetchone() == ("2610.04444", "Bomb Card")
    assert seeded.store.conn.execute("SELECT count(*) FROM note_entries").fetchone()[0] == 2
    assert kept.items(2, report.parsed) == 0
    assert kept.store(seeded.store.path) == "ok"


def test_yaml_tags_never_construct_objects(seeded, tmp_path: Path, kept) -> None:
    root = seeded.workspace.root
    marks = [tmp_path / f"pwned-{n}" for n in range(4)]
    tags = [f'!!python/object/apply:os.system ["touch {marks[0]}"]',
            f'!!python/object/new:subprocess.Popen [["touch", "{marks[1]}"]]',
            f'!!python/object/apply:subprocess.check_call [["touch", "{marks[2]}"]]',
            "!!python/name:os.system"]
    card = root / "organized" / "paper_cards" / "001-2610-04444.md"
    card.write_text(_front(f'arxiv_id: "2610.04444"\ntitle: {tags[0]}\nsource: {tags[3]}\n', "# Card\n"), encoding="utf-8")
    note = root / "inbox" / "amy" / "2026-10-08-tags.md"
    note.parent.mkdir(parents=True)
    note.write_text(_front(f"title: {tags[1]}\ntags: {tags[2]}\n", "## Entry\n\n- decode\n"), encoding="utf-8")
    note2 = root / "inbox" / "amy" / "2026-10-08-tags2.md"
    note2.write_text(_front(f"credibility: !!python/object/apply:os.system ['touch {marks[3]}']\n", "## E\n\n- x\n"),
                     encoding="utf-8")
    report = ingest_workspace(seeded)
    assert not any(m.exists() for m in marks)
    assert sum("not valid safe YAML" in p for p in report.problems) == 3
    assert kept.items(3, report.parsed) == 0                              # the three files are still read
    assert seeded.store.conn.execute("SELECT arxiv_id FROM cards").fetchone()[0] == "2610.04444"
    assert kept.store(seeded.store.path) == "ok"


# --------------------------------------------------------------------------- briefings
PAYLOAD = "<script>alert(1)</script><img src=x onerror=alert(2)> a|b [c](javascript:alert(3)) `t` *e* <a href=\"javascript:alert(4)\">x</a>"
MARKERS = ("XSSLIST", "XSSAUTH", "XSSHF", "XSSBLOG", "XSSNOTE", "XSSPOINT", "XSSCARD", "XSSPATH")


def _xml(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _replace(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@pytest.fixture(scope="module")
def hostile_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """data/sample with script tags, event handlers, javascript: links and table breakers in every field
    that reaches a briefing: listing titles and authors, HF titles, blog titles and links, note
    headings and points, card titles, an author folder's name. Nightly run once."""
    import shutil

    from tests.reliability.support import REPO, kb
    root = tmp_path_factory.mktemp("hostile") / "sample"
    shutil.copytree(REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    rec = root / "recordings"
    import re
    listing = rec / "arxiv" / "2026-10-08-listing.xml"
    listing.write_text(re.sub(r"(<item>\s*<title>)", lambda m: m[1] + "XSSLIST " + _xml(PAYLOAD) + "\n| fake | row |\n",
                              listing.read_text(encoding="utf-8")), encoding="utf-8")
    _replace(listing, "<dc:creator>Felix Park</dc:creator>", "<dc:creator>Felix XSSAUTH " + _xml(PAYLOAD) + "</dc:creator>")
    hf = rec / "hf" / "daily_papers_2026-10-08.json"
    hf.write_text(hf.read_text(encoding="utf-8").replace('"title": "', '"title": "XSSHF ' + PAYLOAD.replace('"', '\\"')
                                                        + ' \\n| x | '), encoding="utf-8")
    for card in (root / "organized" / "paper_cards").glob("*.md"):
        card.write_text(re.sub(r'^title: "', 'title: "XSSCARD <script>alert(6)</script>\\n| x | y |\\n',
                               card.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    _replace(rec / "blogs" / "llm-d.xml", '<title type="html">Benchmarking NIXL',
             '<title type="text">XSSBLOG ' + _xml(PAYLOAD) + " Benchmarking NIXL")
    _replace(rec / "blogs" / "llm-d.xml", '<link href="https://llm-d.ai/blog/nixl-transfer-backends-benchmark" rel="alternate"',
             '<link href="javascript:alert(5)" rel="alternate"')
    note = root / "inbox" / "jay" / "2026-10-08T1950-jay-engineering-filter-pd-disaggregation-mooncake-moriiio.md"
    _replace(note, "## 2. llm-d × NIXL：", "## 2. XSSNOTE " + PAYLOAD + " llm-d × NIXL：")
    _replace(note, "- NIXL（NVIDIA", "- XSSPOINT " + PAYLOAD + " | x | NIXL（NVIDIA")
    evil = root / "inbox" / "<img src=x onerror=alert(7)>|XSSPATH"
    evil.mkdir()
    (evil / "2026-10-08-kv.md").write_text(
        "## XSSPATH KV cache prefill decode disaggregation serving <iframe src=javascript:alert(8)>\n\n"
        "- vLLM prefill decode disaggregation KV transfer 2610.09701 benchmark 40 GB/s | cell |\n", encoding="utf-8")
    result = kb("nightly", "--home", str(root), "--date", DAY.isoformat(), "--offline", "--quiet")
    assert result.returncode == 0, result.stderr
    return root


@pytest.mark.parametrize("fmt, lang", [("md", "zh"), ("md", "en"), ("html", "zh"), ("html", "en")])
def test_briefings_escape_hostile_text(hostile_sample: Path, kept, fmt: str, lang: str) -> None:
    from tests.reliability.support import kb_inproc
    out = f"briefings/check-{lang}.{fmt}"
    result = kb_inproc("--home", str(hostile_sample), "brief", "--date", DAY.isoformat(), "--lang", lang,
                       "--format", fmt, "--out", out)
    assert result.returncode == 0, result.stderr
    text = (hostile_sample / out).read_text(encoding="utf-8")
    shown = {m for m in MARKERS if m in text}
    # The hostile items did reach the briefing (else there would be nothing to escape): listing
    # titles, note headings, feed items, an author's folder. (Briefings name no authors, and in the
    # sample a note's title wins over the card's and HF's for the same paper.)
    assert {"XSSLIST", "XSSNOTE", "XSSBLOG", "XSSPATH"} <= shown, shown
    # … and not one script, handler, javascript: link or broken table row came with them.
    assert kept.escaped(text, html_output=fmt == "html") == []


def test_kb_show_markdown_escapes_hostile_text(hostile_sample: Path, kept) -> None:
    from tests.reliability.support import kb_inproc
    result = kb_inproc("--home", str(hostile_sample), "show", "2610.09701", "--format", "md")
    assert result.returncode == 0 and "XSSLIST" in result.stdout and "XSSAUTH" in result.stdout
    assert kept.escaped(result.stdout, html_output=False) == []


# --------------------------------------------------------------------------- hidden controls
# A right-to-left override (and its pop), an isolate, a mark, a zero-width space and a CSI around words
# that must stay: the marker, Chinese, an emoji joined by a zero-width joiner.
HIDDEN = "\u202e{m}\u202c \u2066推理\u2069\u200f 👩\u200d💻\u200b\x9b"
SHOWN = "{m} 推理 👩\u200d💻"
HIDDEN_MARKERS = ("HIDLIST", "HIDAUTH", "HIDHF", "HIDBLOG", "HIDNOTE", "HIDCARD")


def _team_files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for d in ("inbox", "organized") for p in (root / d).rglob("*")
            if p.is_file()}


@pytest.fixture(scope="module")
def hidden_sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, bytes]]:
    """data/sample with bidi overrides, isolates, zero-width and C1 characters in listing titles and
    authors, HF titles, a blog title (the outside sources), a note heading and card titles (the team's
    own text); nightly run once. Also the team's files as they were before it."""
    import re
    import shutil

    from tests.reliability.support import REPO, kb
    root = tmp_path_factory.mktemp("hidden") / "sample"
    shutil.copytree(REPO / "data" / "sample", root, ignore=shutil.ignore_patterns(".kb", "briefings"))
    rec = root / "recordings"
    listing = rec / "arxiv" / "2026-10-08-listing.xml"
    listing.write_text(re.sub(r"(<item>\s*<title>)", lambda m: m[1] + HIDDEN.format(m="HIDLIST") + " ",
                              listing.read_text(encoding="utf-8")), encoding="utf-8")
    _replace(listing, "<dc:creator>Felix Park</dc:creator>",
             "<dc:creator>Felix " + HIDDEN.format(m="HIDAUTH") + "</dc:creator>")
    hf = rec / "hf" / "daily_papers_2026-10-08.json"
    hf.write_text(hf.read_text(encoding="utf-8").replace(
        '"title": "', '"title": "' + json.dumps(HIDDEN.format(m="HIDHF") + "\x1b[2J ")[1:-1]), encoding="utf-8")
    _replace(rec / "blogs" / "llm-d.xml", '<title type="html">Benchmarking NIXL',
             '<title type="html">' + HIDDEN.format(m="HIDBLOG") + " Benchmarking NIXL")
    note = root / "inbox" / "jay" / "2026-10-08T1950-jay-engineering-filter-pd-disaggregation-mooncake-moriiio.md"
    _replace(note, "## 2. llm-d × NIXL：", "## 2. " + HIDDEN.format(m="HIDNOTE") + " llm-d × NIXL：")
    for card in (root / "organized" / "paper_cards").glob("*.md"):
        card.write_text(re.sub(r'^title: "', 'title: "' + HIDDEN.format(m="HIDCARD") + " ",
                               card.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    before = _team_files(root)
    result = kb("nightly", "--home", str(root), "--date", DAY.isoformat(), "--offline", "--quiet")
    assert result.returncode == 0, result.stderr
    return root, before


def test_hidden_controls_never_reach_a_reader(hidden_sample: tuple[Path, dict[str, bytes]], kept) -> None:
    """What the sources stored is the text without them; the team's files keep every byte; `kb show`,
    `kb search` and the briefings (md and html, zh and en) show the words, not one hidden character."""
    import sqlite3

    from tests.reliability.support import kb_inproc
    root, before = hidden_sample
    assert _team_files(root) == before                                   # the team's text is theirs
    with contextlib.closing(sqlite3.connect(root / ".kb" / "kb.sqlite")) as db:
        stored = [v for table, cols in (("papers", "title, authors, abstract"), ("posts", "title, summary, authors"))
                  for row in db.execute(f"SELECT {cols} FROM {table}") for v in row if v]
    assert {m for m in ("HIDLIST", "HIDAUTH", "HIDBLOG") if any(m in v for v in stored)} == {"HIDLIST", "HIDAUTH", "HIDBLOG"}
    assert [v for v in stored if hidden_controls(v)] == []               # clean where they came in
    assert any(SHOWN.format(m="HIDLIST") in v for v in stored)           # Chinese and emoji kept whole
    outputs = {}
    for args in (("show", "2610.09701"), ("show", "2610.09701", "--format", "json"), ("search", "HIDLIST"),
                 ("search", "HIDNOTE"), ("search", "HIDBLOG"), ("search", "HIDCARD")):
        result = kb_inproc("--home", str(root), *args)
        assert result.returncode == 0, result.stderr
        outputs[" ".join(args)] = result.stdout
    for fmt, lang in (("md", "zh"), ("md", "en"), ("html", "zh"), ("html", "en"), ("json", "zh")):
        out = f"briefings/check-{lang}.{fmt}"
        result = kb_inproc("--home", str(root), "brief", "--date", DAY.isoformat(), "--lang", lang,
                           "--format", fmt, "--out", out)
        assert result.returncode == 0, result.stderr
        outputs[out] = (root / out).read_text(encoding="utf-8")
    for name, text in outputs.items():
        assert kept.escaped(text, html_output=name.endswith(".html")) == [], name
    shown = " ".join(outputs.values())
    assert {m for m in HIDDEN_MARKERS if SHOWN.format(m=m) in shown} >= {"HIDLIST", "HIDAUTH", "HIDNOTE", "HIDBLOG"}
    # JSON writes the team's hidden characters as escapes: the data is exact, the text shows none.
    data = json.loads(outputs["briefings/check-zh.json"])
    assert HIDDEN.format(m="HIDNOTE") in json.dumps(data, ensure_ascii=False)
