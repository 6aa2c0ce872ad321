"""Every recording in the shared corpus parses, and agrees with the tables in its SOURCES.md.

The corpus lives outside the repository (``<workspace>/shared/corpus``); the
whole module is skipped where it is absent. Nothing here is copied into the
project: the files are read in place.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from kb.errors import ParseError
from kb.records import ParseResult
from pipeline.sources.arxiv_api import missing_ids
from pipeline.sources.detect import detect_format, parse_payload
from tests.support.paths import CORPUS

CORPUS = CORPUS
DIRS = ("arxiv_api", "arxiv_rss", "arxiv_bulk", "hf_daily_papers", "blog_feeds", "blog_posts")

if not CORPUS.is_dir():
    pytest.skip(f"corpus not found at {CORPUS}", allow_module_level=True)

# Files in those folders that are not source payloads, and why.
NOT_PAYLOADS = {
    "blog_posts/posts.jsonl": "post records extracted from blog sources, not a feed",
}
WRAPPERS = "arxiv_api/arxivpy_recorded_wrappers"  # recorder JSON around the .xml bodies, see below


def _all_files() -> list[str]:
    files = []
    for d in DIRS:
        for p in sorted((CORPUS / d).rglob("*")):
            rel = p.relative_to(CORPUS).as_posix()
            if p.is_file() and rel not in NOT_PAYLOADS and not rel.startswith(WRAPPERS):
                files.append(rel)
    return files


@cache
def parsed(rel: str) -> ParseResult:
    """Detect and parse one corpus file once per test session."""
    path = CORPUS / rel
    return parse_payload(path.read_bytes(), name=path.name, feed=path.stem)


def fmt(rel: str) -> str:
    return detect_format((CORPUS / rel).read_bytes())


# --------------------------------------------------------------------------- every file
@pytest.mark.parametrize("rel", _all_files())
def test_every_file_detects_and_parses(rel: str) -> None:
    assert fmt(rel) in {"arxiv-rss", "arxiv-atom-listing", "arxiv-api", "oai-pmh", "kaggle-jsonl", "hf-daily", "feed"}
    result = parsed(rel)
    assert result.papers or result.posts or result.empty_day or rel.endswith(("zero_results.xml", "error_feed.xml"))
    for paper in result.papers:
        assert paper.arxiv_id and "v" not in paper.arxiv_id.split("/")[-1], paper.arxiv_id
    for s in result.sightings:
        assert len(s.seen_on) == 10 and s.seen_on[4] == "-", s


def test_not_payloads_are_refused_cleanly() -> None:
    with pytest.raises(ParseError, match="unrecognised format"):
        detect_format((CORPUS / "blog_posts/posts.jsonl").read_bytes())


@pytest.mark.parametrize("wrapper", sorted((CORPUS / WRAPPERS).glob("*.json")), ids=lambda p: p.name)
def test_recorder_wrappers_hold_the_same_bodies(wrapper: Path) -> None:
    # The recorder stored body.decode("latin-1"); encoding back gives arXiv's bytes.
    body = json.loads(wrapper.read_text(encoding="utf-8"))["body"].encode("latin-1")
    rel = "arxiv_api/" + wrapper.name.removeprefix("arxivpy_fixture_").replace(".recorded.json", ".xml")
    assert parse_payload(body) == parsed(rel)


# --------------------------------------------------------------------------- arXiv API (SOURCES §1)
API = {  # file: (entries, first ID, published min, published max, totalResults)
    "2026-04_search_all-testing_start0_max100.xml": (100, "2202.12139", "2001-03-17", "2026-04-03", 214881),
    "2026-04_search_all-testing_start0_max15.xml": (15, "2202.12139", "2012-02-21", "2025-03-07", 214881),
    "2026-04_search_all-testing_start5_max15.xml": (15, "1202.4527", "2012-02-21", "2025-03-07", 214881),
    "2026-05_idlist_astro-ph-0601001_oldstyle.xml": (1, "astro-ph/0601001", "2006-01-02", "2006-01-02", 1),
    "2026-04_idlist_quant-ph-0201082v1_oldstyle_versioned.xml": (1, "quant-ph/0201082", "2002-01-18", "2002-01-18", 1),
    "2026-04_idlist_1707.08567.xml": (1, "1707.08567", "2017-07-27", "2017-07-27", 1),
    "2026-04_idlist_0808.05394+1707.08567_one_missing.xml": (1, "1707.08567", "2017-07-27", "2017-07-27", 1),
    "2026-04_idlist_2104.12255v1.xml": (1, "2104.12255", "2021-04-20", "2021-04-20", 1),
    "2016-10_legacy_search_au-del_maestro_max10.xml": (10, "1201.4869", "2004-12-19", "2014-12-19", 31),
    "2016-10_legacy_search_au-del_maestro_ANDNOT_ti.xml": (10, "1201.4869", "2004-12-19", "2014-12-19", None),
    "2016-10_legacy_search_au-del_maestro_AND_ti-quantum_criticality.xml": (2, "1111.2011", "2006-07-19", "2011-11-08", 2),
    "2016-10_legacy_idlist_1111.2011v2.xml": (1, "1111.2011", "2011-11-08", "2011-11-08", 1),
}


@pytest.mark.parametrize("name", sorted(API))
def test_api_tables(name: str) -> None:
    entries, first, lo, hi, total = API[name]
    r = parsed(f"arxiv_api/{name}")
    assert fmt(f"arxiv_api/{name}") == "arxiv-api"
    assert len(r.papers) == len(r.sightings) == entries
    assert r.papers[0].arxiv_id == first
    assert (min(p.published for p in r.papers), max(p.published for p in r.papers)) == (lo, hi)
    if total is not None:
        assert r.total_results == total
    assert all(p.version and p.title and p.authors and p.primary_category for p in r.papers)
    assert all(s.kind == "api" and s.seen_on == p.updated for s, p in zip(r.sightings, r.papers))
    assert not r.problems


def test_api_versions_and_fields() -> None:
    assert [(p.arxiv_id, p.version) for p in parsed("arxiv_api/2016-10_legacy_idlist_1111.2011v2.xml").papers] == [("1111.2011", 2)]
    legacy = parsed("arxiv_api/2016-10_legacy_idlist_1111.2011v2.xml").papers[0]
    assert legacy.title == "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit"
    assert (legacy.doi, legacy.journal_ref, legacy.primary_category) == (
        "10.1103/PhysRevB.85.115117", "Phys. Rev. B 85, 115117 (2012)", "cond-mat.str-el")
    astro = parsed("arxiv_api/2026-05_idlist_astro-ph-0601001_oldstyle.xml").papers[0]
    assert astro.authors == ["Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski"]
    assert astro.journal_ref == "ActaAstron.56:1-50,2006"


def test_api_pagination_overlap() -> None:
    page1 = [p.arxiv_id for p in parsed("arxiv_api/2026-04_search_all-testing_start0_max15.xml").papers]
    page2 = [p.arxiv_id for p in parsed("arxiv_api/2026-04_search_all-testing_start5_max15.xml").papers]
    assert len(set(page1) & set(page2)) == 10


def test_api_one_missing_zero_results_and_error_feed() -> None:
    one = parsed("arxiv_api/2026-04_idlist_0808.05394+1707.08567_one_missing.xml")
    assert [p.arxiv_id for p in one.papers] == ["1707.08567"]
    assert missing_ids(["0808.05394", "1707.08567"], one) == ["0808.05394"]
    zero = parsed("arxiv_api/2026-04_idlist_0000.0000_zero_results.xml")
    assert (zero.papers, zero.total_results, zero.problems) == ([], 0, [])
    err = parsed("arxiv_api/2026-04_idlist_abc_http400_error_feed.xml")
    assert err.papers == [] and err.unknown_ids == ["abc"]
    assert err.problems == ["arXiv API error: incorrect id format for abc"]


# --------------------------------------------------------------------------- arXiv listings (SOURCES §2)
LISTINGS = {  # file: (format, day, [(id, version, kind)])
    "2026-09-24_rss_cs.LG+cs.AI+cs.CL+stat.ML_4items_excerpt.xml": ("arxiv-rss", "2026-09-24", [
        ("2609.26811", 1, "new"), ("2609.26820", 1, "new"), ("2205.06398", 2, "cross"), ("2009.13987", 3, "replace")]),
    "2026-04-27_rss_cs.AI_3items_excerpt_header-edited.xml": ("arxiv-rss", "2026-04-27", [
        ("2604.21935", 1, "new"), ("2604.21936", 1, "new"), ("2604.21937", 1, "new")]),
    "2026-09-25_atom_cs.LG_3entries_excerpt_abridged.xml": ("arxiv-atom-listing", "2026-09-25", [
        ("2609.28553", 1, "new"), ("2402.10149", 3, "cross"), ("2401.08875", 3, "replace")]),
}


@pytest.mark.parametrize("name", sorted(LISTINGS))
def test_listing_tables(name: str) -> None:
    kind, day, items = LISTINGS[name]
    r = parsed(f"arxiv_rss/{name}")
    assert fmt(f"arxiv_rss/{name}") == kind
    assert [(s.arxiv_id, s.version, s.kind) for s in r.sightings] == items
    assert [(p.arxiv_id, p.version) for p in r.papers] == [(i, v) for i, v, _ in items]
    assert {s.seen_on for s in r.sightings} == {day}
    assert not r.problems and not r.empty_day
    for p in r.papers:
        assert p.title and p.authors and p.abstract and p.categories
        assert p.primary_category == p.categories[0]
        assert not p.abstract.startswith(("arXiv:", "Abstract"))


def test_listing_fields() -> None:
    rss = {p.arxiv_id: p for p in parsed(f"arxiv_rss/{sorted(LISTINGS)[1]}").papers}
    assert rss["2205.06398"].doi == "10.1093/bioinformatics/btac431"
    assert rss["2609.26820"].authors == ["Naser Mansour", "Sidahmed Benabderrahmane", "Ameer Rahwan"]
    atom = {p.arxiv_id: p for p in parsed(f"arxiv_rss/{sorted(LISTINGS)[2]}").papers}
    assert atom["2609.28553"].journal_ref.startswith("2026 International Conference on Multimedia Analysis")
    assert atom["2609.28553"].doi == "10.1109/MAPR72750.2026.11685822"
    assert atom["2402.10149"].primary_category == "hep-ph"
    cs_ai = parsed(f"arxiv_rss/{sorted(LISTINGS)[0]}").papers
    assert r"\textbf{adaptability}" in cs_ai[1].abstract


# --------------------------------------------------------------------------- bulk (SOURCES §3)
def test_kaggle_head() -> None:
    r = parsed("arxiv_bulk/kaggle_arxiv-metadata-oai-snapshot_first200.jsonl")
    assert len(r.papers) == 200 and not r.problems
    assert [p.arxiv_id for p in r.papers] == [f"0704.{i:04d}" for i in range(1, 201)]
    assert min(d for p in r.papers for _, d in p.versions) == "2007-03-31"
    assert max(d for p in r.papers for _, d in p.versions) == "2022-03-29"
    first = r.papers[0]
    assert first.authors[0] == "C. Balázs" and first.version == 2 and first.categories == ["hep-ph"]
    assert all("\n" not in p.title and not p.abstract.startswith(" ") for p in r.papers)


def test_oai_dc_concatenated() -> None:
    rel = "arxiv_bulk/oai-pmh_oai_dc_set-physics-quant-ph_2000records_harvested2016_concatenated.xml"
    r = parsed(rel)
    assert fmt(rel) == "oai-pmh"
    assert len(r.papers) == 2000 and not r.problems
    assert (r.papers[0].arxiv_id, r.papers[-1].arxiv_id) == ("0704.0042", "0707.1829")
    assert min(p.published for p in r.papers) == "2007-03-31"
    assert max(p.updated for p in r.papers) == "2015-04-04"
    assert r.papers[0].authors == ["Ignazio Licata"] and r.papers[0].comment == "12 pages,3 figures"
    assert r.papers[-1].doi == "10.1590/S0103-97332008000200007"


@pytest.mark.parametrize("name, ids, created, updated_max", [
    ("oai-pmh_arXiv_ListRecords_set-physics-hep-th_2017-12-14.xml", 3, ("2014-12-29", "2016-07-06"), "2017-12-13"),
    ("oai-pmh_arXiv_ListRecords_set-physics-hep-ex_2017-12-14.xml", 3, ("2017-06-16", "2017-07-04"), "2017-12-13"),
    ("oai-pmh_arXiv_GetRecord_1401.2122_2018-01-26.xml", 1, ("2014-01-09", "2014-01-09"), "2017-10-23"),
])
def test_oai_arxiv_format(name: str, ids: int, created: tuple[str, str], updated_max: str) -> None:
    r = parsed(f"arxiv_bulk/{name}")
    assert len(r.papers) == ids and not r.problems
    assert (min(p.published for p in r.papers), max(p.published for p in r.papers)) == created
    assert max(p.updated for p in r.papers) == updated_max
    assert all(p.categories and p.authors and p.abstract for p in r.papers)


def test_oai_getrecord_fields() -> None:
    (paper,) = parsed("arxiv_bulk/oai-pmh_arXiv_GetRecord_1401.2122_2018-01-26.xml").papers
    assert paper.arxiv_id == "1401.2122" and paper.authors == ["A. Sergyeyev"]
    assert paper.primary_category == "math.AP" and paper.doi == "10.1007/s11005-017-1013-4"


# --------------------------------------------------------------------------- HF daily papers (SOURCES §4)
HF = {  # day: (items, upvotes min, max, publishedAt min, max)
    "2024-05-29": (8, 1, 18, "2024-05-28", "2024-05-28"),
    "2024-10-10": (46, 0, 54, "2024-09-23", "2024-10-09"),
    "2025-03-12": (23, 0, 34, "2025-02-26", "2025-03-11"),
    "2025-09-30": (50, 1, 78, "2025-09-26", "2025-09-29"),
    "2026-05-12": (50, 0, 50, "2026-05-07", "2026-05-11"),
    "2026-08-13": (20, 1, 98, "2026-07-19", "2026-08-12"),
    "2026-08-14": (23, 0, 61, "2026-07-31", "2026-08-13"),
    "2026-08-17": (23, 0, 52, "2026-07-31", "2026-08-14"),
    "2026-08-18": (29, 0, 39, "2026-07-10", "2026-08-17"),
    "2026-08-19": (26, 0, 38, "2026-08-07", "2026-08-18"),
    "2026-08-20": (15, 0, 92, "2026-06-30", "2026-08-19"),
    "2026-08-21": (17, 1, 163, "2026-08-13", "2026-08-20"),
}


@pytest.mark.parametrize("day", sorted(HF))
def test_hf_tables(day: str) -> None:
    items, up_lo, up_hi, pub_lo, pub_hi = HF[day]
    r = parsed(f"hf_daily_papers/daily_papers_{day}.json")
    assert len(r.papers) == len(r.sightings) == items and not r.problems
    upvotes = [s.upvotes for s in r.sightings]
    assert (min(upvotes), max(upvotes)) == (up_lo, up_hi)
    assert upvotes == sorted(upvotes, reverse=True)  # the API orders by upvotes
    assert (min(p.published for p in r.papers), max(p.published for p in r.papers)) == (pub_lo, pub_hi)
    assert {(s.kind, s.seen_on, s.source) for s in r.sightings} == {("featured", day, "hf")}
    assert all("\n" not in p.title and p.authors for p in r.papers)


def test_hf_recurring_papers() -> None:
    def days_of(arxiv_id: str) -> list[str]:
        return [day for day in sorted(HF)
                if arxiv_id in {s.arxiv_id for s in parsed(f"hf_daily_papers/daily_papers_{day}.json").sightings}]
    assert days_of("2608.12313") == ["2026-08-13", "2026-08-19"]
    assert days_of("2608.13558") == ["2026-08-14", "2026-08-20"]


# --------------------------------------------------------------------------- blog feeds (SOURCES §5, §8)
FEEDS = {  # file: (items, first date, last date) — dates are UTC
    "blog_feeds/lmsys_org_rss_2023-07-01.xml": (7, "2023-03-30", "2023-06-29"),
    "blog_feeds/lilianweng_lillog_hugo_rss_2026-07-06.xml": (53, "2017-06-21", "2026-07-04"),
    "blog_feeds/openai_news_rss_2025-07-28.xml": (599, "2015-12-11", "2025-07-24"),
    "blog_feeds/microsoft_ai_blog_wordpress_rss_2025-07-28.xml": (10, "2025-07-01", "2025-07-28"),
    "blog_feeds/google_deepmind_blog_rss_2025-07-23.xml": (100, "2022-12-06", "2025-07-23"),
    "blog_feeds/google_blog_technology_ai_rss_2025-07-24.xml": (20, "2025-06-23", "2025-07-24"),
    # pubDate is crawl time, 23:00 -0700: the first day as written (07-06) is 07-07 in UTC.
    "blog_feeds/third_party_regenerated/blogs.nvidia.com_regenerated-by-wuhx-airss_python-feedgen_2026-08-21.xml":
        (50, "2026-07-07", "2026-08-17"),
    "blog_posts/vllm-feed-regenerated.xml": (30, "2026-06-03", "2026-08-21"),
    "blog_posts/lmcache-feed-regenerated.xml": (30, "2025-01-21", "2026-05-23"),
    "blog_posts/llm-d-feed-regenerated.xml": (25, "2025-05-20", "2026-08-17"),
    "blog_posts/flashinfer-feed-regenerated.xml": (5, "2024-02-02", "2025-10-21"),
}


@pytest.mark.parametrize("rel", sorted(FEEDS))
def test_feed_tables(rel: str) -> None:
    items, lo, hi = FEEDS[rel]
    r = parsed(rel)
    assert fmt(rel) == "feed"
    assert len(r.posts) == len({p.key for p in r.posts}) == items
    dates = [p.published[:10] for p in r.posts if p.published]
    assert (min(dates), max(dates)) == (lo, hi)
    assert all(p.title and p.url and p.feed == Path(rel).stem for p in r.posts)
    assert all("<" not in p.summary or "< " in p.summary for p in r.posts)  # HTML stripped


def test_lilianweng_placeholder_date_and_arxiv_links() -> None:
    r = parsed("blog_feeds/lilianweng_lillog_hugo_rss_2026-07-06.xml")
    faq = next(p for p in r.posts if p.url == "https://lilianweng.github.io/faq/")
    assert faq.published is None
    assert any("0001" in p for p in r.problems)
    ids = {s.arxiv_id for s in r.sightings}
    assert {"1706.03762", "1810.04805", "physics/0004057", "1406.2661"} <= ids and len(ids) == 13
    assert all(s.kind == "blog" and s.url for s in r.sightings)


def test_wordpress_empty_guid_keys_on_link() -> None:
    r = parsed("blog_feeds/microsoft_ai_blog_wordpress_rss_2025-07-28.xml")
    assert all(p.key == f"{p.feed}|{p.url}" for p in r.posts)
    assert r.posts[0].authors == ["ceprodblogsupp"]


def test_google_summary_is_the_description_not_media_caption() -> None:
    first = parsed("blog_feeds/google_blog_technology_ai_rss_2025-07-24.xml").posts[0]
    assert first.summary.startswith("We’re launching Web Guide")
    assert first.authors == ["Austin Wu"] and first.tags == ["Search", "AI"]


def test_nvidia_arxiv_html_link() -> None:
    r = parsed("blog_feeds/third_party_regenerated/blogs.nvidia.com_regenerated-by-wuhx-airss_python-feedgen_2026-08-21.xml")
    assert sorted((s.arxiv_id, s.version) for s in r.sightings) == [("2503.18616", None), ("2607.28460", 1)]


@pytest.mark.parametrize("blog", ["vllm", "lmcache", "llm-d", "flashinfer"])
def test_regenerated_feeds_match_posts_jsonl(blog: str) -> None:
    lines = (CORPUS / "blog_posts/posts.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    by_url = {rec["url"]: rec for rec in records if rec["blog"] == blog}
    for post in parsed(f"blog_posts/{blog}-feed-regenerated.xml").posts:
        rec = by_url[post.url]
        assert (post.title, post.published[:10], post.authors) == (rec["title"], rec["date"], rec["authors"])
