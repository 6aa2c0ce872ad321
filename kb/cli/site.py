"""`kb site build`: the archive site, a thin command over pipeline.site."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from kb.cli.common import echo, open_store, open_workspace, state
from kb.cli.options import refuse_blank_path

site_app = typer.Typer(help="The archive site: every briefing as HTML, an index, topic pages, Atom feeds.",
                       no_args_is_help=True)


@site_app.command("build")
def site_build_cmd(out: Annotated[Optional[str], typer.Option("--out", help="The site's folder (relative paths "
                                                              "are the workspace's); default: [site] dir of "
                                                              "kb.toml, else site/.")] = None,
                   force: Annotated[bool, typer.Option("--force", help="Write into a folder holding files kb did "
                                                       "not write.")] = False) -> None:
    """Write the static site of every recorded briefing; only pages whose bytes changed are written."""
    from pipeline.site.build import MARKER, build_site
    refuse_blank_path(out, "'--out'", "name a folder (relative paths are the workspace's)")
    ws = open_workspace()
    configured = not out and ws.config.site_dir
    folder = ws.output_dir(out or ws.config.site_dir or "site", marker=MARKER, force=force,
                           named="[site] dir" if configured else "--out")
    with open_store(ws) as store:
        result = build_site(ws, store, folder)
    if not state.quiet:
        echo(f"{result.index} — {result.written} of {result.pages} files written")
