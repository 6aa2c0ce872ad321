"""`kb label`, `kb train`, `kb eval classifier|sections|flags` as a user meets them: what each option
refuses (one line, its exit code, nothing written) and what each prints."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path

import pytest

from kb.resources import find_resource
from pipeline.classify.model import Model
from tests.reliability.support import kb_inproc, one_error_line
from tests.support.paths import LABELLED, SAMPLE

DAY = "2026-10-08"
SPEC = "2610.08812"        # TreeDraft: token-tree speculative decoding (the sample day's arXiv listing)
HOLDOUT = LABELLED / "classifier_holdout.jsonl"


def kb(home: Path, *args: str, code: int = 0):
    result = kb_inproc("--home", str(home), *args)
    assert result.returncode == code, (args, result.returncode, result.stdout, result.stderr)
    return result


def error(home: Path, *args: str, code: int = 2) -> str:
    """The one line a refused command prints."""
    return one_error_line(kb(home, *args, code=code).stderr)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample day ingested and classified (the keyword classifier, kb.toml's default)."""
    home = tmp_path_factory.mktemp("classify") / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    kb(home, "ingest", "all", "--offline", "--date", DAY)
    kb(home, "classify")
    return home


# ---------------------------------------------------------------------------------------------- kb label
@pytest.mark.parametrize(("args", "code", "words"), [
    ([SPEC, "--uncertain", "3"], 2, "--uncertain lists items; it takes no ID or --relevance"),
    (["--uncertain", "3", "--relevance", "none"], 2, "--uncertain lists items; it takes no ID or --relevance"),
    ([SPEC], 2, "give an ID and --relevance primary|adjacent|none"),
    (["--relevance", "primary"], 2, "give an ID and --relevance primary|adjacent|none"),
    ([SPEC, "--relevance", "none", "--topic", "kv-cache"], 2, "--relevance none keeps no topics"),
    (["2610.99999", "--relevance", "none"], 1, "2610.99999 is not in the store"),     # a real ID, never ingested
    (["--uncertain", "3"], 2, "needs the learned classifier"),                       # the keyword scorer has no doubt
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_label_refuses_what_it_cannot_do_in_one_line(sample: Path, args: list[str], code: int, words: str) -> None:
    line = error(sample, "label", *args, code=code)
    assert line.startswith("kb: error: ") and words in line, line
    assert not (sample / "organized" / "labels").exists()


@pytest.mark.parametrize(("ident", "code", "words"), [
    ("", 2, "give an ID: an arXiv ID, a post key or a note entry as path#N"),   # was "kb: error:  is not in …", 1
    ("  ", 2, "give an ID"),
    ("2699.99999", 2, "'2699.99999' is not an arXiv ID"),                          # month 99: no paper has it (was 1)
    ("2610.99999", 1, "2610.99999 is not in the store"),                           # one that could be: not found
], ids=["empty", "blank", "impossible", "absent"])
def test_explain_refuses_an_id_as_label_does(sample: Path, ident: str, code: int, words: str) -> None:
    for command in ("explain", "label"):
        args = [command, ident] + (["--relevance", "none"] if command == "label" else [])
        line = error(sample, *args, code=code)
        assert line.startswith("kb: error: ") and words in line, (command, line)


@pytest.mark.parametrize("args", [["label", SPEC, "--relevance", "none", "--by", "\udcff"],
                                  ["label", "caf\udce9", "--relevance", "none"], ["explain", "caf\udce9"],
                                  ["label", SPEC, "--relevance", "none", "--note", "caf\udce9"],
                                  ["flags", "resolve", "1", "--as", "verified", "--note", "\udcff"]])
def test_text_that_is_not_utf8_is_a_usage_error(sample: Path, args: list[str]) -> None:
    """A note or a name in a Latin-1 terminal was an internal error (exit 70) when its line was written."""
    line = error(sample, *args)
    assert "is not UTF-8 text" in line and "\\x" in line, line
    assert not (sample / "organized" / "labels").exists()


@pytest.mark.parametrize("command", [["show"], ["explain"], ["label", "--relevance", "none"]])
def test_an_id_argument_is_shortened_in_its_error_line(sample: Path, command: list[str]) -> None:
    """A pasted 5,000-character argument came back whole in the one error line."""
    line = error(sample, *command, "9" * 5000, code=2 if command == ["show"] else 1)
    assert len(line) < 300 and "9" * 79 + "…" in line, line


def test_label_takes_a_topic_of_the_workspaces_own_taxonomy(sample: Path, tmp_path: Path) -> None:
    """A topic the workspace's taxonomy.toml adds is a topic kb label accepts, and the line says so."""
    home = Path(shutil.copytree(sample, tmp_path / "ws"))
    assert "is no topic of the taxonomy" in error(home, "label", SPEC, "--relevance", "primary", "--topic", "tree-draft")
    (home / "taxonomy.toml").write_text('[topics.tree-draft]\ntitle_en = "Token trees"\ntitle_zh = "令牌树"\n'
                                        '[topics.tree-draft.terms]\n"token tree" = 3\n', encoding="utf-8")
    out = kb(home, "label", SPEC, "--relevance", "primary", "--topic", "tree-draft").stdout
    assert out.startswith(f"labelled arXiv:{SPEC} for inference: primary [tree-draft] — TreeDraft: Load-Adaptive "
                          "Token-Tree Speculative Decoding… (")    # was cut mid-title, "… Decoding for (", no "…"
    assert "the keyword scorer reads no labels" in out
    line = json.loads((home / "organized" / "labels" / "inference.jsonl").read_text(encoding="utf-8"))
    assert (line["id"], line["relevance"], line["topics"]) == (f"arXiv:{SPEC}", "primary", ["tree-draft"])


def test_label_records_who_labelled(sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A correction's "by" was left out, so the team could not see who labelled what: now the login name, or
    --by NAME; a rerun names who wrote the line in force, and a line without "by" (older, or by hand) still
    reads."""
    home = Path(shutil.copytree(sample, tmp_path / "ws"))
    labels = home / "organized" / "labels" / "inference.jsonl"
    labels.parent.mkdir(parents=True)
    labels.write_text(f'{{"id": "arXiv:{SPEC}", "relevance": "adjacent", "date": "2026-10-01"}}\n', encoding="utf-8")
    for var in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LOGNAME", "alice")
    assert "already labelled adjacent for inference (since 2026-10-01):" in kb(home, "label", SPEC, "--relevance",
                                                                                "adjacent").stdout
    kb(home, "label", SPEC, "--relevance", "none")
    kb(home, "label", "2610.09701", "--relevance", "primary", "--by", "jay")
    lines = [json.loads(line) for line in labels.read_text(encoding="utf-8").splitlines()]
    assert [line.get("by") for line in lines] == [None, "alice", "jay"], lines
    again = kb(home, "label", SPEC, "--relevance", "none").stdout
    assert f"already labelled none for inference (since {lines[1]['date']}, by alice):" in again, again


@pytest.mark.parametrize("link", ["symbolic", "hard"])
def test_label_refuses_a_labels_file_that_is_a_link(sample: Path, tmp_path: Path, link: str) -> None:
    """kb appends to a file of its own only: a link inside the workspace would have it append JSON to the
    team's knowledge doc (a link out of the workspace is refused as a path outside it)."""
    home = Path(shutil.copytree(sample, tmp_path / "ws"))
    doc = home / "organized" / "knowledge" / "inference.md"
    before = doc.read_bytes()
    (home / "organized" / "labels").mkdir(parents=True)
    labels = home / "organized" / "labels" / "inference.jsonl"
    labels.symlink_to(doc) if link == "symbolic" else labels.hardlink_to(doc)
    line = error(home, "label", SPEC, "--relevance", "none")
    assert "organized/labels/inference.jsonl: not a regular file of its own; kb appends only to one" in line, line
    assert doc.read_bytes() == before


def test_label_names_a_line_of_the_labels_file_it_skips(sample: Path, tmp_path: Path) -> None:
    """A broken line of the team's labels file was skipped in silence by `kb label`, though the docs say it is
    named: now one warning with file:line on stderr, the other lines still read, the exit code a normal run's.
    The classify stage names the same line once, in the same words."""
    home = Path(shutil.copytree(sample, tmp_path / "ws"))
    labels = home / "organized" / "labels" / "inference.jsonl"
    labels.parent.mkdir(parents=True)
    labels.write_text(f'{{"id": "arXiv:{SPEC}", "relevance": "none"}}\n{{"id": "arXiv:{SPEC}", "relevance": \n',
                      encoding="utf-8")
    before = labels.read_bytes()
    result = kb(home, "label", SPEC, "--relevance", "none")
    assert result.stdout.startswith(f"arXiv:{SPEC} is already labelled none")    # line 1 is still in force
    [warned] = result.stderr.splitlines()
    assert warned.endswith("organized/labels/inference.jsonl:2: not a JSON object: line skipped"), warned
    assert labels.read_bytes() == before
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[classify]\nmodel = "learned"\n')
    named = [line for line in kb(home, "classify").stderr.splitlines() if "inference.jsonl" in line]
    assert len(named) == 1 and named[0].endswith(warned.split(": ", 1)[1]), named


# ---------------------------------------------------------------------------------------------- kb train
def test_train_and_cross_validation_without_scikit_learn_say_what_to_install(sample: Path, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec   # an install without kb[train], wherever the tests run
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name in ("sklearn", "scipy")
                        else real(name, *a))
    (tmp_path / "curated_lists").mkdir()
    assert "kb train needs scikit-learn and scipy: pip install 'kb[train]'" in error(
        sample, "train", "--corpus", str(tmp_path), "--out", str(tmp_path / "m.npz"))
    # --cv trains K models: the missing module is a usage error, not an internal one
    assert "kb eval classifier --cv needs scikit-learn and scipy" in error(
        sample, "eval", "classifier", "--corpus", str(tmp_path), "--cv", "3")
    assert not (tmp_path / "m.npz").exists()


def test_train_refuses_a_folder_that_is_no_corpus_and_passes_its_options_on(sample: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With kb[train] installed: the corpus is checked, then every option reaches the trainer."""
    import importlib.machinery

    import pipeline.classify.training.train as train
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: importlib.machinery.ModuleSpec(name, None)
                        if name in ("sklearn", "scipy") else real(name, *a))
    assert f"--corpus {tmp_path}: not a corpus folder" in error(sample, "train", "--corpus", str(tmp_path),
                                                                "--out", "m.npz")
    assert f"--corpus {tmp_path}: not a corpus folder" in error(sample, "eval", "classifier", "--corpus",
                                                                str(tmp_path), "--cv", "3")
    (tmp_path / "curated_lists").mkdir()
    seen: list[list[str]] = []
    monkeypatch.setattr(train, "main", lambda argv: seen.append(argv) or 3)
    kb(sample, "train", "--corpus", str(tmp_path), "--out", "m.npz", "--dev", "d.jsonl", "--holdout", "h.jsonl",
       "--licences", "permissive", "--measured-out", "measured.npz", code=3)      # the trainer's exit code
    assert seen == [["--corpus", str(tmp_path), "--out", "m.npz", "--licences", "permissive", "--dev", "d.jsonl",
                     "--holdout", "h.jsonl", "--measured-out", "measured.npz"]]


@pytest.mark.parametrize(("shipped", "mistake", "words"), [
    ('use = "train"', 'use = "trian"',
     "abstracts.sources.70asunflower__daily-arXiv-ai-enhanced.use: must be one of ('train', 'eval', 'exclude')"),
    ('topics = ["parallelism"]', 'topics = ["paralellism"]',
     "lists.xlite-dev__Awesome-LLM-Inference: unknown topic(s) ['paralellism']"),
    ('topics = ["parallelism"] }', 'topics = ["parallelism"] }, "Multi-GPUs"', "lists.xlite-dev__Awesome-LLM-Inference"
     ".rules[3]: a table is needed, not a str"),
])
@pytest.mark.parametrize("command", [["train", "--out", "m.npz"], ["eval", "classifier", "--model", "keyword",
                                                                    "--split", "test"]])
def test_a_mistake_in_the_label_map_is_one_line_naming_the_file_and_key(
        sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shipped: str, mistake: str, words: str,
        command: list[str]) -> None:
    """A bad `use`, an unknown topic or a rule that is no table in data/label_map.toml ended `kb train` and
    `kb eval classifier --split` as an internal error (exit 70) that named no file: now one line, the file, the
    table and key, exit 2."""
    import importlib.machinery

    import kb.resources
    real_spec, real_find = importlib.util.find_spec, kb.resources.find_resource
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: importlib.machinery.ModuleSpec(name, None)
                        if name in ("sklearn", "scipy") else real_spec(name, *a))    # kb[train] or not
    text = real_find("data/label_map.toml").read_text(encoding="utf-8")
    assert shipped in text
    bad = tmp_path / "label_map.toml"
    bad.write_text(text.replace(shipped, mistake, 1), encoding="utf-8")
    shutil.copy(real_find("data/corpus_labels.jsonl"), tmp_path)    # the label map's [abstracts.labelled] file
    monkeypatch.setattr(kb.resources, "find_resource", lambda relative, *a: bad if relative == "data/label_map.toml"
                        else real_find(relative, *a))
    corpus = tmp_path / "corpus"
    (corpus / "curated_lists").mkdir(parents=True)
    line = error(sample, *command[:-2], "--corpus", str(corpus), *command[-2:])
    assert line == f"kb: error: {bad}: {words}", line
    assert not (tmp_path / "m.npz").exists()


@pytest.mark.parametrize("command", [["train", "--out", "m.npz"], ["eval", "classifier", "--model", "keyword",
                                                                    "--split", "test"]])
def test_a_team_label_file_that_is_not_utf8_is_one_line_naming_its_line(
        sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    """The label map's [abstracts.labelled] file saved in Latin-1 ended `kb train` as an internal error (exit 70,
    UnicodeDecodeError): now one line, the file, the line and the byte, exit 2, as the label map itself says it."""
    import importlib.machinery

    import kb.resources
    real_spec, real_find = importlib.util.find_spec, kb.resources.find_resource
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: importlib.machinery.ModuleSpec(name, None)
                        if name in ("sklearn", "scipy") else real_spec(name, *a))    # kb[train] or not
    label_map = tmp_path / "label_map.toml"
    shutil.copy(real_find("data/label_map.toml"), label_map)
    first = real_find("data/corpus_labels.jsonl").read_bytes().split(b"\n")[0]
    labels = tmp_path / "corpus_labels.jsonl"
    labels.write_bytes(first + b'\n{"arxiv_id": "2601.00002", "relevance": "none", "topics": [], "note": "caf\xe9"}\n')
    monkeypatch.setattr(kb.resources, "find_resource", lambda relative, *a: label_map
                        if relative == "data/label_map.toml" else real_find(relative, *a))
    corpus = tmp_path / "corpus"
    (corpus / "curated_lists").mkdir(parents=True)
    line = error(sample, *command[:-2], "--corpus", str(corpus), *command[-2:])
    assert line == f"kb: error: {labels}:2: not UTF-8 text (byte 0xe9 at column 75)", line
    assert not (tmp_path / "m.npz").exists()


# ---------------------------------------------------------------------------------------------- kb eval
@pytest.mark.parametrize(("args", "words"), [
    ([str(HOLDOUT), "--model", "bayes"], "--model 'bayes': learned or keyword"),
    (["--split", "test"], "--split and --cv need --corpus DIR"),
    (["--cv", "3"], "--split and --cv need --corpus DIR"),
    ([], "give a FILE of labelled items, or --corpus DIR with --split or --cv"),
    # the option's own mistake is named, not the shipped model's fitting (it was: "fitted on every split")
    (["--corpus", "{corpus}", "--split", "tset"], "--split tset: train, val or test"),
    (["--corpus", "{corpus}", "--split", "test", "--source", "blogs"], "--source blogs: curated, systems, random"),
    (["--corpus", "{home}", "--split", "test"], "not a corpus folder"),
    (["--corpus", "{corpus}", "--split", "val", "--source", "heldout"], "are measured as the test split"),
    # an empty split is no figures of zeros (it printed "items 0 … micro-F1 0.000" and exit 0)
    (["--corpus", "{corpus}", "--split", "test", "--model", "keyword"], "no curated papers in the test split"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_eval_classifier_refuses_what_it_cannot_measure(sample: Path, tmp_path: Path, args: list[str],
                                                        words: str) -> None:
    (tmp_path / "curated_lists").mkdir()
    args = [a.format(corpus=tmp_path, home=sample) for a in args]
    line = error(sample, "eval", "classifier", *args)
    assert words in line, line


def test_eval_classifier_prints_the_figures_as_a_table_or_as_json(sample: Path) -> None:
    n = sum(1 for line in HOLDOUT.read_text(encoding="utf-8").splitlines() if line.strip())
    data = json.loads(kb(sample, "eval", "classifier", str(HOLDOUT), "--format", "json").stdout)
    assert data["n"] == len(data["items"]) == n and 0.85 <= data["relevance_accuracy"] <= 1
    table = kb(sample, "eval", "classifier", str(HOLDOUT)).stdout
    assert f"items {n}" in table and f"relevance accuracy {data['relevance_accuracy']:.3f}" in table
    keyword = json.loads(kb(sample, "eval", "classifier", str(HOLDOUT), "--model", "keyword", "--format",
                            "json").stdout)
    assert keyword["n"] == n and keyword["relevance_accuracy"] != data["relevance_accuracy"]


def test_eval_classifier_merges_a_taxonomy_override_for_the_keyword_model(sample: Path, tmp_path: Path) -> None:
    """--taxonomy: the keyword scorer over the shipped taxonomy with the override merged on top."""
    item = {"id": "x", "title": "Zorblax: a frobnicator", "text": "We frobnicate zorblax.", "topics": ["kv-cache"],
            "relevance": "primary"}
    labelled = tmp_path / "one.jsonl"
    labelled.write_text(json.dumps(item) + "\n", encoding="utf-8")
    override = tmp_path / "taxonomy.toml"
    override.write_text('[topics.kv-cache.terms]\n"zorblax" = 9\n"frobnicate" = 9\n', encoding="utf-8")

    def topics(*extra: str) -> list[str]:
        out = kb(sample, "eval", "classifier", str(labelled), "--model", "keyword", "--format", "json", *extra)
        return json.loads(out.stdout)["items"][0]["topics"]
    assert "kv-cache" not in topics()
    assert "kv-cache" in topics("--taxonomy", str(override))


def test_eval_classifier_takes_another_model_file_and_names_a_damaged_one(sample: Path, tmp_path: Path) -> None:
    shipped = Model.load(find_resource("data/classifier_model.npz"))
    copy = tmp_path / "copy.npz"
    shipped.save(copy)      # weights stored as float16, as shipped: the same figures
    ours = json.loads(kb(sample, "eval", "classifier", str(HOLDOUT), "--model-file", str(copy), "--format",
                         "json").stdout)
    theirs = json.loads(kb(sample, "eval", "classifier", str(HOLDOUT), "--format", "json").stdout)
    assert ours["relevance_accuracy"] == theirs["relevance_accuracy"] and ours["micro_f1"] == theirs["micro_f1"]
    shipped.meta = {**shipped.meta, "feature_version": 0}
    shipped.save(copy)
    assert "trained with features v0" in error(sample, "eval", "classifier", str(HOLDOUT), "--model-file", str(copy))
    text = tmp_path / "kb.toml"
    text.write_text("[classify]\n", encoding="utf-8")   # numpy took it for a pickle and said so ("allow_pickle")
    said = error(sample, "eval", "classifier", str(HOLDOUT), "--model-file", str(text))
    assert "not a kb classifier model (kb train writes an .npz file)" in said and "pickle" not in said
    import numpy as np
    np.savez(tmp_path / "foreign.npz", a=np.zeros(3))   # numpy's own words were "'vocab is not a file in the archive'"
    said = error(sample, "eval", "classifier", str(HOLDOUT), "--model-file", str(tmp_path / "foreign.npz"))
    assert said.endswith("foreign.npz: not a kb classifier model: it has no vocab array"), said


def test_eval_sections_takes_a_topic_of_the_workspace(sample: Path) -> None:
    by_slug = kb(sample, "eval", "sections", "inference").stdout
    by_file = kb(sample, "eval", "sections", str(sample / "organized" / "knowledge" / "inference.md")).stdout
    assert by_slug == by_file and "anchored items in" in by_slug.splitlines()[-2]
    assert "nope: no such file, and no topic 'nope' in kb.toml" in error(sample, "eval", "sections", "nope")


def test_eval_sections_measures_either_way_and_says_which_one_the_briefings_use(sample: Path) -> None:
    """The doc's own section models (the learned classifier's way) or the topics' section hints (the keyword
    classifier's, this workspace's): the same leave-one-out, each named; the table says which way the
    workspace's briefings suggest."""
    learned = kb(sample, "eval", "sections", "inference").stdout.splitlines()
    hints = kb(sample, "eval", "sections", "inference", "--method", "hints").stdout.splitlines()
    assert learned[-2].endswith("(the doc's own section models)")
    assert learned[-1] == ("this workspace's briefings ([classify] model = \"keyword\") suggest by the topics' "
                           "section hints: --method hints")
    assert hints[-1].endswith("(the topics' section hints)") and "anchored items in" in hints[-1]
    as_json = json.loads(kb(sample, "eval", "sections", "inference", "--method", "hints", "--format", "json").stdout)
    assert as_json["method"] == "hints" and as_json["n"] == len(as_json["items"]) > 0
    assert 0 <= as_json["top1"] <= as_json["top3"] <= 1
    # each miss is listed with what the hints put first, as for the learned way
    misses = [it for it in as_json["items"] if not it["top1"]]
    assert len(misses) == round((1 - as_json["top1"]) * as_json["n"])
    assert "error" in error(sample, "eval", "sections", "inference", "--method", "centroid")


@pytest.fixture
def learned_read_only(tmp_path: Path):
    """The sample after its nightly with the learned classifier, the doc model's cache gone (so a run would
    refit and cache it), then its .kb/ and store unwritable for this user (0555 folders, 0444 files)."""
    home = tmp_path / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[classify]\nmodel = "learned"\n')
    kb(home, "nightly", "--date", DAY, "--offline")
    (home / ".kb" / "models" / "inference.json").unlink()
    paths = [home / ".kb", *(home / ".kb").rglob("*")]
    for p in paths:
        p.chmod(0o555 if p.is_dir() else 0o444)
    yield home
    for p in paths:     # pytest removes what it made
        p.chmod(0o755 if p.is_dir() else 0o644)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes whatever the permissions say")
def test_uncertain_and_eval_sections_run_on_a_store_this_user_may_only_read(learned_read_only: Path) -> None:
    """Both only read: a member who may only read the store lists what to label next and measures the
    doc's sections; the doc model's cache they cannot write is skipped, not an error."""
    rows = json.loads(kb(learned_read_only, "label", "--uncertain", "5", "--format", "json").stdout)
    assert len(rows) == 5 and all(r["id"] for r in rows)
    assert not (learned_read_only / ".kb" / "models" / "inference.json").exists()
    out = kb(learned_read_only, "eval", "sections", "inference").stdout
    assert "anchored items in" in out.splitlines()[-1]


def test_eval_classifier_refuses_a_relevance_it_does_not_know_by_file_and_line(sample: Path, tmp_path: Path) -> None:
    """A relevance such as "maybe" was an internal error (KeyError, exit 70) when the figures were counted."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "a", "title": "KV cache offload", "relevance": "primary", "topics": ["kv-cache"]}\n'
                    '{"id": "b", "title": "Paged KV", "relevance": "maybe", "topics": []}\n', encoding="utf-8")
    line = error(sample, "eval", "classifier", str(rows), "--model", "keyword")
    assert line == f"kb: error: {rows}:2: relevance must be primary, adjacent or none, not 'maybe'", line


@pytest.mark.parametrize("model", ["learned", "keyword"])
def test_eval_classifier_refuses_a_topic_the_classifier_does_not_know_by_file_and_line(sample: Path, tmp_path: Path,
                                                                                      model: str) -> None:
    """A typo such as "kv-cahce" was measured: a support-1 row no classifier can predict, lowering micro- and
    macro-F1, exit 0. It is a mistake in the labels, named as a bad relevance is."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "a", "title": "KV cache offload", "relevance": "primary", "topics": ["kv-cache"]}\n'
                    '{"id": "b", "title": "Paged KV", "relevance": "primary", "topics": ["moe", "kv-cahce"]}\n',
                    encoding="utf-8")
    line = error(sample, "eval", "classifier", str(rows), "--model", model)
    assert line == f"kb: error: {rows}:2: topic 'kv-cahce' is no topic of the classifier's taxonomy", line


