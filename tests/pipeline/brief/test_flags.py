"""Flags: listed by `kb flags`, closed by `kb flags resolve`, kept closed on a rerun,
reopened when their evidence changes."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pipeline.brief.conftest import DAY, EN_MD, ZH_MD, brief, brief_json, kb, read, sections

DEEP_DIVE = "inbox/jay/2026-10-08T1620-jay-csdn-substack-sglang-multimodal-deep-dive.md"


@pytest.fixture(scope="module")
def briefed(sample_day: Path) -> Path:
    brief(sample_day)
    return sample_day


def _flags(home: Path, *extra: str) -> list[dict]:
    return json.loads(kb(home, "flags", *extra, "--format", "json").stdout)


def _open_heads(home: Path) -> list[str]:
    return [line for line in sections(read(home, ZH_MD))["三"].splitlines() if line.startswith("### ⚠️")]


def test_flags_open_json_lists_the_briefing_flags(briefed: Path) -> None:
    flags = _flags(briefed, "--open")
    assert {f["rule"] for f in flags} == {"unsourced-claim", "boundary", "id-conflict", "date-inconsistency"}
    assert all(f["status"] == "open" and f["first_seen"] == DAY and f["last_seen"] == DAY for f in flags)
    assert all(isinstance(f["evidence"], dict) for f in flags)
    data = brief_json(briefed)
    assert sorted(f["id"] for f in flags) == sorted(f["id"] for f in data["flags"])
    assert len({f["id"] for f in flags}) == len(flags)


def test_flags_table_format(briefed: Path) -> None:
    out = kb(briefed, "flags").stdout
    assert "unsourced-claim" in out and "boundary" in out


def test_resolve_keeps_it_closed_until_the_evidence_changes(briefed: Path) -> None:
    [claim] = [f for f in _flags(briefed, "--open") if f["rule"] == "unsourced-claim"]
    assert "DeepSeek V4.1" in claim["subject"]
    result = kb(briefed, "flags", "resolve", str(claim["id"]), "--as", "dismissed", "--note", "x")
    assert f"#{claim['id']}" in result.stdout and "dismissed" in result.stdout

    assert claim["id"] not in [f["id"] for f in _flags(briefed, "--open")]
    [closed] = [f for f in _flags(briefed) if f["id"] == claim["id"]]
    assert closed["status"] == "dismissed" and closed["note"] == "x"

    # A rerun keeps it closed: not among §3's open items, named in the closed line.
    brief(briefed)
    heads = _open_heads(briefed)
    assert not [h for h in heads if "DeepSeek V4.1" in h] and len(heads) == 3
    s3 = sections(read(briefed, ZH_MD))["三"]
    # In the briefing's language, with the team's note and the id `kb flags` takes.
    assert "已由团队关闭" in s3 and "DeepSeek V4.1" in s3 and "已驳回：x" in s3 and f"#{claim['id']} 来源待核实" in s3
    assert [f["status"] for f in brief_json(briefed)["flags"] if f["id"] == claim["id"]] == ["dismissed"]
    assert f"#{claim['id']} 来源待核实" not in sections(read(briefed, ZH_MD))["五"]

    # New evidence: the note's ⚠ line is rewritten → the same flag reopens.
    note = briefed / DEEP_DIVE
    text = note.read_text(encoding="utf-8")
    assert "我没找到 arXiv 号" in text
    note.write_text(text.replace("我没找到 arXiv 号", "搜了两轮仍没找到 arXiv 号"), encoding="utf-8")
    kb(briefed, "ingest", "workspace", "--date", DAY)
    brief(briefed)
    [again] = [f for f in _flags(briefed, "--open") if f["rule"] == "unsourced-claim"]
    assert again["id"] == claim["id"] and again["status"] == "open"
    assert any("搜了两轮" in c for c in again["evidence"]["claims"])
    assert [h for h in _open_heads(briefed) if "DeepSeek V4.1" in h]


@pytest.mark.parametrize("lang, rel, head", [("zh", ZH_MD, r"### ⚠️ #(\d+) 待核实 · [^·]+ · (.+)"),
                                             ("en", EN_MD, r"### ⚠️ #(\d+) to verify · [^·]+ · (.+)")])
def test_an_id_read_from_the_briefing_is_the_one_kb_flags_resolve_takes(sample_day: Path, tmp_path: Path,
                                                                      lang: str, rel: str, head: str) -> None:
    """Every open flag's heading carries its stored id: resolving that id closes that flag, and the
    rerun's briefing names it among the closed ones, under the same id."""
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    brief(home, *(("--lang", "en") if lang == "en" else ()))
    heads = [m.groups() for line in read(home, rel).splitlines() if (m := re.fullmatch(head, line))]
    stored = {f["id"]: f for f in _flags(home, "--open")}
    assert len(heads) == len(stored) == 4
    assert {int(i) for i, _ in heads} == set(stored)
    flag_id, subject = heads[-1]
    assert subject.startswith(stored[int(flag_id)]["subject"][:20])
    kb(home, "flags", "resolve", flag_id, "--as", "verified")
    assert [f["status"] for f in _flags(home) if f["id"] == int(flag_id)] == ["verified"]
    brief(home, *(("--lang", "en") if lang == "en" else ()))
    text = read(home, rel)
    assert f"### ⚠️ #{flag_id} " not in text and f"#{flag_id} " in text.split("## 四" if lang == "zh" else "## 4.")[0]


