"""Shared Markdown helpers: front matter guards, line counting, no crash on any input."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import pipeline.workspace as ws
from kb.dates import calendar_date, month_number
from kb.errors import KBError
from pipeline.workspace.markdown import (
    FRONT_MATTER_LIMIT,
    MD,
    fm_bool,
    fm_int,
    fm_list,
    inline_lines,
    iter_blocks,
    split_front_matter,
    split_lines,
)
from pipeline.workspace.notes import parse_note
from pipeline.workspace.textscan import find_dates, find_urls
from tests.support.paths import FIXTURES


def test_public_names_are_pinned():
    assert sorted(ws.__all__) == sorted([
        "parse_note", "parse_card", "parse_queue", "WorkQueue", "parse_knowledge",
        "section_matches", "find_section", "insert_anchor_line", "unified_diff"])


def test_front_matter_plain():
    fm = split_front_matter("---\ntitle: x\ncreated: 2026-10-08\nid: 2610.10000\n---\nbody\n")
    assert fm.present and not fm.problems
    assert fm.data == {"title": "x", "created": "2026-10-08", "id": 2610.1}   # dates stay text
    assert fm.raw_scalar("id") == "2610.10000"                               # as written
    assert fm.raw_scalar("doi") is None and split_front_matter("body").raw_scalar("id") is None
    assert (fm.body, fm.body_line) == ("body\n", 5)


def test_front_matter_binary_stays_the_text_written():
    """``!!binary`` made the title bytes, stored and shown as ``b'hello'`` (QA, 2026-12-04)."""
    fm = split_front_matter("---\ntitle: !!binary aGVsbG8=\n---\nbody\n")
    assert fm.data["title"] == "aGVsbG8=" and not fm.problems


def test_front_matter_too_large_is_refused_but_body_read():
    big = "---\n" + "k: " + "x" * (FRONT_MATTER_LIMIT + 1) + "\n---\n# body\n"
    fm = split_front_matter(big)
    assert fm.data == {} and fm.body == "# body\n"
    assert "larger than 64 KB" in fm.problems[0]


def test_front_matter_deep_nesting_is_refused():
    fm = split_front_matter("---\nk: " + "[" * 5000 + "]" * 5000 + "\n---\nbody")
    assert fm.data == {} and fm.body == "body" and "nested deeper" in fm.problems[0]


def test_malformed_front_matter_says_what_and_on_which_line_of_the_file():
    """The problem was YAML's context alone ("while parsing a flow sequence"): neither what was wrong nor where."""
    fm = split_front_matter("---\ntitle: x\ntags: [a, b\ncredibility: 4\n---\n## body\n")
    assert fm.data == {} and fm.body == "## body\n"
    assert fm.problems == ["front matter is not valid safe YAML: line 4: expected ',' or ']', but got ':'"]
    alias = split_front_matter("---\ntitle: x\nsame: *a\n---\nbody")
    assert alias.problems == ["front matter is not valid safe YAML: line 3: YAML alias *a refused (aliases are "
                              "not allowed)"]
    indented = split_front_matter("---\ntitle: x\n  bad: y\n---\nbody").problems[0]
    assert indented == "front matter is not valid safe YAML: line 3: mapping values are not allowed here"


def test_front_matter_not_a_mapping():
    fm = split_front_matter("---\n- a\n- b\n---\nbody")
    assert fm.data == {} and "not a mapping" in fm.problems[0]


def test_front_matter_empty_and_absent():
    assert split_front_matter("---\n---\nbody").problems == []
    fm = split_front_matter("---\n~\n---\nbody")            # an explicit null document is empty too
    assert (fm.present, fm.data, fm.problems, fm.body) == (True, {}, [], "body")
    fm = split_front_matter("# no front matter\n---\n")
    assert not fm.present and fm.body == "# no front matter\n---\n"


def test_split_lines_agrees_with_markdown_it():
    # \x0c, \x85 and \u2028 are line breaks to str.splitlines, not to Markdown
    text = "a\r\nb\rc\nd\x0ce\x85f\u2028g"
    assert split_lines(text) == ["a\r\n", "b\r", "c\n", "d\x0ce\x85f\u2028g"]
    assert MD.parse(text)[0].map == [0, 4]


def test_code_blocks_know_their_list_item_and_language_word():
    """Like a paragraph, a code block knows the list item it is written in; its fence's first word is kept."""
    text = "- a\n\n  ```bash {title=x}\n  ls\n  ```\n\n      indented\n\n```\ntop level\n```\n"
    code = [b for b in iter_blocks(MD.parse(text)) if b.kind == "code"]
    assert [(b.text, b.item, b.nested, b.lang) for b in code] == [
        ("ls", 1, True, "bash"), ("indented", 1, True, ""), ("top level", None, False, "")]


