"""`kb classify`, `kb explain`, `kb label`, `kb train`, `kb eval classifier|sections`: thin commands over
pipeline.classify*."""
from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from kb.cli.common import echo, open_workspace, run_context, state
from kb.cli.options import Note, TableJson, TableOrJson, check_date, check_text, check_topic

eval_app = typer.Typer(help="Measure kb's components on labelled data.", no_args_is_help=True)

Doc = Annotated[Optional[str], typer.Option("--doc", metavar="DOC", callback=check_topic,
                                            help="A knowledge doc (a topic slug of kb.toml); default: the first.")]


def classify_cmd(everything: Annotated[bool, typer.Option("--all", help="Re-tag everything, not only "
                                                          "what changed.")] = False) -> None:
    """Tag papers, posts and note entries with topics and relevance (new or changed ones)."""
    from pipeline.classify.stage import run_classify
    with run_context(None) as ctx:
        report = run_classify(ctx, everything=everything)
    if not state.quiet:
        echo(report.summary())


def explain_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID, post key, or note "
                                                     "entry as path#N.")],
                doc: Doc = None) -> None:
    """Why an item got its tags and relevance: the features that decided, and the team labels that shaped it."""
    from pipeline.classify.stage import explain_subject
    with run_context(None, write=False) as ctx:
        echo("\n".join(explain_subject(ctx, ident, doc)))


def label_cmd(ident: Annotated[Optional[str], typer.Argument(metavar="ID", help="arXiv ID, post key, or note "
                                                             "entry as path#N.")] = None,
              relevance: Annotated[Optional[str], typer.Option("--relevance", metavar="primary|adjacent|none",
                                                               help="What the item is for the doc.")] = None,
              topic: Annotated[Optional[list[str]], typer.Option("--topic", metavar="T", help="A topic of the "
                                                                 "taxonomy (repeat for several).")] = None,
              doc: Doc = None,
              note: Note = None,
              by: Annotated[Optional[str], typer.Option("--by", metavar="NAME", callback=check_text,
                                                        help="Who labels, as the line's \"by\" (default: the login "
                                                        "name).")] = None,
              withdraw: Annotated[bool, typer.Option("--withdraw", help="Take back the ID's correction for the "
                                                     "doc (a line with relevance null): the model decides again.")
                                  ] = False,
              uncertain: Annotated[Optional[int], typer.Option("--uncertain", metavar="N", min=1, max=500,
                                   help="List the N recent items the doc's model is least sure of.")] = None,
              since: Annotated[Optional[str], typer.Option("--since", metavar="D", help="With --uncertain: items "
                                                           "since this date (default: the last 14 days).",
                                                           callback=check_date)] = None,
              fmt: TableOrJson = TableJson.table) -> None:
    """Record a team member's correction (organized/labels/<doc>.jsonl), or list what to label next."""
    from pipeline.classify.labelling import record_label, uncertain_items
    if uncertain is not None:
        if ident is not None or relevance is not None:
            raise typer.BadParameter("--uncertain lists items; it takes no ID or --relevance")
        with run_context(None, write=False) as ctx:     # it only reads: a member who may only read lists too
            rows = uncertain_items(ctx, doc, uncertain, since)
        from kb.cli.common import echo_rows
        echo_rows(rows, fmt.value, ["id", "uncertainty", "relevance", "topics", "reason", "title"], id_key="id")
        return
    if withdraw:
        if ident is None or relevance is not None or topic:
            raise typer.BadParameter("--withdraw takes an ID and no --relevance or --topic")
        relevance = None
    elif ident is None or relevance is None:
        raise typer.BadParameter("give an ID and --relevance primary|adjacent|none (or --withdraw, --uncertain N)")
    if relevance not in ("primary", "adjacent", "none", None):
        raise typer.BadParameter(f"--relevance {relevance!r}: primary, adjacent or none")
    from kb.config_values import unknown_topics
    for t in unknown_topics(open_workspace().root / "taxonomy.toml", list(topic or ()))[:1]:
        raise typer.BadParameter(f"--topic {t!r} is no topic of the taxonomy")
    if relevance == "none" and topic:
        raise typer.BadParameter("--relevance none keeps no topics (kb's contract): drop --topic")
    # it reads the store (is the ID there?) and appends to a team file: a member who may only read the store
    # labels too
    with run_context(None, write=False) as ctx:
        line = record_label(ctx, ident, relevance, topic, doc, note, by)
    if not state.quiet:
        echo(line)