def test_verified_flag_stays_closed_on_rerun(briefed: Path) -> None:
    [conflict] = [f for f in _flags(briefed, "--open") if f["rule"] == "id-conflict"]
    kb(briefed, "flags", "resolve", str(conflict["id"]), "--as", "verified")
    brief(briefed)
    assert not [h for h in _open_heads(briefed) if "arXiv 号冲突" in h]
    kb(briefed, "flags", "resolve", str(conflict["id"]), "--as", "open")
    brief(briefed)
    assert [h for h in _open_heads(briefed) if "arXiv 号冲突" in h]


def test_unknown_flag_exits_1_with_a_message(briefed: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; sys.argv[0] = 'kb'; from kb.cli import main; main()",
         "--home", str(briefed), "flags", "resolve", "9999", "--as", "dismissed"],
        check=False, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "no flag #9999" in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_bad_verdict_is_a_usage_error(briefed: Path) -> None:
    result = kb(briefed, "flags", "resolve", "1", "--as", "maybe", ok=False)
    assert result.exit_code == 2


def test_a_flag_whose_evidence_is_gone_closes_as_stale_and_reopens_when_it_returns(sample_day: Path,
                                                                                  tmp_path: Path) -> None:
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    brief(home)
    [claim] = [f for f in _flags(home, "--open") if f["rule"] == "unsourced-claim"]
    cited = [s for s in claim["evidence"]["sources"] if s.startswith("inbox/")]
    assert cited
    note = home / cited[0].split("#")[0]
    text = note.read_bytes()
    note.unlink()
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    assert [f["status"] for f in _flags(home) if f["id"] == claim["id"]] == ["stale"]
    assert claim["id"] not in [f["id"] for f in _flags(home, "--open")]
    note.write_bytes(text)                                   # the note comes back: so does the flag
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    assert [f["status"] for f in _flags(home) if f["id"] == claim["id"]] == ["open"]


