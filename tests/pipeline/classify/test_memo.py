"""Judgements kept between nights (``pipeline.classify.memo``): read back exactly, never trusted across
classifiers or corrections, and never the cause of a failed briefing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.records import Tag
from pipeline.classify.classifier import classify as keyword_classify
from pipeline.classify.memo import MEMO_FILE, Judged, JudgedTexts
from pipeline.classify.taxonomy import default_taxonomy

TEXT = "We disaggregate prefill and decode and move the KV cache between GPUs over RDMA."
TITLE = "SplitServe: prefill/decode disaggregation"


class Counting:
    """The keyword classifier, counting its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str, **kw):
        self.calls += 1
        return keyword_classify(text, title=kw.get("title", ""), taxonomy=default_taxonomy())


def _judge(root: Path, engine: str = "h1", correction=None, doc: str = "inference") -> tuple[Judged, int]:
    memo, spy = JudgedTexts(root, engine, doc), Counting()
    judged = memo.wrap(spy, correction)(TEXT, title=TITLE)
    memo.save()
    return judged, spy.calls


def test_a_text_judged_last_night_is_read_back_not_judged_again(tmp_path: Path) -> None:
    first, calls = _judge(tmp_path)
    assert calls == 1 and first.relevance != "none" and first.tags
    again, calls = _judge(tmp_path)
    assert calls == 0
    assert again == first == Judged.of(keyword_classify(TEXT, title=TITLE, taxonomy=default_taxonomy()))


def test_another_classifier_or_correction_or_doc_judges_again(tmp_path: Path) -> None:
    _judge(tmp_path)
    assert _judge(tmp_path, engine="h2")[1] == 1          # another taxonomy, model or doc labels
    assert _judge(tmp_path, engine="h2", correction=("none", None))[1] == 1   # a team correction
    assert _judge(tmp_path, engine="h2", doc="moe")[1] == 1


def test_only_tonights_judgements_are_kept_and_an_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    memo = JudgedTexts(tmp_path, "h1", "inference")
    run = memo.wrap(Counting())
    run("one text about speculative decoding", title="A")
    run("another about MoE expert parallelism", title="B")
    memo.save()
    path = tmp_path / MEMO_FILE
    assert len(json.loads(path.read_text())["docs"]["inference"]) == 2
    memo = JudgedTexts(tmp_path, "h1", "inference")
    memo.wrap(Counting())("one text about speculative decoding", title="A")
    memo.save()
    assert len(json.loads(path.read_text())["docs"]["inference"]) == 1   # B was not judged tonight
    stamp = path.stat().st_mtime_ns
    memo = JudgedTexts(tmp_path, "h1", "inference")
    memo.wrap(Counting())("one text about speculative decoding", title="A")
    memo.save()
    assert path.stat().st_mtime_ns == stamp


@pytest.mark.parametrize("damage", [b"{not json", b'{"format": 1, "engine": "h1", "docs": {"inference": '
                                    b'{"x": [1, 2]}}}', b"[]", b"\xff\xfe"])
def test_a_damaged_file_means_judging_again(tmp_path: Path, damage: bytes) -> None:
    first, _ = _judge(tmp_path)
    path = tmp_path / MEMO_FILE
    raw = json.loads(path.read_text())
    key = next(iter(raw["docs"]["inference"]))
    if damage.startswith(b'{"format"'):   # a well-formed file whose entry is not a judgement
        damage = damage.replace(b'"x"', json.dumps(key).encode())
    path.write_bytes(damage)
    again, calls = _judge(tmp_path)
    assert calls == 1 and again == first


def test_a_cache_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder should be")
    judged, calls = _judge(tmp_path)   # no error
    assert calls == 1 and judged.tags


def test_a_cache_leading_outside_the_workspace_is_neither_read_nor_written(tmp_path: Path) -> None:
    root, outside = tmp_path / "ws", tmp_path / "elsewhere"
    (root / ".kb").mkdir(parents=True)
    outside.mkdir()
    (root / ".kb" / "cache").symlink_to(outside)
    _judge(root)
    assert not any(outside.iterdir())


def test_tags_read_back_are_the_same_values(tmp_path: Path) -> None:
    j = Judged("primary", [Tag("kv-cache", 2.5, ("kv cache", "rdma"))], [Tag("scheduling", 0.4, ("batch",))])
    assert Judged.from_json(json.loads(json.dumps(j.to_json()))) == j


@pytest.mark.parametrize("entry", [
    ["maybe", [], []],                                    # no relevance kb knows (the briefing orders by it)
    [["primary"], [], []],
    ["primary", [["kv-cache", "2.5", ["kv cache"]]], []],  # a score that is no number
    ["primary", [["kv-cache", True, ["kv cache"]]], []],
    ["primary", [[7, 2.5, ["kv cache"]]], []],            # a topic that is no name
    ["primary", [["kv-cache", 2.5, "kv cache"]], []],     # terms that are one string, not a list of them
    ["primary", [["kv-cache", 2.5, [1]]], []],
    ["primary", {"kv-cache": 2.5}, []],
])
def test_an_entry_of_the_wrong_kinds_means_judging_again(tmp_path: Path, entry: list) -> None:
    first, _ = _judge(tmp_path)
    path = tmp_path / MEMO_FILE
    raw = json.loads(path.read_text())
    key = next(iter(raw["docs"]["inference"]))
    raw["docs"]["inference"][key] = entry
    path.write_text(json.dumps(raw))
    again, calls = _judge(tmp_path)
    assert calls == 1 and again == first


