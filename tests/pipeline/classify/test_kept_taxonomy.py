"""A workspace's taxonomy kept as last read and checked (``pipeline.classify.kept_taxonomy``): read back
exactly as read again, read again when a file or the code changes, never kept in error, and never the
cause of a failed run."""
from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

import pipeline.classify.kept_taxonomy as kept
import pipeline.classify.taxonomy as taxonomy
from kb.errors import ConfigError
from pipeline.classify.kept_taxonomy import KEPT_FILE, load_kept_taxonomy
from pipeline.classify.taxonomy import load_taxonomy

OVERRIDE = '[topics.moe.terms]\n"expert offloading cache" = 2.0\n'


class Reads:
    """Counts the readings of the TOML files (``read_merged``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        real = kept.read_merged

        def read_merged(*args, **kw):
            self.count += 1
            return real(*args, **kw)
        monkeypatch.setattr(kept, "read_merged", read_merged)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Reads:
    return Reads(monkeypatch)


def _override(root: Path, text: str = OVERRIDE) -> Path:
    path = root / "taxonomy.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_kept_taxonomy_is_read_back_as_it_would_be_read_again(tmp_path: Path, reads: Reads) -> None:
    over = _override(tmp_path)
    first = load_kept_taxonomy(tmp_path, over)
    again = load_kept_taxonomy(tmp_path, over)
    assert reads.count == 1 and (tmp_path / KEPT_FILE).is_file()
    fresh = load_taxonomy(over)
    assert first == again == fresh and again.hash == fresh.hash
    # in the files' order (not JSON's sorted keys): the order of topics and terms breaks ties between scores
    assert list(again.topics) == list(fresh.topics) != sorted(fresh.topics)
    assert [list(t.terms) for t in again.topics.values()] == [list(t.terms) for t in fresh.topics.values()]
    assert again.topics["moe"].terms["expert offloading cache"] == 2.0
    assert load_kept_taxonomy(tmp_path, None) == load_taxonomy()   # no override: another reading


def test_a_changed_override_or_code_is_read_again(tmp_path: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch) -> None:
    over = _override(tmp_path)
    load_kept_taxonomy(tmp_path, over)
    _override(tmp_path, OVERRIDE.replace("2.0", "3.0"))
    assert load_kept_taxonomy(tmp_path, over).topics["moe"].terms["expert offloading cache"] == 3.0
    monkeypatch.setattr(kept, "source_digest", lambda modules: "another kb")
    load_kept_taxonomy(tmp_path, over)
    assert reads.count == 3


@pytest.mark.parametrize("damage", ["a weight edited by hand", "not json"])
def test_a_damaged_kept_file_is_read_again(tmp_path: Path, reads: Reads, damage: str) -> None:
    over = _override(tmp_path)
    load_kept_taxonomy(tmp_path, over)
    path = tmp_path / KEPT_FILE
    if damage == "not json":
        path.write_text("{", encoding="utf-8")
    else:
        body = json.loads(path.read_text(encoding="utf-8"))
        body["raw"]["topics"]["moe"]["terms"]["expert offloading cache"] = "heavy"   # would fail every judgement
        path.write_text(json.dumps(body), encoding="utf-8")
    assert load_kept_taxonomy(tmp_path, over) == load_taxonomy(over) and reads.count == 2


def test_a_taxonomy_in_error_is_never_kept(tmp_path: Path) -> None:
    over = _override(tmp_path, '[topics.moe.terms]\n"x" = 11\n')
    with pytest.raises(ConfigError, match="weight must be in"):
        load_kept_taxonomy(tmp_path, over)
    assert not (tmp_path / KEPT_FILE).exists()
    with pytest.raises(ConfigError, match="weight must be in"):
        load_kept_taxonomy(tmp_path, over)


def test_a_warning_of_the_check_is_said_again_when_the_reading_is_read_back(tmp_path: Path, caplog, reads: Reads,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    over = _override(tmp_path, '[topics.moe.sections]\ninference = "§2.4"\n')
    said = []
    for _ in range(2):   # two runs: each process says it once
        monkeypatch.setattr(taxonomy, "_WARNED", set())
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            load_kept_taxonomy(tmp_path, over)
        said.append([r.getMessage() for r in caplog.records if "sections is no longer read" in r.getMessage()])
    assert reads.count == 1   # the second run's warning came from the kept reading, not from reading again
    assert len(said[0]) == 1 and said[1] == said[0]


def test_a_cache_that_cannot_be_written_is_no_failure(tmp_path: Path) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder should be")
    assert load_kept_taxonomy(tmp_path, None) == load_taxonomy()


def test_a_link_in_the_kept_files_place_never_has_a_teams_file_overwritten(tmp_path: Path, reads: Reads) -> None:
    note = tmp_path / "inbox" / "jay" / "note.md"
    note.parent.mkdir(parents=True)
    note.write_text("# the team's note\n", encoding="utf-8")
    (tmp_path / ".kb" / "cache").mkdir(parents=True)
    (tmp_path / KEPT_FILE).symlink_to(note)
    assert load_kept_taxonomy(tmp_path, None) == load_taxonomy()
    assert note.read_text(encoding="utf-8") == "# the team's note\n"
    assert not (tmp_path / KEPT_FILE).is_symlink()
    load_kept_taxonomy(tmp_path, None)
    assert reads.count == 1   # read back from kb's own file, in the link's place


def test_an_override_edited_while_it_is_read_is_not_kept_under_its_old_bytes(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The files are hashed, then read: an edit saved in between (a member's editor, during the nightly) must
    not have the new table kept under the old bytes' key, to be read back once the file says the old again
    (an undo, a ``git checkout``)."""
    over = _override(tmp_path)
    edited = OVERRIDE.replace("2.0", "3.0")
    real = kept.read_merged

    def saved_meanwhile(*args, **kw):
        _override(tmp_path, edited)
        return real(*args, **kw)
    monkeypatch.setattr(kept, "read_merged", saved_meanwhile)
    assert load_kept_taxonomy(tmp_path, over).topics["moe"].terms["expert offloading cache"] == 3.0
    monkeypatch.undo()
    _override(tmp_path)   # the old bytes again
    assert load_kept_taxonomy(tmp_path, over) == load_taxonomy(over)
    assert load_kept_taxonomy(tmp_path, over).topics["moe"].terms["expert offloading cache"] == 2.0


def test_another_python_reads_again(tmp_path: Path, reads: Reads, monkeypatch: pytest.MonkeyPatch) -> None:
    """tomllib and NFKC (unicodedata) are Python's: another Python's reading is not taken for this one's."""
    load_kept_taxonomy(tmp_path, None)
    monkeypatch.setattr(kept.sys, "version", "3.99.0 (another Python)")
    load_kept_taxonomy(tmp_path, None)
    assert reads.count == 2