def test_flags_resolve_many_by_rule_and_show_one(sample_day: Path, tmp_path: Path) -> None:
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    brief(home)
    boundary = [f for f in _flags(home, "--open", "--rule", "boundary")]
    assert boundary and all(f["rule"] == "boundary" for f in boundary)
    result = kb(home, "flags", "resolve", "--rule", "boundary", "--topic", "inference", "--as", "verified",
                "--note", "read both")
    assert result.stdout.splitlines()[0] == f"{len(boundary)} flag{'s' * (len(boundary) != 1)} of inference: verified"
    assert result.stdout.splitlines()[1].startswith("rewrote briefings/")   # the latest briefing shows it now
    assert not _flags(home, "--open", "--rule", "boundary")
    shown = json.loads(kb(home, "flags", "show", str(boundary[0]["id"]), "--format", "json").stdout)
    assert shown["status"] == "verified" and shown["note"] == "read both" and shown["evidence"]
    # the default is for a person: what the flag is, its note, and the evidence as bullets, every value escaped
    text = kb(home, "flags", "show", str(boundary[0]["id"])).stdout
    assert text.startswith(f"# #{boundary[0]['id']} boundary · inference · verified\n")
    assert "note: read both" in text and "## Evidence" in text
    assert f"- new: {shown['evidence']['new']}" in text
    assert "- shared_topics: " + ", ".join(shown["evidence"]["shared_topics"]) in text
    assert kb(home, "flags", "--rule", "nope", ok=False).exit_code == 2
    assert kb(home, "flags", "resolve", "--as", "verified", ok=False).exit_code == 2
    assert kb(home, "flags", "--topic", "nope", ok=False).exit_code == 2


# What each closed status says in the closed-flags line, in both languages (the templates' status_label).
CLOSED_WORDS = {"verified": ("已核实", "verified"), "dismissed": ("已驳回", "dismissed as wrong"),
                "stale": ("证据已不在", "evidence gone")}


def test_every_closed_status_has_its_words_in_both_languages() -> None:
    from kb.store.flags import STALE, STATUSES
    assert set(CLOSED_WORDS) == {*STATUSES, STALE} - {"open"}


@pytest.mark.parametrize("status", sorted(CLOSED_WORDS))
def test_the_closed_line_says_a_status_in_words(briefed: Path, status: str) -> None:
    """zh and en name a closed flag's status the same way, in words: never the raw status (\"dismissed\")."""
    from pipeline.brief.write import render
    data = brief_json(briefed)
    flag = data["flags"][0]
    flag.update(status=status, note="checked")
    zh_word, en_word = CLOSED_WORDS[status]
    [zh] = [line for line in render(data, "zh", "md", briefed).splitlines() if line.startswith("已由团队关闭")]
    [en] = [line for line in render(data, "en", "md", briefed).splitlines() if line.startswith("Closed by the team")]
    assert f"{flag['label']} " in zh and f"（{zh_word}：checked）" in zh
    assert f"{flag['label']} " in en and f"({en_word}: checked)" in en


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_flag_names_each_source_of_its_evidence_once(sample_day: Path, lang: str) -> None:
    """Day 3's HotSwapEP: the listing and HF are both the paper's arXiv page, and the evidence line named it
    twice. The stored evidence keeps both (it is what a closed flag is compared by); the line names it once."""
    from pipeline.brief.write import render
    data = brief_json(sample_day, "--preview")
    flag = next(f for f in data["flags"] if f["evidence"].get("sources"))
    first = flag["evidence"]["sources"][0]
    flag["evidence"]["sources"] = [*flag["evidence"]["sources"], first]
    evidence = [ln for ln in render(data, lang, "md", sample_day).splitlines()
                if ln.startswith(("Evidence:", "证据：")) and first in ln]
    assert evidence and all(ln.count(first) == 1 for ln in evidence)


