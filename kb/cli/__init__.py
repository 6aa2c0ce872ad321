"""The `kb` command line: parse arguments, call one library function, print.

One module per command group; options several commands share are in ``kb.cli.options``.
No SQL and no HTTP here. Library modules are imported inside the commands so that
`kb --help` and the read-only queries start fast (no ORM, no model, no parsers).
"""
from __future__ import annotations

import copy
import logging
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from kb import __version__
from kb.cli.brief import brief_cmd, flags_app
from kb.cli.classify import classify_cmd, eval_app, explain_cmd, label_cmd, train_cmd
from kb.cli.common import echo, state
from kb.cli.db import db_app
from kb.cli.export import export_app
from kb.cli.ingest import ingest_app, sources_app
from kb.cli.nightly import nightly_cmd
from kb.cli.options import Home
from kb.cli.query import query_app, search_cmd, show_cmd
from kb.cli.site import site_app
from kb.cli.workspace import anchor_cmd, audit_cmd, init_cmd
from kb.errors import KBError
from kb.text import without_hidden_controls

app = typer.Typer(help="kb — knowledge base and daily increment briefings for LLM-inference research.",
                  no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  rich_markup_mode=None)
# Registration order is the order `kb --help` lists them in: the daily path first.
for name, command in (("nightly", nightly_cmd), ("brief", brief_cmd), ("classify", classify_cmd),
                      ("explain", explain_cmd), ("label", label_cmd), ("search", search_cmd), ("show", show_cmd),
                      ("anchor", anchor_cmd), ("audit", audit_cmd), ("init", init_cmd), ("train", train_cmd)):
    app.command(name)(command)
for name, group in (("ingest", ingest_app), ("query", query_app), ("flags", flags_app),
                    ("site", site_app), ("export", export_app), ("sources", sources_app), ("eval", eval_app),
                    ("db", db_app)):
    app.add_typer(group, name=name)


def _version(value: bool) -> None:
    if value:
        echo(f"kb {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    home: Home = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log what kb does.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Global options."""
    state.home = str(home) if home else os.environ.get("KB_HOME") or None
    state.quiet = quiet
    state.verbose = verbose
    level = logging.DEBUG if verbose else logging.ERROR if quiet else logging.WARNING
    # The console shows this level only; a run log may lower the root logger's level for its own file.
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(level)
    # a user reads "kb: warning: …" as the "kb: error: …" lines; the module that logged it is for --verbose
    console.setFormatter(_ConsoleFormatter("%(levelname)s %(name)s: %(message)s" if verbose else
                                           "kb: %(levelname_lower)s: %(message)s"))
    if not verbose:   # what a run log alone keeps (``pipeline.context.RUN_LOG_ONLY``): the error is printed once
        console.addFilter(lambda record: getattr(record, "console", True))
    logging.basicConfig(level=level, handlers=[console], force=True)


class _ConsoleFormatter(logging.Formatter):
    """A log line as the console shows it: without hidden controls, as every line kb prints (``echo``); a
    warning may carry what came from outside (a server's reason phrase, a path)."""

    def format(self, record: logging.LogRecord) -> str:
        record.levelname_lower = record.levelname.lower()
        return without_hidden_controls(super().format(record))


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app; every failure is one line on stderr and a documented exit code.

    0 ok; 1 the operation failed (a nightly: a source failed, briefings written; the output could not
    be written: a full disk; a closed pipe is click's, silent); 2 usage or
    configuration; 70 an unexpected internal error (its traceback goes to a crash log, or to
    stderr with --verbose); 75 another nightly holds the lock; 130 interrupted.
    """
    from typer._click import exceptions as click_errors
    try:
        code = _app_for(sys.argv[1:] if argv is None else argv)(args=argv, standalone_mode=False, prog_name="kb")
        if code == 130:   # typer turns Ctrl-C into a silent Exit(130) before it reaches the branch below
            code = _fail("interrupted", 130)
    except click_errors.NoArgsIsHelpError as exc:
        echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
        code = exc.exit_code
    except click_errors.UsageError as exc:
        where = f"{exc.ctx.command_path}: " if exc.ctx is not None and exc.ctx.command_path != "kb" else ""
        code = _fail(f"{where}{_global_option_misplaced(exc) or _one_line(exc.format_message())}", exc.exit_code)
    except click_errors.ClickException as exc:
        code = _fail(_one_line(exc.format_message()), exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        code = _fail("interrupted", 130)
    except KBError as exc:
        code = _fail(_one_line(str(exc)), exc.exit_code)
    except Exception as exc:
        from kb.store.backend_sqlite import damage_of, damaged_store
        if isinstance(exc, OSError) and _output_lost(exc):   # a full disk, an I/O error: not kb's bug
            _drop_stdout()
            code = _fail(f"cannot write the output: {exc.strerror or type(exc).__name__}", 1)
        elif (why := damage_of(exc)) is not None:            # the store's file, not kb's bug
            code = _fail(_one_line(str(damaged_store(why))), 1)
        else:   # a bug or an unforeseen input: one line, the traceback kept apart
            code = _fail(f"internal error: {type(exc).__name__}: {_one_line(str(exc))[:300]} "
                         f"({_crash_log(exc)})", EXIT_INTERNAL)
    sys.exit(code or 0)


EXIT_INTERNAL = 70

# The global options that take a value; the others are flags.
_GLOBAL_WITH_VALUE = frozenset({"--home"})
_GLOBAL_FLAGS = frozenset({"--verbose", "-v", "--quiet", "-q"})


def _app_for(args: list[str]) -> typer.Typer:
    """``app`` holding only the command (or group) ``args`` run, when they name one of kb's: typer turns
    every command it holds into a click command, from its function's signature, on every start — much of
    a short command's work, for commands this process never runs. Anything else (no command, help, an
    unknown command, an option not read here) runs with the whole app."""
    i = 0
    while i < len(args) and (args[i] in _GLOBAL_FLAGS or args[i] in _GLOBAL_WITH_VALUE
                             or args[i].startswith("--home=")):
        i += 2 if args[i] in _GLOBAL_WITH_VALUE else 1
    name = args[i] if i < len(args) else None
    commands = [c for c in app.registered_commands if c.name == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    lean = copy.copy(app)
    lean.registered_commands, lean.registered_groups = commands, groups
    return lean


def _output_lost(exc: OSError) -> bool:
    """Did ``exc`` come from writing the command's output to stdout (``kb db status > /dev/full``)? The
    innermost frame is click's ``echo`` (typer.echo), writing to its ``file``: stdout, text or bytes."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    stream = tb.tb_frame.f_locals.get("file") if tb is not None else None
    return stream is not None and stream in (sys.stdout, getattr(sys.stdout, "buffer", None))


def _drop_stdout() -> None:
    """Point stdout at /dev/null: the text still buffered is not written again, and fails again, at exit."""
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):   # no real file behind stdout (a test's capture): nothing is flushed at exit
        pass
    finally:
        os.close(null)


