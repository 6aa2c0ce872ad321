"""The team's decision on an item, shown under it (``pipeline.brief.decisions``): the day-27 reader needed, for each
increment, whether the team anchored it, queued it or ruled it a duplicate — it sat in the cards and was never shown."""
from __future__ import annotations

import json

import pytest

from pipeline.brief.decisions import team_decision
from pipeline.brief.model import Candidate, SourceRef
from pipeline.brief.rules import load_rules
from pipeline.brief.write import render
from tests.pipeline.brief.conftest import brief_json

RULES = load_rules()


def _item(*sources: tuple[str, str, str, str]) -> Candidate:
    """An item with the team's sources: (kind, path, date, text)."""
    return Candidate("c", sources=[SourceRef(kind, "tom", path, 1 if kind == "entry" else None, None, date, 4, text)
                                   for kind, path, date, text in sources])


def test_the_teams_last_word_decides() -> None:
    card = ("card", "organized/paper_cards/485-2611-09815.md", "2026-11-12T16:00",
            "读了摘要。\n和 §3.1 DraftTutor 的关系见 Maarten 11:00 的笔记；不锚，不进队。（Tom）")
    note = ("entry", "inbox/jay/2026-11-12T1030-jay.md", "2026-11-12T10:30", "- 建议：§3.1，进队列，正文我来看")
    assert team_decision(_item(note, card), RULES) == {"text": "不锚，不进队",
                                                       "where": "organized/paper_cards/485-2611-09815.md"}
    assert team_decision(_item(note), RULES)["text"] == "建议：§3.1，进队列，正文我来看"
    english = ("entry", "inbox/maarten/n.md", "2026-11-13T13:00",
               "Still the only paper on choosing tiles per GPU. Verdict: anchor it in §3.3, next to ScaleMint.")
    assert team_decision(_item(english), RULES)["text"] == "Verdict: anchor it in §3.3, next to ScaleMint"


@pytest.mark.parametrize("text", ["锚不锚今天定", "要不要进队列？明天再说", "Whether to anchor it is Monday's call",
                                  "读了摘要，数都对得上"])
def test_a_line_asking_or_saying_nothing_decides_nothing(text: str) -> None:
    assert team_decision(_item(("entry", "inbox/jay/n.md", "2026-11-12T10:30", text)), RULES) is None


def test_a_post_or_an_abstract_decides_nothing_for_the_team() -> None:
    c = _item(("entry", "inbox/jay/n.md", "2026-11-12T10:30", "不锚"))
    c.sources[0] = SourceRef("post", "vllm-blog", None, None, "https://blog.vllm.ai/x", "2026-11-12", 5, "not anchor")
    assert team_decision(c, RULES) is None


@pytest.mark.parametrize(("lang", "said"), [("zh", "- 团队的决定：不锚，不进队（"), ("en", "- The team's decision: 不锚，不进队 (")])
def test_the_decision_is_a_line_of_its_own_under_the_judgement(sample_day, lang: str, said: str) -> None:
    data = brief_json(sample_day)
    data["increments"][0]["decision"] = {"text": "不锚，不进队", "where": "organized/paper_cards/485-2611-09815.md"}
    text = render(json.loads(json.dumps(data)), lang, "md", sample_day)
    line = next(x for x in text.splitlines() if x.startswith(said))
    before = text.splitlines()[text.splitlines().index(line) - 1]
    assert before.startswith(("- 判断：", "- Judgement:"))
