"""One model per knowledge doc: two docs give two briefings, a correction changes the next run, caches."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kb.cli import app
from kb.errors import ConfigError
from tests.support.paths import SAMPLE

DAY = "2026-10-08"
MOE_DOC = Path(__file__).resolve().parents[2] / "fixtures" / "moe" / "moe.md"
SPEC = "2610.08812"        # TreeDraft: token-tree speculative decoding (the sample day's arXiv listing)
MOE_PAPERS = {"2610.09701", "2610.09255"}   # SlimWise, ExpertLane
NOT_MOE = {"2610.09034", "2610.08694"}      # KVQuilt (KV-cache quantization), KVCC (KV-transfer congestion control)


def kb(home: Path, *args: str, ok: bool = True):
    result = CliRunner().invoke(app, ["--home", str(home), *args])
    if ok:
        assert result.exit_code == 0, (args, result.output, result.exception)
    return result


def brief(home: Path, topic: str) -> dict[str, Any]:
    return json.loads(kb(home, "brief", "--date", DAY, "--topic", topic, "--format", "json").stdout)


def relevant_ids(data: dict[str, Any]) -> set[str]:
    return {i["arxiv_id"] for i in data["increments"] + data["others"] if i.get("arxiv_id")}


@pytest.fixture(scope="module")
def two_docs(tmp_path_factory) -> Path:
    """The sample day with a second knowledge doc (MoE) configured and ingested."""
    home = tmp_path_factory.mktemp("two") / "ws"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    shutil.copy(MOE_DOC, home / "organized" / "knowledge" / "moe.md")
    toml = (home / "kb.toml").read_text(encoding="utf-8")
    (home / "kb.toml").write_text(toml.replace(
        'doc = "organized/knowledge/inference.md"\n',
        'doc = "organized/knowledge/inference.md"\n\n[[topics]]\nslug = "moe"\ndoc = "organized/knowledge/moe.md"\n', 1),
        encoding="utf-8")
    with (home / "kb.toml").open("a", encoding="utf-8") as f:   # per-doc relevance is the learned model's
        f.write('\n[classify]\nmodel = "learned"\n')
    kb(home, "ingest", "all", "--offline", "--date", DAY)
    kb(home, "classify")
    return home


def test_two_docs_give_two_briefings_each_keeping_its_own(two_docs):
    inference, moe = brief(two_docs, "inference"), brief(two_docs, "moe")
    inf_ids, moe_ids = relevant_ids(inference), relevant_ids(moe)
    assert inf_ids != moe_ids
    assert MOE_PAPERS <= moe_ids                      # the MoE doc keeps the day's MoE papers …
    assert SPEC not in moe_ids and SPEC in inf_ids    # … and leaves speculative decoding to the inference doc
    assert NOT_MOE.isdisjoint(moe_ids)                # … and KV-cache compression and transfer
    assert moe["counts"]["relevant"] < inference["counts"]["relevant"]
    assert {i["topic"] for i in (inference, moe)} == {"inference", "moe"}
    # each doc's models are cached under .kb/models/
    assert {p.name for p in (two_docs / ".kb" / "models").glob("*.json")} == {"inference.json", "moe.json"}



# What a briefing's labels say of its doc, in each language: the doc's own name, never another's.
DOC_LABELS = {"en": ("relevant to {}", "nothing on {}", "{} is its main category"),
              "zh": ("与 {} 相关", "无 {} 相关内容", "主分类 {}")}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_each_briefing_speaks_of_its_own_doc(two_docs, lang):
    """The moe briefing's labels say "nothing on moe", "relevant to moe", not the inference doc's words."""
    path = Path(kb(two_docs, "brief", "--date", DAY, "--topic", "moe", "--lang", lang).stdout.split()[0])
    text = path.read_text(encoding="utf-8")
    for label in DOC_LABELS[lang]:
        assert label.format("moe") in text
        assert label.format("inference") not in text

def _learned_sample(home: Path, *, moe: bool) -> Path:
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    _configure(home, moe=moe)
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    return home


def _configure(home: Path, *, moe: bool) -> None:
    """The learned classifier, and the MoE doc after the inference doc (day 2's kb.toml has neither)."""
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[classify]\nmodel = "learned"\n')
        if moe:
            shutil.copy(MOE_DOC, home / "organized" / "knowledge" / "moe.md")
            f.write('\n[[topics]]\nslug = "moe"\ndoc = "organized/knowledge/moe.md"\n')


def test_a_second_doc_leaves_the_first_docs_briefing_as_it_was(tmp_path):
    """The MoE doc's anchors say which related items are the MoE doc's; they do not make agent, VLM or
    RAG papers relevant to the inference doc (adding the doc once turned 37 relevant items into 43)."""
    alone = _learned_sample(tmp_path / "one", moe=False)
    both = _learned_sample(tmp_path / "two", moe=True)
    assert relevant_ids(brief(both, "inference")) == relevant_ids(brief(alone, "inference"))


def test_a_second_doc_not_anchored_yet_leaves_the_first_docs_briefing_as_it_was(tmp_path):
    """A doc configured before anything is anchored in it tells no doc apart: an empty membership head made
    every item half as likely the first doc's (the sample day's 37 relevant items became 28). The new doc's
    own briefing says it has nothing of its own to judge by yet."""
    alone = _learned_sample(tmp_path / "one", moe=False)
    home = tmp_path / "two"
    shutil.copytree(SAMPLE, home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    _configure(home, moe=False)
    (home / "organized" / "knowledge" / "agents.md").write_text("# Agents\n\n## 1. Planning\n\nNothing yet.\n",
                                                                 encoding="utf-8")
    with (home / "kb.toml").open("a", encoding="utf-8") as f:
        f.write('\n[[topics]]\nslug = "agents"\ndoc = "organized/knowledge/agents.md"\n')
    kb(home, "nightly", "--date", DAY, "--offline", "--quiet")
    assert relevant_ids(brief(home, "inference")) == relevant_ids(brief(alone, "inference"))
    agents = (home / "briefings" / f"{DAY}-agents.en.md").read_text(encoding="utf-8")
    assert "Nothing is anchored in this doc yet" in agents
    assert "Nothing is anchored" not in (home / "briefings" / f"{DAY}-inference.en.md").read_text(encoding="utf-8")


def test_a_doc_keeps_its_subject_when_another_doc_anchors_it_too(tmp_path):
    """Day 2's inference doc (v311) anchors MoE serving papers (SlimWise in §2.4, ExpertLane in §3.4): as
    negatives of the MoE doc they taught it that MoE serving was not its business, and its briefing was empty."""
    from tests.support.days import DAY2, DAY2_DATA, lay_over
    home = _learned_sample(tmp_path / "ws", moe=True)
    lay_over(DAY2_DATA / "workspace", home)
    _configure(home, moe=True)
    kb(home, "nightly", "--date", DAY2, "--offline", "--quiet")
    moe = json.loads(kb(home, "brief", "--date", DAY2, "--topic", "moe", "--format", "json").stdout)
    kept = {i.get("arxiv_id") or i.get("url") for i in moe["increments"] + moe["others"]}
    assert "2610.09701" in kept                                               # SlimWise
    assert "https://blog.vllm.ai/2026/10/09/deepep-v2-wide-ep-decode.html" in kept   # wide-EP decode on GB300
    assert "2610.11960" not in kept and "2610.12214" not in kept            # EchoDraft, DraftCache: speculative
    assert "2610.12530" not in kept and "2610.09034" not in kept            # RingPrefill, KVQuilt: not MoE


def test_a_correction_changes_the_next_run(tmp_path, two_docs):
    home = tmp_path / "ws"
    shutil.copytree(two_docs, home)
    relevant = relevant_ids(brief(home, "inference"))
    assert SPEC in relevant
    out = kb(home, "label", SPEC, "--relevance", "none", "--doc", "inference", "--note", "not ours")
    assert "organized/labels/inference.jsonl" in out.stdout
    line = json.loads((home / "organized" / "labels" / "inference.jsonl").read_text(encoding="utf-8"))
    assert line["id"] == f"arXiv:{SPEC}" and line["relevance"] == "none"
    # the same correction again (a rerun, a second member) adds no line; a different one does
    labels = home / "organized" / "labels" / "inference.jsonl"
    before = labels.read_bytes()
    again = kb(home, "label", f"arXiv:{SPEC}v1", "--relevance", "none", "--doc", "inference").stdout
    assert "already labelled none for inference" in again and "nothing appended" in again
    assert labels.read_bytes() == before
    kb(home, "classify")                              # the labels changed: the doc model and its hash too
    # the corrected item alone: the doc's cards that are not primary (agents, RAG, vision) taught "related"
    # once a `none` label unlocked that head, and five of the stream's agent and RAG papers came in
    assert relevant_ids(brief(home, "inference")) == relevant - {SPEC}
    explained = kb(home, "explain", SPEC, "--doc", "inference").stdout
    assert "doc inference: relevance none" in explained and "label (correction" in explained
    # `kb show` said only the general judgement ("relevance: primary"), not what each doc's briefing keeps
    assert "relevance for inference: none" in kb(home, "show", SPEC).stdout
    # taken back (the file's `"relevance": null`, which kb label could not write): the model decides again
    assert "withdrew the correction of arXiv:2610.08812 for inference (none" in kb(home, "label", SPEC,
                                                                                   "--withdraw").stdout
    assert json.loads(labels.read_text(encoding="utf-8").splitlines()[-1])["relevance"] is None
    assert "has no correction for inference to withdraw" in kb(home, "label", SPEC, "--withdraw").stdout
    kb(home, "classify")
    assert relevant_ids(brief(home, "inference")) == relevant


NIXL_POST = "https://llm-d.ai/blog/nixl-transfer-backends-benchmark"   # merged with jay's note entry about it


def test_a_correction_of_a_post_decides_the_item_it_is_merged_into(tmp_path, two_docs):
    """`kb label URL` of a post the team's note is about: the briefing's item (the post and the note entry)
    is the post's too; its correction was read only for the item's arXiv IDs and entries."""
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))

    def item() -> dict[str, Any]:
        data = brief(home, "inference")
        return next(i for i in data["increments"] + data["others"] if i.get("url") == NIXL_POST)
    assert item()["relevance"] == "primary" and item()["category"] == "engineering"
    assert "for inference: adjacent" in kb(home, "label", NIXL_POST, "--relevance", "adjacent").stdout
    kb(home, "classify")
    assert item()["relevance"] == "adjacent"


