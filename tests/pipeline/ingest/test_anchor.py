"""`kb anchor` beyond an arXiv ID into a well-kept doc: a URL, and the docs it refuses to edit (with why)."""
from __future__ import annotations

import json
from pathlib import Path

from kb.store import Store
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


def test_date_dates_the_written_line_only(sample_workspace: Path) -> None:
    """An undated line the team added by hand is first seen the day kb reads it (today), not on the
    ``--date`` of a `kb anchor` that happened to read the doc: back-dating one line turned another
    paper from NET-new into "already anchored" in a rebuilt past briefing."""
    assert kb_inproc("ingest", "workspace", "--date", "2026-10-08").returncode == 0
    with (sample_workspace / DOC).open("a", encoding="utf-8") as f:
        f.write("- 2610.08694 KVCC — hand-added, no date\n")
    done = kb_inproc("anchor", "2610.09034", "--section", "2.3", "--date", "2026-09-01")
    assert done.returncode == 0, done.stderr
    [written] = [r for r in _anchored("2.3") if r["arxiv_id"] == "2610.09034"]
    [by_hand] = [r for r in _anchored("3.3") if r["arxiv_id"] == "2610.08694"]
    assert written["anchored_on"] == "2026-09-01"
    assert by_hand["anchored_on"] > "2026-10-08"          # today, whatever today is: after the sample's day


def test_an_anchor_dated_in_the_future_is_refused(sample_workspace: Path) -> None:
    before = (sample_workspace / DOC).read_bytes()
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--date", "2999-01-01")
    assert result.returncode == 2 and "cannot be dated in the future" in result.stderr
    assert (sample_workspace / DOC).read_bytes() == before


def test_what_is_not_one_url_is_refused_with_one_line(sample_workspace: Path) -> None:
    """A newline (an internal error once), spaces that smuggle a second ID and an earlier date onto the line,
    a tab, or trailing punctuation the reader would drop: refused, exit 2, the doc untouched."""
    before = (sample_workspace / DOC).read_bytes()
    for bad in ("https://example.com/a\nb", "https://example.com/post (anchored 2001-01-01) 2401.00001",
                "https://example.com/a\tb", "https://example.com/a).", "https://example.com/a\u200bb",
                "https://example.com/<b>"):
        result = kb_inproc("anchor", bad, "--section", "2.3")
        assert result.returncode == 2, (bad, result.stderr)
        assert "is not one URL" in result.stderr and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert (sample_workspace / DOC).read_bytes() == before
    ok = kb_inproc("anchor", "https://example.com/ok/page.html?x=1#y", "--section", "2.3", "--dry-run")
    assert ok.returncode == 0 and "+- https://example.com/ok/page.html?x=1#y (anchored " in ok.stdout


def test_a_url_the_plain_line_would_misread_is_written_as_an_autolink(sample_workspace: Path) -> None:
    """Parentheses read back as written; underscores and asterisks would read as emphasis, so such a
    URL goes between angle brackets, and the store holds the URL as given either way."""
    wiki, code = "https://en.wikipedia.org/wiki/Foo_(bar)", "https://github.com/x/y/blob/main/__init__.py"
    for url in (wiki, code):
        assert kb_inproc("anchor", url, "--section", "3.3", "--date", "2026-10-08").returncode == 0
    lines = (sample_workspace / DOC).read_text(encoding="utf-8").splitlines()
    assert f"- {wiki} (anchored 2026-10-08)" in lines and f"- <{code}> (anchored 2026-10-08)" in lines
    assert {wiki, code} <= {r["url"] for r in _anchored("3.3")}


