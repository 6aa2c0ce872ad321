"""A day without increments says so in one line, and no label of the briefing is left with nothing
after it — on a quiet day, and when any list a label introduces is empty."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pipeline.brief.write import render
from tests.pipeline.brief.conftest import DAY, brief, brief_json, clone, dangling_labels, kb, read, sections
from tests.support.days import DAY2

QUIET = {"zh": "本期没有可展开的增量：窗口内没有新条目。",
         "en": "Nothing to detail this round: the window holds no new items."}
FOLLOW = {"zh": "- 下次跟进重点：无", "en": "- Follow up next: nothing"}


@pytest.fixture(scope="module")
def quiet(sample_day: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The sample day briefed, then the next day with no new input: no note, no card, the same blog
    recordings, and no listing or HF recording for that day (those two sources fail: exit 1)."""
    home = clone(sample_day, tmp_path_factory.mktemp("quiet") / "ws")
    brief(home)
    assert kb(home, "ingest", "all", "--offline", "--date", DAY2, ok=False).exit_code == 1
    brief(home, day=DAY2)
    brief(home, "--lang", "en", day=DAY2)
    return {"zh": read(home, f"briefings/{DAY2}-inference.md"), "en": read(home, f"briefings/{DAY2}-inference.en.md")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_quiet_day_says_so_in_one_line(quiet: dict[str, str], lang: str) -> None:
    s2 = sections(quiet[lang])["二" if lang == "zh" else "2."]
    assert [line for line in s2.splitlines()[1:] if line.strip()] == [QUIET[lang]]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_quiet_day_leaves_no_label_with_nothing_after_it(quiet: dict[str, str], lang: str) -> None:
    # the day still has an open flag (the card's dates), of a kind with nothing to follow up
    assert dangling_labels(quiet[lang]) == []
    assert FOLLOW[lang] in quiet[lang].splitlines()


def _emptied(data: dict[str, Any]) -> dict[str, Any]:
    """The sample day's data with every list a label introduces emptied: no reasons, no IDs, no sources,
    a claim whose marker is outside the bullets, an unresolved ID written nowhere known, an ID conflict
    with a place missing."""
    d = copy.deepcopy(data)
    for inc in d["increments"]:
        inc["why"] = []
    d["top_item"]["why"] = []
    d["arxiv_ids"], d["sources"], d["follow_ups"] = [], [], []
    for f in d["flags"]:
        if f["kind"] == "unsourced-claim":
            f["evidence"]["claims"] = []
        if f["kind"] == "id-conflict":
            f["evidence"]["ids"] = {i: [] for i in f["evidence"]["ids"]}
    d["flags"].append({"id": 99, "label": "#99", "kind": "unresolved-id", "subject": "2610.00001", "status": "open",
                       "note": None, "evidence": {"id": "2610.00001", "why": "offline", "title": "", "mentioned_in": []}})
    return d


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_no_label_is_left_dangling_when_what_it_introduces_is_empty(sample_day: Path, lang: str) -> None:
    md = render(_emptied(brief_json(sample_day, day=DAY)), lang, "md", sample_day)
    assert dangling_labels(md) == []
    lines = md.splitlines()
    assert not [x for x in lines if x.rstrip().endswith(("——", " —", "；", "; ", "（）")) or "（）" in x or "()" in x]
    assert not [x for x in lines if x.startswith("| arXiv")], "no header-only table of IDs"


OVERLAP_LABELS = {"zh": {"shared_topics": "共同主题", "shared_terms": "共同术语", "shared_words": "共同用词"},
                  "en": {"shared_topics": "shared topics", "shared_terms": "shared terms", "shared_words": "shared words"}}


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("empty", ["shared_topics", "shared_terms"])
def test_an_overlap_flag_drops_the_label_of_an_empty_part(sample_day: Path, lang: str, empty: str) -> None:
    """A boundary flag with no shared terms (the learned classifier's topics, no taxonomy term in common) or no
    shared topics (a mechanism overlap): the part's label goes with it, the others keep theirs and their order."""
    data = brief_json(sample_day, day=DAY)
    flag = next(f for f in data["flags"] if f["kind"] == "boundary")
    flag["evidence"][empty] = []
    flag["evidence"]["shared_words"] = ["expert", "pruning"]
    line = next(x for x in render(data, lang, "md", sample_day).splitlines()
                if x.startswith(("现象：新条目", "What: the new")) and flag["evidence"]["anchored"] in x)
    labels = OVERLAP_LABELS[lang]
    assert labels[empty] not in line
    kept = [labels[k] for k in labels if k != empty]
    assert all(k in line for k in kept) and line.index(kept[0]) < line.index(kept[1])
    assert not line.rstrip().endswith(("—", "；", ";")) and "——；" not in line and "— ;" not in line


@pytest.mark.parametrize("lang, line", [("zh", "- 来源：新故障 arxiv、hf"), ("en", "- Sources: failing anew arxiv, hf")])
def test_a_quiet_day_names_the_sources_that_failed_since_the_previous_briefing(quiet: dict[str, str], lang: str,
                                                                               line: str) -> None:
    """Offline, the next day has no listing or HF recording: both fail, where the sample day read them."""
    assert line in quiet[lang].split("\n## ", 1)[0].splitlines()
