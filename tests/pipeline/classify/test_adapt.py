"""Per-doc adaptation of the shipped model: no labels is the base, incremental, round-trips, doc membership."""
from __future__ import annotations

import numpy as np

from pipeline.classify.adapt import DocModel, Labelled, adapt, fit_membership
from pipeline.classify.labelling import uncertain
from pipeline.classify.model import Model

MOE = [Labelled("Switch Transformers: scaling to trillion parameter models with simple and efficient sparsity",
                origin="anchor", id="a"),
       Labelled("Mixtral of Experts: a sparse mixture of experts language model", origin="anchor", id="b"),
       Labelled("Expert choice routing for mixture-of-experts models", origin="anchor", id="c")]
INF = [Labelled("Fast inference from transformers via speculative decoding", origin="anchor", id="d"),
       Labelled("Efficient memory management for LLM serving with PagedAttention", origin="anchor", id="e"),
       Labelled("DistServe: disaggregating prefill and decoding for goodput-optimized LLM serving", origin="anchor",
                id="f")]
PROBE_MOE = "DeepSeekMoE: towards ultimate expert specialization in mixture-of-experts language models"
PROBE_SPEC = "Medusa: simple LLM inference acceleration with multiple decoding heads"


def test_no_labels_is_the_base_model(base):
    dm = adapt(base, [], doc="empty")
    a, b = dm.classify("decoding", title=PROBE_SPEC), base.classify("decoding", title=PROBE_SPEC)
    assert a.relevance == b.relevance and a.probabilities == b.probabilities


def test_anchors_alone_do_not_move_the_relevance_biases(base):
    dm = adapt(base, INF, doc="inference")
    assert np.allclose(dm.bias[:3], 0.0)
    # an unrelated text stays what the base model says
    far = "A hierarchical snoop filter for cache coherence in chiplet processors"
    assert dm.classify("", title=far).relevance == base.classify("", title=far).relevance


def test_positives_alone_leave_the_relevance_heads_to_the_base(base):
    """Anchors are positives only: fitted to them, the related-vs-none head would raise every word they
    share with unrelated systems papers. It moves once the doc's labels hold a ``none`` too."""
    far = "TessaScope: pipelined leader rotation for Byzantine fault-tolerant consensus"
    only_pos = adapt(base, INF, doc="inference")
    assert not any(np.any(d[:3]) for d in only_pos.delta.values())
    assert only_pos.classify("", title=far).probabilities == base.classify("", title=far).probabilities
    taught = adapt(base, [*INF, Labelled(far, relevance="none", weight=3.0, id="n", origin="correction")],
                   doc="inference")
    assert any(np.any(d[1]) for d in taught.delta.values())
    assert taught.classify("", title=far).probabilities["none"] > base.classify("", title=far).probabilities["none"]


def test_membership_sends_each_paper_to_its_doc(base):
    moe = adapt(base, MOE, doc="moe")
    moe.member, moe.member_bias = fit_membership(base, MOE, INF)
    inf = adapt(base, INF, doc="inference")
    inf.member, inf.member_bias = fit_membership(base, INF, MOE)
    p = lambda m, t: m.classify("", title=t).probabilities["none"]  # noqa: E731
    assert p(moe, PROBE_SPEC) > p(inf, PROBE_SPEC)
    assert p(inf, PROBE_MOE) > p(moe, PROBE_MOE)


def test_the_doc_an_item_resembles_more_keeps_it_whole(base):
    """Membership shares a related item out: the doc it resembles more than the others judges it as a
    workspace of that one doc would; a doc it resembles less gets P(related) times the odds m / (1 − m)."""
    inf = adapt(base, INF, doc="inference")
    alone = inf.classify("", title=PROBE_SPEC).probabilities
    inf.member, inf.member_bias = fit_membership(base, INF, MOE)
    vec = base.vectorize(PROBE_SPEC, "")
    m = float(inf.membership(1, np.zeros(len(vec[0]), dtype=np.int64), *vec)[0])
    assert m > 0.5
    assert inf.classify("", title=PROBE_SPEC).probabilities == alone       # kept whole: not m × P(related)
    moe = adapt(base, MOE, doc="moe")
    moe.member, moe.member_bias = fit_membership(base, MOE, INF)
    related = 1 - moe.classify("", title=PROBE_SPEC).probabilities["none"]
    moe.member = None
    odds = (1 - m) / m                                  # the MoE doc's membership is about 1 − the inference doc's
    whole = 1 - moe.classify("", title=PROBE_SPEC).probabilities["none"]
    assert related < whole
    assert abs(related - odds * whole) < 0.01                     # the odds …
    assert related > (1 - m) * whole + 0.05                       # … not the plain product, P(related) × m