def test_a_correction_with_topics_decides_the_items_topics_for_its_doc(tmp_path, two_docs):
    """The topics a team member gives are the item's topics in that doc's briefing, whatever the model says."""
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))

    def topics(topic: str) -> list[str]:
        return next(i["topics"] for i in (lambda d: d["increments"] + d["others"])(brief(home, topic))
                    if i.get("arxiv_id") == SPEC)
    assert "speculative-decoding" in topics("inference")
    kb(home, "label", SPEC, "--relevance", "primary", "--topic", "kv-cache", "--topic", "long-context")
    kb(home, "classify")
    assert topics("inference") == ["kv-cache", "long-context"]


def test_explain_says_how_the_docs_shared_an_item_out(two_docs):
    """Membership decides between docs: the explanation says which rule did, with the odds it used."""
    spec = kb(two_docs, "explain", SPEC, "--doc", "moe").stdout
    assert "resembles moe's anchors less than the other docs'" in spec and "moe's P(related) ×" in spec
    slim = kb(two_docs, "explain", "2610.09701", "--doc", "moe").stdout
    assert "is moe's subject" in slim and "the item is moe's whole" in slim
    assert "+0.00" not in slim + spec and "-0.00" not in slim + spec   # a feature the labels did not move is not listed
    inference = kb(two_docs, "explain", "2610.09701", "--doc", "inference").stdout
    # primary although adjacent is likelier: the doc's line says the offsets decided, as the base's does
    assert "doc inference: relevance primary" in inference and "make primary win over the likeliest, adjacent" in inference


