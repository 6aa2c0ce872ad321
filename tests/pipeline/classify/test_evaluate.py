"""evaluate() arithmetic on a case small enough to compute by hand."""
from __future__ import annotations

import pytest

from kb.errors import ConfigError
from pipeline.classify.evaluate import evaluate, format_eval_table, load_labelled

ITEMS = [
    {"id": "a", "title": "", "text": "", "topics": ["kv-cache", "moe"], "relevance": "primary"},
    {"id": "b", "title": "", "text": "", "topics": ["kv-cache"], "relevance": "adjacent"},
    {"id": "c", "title": "", "text": "", "topics": [], "relevance": "none"},
    {"id": "d", "title": "", "text": "", "topics": ["moe"], "relevance": "primary"},
]
PRED = {
    "a": {"topics": ["kv-cache"], "relevance": "primary"},            # moe missed
    "b": {"topics": ["kv-cache", "routing"], "relevance": "primary"},  # routing extra, relevance wrong
    "c": {"topics": [], "relevance": "none"},
    "d": {"topics": ["moe"], "relevance": "adjacent"},                 # relevance wrong
}


def test_hand_computed_case():
    r = evaluate(ITEMS, lambda item: PRED[item["id"]])
    # kv-cache: tp 2, fp 0, fn 0 -> P 1, R 1, F1 1
    assert r["per_topic"]["kv-cache"] == pytest.approx(
        {"precision": 1.0, "recall": 1.0, "f1": 1.0, "support": 2, "tp": 2, "fp": 0, "fn": 0})
    # moe: tp 1, fn 1 -> P 1, R 0.5, F1 2/3
    m = r["per_topic"]["moe"]
    assert (m["precision"], m["recall"], m["support"]) == (1.0, 0.5, 2)
    assert m["f1"] == pytest.approx(2 / 3)
    # routing: fp 1 -> P 0, R 0 (no support), F1 0
    assert r["per_topic"]["routing"]["f1"] == 0.0 and r["per_topic"]["routing"]["support"] == 0
    # micro: tp 3, fp 1, fn 1 -> P 0.75, R 0.75, F1 0.75
    assert r["micro_precision"] == pytest.approx(0.75) and r["micro_recall"] == pytest.approx(0.75)
    assert r["micro_f1"] == pytest.approx(0.75)
    # macro over kv-cache, moe, routing
    assert r["macro_f1"] == pytest.approx((1 + 2 / 3 + 0) / 3)
    assert r["relevance_accuracy"] == pytest.approx(0.5)
    conf = r["relevance_confusion"]
    assert conf["primary"] == {"primary": 1, "adjacent": 1, "none": 0}
    assert conf["adjacent"] == {"primary": 1, "adjacent": 0, "none": 0}
    assert conf["none"] == {"primary": 0, "adjacent": 0, "none": 1}
    assert [e["id"] for e in r["errors"]] == ["a", "b", "d"]
    assert r["errors"][1] == {"id": "b", "relevance": ["adjacent", "primary"], "missed": [], "extra": ["routing"]}


def test_accepts_result_objects_with_tags():
    class T:  # a Tag look-alike
        def __init__(self, topic):
            self.topic = topic

    class R:
        relevance = "primary"
        tags = [T("moe")]

    r = evaluate([{"id": "x", "topics": ["moe"], "relevance": "primary"}], lambda item: R())
    assert r["micro_f1"] == 1.0 and r["relevance_accuracy"] == 1.0


def test_empty_input():
    r = evaluate([], lambda item: {})
    assert r["n"] == 0 and r["micro_f1"] == 0.0 and r["macro_f1"] == 0.0 and r["relevance_accuracy"] == 0.0


def test_format_eval_table():
    text = format_eval_table(evaluate(ITEMS, lambda item: PRED[item["id"]]))
    assert "micro-F1 0.750" in text and "relevance accuracy 0.500" in text
    assert "kv-cache" in text and "rows gold" in text


