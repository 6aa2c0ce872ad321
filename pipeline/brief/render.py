"""Render a briefing's data as Markdown (zh, en) or HTML, and write it atomically.

One Jinja environment, StrictUndefined; the workspace's ``.kb/overrides/templates``
is searched before the shipped ``templates/``. Markdown output escapes what came
from outside (titles, notes, feed items): no raw HTML, no table breakers, links
only for http(s) URLs. HTML is the Markdown rendered by markdown-it-py with raw
HTML disabled, so the same escaping holds twice.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import html
import logging
import os
import re
import signal
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NoReturn

from kb.errors import ConfigError
from kb.mdsafe import md_backticked, md_cell, md_code_block, md_inline, md_inline_cell, md_link, md_text
from kb.resources import find_resource
from kb.text import without_hidden_controls
from pipeline.brief.template_cache import bytecode_cache

log = logging.getLogger(__name__)

__all__ = ["md_cell", "md_link", "md_text", "render_html", "render_html_body", "render_markdown", "stars"]

CATEGORY_ICON = {"net-new": "🟢", "engineering": "🟠", "confirmation": "🟡"}
# optimized=False: kb's templates hold no constant expressions for Jinja's folding pass to fold, so it
# changes none of the code they compile to; it is only work, paid on every first render (a nightly, a `kb brief`).
ENV_OPTIONS = {"autoescape": False, "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True,
               "optimized": False}


def stars(n: int | None) -> str:
    return "⭐" * n if isinstance(n, int) and 1 <= n <= 5 else "—"


_DICT_ATTRIBUTES = frozenset(dir(dict))


@lru_cache(maxsize=8)   # one environment per workspace and process: templates compile once
def _environment(workspace: Path | None):
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    class BriefingEnvironment(Environment):
        def getattr(self, obj: Any, attribute: str) -> Any:
            """``x.key`` of the briefing's plain dicts: the key, first. Jinja asks a dict for an attribute
            first, and catches the error of every such read (thousands a briefing); a key named as one of
            a dict's own attributes (``items``) is left to Jinja, which gives the attribute."""
            if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
                try:
                    return obj[attribute]
                except KeyError:
                    pass
            return super().getattr(obj, attribute)
    shipped = find_resource("templates/briefing.zh.md.j2").parent
    loaders = []
    if workspace is not None and (workspace / ".kb" / "overrides" / "templates").is_dir():
        loaders.append(FileSystemLoader(str(workspace / ".kb" / "overrides" / "templates")))
    loaders.append(FileSystemLoader(str(shipped)))
    env = BriefingEnvironment(loader=ChoiceLoader(loaders), undefined=StrictUndefined, **ENV_OPTIONS,
                              bytecode_cache=bytecode_cache(workspace, ENV_OPTIONS))
    env.filters.update(t=md_text, cell=md_cell, link=md_link, stars=stars, inline=md_inline, inline_cell=md_inline_cell,
                       code_block=md_code_block, backticked=md_backticked,
                       **language_filters(workspace))
    env.globals["icon"] = CATEGORY_ICON
    return env


class CompiledAhead:
    """The briefing templates being compiled into the cache by a forked child (``compile_ahead``)."""

    def __init__(self, pid: int | None = None) -> None:
        self.pid = pid

    def wait(self) -> None:
        """Until the child is done (whatever it managed: a template it did not cache is compiled on use)."""
        if self.pid is not None:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(self.pid, 0)
            self.pid = None


def compile_ahead(workspace: Path, langs: list[str]) -> CompiledAhead:
    """Compile ``langs``' briefing templates that the workspace's template cache lacks in a forked child, while
    this process goes on (the nightly builds the briefing meanwhile): a night with no compiled templates yet
    (the first, the first after an upgrade, a new override; an edited one keeps its entry and is compiled on
    use) does not wait ~0.2 s for them before it renders. Nothing is forked when every template is cached or
    the machine has one core."""
    env = _environment(workspace)
    names = [f"briefing.{lang}.md.j2" for lang in langs] + ["points.md.j2"]
    missing = [n for n in names if not _in_cache(env, n)]
    from pipeline.lock import usable_cores
    cores = usable_cores()
    if not missing or cores < 2 or not hasattr(os, "fork"):
        return CompiledAhead()
    # Ctrl-C waits until the child is on its own: one landing in between would run the parent's handling there
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        pid = os.fork()
    except OSError as exc:   # a process limit reached, no memory to fork: compile them on use, as without
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        log.debug("templates not compiled ahead (%s)", exc)
        return CompiledAhead()
    if pid == 0:
        _compile_and_leave(env, missing, blocked)
    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    return CompiledAhead(pid)


def _compile_and_leave(env: Any, names: list[str], mask: set) -> NoReturn:
    """The forked child: compile and cache each template (Jinja writes a temp file and renames it), then leave
    without the parent's exit handlers, buffers, connections or finalisers (no collection runs here)."""
    gc.disable()
    signal.signal(signal.SIGINT, signal.SIG_DFL)   # interrupted with the parent's group: just go
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    code = 0
    try:
        for name in names:
            try:
                env.get_template(name)
            except Exception:   # this one is compiled on use, and its error said there; the others still cached
                code = 1
    finally:
        os._exit(code)


def _in_cache(env: Any, name: str) -> bool:
    """Has the template cache an entry for template ``name``? (Whether it is current is Jinja's to check.)"""
    cache = env.bytecode_cache
    if cache is None:
        return True   # nothing to compile ahead into
    try:
        _, filename, _ = env.loader.get_source(env, name)
    except Exception:   # a template that does not load: its render will say why
        return True
    return os.path.exists(os.path.join(cache.directory, cache.pattern % cache.get_cache_key(name, filename)))


