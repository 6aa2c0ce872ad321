"""The `kb` command line: parse arguments, call one library function, print.

No SQL and no HTTP here. Library modules are imported inside the commands so
that `kb --help` and the read-only queries start fast.
"""
from __future__ import annotations

import logging
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from kb import __version__
from kb.cli.brief import brief_cmd, flags_app
from kb.cli.classify import classify_cmd, eval_app, explain_cmd
from kb.cli.common import TableJson, open_store, state
from kb.cli.ingest import ingest_app, sources_app
from kb.cli.nightly import nightly_cmd
from kb.cli.query import anchor_cmd, audit_cmd, query_app, search_cmd
from kb.errors import KBError

app = typer.Typer(help="kb — knowledge base and daily increment briefings for LLM-inference research.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None)
db_app = typer.Typer(help="Inspect the store.", no_args_is_help=True)
# Registration order is the order `kb --help` lists them in: the daily path first.
app.command("nightly")(nightly_cmd)
app.command("brief")(brief_cmd)
app.command("classify")(classify_cmd)
app.command("explain")(explain_cmd)
app.command("search")(search_cmd)
app.command("anchor")(anchor_cmd)
app.command("audit")(audit_cmd)
app.add_typer(ingest_app, name="ingest")
app.add_typer(query_app, name="query")
app.add_typer(flags_app, name="flags")
app.add_typer(sources_app, name="sources")
app.add_typer(eval_app, name="eval")
app.add_typer(db_app, name="db")

class MdJson(str, Enum):
    md = "md"
    json = "json"


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kb {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    home: Annotated[Optional[Path], typer.Option("--home", help="Workspace folder (else $KB_HOME, else "
                                                 "the nearest folder upwards with a kb.toml).")] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what kb does.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Global options."""
    state.home = str(home) if home else None
    state.quiet = quiet
    level = logging.DEBUG if verbose else logging.ERROR if quiet else logging.WARNING
    # The console shows this level only; a run log may lower the root logger's level for its own file.
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(level)
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[console], force=True)


@app.command("init")
def init_cmd(directory: Annotated[Path, typer.Argument(help="Folder to make a workspace of.")]) -> None:
    """Create a workspace: folders and a commented kb.toml (an existing one is kept)."""
    from kb.workspace import init_workspace
    created = init_workspace(directory)
    typer.echo(f"workspace {directory}: " + (", ".join(created) if created else "already complete"))


@db_app.command("status")
def db_status_cmd(fmt: Annotated[TableJson, typer.Option("--format")] = TableJson.table) -> None:
    """Schema version and row counts of every table."""
    from kb.cli.output import format_json, format_table
    with open_store() as store:
        status = store.status()
    if fmt is TableJson.json:
        typer.echo(format_json(status))
    else:
        typer.echo(f"store: {status['path']}\nschema: {status['schema_version']}")
        typer.echo(format_table([{"table": t, "rows": n} for t, n in status["counts"].items()]))


@app.command("show")
def show_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID in any form (URL, arXiv:…, vN).")],
             fmt: Annotated[MdJson, typer.Option("--format")] = MdJson.md) -> None:
    """Everything known about one paper: metadata, versions, sources, anchors, mentions, tags, flags."""
    from kb.cli.output import format_json, format_paper_md
    from kb.store.papers import get_paper
    with open_store() as store:
        paper = get_paper(store, ident)
    typer.echo(format_json(paper) if fmt is MdJson.json else format_paper_md(paper))


def main() -> None:
    """Entry point: run the app, turning kb's own errors into one line and an exit code.

    Usage errors are Typer's own (exit 2); a KBError is an expected failure and
    never shows a traceback.
    """
    try:
        app()
    except KBError as exc:
        typer.echo(f"kb: error: {exc}", err=True)
        sys.exit(exc.exit_code)


def run() -> None:
    """The ``kb`` console script (and ``python -m kb.cli``): ``main`` as a short batch process.

    The collector settings are the process's, so they are set here, not in ``main``,
    which tests and embedders may call inside a longer-lived process.
    """
    _tune_gc()
    try:
        main()
    finally:
        _skip_collections_at_exit()


# A kb command is a short batch process that allocates many small objects (records, rows,
# tokens) and few reference cycles. With CPython's default threshold (700) the cycle
# collector ran ~550 times during a heavy nightly, 4 of them over the whole heap: 0.24 s
# of a 2.1 s run (bench/nightly.py). Collecting every 50,000 allocations still bounds
# the garbage cycles can hold, at a few collections per run: a 200k-record
# `kb ingest arxiv-bulk` peaks at the same 92 MB with these settings as with the defaults.
GC_THRESHOLD = (50_000, 20, 100)


def _tune_gc() -> None:
    import gc
    gc.set_threshold(*GC_THRESHOLD)


def _skip_collections_at_exit() -> None:
    """Spare the interpreter's shutdown its passes of the cycle collector over the whole heap
    (0.1 s after a heavy nightly). Every file and the store were closed by their owners; what
    the collector would find now is garbage the process's exit frees anyway."""
    import gc
    gc.freeze()

