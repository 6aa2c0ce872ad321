"""Claims kept between nights (``pipeline.brief.kept_claims``): read back exactly as read again, never across
other claim words, only tonight's kept, and never the cause of a failed briefing."""
from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from pipeline.brief.claims import claims_in
from pipeline.brief.kept_claims import CLAIMS_FILE, KeptClaims
from pipeline.brief.rules import load_rules
from tests.reliability.support import kb_inproc

RULES = load_rules()
TEXTS = ["Mooncake reaches 46.1 GB/s over RDMA and cuts TTFT by 38%.",
         "KVQuilt TTFT: 180 ms（32k prompt）, 吞吐 vs vLLM：2.1×",
         "A text with no figure at all."]


class Counting:
    def __init__(self, quantities: dict[str, str] = RULES.quantities) -> None:
        self.calls, self.quantities = 0, quantities

    def __call__(self, text: str, where: str, about: str | None = None):
        self.calls += 1
        return claims_in(text, where, self.quantities, RULES.said_of, RULES.claim_words, about=about)


def _read(root: Path, texts: list[str] = TEXTS, quantities: dict[str, str] = RULES.quantities):
    kept = KeptClaims(root, quantities, RULES.said_of, RULES.claim_words, doc="inference")
    spy = Counting(quantities)
    read = kept.wrap(spy)
    found = [read(t, f"note {n}") for n, t in enumerate(texts)]
    kept.save()
    return found, spy.calls


def test_claims_read_last_night_are_read_back_exactly_and_not_read_again(tmp_path: Path) -> None:
    first, calls = _read(tmp_path)
    assert calls == 3 and first[0] and first[1] and first[2] == []
    again, calls = _read(tmp_path)
    assert calls == 0 and again == first
    # said in another place tonight: the same claims, said there
    (moved,), _ = _read(tmp_path, TEXTS[:1])
    assert [dataclasses.replace(c, where="note 0") for c in moved] == first[0]


def test_an_abstract_read_as_about_its_paper_is_kept_apart_from_the_same_text_read_plain(tmp_path: Path) -> None:
    """A paper's abstract is read both ways: plain (an item's own source) and as about the paper (a cited paper's,
    its unnamed values the paper's): "4.1x sooner" is a speed-up of ShardLoad only in the second."""
    abstract = "ShardLoad brings a 70B-parameter replica into service 4.1x sooner than loading from a shared file system."
    kept = KeptClaims(tmp_path, RULES.quantities, RULES.said_of, RULES.claim_words, doc="inference")
    read = kept.wrap(Counting())
    plain, about = read(abstract, "a"), read(abstract, "a", "ShardLoad")
    assert plain == [] and [(c.subject, c.quantity, c.written) for c in about] == [("ShardLoad", "speed-up", "4.1x")]
    kept.save()
    again = KeptClaims(tmp_path, RULES.quantities, RULES.said_of, RULES.claim_words, doc="inference")
    spy = Counting()
    read = again.wrap(spy)
    assert (read(abstract, "a"), read(abstract, "a", "ShardLoad"), spy.calls) == (plain, about, 0)


def test_other_claim_words_read_again(tmp_path: Path) -> None:
    first, _ = _read(tmp_path)
    assert any(c.quantity == "TTFT" for cs in first for c in cs)
    fewer = {k: v for k, v in RULES.quantities.items() if v != "TTFT"}
    found, calls = _read(tmp_path, quantities=fewer)
    assert calls == 3 and all(c.quantity != "TTFT" for cs in found for c in cs)


def test_only_tonights_texts_are_kept(tmp_path: Path) -> None:
    _read(tmp_path)
    _read(tmp_path, TEXTS[:1])
    assert len(json.loads((tmp_path / CLAIMS_FILE).read_text())["docs"]["inference"]) == 1


@pytest.mark.parametrize("damage", ["not json {", '{"format": 2, "reader": "x", "docs": []}', "entry"])
def test_a_damaged_file_or_entry_means_reading_again(tmp_path: Path, damage: str) -> None:
    first, _ = _read(tmp_path)
    path = tmp_path / CLAIMS_FILE
    if damage == "entry":
        raw = json.loads(path.read_text())
        for claims in raw["docs"]["inference"].values():
            for c in claims:
                c[3] = "46.1"   # a value as a string: read as such it would fail the number rule
        path.write_text(json.dumps(raw))
    else:
        path.write_text(damage)
    again, calls = _read(tmp_path)
    # a damaged entry: its text only (the text without figures kept its good, empty entry); else every text
    assert calls == (2 if damage == "entry" else 3) and again == first


def test_a_cache_that_cannot_be_written_is_no_failure(tmp_path: Path) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder should be")
    first, calls = _read(tmp_path)
    assert calls == 3 and first[0]


