"""The learned engine: a team correction decides its item for its doc, in the stored batch and in the briefing alike."""
from __future__ import annotations

from pipeline.classify.adapt import DocModel
from pipeline.classify.engine import Engine
from pipeline.classify.taxonomy import default_taxonomy

TITLE = "TreeDraft: Load-Adaptive Token-Tree Speculative Decoding for Batched LLM Serving"
TEXT = "We verify token trees of draft tokens in batches, adapting the tree to the serving load."


def test_a_corrections_topics_and_relevance_decide_its_item(base):
    """A doc model with no correction Δ of its own (the override alone): the model would say speculative
    decoding; the team said kv-cache as well (and, for another item, none)."""
    doc = DocModel(base, "inference", overrides={"2610.08812": ("primary", ("kv-cache", "speculative-decoding")),
                                                 "2610.00001": ("none", None)})
    engine = Engine("learned", default_taxonomy(), base, {"inference": (doc, "k")})
    items = [(TITLE, TEXT, None, ())] * 3
    stored = engine.judge_many(items, ["2610.08812", "2610.00001", "2610.00002"])
    model_says = stored[2].docs["inference"]
    assert model_says[0] == "primary" and "speculative-decoding" in [t for t, _, _ in model_says[1]]
    spec = dict((t, s) for t, s, _ in model_says[1])["speculative-decoding"]
    # the team's topics in its order: a topic the model tagged keeps its score, one it did not is sure (1.0)
    assert stored[0].docs["inference"] == ("primary", [("kv-cache", 1.0, []), ("speculative-decoding", spec, [])])
    assert stored[1].docs["inference"] == ("none", [])
    assert stored[0].tags == stored[2].tags           # the workspace's tags are the base model's, uncorrected
    # the briefing's path (for_doc) says what the classify stage stored
    briefed = engine.for_doc("inference", ["2610.08812"])(TEXT, title=TITLE)
    assert (briefed.relevance, briefed.topics) == ("primary", ["kv-cache", "speculative-decoding"])
    assert engine.for_doc("inference", ["2610.00001"])(TEXT, title=TITLE).tags == []


def test_a_kept_section_ranking_is_read_back_only_for_the_doc_s_headings_in_their_order(base, tmp_path) -> None:
    """Sections an item scores alike are ranked in the doc's order (``sections._best_first``), so the order of the
    headings is part of what a kept ranking read: a doc whose two sections changed places (their numbers and
    titles as they were) ranks again, and says what ranking again says, not last night's order."""
    from pipeline.classify.memo import JudgedTexts
    engine = Engine("learned", default_taxonomy(), base)

    def night(headings: list[tuple[str, str]]) -> list[str]:
        kept = JudgedTexts(tmp_path, engine.hash, "inference")
        ranked = engine.section_suggester(headings, [], "inference", kept=kept)("Zorblax", "", {"9.1", "9.2"})
        kept.save()
        return ranked

    fresh = engine.section_suggester([("§9.2", "Queue control"), ("§9.1", "Quantum layout")], [], "inference")("Zorblax", "", {"9.1", "9.2"})
    assert fresh == ["9.2", "9.1"]   # a tie: the doc's order
    assert night([("§9.1", "Quantum layout"), ("§9.2", "Queue control")]) == ["9.1", "9.2"]
    assert night([("§9.2", "Queue control"), ("§9.1", "Quantum layout")]) == fresh
