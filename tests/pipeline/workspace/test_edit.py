"""edit.insert_anchor_line: fixtures (before, expectation, after) and a property test."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.errors import KBError, NotFound
from pipeline.workspace.edit import insert_anchor_line, unified_diff
from pipeline.workspace.knowledge import find_section, parse_knowledge
from pipeline.workspace.markdown import split_lines
from tests.support.paths import FIXTURES

CASES = sorted((FIXTURES / "workspace" / "edit").glob("*.md"))
ERRORS = {"NotFound": NotFound, "KBError": KBError}


@pytest.mark.parametrize("md", CASES, ids=[p.stem for p in CASES])
def test_edit_fixture(md):
    # bytes in, bytes out: the fixtures' line endings are the point of several cases
    before = md.read_bytes().decode("utf-8")
    expect = json.loads(md.with_name(md.stem + ".expect.json").read_text(encoding="utf-8"))
    if "error" in expect:
        with pytest.raises(ERRORS[expect["error"]]) as info:
            insert_anchor_line(before, expect["section"], expect["line"])
        assert type(info.value) is ERRORS[expect["error"]]
        for s in expect["error__has"]:
            assert s in str(info.value)
        return
    after = md.with_name(md.name + ".after").read_bytes().decode("utf-8")
    assert insert_anchor_line(before, expect["section"], expect["line"]) == after


def test_line_text_must_be_one_line():
    with pytest.raises(ValueError):
        insert_anchor_line("## §1\n", "1", "a\nb")


def test_unified_diff():
    old, new = "## §1\n- a", "## §1\n- a\n- b"
    diff = unified_diff(old, new, "organized/knowledge/x.md")
    assert diff.startswith("--- a/organized/knowledge/x.md\n+++ b/organized/knowledge/x.md\n")
    assert "-- a\n\\ No newline at end of file\n+- a\n+- b\n\\ No newline at end of file\n" in diff
    assert unified_diff(old, old, "x.md") == ""


# --------------------------------------------------------------------------- property
_WORDS = st.text(st.sampled_from("abc xyz 推理 2607.09701 —§"), min_size=1, max_size=20).map(str.strip) \
    .filter(lambda s: s and not s.startswith("§") and not re.match(r"^[\d.]+$", s))


@st.composite
def _docs(draw):
    """A knowledge doc: random § sections (levels 2–4) whose bodies mix list items,
    nested and numbered items, prose and blank lines; random line endings and final newline."""
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    out, numbers, counters = [], [], [0, 0, 0]
    if draw(st.booleans()):
        out += ["---", "title: t", "---"]
    out += ["# doc", "version: v1 · 2026-10-08", ""]
    for _ in range(draw(st.integers(1, 5))):
        depth = draw(st.integers(0, 2)) if numbers else 0
        depth = min(depth, len(numbers[-1].split(".")) if numbers else 0)
        counters[depth] += 1
        counters[depth + 1:] = [0] * (2 - depth)
        number = ".".join(str(c) for c in counters[: depth + 1])
        if draw(st.booleans()) and depth:
            parts = number.split(".")
            number = ".".join(parts[:-1] + [f"({parts[-1]})"])
        numbers.append(number)
        out.append("#" * (depth + 2) + f" §{number} " + draw(_WORDS))
        bullet = draw(st.sampled_from(["- ", "* ", "+ ", "-   ", "  - "]))
        for kind in draw(st.lists(st.sampled_from(["item", "nested", "ordered", "blank", "prose"]), max_size=6)):
            if kind == "item":
                out.append(bullet + draw(_WORDS))
            elif kind == "nested":
                out.append(" " * (len(bullet) + 2) + "- " + draw(_WORDS))
            elif kind == "ordered":
                out.append(f"{draw(st.integers(1, 12))}. " + draw(_WORDS))
            elif kind == "blank":
                out.append("")
            else:
                out += ["", draw(_WORDS), ""]
    text = nl.join(out) + (nl if draw(st.booleans()) else "")
    return text, numbers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_docs(), st.data())
def test_insert_adds_exactly_one_line(doc, data):
    text, numbers = doc
    number = data.draw(st.sampled_from(numbers))
    line = "2610.10507 NEW anchor (anchored 2026-10-09)"
    result = insert_anchor_line(text, number, line)

    old, new = split_lines(text), split_lines(result)
    assert len(new) == len(old) + 1
    k = next(i for i, l in enumerate(new) if line in l)
    rest = new[:k] + new[k + 1:]
    if k == len(new) - 1 and not text.endswith(("\n", "\r")):
        rest[-1] = rest[-1].rstrip("\r\n")      # the old last line had no newline; it got one
    assert "".join(rest) == text

    # …and the new line is an anchor of that section, not of its parent or a subsection
    section = find_section(parse_knowledge(result, "k.md", "k"), number)
    assert [a.line for a in section.anchors if a.arxiv_id == "2610.10507"] == [k + 1]