def test_a_night_briefs_the_same_with_the_kept_claims_as_without(sample_workspace: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.brief.facts as facts  # Facts.read_claims reads a text's claims
    read: list[str] = []   # the texts read tonight, not answered from the kept claims

    def counted(text: str, *args, **kw):
        read.append(text)
        return claims_in(text, *args, **kw)
    monkeypatch.setattr(facts, "claims_in", counted)

    def night(home: Path) -> int:
        read.clear()
        result = kb_inproc("--home", str(home), "nightly", "--offline", "--date", "2026-10-08")
        assert result.returncode == 0, result.stderr
        return len(read)

    night(sample_workspace)
    kept = sample_workspace / CLAIMS_FILE
    assert json.loads(kept.read_text())["docs"]["inference"]
    fresh = tmp_path / "fresh"
    shutil.copytree(sample_workspace, fresh)
    (fresh / CLAIMS_FILE).unlink()
    md = "briefings/2026-10-08-inference.md"
    before = (sample_workspace / md).read_bytes()
    (sample_workspace / md).unlink()
    (fresh / md).unlink()
    assert night(sample_workspace) == 0   # the claims read back: no text read again
    assert night(fresh) > 0               # the claims read again
    assert (sample_workspace / md).read_bytes() == (fresh / md).read_bytes() == before


@pytest.mark.parametrize("module", ["kb.names", "pipeline.brief.entities", "pipeline.brief.claim_words"])
def test_an_upgrade_of_code_the_claims_are_read_with_reads_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 module: str) -> None:
    """``claims_in`` decides a subject with ``kb.names.coined`` and a baseline with ``pipeline.brief.entities``'
    patterns: an upgrade that changes only one of them changes the claims, so it changes what they are kept under."""
    import importlib.util

    from pipeline.classify.memo import source_digest
    _read(tmp_path)
    real_find_spec = importlib.util.find_spec
    changed = tmp_path / "changed.py"
    changed.write_bytes(Path(real_find_spec(module).origin).read_bytes() + b"\n# another reading\n")

    def find_spec(name: str, *args):
        spec = real_find_spec(name, *args)
        return importlib.util.spec_from_file_location(name, changed) if name == module else spec
    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    source_digest.cache_clear()
    try:
        _, calls = _read(tmp_path)
    finally:
        monkeypatch.undo()
        source_digest.cache_clear()
    assert calls == len(TEXTS)


def test_each_docs_briefing_keeps_its_texts_claims(tmp_path: Path) -> None:
    """A night briefs each doc in turn: the second doc's save keeps the first's texts, so the next night's
    first briefing reads none of its texts again."""
    def brief(doc: str, texts: list[str]) -> int:
        kept, spy = KeptClaims(tmp_path, RULES.quantities, RULES.said_of, RULES.claim_words, doc=doc), Counting()
        read = kept.wrap(spy)
        for n, t in enumerate(texts):
            read(t, f"note {n}")
        kept.save()
        return spy.calls

    assert brief("inference", TEXTS[:2]) == 2 and brief("training", TEXTS[1:]) == 1   # a text both read: once
    assert brief("inference", TEXTS[:2]) == 0 and brief("training", TEXTS[1:]) == 0
    brief("training", TEXTS[2:])
    assert set(json.loads((tmp_path / CLAIMS_FILE).read_text())["docs"]) == {"inference", "training"}


def test_a_link_at_the_cache_path_never_has_a_teams_file_overwritten(tmp_path: Path) -> None:
    note = tmp_path / "inbox" / "jay" / "note.md"
    note.parent.mkdir(parents=True)
    note.write_text("# the team's note\n")
    (tmp_path / ".kb" / "cache").mkdir(parents=True)
    (tmp_path / CLAIMS_FILE).symlink_to(note)
    first, calls = _read(tmp_path)
    assert calls == 3 and first[0]
    assert note.read_text() == "# the team's note\n"
    _, calls = _read(tmp_path)   # kept in kb's own file, in the link's place
    assert calls == 0 and not (tmp_path / CLAIMS_FILE).is_symlink()


def test_another_python_reads_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.brief.kept_claims as kept
    _read(tmp_path)
    monkeypatch.setattr(kept.sys, "version", "3.99.0 (another Python)")
    assert _read(tmp_path)[1] == 3


def test_the_modules_claims_are_kept_under_are_every_module_claims_imports() -> None:
    """A module ``claims`` reads with (directly or through another) that ``READING_MODULES`` leaves out would let a
    change to it read back yesterday's claims: the list is the closure of kb's own imports from ``claims``."""
    import ast
    import importlib.util

    from pipeline.brief.kept_claims import READING_MODULES
    seen, todo = set(), ["pipeline.brief.claims"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse(Path(importlib.util.find_spec(name).origin).read_text(encoding="utf-8"))
        todo += [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
                 and n.module.split(".")[0] in ("kb", "pipeline")]
        todo += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
                 if a.name.split(".")[0] in ("kb", "pipeline")]
    assert seen <= set(READING_MODULES), sorted(seen - set(READING_MODULES))
