"""`kb ingest …` and `kb sources …`: thin commands over pipeline.ingest."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from kb.cli.common import echo_rows, finish_reports, run_context
from kb.cli.options import Day, Files, Since, TableJson, TableOrJson, Until

ingest_app = typer.Typer(help="Pull sources into the store.", no_args_is_help=True)
sources_app = typer.Typer(help="Health of the configured sources.", no_args_is_help=True)



@ingest_app.command("arxiv")
def ingest_arxiv_cmd(day: Day = None, files: Files = None) -> None:
    """The arXiv daily listing (RSS or Atom) for the configured categories."""
    from pipeline.ingest.public import ingest_source
    with run_context(day) as ctx:
        finish_reports([ingest_source(ctx, "arxiv", files)])


@ingest_app.command("hf")
def ingest_hf_cmd(day: Day = None, files: Files = None) -> None:
    """Hugging Face Daily Papers (featured date and upvotes kept per day)."""
    from pipeline.ingest.public import ingest_source
    with run_context(day) as ctx:
        finish_reports([ingest_source(ctx, "hf", files)])


@ingest_app.command("blogs")
def ingest_blogs_cmd(feed: Annotated[Optional[str], typer.Option("--feed", help="Only this configured feed.")] = None,
                     files: Files = None, day: Day = None) -> None:
    """Configured blog and news feeds (RSS/Atom)."""
    from pipeline.ingest.public import ingest_blogs
    with run_context(day) as ctx:
        finish_reports(ingest_blogs(ctx, feed, files))


@ingest_app.command("arxiv-api")
def ingest_arxiv_api_cmd(
    query: Annotated[str, typer.Option("--query", help="arXiv API search, e.g. 'cat:cs.DC AND abs:prefill'.")],
    since: Since = None,
    until: Until = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1_000_000, help="At most this many results.")] = 200,
    day: Day = None,
) -> None:
    """Backfill from the arXiv API (3 s between requests, retries)."""
    from pipeline.ingest.api import ingest_api_search
    with run_context(day) as ctx:
        finish_reports([ingest_api_search(ctx, query, since=since, until=until, limit=limit)])


@ingest_app.command("arxiv-bulk")
def ingest_arxiv_bulk_cmd(file: Annotated[Path, typer.Argument(help="Kaggle JSON lines or OAI-PMH XML.")],
                          batch: Annotated[int, typer.Option("--batch", min=1, max=1_000_000,
                                                       help="Records per transaction.")] = 5000,
                          day: Day = None) -> None:
    """Backfill from a bulk metadata file, streamed (memory does not grow with the file)."""
    from pipeline.ingest.bulk import ingest_bulk_file
    with run_context(day) as ctx:
        finish_reports([ingest_bulk_file(ctx, file, batch=batch)])


@ingest_app.command("workspace")
def ingest_workspace_cmd(day: Day = None) -> None:
    """The team's files: inbox notes, paper cards, the work queue, knowledge docs (changed files only)."""
    from pipeline.ingest.workspace import ingest_workspace
    with run_context(day) as ctx:
        finish_reports([ingest_workspace(ctx)])


@ingest_app.command("all")
def ingest_all_cmd(day: Day = None,
                   offline: Annotated[bool, typer.Option("--offline", help="Recordings and workspace only.")] = False,
                   ) -> None:
    """Every configured public source, then the workspace."""
    from pipeline.nightly import ingest_everything
    with run_context(day, offline=offline) as ctx:
        finish_reports(ingest_everything(ctx))


@sources_app.command("status")
def sources_status_cmd(fmt: TableOrJson = TableJson.table) -> None:
    """Per source: last success, last failure, consecutive failures, staleness (weekends understood)."""
    from kb.cli.common import open_store
    from kb.store.sources import sources_status
    with open_store() as store:
        rows = sources_status(store)
    echo_rows(rows, fmt.value, ["name", "last_status", "last_success", "last_failure", "consecutive_failures",
                                "last_new", "stale", "last_error"])

