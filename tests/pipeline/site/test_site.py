"""`kb site build`: the pages, their links, the feed, escaping, reruns that write nothing, `--out` checks."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urljoin, urlparse

import feedparser
import pytest

from tests.pipeline.site.conftest import kb
from tests.reliability.support import kb_inproc
from tests.support.days import DAY1, DAY2

HREF = re.compile(r'\b(?:href|src)="([^"]*)"')


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_the_site_has_an_index_topic_pages_briefings_in_both_languages_and_a_feed(site_home: Path) -> None:
    site = site_home / "site"
    names = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert {"index.html", "style.css", "inference/index.html", "inference/feed.xml", f"inference/{DAY1}.html",
            f"inference/{DAY1}.en.html", f"inference/{DAY2}.html", f"inference/{DAY2}.en.html"} <= names


def test_html_lang_is_zh_cn_or_en(site_home: Path) -> None:
    site = site_home / "site" / "inference"
    assert '<html lang="zh-CN">' in (site / f"{DAY1}.html").read_text(encoding="utf-8")
    assert '<html lang="en">' in (site / f"{DAY1}.en.html").read_text(encoding="utf-8")


def test_every_link_inside_the_site_is_relative_and_leads_to_a_file(site_home: Path) -> None:
    site = site_home / "site"
    for page in pages(site):
        base = page.relative_to(site).as_posix()
        for href in HREF.findall(page.read_text(encoding="utf-8")):
            if urlparse(href).scheme in ("http", "https"):
                continue                      # a paper's or a post's own page, inside the briefing
            assert not href.startswith("/") and not urlparse(href).scheme, (page, href)
            target = urlparse(urljoin(f"http://h/{base}", href)).path.lstrip("/")
            assert (site / target).is_file(), (page, href)


def test_days_link_to_the_previous_and_next_day_in_the_same_language(site_home: Path) -> None:
    site = site_home / "site" / "inference"
    day2, day1 = (site / f"{DAY2}.en.html").read_text(encoding="utf-8"), (site / f"{DAY1}.html").read_text("utf-8")
    assert f'rel="prev" class="prev" href="{DAY1}.en.html"' in day2 and 'rel="next"' not in day2
    assert f'rel="next" class="next" href="{DAY2}.html"' in day1 and 'rel="prev"' not in day1


def test_the_index_lists_every_briefing_with_its_density_and_counts(site_home: Path) -> None:
    index = (site_home / "site" / "index.html").read_text(encoding="utf-8")
    data = json.loads(kb(site_home, "brief", "--date", DAY1, "--format", "json").stdout)
    row = re.search(rf'<tr><td><a href="inference/{DAY1}.html">{DAY1}</a>.*?</tr>', index).group(0)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    assert cells[1] == data["density"]["level"]
    assert cells[2:5] == [str(data["density"]["net_new"]), str(len(data["increments"])),
                          str(data["counts"]["relevant"])]
    assert index.index(f">{DAY2}<") < index.index(f">{DAY1}<")      # newest first


def test_credibility_and_categories_read_as_text_without_an_emoji_font(site_home: Path) -> None:
    zh = (site_home / "site" / "inference" / f"{DAY1}.html").read_text(encoding="utf-8")
    en = (site_home / "site" / "inference" / f"{DAY1}.en.html").read_text(encoding="utf-8")
    assert re.search(r"★+☆*</span><span class=\"stars-text\"> [1-5]/5<", zh)
    assert "⭐" not in zh and "[NEW]" in zh and "[ENG]" in zh and "[NEW]" in en


def test_the_feed_parses_and_links_each_day(site_home: Path) -> None:
    feed = feedparser.parse((site_home / "site" / "inference" / "feed.xml").read_bytes())
    assert not feed.bozo, feed.bozo_exception
    assert [e.link for e in feed.entries] == [f"{DAY2}.html", f"{DAY1}.html"]
    assert feed.feed.language == "zh-CN" and all(e.updated_parsed for e in feed.entries)


def test_a_rerun_writes_nothing(site_home: Path) -> None:
    before = {p: p.stat().st_mtime_ns for p in (site_home / "site").rglob("*") if p.is_file()}
    assert " — 0 of " in kb(site_home, "site", "build").stdout
    assert before == {p: p.stat().st_mtime_ns for p in (site_home / "site").rglob("*") if p.is_file()}


def test_an_edited_briefing_file_never_reaches_the_site(site_home: Path, tmp_path: Path) -> None:
    """The site takes a briefing file only with the bytes kb recorded; otherwise it renders the stored data."""
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    for f in (home / "briefings").glob(f"{DAY1}-inference.*"):
        f.write_text(f.read_text(encoding="utf-8").replace("inference", "TAMPERED"), encoding="utf-8")
    kb(home, "site", "build")
    page = (home / "site" / "inference" / f"{DAY1}.html").read_text(encoding="utf-8")
    assert "TAMPERED" not in page and "inference" in page


def test_outside_text_is_escaped(site_home: Path, tmp_path: Path) -> None:
    """A title from a feed lands in the index's top-item column as text."""
    import sqlite3
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    db = sqlite3.connect(home / ".kb" / "kb.sqlite")
    [(blob,)] = db.execute("SELECT data FROM briefings WHERE date = ? AND format = 'json'", (DAY2,)).fetchall()
    data = json.loads(blob)
    data["top_item"] = {"title": '<script>alert(1)</script><img src=x onerror="alert(2)">', "why": []}
    db.execute("UPDATE briefings SET data = ? WHERE date = ? AND format = 'json'", (json.dumps(data), DAY2))
    db.commit()
    db.close()
    kb(home, "site", "build")
    for page in pages(home / "site"):
        text = page.read_text(encoding="utf-8")
        assert "<script" not in text.lower() and not re.search(r"<[^>]*\son\w+\s*=", text), page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (home / "site" / "index.html").read_text(encoding="utf-8")


