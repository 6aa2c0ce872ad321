"""Training data: systems papers without LLMs as hard negatives, and the offsets' floors that count them.

Only the corpus reading and the threshold tuning: neither needs scikit-learn."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kb.resources import find_resource
from pipeline.classify.model import relevance_probabilities
from pipeline.classify.training.corpus import Example, build, split_of, summarise
from pipeline.classify.training.labelmap import LabelMap, LabelMapError
from pipeline.classify.training.tuning import tune_rules

LABEL_MAP = """
schema = 1
[abstracts]
random_negative_selections = ["random_sample"]
[abstracts.systems_negatives]
selections = ["systems_category", "random_sample"]
categories = ["cs.DC", "cs.AR"]
llm_terms = '\\b(llms?|language models?|inference|serving)\\b'
weight = 0.8
[abstracts.sources.crawl]
licence = "Apache-2.0"
use = "train"
[lists.alist]
licence = "MIT"
use = "train"
default = { relevance = "primary", topics = [] }
"""


def _abstract(aid, title, abstract, cats, selection="systems_category"):
    return {"arxiv_id": aid, "title": title, "abstract": abstract, "categories": cats, "selection": selection}


def _corpus(tmp_path: Path) -> Path:
    (tmp_path / "abstracts").mkdir()
    (tmp_path / "curated_lists").mkdir()
    rows = [
        _abstract("2601.00001", "Pipelined Leader Rotation for Byzantine Consensus", "We rotate leaders.", ["cs.DC"]),
        _abstract("2601.00002", "Batching Requests for LLM Serving", "A scheduler for LLM serving.", ["cs.DC"]),
        _abstract("2601.00003", "A Listed Paper About Queues", "Queues, no LLM here.", ["cs.DC"], "curated_match"),
        _abstract("2601.00004", "Holdout Paper On Cache Coherence", "Coherence.", ["cs.AR"]),
        _abstract("2601.00005", "Dev Paper On Job Scheduling", "HPC jobs.", ["cs.DC"]),
        _abstract("2601.00006", "Random Sampled Paper On Vision", "Image classification.", ["cs.CV"], "random_sample"),
        _abstract("2601.00007", "Random Sampled Paper On SSD Models", "SSD queue depth.", ["cs.AR"], "random_sample"),
        _abstract("2601.00008", "A Systems Paper On Stream Inference", "Bayesian inference at scale.", ["cs.DC"]),
    ]
    (tmp_path / "abstracts" / "crawl.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    listed = {"list": "alist", "title": "A Listed Paper About Queues", "section": "Serving", "arxiv_id": "2601.00003"}
    (tmp_path / "curated_lists" / "alist.jsonl").write_text(json.dumps(listed) + "\n")
    (tmp_path / "label_map.toml").write_text(LABEL_MAP)
    return tmp_path


def test_systems_papers_without_llms_are_weighted_none_examples_in_their_id_split(tmp_path):
    corpus = _corpus(tmp_path)
    lm = LabelMap.load(corpus / "label_map.toml")
    ex = build(corpus, lm, holdout=[{"id": "h1", "title": "Holdout Paper On Cache Coherence"}],
               dev=[{"id": "d1", "title": "Dev Paper On Job Scheduling", "relevance": "none"}])
    by = {e.key: e for e in ex if e.source in ("systems", "random")}
    assert set(by) == {"arxiv:2601.00001", "arxiv:2601.00006", "arxiv:2601.00007"}
    consensus, vision, ssd = by["arxiv:2601.00001"], by["arxiv:2601.00006"], by["arxiv:2601.00007"]
    assert (consensus.source, consensus.relevance, consensus.topics, consensus.weight) == ("systems", "none", (), 0.8)
    assert consensus.split == split_of("arxiv:2601.00001") and consensus.text == "We rotate leaders."
    # a systems negative gives a bare title too (as a curated paper does), same split and weight
    bare = [e for e in ex if e.key == "arxiv:2601.00001" and not e.text]
    assert [(e.source, e.title, e.split, e.weight, e.id) for e in bare] == [
        ("systems", consensus.title, consensus.split, 0.8, "arxiv:2601.00001#title")]
    assert not [e for e in ex if e.key == "arxiv:2601.00006" and not e.text]     # a random one does not
    # a random-sample record that meets the rule is a systems negative; one that does not stays weak
    assert (ssd.source, ssd.weight) == ("systems", 0.8)
    assert (vision.source, vision.weight) == ("random", 0.3)
    # the listed paper keeps its curator's label; LLM terms (even "inference" in another sense) leave a paper out
    assert {e.source for e in ex if e.key == "arxiv:2601.00003"} == {"curated", "abstract"}
    assert not [e for e in ex if e.key in ("arxiv:2601.00002", "arxiv:2601.00008")]


def _with_labels(corpus: Path, lines: str, body: str = 'file = "team.jsonl"\nweight = 2.5') -> LabelMap:
    (corpus / "label_map.toml").write_text(LABEL_MAP + "[abstracts.labelled]\n" + body + "\n")
    (corpus / "team.jsonl").write_text(lines)
    return LabelMap.load(corpus / "label_map.toml", {"scheduling", "serving-systems", "kv-cache"})


def test_team_labelled_abstracts_take_the_team_labels_in_their_id_split(tmp_path):
    corpus = _corpus(tmp_path)
    lines = "".join(json.dumps(r) + "\n" for r in (
        {"arxiv_id": "2601.00002", "relevance": "primary", "topics": ["scheduling", "serving-systems"]},
        {"arxiv_id": "2601.00001", "relevance": "none", "topics": []},
        {"arxiv_id": "2601.00003", "relevance": "none", "topics": []},       # listed: the curator's label stays
        {"arxiv_id": "2601.00005", "relevance": "primary", "topics": []},    # a dev paper: never trained on
        {"arxiv_id": "2609.99999", "relevance": "primary", "topics": []}))   # no abstract in the corpus
    lm = _with_labels(corpus, lines)
    ex = build(corpus, lm, dev=[{"id": "d1", "title": "Dev Paper On Job Scheduling", "relevance": "none"}])
    team = sorted((e.id, e.relevance, e.topics, e.weight, e.split, bool(e.text))
                  for e in ex if e.source == "labelled")
    sched, consensus = split_of("arxiv:2601.00002"), split_of("arxiv:2601.00001")
    assert team == sorted([
        ("arxiv:2601.00002", "primary", ("scheduling", "serving-systems"), 2.5, sched, True),
        ("arxiv:2601.00002#title", "primary", ("scheduling", "serving-systems"), 2.5, sched, False),
        ("arxiv:2601.00001", "none", (), 2.5, consensus, True),
        ("arxiv:2601.00001#title", "none", (), 2.5, consensus, False)])
    # a labelled paper is no longer a systems negative; the listed one keeps its curator's label
    assert not [e for e in ex if e.key == "arxiv:2601.00001" and e.source == "systems"]
    assert {e.source for e in ex if e.key == "arxiv:2601.00003"} == {"curated", "abstract"}
    assert not [e for e in ex if e.key == "dev:d1" and e.source == "labelled"]


@pytest.mark.parametrize("line, message", [
    ('[1, 2]', "team.jsonl:1: needs arxiv_id"),
    ('{"arxiv_id": "2601.00002", "relevance": "maybe", "topics": []}', "team.jsonl:1: needs arxiv_id"),
    ('{"arxiv_id": "2601.00002", "relevance": "primary", "topics": ["moe"]}', r"unknown topic\(s\) \['moe'\]"),
    ('{"arxiv_id": "2601.00002", "relevance": "none", "topics": ["kv-cache"]}', "carries no topics"),
    ('{"arxiv_id": ', "team.jsonl:1: not a JSON object"),
    ('{"arxiv_id": "2601.00002", "relevance": "none", "topics": []}\n'
     '{"arxiv_id": "2601.00002", "relevance": "primary", "topics": []}', "team.jsonl:2: 2601.00002 is labelled twice"),
])
def test_a_malformed_team_label_is_named_by_file_and_line(tmp_path, line, message):
    with pytest.raises(LabelMapError, match=message):
        _with_labels(_corpus(tmp_path), line + "\n")


def test_the_team_label_file_must_sit_beside_the_label_map(tmp_path):
    with pytest.raises(LabelMapError, match="labelled.file"):
        _with_labels(_corpus(tmp_path), "", 'file = "../elsewhere.jsonl"')


def test_the_shipped_label_map_declares_the_rule():
    lm = LabelMap.load(find_resource("data/label_map.toml"))
    rule = lm.systems_negatives
    assert rule is not None and {"cs.DC", "cs.AR", "cs.OS", "cs.PF", "cs.NI"} <= rule.categories
    assert rule.matches(_abstract("x", "Rethinking Safe Kernel Extensions with eBPF", "A verifier.", ["cs.OS"]))
    for title in ("KV Cache Offloading for Long Contexts", "Serving Large Language Models", "GPT on Chiplets",
                  "Transformer Accelerators"):
        assert not rule.matches(_abstract("x", title, "", ["cs.AR"]))
    assert not rule.matches(_abstract("x", "Byzantine Consensus", "", ["cs.CL"]))


def test_a_malformed_rule_names_its_key(tmp_path):
    (tmp_path / "m.toml").write_text(LABEL_MAP.replace("weight = 0.8", "weight = -1"))
    with pytest.raises(LabelMapError, match="systems_negatives.weight"):
        LabelMap.load(tmp_path / "m.toml")


def _ex(source, relevance, text="t"):
    return Example(key=f"{source}{relevance}", title="x", text=text, relevance=relevance, topics=(),
                   split="val", source=source)


def _primary(Z, offsets):
    logp = np.log(np.stack([relevance_probabilities(z, "hierarchical") for z in Z]))
    return np.argmax(logp + np.array(offsets), axis=1) == 0


def test_the_offsets_keep_systems_negatives_out_of_primary_too():
    # curated primaries (sure), curated negatives (sure) and systems papers the stage-1 heads call related
    # and rather primary: no offset of the grid makes them right, so accuracy alone does not move them
    ex = [_ex("curated", "primary")] * 10 + [_ex("curated", "none")] * 10 + [_ex("systems", "none")] * 10
    Z = np.array([[3.0, 3.0, 0.0]] * 10 + [[0.0, -3.0, 0.0]] * 10 + [[0.75, 3.0, 0.0]] * 10)
    floors = dict(min_primary_recall=0.9, min_negatives_kept=0.95)
    offsets, _ = tune_rules(Z, ex, [], "hierarchical", **floors)
    assert not _primary(Z[20:], offsets).any()          # the systems set is kept out of primary
    assert _primary(Z[:10], offsets).all()               # without losing the curated primaries
    # the same items as random-sample negatives (no floor of their own): nothing keeps them out
    as_random = ex[:20] + [_ex("random", "none")] * 10
    loose, _ = tune_rules(Z, as_random, [], "hierarchical", **floors)
    assert _primary(Z[20:], loose).all()


def test_systems_negatives_come_on_top_of_the_class_balance():
    from pipeline.classify.training.fit import _rel_weights

    def ex(rel, source, weight=1.0):
        return Example(key="k", title="", text="", relevance=rel, topics=(), split="train", source=source,
                       weight=weight)
    base = [ex("primary", "curated")] * 2 + [ex("adjacent", "curated")] * 4 + [ex("none", "curated")] * 6
    before = _rel_weights(base)
    after = _rel_weights(base + [ex("none", "systems", 0.5)] * 20)
    # the curated examples weigh what they did; a systems paper weighs a curated negative's share × its weight
    assert np.allclose(after[:12], before)
    assert np.allclose(after[12:], 0.5 * before[-1])


def test_the_relevance_classes_are_balanced_exactly():
    # each class's factor comes from the weights as given: a rescaled class does not move the next
    # one's (it did: primary was scaled first, and the none class ended up a fifth heavier here)
    from pipeline.classify.training.fit import _rel_weights

    def ex(rel, source="curated", weight=1.0):
        return Example(key="k", title="", text="", relevance=rel, topics=(), split="train", source=source,
                       weight=weight)
    items = ([ex("primary")] * 2 + [ex("adjacent", weight=3.0)] * 4 + [ex("none")] * 30
             + [ex("none", "random", 0.3)] * 10 + [ex("none", "systems")] * 5)
    w = _rel_weights(items)
    rel = np.array([e.relevance for e in items])
    counted = np.array([e.source != "systems" for e in items])
    sums = [w[(rel == r) & counted].sum() for r in ("primary", "adjacent", "none")]
    assert np.allclose(sums, sum(sums) / 3)
    assert np.isclose(sum(sums), 2 + 12 + 30 + 3)           # the total weight is kept


def test_the_licences_and_provenance_are_named_after_the_model_file():
    from pipeline.classify.training.train import beside
    data = Path("data")
    assert beside(data / "classifier_model.npz", "LICENCES.md") == data / "classifier_LICENCES.md"
    assert beside(data / "classifier_model.npz", "provenance.json") == data / "classifier_provenance.json"
    assert beside(Path("/tmp/m.npz"), "LICENCES.md") == Path("/tmp/m_LICENCES.md")


def test_the_texts_line_is_drawn_on_kbs_own_labels_when_there_are_enough():
    """Texts' relevance offsets: kb's labelled items (best accuracy, no floors) once there are MIN_KB_ITEMS of
    them with every level; bare titles, which kb's sets hardly hold, keep the curated floors."""
    from pipeline.classify.training.tuning import MIN_KB_ITEMS, tune_by_regime
    rng = np.random.default_rng(0)

    def items(source, n, text="t"):
        rel = [("primary", "adjacent", "none")[i % 3] for i in range(n)]
        return [Example(key=f"{source}{i}", title="x", text=text, relevance=r, topics=(), split="val",
                        source=source) for i, r in enumerate(rel)]
    floors = dict(min_primary_recall=0.9, min_negatives_kept=0.95)
    for n_dev in (MIN_KB_ITEMS, MIN_KB_ITEMS - 1):
        ex = items("curated", 60) + items("curated", 60, text="") + items("dev", n_dev)
        Z = rng.normal(size=(len(ex), 3))
        texts, titles, _ = tune_by_regime(Z, ex, [], "hierarchical", **floors)
        dev = np.array([e.source == "dev" for e in ex])
        bare = np.array([not e.text for e in ex])
        if n_dev >= MIN_KB_ITEMS:
            assert texts == tune_rules(Z[dev], [e for e, d in zip(ex, dev) if d], [], "hierarchical")[0]
        else:
            assert texts == tune_rules(Z[~bare], [e for e, b in zip(ex, bare) if not b], [], "hierarchical",
                                       **floors)[0]
        assert titles == tune_rules(Z[bare], [e for e, b in zip(ex, bare) if b], [], "hierarchical", **floors)[0]
    # a set of texts only (no bare titles to tune apart) draws the texts' line on kb's items all the same
    ex = items("curated", 60) + items("dev", MIN_KB_ITEMS)
    Z = rng.normal(size=(len(ex), 3))
    texts, _, _ = tune_by_regime(Z, ex, [], "hierarchical", **floors)
    assert texts == tune_rules(Z[60:], ex[60:], [], "hierarchical")[0]
    # with `kb train --own-oof`, kb's labels of corpus papers draw it beside the dev set; without, they do not
    ex = items("curated", 60) + items("dev", MIN_KB_ITEMS // 2) + items("labelled", MIN_KB_ITEMS)
    Z = rng.normal(size=(len(ex), 3))
    own = np.array([e.source != "curated" for e in ex])
    texts, _, _ = tune_by_regime(Z, ex, [], "hierarchical", ("dev", "labelled"), **floors)
    assert texts == tune_rules(Z[own], [e for e, o in zip(ex, own) if o], [], "hierarchical")[0]
    texts, _, _ = tune_by_regime(Z, ex, [], "hierarchical", **floors)
    assert texts == tune_rules(Z, ex, [], "hierarchical", **floors)[0]      # too few dev items: the floors
    # kb's items of one level only cannot draw a line: the floors decide
    ex = items("curated", 60) + [e for e in items("dev", 3 * MIN_KB_ITEMS) if e.relevance == "primary"]
    Z = rng.normal(size=(len(ex), 3))
    texts, _, _ = tune_by_regime(Z, ex, [], "hierarchical", **floors)
    assert texts == tune_rules(Z, ex, [], "hierarchical", **floors)[0]


def test_own_oof_folds_kbs_corpus_labels_over_with_the_dev_set():
    """`--own-oof`: kb's labels of corpus papers get out-of-fold logits (never fitted with their own fold) beside
    the dev set's; without it they are trained on in every fold, as the curated train split is."""
    from pipeline.classify.training.train import out_of_fold_rows
    ex = [Example(key=k, title="x", text="t", relevance="none", topics=(), split=split, source=source)
          for k, split, source in (("c", "train", "curated"), ("l", "train", "labelled"), ("d", "dev", "dev"),
                                   ("v", "val", "curated"), ("s", "train", "systems"))]
    assert out_of_fold_rows(ex, {}) == ([2], [0, 1, 4])
    assert out_of_fold_rows(ex, {"own_oof": True}) == ([1, 2], [0, 4])


def test_the_shipped_team_labels_are_valid_and_all_in_the_train_split():
    from pipeline.classify.training.fit import taxonomy_term_groups
    _, topics = taxonomy_term_groups(find_resource("data/taxonomy.toml"))
    lm = LabelMap.load(find_resource("data/label_map.toml"), set(topics))     # checks every line's topics
    labels = lm.labelled.load()
    assert len(labels) == 600 and all(split_of(f"arxiv:{aid}") == "train" for aid in labels)


def _with_held_out(corpus: Path, labelled: str, held: str, body: str = 'file = "held.jsonl"') -> LabelMap:
    (corpus / "label_map.toml").write_text(LABEL_MAP + '[abstracts.labelled]\nfile = "team.jsonl"\nweight = 2.5\n'
                                           + "[abstracts.held_out]\n" + body + "\n")
    (corpus / "team.jsonl").write_text(labelled)
    (corpus / "held.jsonl").write_text(held)
    return LabelMap.load(corpus / "label_map.toml", {"scheduling", "serving-systems", "kv-cache"})


def test_held_out_team_labels_are_only_measured_never_trained_on(tmp_path):
    """A held-out paper gives one untrainable test example (title and abstract) of its stratum, and no other row
    of it trains: not the random-sample negative it would be, not the systems negative, not a curator's row (the
    paper is measured by kb's label instead)."""
    corpus = _corpus(tmp_path)
    held = "".join(json.dumps(r) + "\n" for r in (
        {"arxiv_id": "2601.00006", "relevance": "none", "topics": [], "stratum": "random"},
        {"arxiv_id": "2601.00001", "relevance": "adjacent", "topics": ["scheduling"], "stratum": "uncertain"},
        {"arxiv_id": "2601.00003", "relevance": "primary", "topics": ["serving-systems"]}))   # a curated paper
    lm = _with_held_out(corpus, "", held)
    assert lm.held_out.strata() == {"2601.00006": "random", "2601.00001": "uncertain"}
    ex = build(corpus, lm)
    held_rows = sorted((e.key, e.source, e.split, e.trainable, bool(e.text), e.relevance, e.topics)
                       for e in ex if e.source.startswith("heldout-"))
    assert held_rows == [("arxiv:2601.00001", "heldout-uncertain", "test", False, True, "adjacent", ("scheduling",)),
                         ("arxiv:2601.00003", "heldout-other", "test", False, True, "primary", ("serving-systems",)),
                         ("arxiv:2601.00006", "heldout-random", "test", False, True, "none", ())]
    for key in ("arxiv:2601.00001", "arxiv:2601.00003", "arxiv:2601.00006"):
        assert not [e for e in ex if e.key == key and e.trainable], key
    assert "kb's held-out labels: 3" in summarise(ex)


def test_a_paper_both_trained_on_and_held_out_is_refused(tmp_path):
    line = json.dumps({"arxiv_id": "2601.00002", "relevance": "primary", "topics": []}) + "\n"
    corpus = _corpus(tmp_path)
    with pytest.raises(LabelMapError, match="abstracts.held_out: 2601.00002 is also trained on"):
        _with_held_out(corpus, line, line)
    with pytest.raises(LabelMapError, match=r"abstracts.held_out: unknown key\(s\) \['weight'\]"):
        _with_held_out(corpus, "", "", 'file = "held.jsonl"\nweight = 3')
    with pytest.raises(LabelMapError, match="its abstracts.held_out.file"):
        _with_held_out(corpus, "", "", 'file = "missing.jsonl"')


def test_held_out_labels_name_their_stratum_rightly_and_keep_the_dev_set_apart(tmp_path):
    """A misspelled stratum would leave its paper out of every measurement, quietly; a dev item that is a
    held-out paper would train on what is measured."""
    corpus = _corpus(tmp_path)
    row = {"arxiv_id": "2601.00006", "relevance": "none", "topics": [], "stratum": "Random"}
    with pytest.raises(LabelMapError, match=r"held.jsonl:1: stratum 'Random': one of random, uncertain"):
        _with_held_out(corpus, "", json.dumps(row) + "\n")
    lm = _with_held_out(corpus, "", json.dumps({**row, "stratum": "random"}) + "\n")
    assert lm.with_policy("permissive").held_out == lm.held_out
    dev = [{"id": "d9", "title": "Random sampled paper on vision", "relevance": "none"}]
    with pytest.raises(LabelMapError, match="dev item d9: it is a paper of abstracts.held_out"):
        build(corpus, lm, dev=dev)


def test_the_shipped_held_out_labels_are_valid_and_apart_from_the_trained_ones():
    from collections import Counter

    from pipeline.classify.training.fit import taxonomy_term_groups
    _, topics = taxonomy_term_groups(find_resource("data/taxonomy.toml"))
    lm = LabelMap.load(find_resource("data/label_map.toml"), set(topics))   # checks every line, and no overlap
    held = lm.held_out.load()
    assert len(held) == 640 and not held.keys() & lm.labelled.load().keys()
    assert Counter(lm.held_out.strata().values()) == {"uncertain": 480, "random": 160}


def test_a_team_label_outside_the_train_split_is_left_out(tmp_path):
    corpus = _corpus(tmp_path)
    held = next(a for a in (f"2601.000{n:02d}" for n in range(1, 9)) if split_of(f"arxiv:{a}") != "train")
    lm = _with_labels(corpus, json.dumps({"arxiv_id": held, "relevance": "primary", "topics": []}) + "\n")
    assert not [e for e in build(corpus, lm) if e.source == "labelled"]


def test_the_dev_and_holdout_files_are_read_as_kb_eval_reads_them(tmp_path, monkeypatch):
    """--dev and --holdout were read line by line with json.loads: a byte-order mark or a broken line was a
    JSONDecodeError traceback (kb train: an internal error, exit 70), a typo'd topic trained silently.
    They are labelled files like kb eval's: the mark is dropped, a bad line is named by file and line,
    before anything is fitted."""
    from kb.errors import ConfigError
    from pipeline.classify.training import train as training
    (tmp_path / "corpus").mkdir()
    corpus = _corpus(tmp_path / "corpus")
    row = {"id": "d1", "title": "Paged KV", "text": "", "topics": ["kv-cache"], "relevance": "primary"}
    dev = tmp_path / "dev.jsonl"
    dev.write_bytes(b"\xef\xbb\xbf" + (json.dumps(row) + "\n").encode("utf-8"))
    seen = {}

    class Built(Exception):
        pass

    def build(corpus, lm, *, dev, holdout, **kw):
        seen.update(dev=dev, holdout=holdout)
        raise Built
    monkeypatch.setattr(training, "build", build)
    args = (corpus, corpus / "label_map.toml", find_resource("data/taxonomy.toml"))
    with pytest.raises(Built):
        training.train(*args, dev=dev, holdout=dev)
    assert seen == {"dev": [row], "holdout": [row]}
    for bad, words in (('{"id": "d2", broken\n', "dev.jsonl:2: not JSON"),
                       (json.dumps({**row, "topics": ["kv-cahce"]}) + "\n", "dev.jsonl:2: topic 'kv-cahce'")):
        dev.write_text(json.dumps(row) + "\n" + bad, encoding="utf-8")
        for which in ("dev", "holdout"):
            with pytest.raises(ConfigError, match=words):
                training.train(*args, **{which: dev})


@pytest.mark.parametrize("damage, said", [
    (b"[lists.alist]\nlicence = \"MIT\nsecret = 'a private note'\n", r"m\.toml:2: not valid TOML: .*\(column \d+\)$"),
    (b"schema = 1\n# \xe9quipe: secret = 'a private note'\n", r"m\.toml:2: not UTF-8 text \(byte 0xe9 at column 3\)$"),
])
def test_a_broken_label_map_is_one_line_through_kbs_helper(tmp_path, damage, said):
    """A label map that is not TOML (or not UTF-8) was tomllib's or the decoder's exception: kb train ended
    in an internal error (exit 70). It is now kb's one ``file:line: …`` line (exit 2), as kb.toml and the
    taxonomy say it, without the file's contents."""
    from kb.errors import ConfigError
    (tmp_path / "m.toml").write_bytes(damage)
    with pytest.raises(ConfigError, match=said) as caught:
        LabelMap.load(tmp_path / "m.toml")
    assert caught.value.exit_code == 2 and "secret" not in str(caught.value) and "\n" not in str(caught.value)


def test_kb_says_a_broken_label_map_in_one_line_and_exits_2(tmp_path, monkeypatch, capsys):
    """Through the CLI (kb eval classifier --split reads the label map as kb train does): one line on stderr,
    exit 2, no traceback."""
    import kb.resources
    from kb.cli import main
    corpus = _corpus(tmp_path)
    (tmp_path / "label_map.toml").write_text('[lists.alist]\nlicence = "MIT\n')
    shipped = kb.resources.find_resource
    monkeypatch.setattr(kb.resources, "find_resource", lambda relative, workspace=None: (
        tmp_path / "label_map.toml" if relative == "data/label_map.toml" else shipped(relative, workspace)))
    with pytest.raises(SystemExit) as ended:
        main(["eval", "classifier", "--corpus", str(corpus), "--split", "test", "--model", "keyword"])
    err = capsys.readouterr().err
    assert ended.value.code == 2, err
    assert err.count("\n") == 1 and f"{tmp_path / 'label_map.toml'}:2: not valid TOML" in err, err
    assert "Traceback" not in err
