"""Edge cases of the individual parsers and their shared helpers, inline payloads."""
from __future__ import annotations

import dataclasses
import io
import json
import re

import pytest

from kb.errors import ParseError
from kb.records import PaperRecord, ParseResult
from pipeline.sources.arxiv_api import missing_ids, parse_api_response
from pipeline.sources.arxiv_bulk import iter_bulk, iter_kaggle
from pipeline.sources.arxiv_listing import parse_listing
from pipeline.sources.blogs import html_to_text, parse_feed
from pipeline.sources.detect import detect_format
from pipeline.sources.hf_daily import featured_date_from_name, parse_daily_papers
from pipeline.sources.text import iso_date, rfc822_date, split_authors
from tests.support.paths import FIXTURES as ALL_FIXTURES

FIXTURES = ALL_FIXTURES / "sources"


# --------------------------------------------------------------------------- helpers
@pytest.mark.parametrize("text, names", [
    ("A, B, and C", ["A", "B", "C"]),
    ("A, B and C", ["A", "B", "C"]),
    ("A and B", ["A", "B"]),
    ("Zihao Ye (UW, NVIDIA), Tri Dao", ["Zihao Ye (UW, NVIDIA)", "Tri Dao"]),
    ("Ann Smith (Texas A and M), Bo Li", ["Ann Smith (Texas A and M)", "Bo Li"]),
    ("Alexandra Andersen", ["Alexandra Andersen"]),
    ("  ", []),
    (None, []),
])
def test_split_authors(text: str | None, names: list[str]) -> None:
    assert split_authors(text) == names


@pytest.mark.parametrize("text, day", [
    ("Thu, 24 Sep 2026 00:00:00 -0400", "2026-09-24"),
    ("Mon, 2 Apr 2007 19:18:42 GMT", "2007-04-02"),
    ("Mon, 01 Jan 0001 00:00:00 +0000", None),
    ("Thu, 31 Feb 2026 00:00:00 +0000", None),
    ("yesterday", None),
    (None, None),
])
def test_rfc822_date(text: str | None, day: str | None) -> None:
    assert rfc822_date(text) == day


def test_iso_date() -> None:
    assert iso_date("2026-09-25T00:00:00-04:00") == "2026-09-25"
    assert iso_date("2026-13-01") is None and iso_date("") is None


def test_html_to_text() -> None:
    html = "<p>a&amp;b</p><script>x=1</script><STYLE>p{}</STYLE><div>c &lt;d&gt;</div><br/>e&nbsp;f"
    assert html_to_text(html) == "a&b c <d> e f"  # &nbsp; is whitespace too
    assert html_to_text("plain   text\n") == "plain text"
    assert html_to_text("<script>never closed") == ""


# --------------------------------------------------------------------------- listing
def test_listing_rejects_other_xml() -> None:
    with pytest.raises(ParseError, match="not an arXiv RSS/Atom listing"):
        parse_listing(b"<OAI-PMH/>")


def test_listing_falls_back_to_description_and_item_date() -> None:
    data = b"""<rss version="2.0"><channel><title>x</title>
      <item><title>T</title><link>https://arxiv.org/abs/2610.00001</link>
      <description>arXiv:2610.00001v4 Announce Type: replace
Abstract: Text.</description><pubDate>Wed, 14 Oct 2026 00:00:00 -0400</pubDate></item>
    </channel></rss>"""
    r = parse_listing(data, source="arxiv-cs")
    assert [(s.arxiv_id, s.version, s.kind, s.seen_on, s.source) for s in r.sightings] == [
        ("2610.00001", 4, "replace", "2026-10-14", "arxiv-cs")]
    assert r.papers[0].abstract == "Text."


# --------------------------------------------------------------------------- API
def test_missing_ids_ignores_versions_and_keeps_the_callers_spelling() -> None:
    result = ParseResult(papers=[PaperRecord("1707.08567", 1), PaperRecord("hep-th/9901001", 2)])
    assert missing_ids(["1707.08567v1", " arXiv:hep-th/9901001 ", "2401.00001", "2401.00001", "junk"], result) == [
        "2401.00001", "junk"]


def test_api_rejects_non_atom() -> None:
    with pytest.raises(ParseError, match="not an arXiv API response"):
        parse_api_response(b"<rss/>")


