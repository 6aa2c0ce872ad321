"""The team's corrections file: append only, later lines win, malformed lines named by file and line."""
from __future__ import annotations

import pytest

from kb.config import Config
from kb.errors import ConfigError, WorkspaceError
from kb.labels import Correction, append_label, in_force, labels_path, read_labels, same_labelling
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


def test_a_file_of_many_unreadable_lines_names_the_first_and_counts_the_rest(ws):
    """A knowledge doc saved (or linked) under the labels file's name was one warning per line of the doc on
    every nightly: the first lines are named, the rest counted, and the good lines still count."""
    path = labels_path(ws, "inference")
    path.parent.mkdir(parents=True)
    path.write_text("".join(f"line {i} of a doc\n" for i in range(40)) + '{"id": "ok", "relevance": "none"}\n',
                    encoding="utf-8")
    problems: list[str] = []
    got = read_labels(ws, "inference", problems)
    assert [c.id for c in got] == ["ok"]
    assert len(problems) == 6 and problems[0].startswith("organized/labels/inference.jsonl:1: ")
    assert problems[-1] == "organized/labels/inference.jsonl: 35 more lines skipped (not corrections kb can read)"


def test_the_file_stays_inside_the_workspace(ws, tmp_path):
    with pytest.raises(ConfigError):
        labels_path(ws, "../escape")
    outside = tmp_path.parent / "elsewhere.jsonl"
    (tmp_path / "organized" / "labels").mkdir(parents=True)
    (tmp_path / "organized" / "labels" / "inference.jsonl").symlink_to(outside)
    with pytest.raises(WorkspaceError):
        append_label(ws, "inference", Correction("x", "none"))
    assert not outside.exists()


def test_a_line_that_is_not_utf8_costs_that_line_only(ws):
    path = labels_path(ws, "inference")
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"id": "a", "relevance": "none", "note": "caf\xe9"}\n{"id": "b", "relevance": "primary"}\n')
    problems: list[str] = []
    assert [c.id for c in read_labels(ws, "inference", problems)] == ["b"]
    assert problems == ["organized/labels/inference.jsonl:1: not UTF-8 text: line skipped"]
    with pytest.raises(ConfigError, match="inference.jsonl:1: not UTF-8"):
        read_labels(ws, "inference")


def test_a_labels_file_leading_outside_is_named_and_not_read(ws, tmp_path):
    outside = tmp_path.parent / "elsewhere-labels.jsonl"
    outside.write_text('{"id": "a", "relevance": "none"}\n', encoding="utf-8")
    (tmp_path / "organized" / "labels").mkdir(parents=True)
    (tmp_path / "organized" / "labels" / "inference.jsonl").symlink_to(outside)
    problems: list[str] = []
    assert read_labels(ws, "inference", problems) == []
    assert len(problems) == 1 and "outside the workspace" in problems[0] and "not read" in problems[0]


@pytest.mark.parametrize("withdrawn", ["2610.09560", "arXiv:2610.09560v2", "https://huggingface.co/papers/2610.09560"])
def test_a_withdrawal_in_any_id_form_withdraws(ws, withdrawn):
    append_label(ws, "inference", Correction("arXiv:2610.09560", "none"))
    append_label(ws, "inference", Correction(withdrawn, None))
    assert read_labels(ws, "inference") == []


def test_a_slug_kb_toml_takes_has_a_labels_file(ws):
    """kb.toml's topic slugs may hold "_" (kb.config_values.NAME_RE): `kb label --doc moe_serving` was refused."""
    append_label(ws, "moe_serving", Correction("arXiv:2610.00001", "primary"))
    assert [c.id for c in read_labels(ws, "moe_serving")] == ["arXiv:2610.00001"]
    with pytest.raises(ConfigError):
        labels_path(ws, "../inference")


def test_a_byte_order_mark_is_not_part_of_the_first_line(ws):
    """An editor that saves with a BOM made the first correction "not a JSON object", and the nightly skip it."""
    path = labels_path(ws, "inference")
    path.parent.mkdir(parents=True)
    path.write_bytes(b'\xef\xbb\xbf{"id": "arXiv:2610.00001", "relevance": "none"}\n')
    problems: list[str] = []
    assert [(c.id, c.relevance) for c in read_labels(ws, "inference", problems)] == [("arXiv:2610.00001", "none")]
    assert problems == []


def test_the_correction_in_force_and_what_is_news(ws):
    append_label(ws, "inference", Correction("arXiv:2610.00001", "primary", ("moe", "kv-cache"), "2026-10-08",
                                             note="why"))
    now = in_force(ws, "inference", "https://arxiv.org/abs/2610.00001v2")
    assert now is not None and now.note == "why"
    assert same_labelling(now, Correction("2610.00001", "primary", ("kv-cache", "moe"), "2026-10-09"))
    assert not same_labelling(now, Correction("2610.00001", "primary", ("moe",)))
    assert not same_labelling(now, Correction("2610.00001", "adjacent", ("moe", "kv-cache")))
    assert not same_labelling(now, Correction("2610.00001", "primary", None))   # topics no longer labelled
    assert not same_labelling(now, Correction("2610.00001", "primary", ("moe", "kv-cache"), note="other"))
    assert in_force(ws, "inference", "2610.00002") is None
