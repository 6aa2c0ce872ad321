"""`kb db …`: the store itself."""
from __future__ import annotations

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