def test_label_refuses_what_it_cannot_record(two_docs):
    assert kb(two_docs, "label", "2699.99999", "--relevance", "none", ok=False).exit_code != 0
    assert kb(two_docs, "label", SPEC, "--relevance", "maybe", ok=False).exit_code == 2
    assert kb(two_docs, "label", SPEC, "--relevance", "primary", "--topic", "nope", ok=False).exit_code == 2
    assert kb(two_docs, "label", SPEC, "--relevance", "none", "--doc", "nope", ok=False).exit_code == 2
    # what no paper can have is a usage error, not a paper to ingest first
    for written in ("2610.9701", "arXiv:2614.00123", "arXiv 2610.9701", "https://arxiv.org/abs/2610.9701", " "):
        refused = kb(two_docs, "label", written, "--relevance", "none", ok=False)
        assert isinstance(refused.exception, ConfigError) and "ingest it first" not in str(refused.exception), written
    assert not (two_docs / "organized" / "labels").exists()


def test_uncertain_lists_what_to_label_next(two_docs):
    out = kb(two_docs, "label", "--uncertain", "5", "--since", "2026-10-01", "--format", "json").stdout
    rows = json.loads(out)
    assert len(rows) == 5
    assert all({"id", "uncertainty", "relevance", "reason"} <= set(r) for r in rows)
    assert [r["uncertainty"] for r in rows] == sorted((r["uncertainty"] for r in rows), reverse=True)


