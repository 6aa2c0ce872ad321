"""`kb ingest …` and `kb sources …`: thin commands over pipeline.ingest."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kb.cli.common import TableJson, echo_rows, finish_reports, run_context, state

ingest_app = typer.Typer(help="Pull sources into the store.", no_args_is_help=True)
sources_app = typer.Typer(help="Health of the configured sources.", no_args_is_help=True)

DateOpt = Annotated[Optional[str], typer.Option("--date", help="The day (YYYY-MM-DD); default: today in the "
                                                "workspace's time zone.")]
FilesOpt = Annotated[Optional[list[Path]], typer.Option("--from-file", help="Read this recording instead of "
                                                        "the network (repeatable; format auto-detected).")]


@ingest_app.command("arxiv")
def ingest_arxiv_cmd(day: DateOpt = None, files: FilesOpt = None) -> None:
    """The arXiv daily listing (RSS or Atom) for the configured categories."""
    from pipeline.ingest.public import ingest_source
    with run_context(day) as ctx:
        finish_reports([ingest_source(ctx, "arxiv", files)])


@ingest_app.command("hf")
def ingest_hf_cmd(day: DateOpt = None, files: FilesOpt = None) -> None:
    """Hugging Face Daily Papers (featured date and upvotes kept per day)."""
    from pipeline.ingest.public import ingest_source
    with run_context(day) as ctx:
        finish_reports([ingest_source(ctx, "hf", files)])


@ingest_app.command("blogs")
def ingest_blogs_cmd(feed: Annotated[Optional[str], typer.Option("--feed", help="Only this configured feed.")] = None,
                     files: FilesOpt = None, day: DateOpt = None) -> None:
    """Configured blog and news feeds (RSS/Atom)."""
    from pipeline.ingest.public import ingest_blogs
    with run_context(day) as ctx:
        finish_reports(ingest_blogs(ctx, feed, files))


@ingest_app.command("arxiv-api")
def ingest_arxiv_api_cmd(
    query: Annotated[str, typer.Option("--query", help="arXiv API search, e.g. 'cat:cs.DC AND abs:prefill'.")],
    since: Annotated[Optional[str], typer.Option("--since", help="Submitted on or after (YYYY-MM-DD).")] = None,
    until: Annotated[Optional[str], typer.Option("--until", help="Submitted on or before (YYYY-MM-DD).")] = None,
    limit: Annotated[int, typer.Option("--limit", help="At most this many results.")] = 200,
    day: DateOpt = None,
) -> None:
    """Backfill from the arXiv API (3 s between requests, retries)."""
    from pipeline.ingest.api import ingest_api_search
    with run_context(day) as ctx:
        finish_reports([ingest_api_search(ctx, query, since=since, until=until, limit=limit)])


@ingest_app.command("arxiv-bulk")
def ingest_arxiv_bulk_cmd(file: Annotated[Path, typer.Argument(help="Kaggle JSON lines or OAI-PMH XML.")],
                          batch: Annotated[int, typer.Option("--batch", help="Records per transaction.")] = 5000,
                          day: DateOpt = None) -> None:
    """Backfill from a bulk metadata file, streamed (memory does not grow with the file)."""
    from pipeline.ingest.bulk import ingest_bulk_file
    with run_context(day) as ctx:
        finish_reports([ingest_bulk_file(ctx, file, batch=batch, progress=not state.quiet)])


@ingest_app.command("workspace")
def ingest_workspace_cmd(day: DateOpt = None) -> None:
    """The team's files: inbox notes, paper cards, the work queue, knowledge docs (changed files only)."""
    from pipeline.ingest.workspace import ingest_workspace
    with run_context(day) as ctx:
        finish_reports([ingest_workspace(ctx)])


@ingest_app.command("all")
def ingest_all_cmd(day: DateOpt = None,
                   offline: Annotated[bool, typer.Option("--offline", help="Recordings and workspace only.")] = False,
                   ) -> None:
    """Every configured public source, then the workspace."""
    from pipeline.nightly import ingest_everything
    with run_context(day, offline=offline) as ctx:
        finish_reports(ingest_everything(ctx))


@sources_app.command("status")
def sources_status_cmd(fmt: Annotated[TableJson, typer.Option("--format")] = TableJson.table) -> None:
    """Per source: last success, last failure, consecutive failures, staleness (weekends understood)."""
    from kb.cli.common import open_store
    from kb.store.sources import sources_status
    with open_store() as store:
        rows = sources_status(store)
    echo_rows(rows, fmt.value, ["name", "last_status", "last_success", "last_failure", "consecutive_failures",
                                "last_new", "stale", "last_error"])