def test_resolving_a_flag_rewrites_the_latest_briefing_in_every_format(site_home: Path, tmp_path: Path) -> None:
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (home / "briefings").glob(f"{DAY2}-*")}
    flags = json.loads(kb(home, "flags", "--open", "--format", "json").stdout)
    out = kb(home, "flags", "resolve", str(flags[0]["id"]), "--as", "dismissed", "--note", "checked by hand").stdout
    assert f"briefings/{DAY2}-inference.html" in out
    after = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (home / "briefings").glob(f"{DAY2}-*")}
    assert set(before) == set(after) and all(before[n] != after[n] for n in before if not n.endswith(".json"))


@pytest.mark.parametrize("out", ["inbox/site", "organized", ".kb/site", "."])
def test_out_refuses_the_teams_and_kbs_own_folders(site_home: Path, out: str) -> None:
    result = kb_inproc("--home", str(site_home), "site", "build", "--out", out)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "never writes a site there" in result.stderr


def test_out_refuses_a_folder_kb_did_not_write_unless_forced(site_home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "index.html").write_text("my own page", encoding="utf-8")
    refused = kb_inproc("--home", str(site_home), "site", "build", "--out", str(folder))
    assert refused.returncode == 2 and "kb did not write" in refused.stderr and "my own page" not in refused.stderr
    kb(site_home, "site", "build", "--out", str(folder), "--force")
    assert "my own page" not in (folder / "index.html").read_text(encoding="utf-8")
    kb(site_home, "site", "build", "--out", str(folder))        # kb's own site now: no --force needed


def test_a_day_with_only_old_data_still_gets_a_page(site_home: Path, tmp_path: Path) -> None:
    """Files deleted and data from an older kb: the site says so on that day's page instead of failing."""
    import sqlite3
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    db = sqlite3.connect(home / ".kb" / "kb.sqlite")
    db.execute("INSERT INTO briefings (topic, date, lang, format, path, content_hash, data) VALUES "
               "('inference', '2026-10-01', '', 'json', NULL, 'x', ?)",
               (json.dumps({"topic": "inference", "date": "2026-10-01", "density": {"level": "低", "net_new": 0}}),))
    db.commit()
    db.close()
    kb(home, "site", "build")
    page = (home / "site" / "inference" / "2026-10-01.html").read_text(encoding="utf-8")
    assert 'class="missing"' in page and f'href="{DAY1}.html"' in page


def test_a_day_whose_briefing_files_are_gone_is_rendered_from_its_stored_data(site_home: Path, tmp_path: Path) -> None:
    """Someone deleted a day's briefing files: its page shows the briefing made again from what the store
    kept, as the nightly wrote it, not the "files are gone" note."""
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    with_files = (home / "site" / "inference" / f"{DAY1}.html").read_text(encoding="utf-8")
    for f in (home / "briefings").glob(f"{DAY1}-inference*"):
        f.unlink()
    kb(home, "site", "build")
    page = (home / "site" / "inference" / f"{DAY1}.html").read_text(encoding="utf-8")
    assert 'class="missing"' not in page
    headings = re.findall(r"<h2[^>]*>.*?</h2>", with_files)
    assert headings and re.findall(r"<h2[^>]*>.*?</h2>", page) == headings