def test_a_damaged_model_cache_is_only_refitted(tmp_path, two_docs):
    home = tmp_path / "ws"
    shutil.copytree(two_docs, home)
    (home / ".kb" / "models" / "moe.json").write_text("{not json", encoding="utf-8")
    before = relevant_ids(brief(two_docs, "moe"))
    assert relevant_ids(brief(home, "moe")) == before
    assert json.loads((home / ".kb" / "models" / "moe.json").read_text(encoding="utf-8"))["model"]["doc"] == "moe"


def test_a_link_in_a_models_place_never_has_a_teams_file_overwritten(tmp_path, two_docs):
    home = tmp_path / "ws"
    shutil.copytree(two_docs, home)
    note = home / "inbox" / "jay" / "note.md"
    note.parent.mkdir(parents=True, exist_ok=True)
    note.write_text("# the team's note\n", encoding="utf-8")
    (home / ".kb" / "models" / "moe.json").unlink()
    (home / ".kb" / "models" / "moe.json").symlink_to(note)
    before = relevant_ids(brief(two_docs, "moe"))
    assert relevant_ids(brief(home, "moe")) == before                 # fitted again: a link is no model
    assert note.read_text(encoding="utf-8") == "# the team's note\n"   # and replaced, not written through
    assert not (home / ".kb" / "models" / "moe.json").is_symlink()


def test_an_anchor_line_teaches_its_words_not_its_date_or_link(two_docs):
    """A doc's anchored item the store has no title for is labelled by its line's words: the URL, the ID
    and "(anchored 2026-10-08)" say how it is anchored, and a doc fitted on them learned dates as words."""
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.classify.teamlabels import doc_labels
    with Store.open(two_docs / ".kb" / "kb.sqlite", readonly=True) as store:
        items = doc_labels(store, open_workspace(str(two_docs)), ["inference"])["inference"]
    anchors = [i for i in items if i.origin == "anchor"]
    assert len(anchors) >= 30
    bare = [i.title for i in anchors if not i.text]                  # no paper in the store: its line's words
    assert bare and all("http" not in t and "anchored" not in t and "锚定" not in t and "2026-" not in t
                        for t in bare), bare
    assert any("RoofLang" in t for t in bare)


