"""`kb eval claims`: kb's reading of abstracts scored against people's, at the figure, quantity and claim levels."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from kb.errors import ConfigError
from pipeline.brief.claims_eval import OWN, Figure, Labelled, load_claim_labels, score_claims
from tests.reliability.support import kb_inproc, one_error_line

QUANTITIES = {"throughput", "TTFT", "speed-up", "memory", "latency"}
ABSTRACTS = [
    {"arxiv_id": "2601.00001", "title": "PipeFlow: Serving LLMs Faster",
     "abstract": "PipeFlow improves throughput by 2.3× and cuts TTFT by 40% compared with vLLM."},
    {"arxiv_id": "2601.00002", "title": "A Study of Caches",
     "abstract": "On 8 GPUs, the cache reduces memory by 35%."},
]


def fig(quantity: str, unit: str, value: float, subject: str = OWN) -> Figure:
    return Figure(quantity, unit, value, subject)


def test_levels_tell_a_wrong_quantity_and_a_wrong_subject_apart() -> None:
    """The same value and unit matches as a figure; with its quantity as a quantity; with its subject as a claim."""
    gold = [Labelled("a", "dev", (fig("throughput", "×", 2.3), fig("TTFT", "%", 40), fig("latency", "s", 0.12)))]
    found = {"a": [fig("throughput", "×", 2.3), fig("latency", "%", 40), fig("latency", "s", 0.12, "vllm"),
                   fig("memory", "%", 8)]}
    r = score_claims(gold, found)
    assert (r["figure"]["matched"], r["quantity"]["matched"], r["claim"]["matched"]) == (3, 2, 1)
    assert (r["claim"]["expected"], r["claim"]["found"]) == (3, 4)
    assert r["figure"]["recall"] == 1.0 and r["figure"]["precision"] == 0.75
    assert r["by_quantity"]["TTFT"] == {"expected": 1, "found": 0, "matched": 0, "precision": None, "recall": 0.0,
                                        "f1": None}
    [row] = r["items"]
    assert row["missed"] == ["TTFT 40 %"] and row["extra"] == ["latency 40 %", "memory 8 %"]


def test_a_figure_written_twice_is_matched_once_each() -> None:
    """Two labelled 2.3× claims against one read: one match, one miss (multisets, not sets)."""
    gold = [Labelled("a", "dev", (fig("speed-up", "×", 2.3), fig("speed-up", "×", 2.3)))]
    r = score_claims(gold, {"a": [fig("speed-up", "×", 2.3)]})
    assert (r["claim"]["matched"], r["claim"]["recall"], r["claim"]["precision"]) == (1, 0.5, 1.0)


def test_labels_refuse_a_malformed_row_by_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "labels.jsonl"
    good = {"id": "a", "split": "dev", "claims": [{"quantity": "TTFT", "unit": "%", "value": 40, "subject": "own"}]}
    for bad, said in ((dict(good, claims=[dict(good["claims"][0], quantity="accuracy")]), "quantity 'accuracy'"),
                      (dict(good, claims=[dict(good["claims"][0], unit="x")]), "unit 'x'"),
                      (dict(good, claims=[dict(good["claims"][0], value="40")]), "value '40' is not a number"),
                      (dict(good, claims=[dict(good["claims"][0], value=True)]), "value True is not a number"),
                      (dict(good, claims=[dict(good["claims"][0], subject="")]), "subject"),
                      ([1, 2], "a row is an object")):
        path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
        with pytest.raises(ConfigError) as e:
            load_claim_labels(path, QUANTITIES)
        assert str(e.value).startswith(f"{path}:2: ") and said in str(e.value), str(e.value)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(good).encode())   # Notepad's BOM
    assert load_claim_labels(path, QUANTITIES)[0].figures == (Figure("TTFT", "%", 40.0, OWN),)


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "corpus" / "abstracts"
    folder.mkdir(parents=True)
    (folder / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ABSTRACTS), encoding="utf-8")
    return tmp_path / "corpus"


def test_the_command_reads_the_abstracts_as_the_number_rule_does(corpus: Path, tmp_path: Path) -> None:
    """The paper's own figures are `own` (its title's name is the subject kb reads); a count ("8 GPUs")
    is no claim; the people's file is scored on the abstracts both labelled."""
    labels, people = tmp_path / "labels.jsonl", tmp_path / "people.jsonl"
    labels.write_text(
        json.dumps({"id": "2601.00001", "split": "dev", "claims": [
            {"quantity": "throughput", "unit": "×", "value": 2.3, "subject": "own"},
            {"quantity": "TTFT", "unit": "%", "value": 40, "subject": "own"}]}) + "\n"
        + json.dumps({"id": "2601.00002", "split": "test", "claims": [
            {"quantity": "memory", "unit": "%", "value": 35, "subject": "own"}]}) + "\n", encoding="utf-8")
    people.write_text(json.dumps({"id": "2601.00001", "claims": [
        {"quantity": "throughput", "unit": "×", "value": 2.3, "subject": "own"}]}) + "\n", encoding="utf-8")
    run = kb_inproc("eval", "claims", str(labels), "--corpus", str(corpus), "--people", str(people),
                    "--format", "json")
    assert run.returncode == 0, run.stderr
    r = json.loads(run.stdout)
    assert (r["abstracts"], r["claim"]["expected"], r["claim"]["found"], r["claim"]["matched"]) == (2, 3, 3, 3)
    assert r["people"]["abstracts"] == 1 and r["people"]["claim"]["recall"] == 0.5
    only = kb_inproc("eval", "claims", str(labels), "--corpus", str(corpus), "--split", "test", "--format", "json")
    assert json.loads(only.stdout)["abstracts"] == 1
    table = kb_inproc("eval", "claims", str(labels), "--corpus", str(corpus)).stdout
    assert "claim" in table and "1.000" in table


def test_the_command_names_an_abstract_the_corpus_lacks(corpus: Path, tmp_path: Path) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "2601.09999", "split": "dev", "claims": []}) + "\n", encoding="utf-8")
    run = kb_inproc("eval", "claims", str(labels), "--corpus", str(corpus))
    assert run.returncode == 2
    assert one_error_line(run.stderr) == (f"kb: error: --corpus {corpus}: 1 labelled abstracts are not in it "
                                   "(first: 2601.09999)")
