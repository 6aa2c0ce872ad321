"""The team's corrections file: append only, later lines win, malformed lines named by file and line."""
from __future__ import annotations

import pytest

from kb.config import Config
from kb.errors import ConfigError, WorkspaceError
from kb.labels import Correction, append_label, labels_path, read_labels
from kb.workspace import Workspace


@pytest.fixture
def ws(tmp_path):
    return Workspace(tmp_path, Config())


def test_append_keeps_every_earlier_byte_and_later_lines_win(ws):
    path = labels_path(ws, "inference")
    path.parent.mkdir(parents=True)
    path.write_bytes(b'# the team\'s corrections\n{"id": "arXiv:2610.00001", "relevance": "primary"}')   # no newline
    before = path.read_bytes()
    append_label(ws, "inference", Correction("arXiv:2610.00001", "none", None, "2026-10-09", "jay"))
    append_label(ws, "inference", Correction("arXiv:2610.00002", "adjacent", ("moe",)))
    after = path.read_bytes()
    assert after.startswith(before + b"\n")
    got = {c.id: c for c in read_labels(ws, "inference")}
    assert got["arXiv:2610.00001"].relevance == "none" and got["arXiv:2610.00001"].by == "jay"
    assert got["arXiv:2610.00002"].topics == ("moe",)


def test_a_null_relevance_withdraws_an_earlier_correction(ws):
    append_label(ws, "moe", Correction("x", "primary"))
    append_label(ws, "moe", Correction("x", None))
    assert read_labels(ws, "moe") == []


def test_no_file_is_no_labels(ws):
    assert read_labels(ws, "inference") == []


@pytest.mark.parametrize("line,problem", [
    ("not json", "not a JSON object"),
    ('{"relevance": "none"}', 'an "id"'),
    ('{"id": "a", "relevance": "maybe"}', "relevance must be"),
    ('{"id": "a", "relevance": "none", "topics": "moe"}', "topics must be a list"),
])
def test_a_malformed_line_is_named_by_file_and_line(ws, line, problem):
    path = labels_path(ws, "inference")
    path.parent.mkdir(parents=True)
    path.write_text('{"id": "ok", "relevance": "none"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"organized/labels/inference.jsonl:2: .*{problem}"):
        read_labels(ws, "inference")


def test_the_file_stays_inside_the_workspace(ws, tmp_path):
    with pytest.raises(ConfigError):
        labels_path(ws, "../escape")
    outside = tmp_path.parent / "elsewhere.jsonl"
    (tmp_path / "organized" / "labels").mkdir(parents=True)
    (tmp_path / "organized" / "labels" / "inference.jsonl").symlink_to(outside)
    with pytest.raises(WorkspaceError):
        append_label(ws, "inference", Correction("x", "none"))
    assert not outside.exists()
