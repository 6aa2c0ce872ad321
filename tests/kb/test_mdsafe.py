"""``md_inline``: outside text that keeps its code spans, everything else escaped as ``md_text`` does."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb.mdsafe import md_backticked, md_inline, md_inline_cell, md_text


@pytest.mark.parametrize("text, code, shown", [
    ("set VLLM_X=1 to read", [[4, 12]], "set `VLLM_X=1` to read"),
    ("run a `b` c", [[4, 9]], "run `` a `b` `` c"),                     # a longer fence; padded before a backtick
    ("`x", [[0, 2]], "`` `x ``"),                                          # padded where code starts with a backtick
    ("tag <b> here", [[4, 7]], "tag \\`\\<b>\\` here"),                   # no raw tag: escaped text in backticks
    ("a &amp; b", [[2, 7]], "a \\`\\&amp;\\` b"),                         # no entity either
    ("# not a heading *x*", [], "\\# not a heading \\*x\\*"),
    ("x  \n y", [], "x y"),                                                # one line
    ("overlap", [[0, 3], [2, 5]], "`ove`rlap"),                            # an overlapping span is left as text
])
def test_md_inline(text: str, code: list[list[int]], shown: str) -> None:
    assert md_inline({"text": text, "code": code}) == shown


def test_md_inline_without_code_is_md_text() -> None:
    assert md_inline({"text": "1. a | b <c>", "code": []}) == md_text("1. a | b <c>") == md_inline("1. a | b <c>")


def test_a_pipe_in_a_cells_code_is_escaped() -> None:
    assert md_inline_cell({"text": "a|b", "code": [[0, 3]]}) == "`a\\|b`"
    assert md_inline({"text": "a|b", "code": [[0, 3]]}) == "`a|b`"


@given(st.text(alphabet=st.sampled_from(list("ab _&#;1x<>*[]|`\\\n") + ["é", "推"]), max_size=40))
def test_text_without_a_special_character_is_escaped_exactly_as_the_three_patterns_would(text: str) -> None:
    """The shortcut for text with nothing to escape leaves every other text to the full escaping."""
    from kb import mdsafe
    full = mdsafe._EDGE_UNDERSCORE.sub(r"\\_", mdsafe._ENTITY_START.sub(r"\\&", mdsafe._MD_SPECIAL.sub(r"\\\1", text)))
    assert mdsafe._escaped(text) == full


@pytest.mark.parametrize("text, shown", [
    ("its anchors are merged and `kb anchor` refuses it", "its anchors are merged and `kb anchor` refuses it"),
    ("a `x` and `y | z`", "a `x` and `y | z`"),                      # each pair its own span
    ("a lone ` backtick", "a lone \\` backtick"),                    # no pair: escaped, shown as itself
    ("`<b>` and *x*", "\\`\\<b>\\` and \\*x\\*"),                      # code holding a tag: escaped text
    ("no code here_", "no code here\\_"),
])
def test_md_backticked_shows_each_backtick_pair_as_code(text: str, shown: str) -> None:
    assert md_backticked(text) == shown
