"""`kb brief` and `kb flags`: thin commands over pipeline.brief and the flag store."""
from __future__ import annotations

from enum import Enum
from typing import Annotated, Optional

import typer

from kb.cli.common import configured_topics, echo, echo_rows, open_store, open_workspace, run_context, state
from kb.cli.options import AnyTopic, Day, FlagsFormat, Fmt4, MdJson, MdOrJson, Note, Topic, refuse_blank_path
from kb.text import counted

flags_app = typer.Typer(help="Verification flags: list them, close them.", invoke_without_command=True)


class Lang(str, Enum):
    zh = "zh"
    en = "en"


class BriefFormat(str, Enum):
    md = "md"
    html = "html"
    json = "json"


class Verdict(str, Enum):
    verified = "verified"
    dismissed = "dismissed"
    open = "open"


def brief_cmd(day: Day = None, topic: Topic = None,
              lang: Annotated[Optional[Lang], typer.Option("--lang", help="zh or en (default: the first "
                                                          "configured language).")] = None,
              fmt: Annotated[BriefFormat, typer.Option("--format", help="md, html or json.")] = BriefFormat.md,
              out: Annotated[Optional[str], typer.Option("--out", help="Write a copy here (relative paths are "
                                                         "the workspace's); it is not recorded as the day's "
                                                         "briefing.")] = None,
              force: Annotated[bool, typer.Option("--force", help="Let --out overwrite an existing file "
                                                  "(a recorded briefing too).")] = False,
              preview: Annotated[bool, typer.Option("--preview", help="Print the briefing the day's build would "
                                                    "write, writing nothing: no file, no record, no flags.")] = False,
              ) -> None:
    """Write the day's increment briefing: what is new, what is anchored, what awaits verification.

    The day's other files (every language and format of kb.toml) and the archive site are rewritten
    with it where their bytes change: they all show the data now recorded for the day."""
    from pipeline.brief.write import write_briefing
    refuse_blank_path(out, "'--out'")
    if preview and out is not None:
        raise typer.BadParameter("--preview writes nothing; leave out --out", param_hint="'--preview'")
    # a preview, and a copy written to --out, read the store only: no flag synced, nothing recorded
    reads_only = preview or out is not None
    with run_context(day, write=not reads_only, briefs=not reads_only) as ctx:
        save = not preview and not (fmt is BriefFormat.json and out is None)
        topic = topic or ctx.config.topics[0].slug
        if save and out is None:
            result = _write_day(ctx, topic, lang.value if lang else ctx.config.languages[0], fmt.value)
        else:
            result = write_briefing(ctx, topic, lang=lang.value if lang else None, fmt=fmt.value,
                                    out=ctx.workspace.output_path(out, force=force) if out else None,
                                    save=save, preview=reads_only, command="kb brief")
    if not save:
        echo(result.text, nl=False)
    elif not state.quiet:
        echo(str(result.path))


def _write_day(ctx, topic: str, lang: str, fmt: str):
    """Write the day's briefing in ``lang``/``fmt`` and its other files, then the site; the one asked for."""
    from pipeline.brief.publish import write_day
    results = write_day(ctx, topic, command="kb brief", also=(lang, fmt))
    if any(r.written for r in results):
        _rebuild_site(ctx)
    return next(r for r in results if (r.lang, r.format) == (lang, fmt))


def _rebuild_site(ctx) -> None:
    """Rebuild the archive site (`[site] dir`), when there is one: only changed pages are written."""
    if ctx.config.site_dir:
        from pipeline.site.build import build_site, configured_site
        build_site(ctx.workspace, ctx.store, configured_site(ctx.workspace))


Rule = Annotated[Optional[str], typer.Option("--rule", help="Only flags of this rule (unsourced-claim, boundary, "
                                             "id-conflict, number-conflict, unresolved-id, date-inconsistency, "
                                             "impossible-id).")]


def _check_rule(rule: str | None) -> None:
    from kb.store.flags import RULES
    if rule is not None and rule not in RULES:
        raise typer.BadParameter(f"{rule!r}: expected one of {', '.join(RULES)}", param_hint="'--rule'")


@flags_app.callback()
def flags_cmd(ctx: typer.Context,
              only_open: Annotated[bool, typer.Option("--open", help="Only open flags.")] = False,
              rule: Rule = None, topic: AnyTopic = None, fmt: FlagsFormat = Fmt4.table) -> None:
    """List verification flags (the briefing's §3), newest evidence first."""
    if ctx.invoked_subcommand is not None:
        return
    from kb.store.flags import list_flags
    _check_rule(rule)
    ws = open_workspace()
    with open_store(ws) as store:
        rows = list_flags(store, only_open=only_open, rule=rule, topic=topic,
                          topics=None if topic else configured_topics(ws))
    echo_rows(rows, fmt.value, ["id", "topic", "rule", "status", "subject", "last_seen", "note"], id_key="id")