def test_eval_classifier_takes_a_topic_the_taxonomy_override_adds(sample: Path, tmp_path: Path) -> None:
    """--taxonomy (keyword model): the override's own topics are the classifier's too."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "a", "title": "Zorblax", "relevance": "primary", "topics": ["zorblax"]}\n',
                    encoding="utf-8")
    override = tmp_path / "taxonomy.toml"
    override.write_text('[topics.zorblax]\ntitle_en = "Zorblax"\ntitle_zh = "Zorblax"\n[topics.zorblax.terms]\n"zorblax" = 9\n',
                        encoding="utf-8")
    out = kb(sample, "eval", "classifier", str(rows), "--model", "keyword", "--taxonomy", str(override),
             "--format", "json")
    assert json.loads(out.stdout)["per_topic"]["zorblax"]["support"] == 1


def test_uncertain_as_json_gives_each_items_topics_as_a_list(sample: Path, tmp_path: Path) -> None:
    """`kb label --uncertain N --format json` gave topics as one string ("kv-cache, serving-systems"), which a
    script had to split again; a list, as the labels file writes them. The table still joins them."""
    home = Path(shutil.copytree(sample, tmp_path / "ws"))
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[classify]\nmodel = "learned"\n')
    rows = json.loads(kb(home, "label", "--uncertain", "20", "--format", "json").stdout)
    assert rows and all(isinstance(r["topics"], list) and all(isinstance(t, str) for t in r["topics"])
                        for r in rows)
    several = next(r for r in rows if len(r["topics"]) > 1)
    table = kb(home, "label", "--uncertain", "20").stdout
    assert ", ".join(several["topics"]) in table


# ---------------------------------------------------------------------------------------------- kb eval flags
@pytest.fixture(scope="module")
def briefed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample day after its nightly: the day `kb eval flags` measures is in the store."""
    home = tmp_path_factory.mktemp("flags") / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    return home