def train_cmd(corpus: Annotated[Path, typer.Option("--corpus", metavar="DIR", help="The corpus: curated_lists/ "
                                                   "and abstracts/ (SOURCES.md beside them).")],
              out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The model file to write (.npz); "
                                                "LICENCES and provenance are written beside it.")],
              dev: Annotated[Optional[Path], typer.Option("--dev", help="Labelled JSONL trained on (kb's dev "
                                                          "set, tests/data/classifier_dev.jsonl).")] = None,
              holdout: Annotated[Optional[Path], typer.Option("--holdout", help="Labelled JSONL only measured "
                                                              "(tests/data/classifier_holdout.jsonl).")] = None,
              licences: Annotated[str, typer.Option("--licences", metavar="default|permissive",
                                                    help="permissive: MIT/Apache/CC0/BSD sources only.")] = "default",
              measured_out: Annotated[Optional[Path], typer.Option("--measured-out", metavar="FILE", help="Also "
                                      "write the measured model (train split + dev; what kb eval --split and "
                                      "bench/eval_models.py measure).")] = None,
              ) -> None:
    """Train the classifier from the corpus (needs kb[train]: scikit-learn); what ships is data/classifier_model.npz."""
    from pipeline.classify.labelling import check_corpus
    _require_train_extra("kb train")
    check_corpus(corpus)
    from pipeline.classify.training.train import main
    argv = ["--corpus", str(corpus), "--out", str(out), "--licences", licences]
    argv += ["--dev", str(dev)] if dev else []
    argv += ["--holdout", str(holdout)] if holdout else []
    argv += ["--measured-out", str(measured_out)] if measured_out else []
    raise typer.Exit(main(argv))


def _require_train_extra(what: str) -> None:
    """Fitting needs kb[train] (scikit-learn, scipy), which a run-time install lacks: say so, not a traceback."""
    import importlib.util

    from kb.errors import ConfigError
    if importlib.util.find_spec("sklearn") is None or importlib.util.find_spec("scipy") is None:
        raise ConfigError(f"{what} needs scikit-learn and scipy: pip install 'kb[train]'")


@eval_app.command("classifier")
def eval_classifier_cmd(file: Annotated[Optional[Path], typer.Argument(help="JSONL of labelled items "
                                                                       "{id, title, text, topics, relevance}.")] = None,
                        fmt: TableOrJson = TableJson.table,
                        taxonomy: Annotated[Optional[Path], typer.Option("--taxonomy", help="A taxonomy "
                                            "override to merge over the shipped one (keyword model).")] = None,
                        model: Annotated[str, typer.Option("--model", metavar="learned|keyword",
                                                           help="Which classifier.")] = "learned",
                        model_file: Annotated[Optional[Path], typer.Option("--model-file", help="A trained model "
                                              "file (default: the shipped one).")] = None,
                        corpus: Annotated[Optional[Path], typer.Option("--corpus", metavar="DIR", help="With "
                                          "--split or --cv: the training corpus.")] = None,
                        split: Annotated[Optional[str], typer.Option("--split", metavar="train|val|test",
                                         help="Measure on the corpus' curated papers of this split (by ID).")] = None,
                        source: Annotated[str, typer.Option("--source", metavar="curated|systems|random|heldout",
                                          help="With --split: the curated papers (default), the systems papers "
                                          "without LLMs, the random-sample abstracts, or (--split test) the papers "
                                          "kb labelled and never trains on.")] = "curated",
                        cv: Annotated[Optional[int], typer.Option("--cv", metavar="K", min=2, max=10,
                                      help="K-fold cross-validation of training on the corpus.")] = None) -> None:
    """Per-topic precision/recall/F1, micro/macro F1, relevance accuracy and confusion, and every item's prediction."""
    from kb.cli.output import format_json
    from pipeline.classify.labelling import eval_items
    if model not in ("learned", "keyword"):
        raise typer.BadParameter(f"--model {model!r}: learned or keyword")
    if (split or cv) and corpus is None:
        raise typer.BadParameter("--split and --cv need --corpus DIR")
    if file is None and not (split or cv):
        raise typer.BadParameter("give a FILE of labelled items, or --corpus DIR with --split or --cv")
    if cv:
        from pipeline.classify.labelling import check_corpus
        _require_train_extra("kb eval classifier --cv")   # it trains K models
        check_corpus(corpus)
        from kb.resources import find_resource
        from pipeline.classify.training.train import cross_validate
        echo(cross_validate(corpus, find_resource("data/label_map.toml"), find_resource("data/taxonomy.toml"),
                                  k=cv))
        return
    result = eval_items(file, model=model, model_file=model_file, taxonomy=taxonomy, corpus=corpus, split=split,
                        source=source)
    if fmt is TableJson.json:
        echo(format_json(result))
    else:
        from pipeline.classify.evaluate import format_eval_table
        echo(format_eval_table(result))


class SectionMethod(str, Enum):
    learned = "learned"
    hints = "hints"


