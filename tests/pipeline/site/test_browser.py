"""The site in a real browser: headless Chromium against a 127.0.0.1 server this test starts.

Skipped where no Chromium is installed (`.ci/run` installs Debian's `chromium` and makes it required).
Loads the index and a briefing, follows the briefing's previous-day link, reads the feed with feedparser,
and saves screenshots; the stars and category marks must read as text in fonts this machine has, which
is what the page shows where no emoji font is installed.
"""
from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from urllib.parse import urljoin

import feedparser
import pytest

from tests.support.chromium import fonts_covering, serve_directory
from tests.support.days import DAY1, DAY2


@pytest.fixture(scope="module")
def base_url(site_home: Path):
    with serve_directory(site_home / "site") as url:
        yield url


def _href(dom: str, rel: str) -> str:
    m = re.search(rf'<a rel="{rel}"[^>]*href="([^"]+)"', dom)
    assert m, f"no {rel} link"
    return m.group(1)


def test_index_then_a_briefing_then_its_previous_day(chromium, base_url: str) -> None:
    index = chromium.dump_dom(base_url + "index.html")
    assert '<html lang="zh-CN">' in index and f'href="inference/{DAY2}.html"' in index
    page_url = urljoin(base_url + "index.html", f"inference/{DAY2}.en.html")
    page = chromium.dump_dom(page_url)
    assert '<html lang="en">' in page and f"inference · daily increment briefing ({DAY2})" in page
    previous = chromium.dump_dom(urljoin(page_url, _href(page, "prev")))
    assert f"({DAY1})" in previous and _href(previous, "next") == f"{DAY2}.en.html"


def test_stars_and_marks_read_as_text_without_an_emoji_font(chromium, base_url: str, tmp_path: Path) -> None:
    dom = chromium.dump_dom(base_url + f"inference/{DAY1}.en.html")
    stars = re.findall(r'<span class="stars"[^>]*>([★☆]{5})</span><span class="stars-text"> ([1-5])/5</span>', dom)
    assert stars and all(s.count("★") == int(n) for s, n in stars)
    assert "[NEW]" in dom and "[ENG]" in dom
    fonts = fonts_covering("★☆")
    if fonts:                      # fontconfig present: the fallback's characters have a font (no boxes)
        assert all(fonts.values()), fonts
    for name, url in (("index", "index.html"), ("briefing-en", f"inference/{DAY1}.en.html"),
                      ("briefing-zh", f"inference/{DAY1}.html")):
        png = chromium.screenshot(base_url + url, tmp_path / f"{name}.png", window_size=(1280, 1600))
        assert png.stat().st_size > 10_000


def test_the_feed_parses_and_its_links_load(base_url: str) -> None:
    feed_url = base_url + "inference/feed.xml"
    with urllib.request.urlopen(feed_url, timeout=10) as resp:
        assert resp.headers.get_content_type() in ("application/xml", "text/xml", "application/atom+xml")
        feed = feedparser.parse(resp.read())
    assert not feed.bozo and feed.version == "atom10"
    for entry in feed.entries:
        with urllib.request.urlopen(urljoin(feed_url, entry.link), timeout=10) as page:
            assert page.status == 200
