"""The everyday read commands (`kb flags show`, `kb show`, `kb audit`, `--format ids`) tell the truth."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from kb.cli import app
from kb.store import Store
from kb.store.flags import sync_flag


def _boundary(workspace: Path, anchored_title: str) -> None:
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        sync_flag(tx, rule="boundary", fingerprint="inference:boundary:x", topic="inference", subject="x",
                  evidence={"new": "2610.09701", "anchored": "2609.33252", "anchored_title": anchored_title,
                            "section": "§2.3"}, day="2026-10-08")


def test_flags_show_gives_a_boundarys_anchored_title_as_the_briefing_shows_it(runner: CliRunner,
                                                                               workspace: Path) -> None:
    """An anchor with no paper in the store is titled by its line; the briefing shows it without the ID and
    "(anchored …)" (the flag's context), `kb flags show` showed the raw line alone."""
    _boundary(workspace, "2609.33252 CascadeEP — async expert scheduling (anchored 2026-10-07)")
    md = runner.invoke(app, ["flags", "show", "1"])
    assert md.exit_code == 0, md.output
    assert "## Context\n- anchored_title: CascadeEP — async expert scheduling\n" in md.output
    shown = json.loads(runner.invoke(app, ["flags", "show", "1", "--format", "json"]).output)
    assert shown["context"] == {"anchored_title": "CascadeEP — async expert scheduling"}


def test_flags_show_has_no_context_when_the_title_is_shown_as_it_is(runner: CliRunner, workspace: Path) -> None:
    _boundary(workspace, "CascadeEP: Asynchronous Expert Scheduling")
    md = runner.invoke(app, ["flags", "show", "1"]).output
    assert "## Context" not in md and "anchored_title: CascadeEP: Asynchronous Expert Scheduling" in md


def _conflict(workspace: Path, **signed: dict[str, str]) -> None:
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        sync_flag(tx, rule="number-conflict", fingerprint="inference:number-conflict:x", topic="inference",
                  subject="BurstGuard · SLO violations", evidence={"quantity": "SLO violations (%)", "values": {
                      "38%": ["organized/paper_cards/401.md"], "44%": ["inbox/jay/n.md#5"]}},
                  day="2026-10-12", **signed)


def test_flags_show_gives_a_conflicts_figures_with_their_sign_as_the_briefing_shows_them(
        runner: CliRunner, workspace: Path) -> None:
    """Jay wrote "SLO 违约 −44%", card 401 "−38%": the briefing showed −44% and −38%, `kb flags show` 44% and
    38% (the evidence keeps them unsigned: it is the flag's identity)."""
    _conflict(workspace, signed={"44%": "−44%", "38%": "−38%"})
    md = runner.invoke(app, ["flags", "show", "1"])
    assert md.exit_code == 0, md.output
    assert "- values:\n  - −38%: organized/paper_cards/401.md\n  - −44%:" in md.output
    assert "## Context" not in md.output                           # the signs are shown in the evidence
    shown = json.loads(runner.invoke(app, ["flags", "show", "1", "--format", "json"]).output)
    assert shown["context"] == {"signed": {"44%": "−44%", "38%": "−38%"}}
    assert set(shown["evidence"]["values"]) == {"38%", "44%"}


def test_flags_show_gives_a_flag_synced_before_signs_were_kept_as_it_is(runner: CliRunner, workspace: Path) -> None:
    _conflict(workspace)
    md = runner.invoke(app, ["flags", "show", "1"]).output
    assert "- values:\n  - 38%: organized/paper_cards/401.md\n  - 44%:" in md
    assert json.loads(runner.invoke(app, ["flags", "show", "1", "--format", "json"]).output)["context"] == {}


def test_flags_list_carries_each_flags_context_as_flags_show_does(runner: CliRunner, workspace: Path) -> None:
    """`kb flags --format json` gave each flag's evidence with no context: a number conflict's figures unsigned
    (44%, where the briefing and `kb flags show` say −44%), a boundary's anchored title as its raw line."""
    _conflict(workspace, signed={"44%": "−44%", "38%": "−38%"})
    _boundary(workspace, "2609.33252 CascadeEP — async expert scheduling (anchored 2026-10-07)")
    listed = json.loads(runner.invoke(app, ["flags", "--format", "json"]).output)
    shown = [json.loads(runner.invoke(app, ["flags", "show", str(f["id"]), "--format", "json"]).output)
             for f in listed]
    assert [f["context"] for f in listed] == [f["context"] for f in shown]
    assert {"signed": {"44%": "−44%", "38%": "−38%"}} in [f["context"] for f in listed]


def _docs_and_notes(workspace: Path) -> None:
    """The doc kb.toml configures (``inference``) and one it named before a rename (``inference-old``), both
    still in the store; 2610.10091 is anchored only in the old one and mentioned in two notes."""
    from kb.store.anchors import save_knowledge_doc
    from kb.store.notes import save_note
    from pipeline.workspace.knowledge import parse_knowledge
    from pipeline.workspace.notes import parse_note
    head = "# inference\nversion: v1 · 2026-10-08\n### §2.3 MoE\n- 2609.33252 CascadeEP (anchored 2026-10-07)\n"
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        for topic, text in (("inference", head), ("inference-old", head + "- 2610.10091 ExperienceIndex\n- 2609.00001 Gone\n")):
            save_knowledge_doc(tx, parse_knowledge(text, f"organized/knowledge/{topic}.md", topic), topic,
                               "2026-10-08")
        for who in ("jay", "tom"):
            save_note(tx, parse_note("## 1. ExperienceIndex\n\n- arXiv 2610.10091 memory for agents\n",
                                     f"inbox/{who}/2026-10-08-0900-notes.md"))


def test_show_lists_the_anchors_of_the_docs_kb_toml_configures(runner: CliRunner, workspace: Path) -> None:
    """After a rename the old slug's anchors stay in the store, frozen at its last reading: `kb show` listed
    every anchor twice ("inference §2.3", "inference-old §2.3")."""
    _docs_and_notes(workspace)
    shown = json.loads(runner.invoke(app, ["show", "2609.33252", "--format", "json"]).output)
    assert [a["topic"] for a in shown["anchors"]] == ["inference"]
    md = runner.invoke(app, ["show", "2609.33252"]).output
    assert "- inference §2.3" in md and "inference-old" not in md
    alone = runner.invoke(app, ["show", "2610.10091"])      # mentioned: shown, with no anchor
    assert alone.exit_code == 0 and "## Anchors" not in alone.output and "inference-old" not in alone.output
    gone = runner.invoke(app, ["show", "2609.00001"])        # known from that doc alone: says so
    assert gone.exit_code == 1 and "anchored only in docs kb.toml does not configure now (inference-old)" in str(
        gone.exception)


def test_show_lists_the_flags_naming_the_paper_not_those_quoting_its_id_in_their_text(runner: CliRunner,
                                                                                      workspace: Path) -> None:
    """`kb show` found a paper's flags by ``"ID"`` anywhere in their evidence's JSON text: a claim ending in an
    open quote and the ID (``比 "2610.12345``, kept as ``"比 \\"2610.12345"``) listed a flag about another paper.
    A flag is the paper's when its subject is the ID or a whole string of its evidence (a key, a value) is;
    an ID another begins with (2610.1234 of 2610.12345) is not it."""
    from kb.store.rows import row
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        tx.insert("papers", [row("papers", arxiv_id="2610.12345", title="TreeDraft")])
        for name, rule, evidence in (
                ("a", "boundary", {"new": "2610.12345", "anchored": "2609.33252"}),
                ("b", "unsourced-claim", {"arxiv_ids": ["2610.54321"], "claims": ['快 3×，见 "2610.12345']}),
                ("c", "id-conflict", {"ids": {"2610.12346": ["inbox/a.md#1"], "2610.1234": ["inbox/b.md#1"]}}),
                ("d", "impossible-id", {"id": "2610.1234", "likely": ["2610.12345"]})):
            sync_flag(tx, rule=rule, fingerprint=f"inference:{rule}:{name}", topic="inference", subject=name,
                      evidence=evidence, day="2026-10-08")
    shown = json.loads(runner.invoke(app, ["show", "2610.12345", "--format", "json"]).output)
    assert [f["subject"] for f in shown["flags"]] == ["a", "d"]


def test_show_lists_a_flag_naming_the_paper_by_one_of_its_versions(runner: CliRunner, workspace: Path) -> None:
    """A flag whose evidence names the paper with its version (an ID conflict between 2610.12345v2 and
    2610.54321, as a note wrote it) is about the paper: `kb show 2610.12345` left it out."""
    from kb.store.rows import row
    with Store.open(workspace / ".kb" / "kb.sqlite") as s, s.transaction() as tx:
        tx.insert("papers", [row("papers", arxiv_id="2610.12345", title="TreeDraft")])
        for name, evidence in (("v2", {"ids": {"2610.12345v2": ["inbox/a.md#1"], "2610.54321": ["inbox/b.md#1"]}}),
                               ("url", {"ids": {"https://arxiv.org/abs/2610.12345v3": ["inbox/a.md#2"]}}),
                               ("other", {"ids": {"2610.12346v2": ["inbox/a.md#3"]}}),
                               ("text", {"claims": ["见 2610.12345v2 的表 3"]})):
            sync_flag(tx, rule="id-conflict", fingerprint=f"inference:id-conflict:{name}", topic="inference",
                      subject=name, evidence=evidence, day="2026-10-08")
    shown = json.loads(runner.invoke(app, ["show", "2610.12345", "--format", "json"]).output)
    assert [f["subject"] for f in shown["flags"]] == ["v2", "url"]


def test_audit_counts_a_paper_anchored_only_in_a_doc_kb_toml_no_longer_names_as_anchored_nowhere(
        runner: CliRunner, workspace: Path) -> None:
    _docs_and_notes(workspace)
    for args in (["audit", "--format", "json"], ["audit", "--topic", "inference", "--format", "json"]):
        found = [f for f in json.loads(runner.invoke(app, args).output) if f["kind"] == "unanchored-mentioned"]
        assert found == [{"kind": "unanchored-mentioned", "subject": "2610.10091",
                          "detail": "mentioned in 2 notes, anchored nowhere"}], args


def test_audit_exits_1_when_it_finds_something_and_0_on_a_clean_workspace(runner: CliRunner,
                                                                         workspace: Path) -> None:
    """The standard is 0 ok, 1 findings (as `kb db check`); `kb audit` printed its findings and exited 0, so a
    script or CI job could not tell a clean workspace from one with problems."""
    Store.open(workspace / ".kb" / "kb.sqlite").close()
    clean = runner.invoke(app, ["audit", "--format", "json"])
    assert clean.exit_code == 0 and json.loads(clean.output) == []
    _docs_and_notes(workspace)
    for args in (["audit"], ["audit", "--format", "json"], ["audit", "--format", "ids"]):
        found = runner.invoke(app, args)
        assert found.exit_code == 1 and "2610.10091" in found.output, (args, found.exit_code, found.output)


def _format_help(runner: CliRunner, *command: str) -> str:
    text = " ".join(runner.invoke(app, [*command, "--help"], terminal_width=200).output.split())
    return text[text.index("--format"):]


def test_format_ids_help_says_what_each_command_prints(runner: CliRunner, workspace: Path) -> None:
    """Every --format said "ids (the arXiv IDs alone)": `kb flags` prints flag numbers, `kb search` refs of
    papers, posts and note entries, `kb audit` findings' subjects (file paths too)."""
    assert "ids (the flag numbers alone, one per line" in _format_help(runner, "flags")
    assert "ids (each result's ref alone, one per line: an arXiv ID, a blog post's feed|URL or a note entry's " \
           "path#N)" in _format_help(runner, "search")
    assert "ids (each finding's subject alone, once, one per line: an arXiv ID as written, or a file's path)" \
        in _format_help(runner, "audit")
    for command in (("query", "papers"), ("query", "anchored")):
        assert "ids (the arXiv IDs alone, one per line)" in _format_help(runner, *command)