def test_a_bare_anchor_line_teaches_nothing(workspace: Path) -> None:
    """A line that is only an ID and its date (no paper in the store) has no words: it is no labelled item."""
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.classify.teamlabels import doc_labels
    doc = workspace / "organized" / "knowledge" / "inference.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text("# Inference\n\n## §2 Serving\n\n- DistServe: disaggregated prefill 2401.09670 (anchored 2026-10-01)\n"
                   "- [2610.01234](https://arxiv.org/abs/2610.01234) (anchored 2026-10-01)\n", encoding="utf-8")
    kb(workspace, "ingest", "workspace", "--date", DAY)
    with Store.open(workspace / ".kb" / "kb.sqlite", readonly=True) as store:
        items = doc_labels(store, open_workspace(str(workspace)), ["inference"])["inference"]
    assert [(i.title, i.section) for i in items if i.origin == "anchor"] == [("DistServe: disaggregated prefill", "2")]


def test_a_card_speaks_for_the_doc_that_anchors_its_paper_or_the_main_doc(two_docs):
    """SlimWise's card says `primary_topic: false` — of the main doc (no doc anchors it on the 8th): the
    MoE briefing puts SlimWise forward without quoting that card as its judgement."""
    def judged(topic: str) -> list[str]:
        out = kb(two_docs, "brief", "--date", DAY, "--topic", topic, "--lang", "en", "--preview").stdout
        return [line for line in out.splitlines() if line.startswith("- Judgement:")]
    assert any("the card says" in line for line in judged("inference"))
    assert judged("moe") and not any("the card says" in line for line in judged("moe"))


def test_a_hand_written_correction_is_held_to_what_kb_label_checks(tmp_path, two_docs, caplog):
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.classify.teamlabels import doc_labels
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))
    labels = home / "organized" / "labels"
    labels.mkdir(parents=True, exist_ok=True)
    (labels / "inference.jsonl").write_text(
        '{"id": "2610.08977", "relevance": "primary", "topics": ["kv-cache", "no-such-topic"]}\n'
        '{"id": "2610.08812", "relevance": "none", "topics": ["kv-cache"]}\n'
        '{"id": "2610.09701", "relevance": "primary", "topics": ["kv-cach"]}\n', encoding="utf-8")
    store = Store.open(home / ".kb" / "kb.sqlite", readonly=True)
    try:
        with caplog.at_level("WARNING"):
            got = {i.id: i.topics for i in doc_labels(store, open_workspace(str(home)), ["inference"],
                                                      {"kv-cache", "speculative-decoding"})["inference"]
                   if i.origin == "correction"}
    finally:
        store.close()
    # a line whose only topic is unknown labels the relevance alone: the model's topics stand
    assert got == {"2610.08977": ("kv-cache",), "2610.08812": (), "2610.09701": None}
    assert "'no-such-topic' is no topic of the model" in caplog.text and "none keeps no topics" in caplog.text
    # each named with its line, as a line that does not read is
    assert "inference.jsonl:1: 2610.08977: topic 'no-such-topic'" in caplog.text
    assert "inference.jsonl:2: 2610.08812: relevance none keeps no topics" in caplog.text


def test_what_to_label_next_is_what_nobody_labelled_near_the_docs_last_day(tmp_path, two_docs):
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))
    # no --since: the fortnight up to the doc's last briefing (the 8th), not up to today's date
    rows = json.loads(kb(home, "label", "--uncertain", "5", "--format", "json").stdout)
    assert len(rows) == 5
    first = rows[0]["id"]
    assert first not in _asked_again(home, first)                 # labelled: not asked again
    # the table keeps an ID whole, so it can be pasted into kb label (a note entry's #N included)
    table = kb(home, "label", "--uncertain", "20").stdout
    entry = next(r["id"] for r in json.loads(kb(home, "label", "--uncertain", "20", "--format", "json").stdout)
                 if "#" in r["id"])
    assert entry in table


