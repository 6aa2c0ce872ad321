"""`kb site build`: write the archive site — index, topic pages, briefing pages, Atom feeds.

Layout (every link relative, so the folder works from file:// and any static server)::

    index.html                   every briefing, by topic and date, with its density and counts
    style.css
    <topic>/index.html           one topic's briefings
    <topic>/<date>.html          a briefing in the first language (…/<date>.<lang>.html the others)
    <topic>/feed.xml             Atom feed of the topic's latest briefings

Pages are Jinja templates with autoescape on (``templates/site_*.html.j2``): every string from
the store is escaped; a briefing's body is HTML kb rendered itself with raw HTML off. Every run
renders every page and writes only those whose bytes changed, so a rerun writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from kb.resources import read_toml_resource
from kb.store import Store
from kb.workspace import Workspace
from pipeline.brief.render import HTML_LANG, level_filter, override_errors
from pipeline.brief.write import write_if_changed
from pipeline.site.archive import Day, load_archive

MARKER = ".kb-site"     # tells `--out` a folder is a site kb wrote (safe to write into again)


@dataclass
class SiteResult:
    index: Path
    pages: int = 0                   # files the site has
    written: int = 0                 # of which written this run (bytes changed)
    written_paths: list[Path] = field(default_factory=list)


def page_name(ws: Workspace, day: str, lang: str) -> str:
    """A briefing's file inside its topic folder; mirrors briefings/: ``.<lang>`` after the first language."""
    return f"{day}.html" if lang == ws.config.languages[0] else f"{day}.{lang}.html"


def configured_site(ws: Workspace) -> Path:
    """The folder ``[site] dir`` names, checked as ``kb site build --out`` checks its folder (symlinks
    followed): never the workspace itself nor the team's or kb's own folders, and a folder holding files
    only if kb wrote them."""
    return ws.output_dir(ws.config.site_dir or "site", marker=MARKER, named="[site] dir")


def build_site(ws: Workspace, store: Store, out: Path) -> SiteResult:
    """Write the site for every briefing recorded in ``store`` into ``out``."""
    from pipeline.site.feed import atom_feed
    archive = load_archive(ws, store)
    env, labels = _environment(ws.root), _labels(ws.root)
    lang0 = ws.config.languages[0]
    style = _read_template(ws.root, "briefing.css") + _read_template(ws.root, "site.css")  # briefing, then site
    files: dict[str, bytes] = {MARKER: b"kb archive site\n", "style.css": style.encode("utf-8")}
    name = partial(page_name, ws)
    common = {"labels": labels, "languages": ws.config.languages, "html_lang": HTML_LANG, "page_name": name}
    with override_errors(ws.root):   # a workspace's own site template that fails is its configuration
        files["index.html"] = _render(env, "site_index.html.j2", common, lang=lang0, archive=archive, root="")
        for topic, days in archive.items():
            files[f"{topic}/index.html"] = _render(env, "site_topic.html.j2", common, lang=lang0, topic=topic,
                                                   days=days, root="../")
            files[f"{topic}/feed.xml"] = atom_feed(ws, topic, days, partial(name, lang=lang0))
            for i, day in enumerate(days):
                for lang in ws.config.languages:
                    files[f"{topic}/{name(day.date, lang)}"] = _render(
                        env, "site_page.html.j2", common, lang=lang, topic=topic, day=day, root="../",
                        prev=_neighbour(days, i - 1), next=_neighbour(days, i + 1), body=day.bodies[lang])
    result = SiteResult(out / "index.html", pages=len(files))
    for rel, data in files.items():
        if write_if_changed(out / rel, data, durable=False):   # derived pages: the next build repairs one
            result.written += 1
            result.written_paths.append(out / rel)
    return result


def _neighbour(days: list[Day], i: int) -> Day | None:
    return days[i] if 0 <= i < len(days) else None


def _render(env: Any, name: str, common: dict[str, Any], **values: Any) -> bytes:
    from markupsafe import Markup
    if "body" in values:
        values["body"] = Markup(values["body"])   # kb's own rendering: markdown-it with raw HTML off
    return env.get_template(name).render(**common, **values).encode("utf-8")


@lru_cache(maxsize=8)
def _environment(workspace: Path | None):
    """Autoescaping Jinja over the workspace's overrides, then the shipped templates."""
    from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined

    from kb.resources import find_resource
    loaders = []
    if workspace is not None and (workspace / ".kb" / "overrides" / "templates").is_dir():
        loaders.append(FileSystemLoader(str(workspace / ".kb" / "overrides" / "templates")))
    loaders.append(FileSystemLoader(str(find_resource("templates/site_page.html.j2").parent)))
    env = Environment(loader=ChoiceLoader(loaders), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["level"] = level_filter(workspace)
    return env


def _read_template(workspace: Path, name: str) -> str:
    from kb.resources import read_resource
    return read_resource(f"templates/{name}", workspace)


def _labels(workspace: Path) -> dict[str, dict[str, str]]:
    """The site's words per language (``templates/site_labels.toml``)."""
    return read_toml_resource("templates/site_labels.toml", workspace)[1]
