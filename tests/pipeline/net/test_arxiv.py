"""The arXiv API's search URLs: an open-ended date window, and no window at all."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from pipeline.net.arxiv import search_url

BASE = "https://export.arxiv.org/api/query"


def _query(url: str) -> str:
    return parse_qs(urlsplit(url).query)["search_query"][0]


def test_a_window_open_at_one_end_is_closed_by_arxivs_first_and_a_far_last_day() -> None:
    assert _query(search_url(BASE, "cat:cs.DC", since="2026-10-01")) == \
        "(cat:cs.DC) AND submittedDate:[202610010000 TO 299912312359]"
    assert _query(search_url(BASE, "cat:cs.DC OR cat:cs.LG", until="2026-10-07")) == \
        "(cat:cs.DC OR cat:cs.LG) AND submittedDate:[199101010000 TO 202610072359]"


def test_without_a_window_the_query_is_sent_as_written() -> None:
    url = search_url(BASE, "cat:cs.DC OR cat:cs.LG", start=200, max_results=50)
    assert url.startswith(BASE + "?") and _query(url) == "cat:cs.DC OR cat:cs.LG"
    assert parse_qs(urlsplit(url).query)["start"] == ["200"]
