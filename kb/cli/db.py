"""`kb db …`: the store itself."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from kb.cli.common import echo, open_store, open_workspace
from kb.cli.options import TableJson, TableOrJson, refuse_blank_path
from kb.errors import StoreError

db_app = typer.Typer(help="Inspect the store; back it up; copy it to another backend.", no_args_is_help=True)


@db_app.command("status")
def db_status_cmd(fmt: TableOrJson = TableJson.table) -> None:
    """Schema version and row counts of every table."""
    from kb.cli.output import format_json, format_table
    with open_store() as store:
        status = store.status()
    if fmt is TableJson.json:
        echo(format_json(status))
    else:
        echo(f"store: {status['path']}\nschema: {status['schema_version']}")
        echo(format_table([{"table": t, "rows": n} for t, n in status["counts"].items()]))


@db_app.command("check")
def db_check_cmd() -> None:
    """The store's own check: SQLite's integrity check, or on PostgreSQL the search index against its
    tables (exit 1 when it finds damage)."""
    with open_store() as store:
        found = store.check()
    echo("\n".join(found))
    if found != ["ok"]:
        raise typer.Exit(1)


@db_app.command("backup")
def db_backup_cmd(written: Annotated[str, typer.Argument(metavar="FILE", help="A new file for the copy.")]) -> None:
    """A consistent copy of the store, safe while a nightly runs (SQLite's online backup)."""
    refuse_blank_path(written, "'FILE'", "name the file to write")
    dest = Path(written).expanduser().resolve()   # relative to where the command runs; what is written and said
    if written.endswith(("/", os.sep)) or dest.is_dir():   # "bak/" names a folder, not the file to make
        raise typer.BadParameter(f"{written}: a folder; name the file to write", param_hint="'FILE'")
    ws = open_workspace()
    ws.refuse_team_file(dest, written)
    if not isinstance(ws.store_target, Path):   # said before connecting: a server that is down hid the hint
        raise StoreError("kb db backup copies a SQLite store; for PostgreSQL use pg_dump, or "
                         "`kb db copy --to FILE.sqlite` (docs/team.md)")
    with open_store(ws) as store:
        damage = store.backup(dest)
    written = str(dest)
    if damage:   # the pages were copied as they are: the copy is kept, and is no good backup
        raise StoreError(f"backed up {store.where} to {written}, but the copy is damaged as the store is "
                         f"({damage[0]}): `kb db check` shows what SQLite finds; keep your last good backup")
    echo(f"backed up {store.where} to {written}")


@db_app.command("copy")
def db_copy_cmd(to: Annotated[str, typer.Option("--to", metavar="URL|FILE", help="An empty PostgreSQL database "
                                                "(postgresql://…) or a new SQLite file.")],
                fmt: TableOrJson = TableJson.table) -> None:
    """Copy the whole store (every table, the migrations' record, the ledger, the flags) into an empty
    PostgreSQL database or a new SQLite file, and check that every table's row count is the same."""
    from kb.cli.output import format_json, format_table
    from kb.config_values import names_a_server, store_url_problem
    from kb.store.copy import copy_store
    from kb.store.db import is_postgres_url
    refuse_blank_path(to, "'--to'", "name a new SQLite file or a postgresql:// URL")
    # a libpq "host=… password=…" string is no file name: read as one, it made a file so named and printed it
    if names_a_server(to) and (problem := store_url_problem(to)):
        raise typer.BadParameter(problem, param_hint="'--to'")
    ws = open_workspace()
    if not is_postgres_url(to):   # a new SQLite file: never among the team's files, as for kb db backup
        ws.refuse_team_file(Path(to).expanduser().resolve(), to)
    with open_store(ws) as store:
        report = copy_store(store, to)
    if fmt is TableJson.json:
        echo(format_json({"source": report.source, "target": report.target, "counts": report.counts,
                                "search_documents": report.documents}))
        return
    echo(format_table([{"table": t, "rows": n} for t, n in report.counts.items()]))
    echo(f"copied {report.source} to {report.target}: {sum(report.counts.values()):,} rows in "
               f"{len(report.counts)} tables, the same count in each; {report.documents:,} documents indexed")
