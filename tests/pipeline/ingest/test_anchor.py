"""`kb anchor` beyond an arXiv ID into a well-kept doc: a URL, and the docs it refuses to edit (with why)."""
from __future__ import annotations

import json
from pathlib import Path

from tests.reliability.support import kb_inproc

DOC = Path("organized/knowledge/inference.md")
POST = "https://blog.lmcache.ai/2026/10/08/cachegen-in-production.html"


def _anchored(section: str) -> list[dict]:
    result = kb_inproc("query", "anchored", "--section", section, "--format", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_url_is_anchored_as_written_and_recorded(sample_workspace: Path) -> None:
    assert kb_inproc("ingest", "workspace", "--date", "2026-10-08").returncode == 0
    before = (sample_workspace / DOC).read_text(encoding="utf-8")
    done = kb_inproc("anchor", POST, "--section", "3.3", "--date", "2026-10-08")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"anchored {POST} in {DOC.as_posix()} §3.3 (line ")
    after = (sample_workspace / DOC).read_text(encoding="utf-8")
    added = [line for line in after.splitlines() if line not in before.splitlines()]
    assert added == [f"- {POST} (anchored 2026-10-08)"]
    [row] = [r for r in _anchored("3.3") if r["url"] == POST]
    assert row["arxiv_id"] is None and row["anchored_on"] == "2026-10-08"
    again = kb_inproc("anchor", POST, "--section", "3.3")
    assert again.returncode == 2 and f"{POST} is already anchored in §3.3" in again.stderr


def test_a_missing_doc_is_named_with_what_to_do(sample_workspace: Path) -> None:
    (sample_workspace / DOC).unlink()
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3")
    assert result.returncode == 1
    assert result.stderr.strip() == (f"kb: error: no knowledge doc {DOC.as_posix()} for topic 'inference' "
                                     "(create it, or fix [[topics]] in kb.toml)")


def test_a_doc_that_is_not_utf8_is_refused_and_left_alone(sample_workspace: Path) -> None:
    latin1 = "### §2.3 Prefill-Decode Disaggregation\n- 2401.09670 DistServe (anchored 2026-08-12, Zürich)\n"
    (sample_workspace / DOC).write_bytes(latin1.encode("latin-1"))
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3")
    assert result.returncode == 2
    assert result.stderr.startswith(f"kb: error: {DOC.as_posix()}: cannot read it as UTF-8 text (")
    assert (sample_workspace / DOC).read_bytes() == latin1.encode("latin-1")


def test_a_section_number_written_twice_is_refused_naming_both_lines(sample_workspace: Path) -> None:
    doc = sample_workspace / DOC
    text = doc.read_text(encoding="utf-8")
    doc.write_text(text.replace("### §3.3 KV cache compression", "### §2.3 KV cache compression"), encoding="utf-8")
    before = doc.read_bytes()
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3")
    lines = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith(("### §2.3 ", "### §3.3 "))]
    assert result.returncode == 2
    assert result.stderr.strip() == (f"kb: error: §2.3 is written twice in {DOC.as_posix()} (lines {lines[0]}, "
                                     f"{lines[1]}): renumber one before anchoring there")
    assert doc.read_bytes() == before


def test_an_unknown_topic_is_a_usage_error(sample_workspace: Path) -> None:
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--topic", "nope")
    assert result.returncode == 2 and "no topic 'nope' in kb.toml (topics: inference)" in result.stderr
