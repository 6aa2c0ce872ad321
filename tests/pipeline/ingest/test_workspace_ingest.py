"""The team's workspace in the store: anchors with history, hostile files, kb anchor, queries."""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kb.cli import app

DOC = Path("organized/knowledge/inference.md")


def _ingest(runner: CliRunner, day: str = "2026-10-08") -> str:
    result = runner.invoke(app, ["ingest", "workspace", "--date", day])
    assert result.exit_code == 0, result.output
    return result.output


def _anchored(runner: CliRunner, *args: str) -> list[dict]:
    result = runner.invoke(app, ["query", "anchored", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_anchored_query_has_the_contract_keys_and_section_prefix_matching(runner: CliRunner,
                                                                          sample_workspace: Path) -> None:
    _ingest(runner)
    rows = _anchored(runner, "--section", "2.3")
    assert {"arxiv_id", "topic", "section", "section_title", "anchored_on", "doc_version", "title"} <= set(rows[0])
    sections = {r["section"] for r in rows}
    assert sections == {"§2.3", "§2.3.1"}
    ids = {r["arxiv_id"] for r in rows}
    assert {"2609.33252", "2609.26333", "2609.33485"} <= ids
    assert all(r["doc_version"] == "v310" for r in rows)
    oct7 = {r["arxiv_id"] for r in _anchored(runner, "--since", "2026-10-07", "--until", "2026-10-07") if r["arxiv_id"]}
    assert oct7 == {"2610.03430", "2610.04646", "2605.16867", "2605.01280", "2609.33252", "2609.26333", "2609.33485"}
    only_ids = runner.invoke(app, ["query", "anchored", "--section", "1.(9)", "--format", "ids"]).output.split()
    assert "2610.03430" in only_ids
    # §1.1 and §1.(1) are two sections of the sample doc: each query gets its own anchors.
    framework = {r["arxiv_id"] or r["url"] for r in _anchored(runner, "--section", "1.1")}
    agentic = {r["arxiv_id"] or r["url"] for r in _anchored(runner, "--section", "1.(1)")}
    assert framework and agentic and not framework & agentic
    from kb.errors import ConfigError
    missing = runner.invoke(app, ["query", "anchored", "--section", "1.9"])   # no §1.9 in the doc: exit 2 via main
    assert isinstance(missing.exception, ConfigError) and missing.exception.exit_code == 2


def test_an_id_removed_from_a_section_ends_its_anchor_and_keeps_history(runner: CliRunner,
                                                                        sample_workspace: Path) -> None:
    _ingest(runner, "2026-10-08")
    doc = sample_workspace / DOC
    text = doc.read_text(encoding="utf-8")
    doc.write_text("".join(l for l in text.splitlines(True) if "2609.33485" not in l), encoding="utf-8")
    out = _ingest(runner, "2026-10-09")
    assert "parsed 1, new 0, updated 1" in out
    assert "2609.33485" not in {r["arxiv_id"] for r in _anchored(runner)}
    show = json.loads(runner.invoke(app, ["show", "2609.33485", "--format", "json"]).output)
    [anchor] = show["anchors"]
    assert (anchor["anchored_on"], anchor["first_seen"], anchor["ended_on"]) == ("2026-10-07", "2026-10-08",
                                                                                   "2026-10-09")


def test_hostile_files_are_skipped_and_named(runner: CliRunner, sample_workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("## 1. secret\n- 2601.00001\n")
    os.symlink(outside, sample_workspace / "inbox" / "jay" / "2026-10-08T2300-jay-link.md")
    (sample_workspace / "inbox" / "jay" / "2026-10-08T2301-jay-junk.md").write_bytes(os.urandom(4096) + b"\x00")
    out = _ingest(runner)
    assert "2026-10-08T2300-jay-link.md: skipped, it leads outside the workspace" in out
    assert "2026-10-08T2301-jay-junk.md: skipped, binary content" in out
    assert runner.invoke(app, ["show", "2601.00001"]).exit_code == 1


def test_a_symlink_loop_is_named_and_the_rest_of_the_workspace_read(runner: CliRunner, sample_workspace: Path) -> None:
    """One looping link (to itself, or two cards to each other) costs that file only, not every note and doc."""
    os.symlink("loop.md", sample_workspace / "inbox" / "jay" / "loop.md")
    cards = sample_workspace / "organized" / "paper_cards"
    os.symlink("b.md", cards / "a.md")
    os.symlink("a.md", cards / "b.md")
    out = _ingest(runner)
    for name in ("inbox/jay/loop.md", "organized/paper_cards/a.md", "organized/paper_cards/b.md"):
        assert f"{name}: skipped, a symlink loop" in out
    assert "workspace: ok" in out and _anchored(runner)          # the knowledge doc was read


def test_a_file_name_that_is_not_utf8_is_named_and_the_rest_of_the_workspace_read(runner: CliRunner,
                                                                                  sample_workspace: Path) -> None:
    """A Latin-1 "café" in a note's name stopped the reading at that file: the doc, the cards and the later
    notes were never read, every night, and the line did not say which file."""
    jay = os.fsencode(sample_workspace / "inbox" / "jay")
    with open(jay + b"/2026-10-08T1200-caf\xe9.md", "wb") as f:
        f.write(b"## e\n- 2610.09701 note\n")
    os.mkdir(jay + b"/\xff")
    with open(jay + b"/\xff/2026-10-08T1300-x.md", "wb") as f:
        f.write(b"## f\n")
    os.symlink(os.fsencode(sample_workspace.parent), jay + b"/out\xe9")   # a folder's line, stored with the run
    out = _ingest(runner)
    assert "inbox/jay/out\\xe9: skipped, it leads outside the workspace" in out
    assert "inbox/jay/2026-10-08T1200-caf\\xe9.md: skipped, its name is not UTF-8 (rename the file)" in out
    assert "inbox/jay/\\xff/2026-10-08T1300-x.md: skipped, its name is not UTF-8" in out
    assert "workspace: ok" in out and _anchored(runner)          # the knowledge doc was read


def test_a_knowledge_doc_kb_has_read_that_is_gone_fails_the_stage(runner: CliRunner, sample_workspace: Path) -> None:
    """Moved or deleted after kb read it, the doc was one problem line and exit 0 (nothing at all with
    --quiet) while its old anchors went on counting; one never read (a new workspace's) stays a problem line."""
    _ingest(runner)
    (sample_workspace / DOC).rename(sample_workspace / "organized" / "knowledge" / "inference-old.md")
    result = runner.invoke(app, ["ingest", "workspace", "--date", "2026-10-08"])
    assert result.exit_code == 1, result.output
    assert ("workspace: failed" in result.output and "organized/knowledge/inference.md: the knowledge doc of topic "
            "'inference' is gone (moved or deleted?)" in result.output)
    assert _anchored(runner)                                       # its anchors as last read still count


def test_a_knowledge_doc_that_is_a_symlink_loop_is_one_problem(runner: CliRunner, sample_workspace: Path) -> None:
    doc = sample_workspace / DOC
    doc.unlink()
    os.symlink(doc.name, doc)
    out = _ingest(runner)
    assert f"{DOC.as_posix()}: a symlink loop" in out and f"{DOC.as_posix()}: {DOC.as_posix()}" not in out
    assert "Traceback" not in out


def test_kb_anchor_adds_one_line_and_keeps_every_other_byte(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    doc = sample_workspace / DOC
    before = doc.read_bytes()
    dry = runner.invoke(app, ["anchor", "arXiv:2610.09701", "--section", "2.3", "--date", "2026-10-08", "--dry-run"])
    assert dry.exit_code == 0 and "+- 2610.09701" in dry.output and doc.read_bytes() == before
    done = runner.invoke(app, ["anchor", "2610.09701", "--section", "2.3", "--date", "2026-10-08"])
    assert done.exit_code == 0, done.output
    after = doc.read_bytes().decode().splitlines(True)
    added = [l for l in after if l not in before.decode().splitlines(True)]
    assert len(added) == 1 and added[0].startswith("- 2610.09701 SlimWise") and "(anchored 2026-10-08)" in added[0]
    assert "".join(l for l in after if l is not added[0]) == before.decode()
    assert "2610.09701" in runner.invoke(app, ["query", "anchored", "--section", "2.3", "--format", "ids"]).output
    again = runner.invoke(app, ["anchor", "2610.09701", "--section", "2.3"])
    assert again.exit_code != 0


def test_kb_anchor_refuses_an_unknown_section_listing_the_sections(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    result = runner.invoke(app, ["anchor", "2610.09701", "--section", "9.9"])
    assert result.exit_code == 1
    assert "no section §9.9" in str(result.exception) and "§2.3.1" in str(result.exception)


def test_search_finds_chinese_words_and_english_phrases(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    zh = json.loads(runner.invoke(app, ["search", "显存带宽", "--format", "json"]).output)
    assert any("DeepSeek V4.1" in r["title"] for r in zh)
    en = json.loads(runner.invoke(app, ["search", "MORI-IO read mode", "--format", "json", "--limit", "3"]).output)
    assert en and "MORI-IO" in en[0]["title"]


def test_audit_reports_the_card_mismatch_and_the_double_anchor(runner: CliRunner, sample_workspace: Path) -> None:
    _ingest(runner)
    rows = json.loads(runner.invoke(app, ["audit", "--format", "json"]).output)
    kinds = {(r["kind"], r["subject"]) for r in rows}
    assert ("card-id-mismatch", "2610.09701") in kinds
    assert ("duplicate-in-doc", "2605.01280") in kinds
    # the mismatch is said once: not again as the card file's problem in other words
    assert [r["kind"] for r in rows if "2607.09701" in r["detail"]] == ["card-id-mismatch"]


def test_a_card_mismatch_an_older_kb_kept_as_text_is_said_once_after_the_upgrade(runner: CliRunner,
                                                                               sample_workspace: Path) -> None:
    """An older kb kept the card's mismatch among its file's problems as text (a reworded one here): after
    the upgrade (m023) the card is read again, and its mismatch is one finding, by kind, ID and file."""
    _ingest(runner)
    db = sample_workspace / ".kb" / "kb.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE workspace_files SET problems = ? WHERE path LIKE '%/378-2607-09701.md'",
                 (json.dumps(["the file's name and its arxiv_id name different papers"]),))
    conn.execute("DELETE FROM migrations WHERE name = 'm023_card_findings'")    # the store before this kb
    conn.close()
    _ingest(runner, "2026-10-09")
    rows = json.loads(runner.invoke(app, ["audit", "--format", "json"]).output)
    assert [r["kind"] for r in rows if "378-2607-09701.md" in r["subject"] + r["detail"]] == ["card-id-mismatch"]


def test_a_queue_with_two_lists_keeps_every_item(runner: CliRunner, sample_workspace: Path) -> None:
    queue = sample_workspace / "organized" / "queue" / "work-queue.md"
    queue.write_text("# Queue\n\n1. 2610.10507 RECAST — 0.5/5 — a\n2. 2610.10091 ExperienceIndex — 0.5/5 — b\n\n"
                     "## Later\n\n1. 2610.09701 SlimWise — 2/5 — c\n", encoding="utf-8")
    out = _ingest(runner)
    assert "rank 1 appears more than once" in out
    import sqlite3
    rows = sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite").execute(
        "SELECT rank, arxiv_id FROM queue_items ORDER BY rank").fetchall()
    assert rows == [(1, "2610.10507"), (2, "2610.10091"), (3, "2610.09701")]


def test_audit_names_a_note_and_a_card_dated_after_the_day_they_were_read(runner: CliRunner,
                                                                       sample_workspace: Path) -> None:
    note = sample_workspace / "inbox" / "amy" / "2027-05-01-future.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("## x\n- 2610.09701\n", encoding="utf-8")
    card = next((sample_workspace / "organized" / "paper_cards").glob("*.md"))
    text = card.read_text(encoding="utf-8")
    future = card.with_name("400-" + card.name.split("-", 1)[1])
    future.write_text(re.sub(r"(?m)^created:.*$", "created: 2099-01-01T10:00", text, count=1), encoding="utf-8")
    _ingest(runner)
    rows = json.loads(runner.invoke(app, ["audit", "--format", "json"]).output)
    found = {r["subject"]: r["detail"] for r in rows if r["kind"] == "file-problem"}
    assert "the note's date 2027-05-01 is after 2026-10-08" in found["inbox/amy/2027-05-01-future.md"]
    assert "the card's created date 2099-01-01 is after 2026-10-08" in found[f"organized/paper_cards/{future.name}"]


def test_an_undated_line_moved_keeps_its_date_and_one_also_written_elsewhere_is_new_there(
        runner: CliRunner, sample_workspace: Path) -> None:
    """EAGLE-2 moved from §3.1 to §2.2 was not anchored on the 9th (its date stays unknown: it predates kb);
    vLLM, kept in §2.1 and also written in §2.2, was anchored in §2.2 that day."""
    _ingest(runner, "2026-10-08")
    doc = sample_workspace / DOC
    lines = [l for l in doc.read_text(encoding="utf-8").splitlines(True) if "2406.16858 EAGLE-2" not in l]
    at = next(n for n, l in enumerate(lines) if l.startswith("### §2.2"))
    lines[at + 1:at + 1] = ["- 2406.16858 EAGLE-2 — dynamic draft trees\n", "- 2309.06180 vLLM — PagedAttention\n"]
    doc.write_text("".join(lines), encoding="utf-8")
    _ingest(runner, "2026-10-09")
    dates = {(r["arxiv_id"], r["section"]): r["anchored_on"] for r in _anchored(runner)
             if r["arxiv_id"] in ("2406.16858", "2309.06180")}
    assert dates == {("2406.16858", "§2.2"): None, ("2309.06180", "§2.1"): None, ("2309.06180", "§2.2"): "2026-10-09"}


def test_a_workspace_without_an_inbox_reads_the_rest(runner: CliRunner, sample_workspace: Path) -> None:
    shutil.rmtree(sample_workspace / "inbox")
    read = sorted((sample_workspace / "organized" / "paper_cards").glob("*.md"))
    read += [p for p in (sample_workspace / "organized/queue/work-queue.md", sample_workspace / DOC) if p.is_file()]
    out = _ingest(runner)
    assert out.startswith(f"workspace: ok — parsed {len(read)}, new {len(read)}, updated 0, skipped 0"), out


def test_an_empty_note_is_read_once_like_any_other(runner: CliRunner, sample_workspace: Path) -> None:
    empty = sample_workspace / "inbox" / "jay" / "2026-10-08T2300-jay-nothing-yet.md"
    empty.write_bytes(b"")
    _ingest(runner)
    db = sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite")
    rel = empty.relative_to(sample_workspace).as_posix()
    assert db.execute("SELECT kind, content_hash FROM workspace_files WHERE path = ?", (rel,)).fetchall() == [
        ("note", hashlib.sha256(b"").hexdigest())]                 # read, not marked unread
    assert db.execute("SELECT author FROM notes WHERE path = ?", (rel,)).fetchall() == [("jay",)]
    again = _ingest(runner)
    assert again.startswith("workspace: ok — parsed 0,"), again   # unchanged: not read again


def test_an_unreadable_created_date_is_not_also_a_future_date(runner: CliRunner, sample_workspace: Path) -> None:
    card = sample_workspace / "organized" / "paper_cards" / "393-2610-09560.md"
    card.write_text("---\narxiv_id: 2610.09560\ncreated: 2026/10/08\n---\n# X\n", encoding="utf-8")
    out = _ingest(runner)
    assert "created '2026/10/08' is not an ISO date or date-time" in out
    assert "2026/10/08 is after" not in out


def test_a_future_date_problem_clears_once_the_date_has_come(runner: CliRunner, sample_workspace: Path) -> None:
    """The file is unchanged, so nothing read it again: its "is after" stayed in `kb audit` for ever."""
    (sample_workspace / "inbox" / "jay" / "2026-10-09T0800-jay-tomorrow.md").write_text("## n\n- x\n", encoding="utf-8")

    def audit() -> str:
        result = runner.invoke(app, ["audit"])
        assert result.exit_code == 1, result.output      # the sample's findings
        return result.output
    assert "2026-10-09 is after 2026-10-08" in _ingest(runner, "2026-10-08")
    assert "jay-tomorrow" in audit()
    _ingest(runner, "2026-10-08")
    assert "jay-tomorrow" in audit()                      # still in the future on that day
    _ingest(runner, "2026-10-10")
    assert "jay-tomorrow" not in audit()


def test_a_future_dated_note_deleted_is_forgotten(runner: CliRunner, sample_workspace: Path) -> None:
    """Read again once its date came, it was never seen gone: its entries stayed in the store (the review)."""
    note = sample_workspace / "inbox" / "jay" / "2026-10-12T0900-jay-future.md"
    note.write_text("## n\n- x\n", encoding="utf-8")
    _ingest(runner, "2026-10-09")
    note.unlink()
    _ingest(runner, "2026-10-13")
    with sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite") as db:
        assert db.execute("SELECT count(*) FROM workspace_files WHERE path LIKE '%jay-future%'").fetchone()[0] == 0


def test_a_queue_saved_with_a_byte_order_mark_keeps_its_items(runner: CliRunner, sample_workspace: Path) -> None:
    """A BOM before the queue's first "1." hid the whole list ("no numbered list items found")."""
    queue = sample_workspace / "organized" / "queue" / "work-queue.md"
    lines = queue.read_text(encoding="utf-8").splitlines(True)
    first = next(i for i, line in enumerate(lines) if line.startswith("1."))
    queue.write_text("\ufeff" + "".join(lines[first:]), encoding="utf-8")
    out = _ingest(runner)
    assert "no numbered list items" not in out
    with sqlite3.connect(sample_workspace / ".kb" / "kb.sqlite") as db:
        assert db.execute("SELECT count(*) FROM queue_items").fetchone()[0] == 15


def test_undecodable_bytes_are_counted_in_english(runner: CliRunner, sample_workspace: Path) -> None:
    """A note with one byte that is not UTF-8 said "1 undecodable bytes replaced"."""
    inbox = sample_workspace / "inbox" / "jay"
    (inbox / "2026-10-08T0900-jay-one.md").write_bytes(b"## n\n- caf\xe9 2610.04444\n")
    (inbox / "2026-10-08T0901-jay-two.md").write_bytes(b"## n\n- caf\xe9 na\xefve 2610.04444\n")
    out = _ingest(runner)
    assert "jay-one.md: 1 undecodable byte replaced" in out and "jay-two.md: 2 undecodable bytes replaced" in out


def test_a_doc_overwritten_names_the_one_anchor_it_keeps_in_the_singular(runner: CliRunner,
                                                                          sample_workspace: Path) -> None:
    doc = sample_workspace / DOC
    doc.write_text("# inference\nversion: v1 · 2026-10-08\n### §2.3 MoE\n- 2609.33252 CascadeEP\n", encoding="utf-8")
    _ingest(runner)
    doc.write_text("# inference\n\nSomething else was written here.\n", encoding="utf-8")
    result = runner.invoke(app, ["ingest", "workspace", "--date", "2026-10-08"])
    assert "the 1 anchor of topic 'inference' is kept until it has anchors again" in result.output + str(
        result.exception), result.output


def test_a_missing_inbox_is_named_and_its_notes_come_back_with_it(runner: CliRunner, sample_workspace: Path,
                                                                  tmp_path: Path) -> None:
    """An unmounted share or a folder moved away forgot every note without a word (QA, 2026-12-04)."""
    _ingest(runner)
    notes = len(list((sample_workspace / "inbox").rglob("*.md")))
    shutil.move(sample_workspace / "inbox", tmp_path / "inbox")
    out = _ingest(runner)
    assert f"inbox/: the folder is missing; its {notes} files read before are forgotten" in out
    shutil.move(tmp_path / "inbox", sample_workspace / "inbox")
    out = _ingest(runner)
    assert "missing" not in out and f"new {notes}" in out


def test_a_doc_renamed_in_kb_toml_is_read_for_its_new_slug(runner: CliRunner, sample_workspace: Path) -> None:
    """The doc's bytes did not change, so it was skipped: the renamed topic had no anchors, and every paper
    anchored in the doc came out NET-new in its briefing."""
    _ingest(runner)
    before = {(r["arxiv_id"], r["section"]) for r in _anchored(runner, "--topic", "inference")}
    config = sample_workspace / "kb.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('slug = "inference"', 'slug = "serving"'),
                      encoding="utf-8")
    assert "parsed 1, new 0, updated 1" in _ingest(runner)   # the file is the one read before, not a new one
    assert {(r["arxiv_id"], r["section"]) for r in _anchored(runner, "--topic", "serving")} == before
    assert "parsed 0" in _ingest(runner)          # and read once: the next run skips it again


def test_a_slug_renamed_back_after_the_doc_changed_is_read_again(runner: CliRunner, sample_workspace: Path) -> None:
    """inference → serving, the doc edited, serving → inference: the doc had been read as "inference" once, so
    it was not read again, and "inference" kept the anchors of the text before the edit."""
    _ingest(runner, "2026-10-08")
    config = sample_workspace / "kb.toml"
    toml = config.read_text(encoding="utf-8")
    config.write_text(toml.replace('slug = "inference"', 'slug = "serving"'), encoding="utf-8")
    _ingest(runner, "2026-10-09")
    doc = sample_workspace / DOC
    doc.write_text("".join(l for l in doc.read_text(encoding="utf-8").splitlines(True) if "2609.33485" not in l),
                   encoding="utf-8")
    _ingest(runner, "2026-10-10")
    serving = {(r["arxiv_id"], r["section"]) for r in _anchored(runner, "--topic", "serving")}
    assert "2609.33485" not in {a for a, _ in serving}
    config.write_text(toml, encoding="utf-8")
    assert "parsed 1" in _ingest(runner, "2026-10-11")
    assert {(r["arxiv_id"], r["section"]) for r in _anchored(runner, "--topic", "inference")} == serving
    assert "parsed 0" in _ingest(runner, "2026-10-12")


def test_a_doc_moved_to_another_file_is_read_once(runner: CliRunner, sample_workspace: Path) -> None:
    """The same text under a new file name (kb.toml following it): its version was recorded under the old
    path, so the doc counted as never read for its topic and was read again, and called new, every night."""
    _ingest(runner, "2026-10-08")
    doc = sample_workspace / DOC
    doc.rename(doc.with_name("serving.md"))
    config = sample_workspace / "kb.toml"
    config.write_text(config.read_text(encoding="utf-8").replace("knowledge/inference.md", "knowledge/serving.md"),
                      encoding="utf-8")
    assert "parsed 1, new 1" in _ingest(runner, "2026-10-09")
    assert "parsed 0" in _ingest(runner, "2026-10-10")


def test_a_card_renamed_before_the_upgrade_is_forgotten_after_it(runner: CliRunner, sample_workspace: Path) -> None:
    """m023 has the cards read again. A card the team renamed (its name fixed to match its front matter)
    between the last night of an older kb and the first of this one is gone from disk: its old path must
    be forgotten, as any removed file is, not kept in the cards table (and in `kb audit`) for ever."""
    _ingest(runner)
    db = sample_workspace / ".kb" / "kb.sqlite"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DELETE FROM migrations WHERE name = 'm023_card_findings'")    # the store before this kb
    conn.close()
    cards = sample_workspace / "organized" / "paper_cards"
    (cards / "378-2607-09701.md").rename(cards / "378-2610-09701.md")
    _ingest(runner, "2026-10-09")
    conn = sqlite3.connect(db)
    left = [r[0] for r in conn.execute("SELECT path FROM cards WHERE path LIKE '%/378-%'")]
    conn.close()
    assert left == ["organized/paper_cards/378-2610-09701.md"]
    rows = json.loads(runner.invoke(app, ["audit", "--format", "json"]).output)
    assert [r for r in rows if r["kind"] == "card-id-mismatch" and "378-2607-09701.md" in r["detail"]] == []


NOTE = "inbox/tom/2026-10-08-0900-hf-daily-2026-10-08.md"
QUEUE = "organized/queue/work-queue.md"


def _rows_of(db: Path, path: str) -> dict[str, int]:
    """How many rows the file ``path`` has in each table a file's reading writes."""
    conn = sqlite3.connect(db)
    counts = {t: conn.execute(f"SELECT count(*) FROM {t} WHERE path = ?", (path,)).fetchone()[0]
              for t in ("workspace_files", "notes", "note_entries", "queue_items")}
    counts["mentions"] = conn.execute("SELECT count(*) FROM mentions WHERE origin = ?", (path,)).fetchone()[0]
    conn.close()
    return counts


@pytest.mark.parametrize(("migration", "removed"), [
    ("m013_point_blocks", NOTE), ("m015_point_code", NOTE), ("m022_cited_ids", NOTE), ("m022_cited_ids", QUEUE)])
def test_a_file_removed_before_an_upgrade_that_reads_it_again_is_forgotten(
        runner: CliRunner, sample_workspace: Path, migration: str, removed: str) -> None:
    """m013, m015 and m022 have notes (m022: the queue and the docs too) read again on the next ingest. A
    file the team removed between the last night of an older kb and the first of this one must be forgotten
    with everything its reading stored, as it is without an upgrade: not kept (entries, mentions, queue
    ranks) for ever because the migration made kb forget that it had read it."""
    _ingest(runner)
    db = sample_workspace / ".kb" / "kb.sqlite"
    assert _rows_of(db, removed)["mentions"] > 0
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("DELETE FROM migrations WHERE name = ?", (migration,))    # the store before this kb
    conn.close()
    (sample_workspace / removed).unlink()
    _ingest(runner, "2026-10-09")
    assert _rows_of(db, removed) == {"workspace_files": 0, "notes": 0, "note_entries": 0, "queue_items": 0,
                                     "mentions": 0}


def test_a_note_removed_before_the_upgrade_to_m010_is_forgotten(runner: CliRunner, sample_workspace: Path) -> None:
    """m010 (which adds columns, so it cannot be applied twice) had the notes read again too: a store made
    before it, holding a note that is no longer on disk, forgets the note on its first ingest."""
    from kb.store.backend_sqlite import migrate
    from kb.store.migrations import MIGRATIONS
    gone = "inbox/ann/2026-10-01-gone.md"
    db = sample_workspace / ".kb" / "kb.sqlite"
    db.parent.mkdir()
    conn = sqlite3.connect(db, isolation_level=None)
    migrate(conn, MIGRATIONS[:[m.name for m in MIGRATIONS].index("m010_entry_cites")])
    conn.execute("INSERT INTO workspace_files (path, kind, content_hash) VALUES (?, 'note', 'h')", (gone,))
    conn.execute("INSERT INTO notes (path, author, timestamp) VALUES (?, 'ann', '2026-10-01')", (gone,))
    conn.execute("INSERT INTO note_entries (path, number, heading) VALUES (?, 1, 'SlimWise')", (gone,))
    conn.execute("INSERT INTO mentions (subject, arxiv_id, origin_kind, origin, entry, seen_on) VALUES "
                 "('2607.09701', '2607.09701', 'entry', ?, 1, '2026-10-01')", (gone,))
    conn.close()
    _ingest(runner)
    assert _rows_of(db, gone) == {"workspace_files": 0, "notes": 0, "note_entries": 0, "queue_items": 0,
                                  "mentions": 0}


def test_problems_found_before_are_counted_every_night_until_mended(runner: CliRunner, sample_workspace: Path) -> None:
    """A problem was named only the night its file was read: the next night, the file unchanged, nothing said it
    still stood. The sample holds two (card 378's file name, the doc's §1.(1) beside §1.1)."""
    first = _ingest(runner)
    assert "378-2607-09701.md: file name says" in first and "found before" not in first
    assert "  - 2 problems found before still stand in files unchanged since (`kb audit` lists them)" in _ingest(runner)
    card = sample_workspace / "organized/paper_cards/378-2607-09701.md"
    card.rename(card.with_name("378-2610-09701.md"))          # mended: the file name now says the card's ID
    mended = _ingest(runner)
    assert "  - 1 problem found before still stands in a file unchanged since (`kb audit` lists it)" in mended
