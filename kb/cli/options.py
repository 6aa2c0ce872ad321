"""Options several commands take, defined once: dates, date ranges, output formats, topic, home."""
from __future__ import annotations

from datetime import date
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from kb.text import bytes_escaped


class TableJson(str, Enum):
    table = "table"
    json = "json"


class Fmt4(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    ids = "ids"


class MdJson(str, Enum):
    md = "md"
    json = "json"


# The last year a date option takes: windows and lookbacks add days to it, and 9999-12-31 has no next day.
LAST_YEAR = 9998


def check_date(value: str | None) -> str | None:
    """Typer callback: a date option must be a real calendar date written YYYY-MM-DD."""
    if value is not None:
        try:
            day = date.fromisoformat(value)
        except ValueError:
            raise typer.BadParameter(f"{value!r} is not a date (YYYY-MM-DD)") from None
        if len(value) != 10 or not 1991 <= day.year <= LAST_YEAR:
            raise typer.BadParameter(f"{value!r}: expected a date from 1991 to {LAST_YEAR}, written YYYY-MM-DD")
    return value


def refuse_blank_path(value: str | None, param_hint: str, what: str = "name a file (relative paths are the "
                      "workspace's)") -> None:
    """A path given but blank (``--out "$DIR"`` with DIR unset) is a usage error: never the default, stdout,
    nor the folder the command runs in (as ``kb brief --out`` and ``kb init`` say)."""
    if value is not None and not value.strip():
        raise typer.BadParameter(f"an empty path; {what}", param_hint=param_hint)


def check_since(ctx: typer.Context, value: str | None) -> str | None:
    """Typer callback of ``--since``: a date, not after ``--until`` (whichever of the two is read first)."""
    return _in_order(check_date(value), ctx.params.get("until"))


def check_until(ctx: typer.Context, value: str | None) -> str | None:
    """Typer callback of ``--until``: a date, not before ``--since``."""
    _in_order(ctx.params.get("since"), check_date(value))
    return value


def _in_order(since: str | None, until: str | None) -> str | None:
    if since and until and since > until:
        raise typer.BadParameter(f"--since {since} is after --until {until}: the range is empty (swap them?)")
    return since


def check_text(value: str | None) -> str | None:
    """Typer callback: free text kb writes down (a note, a name) must be text: bytes that are not UTF-8 (a
    terminal in Latin-1) would be an internal error when the line is written."""
    if value is not None and (shown := bytes_escaped(value)) != value:
        raise typer.BadParameter(f"'{shown}' is not UTF-8 text (the terminal's encoding?)")
    return value


def check_topic(value: str | None) -> str | None:
    """Typer callback: a topic must be one kb.toml configures (a typo is not an empty answer)."""
    if value is not None:
        from kb.cli.common import open_workspace
        slugs = [t.slug for t in open_workspace().config.topics]
        if value not in slugs:
            raise typer.BadParameter(f"no topic {value!r} in kb.toml (topics: {', '.join(slugs)})")
    return value


def check_tag(value: str | None) -> str | None:
    """Typer callback: a tag must be a topic of the taxonomy."""
    if value is not None:
        from kb.cli.common import open_workspace
        from kb.config_values import taxonomy_slugs, unknown_topics
        override = open_workspace().root / "taxonomy.toml"
        if unknown_topics(override, [value]):
            known = sorted(taxonomy_slugs(override, full=True))
            raise typer.BadParameter(f"{value!r} is no topic of the taxonomy (e.g. {', '.join(known[:4])})")
    return value


def check_home(value: str | None) -> str | None:
    """Typer callback of ``--home``: a folder given but blank (``--home "$W"`` with W unset) is a usage error, not
    the folder kb runs in (a path of "" is "."; it said ". is not a kb workspace")."""
    refuse_blank_path(value, "'--home'", "name the workspace folder, or leave --home out ($KB_HOME, else the "
                      "nearest folder upwards with a kb.toml)")
    return value


Home = Annotated[Optional[str], typer.Option("--home", metavar="DIR", callback=check_home,
                                             help="Workspace folder (else $KB_HOME, else the nearest folder upwards "
                                             "with a kb.toml).")]
Day = Annotated[Optional[str], typer.Option("--date", help="The day (YYYY-MM-DD); default: today in the workspace's "
                                            "time zone.", callback=check_date)]
Since = Annotated[Optional[str], typer.Option("--since", help="From this date (YYYY-MM-DD), inclusive.",
                                              callback=check_since)]
Until = Annotated[Optional[str], typer.Option("--until", help="Up to this date (YYYY-MM-DD), inclusive.",
                                              callback=check_until)]


def _rows_format(ids: str) -> Any:
    """``--format table|json|csv|ids`` of a command whose ``ids`` prints what ``ids`` says (each once, in order)."""
    return Annotated[Fmt4, typer.Option("--format", help=f"table, json, csv, or ids ({ids}).")]


# What `--format ids` prints, said per command: its rows' ID column (``output.format_ids``).
Format = _rows_format("the arXiv IDs alone, one per line")
SearchFormat = _rows_format("each result's ref alone, one per line: an arXiv ID, a blog post's feed|URL or a note "
                            "entry's path#N")
FlagsFormat = _rows_format("the flag numbers alone, one per line, as `kb flags show` and `kb flags resolve` take them")
AuditFormat = _rows_format("each finding's subject alone, once, one per line: an arXiv ID as written, or a file's "
                           "path")
TableOrJson = Annotated[TableJson, typer.Option("--format", help="table or json.")]
MdOrJson = Annotated[MdJson, typer.Option("--format", help="md or json.")]
Note = Annotated[Optional[str], typer.Option("--note", callback=check_text, help="Why, for the team.")]
Topic = Annotated[Optional[str], typer.Option("--topic", callback=check_topic, help="Knowledge-doc topic (default: "
                                              "the first configured one).")]
# What lists or exports across docs: every doc unless one is named (each row says which).
AnyTopic = Annotated[Optional[str], typer.Option("--topic", callback=check_topic, help="Only this knowledge doc's "
                                                 "topic (default: every configured doc).")]
Tag = Annotated[Optional[str], typer.Option("--topic", callback=check_tag, help="Only papers tagged with this "
                                            "taxonomy topic.")]
Files = Annotated[Optional[list[Path]], typer.Option("--from-file", help="Read this recording instead of the network "
                                                     "(repeatable; format auto-detected).")]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing on success (cron mails only failures).")]
