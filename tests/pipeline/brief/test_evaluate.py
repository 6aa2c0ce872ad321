"""`kb eval flags`' scoring: one raised flag per label, recall per rule, precision only where the labels
are complete, decoys named among the extra flags, and labels files that cannot be read refused in one line."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kb.errors import ConfigError
from kb.store.flags import RULES
from pipeline.brief.evaluate import Label, Labels, format_flags_table, load_labels, score
from tests.support.paths import LABELLED


def _flag(kind: str, subject: str, **evidence: object) -> dict:
    return {"kind": kind, "subject": subject, "evidence": evidence}


FLAGS = [_flag("number-conflict", "ZetaServe · TTFT", values={"380 ms": ["a"], "412 ms": ["b"]}),
         _flag("number-conflict", "TierKV · throughput", values={"3.1×": ["a"], "3.2×": ["b"]}),
         _flag("id-conflict", "HydraRoute", ids={"2610.12077": ["n"], "2610.12770": ["q"]}),
         _flag("boundary", "2610.11305 ~ 2610.09560")]


def _labels(exhaustive: set[str]) -> Labels:
    return Labels("2026-10-12", "inference",
                  [Label("number-conflict", ("zetaserve", "TTFT")), Label("id-conflict", ("2610.12077", "2610.12770")),
                   Label("impossible-id", ("2614.00123",), "month 14")],
                  [Label("number-conflict", ("TierKV",), "3.1× everywhere", decoy=True)], exhaustive)


def test_each_label_takes_one_flag_and_precision_is_over_the_rules_judged_in_full() -> None:
    result = score(FLAGS, _labels({"number-conflict", "id-conflict", "impossible-id"}))
    assert (result["recall"], result["precision"]) == (2 / 3, 2 / 3)     # boundary not judged: not counted
    assert result["rules"]["number-conflict"] == {"expected": 1, "raised": 2, "found": 1, "missed": 0,
                                                       "extra": 1, "decoys_raised": 1, "recall": 1.0,
                                                       "precision": 0.5}
    assert result["rules"]["boundary"]["precision"] is None and result["rules"]["impossible-id"]["recall"] == 0
    assert result["missed"] == [{"rule": "impossible-id", "match": ["2614.00123"], "why": "month 14"}]
    assert result["extra"] == [{"rule": "number-conflict", "subject": "TierKV · throughput",
                                "decoy": "3.1× everywhere"}]
    table = format_flags_table(result)
    assert "missed  impossible-id: 2614.00123 — month 14" in table and "(a decoy)" in table


def test_a_flag_matched_once_is_not_matched_again() -> None:
    twice = Labels("d", "t", [Label("id-conflict", ("HydraRoute",))] * 2, [], {"id-conflict"})
    result = score(FLAGS, twice)
    assert result["rules"]["id-conflict"]["found"] == 1 and len(result["missed"]) == 1


def test_precision_counts_only_the_flags_of_rules_judged_in_full() -> None:
    """Matches of a rule not judged in full were counted above the line, and precision reached 3.0 (review)."""
    labels = Labels("d", "t", [Label("boundary", ("2610.11305",)), Label("id-conflict", ("HydraRoute",))], [],
                    {"id-conflict"})
    result = score(FLAGS, labels)
    assert (result["recall"], result["precision"]) == (1.0, 1.0)


def test_a_general_label_never_takes_the_flag_a_specific_one_needs() -> None:
    """Labels were matched first come, first served: recall depended on their order in the file (review)."""
    flags = [_flag("number-conflict", "ZetaServe · TTFT"), _flag("number-conflict", "ZetaServe · throughput")]
    general, specific = Label("number-conflict", ("ZetaServe",)), Label("number-conflict", ("ZetaServe", "TTFT"))
    for order in ([general, specific], [specific, general]):
        assert score(flags, Labels("d", "t", order, [], {"number-conflict"}))["recall"] == 1.0


@pytest.mark.parametrize("written", ['"2026-10-09"', "2026-10-09"])
def test_the_day_may_be_a_toml_date_or_a_string(tmp_path: Path, written: str) -> None:
    path = tmp_path / "FLAGS.toml"
    path.write_text(f'[day]\ndate = {written}\ntopic = "t"\nexhaustive = ["boundary"]\n', encoding="utf-8")
    assert load_labels(path, RULES).day == "2026-10-09"


@pytest.mark.parametrize("text, problem", [
    ('[day]\ndate = "2026-10-32"\ntopic = "t"\n', "needs date"),          # was an internal error
    ('[day]\ndate = "d"\ntopic = "t"\n[[flag]]\nrule = "nope"\nmatch = ["x"]\n', "rule 'nope'"),
    ('[day]\ndate = "d"\ntopic = "t"\n[[flag]]\nrule = "boundary"\nmatch = []\n', "match must list"),
    ('[day]\ntopic = "t"\n', "needs date"),
    ('[day]\ndate = "d"\ntopic = "t"\nexhaustive = ["nope"]\n', "exhaustive names no rule"),
    ("[day\n", r"FLAGS.toml:1: not valid TOML: .*\(column \d+\)"),
    ('[day]\ndate = "2026-10-09"\n[[flag]]\nmatch = ["x",\n', r"FLAGS.toml:4: not valid TOML: .* \(at the end of the file\)"),
    ('day = "2026-10-09"\n', "day must be a table"),                   # was an internal error
    ('flag = "boundary"\n[day]\ndate = "2026-10-09"\ntopic = "t"\n', "array of tables"),
    ('[day]\ndate = "2026-10-09"\ntopic = "t"\nexhaustive = "boundary"\n', "must list rule names"),
    ('[day]\ndate = "2026-10-09"\ntopic = "t"\n', "nothing to measure"),   # was every figure "—", exit 0
    ('[day]\ndate = 2026-10-09T10:00:00\ntopic = "t"\n[[flag]]\nrule = "boundary"\nmatch = ["x"]\n',
     "needs date"),                                                    # a TOML date-time: was an internal error
])
def test_a_labels_file_kb_cannot_use_is_refused_in_one_line(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "FLAGS.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=problem) as e:
        load_labels(path, RULES)
    assert "\n" not in str(e.value)


def test_upvotes_match_the_unit_notes_write_them_with() -> None:
    flag = _flag("number-conflict", "FP4Lens · upvotes", quantity="HF upvotes", values={"19": ["n"], "23": ["hf"]})
    assert Label("number-conflict", ("FP4Lens", "▲")).fits(flag)
    assert not Label("number-conflict", ("TierKV", "▲")).fits(FLAGS[1])


def test_a_label_matches_what_the_briefing_shows_of_a_flag_its_quoted_lines_too() -> None:
    """A bare figure's flag keeps the figure as evidence ("18%") and quotes the line it was said in (``context``):
    "MFU 只有 18%" is what the briefing shows, and what a label names."""
    flag = {"kind": "unsourced-claim", "subject": "某大厂 decode 集群的真实利用率", "evidence": {"claims": ["18%"]},
            "context": {"said": ["他们线上 decode 集群的 MFU 只有 18%"]}}
    assert Label("unsourced-claim", ("MFU", "18%")).fits(flag)
    assert not Label("unsourced-claim", ("MFU", "18%")).fits({**flag, "context": {}})


@pytest.mark.parametrize("day", [f"day{n}" for n in range(2, 17)])
def test_the_labelled_days_load_and_name_their_places(day: str) -> None:
    """The labels kb's rules are measured on: every rule one of kb's, every place a file of the day."""
    labels = load_labels(LABELLED / day / "FLAGS.toml", RULES)
    assert labels.flags and labels.decoys
    raw = tomllib.loads((LABELLED / day / "FLAGS.toml").read_text(encoding="utf-8"))
    places = {w.split("#")[0] for item in raw.get("flag", []) + raw.get("decoy", []) for w in item.get("where", [])}
    workspaces = [LABELLED / f"day{n}" / "workspace" for n in range(2, 17)] + [LABELLED.parents[1] / "data" / "sample"]
    assert all(any((ws / w).exists() for ws in workspaces) for w in places), places