def test_an_item_about_what_the_doc_is_about_is_the_docs_whatever_it_resembles(base):
    """Docs overlap: a MoE paper on disaggregated serving resembles the inference doc's anchors more, yet is
    the MoE doc's whole when the MoE doc is about MoE; an item without the doc's topics still gets the odds."""
    both = "SlimWise: decoupled expert pruning across prefill and decode for efficient MoE serving"
    moe = adapt(base, MOE, doc="moe")
    moe.member, moe.member_bias = fit_membership(base, MOE, INF)
    vec = base.vectorize(both, "")
    assert float(moe.membership(1, np.zeros(len(vec[0]), dtype=np.int64), *vec)[0]) < 0.5
    shared, spec = (moe.classify("", title=t).probabilities for t in (both, PROBE_SPEC))
    moe.about = ("moe",)
    assert moe.classify("", title=both).probabilities["none"] < shared["none"]
    alone = adapt(base, MOE, doc="moe")
    assert moe.classify("", title=both).probabilities == alone.classify("", title=both).probabilities
    # speculative decoding is not what the MoE doc is about: membership still shares it out
    assert moe.classify("", title=PROBE_SPEC).probabilities == spec
    assert spec["none"] > alone.classify("", title=PROBE_SPEC).probabilities["none"]
    assert DocModel.from_dict(base, moe.to_dict()).about == ("moe",)


def test_update_is_incremental_and_the_cache_round_trips(base):
    dm = adapt(base, [Labelled(PROBE_SPEC, relevance="none", id="x", origin="correction"), *INF], doc="d", steps=50)
    dm2 = dm.update([Labelled("Another speculative decoding heads paper", relevance="none", id="y")], steps=50)
    assert len(dm2.items) == 5
    assert dm2.classify("", title=PROBE_SPEC).probabilities["none"] >= dm.classify("", title=PROBE_SPEC).probabilities["none"] - 1e-6
    back = DocModel.from_dict(base, dm2.to_dict())
    assert back.classify("", title=PROBE_SPEC).probabilities == dm2.classify("", title=PROBE_SPEC).probabilities


def test_update_keeps_the_membership_head(base):
    dm = adapt(base, INF, doc="inference", steps=20)
    dm.member, dm.member_bias, dm.about = {0: 0.5}, -0.3, ("speculative-decoding",)
    dm.overrides = {"x": ("none", None)}
    dm2 = dm.update([Labelled("Another speculative decoding heads paper", relevance="primary", id="y")], steps=20)
    assert (dm2.member, dm2.member_bias, dm2.about, dm2.overrides) == (dm.member, dm.member_bias, dm.about, dm.overrides)


def test_uncertain_ranks_the_least_sure_first(base):
    items = [{"id": str(i), "title": t, "text": ""} for i, t in enumerate(
        [PROBE_SPEC, PROBE_MOE, "Causal inference for observational studies", "A survey of agents with LLMs"])]
    ranked = uncertain(base, items, 4)
    assert [r["uncertainty"] for r in ranked] == sorted((r["uncertainty"] for r in ranked), reverse=True)
    assert all(r["reason"] for r in ranked)


def test_the_keyword_verdict_stays_the_bases_in_the_relevance_heads(base):
    """``@kw=…`` is on every item, one of three: in a relevance head it is a bias per verdict. A doc whose
    primary anchors are bare titles the keyword scorer calls none must not learn "the scorer says none →
    primary" (it let the sample day's serverless and consensus papers through)."""
    labels = [*INF, Labelled("SmoothQuant", relevance="primary", id="s", origin="anchor"),
              Labelled("QServe", relevance="primary", id="q", origin="anchor"),
              Labelled("A survey of agents with LLMs", relevance="adjacent", id="g", origin="card"),
              Labelled("A hierarchical snoop filter for cache coherence", relevance="none", id="h", origin="card")]
    if not base.meta.get("keyword_block"):           # a base that reads the verdict: the same, plus its features
        n = base.n_weighted
        kw = ["@kw=primary", "@kw=adjacent", "@kw=none"]
        base = Model([*base.vocab[:n], *kw, *base.vocab[n:]], np.r_[base.idf[:n], [1.0] * 3, base.idf[n:]],
                     np.vstack([base.W, np.zeros((3, base.W.shape[1]))]), base.b,
                     {**base.meta, "keyword_block": True})
    dm = adapt(base, labels, doc="inference")
    moved = {base.vocab[j]: d for j, d in dm.delta.items()}
    idx, _ = base.vectorize("QServe", "")
    assert any(base.vocab[j].startswith("@kw=") for j in idx)        # the labelled items carry a verdict
    assert all(not np.any(d[:3]) for f, d in moved.items() if f.startswith("@kw="))
    assert any(np.any(d[:3]) for f, d in moved.items() if not f.startswith("@"))   # the heads did move