# --------------------------------------------------------------------------- HF
@pytest.mark.parametrize("data, message", [
    (b'{"error": "Invalid date"}', "a dict, expected a list: Invalid date"),
    (b"[{]", "invalid at line 1, column 3"),
    (b"   <html><body>Too many requests</body></html>", "HTML page"),
    (b"", "empty body"),
    (b'<?xml version="1.0"?><rss version="2.0"><channel/></rss>', "got XML"),   # a file given by mistake: no "web page"
])
def test_hf_unreadable_payloads(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_daily_papers(data, featured_date="2026-08-21")


def test_hf_empty_day_and_bad_date_argument() -> None:
    assert parse_daily_papers(b"[]", featured_date="2026-08-22") == ParseResult()
    with pytest.raises(ValueError):
        parse_daily_papers(b"[]", featured_date="21/08/2026")


def test_hf_upvotes_no_store_column_holds_are_dropped_not_the_paper() -> None:
    """10²³ upvotes failed the whole source (SQLite: OverflowError; PostgreSQL: out of range)."""
    items = [{"paper": {"id": "2610.09701", "title": "A", "summary": "x", "upvotes": up}} for up in (10**23, 2**40)]
    r = parse_daily_papers(json.dumps(items[:1]).encode(), featured_date="2026-08-21")
    assert [p.arxiv_id for p in r.papers] == ["2610.09701"] and [s.upvotes for s in r.sightings] == [None]
    assert r.problems == ["item 1 (2610.09701): paper.upvotes 1e+23 is out of range; ignored"]
    r = parse_daily_papers(json.dumps(items[1:]).encode(), featured_date="2026-08-21")
    assert [s.upvotes for s in r.sightings] == [2**40]


def test_hf_fields_of_the_wrong_type_are_named_and_the_paper_kept() -> None:
    """A schema change (a title as an object, upvotes as text) stored papers untitled with nothing said."""
    item = {"paper": {"id": "2610.09701", "title": {"en": "T"}, "summary": 5, "authors": "Ann",
                      "publishedAt": ["2026-10-01"], "upvotes": "12"}, "upvotes": True}
    r = parse_daily_papers(json.dumps([item]).encode(), featured_date="2026-08-21")
    assert [(p.arxiv_id, p.title, p.abstract, p.authors) for p in r.papers] == [("2610.09701", "", "", [])]
    assert r.problems == [
        "item 1 (2610.09701): paper.title is an object, not text; read as empty",
        "item 1 (2610.09701): paper.summary is a number, not text; read as empty",
        "item 1 (2610.09701): paper.publishedAt is a list, not text; read as empty",
        "item 1 (2610.09701): paper.authors is text, not a list; read as none",
        "item 1 (2610.09701): paper.upvotes is text, not a count; ignored",
        "item 1 (2610.09701): item.upvotes is a boolean, not a count; ignored"]


def test_hf_well_typed_and_null_fields_raise_no_problem() -> None:
    item = {"paper": {"id": "2610.09701", "title": "A", "summary": None, "authors": [], "upvotes": 3}}
    assert parse_daily_papers(json.dumps([item]).encode(), featured_date="2026-08-21").problems == []


def test_hf_non_object_items_are_problems() -> None:
    r = parse_daily_papers(json.dumps([1, {"paper": "x"}]).encode(), featured_date="2026-08-21")
    assert r.problems == ["item 1: not an object", "item 2: no paper id"]


@pytest.mark.parametrize("name, day", [
    ("daily_papers_2026-08-21.json", "2026-08-21"),
    ("/some/dir/daily_papers_2024-05-29.json", "2024-05-29"),
    ("daily_papers_2026-02-30.json", None),
    ("papers.json", None),
])
def test_featured_date_from_name(name: str, day: str | None) -> None:
    assert featured_date_from_name(name) == day


# --------------------------------------------------------------------------- blogs
def test_feed_truncated_with_entries_is_refused_whole() -> None:
    # Read leniently, the half entry would overwrite a good stored copy: refuse the payload.
    data = b'<?xml version="1.0"?><rss version="2.0"><channel><title>x</title>' \
           b"<item><title>One</title><link>https://b.example/1</link></item><item><title>Two</ti"
    with pytest.raises(ParseError, match="not well-formed XML"):
        parse_feed(data, feed="b")


@pytest.mark.parametrize("data, message", [
    (b'<?xml version="1.0"?><rss version="2.0"><channel><title>x</ti', "not well-formed"),
    (b"<catalog><book>not a feed</book></catalog>", "not an RSS or Atom feed"),
    (b"<!DOCTYPE html><html></html>", "HTML page"),
    (b'<!DOCTYPE rss [<!ENTITY a "b">]><rss version="2.0"><channel><title>&a;</title></channel></rss>', "declares entities"),
])
def test_feed_unreadable_payloads(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_feed(data, feed="b")


def test_feed_is_never_given_a_string() -> None:
    # feedparser would fetch a str that looks like a URL; parse_feed refuses it first.
    with pytest.raises(ParseError, match="expected bytes"):
        parse_feed("https://example.org/feed.xml", feed="b")  # type: ignore[arg-type]


def test_feed_without_key_or_duplicate_key_is_a_problem() -> None:
    data = b"""<rss version="2.0"><channel><title>x</title>
      <item><title>No key</title></item>
      <item><guid>k</guid><title>A</title></item>
      <item><guid>k</guid><title>A again</title></item></channel></rss>"""
    r = parse_feed(data, feed="b")
    assert [p.title for p in r.posts] == ["A"]
    assert len(r.problems) == 2


# --------------------------------------------------------------------------- detect and bulk
@pytest.mark.parametrize("data, fmt", [
    (b"[]", "hf-daily"),
    (b'[\n  {\n    "paper": {"id": "2401.00001"}}]', "hf-daily"),
    (b'{"id": "0704.0001", "versions": []}\n', "kaggle-jsonl"),
    (b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', "feed"),
    (b'<rss version="2.0"><channel><title>Blog</title><item><link>https://rss.arxiv.org/x</link></item></channel></rss>', "feed"),
    (b'<feed xmlns="http://www.w3.org/2005/Atom"><id>x</id><entry><id>oai:arXiv.org:2401.00001v1</id></entry></feed>', "feed"),
    (b'<?xml version="1.0"?>\n<!DOCTYPE OAI-PMH>\n<!-- c -->\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"/>', "oai-pmh"),
])
def test_detect_format(data: bytes, fmt: str) -> None:
    assert detect_format(data) == fmt


@pytest.mark.parametrize("data", [b"", b"hello", b"[1, 2]", b'{"blog": "vllm"}\n', b"<catalog/>", b"<html></html>"])
def test_detect_format_refuses(data: bytes) -> None:
    with pytest.raises(ParseError, match="unrecognised format"):
        detect_format(data)


def test_iter_kaggle_reads_text_mode_and_reports_bad_lines() -> None:
    lines = '{"id": "0704.0001", "title": "T"}\n\n[1]\n{"id": "nope"}\n'
    items = list(iter_kaggle(io.StringIO(lines)))
    assert isinstance(items[0], PaperRecord) and items[0].arxiv_id == "0704.0001"
    assert items[1:] == ["line 3: a JSON list, not an object", "line 4: no valid arXiv id ('nope')"]
    assert list(iter_kaggle(io.BytesIO(b'{"id": "0704.0001"}\n\xff\n')))[1].startswith("line 2: not UTF-8")


def test_iter_bulk_refuses_unknown_and_oai_errors_are_problems() -> None:
    with pytest.raises(ParseError, match="unrecognised bulk format"):
        iter_bulk(io.BytesIO(b"id,title\n"))
    with pytest.raises(ParseError, match="empty body"):
        iter_bulk(io.BytesIO(b""))
    oai_error = b'<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><error code="noRecordsMatch">none</error></OAI-PMH>'
    assert list(iter_bulk(io.BytesIO(oai_error))) == ["OAI-PMH error noRecordsMatch: none"]


def test_feed_placeholder_published_falls_back_to_updated() -> None:
    data = b"""<feed xmlns="http://www.w3.org/2005/Atom"><id>f</id><title>x</title>
      <entry><id>e1</id><title>T</title><link href="https://b.example/1"/>
      <published>0001-01-01T00:00:00Z</published><updated>2026-10-02T08:00:00+02:00</updated>
      <summary>See https://arxiv.org/abs/2610.00002v1</summary></entry></feed>"""
    r = parse_feed(data, feed="b")
    assert r.posts[0].published == "2026-10-02T06:00"
    assert r.problems == ["e1: placeholder or unreadable date '0001-01-01T00:00:00Z', used 2026-10-02T06:00"]
    assert [(s.arxiv_id, s.version, s.seen_on) for s in r.sightings] == [("2610.00002", 1, "2026-10-02")]


def test_hf_featured_date_comes_from_the_payload_before_the_file_name_or_the_run() -> None:
    import json as _json

    from pipeline.sources.detect import parse_payload
    item = {"paper": {"id": "2610.09701", "title": "SlimWise", "submittedOnDailyAt": "2026-10-07T00:00:00.000Z",
                      "upvotes": 3}}
    body = _json.dumps([item]).encode()
    dated = parse_payload(body, name="daily_papers_2026-10-09.json", default_date="2026-10-10")
    assert [s.seen_on for s in dated.sightings] == ["2026-10-07"]          # the payload's own day
    del item["paper"]["submittedOnDailyAt"]
    body = _json.dumps([item]).encode()
    assert parse_payload(body, name="daily_papers_2026-10-09.json").sightings[0].seen_on == "2026-10-09"
    assert parse_payload(body, name="saved.json", default_date="2026-10-10").sightings[0].seen_on == "2026-10-10"
    with pytest.raises(ParseError, match="featured date"):
        parse_payload(body, name="saved.json")


# --------------------------------------------------------------------------- variants the recordings do not show
_API_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
             b'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n')
_API_ENTRIES = (
    # An entry without <published>/<updated>: the paper is kept, no sighting can be dated.
    b"<entry><id>http://arxiv.org/abs/2401.00001v2</id><title>Undated</title></entry>\n"
    b"<entry><id>http://example.org/not-arxiv</id><title>Foreign</title></entry>\n"
    b"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_12345</id>"
    b"<summary>incorrect id format for 12345</summary></entry>\n</feed>\n")


def test_api_entries_without_date_or_id_and_an_unreadable_total() -> None:
    r = parse_api_response(_API_HEAD + b"<opensearch:totalResults>n/a</opensearch:totalResults>\n" + _API_ENTRIES)
    assert [(p.arxiv_id, p.version, p.title) for p in r.papers] == [("2401.00001", 2, "Undated")]
    assert r.sightings == [] and r.total_results is None and r.unknown_ids == ["12345"]
    assert r.problems == ["2401.00001: no <updated> date, no sighting recorded",
                          "entry 2: no arXiv ID in <id>http://example.org/not-arxiv</id>",
                          "arXiv API error: incorrect id format for 12345"]


def test_api_stream_yields_papers_and_problem_strings() -> None:
    from pipeline.sources.arxiv_api import iter_api_entries
    items = list(iter_api_entries(io.BytesIO(_API_HEAD + _API_ENTRIES)))
    assert [i.arxiv_id if isinstance(i, PaperRecord) else i for i in items] == [
        "2401.00001", "entry without a valid arXiv ID: 'http://example.org/not-arxiv'",
        "arXiv API error: incorrect id format for 12345"]


def test_kaggle_versions_that_are_not_objects_are_ignored() -> None:
    line = json.dumps({"id": "0704.0001", "title": "T", "categories": "hep-ph", "versions": [
        "v1", {"version": "v2", "created": "Tue, 24 Jul 2007 20:10:27 GMT"},
        {"version": "v1", "created": "Mon, 2 Apr 2007 19:18:42 GMT"}]})
    [paper] = iter_kaggle(io.StringIO(line + "\n"))
    assert (paper.version, paper.published, paper.updated, paper.versions) == (
        2, "2007-04-02", "2007-07-24", [(1, "2007-04-02"), (2, "2007-07-24")])


def test_oai_records_that_cannot_be_read_are_problems() -> None:
    oai = b"""<?xml version="1.0"?><OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><ListRecords>
<record><header><identifier>oai:arXiv.org:0704.0001</identifier></header></record>
<record><header><identifier>oai:arXiv.org:0704.0002</identifier></header><metadata>
  <arXivRaw xmlns="http://arxiv.org/OAI/arXivRaw/"><id>0704.0002</id></arXivRaw></metadata></record>
<record><header><identifier>oai:arXiv.org:0704.0003</identifier></header><metadata>
  <arXiv xmlns="http://arxiv.org/OAI/arXiv/"><id>not-an-id</id><title>X</title></arXiv></metadata></record>
<record><header/><metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"
  xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>X</dc:title><dc:identifier>doi:10.1/x</dc:identifier>
  </oai_dc:dc></metadata></record>
</ListRecords></OAI-PMH>"""
    assert list(iter_bulk(io.BytesIO(oai))) == [
        "oai:arXiv.org:0704.0001: no metadata",
        "oai:arXiv.org:0704.0002: unsupported metadata format <arXivRaw>",
        "oai:arXiv.org:0704.0003: no valid arXiv id in the metadata",
        "record: no valid arXiv id in the metadata"]


def test_iter_bulk_refuses_a_text_mode_file() -> None:
    with pytest.raises(ParseError, match="binary mode"):
        iter_bulk(io.StringIO('{"id": "0704.0001"}\n'))


def test_parse_payload_keeps_a_bulk_files_problems() -> None:
    from pipeline.sources.detect import parse_payload
    data = b'{"id": "0704.0001", "categories": "hep-ph"}\n{"id": "junk", "categories": "x"}\n'
    r = parse_payload(data)
    assert [p.arxiv_id for p in r.papers] == ["0704.0001"] and r.problems == ["line 2: no valid arXiv id ('junk')"]


def test_listing_without_channel_or_any_date() -> None:
    with pytest.raises(ParseError, match="without a <channel>"):
        parse_listing(b'<rss version="2.0"/>')
    # Neither the channel nor the item is dated: the item cannot be sighted, and says so.
    undated = b"""<rss version="2.0"><channel><title>cs updates on arXiv.org</title>
      <item><title>Plain</title><link>https://arxiv.org/abs/2610.00002</link>
      <guid>oai:arXiv.org:2610.00002v1</guid><description>Just an abstract.</description></item>
    </channel></rss>"""
    r = parse_listing(undated)
    assert (r.papers, r.sightings, r.empty_day) == ([], [], False)
    assert r.problems == ["item 1: 2610.00002v1: no announcement date"]
    # A description without the "arXiv:… Announce Type:" preamble is the abstract itself.
    dated = undated.replace(b"<title>cs", b"<pubDate>Wed, 14 Oct 2026 00:00:00 -0400</pubDate><title>cs")
    r = parse_listing(dated)
    assert r.papers[0].abstract == "Just an abstract."
    assert [(s.arxiv_id, s.version, s.kind, s.seen_on) for s in r.sightings] == [("2610.00002", 1, "new", "2026-10-14")]


def test_feed_with_a_wrong_declared_encoding_is_read_with_a_problem() -> None:
    data = ('<?xml version="1.0" encoding="us-ascii"?><rss version="2.0"><channel><title>x</title>'
            '<item><title>Caf\u00e9</title><link>https://b.example/1</link></item></channel></rss>').encode()
    r = parse_feed(data, feed="b")
    assert [p.title for p in r.posts] == ["Caf\u00e9"]
    assert r.problems == ["feed is not well-formed, read leniently (CharacterEncodingOverride: document declared "
                          "as us-ascii, but parsed as utf-8)"]


@pytest.mark.parametrize("item", [
    '<item><title>T</title><link>https://b.example/2</link><content:encoded><![CDATA[<p>{body}</p>]]>'
    '</content:encoded></item>',
    '<entry><title>T</title><id>urn:1</id><link href="https://b.example/2"/><content type="html">'
    '&lt;p&gt;{body}&lt;/p&gt;</content></entry>',
], ids=["rss-content-encoded", "atom-content"])
def test_a_post_with_only_a_body_gets_a_cut_summary(item: str) -> None:
    # feedparser copies a body into "summary" when there is none; that copy is not a summary.
    body = " ".join(f"word{i}" for i in range(600))     # ~4,300 characters
    if item.startswith("<item>"):
        data = ('<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>'
                '<title>x</title>' + item.format(body=body) + '</channel></rss>')
    else:
        data = '<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title>' + item.format(body=body) + '</feed>'
    [post] = parse_feed(data.encode(), feed="b").posts
    assert post.content == body
    assert len(post.summary) <= 2000 and body.startswith(post.summary + " ") and len(post.summary) > 1900


def test_html_self_closed_link_is_a_link() -> None:
    from pipeline.sources.blogs import _read_html
    assert _read_html('<p>see <a href="https://arxiv.org/abs/2401.00001"/>here</p>') == (
        "see here", ["https://arxiv.org/abs/2401.00001"])


def test_rfc822_date_with_an_unknown_month_is_none() -> None:
    assert rfc822_date("Thu, 24 Foo 2026 00:00:00 GMT") is None


def test_detect_format_without_a_root_in_the_head() -> None:
    with pytest.raises(ParseError, match="no XML root element in the first bytes"):
        detect_format(b'<?xml version="1.0"?>\n<!-- a comment that never ends')


# --------------------------------------------------------------------------- hidden controls
# A bidi override and pop, an isolate, a mark, a CSI, a zero-width space around words that must stay:
# Chinese, and an emoji joined by a zero-width joiner.
SHOWN = ("EVIL 推理", "👩\u200d💻")
HIDDEN_XML = " \u202e EVIL \u202c\u2066 推理 \u2069\u200f\x9b 👩\u200d💻\u200b "
HIDDEN_JSON = json.dumps(HIDDEN_XML + "\x1b[31m\x07")[1:-1]   # JSON may carry C0 controls too
LINK_DISGUISE = "\u202e\u2066\u200b"
_HIDDEN_CHARS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_TEXT_ELEMENT = re.compile(r"(</(?:\w+:)?(?:title|creator|name|summary|description|abstract|keyname|category)>)")


def _disguised_xml(name: str) -> bytes:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    text = _TEXT_ELEMENT.sub(lambda m: HIDDEN_XML + m[1], text)
    text = text.replace(' term="', ' term="' + LINK_DISGUISE)                        # categories
    return re.sub(r"(<(?:link|guid)\b[^>]*>)(?=\s*\S)", lambda m: m[1] + LINK_DISGUISE, text).encode("utf-8")


def _disguised_json(name: str) -> bytes:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    text = text.replace('"categories": "', '"categories": "' + json.dumps(LINK_DISGUISE)[1:-1])
    return re.sub(r'("(?:title|summary|name|abstract|authors)":\s*")', lambda m: m[1] + HIDDEN_JSON, text).encode()


def _strings(value: object) -> list[str]:
    if dataclasses.is_dataclass(value):
        return [s for f in dataclasses.fields(value) for s in _strings(getattr(value, f.name))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _bulk_result(data: bytes) -> ParseResult:
    result = ParseResult()
    for item in iter_bulk(io.BytesIO(data)):
        (result.papers if isinstance(item, PaperRecord) else result.problems).append(item)
    return result


@pytest.mark.parametrize("name, parse", [
    ("listing_atom.xml", lambda d: parse_listing(d)),
    ("listing_rss_3items.xml", lambda d: parse_listing(d)),
    ("api_response.xml", lambda d: parse_api_response(d)),
    ("blog_rss.xml", lambda d: parse_feed(d, feed="blog")),
    ("blog_atom.xml", lambda d: parse_feed(d, feed="blog")),
    ("daily_papers_2025-01-15.json", lambda d: parse_daily_papers(d, featured_date="2025-01-15")),
    ("kaggle_3lines.jsonl", _bulk_result),
    ("oai_arxiv.xml", _bulk_result),
    ("oai_dc.xml", _bulk_result),
])
def test_hidden_controls_in_a_recorded_payload_never_reach_a_record(name: str, parse) -> None:
    """Bidi overrides, controls and zero-width characters in every text field of each recorded format:
    the records carry the words (Chinese and emoji included), not one hidden character."""
    data = _disguised_json(name) if name.endswith(("json", "jsonl")) else _disguised_xml(name)
    assert "\u202e" in data.decode("utf-8") or "\\u202e" in data.decode("utf-8")
    result = parse(data)
    records = result.papers + result.posts
    # (feedparser reads a C1 control in a feed's HTML as the Windows-1252 character browsers show: "›")
    assert records and all(s in r.title for r in records for s in SHOWN), [r.title for r in records]
    assert [s for r in [*records, *result.sightings] for s in _strings(r) if _HIDDEN_CHARS.search(s)] == []