def test_an_impossible_id_on_the_queue_stays_dismissed_when_its_line_moves(sample_day: Path, tmp_path: Path) -> None:
    """The queue is rewritten every day and its lines move up and down: a flag the team dismissed for a queue
    line's impossible ID must not reopen because the line is now at another rank (its rank is no evidence)."""
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    queue = home / "organized/queue/work-queue.md"
    text = queue.read_text(encoding="utf-8")
    bad = "https://huggingface.co/papers/2600.18472 LenBait: Gaming Output-Length Predictors — 2/5 — security"
    queue.write_text(text.rstrip("\n") + f"\n16. {bad}\n", encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    [flag] = [f for f in _flags(home, "--open") if f["rule"] == "impossible-id" and f["subject"] == "2600.18472"]
    kb(home, "flags", "resolve", str(flag["id"]), "--as", "dismissed")
    lines = text.rstrip("\n").splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("1. "))
    moved = [*lines[:first], f"1. {bad}", *(re.sub(r"^(\d+)\. ", lambda m: f"{int(m[1]) + 1}. ", ln)
                                           for ln in lines[first:])]
    queue.write_text("\n".join(moved) + "\n", encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    assert [f["status"] for f in _flags(home) if f["id"] == flag["id"]] == ["dismissed"]


def test_an_impossible_id_a_card_writes_is_flagged_at_the_card(sample_day: Path, tmp_path: Path) -> None:
    """A card is the team's writing as a note entry is: "arXiv 2610.1635" on a card of the day (four digits in
    a month of five) is flagged with the card's path, as docs/briefing.md's impossible-id says."""
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    card = "organized/paper_cards/374-2610-09342.md"
    path = home / card
    path.write_text(path.read_text(encoding="utf-8") + "\n对照 arXiv 2610.1635 的做法。\n", encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY)
    flags = {f["subject"]: f["evidence"] for f in brief_json(home, "--preview")["flags"]
             if f["kind"] == "impossible-id"}
    assert flags["2610.1635"]["cited_in"] == card


def test_an_impossible_id_on_the_queue_stays_dismissed_the_next_day(sample_day: Path, tmp_path: Path) -> None:
    """A queue line is read every day, whatever the day's items: its likely paper (one digit away) is the
    store's, not the day's items', so the evidence the team dismissed is the next day's too."""
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    queue = home / "organized/queue/work-queue.md"
    line = "16. https://huggingface.co/papers/2600.09342 the day's card 374, mistyped — 2/5\n"
    queue.write_text(queue.read_text(encoding="utf-8").rstrip("\n") + "\n" + line, encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    [flag] = [f for f in _flags(home, "--open") if f["rule"] == "impossible-id" and f["subject"] == "2600.09342"]
    assert flag["evidence"]["likely"] == ["2610.09342"]
    kb(home, "flags", "resolve", str(flag["id"]), "--as", "dismissed")
    brief(home, day="2026-10-09")
    assert [f["status"] for f in _flags(home) if f["id"] == flag["id"]] == ["dismissed"]


def test_a_night_run_again_after_a_failed_source_keeps_no_flag_of_the_failed_run(tmp_path: Path) -> None:
    """The listing missing, the team's IDs were unresolved and the night flagged them; run again with the
    listing back, the briefing's flags were a clean night's, yet the store kept those two open for good
    (`kb flags --open`, `kb show`). Closed as stale now: the open flags are a clean night's."""
    from tests.pipeline.brief.conftest import copy_sample

    def night(home: Path) -> None:
        kb(home, "nightly", "--date", DAY, "--offline", "--quiet", ok=False)

    def open_flags(home: Path) -> set[tuple[str, str]]:
        return {(f["rule"], f["subject"]) for f in _flags(home, "--open")}
    clean, home = copy_sample(tmp_path / "clean"), copy_sample(tmp_path / "ws")
    night(clean)
    listing = home / "recordings" / "arxiv" / f"{DAY}-listing.xml"
    kept = listing.read_bytes()
    listing.unlink()
    night(home)
    failed = open_flags(home)
    assert {r for r, _ in failed - open_flags(clean)} == {"unresolved-id"}    # the failed night's own flags
    listing.write_bytes(kept)
    night(home)
    assert open_flags(home) == open_flags(clean)
    stale = [f for f in _flags(home) if f["status"] == "stale"]
    assert {(f["rule"], f["subject"]) for f in stale} == failed - open_flags(clean)


def test_a_flag_closed_while_the_nightly_writes_shows_closed_in_its_files(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A member's `kb flags resolve` committed while the nightly rendered (found on PostgreSQL, the same on SQLite):
    its rewrite of the day's files came first, and the nightly's files, from data built before it, showed the
    flag open until the next night."""
    from kb.store import Store
    from kb.store.flags import resolve_flag
    from pipeline.brief import publish
    from tests.pipeline.brief.conftest import copy_sample
    home = copy_sample(tmp_path / "ws")
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    first = _flags(home, "--open")[0]["id"]
    real, calls = publish.write_day, []

    def member_resolves_meanwhile(ctx, topic, data=None, **kw):
        if not calls:
            with Store.open(home / ".kb" / "kb.sqlite") as store, store.transaction() as tx:
                resolve_flag(tx, first, "verified", "checked with the authors")
        calls.append(1)
        return real(ctx, topic, data, **kw)
    monkeypatch.setattr(publish, "write_day", member_resolves_meanwhile)
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    assert len(calls) == 2                                            # written again, once
    assert "checked with the authors" in read(home, ZH_MD) and "checked with the authors" in read(home, EN_MD)


def test_a_past_day_rebuilt_closes_none_of_its_flags_and_builds_once(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A day rebuilt after later ones shows its flags as they were and changes nothing of them, even where its
    rebuild raises fewer than its night did; and it is built once (its flags' status of then is not today's)."""
    from pipeline.brief import build
    from tests.pipeline.brief.conftest import copy_sample
    home = copy_sample(tmp_path / "ws")
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    kb(home, "brief", "--date", "2026-10-09")                      # a later day briefed: DAY is past now
    before = {f["id"]: f["status"] for f in _flags(home)}
    first = min(before)
    kb(home, "flags", "resolve", str(first), "--as", "verified")    # closed after DAY: DAY shows it open
    real, builds = build.build_briefing, []

    def fewer_flags(inputs):
        builds.append(1)
        briefing = real(inputs)
        briefing.flags = []                                       # the rebuild raises none of the night's
        return briefing
    monkeypatch.setattr(build, "build_briefing", fewer_flags)
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    assert {f["id"]: f["status"] for f in _flags(home)} == {**before, first: "verified"}
    assert len(builds) == 1


def test_a_closed_conflict_with_the_docs_figure_stays_closed_when_the_doc_s_version_moves_on(
        sample_day: Path, tmp_path: Path) -> None:
    """The doc's own figures ("SEIS 3.27× throughput") are compared with the window's by the system they name; the
    doc's place in the evidence is the doc, not its version, which the team bumps with every edit: a conflict the
    team closed stays closed when the version line moves on and the figures stay."""
    from tests.pipeline.brief.conftest import clone
    home = clone(sample_day, tmp_path / "ws")
    doc = home / "organized/knowledge/inference.md"

    def edit(old: str, new: str) -> None:
        text = doc.read_text(encoding="utf-8")
        assert old in text
        doc.write_text(text.replace(old, new, 1), encoding="utf-8")
    edit("SEIS — Self-Evolving Inference Systems, up to 3.27× throughput",
         "SEIS — Self-Evolving Inference Systems; SEIS 3.27× throughput")
    note = "inbox/jay/2026-10-08T2200-jay-seis-rerun.md"
    (home / note).write_text("## 1. Serving notes: KV cache and decode batching on H100\n\n- We reran it for LLM "
                             "inference serving on H100: SEIS 2.9× throughput over vLLM, KV cache offload on.\n",
                             encoding="utf-8")
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    [seis] = [f for f in _flags(home, "--open") if f["subject"] == "SEIS · throughput"]
    assert seis["evidence"]["values"] == {"2.9×": [f"{note}#1"], "3.27×": ["knowledge doc"]}
    kb(home, "flags", "resolve", str(seis["id"]), "--as", "dismissed")
    edit("version: v310", "version: v311")
    kb(home, "ingest", "workspace", "--date", DAY)
    brief(home)
    assert [f["status"] for f in _flags(home) if f["id"] == seis["id"]] == ["dismissed"]