def test_load_labelled(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_text('{"id": "a", "title": "t", "topics": [], "relevance": "none"}\n\n', encoding="utf-8")
    assert load_labelled(p) == [{"id": "a", "title": "t", "topics": [], "relevance": "none"}]
    p.write_text("{nope\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="x.jsonl:1"):
        load_labelled(p)


def test_split_mode_refuses_a_model_fitted_on_every_split(tmp_path):
    """The shipped model was refitted on the test split too: measuring it there would be measuring training."""
    from typer.testing import CliRunner

    from kb.cli import app
    (tmp_path / "curated_lists").mkdir()
    r = CliRunner().invoke(app, ["eval", "classifier", "--corpus", str(tmp_path), "--split", "test"])
    assert isinstance(r.exception, ConfigError) and "fitted on every split" in str(r.exception)   # exit 2


def test_the_held_out_labels_measure_only_a_model_that_kept_them_out(tmp_path):
    """kb's held-out labels measure the shipped model too, since its training never saw them; a model file from
    before they were held out (or trained with another file of them) is refused: it may have trained on them."""
    from kb.resources import find_resource
    from pipeline.classify.labelling import eval_items
    from pipeline.classify.model import Model
    from pipeline.classify.training.labelmap import held_out_digest
    model = Model.load(find_resource("data/classifier_model.npz"))
    assert model.meta.get("held_out_sha256") == held_out_digest()     # the shipped model kept today's file out
    model.meta = {k: v for k, v in model.meta.items() if k != "held_out_sha256"}
    model.save(tmp_path / "older.npz")
    (tmp_path / "corpus" / "curated_lists").mkdir(parents=True)
    with pytest.raises(ConfigError, match="--source heldout: model .* was not trained with today's held-out labels"):
        eval_items(None, model_file=tmp_path / "older.npz", corpus=tmp_path / "corpus", split="test", source="heldout")


def test_a_malformed_row_is_named_by_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "title": "x", "topics": [], "relevance": "none"}\n[1, 2]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.jsonl:2"):
        load_labelled(bad)
    bad.write_text('{"id": "a", "title": "x", "text": 5, "topics": [], "relevance": "none"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad.jsonl:1"):
        load_labelled(bad)


def test_a_labelled_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path):
    """An editor's BOM (Notepad, Excel's "UTF-8" export) was line 1's "not JSON (Unexpected UTF-8 BOM)", exit 2."""
    rows = '{"id": "a", "title": "Paged KV", "topics": ["kv-cache"], "relevance": "primary"}\n'
    plain, marked = tmp_path / "plain.jsonl", tmp_path / "marked.jsonl"
    plain.write_text(rows, encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + rows.encode("utf-8"))
    assert load_labelled(marked) == load_labelled(plain)


def test_a_dev_or_holdout_item_without_a_relevance_is_refused(tmp_path):
    """`kb train --dev/--holdout` read their files with load_labelled: a line with no relevance was trained on
    as a "none" (weight 10, the dev set's) and measured as one."""
    dev = tmp_path / "dev.jsonl"
    dev.write_text('{"id": "a", "title": "Paged KV", "topics": ["kv-cache"], "relevance": "primary"}\n'
                   '{"id": "b", "title": "Draft trees", "topics": ["speculative-decoding"]}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"dev.jsonl:2: no relevance"):
        load_labelled(dev, {"kv-cache", "speculative-decoding"})


def test_a_labelled_item_without_an_id_is_refused(tmp_path):
    """`kb train --dev` keyed every item by its id: a line without one was a KeyError (exit 70)."""
    dev = tmp_path / "dev.jsonl"
    dev.write_text('{"id": "a", "title": "Paged KV", "topics": ["kv-cache"], "relevance": "primary"}\n'
                   '{"title": "Draft trees", "topics": [], "relevance": "none"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"dev.jsonl:2: no id"):
        load_labelled(dev)


@pytest.mark.parametrize("rows, said", [
    ('{"id": "a", "title": "Paged KV", "topics": [], "relevance": "none"}\n'
     '{"id": "a", "title": "Draft trees", "topics": [], "relevance": "none"}\n', "x.jsonl:2: id 'a' is already on line 1"),
    ('{"id": "a", "relevance": "primary", "topics": ["kv-cache"]}\n', "x.jsonl:1: no title and no text"),
    ('{"id": "a", "title": "Paged KV", "relevance": "primary"}\n', "x.jsonl:1: no topics: a primary item needs"),
    ('null\n', "x.jsonl:1: expected an object {id, title, text, topics, relevance}, got null"),
    ('{"id": "a", "title": null, "topics": [], "relevance": "none"}\n', "x.jsonl:1: title must be a string, not null"),
])
def test_a_row_that_would_count_what_nobody_labelled_is_refused(tmp_path, rows: str, said: str) -> None:
    """A row counted twice, one with nothing to classify, a relevant one whose topics were left out (read as
    "no topic", a gold label nobody gave): each was measured in silence. Types are named as JSON names them."""
    p = tmp_path / "x.jsonl"
    p.write_text(rows, encoding="utf-8")
    with pytest.raises(ConfigError) as e:
        load_labelled(p, {"kv-cache"})
    assert said in str(e.value)
