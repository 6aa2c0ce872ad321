"""The claims reader on real abstracts people labelled (tests/data/claims_real.jsonl, `kb eval claims`): the
test split, never read to change a rule, at its measured figures. Skips without the corpus beside the checkout."""
from __future__ import annotations

import pytest

from pipeline.brief.claims_eval import corpus_abstracts, kb_figures, load_claim_labels, reader, score_claims
from pipeline.brief.rules import load_rules
from tests.support.paths import CORPUS, LABELLED

# (precision, recall) per level on the test split, as measured when the rules last changed (docs/briefing.md)
FLOORS = {"figure": (0.880, 0.724), "quantity": (0.664, 0.546), "claim": (0.640, 0.526)}


@pytest.fixture(scope="module")
def measured() -> dict:
    if not (CORPUS / "abstracts").is_dir():
        pytest.skip("the shared corpus is not beside the checkout")
    rules = load_rules()
    items = [it for it in load_claim_labels(LABELLED / "claims_real.jsonl", set(rules.quantities.values()))
             if it.split == "test"]
    texts = corpus_abstracts(CORPUS, {it.id for it in items})
    read = reader(rules)
    return score_claims(items, {i: kb_figures(*texts[i], read) for i in texts})


@pytest.mark.parametrize("level", list(FLOORS))
def test_the_test_split_is_read_at_its_floor(measured: dict, level: str) -> None:
    precision, recall = FLOORS[level]
    got = measured[level]
    assert got["precision"] >= precision and got["recall"] >= recall, got


def test_every_labelled_abstract_is_in_the_corpus() -> None:
    if not (CORPUS / "abstracts").is_dir():
        pytest.skip("the shared corpus is not beside the checkout")
    items = load_claim_labels(LABELLED / "claims_real.jsonl", set(load_rules().quantities.values()))
    assert len(items) == 180 and len(corpus_abstracts(CORPUS, {it.id for it in items})) == 180