def _flag_number(value: str | None) -> int | None:
    """A flag's number as the briefing prints it ("#3") or bare ("3")."""
    if value is None:
        return None
    digits = value.strip().removeprefix("#")
    if not digits.isdigit() or not digits.isascii() or len(digits) > 18:
        raise typer.BadParameter(f"{value!r}: a flag's number, such as 3 or #3")
    return int(digits)


@flags_app.command("show")
def flags_show_cmd(flag_id: Annotated[str, typer.Argument(metavar="N", help="The flag's number (3 or #3).",
                                                          callback=_flag_number)],
                   fmt: MdOrJson = MdJson.md) -> None:
    """One flag with its evidence."""
    from kb.cli.output import format_flag_md, format_json
    from kb.store.flags import get_flag
    with open_store() as store:
        flag = get_flag(store, flag_id)
    echo(format_json(flag) if fmt is MdJson.json else format_flag_md(flag))


@flags_app.command("resolve")
def flags_resolve_cmd(flag_id: Annotated[Optional[str], typer.Argument(metavar="[N]", help="The flag's number, 3 or "
                                                                       "#3 (or --rule / --topic for many).",
                                                                       callback=_flag_number)] = None,
                      verdict: Annotated[Verdict, typer.Option("--as", help="verified, dismissed (or open).")] = ...,
                      note: Note = None,
                      rule: Rule = None, topic: Topic = None) -> None:
    """Close a flag, or every open flag of a rule and/or topic — with --rule alone, of the first doc's topic
    (closed flags stay closed unless new evidence arrives)."""
    from kb.store.flags import resolve_flag, resolve_many
    _check_rule(rule)
    if (flag_id is None) == (rule is None and topic is None):
        raise typer.BadParameter("give a flag number, or --rule and/or --topic (not both)")
    if flag_id is None and verdict is Verdict.open:   # --rule/--topic select open flags: nothing to reopen
        raise typer.BadParameter("--as open reopens one flag: give its number", param_hint="'--as'")
    if flag_id is None and topic is None:   # many flags at once: never another doc's unless named
        topic = open_workspace().config.topics[0].slug
    with open_store(write=True) as store, store.transaction() as tx:
        if flag_id is not None:
            resolve_flag(tx, flag_id, verdict.value, note)
            done = f"flag #{flag_id}"
        else:
            done = f"{counted(resolve_many(tx, verdict.value, note, rule=rule, topic=topic), 'flag')} of {topic}"
    if not state.quiet:
        echo(f"{done}: {verdict.value}")
    _refresh_briefings(topic)


def _refresh_briefings(topic: str | None) -> None:
    """A closed flag changes what the latest briefing shows: rewrite its files (md and html) and the site.

    The flags are closed (committed) before: a briefing this member may not write (the nightly's, under the
    README's UMask=0027, for a member in the writer role) is one warning, not a failed resolve. Where some files
    were rewritten and others not, both are said: the rewritten ones on stdout, the others in the warning."""
    import logging

    from kb.errors import KBError
    from pipeline.brief.publish import refresh_latest
    site_error = None
    try:
        with run_context(None, offline=True) as ctx:
            done = refresh_latest(ctx, [topic] if topic else [t.slug for t in ctx.config.topics])
            if done.results:
                try:
                    _rebuild_site(ctx)
                except KBError as exc:   # the briefings are rewritten all the same: the site is its own warning
                    site_error = exc
    except KBError as exc:   # the workspace or the store could not be opened: nothing was rewritten
        logging.getLogger(__name__).warning("the flags are closed, but the latest briefing was not rewritten to "
                                            "show it (%s)", exc)
        return
    _say_refreshed(ctx, done, site_error)


def _say_refreshed(ctx, done, site_error: Exception | None) -> None:
    """What a refresh did, all of it true: the files rewritten (stdout), then in one warning each the files not
    rewritten (with the first one's reason) and a site not rebuilt."""
    import logging
    log = logging.getLogger(__name__)
    written = [ctx.workspace.relative(r.path) for r in done.results if r.written]
    if written and not state.quiet:
        echo(f"rewrote {', '.join(written)}")
    if done.failed:
        log.warning("the flags are closed, but %s %s not rewritten to show it (%s)",
                    ", ".join(what for what, _ in done.failed), "was" if len(done.failed) == 1 else "were",
                    done.failed[0][1])
    if site_error is not None:
        log.warning("the briefings show the closed flags, but the site was not rebuilt (%s)", site_error)