@eval_app.command("sections")
def eval_sections_cmd(doc: Annotated[str, typer.Argument(metavar="DOC", help="A knowledge doc: its file, or a "
                                                         "topic slug of the workspace.")],
                      fmt: TableOrJson = TableJson.table,
                      method: Annotated[SectionMethod, typer.Option(
                          "--method", help="learned: the doc's own section models (what a learned workspace's "
                          "briefings use); hints: the topics' section hints (what a keyword workspace's use).")
                      ] = SectionMethod.learned) -> None:
    """Leave-one-out section suggestion over the doc's anchors: top-1 and top-3."""
    from kb.cli.output import format_json
    from pipeline.classify.labelling import eval_sections, format_sections_table
    path = Path(doc)
    ws = None
    if not path.is_file():
        ws = open_workspace()
        found = [t for t in ws.config.topics if t.slug == doc]
        if not found:
            raise typer.BadParameter(f"{doc}: no such file, and no topic {doc!r} in kb.toml")
        path = ws.path(found[0].doc)
    else:
        from kb.errors import KBError
        try:
            ws = open_workspace()
        except KBError:     # a doc outside any workspace is measured on its own lines
            ws = None
    if method is SectionMethod.hints:
        from pipeline.brief.hints_eval import leave_one_out_by_hints
        from pipeline.classify.engine import workspace_taxonomy
        taxonomy = workspace_taxonomy(ws, keep=False)   # a measurement: it writes nothing, no cache either
        result = eval_sections(path, ws, by=lambda heads, items: leave_one_out_by_hints(heads, items, taxonomy))
    else:
        result = eval_sections(path, ws)
    result["method"] = method.value
    uses = getattr(ws.config, "classify_model", None) if ws is not None else None
    echo(format_json(result) if fmt is TableJson.json else format_sections_table(result, briefings_use=uses))


@eval_app.command("flags")
def eval_flags_cmd(labels: Annotated[Path, typer.Argument(metavar="LABELS", help="A TOML file of the flags people "
                                                          "expect on one day, and decoys (docs/briefing.md).")],
                   fmt: TableOrJson = TableJson.table) -> None:
    """The verification rules against a labelled day: per rule, expected, raised, found, missed, extra,
    recall and precision. The day must be in the store (its nightly run); nothing is written."""
    from kb.cli.output import format_json
    from kb.errors import ConfigError
    from kb.store.briefings import recorded
    from kb.store.flags import RULES
    from pipeline.brief.evaluate import format_flags_table, load_labels, score
    from pipeline.brief.write import briefing_data
    expected = load_labels(labels, tuple(RULES))
    with run_context(expected.day, write=False) as ctx:
        if recorded(ctx.store, expected.topic, expected.day, "", "json") is None:   # its inputs are not in the store
            raise ConfigError(f"no briefing of {expected.topic} recorded for {expected.day}: run "
                              f"`kb nightly --date {expected.day}` first (the day's sources and files)")
        data = briefing_data(ctx, expected.topic, preview=True)
    result = score(data["flags"], expected)
    echo(format_json(result) if fmt is TableJson.json else format_flags_table(result))


@eval_app.command("claims")
def eval_claims_cmd(labels: Annotated[Path, typer.Argument(metavar="LABELS", help="JSON lines of the figures "
                                                           "people read in real abstracts (docs/briefing.md).")],
                    corpus: Annotated[Path, typer.Option("--corpus", metavar="DIR", help="The corpus whose "
                                                         "abstracts/ holds the labelled papers.")],
                    split: Annotated[Optional[str], typer.Option("--split", metavar="dev|test",
                                                                 help="Only the abstracts of this split.")] = None,
                    people: Annotated[Optional[Path], typer.Option("--people", metavar="FILE", help="Another "
                                      "person's labels of some of the same abstracts: their agreement beside "
                                      "kb's figures.")] = None,
                    fmt: TableOrJson = TableJson.table) -> None:
    """The claims reader (the figures the number rule compares) against people's reading of real abstracts:
    precision, recall and F1 of the figures, their quantities and their subjects, with the workspace's words
    (data/briefing.toml) when run in one. Nothing is written."""
    from kb.cli.output import format_json
    from kb.errors import ConfigError, KBError
    from pipeline.brief.claims_eval import (
        corpus_abstracts,
        format_claims_table,
        kb_figures,
        load_claim_labels,
        reader,
        score_claims,
    )
    from pipeline.brief.rules import load_rules
    try:   # a workspace's own words (its data/briefing.toml) read as its briefings do; else kb's
        root = open_workspace().root
    except KBError:
        root = None
    rules = load_rules(root)
    names = set(rules.quantities.values())
    items = [it for it in load_claim_labels(labels, names) if split is None or it.split == split]
    if not items:
        raise ConfigError(f"{labels}: no abstract of the {split} split")
    texts = corpus_abstracts(corpus, {it.id for it in items})
    absent = [it.id for it in items if it.id not in texts]
    if absent:
        raise ConfigError(f"--corpus {corpus}: {len(absent)} labelled abstracts are not in it (first: {absent[0]})")
    read = reader(rules)
    result = score_claims(items, {i: kb_figures(*texts[i], read) for i in texts})
    agreement = None
    if people is not None:
        theirs = {it.id: list(it.figures) for it in load_claim_labels(people, names)}
        both = [it for it in items if it.id in theirs]
        agreement = score_claims(both, theirs) if both else None
        result["people"] = agreement
    echo(format_json(result) if fmt is TableJson.json else format_claims_table(result, agreement))
