"""`kb classify`, `kb explain`, `kb eval classifier`: thin commands over pipeline.classify*."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kb.cli.common import run_context, state
from kb.cli.options import TableJson, TableOrJson

eval_app = typer.Typer(help="Measure kb's components on labelled data.", no_args_is_help=True)


def classify_cmd(everything: Annotated[bool, typer.Option("--all", help="Re-tag everything, not only "
                                                          "what changed.")] = False) -> None:
    """Tag papers, posts and note entries with topics and relevance (new or changed ones)."""
    from pipeline.classify.stage import run_classify
    with run_context(None) as ctx:
        report = run_classify(ctx, everything=everything)
    if not state.quiet:
        typer.echo(report.summary())


def explain_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID, post key, or note "
                                                     "entry as path#N.")]) -> None:
    """Why an item got its tags and relevance: matched terms, scores, thresholds."""
    from pipeline.classify.stage import explain_subject
    with run_context(None, write=False) as ctx:
        typer.echo("\n".join(explain_subject(ctx, ident)))


@eval_app.command("classifier")
def eval_classifier_cmd(file: Annotated[Path, typer.Argument(help="JSONL of labelled items "
                                                             "{id, title, text, topics, relevance}.")],
                        fmt: TableOrJson = TableJson.table,
                        taxonomy: Annotated[Optional[Path], typer.Option("--taxonomy", help="A taxonomy "
                                            "override to merge over the shipped one.")] = None) -> None:
    """Per-topic precision/recall/F1, micro/macro F1, relevance accuracy and confusion."""
    from kb.cli.output import format_json
    from pipeline.classify.evaluate import classifier_fn, evaluate, format_eval_table, load_labelled
    from pipeline.classify.taxonomy import load_taxonomy
    result = evaluate(load_labelled(file), classifier_fn(load_taxonomy(taxonomy)))
    typer.echo(format_json(result) if fmt is TableJson.json else format_eval_table(result))