def test_find_dates():
    found = [d for d, _, _ in find_dates(
        "2026-04-07, 2026/4/8, 2026年4月9日, Apr 10, 2026, 11 April 2026, 2026-02-30, March 3 2026")]
    assert found == ["2026-04-07", "2026-04-08", "2026-04-09", "2026-04-10", "2026-04-11", "2026-03-03"]
    assert find_dates("Marker 12, 2026") == []


def test_a_month_written_with_a_long_s_is_read_not_a_crash():
    # re.I lets "ſ" match "s": the month table must see the name as the regex did.
    assert [d for d, _, _ in find_dates("ſep 7, 2026 and 8 ſeptember 2026")] == ["2026-09-07", "2026-09-08"]
    note = parse_note("## 1. ſep 7, 2026 notes\n\n- x\n", "inbox/jay/2026-09-07-x.md")
    assert note.entries


def test_calendar_dates():
    assert calendar_date("2026", "2", "29") is None and calendar_date(2028, 2, 29) == "2028-02-29"
    assert calendar_date(1, 1, 1) == "0001-01-01" and calendar_date(1, 1, 1, earliest=1900) is None
    assert calendar_date(2026, month_number("nonsense"), 1) is None
    assert [month_number(n) for n in ("Sep", "SEPTEMBER", "ſep", "oct.", "x")] == [9, 9, 9, 10, None]


def test_front_matter_values():
    assert [fm_int(v) for v in (12, 12.0, "12", "12▲", True, "x", 1.5)] == [12, 12, 12, 12, None, None, None]
    assert [fm_int(v) for v in (2**40, 10**23, "9" * 25, 1e23)] == [2**40, None, None, None]   # 64-bit columns
    assert [fm_bool(v) for v in (True, "yes", "False", "maybe", None)] == [True, True, False, None, None]
    assert fm_list([True, "x", None]) == ["true", "x"]        # YAML's yes/no read back as words


_PIECES = [*"-#§*1.()[]<>|:`\n\r \tab▲⚠", "2607.09701", "version: ", "---\n", "\x00", "\ufffd",
           "&a ", "*a ", "!!python/object:os.system", "## §2.3 ", "1. ", "- ", "https://x.org/"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80).map("".join))
def test_no_parser_crashes_on_any_text(text):
    ws.parse_note(text, "inbox/x/2026-10-08-x.md")
    ws.parse_card(text, "organized/paper_cards/1-2607-09701.md")
    ws.parse_queue(text, "organized/queue/work-queue.md")
    doc = ws.parse_knowledge(text, "organized/knowledge/x.md", "x")
    for s in doc.sections:
        assert s.line <= s.end_line


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80).map("".join), st.sampled_from(["1", "2.3", "1.9"]))
def test_insert_on_any_text_adds_one_line_or_refuses(text, number):
    try:
        result = ws.insert_anchor_line(text, number, "2607.09701 new")
    except KBError:                  # NotFound, or a refusal to change the doc's structure
        return
    assert len(split_lines(result)) == len(split_lines(text)) + 1


def test_every_fixture_is_used():
    """Each case file has its expectation and each expectation (and .after) its case."""
    root = FIXTURES / "workspace"
    for f in root.rglob("*"):
        if f.is_dir() or f.name == ".gitattributes":
            continue
        if f.suffix == ".md":
            assert f.with_name(f.stem + ".expect.json").exists(), f"{f} has no .expect.json"
        elif f.name.endswith(".expect.json"):
            assert f.with_name(f.name[: -len(".expect.json")] + ".md").exists(), f"{f} has no .md"
        elif f.name.endswith(".md.after"):
            assert f.with_name(f.name[: -len(".after")]).exists(), f"{f} has no .md"
        else:
            raise AssertionError(f"unexpected fixture file {f}")


def test_inline_text_keeps_a_link_broken_over_two_lines_and_an_images_alt_text():
    [_, inline, _] = MD.parse("[a link\nbroken](https://x.org/) and ![the alt text](i.png)\n")
    lines = inline_lines(inline, 7)
    assert [(tl.line, tl.text, [(lk.href, lk.start, lk.end) for lk in tl.links]) for tl in lines] == [
        (7, "a link", [("https://x.org/", 0, 6)]), (8, "broken and the alt text", [])]


def test_find_urls_counts_an_autolink_once_and_skips_hosts_without_a_dot():
    [_, inline, _] = MD.parse("see <https://x.org/a> and http://localhost:8000/docs then https://y.org/b.\n")
    [tl] = inline_lines(inline, 1)
    assert find_urls(tl) == [("https://x.org/a", 4, 19), ("https://y.org/b", 56, 71)]