def _asked_again(home: Path, labelled: str) -> list[str]:
    """What --uncertain lists once the doc's model holds a correction of ``labelled``, the model itself
    unchanged (a refit alone may move an item down the list: that would prove nothing)."""
    import datetime

    from pipeline.classify import engine as engines
    from pipeline.classify.adapt import Labelled
    from pipeline.classify.labelling import uncertain_items
    from pipeline.context import open_context
    ctx = open_context(str(home), datetime.date(2026, 10, 8), offline=True)
    try:
        engine = engines.load_engine(ctx)
        model = engine.docs["inference"]
        model.items = [*model.items, Labelled("", "", "none", None, None, 3.0, labelled, "correction")]
        real, engines.load_engine = engines.load_engine, lambda _ctx: engine
        try:
            return [r["id"] for r in uncertain_items(ctx, "inference", 5, None)]
        finally:
            engines.load_engine = real
    finally:
        ctx.close()
        ctx.store.close()


def test_a_topic_far_below_its_threshold_is_no_uncertainty():
    """Under a threshold of 0.15, a topic at 0.01 once scored 0.84 uncertain and outranked every real
    borderline call; the distance is over its own side's length."""
    import numpy as np

    from pipeline.classify.labelling import uncertain

    class Base:
        topics, thresholds = ["moe", "kv-cache"], np.array([0.15, 0.5])
        rel_offsets = rel_offsets_title = np.zeros(3)

        def vectorize(self, title, text):
            return np.zeros(0, np.int64), np.zeros(0)

        def logits(self, idx, val):
            return np.zeros(5)

        def decide(self, z, title_only=False):
            return "primary", np.array([0.98, 0.01, 0.01]), np.array([0.01, 0.99]), [1]

    [row] = uncertain(Base(), [{"id": "x", "title": "t", "text": "body"}])
    assert row["uncertainty"] < 0.1


def test_an_explanation_is_the_same_from_the_cache_and_from_a_fresh_fit(tmp_path, two_docs):
    """The nearest labels a doc's explanation lists are the labels its model learned from: a cached model
    once listed the other docs' anchors too (they train only the membership head)."""
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))
    cached = kb(home, "explain", "2610.09701", "--doc", "inference").stdout
    shutil.rmtree(home / ".kb" / "models")
    fresh = kb(home, "explain", "2610.09701", "--doc", "inference").stdout
    assert cached == fresh and "other-doc" not in fresh


def test_a_labels_file_of_no_doc_in_kb_toml_is_named_not_silently_unread(tmp_path, two_docs, caplog):
    """organized/labels/<slug>.jsonl for a slug kb.toml does not configure (a mistyped file name, a doc
    renamed in kb.toml) was never read and never named: the team's corrections silently counted for nothing."""
    from kb.store import Store
    from kb.workspace import open_workspace
    from pipeline.classify.teamlabels import doc_labels
    home = Path(shutil.copytree(two_docs, tmp_path / "ws"))
    labels = home / "organized" / "labels"
    labels.mkdir(parents=True, exist_ok=True)
    line = '{"id": "2610.08812", "relevance": "none"}\n'
    for name in ("inference.jsonl", "infrence.jsonl", "notes.txt"):
        (labels / name).write_text(line, encoding="utf-8")
    store = Store.open(home / ".kb" / "kb.sqlite", readonly=True)
    try:
        with caplog.at_level("WARNING"):
            doc_labels(store, open_workspace(str(home)), ["inference", "moe"], {"kv-cache"})
    finally:
        store.close()
    warned = [r.getMessage() for r in caplog.records]
    assert warned == ["organized/labels/infrence.jsonl: no knowledge doc 'infrence' in kb.toml "
                      "(inference, moe): its corrections are not read"], warned