def test_a_doc_saved_with_a_byte_order_mark_keeps_it_and_its_first_section(sample_workspace: Path) -> None:
    """The mark was read as part of the first heading: that section vanished from the store on the
    first kb anchor, and the nightly, finding the file as kb recorded it, never read it again."""
    doc = sample_workspace / DOC
    doc.write_bytes(b"\xef\xbb\xbf## \xc2\xa71 A\r\n- 2401.09670 X (anchored 2026-08-12)\r\n\r\n## \xc2\xa72 B\r\n"
                    b"- 2311.18677 Y (anchored 2026-08-12)\r\n")
    assert kb_inproc("ingest", "workspace", "--date", "2026-10-08").returncode == 0
    done = kb_inproc("anchor", "https://example.com/post", "--section", "2", "--date", "2026-10-08")
    assert done.returncode == 0, done.stderr
    data = doc.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf## \xc2\xa71 A\r\n") and b"- https://example.com/post (anchored 2026-10-08)\r\n" in data
    assert [r["arxiv_id"] for r in _anchored("1")] == ["2401.09670"]
    assert kb_inproc("anchor", "2401.09670", "--section", "1").returncode == 2      # already there: §1 is read


def test_a_paper_anchored_in_another_section_is_anchored_and_said(sample_workspace: Path) -> None:
    """The same paper in two sections is the team's call (a cross-reference), but `kb anchor` wrote the second
    line without a word: now it names the sections that already anchor it, on a dry run too (on stderr, so
    the diff stays a patch)."""
    doc = (sample_workspace / DOC).read_text(encoding="utf-8")
    assert "- 2609.33252 CascadeEP" in doc.split("### §2.3 ", 1)[1].split("\n#", 1)[0]
    Store.open(sample_workspace / ".kb" / "kb.sqlite").close()   # a dry run reads the store; a read makes none
    dry = kb_inproc("anchor", "2609.33252", "--section", "1.1", "--dry-run")
    assert dry.returncode == 0 and dry.stdout.startswith("--- a/") and "also" not in dry.stdout, dry.stdout
    assert dry.stderr.strip() == "kb: 2609.33252 is also anchored in §2.3", dry.stderr
    done = kb_inproc("anchor", "2609.33252", "--section", "1.1")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("; also anchored in §2.3"), done.stdout
    lone = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--dry-run")
    assert lone.returncode == 0 and not lone.stderr.strip(), lone.stderr


def test_a_read_only_doc_is_refused_and_a_writable_one_keeps_its_mode(sample_workspace: Path) -> None:
    """The doc was replaced through a rename, which a writable folder allows: a doc the team made read-only
    (0444) got the line and came back 0644; a 0640 one came back 0644 too, against "mode kept"."""
    doc = sample_workspace / DOC
    before = doc.read_bytes()
    doc.chmod(0o444)
    refused = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--date", "2026-10-08")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert refused.stderr.startswith(f"kb: error: {DOC.as_posix()} is read-only (mode 0444); kb anchor changed "
                                     "nothing (make it writable, or add the line by hand)")
    assert doc.read_bytes() == before and (doc.stat().st_mode & 0o777) == 0o444
    doc.chmod(0o640)
    done = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--date", "2026-10-08")
    assert done.returncode == 0, done.stderr
    assert doc.read_bytes() != before and (doc.stat().st_mode & 0o777) == 0o640


def test_a_doc_removed_between_its_reading_and_its_writing_is_one_line(sample_workspace: Path, monkeypatch) -> None:
    """The doc is read, the line inserted, then the doc's mode read for the new version: a doc removed in
    between (the team moving it) was an internal error (exit 70, a crash log). It is one line, exit 1 as
    for a doc that is not there, and nothing is written: neither the doc nor the store."""
    from pipeline.ingest import anchor
    assert kb_inproc("ingest", "workspace", "--date", "2026-10-08").returncode == 0
    before = _anchored("2.3")
    real_edit = anchor._edit

    def edit_then_remove(ctx, *args, **kw):
        done = real_edit(ctx, *args, **kw)
        (sample_workspace / DOC).unlink()
        return done

    monkeypatch.setattr(anchor, "_edit", edit_then_remove)
    result = kb_inproc("anchor", "2610.09701", "--section", "2.3", "--date", "2026-10-08")
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == (f"kb: error: {DOC.as_posix()} was removed while kb anchor edited it; kb anchor "
                                     "changed nothing (restore it, then anchor again)")
    assert not (sample_workspace / DOC).exists() and _anchored("2.3") == before
