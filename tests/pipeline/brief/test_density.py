"""ranking.density: an absolute scale without history, the ratio to the trailing median with it —
thresholds read from data/briefing.toml through load_rules()."""
from __future__ import annotations

import pytest

from pipeline.brief.ranking import density
from pipeline.brief.rules import load_rules


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def test_rules_shipped_scales(rules) -> None:
    assert rules.density_absolute == [(0, "低"), (3, "低-中"), (5, "中"), (7, "中-高"), (10, "高")]
    assert rules.density_ratio == [(0.0, "低"), (0.5, "低-中"), (0.85, "中"), (1.2, "中-高"), (1.6, "高")]


def test_absolute_every_threshold_and_the_value_below(rules) -> None:
    levels = rules.density_absolute
    for (lim, lvl), (_, below) in zip(levels[1:], levels):
        assert density(lim, [], rules)["level"] == lvl
        assert density(lim - 1, [], rules)["level"] == below
    assert density(0, [], rules)["level"] == levels[0][1]
    assert density(1000, [], rules)["level"] == levels[-1][1]


def test_absolute_seed_day(rules) -> None:
    """The seed: 3 NET-new (MORI-IO, NIXL, SlimWise), no earlier briefing → 低-中."""
    d = density(3, [], rules)
    assert d == {"level": "低-中", "net_new": 3, "previous": None, "median7": None, "basis": "absolute", "window": 0,
                 "ratio": None}


def test_ratio_to_previous_when_one_briefing(rules) -> None:
    d = density(5, [4], rules)
    assert d["basis"] == "ratio" and d["previous"] == 4 and d["median7"] == 4 and d["ratio"] == 1.25
    assert d["level"] == "中-高" and d["window"] == 1     # the briefing says no "median of 7" of one


def test_ratio_to_median_of_trailing_seven(rules) -> None:
    history = [100, 100, 100, 2, 4, 6, 8, 10, 12, 3]     # only the last 7 count: [2,4,6,8,10,12,3] → median 6
    d = density(6, history, rules)
    assert d["median7"] == 6 and d["previous"] == 3 and d["ratio"] == 1.0 and d["level"] == "中" and d["window"] == 7


def test_ratio_median_ignores_one_outlier(rules) -> None:
    d = density(4, [4, 40, 4], rules)
    assert d["median7"] == 4 and d["level"] == "中"


@pytest.mark.parametrize("today,level", [(0, "低"), (1, "低"), (2, "低-中"), (3, "低-中"), (4, "中"),
                                         (5, "中-高"), (6, "中-高"), (7, "高"), (20, "高")])
def test_ratio_levels(rules, today: int, level: str) -> None:
    # baseline 4: ratios 0, .25, .5, .75, 1.0, 1.25, 1.5, 1.75, 5
    assert density(today, [4, 4, 4], rules)["level"] == level


def test_ratio_thresholds_from_the_rules(rules) -> None:
    for lim, lvl in rules.density_ratio:
        assert density(int(lim * 100), [100], rules)["level"] == lvl


def test_zero_baseline_falls_back_to_the_absolute_scale(rules) -> None:
    """Nothing new after days of nothing is a quiet day, not an average one."""
    assert density(0, [0, 0], rules) | {} == density(0, [], rules)
    assert density(0, [0, 0], rules)["level"] == "低"
    assert density(5, [0, 0], rules)["level"] == "中" and density(5, [0, 0], rules)["basis"] == "absolute"


def test_absolute_differs_from_ratio_for_the_same_count(rules) -> None:
    """A quiet team: 2 NET-new is 低 on the absolute scale but 高 against a median of 1."""
    assert density(2, [], rules)["level"] == "低"
    assert density(2, [1, 1, 1], rules)["level"] == "高"


def test_the_median_of_an_even_number_of_briefings_is_the_mean_of_the_middle_two(rules) -> None:
    d = density(20, [11, 20], rules)
    assert d["median7"] == 15.5 and d["window"] == 2 and d["ratio"] == round(20 / 15.5, 2)