def test_judgements_kept_by_other_judging_code_are_judged_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upgrade of kb that changes how a text is judged, and leaves the taxonomy, model and labels as they were,
    does not read back what the old code judged."""
    import pipeline.classify.memo as memo
    _judge(tmp_path)
    assert _judge(tmp_path)[1] == 0
    monkeypatch.setattr(memo, "code_digest", lambda: "other code")
    assert _judge(tmp_path)[1] == 1


def test_the_stemmer_every_feature_goes_through_is_judging_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``features`` stems every word with ``kb.text.stem``: an upgrade that changes only the stemmer changes the
    learned model's judgements and the sections' rankings, so it changes the digest they are kept under."""
    import importlib.util

    import pipeline.classify.memo as memo
    real_find_spec = importlib.util.find_spec
    before = memo.code_digest()
    changed = tmp_path / "text.py"
    changed.write_bytes(Path(real_find_spec("kb.text").origin).read_bytes() + b"\n# another stemmer\n")

    def find_spec(name: str, *args):
        spec = real_find_spec(name, *args)
        if name == "kb.text":
            spec = importlib.util.spec_from_file_location(name, changed)
        return spec
    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    memo.source_digest.cache_clear()
    try:
        assert memo.code_digest() != before
    finally:
        monkeypatch.undo()
        memo.source_digest.cache_clear()


class Ranking:
    """A section suggester's maker, counting how often it is built and asked."""

    def __init__(self) -> None:
        self.built = self.asked = 0

    def __call__(self):
        self.built += 1

        def suggest(title: str, text: str, sections: set[str]) -> list[str]:
            self.asked += 1
            return sorted(sections)[:2]
        return suggest


def _rank(root: Path, identity: str = "doc-v1", sections: frozenset = frozenset({"2.3", "2.3.1", "3.1"}),
          engine: str = "h1") -> tuple[list[str], Ranking]:
    memo, maker = JudgedTexts(root, engine, "inference"), Ranking()
    ranked = memo.wrap_suggest(identity, maker)(TITLE, TEXT, set(sections))
    memo.save()
    return ranked, maker


def test_a_section_ranking_kept_last_night_is_read_back_without_fitting_the_sections(tmp_path: Path) -> None:
    first, maker = _rank(tmp_path)
    assert (maker.built, maker.asked, first) == (1, 1, ["2.3", "2.3.1"])
    again, maker = _rank(tmp_path)
    assert (maker.built, maker.asked, again) == (0, 0, first)


@pytest.mark.parametrize("change", [{"identity": "doc-v2"}, {"sections": frozenset({"2.3", "3.1"})},
                                    {"engine": "h2"}], ids=["doc changed", "sections changed", "classifier changed"])
def test_a_ranking_of_another_doc_version_sections_or_classifier_is_ranked_again(tmp_path: Path, change) -> None:
    _rank(tmp_path)
    assert _rank(tmp_path, **change)[1].built == 1


def _night(root: Path) -> tuple[int, int]:
    """One night that judges the text and ranks its sections: (judgements made, suggesters built)."""
    memo, spy, maker = JudgedTexts(root, "h1", "inference"), Counting(), Ranking()
    memo.wrap(spy)(TEXT, title=TITLE)
    memo.wrap_suggest("doc-v1", maker)(TITLE, TEXT, {"2.3", "3.1"})
    memo.save()
    return spy.calls, maker.built


def _every_ranking(raw: dict, ranking: list) -> None:
    raw["ranked"]["inference"].update(dict.fromkeys(raw["ranked"]["inference"], ranking))


@pytest.mark.parametrize("damage", [lambda r: _every_ranking(r, [3]),
                                    lambda r: _every_ranking(r, ["9.9"]),
                                    lambda r: r.update(ranked=["not", "a", "mapping"])],
                         ids=["entry", "a section the doc does not have", "whole"])
def test_a_damaged_ranking_is_ranked_again_and_the_judgements_stay(tmp_path: Path, damage) -> None:
    assert _night(tmp_path) == (1, 1)
    path = tmp_path / MEMO_FILE
    raw = json.loads(path.read_text())
    damage(raw)
    path.write_text(json.dumps(raw))
    assert _night(tmp_path) == (0, 1)
    assert _night(tmp_path) == (0, 0)


def test_a_fifo_under_the_files_name_means_judging_again_not_waiting(tmp_path: Path) -> None:
    import os
    import signal
    path = tmp_path / MEMO_FILE
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("reading the kept judgements waited on a FIFO"))
    signal.alarm(5)
    try:
        memo, spy = JudgedTexts(tmp_path, "h1", "inference"), Counting()
        memo.wrap(spy)(TEXT, title=TITLE)
    finally:
        signal.alarm(0)
    assert spy.calls == 1


def test_a_link_at_the_cache_path_never_has_a_teams_file_overwritten(tmp_path: Path) -> None:
    note = tmp_path / "inbox" / "jay" / "note.md"
    note.parent.mkdir(parents=True)
    note.write_text("# the team's note\n")
    (tmp_path / ".kb" / "cache").mkdir(parents=True)
    (tmp_path / MEMO_FILE).symlink_to(note)
    _, calls = _judge(tmp_path)
    assert calls == 1 and note.read_text() == "# the team's note\n"
    _, calls = _judge(tmp_path)   # kept in kb's own file, in the link's place
    assert calls == 0 and not (tmp_path / MEMO_FILE).is_symlink()
