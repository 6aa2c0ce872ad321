"""`kb brief` rewrites a day as a whole: the day's data is recorded once, so every file of the day
(each language and format) and the archive site's pages show it, not only the file asked for."""
from __future__ import annotations

import shutil
from pathlib import Path

from tests.pipeline.site.conftest import kb
from tests.support.days import DAY1

LATE_NOTE = """---
title: "late note"
---
# Late note

- ZetaServe（2610.09999）：disaggregated prefill/decode with KV-cache transfer over RDMA, TTFT down 2.1× vs vLLM.
"""


def test_rebriefing_a_past_day_rewrites_all_its_files_and_the_site(site_home: Path, tmp_path: Path) -> None:
    home = Path(shutil.copytree(site_home, tmp_path / "ws"))
    with (home / "kb.toml").open("a", encoding="utf-8") as toml:
        toml.write('\n[site]\ndir = "site"\n')
    (home / "inbox" / "jay" / f"{DAY1}T2200-jay-late.md").write_text(LATE_NOTE, encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY1)
    kb(home, "classify")
    out = kb(home, "brief", "--date", DAY1, "--lang", "en").stdout
    assert out.strip().endswith(f"briefings/{DAY1}-inference.en.md")
    day_files = sorted((home / "briefings").glob(f"{DAY1}-inference*"))
    assert {p.suffix for p in day_files} == {".md", ".html"} and len(day_files) == 4
    stale = [p.name for p in day_files if "ZetaServe" not in p.read_text(encoding="utf-8")]
    assert stale == []
    pages = [p for p in (home / "site").rglob(f"*{DAY1}*.html")]
    assert pages and all("ZetaServe" in p.read_text(encoding="utf-8") for p in pages)
