"""`kb query …`, `kb show`, `kb search`: thin read commands over kb.store."""
from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from kb.cli.common import configured_topics, echo, echo_rows, open_store, open_workspace
from kb.cli.options import AnyTopic, Fmt4, Format, MdJson, MdOrJson, SearchFormat, Since, Tag, Until

query_app = typer.Typer(help="Query the store.", no_args_is_help=True)


class Relevance(str, Enum):
    primary = "primary"
    adjacent = "adjacent"


def _check_source(value: str | None) -> str | None:
    if value is not None:
        from kb.cli.common import open_workspace
        from pipeline.sources.registry import build_registry
        names = [s.name for s in build_registry(open_workspace().config)]
        if value not in names:
            raise typer.BadParameter(f"no source {value!r} (sources: {', '.join(names)})")
    return value


@query_app.command("papers")
def query_papers_cmd(since: Since = None, until: Until = None,
                     source: Annotated[Optional[str], typer.Option("--source", callback=_check_source,
                                                                   help="Only this source.")] = None,
                     topic: Tag = None,
                     relevance: Annotated[Optional[Relevance], typer.Option(
                         "--relevance", help="Only papers the classifier judged so (primary or adjacent to "
                         "LLM inference).")] = None,
                     fmt: Format = Fmt4.table) -> None:
    """Papers seen by sources between two dates (the sources' own dates)."""
    from kb.store.papers import query_papers
    with open_store() as store:
        rows = query_papers(store, since=since, until=until, source=source, topic=topic,
                            relevance=relevance.value if relevance else None)
    columns = ["arxiv_id", "version", "seen_on", "sources", "primary_category", "title"]
    echo_rows(rows, fmt.value, columns + ["url", "abstract"] if fmt is Fmt4.csv else columns)   # json: every field


@query_app.command("anchored")
def query_anchored_cmd(topic: AnyTopic = None,
                       section: Annotated[Optional[str], typer.Option("--section",
                                          help="Section number; 2.3 includes 2.3.1.")] = None,
                       since: Since = None, until: Until = None, fmt: Format = Fmt4.table) -> None:
    """Which arXiv IDs (and URLs) are anchored in which knowledge-doc section, since when."""
    from kb.store.anchors import query_anchored
    ws = open_workspace()
    with open_store(ws) as store:
        rows = query_anchored(store, topic=topic, section=section, since=since, until=until,
                              topics=None if topic else configured_topics(ws))
    if fmt is Fmt4.ids:
        rows = [r for r in rows if r["arxiv_id"]]
    echo_rows(rows, fmt.value, ["arxiv_id", "url", "topic", "section", "section_title", "anchored_on",
                                "doc_version", "title"] if fmt is not Fmt4.table else
              ["arxiv_id", "topic", "section", "anchored_on", "title", "url"])


def search_cmd(text: Annotated[str, typer.Argument(help="Words to find (Chinese included), or an arXiv ID.")],
               limit: Annotated[int, typer.Option("--limit", min=1, max=100_000,
                                                  help="At most this many results.")] = 20,
               fmt: SearchFormat = Fmt4.table) -> None:
    """Full-text search over papers, note entries and blog posts (bm25 ranking)."""
    from kb.store.search import search
    if not text.strip():   # `kb search "$Q"` with Q unset: a usage error, not an empty answer
        raise typer.BadParameter("nothing to search for; give words or an arXiv ID", param_hint="'TEXT'")
    with open_store() as store:
        rows = search(store, text, limit=limit)
    echo_rows(rows, fmt.value, ["kind", "ref", "title", "snippet"], id_key="ref")


def show_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID in any form (URL, arXiv:…, vN).")],
             fmt: MdOrJson = MdJson.md) -> None:
    """Everything known about one paper: metadata, versions, sources, anchors, mentions, tags, flags (the
    anchors and flags of the docs kb.toml configures)."""
    from kb.cli.output import format_json, format_paper_md
    from kb.store.papers import get_paper
    ws = open_workspace()
    with open_store(ws) as store:
        paper = get_paper(store, ident, topics=configured_topics(ws))
    echo(format_json(paper) if fmt is MdJson.json else format_paper_md(paper))
