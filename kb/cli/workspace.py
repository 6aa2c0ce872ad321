"""`kb init`, `kb anchor`, `kb audit`: the team's workspace."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kb.cli.common import configured_topics, echo, echo_rows, open_store, open_workspace, run_context
from kb.cli.options import AnyTopic, AuditFormat, Day, Fmt4, Topic


def init_cmd(directory: Annotated[str, typer.Argument(help="Folder to make a workspace of.")]) -> None:
    """Create a workspace: folders and a commented kb.toml (an existing one is kept)."""
    from kb.workspace import init_workspace
    if not directory.strip():   # an unset $DIR in a script: never the folder the command runs in
        raise typer.BadParameter("an empty path; name the folder (`kb init .` for this one)", param_hint="'DIRECTORY'")
    created = init_workspace(Path(directory))
    echo(f"workspace {directory}: " + (", ".join(created) if created else "already complete"))
    if "kb.toml" not in created:   # kept as it is: say so when it would stop the next command
        from kb.config import load_config
        from kb.errors import ConfigError
        try:
            load_config(Path(directory) / "kb.toml")
        except ConfigError as exc:
            echo(f"kb.toml kept as it is, but it does not read: {exc}", err=True)
            raise typer.Exit(2) from None


def audit_cmd(topic: AnyTopic = None, fmt: AuditFormat = Fmt4.table) -> None:
    """Curation findings: duplicates, impossible dates, card mismatches, noticed-but-unanchored papers
    (exit 1 when there is any, as `kb db check`: a script or CI job can tell a clean workspace apart)."""
    from kb.store.audit import audit
    ws = open_workspace()
    with open_store(ws) as store:
        configured = configured_topics(ws)   # "anchored nowhere" is nowhere kb.toml names, whatever --topic
        rows = audit(store, topic=topic, topics=None if topic else configured, configured=configured)
    echo_rows(rows, fmt.value, ["kind", "subject", "detail"], id_key="subject")
    if rows:
        raise typer.Exit(1)


def anchor_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID (any form) or URL.")],
               section: Annotated[str, typer.Option("--section", help="Section number, e.g. 2.3.")],
               topic: Topic = None, day: Day = None,
               dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff; change nothing.")] = False,
               ) -> None:
    """Anchor a paper in a knowledge-doc section: one line added to the doc, every other byte kept."""
    from kb.errors import ConfigError
    from pipeline.ingest.anchor import anchor_item
    with run_context(None, write=not dry_run) as ctx:   # a dry run reads: a member who may only read runs it
        # --date dates the line kb writes; the doc's other lines are seen today, as a nightly would see them
        if day and day > ctx.today.isoformat():
            raise ConfigError(f"--date {day} is after today ({ctx.today}): an anchor cannot be dated in the future")
        result = anchor_item(ctx, ident, section, topic=topic, dry_run=dry_run, anchored_on=day)
    also = f"; also anchored in {', '.join('§' + s for s in result.elsewhere)}" if result.elsewhere else ""
    if dry_run:   # the diff alone on stdout, for patch; the note beside it
        echo(result.diff)
        if also:
            echo(f"kb: {result.subject} is{also.removeprefix(';')}", err=True)
    else:
        echo(f"anchored {result.subject} in {result.path} §{result.section} (line {result.line}){also}")