def level_filter(workspace: Path | None):
    """The ``level`` filter: ``{{ density.level | level("en") }}`` is the level as English text says it."""
    return language_filters(workspace)["level"]


def language_filters(workspace: Path | None) -> dict[str, Any]:
    """The filters that say the data's words in a briefing's language (the names are data/briefing.toml's):
    ``{{ density.level | level("en") }}`` is the density level in English text, ``{{ p | problem("zh") }}``
    a knowledge doc's problem in Chinese, ``{{ q | quantity("zh") }}`` what a number measures in Chinese,
    ``{{ where | map("place", "zh") }}`` where a flag's evidence was found, in Chinese."""
    from pipeline.brief.rules import density_name, load_rules, place_name, problem_name, quantity_name
    rules = load_rules(workspace)
    return {"level": lambda level, lang: density_name(level, lang, rules),
            "problem": lambda problem, lang: problem_name(problem, lang, rules),
            "quantity": lambda quantity, lang: quantity_name(quantity, lang, rules),
            "place": lambda place, lang: place_name(place, lang, rules)}


def render_markdown(data: dict[str, Any], lang: str, workspace: Path | None = None) -> str:
    """The briefing in ``lang`` (zh or en) as GitHub-flavoured Markdown."""
    from pipeline.brief.followups import by_kind
    data = data | {"flag_groups": by_kind(data.get("flags", []))}   # the summary's: the open flags by kind
    with override_errors(workspace):
        text = _environment(workspace).get_template(f"briefing.{lang}.md.j2").render(**data)
    # The whole text, once: a bidi override or a control in any field (the team's text is stored as
    # written) would make a reader see other than what is there; the html is made from this text.
    return re.sub(r"\n{3,}", "\n\n", without_hidden_controls(text)).rstrip() + "\n"


@contextlib.contextmanager
def override_errors(workspace: Path | None) -> Iterator[None]:
    """A template error in a workspace's own template (``.kb/overrides/templates``) is that workspace's
    configuration: one line naming the file and its line (exit 2). One in a shipped template is kb's bug
    and stays an internal error."""
    from jinja2 import TemplateError
    try:
        yield
    except TemplateError as exc:
        where = _override_line(exc, workspace)
        if where is None:
            raise
        raise ConfigError(f"{where}: {type(exc).__name__}: {exc.message or exc}",
                          hint="fix the template, or delete it to use kb's own") from None


def _override_line(exc: Exception, workspace: Path | None) -> str | None:
    """``.kb/overrides/templates/NAME:LINE`` of the override template the error arose in or was called from
    (a shipped macro given the wrong thing by an override is the override's error), or None."""
    if workspace is None:
        return None
    overrides = (workspace / ".kb" / "overrides" / "templates").resolve()
    frames = [(getattr(exc, "filename", None), getattr(exc, "lineno", None))]   # a syntax error's own place
    tb = exc.__traceback__
    while tb is not None:       # Jinja gives a render error's frames the template's file name and line
        frames.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    inside = [(Path(name).resolve(), line) for name, line in frames
              if name and name.endswith(".j2") and Path(name).resolve().is_relative_to(overrides)]
    if not inside:
        return None
    path, line = inside[-1]
    return f"{path.relative_to(workspace.resolve())}:{line}"


HTML_LANG = {"zh": "zh-CN", "en": "en"}


@lru_cache(maxsize=1)
def _markdown_it():
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": False, "linkify": False}).enable("table")


def render_html_body(markdown_text: str, lang: str) -> str:
    """The Markdown as HTML (raw HTML off), stars and category emoji given a text form (``marks``)."""
    from pipeline.brief.marks import readable_marks
    return readable_marks(_markdown_it().render(markdown_text), lang)


def render_html(markdown_text: str, title: str, lang: str) -> str:
    """A standalone HTML page of the Markdown, with the shipped stylesheet inlined.

    Its head carries ``html_source_mark`` of its inputs, so a writer holding the same Markdown
    can tell that the page on disk is already this page without rendering it again.
    """
    body = render_html_body(markdown_text, lang)
    css = _stylesheet()
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(HTML_LANG.get(lang, lang))}">\n<head>\n<meta charset="utf-8">\n'
            f"{html_source_mark(markdown_text, title, lang)}\n"
            f"<title>{html.escape(title)}</title>\n<style>\n{css}</style>\n</head>\n<body>\n<main>\n{body}</main>\n"
            "</body>\n</html>\n")


def html_source_mark(markdown_text: str, title: str, lang: str) -> str:
    """The ``<meta>`` naming everything an html page is a function of: its Markdown, title and
    language, the stylesheet, and the renderer (this module, ``marks`` and markdown-it's version)."""
    digest = hashlib.sha256()
    for part in (markdown_text, title, lang, _stylesheet(), _renderer_identity()):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return f'<meta name="kb-source" content="sha256:{digest.hexdigest()}">'


def _stylesheet() -> str:
    return find_resource("templates/briefing.css").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _renderer_identity() -> str:
    """The renderer's code and its Markdown library's version: a change to either renders pages anew.

    markdown-it's version is read from its package's ``__init__`` (which states it) rather than
    from the installed distributions, whose scan costs more than the rendering it saves on a rerun.
    """
    from importlib.util import find_spec

    from pipeline.brief import marks
    spec = find_spec("markdown_it")
    library = Path(spec.origin).read_bytes() if spec and spec.origin else b""
    code = Path(__file__).read_bytes() + Path(marks.__file__).read_bytes() + library
    return hashlib.sha256(code).hexdigest()
