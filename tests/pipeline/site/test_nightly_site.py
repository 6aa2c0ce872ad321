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