def _global_option_misplaced(exc: Exception) -> str | None:
    """Where a global option goes, when one was written after the command (`kb show ID --home W`, as the
    README's cron line writes `kb nightly --home …`, the one command that takes it there too), in place of
    click's message: "No such option: --home (Possible options: --help)" leaves a new user guessing, and
    its suggestion of a near name is no help for an option the command was never meant to take."""
    from typer._click import exceptions as click_errors
    name = str(getattr(exc, "option_name", "") or "").split("=")[0]
    if not isinstance(exc, click_errors.NoSuchOption) or name not in _GLOBAL_WITH_VALUE | _GLOBAL_FLAGS:
        return None
    command = exc.ctx.command_path.removeprefix("kb ") if exc.ctx is not None else "COMMAND"
    written = f"{name} DIR" if name in _GLOBAL_WITH_VALUE else name
    return f"No such option: {name}; it is kb's own option: write it before the command (kb {written} {command} …)"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _fail(message: str, code: int) -> int:
    echo(f"kb: error: {message}", err=True)
    return code


def _crash_log(exc: BaseException) -> str:
    """Where the traceback went: stderr with --verbose, else a crash log (in the workspace when there is one)."""
    import traceback

    from kb.crashlog import write_crash_log
    text = "".join(traceback.format_exception(exc))
    if state.verbose:
        sys.stderr.write(text)
        return "traceback above"
    path = write_crash_log(text, _crash_home())
    return f"traceback in {path}; --verbose shows it" if path else "run again with --verbose for the traceback"


def _crash_home() -> Path | None:
    """The workspace a crash log belongs in, found as the command finds it: ``--home``, ``$KB_HOME`` or the
    current folder upwards (state.home is only the first two, and a log of a workspace found from the
    current folder went to /tmp); None when there is none."""
    from kb.workspace import find_root
    try:
        return find_root(state.home)
    except (KBError, OSError):     # no workspace, or a current folder that is gone: the temporary folder
        return None


def run() -> None:
    """The ``kb`` console script (and ``python -m kb.cli``): ``main`` as a short batch process.

    The collector settings are the process's, so they are set here, not in ``main``,
    which tests and embedders may call inside a longer-lived process.
    """
    _tune_gc()
    _one_blas_thread()
    _escape_what_stdout_cannot_encode()
    try:
        main()
    finally:
        _skip_collections_at_exit()


def _one_blas_thread() -> None:
    """One BLAS thread per process unless the user chose (read when numpy is first imported, later). kb's
    products are small (a doc model's fit, a doc's sections), and its classify workers are processes already:
    a second BLAS thread spinning for a core another process holds made a doc model's fit on a busy machine
    two to five times slower, not faster."""
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _escape_what_stdout_cannot_encode() -> None:
    """Write a character stdout's encoding has no byte for as an escape (``\\u2014``), as Python writes
    stderr. Titles, notes and kb's own dashes are in any script; under a Latin-1 locale (or
    ``PYTHONIOENCODING=latin-1``, a cp1252 console) `kb show` or `kb query anchored` was an internal error
    at the first 推 or —. (An ASCII stdout is click's: it writes UTF-8 there.)"""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:   # a real text stream; an embedder's replacement is left as it is
        reconfigure(errors="backslashreplace")


# A kb command is a short batch process that allocates many small objects (records, rows,
# tokens) and few reference cycles. With CPython's default threshold (700) the cycle
# collector ran ~550 times during a heavy nightly, 4 of them over the whole heap: 0.24 s
# of a 2.1 s run (bench/nightly.py). Collecting every 50,000 allocations still bounds
# the garbage cycles can hold, at a few collections per run: a 200k-record
# `kb ingest arxiv-bulk` peaks at the same 92 MB with these settings as with the defaults.
GC_THRESHOLD = (50_000, 20, 100)


def _tune_gc() -> None:
    import gc
    gc.set_threshold(*GC_THRESHOLD)


def _skip_collections_at_exit() -> None:
    """Spare the interpreter's shutdown its passes of the cycle collector over the whole heap
    (0.1 s after a heavy nightly). Every file and the store were closed by their owners; what
    the collector would find now is garbage the process's exit frees anyway."""
    import gc
    gc.freeze()