def test_the_workspace_s_own_site_template_is_used(site_home: Path, tmp_path: Path) -> None:
    """docs/briefing.md: a workspace overrides the shipped templates in .kb/overrides/templates/."""
    from kb.resources import find_resource
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    shipped = find_resource("templates/site_page.html.j2").read_text(encoding="utf-8")
    overrides = home / ".kb" / "overrides" / "templates"
    overrides.mkdir(parents=True)
    assert "</article>" in shipped
    (overrides / "site_page.html.j2").write_text(shipped.replace("</article>", "<p>our team's own footer</p></article>"),
                                                 encoding="utf-8")
    kb(home, "site", "build")
    assert "our team's own footer" in (home / "site" / "inference" / f"{DAY1}.html").read_text(encoding="utf-8")
    assert "our team's own footer" not in (home / "site" / "index.html").read_text(encoding="utf-8")


def test_a_broken_site_template_override_is_one_line_naming_its_line(site_home: Path, tmp_path: Path) -> None:
    """A team's site template with an error was an internal error (exit 70); it is the workspace's (exit 2)."""
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    overrides = home / ".kb" / "overrides" / "templates"
    overrides.mkdir(parents=True)
    (overrides / "site_index.html.j2").write_text("<p>\n{{ nope.y }}</p>\n", encoding="utf-8")
    result = kb_inproc("--home", str(home), "site", "build")
    assert result.returncode == 2, result.stderr
    assert ".kb/overrides/templates/site_index.html.j2:2: UndefinedError" in result.stderr
    (overrides / "site_index.html.j2").unlink()
    (overrides / "site_labels.toml").write_text("zh = [\n", encoding="utf-8")   # the site's words, not TOML
    result = kb_inproc("--home", str(home), "site", "build")
    assert result.returncode == 2 and "overrides/templates/site_labels.toml:1: not valid TOML" in result.stderr


def test_an_english_first_workspace_s_feed_is_in_english(site_home: Path, tmp_path: Path) -> None:
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    cfg = home / "kb.toml"
    cfg.write_text(cfg.read_text(encoding="utf-8").replace('languages = ["zh", "en"]', 'languages = ["en", "zh"]'),
                   encoding="utf-8")
    kb(home, "site", "build")
    feed = feedparser.parse((home / "site" / "inference" / "feed.xml").read_bytes())
    assert feed.feed.language == "en" and len(feed.entries) == 2
    for e in feed.entries:
        assert re.match(r"density (low|low-medium|medium|medium-high|high) · NET-new \d+ · \d+ increments? · "
                        r"\d+ open flags? · \d+ arXiv IDs?", e.summary), e.summary
    index = (home / "site" / "index.html").read_text(encoding="utf-8")
    levels = re.findall(r"</a></td><td>([^<]*)</td><td class=\"num\">", index)
    assert len(levels) == 2 and set(levels) <= {"low", "low-medium", "medium", "medium-high", "high"}, levels


def test_hidden_controls_an_older_kb_stored_never_reach_the_site(site_home: Path, tmp_path: Path) -> None:
    """An older kb stored the team's text as written (a note heading with ESC and a bidi override as the
    day's top item): `kb site build` was an internal error (lxml refuses a control in the Atom feed), and
    the pages would show the override."""
    import sqlite3
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    db = sqlite3.connect(home / ".kb" / "kb.sqlite")
    [(blob,)] = db.execute("SELECT data FROM briefings WHERE date = ? AND format = 'json'", (DAY2,)).fetchall()
    data = json.loads(blob)
    data["top_item"] = {"title": "\u202eEVIL\u202c \x1b[31mllm-d × NIXL", "why": []}
    db.execute("UPDATE briefings SET data = ? WHERE date = ? AND format = 'json'", (json.dumps(data), DAY2))
    db.commit()
    db.close()
    kb(home, "site", "build")
    for page in [*pages(home / "site"), home / "site" / "inference" / "feed.xml"]:
        assert not re.search("[\x1b\u202e\u202c]", page.read_text(encoding="utf-8")), page
    assert "EVIL [31mllm-d × NIXL" in (home / "site" / "index.html").read_text(encoding="utf-8")