FLAGS_LABELS = (f'[day]\ndate = {DAY}\ntopic = "inference"\nexhaustive = ["id-conflict"]\n\n'
                '[[flag]]\nrule = "id-conflict"\nmatch = ["2610"]\nwhy = "two IDs for one name"\n')


def test_eval_flags_reads_a_labels_file_saved_with_a_byte_order_mark(briefed: Path, tmp_path: Path) -> None:
    """Notepad's "UTF-8" writes a BOM: the file was line 1's "not TOML: Invalid statement", exit 2, though kb.toml
    and the JSONL labels of `kb eval classifier` read with one."""
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(FLAGS_LABELS, encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + FLAGS_LABELS.encode("utf-8"))
    expected = kb(briefed, "eval", "flags", str(plain), "--format", "json").stdout
    assert json.loads(expected)["rules"]["id-conflict"]["expected"] == 1
    assert kb(briefed, "eval", "flags", str(marked), "--format", "json").stdout == expected


def test_eval_flags_names_the_line_of_a_labels_file_that_is_not_toml(briefed: Path, tmp_path: Path) -> None:
    """BOM or not, a file that is no TOML is one line naming the file and the line, exit 2."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xef\xbb\xbf" + FLAGS_LABELS.replace('why = "two', 'why = two').encode("utf-8"))
    line = error(briefed, "eval", "flags", str(bad))
    assert line.startswith(f"kb: error: {bad}:9: not valid TOML: ") and "(column 7)" in line, line


def test_eval_classifier_refuses_an_item_without_a_relevance_by_file_and_line(sample: Path, tmp_path: Path) -> None:
    """A line that forgot its relevance was counted as a gold "none" (a negative nobody labelled), exit 0;
    it is refused as a misspelled one is. An explicit "none" is a label like the others."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"id": "a", "title": "KV cache offload", "relevance": "primary", "topics": ["kv-cache"]}\n'
                    '{"id": "b", "title": "Protein folding", "relevance": "none", "topics": []}\n'
                    '{"id": "c", "title": "Speculative decoding with draft trees", "topics": ["speculative-decoding"]}\n',
                    encoding="utf-8")
    line = error(sample, "eval", "classifier", str(rows), "--model", "keyword")
    assert line == f"kb: error: {rows}:3: no relevance: every item needs one (primary, adjacent or none)", line
    rows.write_text("\n".join(rows.read_text(encoding="utf-8").splitlines()[:2]) + "\n", encoding="utf-8")
    out = kb(sample, "eval", "classifier", str(rows), "--model", "keyword", "--format", "json").stdout
    assert json.loads(out)["n"] == 2


def test_eval_sections_refuses_a_doc_with_no_anchors_as_eval_classifier_refuses_an_empty_file(
        sample: Path, tmp_path: Path) -> None:
    """A doc with nothing anchored printed "0 anchored items … top-1 -, top-3 -" and exit 0, as if measured.
    It is one line saying there is nothing to evaluate, exit 2: the convention of `kb eval classifier`, whose
    empty labelled file (or empty --split) is refused so."""
    doc = tmp_path / "empty.md"
    doc.write_text("# Empty\n\nversion: v1 (2026-10-01)\n\n## §1 Serving\n\nNothing anchored yet.\n\n## §2 KV cache\n",
                   encoding="utf-8")
    for fmt in ("table", "json"):
        line = error(sample, "eval", "sections", str(doc), "--format", fmt)
        assert line.startswith(f"kb: error: {doc}: no anchored items, so nothing to evaluate"), line
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert "no labelled items" in error(sample, "eval", "classifier", str(empty), "--model", "keyword")
