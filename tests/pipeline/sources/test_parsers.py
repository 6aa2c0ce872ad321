"""Edge cases of the individual parsers and their shared helpers, inline payloads."""
from __future__ import annotations

import io
import json

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
])
def test_hf_unreadable_payloads(data: bytes, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_daily_papers(data, featured_date="2026-08-21")


def test_hf_empty_day_and_bad_date_argument() -> None:
    assert parse_daily_papers(b"[]", featured_date="2026-08-22") == ParseResult()
    with pytest.raises(ValueError):
        parse_daily_papers(b"[]", featured_date="21/08/2026")


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