def test_taxonomy_term_features_stay_the_bases_in_the_relevance_heads(base):
    """``@serving-systems`` ("cold start", "runtime", "kubernetes" …) fires on much of a nightly stream; a
    doc's anchors naming such terms must not raise it toward primary (it called the sample day's serverless
    cold-start papers primary), while its topic weights may follow the doc."""
    labels = [*INF, Labelled("vLLM on Kubernetes: a serving engine runtime for LLM serving", relevance="primary",
                             topics=("serving-systems",), id="k", origin="anchor"),
              Labelled("A hierarchical snoop filter for cache coherence", relevance="none", id="h", origin="card")]
    dm = adapt(base, labels, doc="inference")
    moved = {base.vocab[j]: d for j, d in dm.delta.items()}
    derived = {f: d for f, d in moved.items() if f.startswith("@")}
    assert any(f.startswith("@serving-systems") for f in derived)      # the anchors carry the topic's terms
    assert all(not np.any(d[:3]) for d in derived.values())
    assert any(np.any(d[3:]) for d in derived.values())                # its topic weights did move


def test_sharing_reports_what_correct_applies(base):
    """``sharing`` (kb explain's line) says what ``correct`` does to an item: the odds factor, or the subject."""
    both = "SlimWise: decoupled expert pruning across prefill and decode for efficient MoE serving"
    moe = adapt(base, MOE, doc="moe")
    assert moe.sharing(*base.vectorize(PROBE_SPEC, "")) is None          # one doc: nothing is shared out
    moe.member, moe.member_bias = fit_membership(base, MOE, INF)
    m, factor, subject = moe.sharing(*base.vectorize(PROBE_SPEC, ""))
    assert subject is None and factor == min(1.0, m / (1 - m)) < 1.0
    whole = DocModel.from_dict(base, {**moe.to_dict(), "member": None})
    related = 1 - moe.classify("", title=PROBE_SPEC).probabilities["none"]
    assert abs(related - factor * (1 - whole.classify("", title=PROBE_SPEC).probabilities["none"])) < 0.01
    moe.about = ("moe",)
    assert moe.sharing(*base.vectorize(both, ""))[1:] == (1.0, "moe")


def test_the_dense_and_the_sparse_products_fit_the_same_model(base, monkeypatch):
    """A doc's few hundred labels are fitted with X held dense; a large one with X as its entries.
    Both are the same products, so the same correction comes out of either."""
    import pipeline.classify.adapt as adapt_module
    labels = [*INF, *MOE, Labelled(PROBE_SPEC, relevance="none", weight=3.0, id="n", origin="correction"),
              Labelled(PROBE_MOE, relevance="adjacent", topics=("moe",), id="m", origin="card")]
    dense = adapt(base, labels, doc="d", steps=40)
    monkeypatch.setattr(adapt_module, "DENSE_LIMIT", 0)
    sparse = adapt(base, labels, doc="d", steps=40)
    assert dense.delta.keys() == sparse.delta.keys() and dense.delta
    assert all(np.allclose(dense.delta[j], sparse.delta[j], atol=1e-5) for j in dense.delta)
    assert np.allclose(dense.bias, sparse.bias, atol=1e-5)


AGENT_CARDS = [Labelled(t, relevance="adjacent", topics=(), id=f"card{n}", origin="card") for n, t in enumerate([
    "ReAct: synergizing reasoning and acting in language model agents",
    "Toolformer: language models can teach themselves to use tools",
    "Retrieval-augmented generation for knowledge-intensive NLP tasks",
    "Visual instruction tuning for multimodal chat assistants",
    "Self-RAG: learning to retrieve, generate and critique through self-reflection",
    "Voyager: an open-ended embodied agent with large language models"])]


def test_a_cards_not_primary_does_not_teach_related(base):
    """A card's ``primary_topic: false`` says the paper is another field's, not how near it is. Read as
    "related", the sample's adjacent cards (agents, RAG, vision) and one ``none`` correction called the
    stream's agent and RAG papers adjacent (PixelThink, HopLens, CiteCheck on the sample day). The cards
    still teach primary-vs-adjacent."""
    none = Labelled("TessaScope: pipelined leader rotation for Byzantine fault-tolerant consensus",
                    relevance="none", weight=3.0, id="n", origin="correction")
    dm = adapt(base, [*INF, *AGENT_CARDS, none], doc="inference")
    for probe in ("HopLens: multi-hop retrieval-augmented generation with learned query rewriting",
                  "AgentBench-X: evaluating language model agents that plan and call tools"):
        assert dm.classify("", title=probe).probabilities["none"] >= base.classify("", title=probe).probabilities["none"] - 0.02
    assert any(np.any(d[0]) for d in dm.delta.values())      # primary-vs-adjacent: taught by the cards
