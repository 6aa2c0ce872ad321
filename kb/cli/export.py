"""`kb export bibtex`: citations of what the team anchored and what briefings listed, a thin command over kb.bibtex."""
from __future__ import annotations

from typing import Annotated, Optional

import typer

from kb.cli.common import configured_topics, echo, open_store, open_workspace, state
from kb.cli.options import AnyTopic, Since, refuse_blank_path
from kb.text import counted

export_app = typer.Typer(help="Export what kb knows for other tools.", no_args_is_help=True)


@export_app.command("bibtex")
def export_bibtex_cmd(topic: AnyTopic = None,
                      section: Annotated[Optional[str], typer.Option("--section", help="Section number; 2.3 "
                                                                    "includes 2.3.1.")] = None,
                      since: Since = None,
                      out: Annotated[Optional[str], typer.Option("--out", help="Write the .bib here (relative paths "
                                                                 "are the workspace's); default: stdout.")] = None,
                      force: Annotated[bool, typer.Option("--force", help="Let --out overwrite an existing file "
                                                          "(a recorded briefing too).")] = False) -> None:
    """BibTeX (@misc, arXiv's fields) for every arXiv ID anchored in a knowledge doc or listed in a briefing's §4."""
    from kb.bibtex import bibtex
    from kb.fsutil import write_atomically
    refuse_blank_path(out, "'--out'")
    ws = open_workspace()
    target = ws.output_path(out, force=force) if out else None
    with open_store(ws) as store:
        text = bibtex(store, topic=topic, section=section, since=since,
                      topics=None if topic else configured_topics(ws))
    if target is None:
        echo(text, nl=False)
        return
    write_atomically(target, text.encode("utf-8"))
    if not state.quiet:
        echo(f"{target} — {counted(text.count('@misc{'), 'entry', 'entries')}")
