"""`kb db …`: the store itself."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kb.cli.common import open_store
from kb.cli.options import TableJson, TableOrJson

db_app = typer.Typer(help="Inspect the store.", no_args_is_help=True)


@db_app.command("status")
def db_status_cmd(fmt: TableOrJson = TableJson.table) -> None:
    """Schema version and row counts of every table."""
    from kb.cli.output import format_json, format_table
    with open_store() as store:
        status = store.status()
    if fmt is TableJson.json:
        typer.echo(format_json(status))
    else:
        typer.echo(f"store: {status['path']}\nschema: {status['schema_version']}")
        typer.echo(format_table([{"table": t, "rows": n} for t, n in status["counts"].items()]))


@db_app.command("check")
def db_check_cmd() -> None:
    """SQLite's integrity check of the store (exit 1 when it finds damage)."""
    with open_store() as store:
        found = store.check()
    typer.echo("\n".join(found))
    if found != ["ok"]:
        raise typer.Exit(1)


@db_app.command("backup")
def db_backup_cmd(dest: Annotated[Path, typer.Argument(metavar="FILE", help="A new file for the copy.")]) -> None:
    """A consistent copy of the store, safe while a nightly runs (SQLite's online backup)."""
    with open_store() as store:
        store.backup(dest)
    typer.echo(f"backed up {store.where} to {dest}")
