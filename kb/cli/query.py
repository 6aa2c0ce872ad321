"""`kb query …`, `kb search`, `kb audit`, `kb anchor`: thin commands over kb.store and pipeline.ingest.anchor."""
from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from kb.cli.common import Fmt4, check_date, echo_rows, open_store

query_app = typer.Typer(help="Query the store.", no_args_is_help=True)


class Relevance(str, Enum):
    primary = "primary"
    adjacent = "adjacent"


Since = Annotated[Optional[str], typer.Option("--since", help="From this date (YYYY-MM-DD), inclusive.",
                                              callback=check_date)]
Until = Annotated[Optional[str], typer.Option("--until", help="Up to this date (YYYY-MM-DD), inclusive.",
                                              callback=check_date)]
Format = Annotated[Fmt4, typer.Option("--format", help="table, json, csv or ids.")]


@query_app.command("papers")
def query_papers_cmd(since: Since = None, until: Until = None,
                     source: Annotated[Optional[str], typer.Option("--source", help="Only this source.")] = None,
                     topic: Annotated[Optional[str], typer.Option("--topic", help="Only papers tagged so.")] = None,
                     relevance: Annotated[Optional[Relevance], typer.Option("--relevance")] = None,
                     fmt: Format = Fmt4.table) -> None:
    """Papers seen by sources between two dates (the sources' own dates)."""
    from kb.store.papers import query_papers
    with open_store() as store:
        rows = query_papers(store, since=since, until=until, source=source, topic=topic,
                            relevance=relevance.value if relevance else None)
    echo_rows(rows, fmt.value, ["arxiv_id", "version", "seen_on", "sources", "primary_category", "title"])


@query_app.command("anchored")
def query_anchored_cmd(topic: Annotated[Optional[str], typer.Option("--topic", help="Knowledge-doc topic.")] = None,
                       section: Annotated[Optional[str], typer.Option("--section",
                                          help="Section number; 2.3 includes 2.3.1.")] = None,
                       since: Since = None, until: Until = None, fmt: Format = Fmt4.table) -> None:
    """Which arXiv IDs (and URLs) are anchored in which knowledge-doc section, since when."""
    from kb.store.anchors import query_anchored
    with open_store() as store:
        rows = query_anchored(store, topic=topic, section=section, since=since, until=until)
    if fmt is Fmt4.ids:
        rows = [r for r in rows if r["arxiv_id"]]
    echo_rows(rows, fmt.value, ["arxiv_id", "url", "topic", "section", "section_title", "anchored_on",
                                "doc_version", "title"] if fmt is not Fmt4.table else
              ["arxiv_id", "section", "anchored_on", "title", "url"])


def search_cmd(text: Annotated[str, typer.Argument(help="Words to find (Chinese included).")],
               limit: Annotated[int, typer.Option("--limit", help="At most this many results.")] = 20,
               fmt: Format = Fmt4.table) -> None:
    """Full-text search over papers, note entries and blog posts (bm25 ranking)."""
    from kb.store.search import search
    with open_store() as store:
        rows = search(store, text, limit=limit)
    echo_rows(rows, fmt.value, ["kind", "ref", "title", "snippet"], id_key="ref")


def audit_cmd(topic: Annotated[Optional[str], typer.Option("--topic", help="Only this knowledge doc.")] = None,
              fmt: Format = Fmt4.table) -> None:
    """Curation findings: duplicates, impossible dates, card mismatches, noticed-but-unanchored papers."""
    from kb.store.audit import audit
    with open_store() as store:
        rows = audit(store, topic=topic)
    echo_rows(rows, fmt.value, ["kind", "subject", "detail"], id_key="subject")


def anchor_cmd(ident: Annotated[str, typer.Argument(metavar="ID", help="arXiv ID (any form) or URL.")],
               section: Annotated[str, typer.Option("--section", help="Section number, e.g. 2.3.")],
               topic: Annotated[Optional[str], typer.Option("--topic", help="Knowledge doc (default: the "
                                                            "first configured topic).")] = None,
               day: Annotated[Optional[str], typer.Option("--date", help="Anchoring date (default today).")] = None,
               dry_run: Annotated[bool, typer.Option("--dry-run", help="Print the diff; change nothing.")] = False,
               ) -> None:
    """Anchor a paper in a knowledge-doc section: one line added to the doc, every other byte kept."""
    from kb.cli.common import run_context
    from pipeline.ingest.anchor import anchor_item
    with run_context(day) as ctx:
        result = anchor_item(ctx, ident, section, topic=topic, dry_run=dry_run)
    typer.echo(result.diff if dry_run else f"anchored {result.subject} in {result.path} §{result.section} "
               f"(line {result.line})")
