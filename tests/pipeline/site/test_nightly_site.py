"""The nightly writes md and html of every language as kb.toml says, and the site when `[site] dir` is set."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.pipeline.site.conftest import kb
from tests.support.paths import SAMPLE

DAY = "2026-10-08"


def _sample(tmp_path: Path, extra: str) -> Path:
    home = Path(shutil.copytree(SAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns(".kb", "briefings", "site")))
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return home


def test_the_nightly_writes_the_configured_formats_and_the_site(tmp_path: Path) -> None:
    home = _sample(tmp_path, '\n[site]\ndir = "public/site"\n')
    out = kb(home, "nightly", "--date", DAY, "--offline").stdout
    names = sorted(p.name for p in (home / "briefings").iterdir())
    assert names == [f"{DAY}-inference.{ext}" for ext in ("en.html", "en.md", "html", "md")]
    assert "site: public/site/index.html — 7 of 7 pages written" in out
    assert (home / "public" / "site" / "inference" / f"{DAY}.en.html").is_file()
    again = kb(home, "nightly", "--date", DAY, "--offline").stdout
    assert "site: public/site/index.html — 0 of 7 pages written" in again


def test_formats_md_alone_writes_no_html(tmp_path: Path) -> None:
    home = _sample(tmp_path, "")
    toml = home / "kb.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("[briefing]\n", '[briefing]\nformats = ["md"]\n'),
                    encoding="utf-8")
    out = kb(home, "nightly", "--date", DAY, "--offline").stdout
    assert not list((home / "briefings").glob("*.html")) and "site:" not in out
    kb(home, "site", "build")      # the site renders the md the nightly recorded
    assert "★" in (home / "site" / "inference" / f"{DAY}.html").read_text(encoding="utf-8")


def test_a_configured_site_folder_holding_the_teams_files_is_never_written(tmp_path: Path) -> None:
    """`[site] dir` is checked as `kb site build --out` is, symlinks followed: a folder of files kb did not
    write (the recordings), or a link into the team's folders, is refused and loses nothing. The check is a
    configuration error said before the night starts: after it, the night's summary (a failed source) was
    never printed, only this line."""
    home = _sample(tmp_path, '\n[site]\ndir = "recordings"\n')
    before = {p: p.read_bytes() for p in (home / "recordings").rglob("*") if p.is_file()}
    out = str(kb(home, "nightly", "--date", DAY, "--offline", code=1).exception)
    assert "[site] dir recordings:" in out and "holds files kb did not write" in out
    assert {p: p.read_bytes() for p in (home / "recordings").rglob("*") if p.is_file()} == before
    assert not (home / "briefings").exists()                              # nothing started

    briefings = _sample(tmp_path / "b", '\n[site]\ndir = "briefings"\n')   # kb's own files: not "kb did not write"
    out = str(kb(briefings, "nightly", "--date", DAY, "--offline", code=1).exception)
    assert "[site] dir briefings: briefings is the team's or kb's own folder" in out
    kb(briefings, "site", "build", "--out", "briefings/site")   # a folder inside it is a site's as any other

    linked = _sample(tmp_path / "2", '\n[site]\ndir = "public"\n')
    (linked / "public").symlink_to(linked / "organized" / "knowledge", target_is_directory=True)
    out = str(kb(linked, "nightly", "--date", DAY, "--offline", code=1).exception)
    assert "organized/knowledge is the team's or kb's own folder" in out
    assert sorted(p.name for p in (linked / "organized" / "knowledge").iterdir()) == ["inference.md"]


def test_a_configured_site_folder_that_is_a_symlink_loop_is_named(tmp_path: Path) -> None:
    """It was 'internal error: RuntimeError: Symlink loop' from the nightly and from kb site build."""
    home = _sample(tmp_path, '\n[site]\ndir = "public"\n')
    (home / "public").symlink_to("public")
    out = str(kb(home, "nightly", "--date", DAY, "--offline", code=1).exception)
    assert "[site] dir public: a symlink loop" in out
    assert "[site] dir public: a symlink loop" in str(kb(home, "site", "build", code=1).exception)
