"""Write a briefing: build its data, render the format asked for, save atomically, record it."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from kb.fsutil import write_atomically
from pipeline.context import RunContext

FORMATS = ("md", "html", "json")
CONTRACT_KEYS = ("density", "increments", "flags", "arxiv_ids", "sources")


@dataclass
class BriefResult:
    topic: str
    lang: str
    format: str
    path: Path | None
    text: str
    data: dict[str, Any]


def default_path(ctx: RunContext, topic: str, lang: str, fmt: str) -> Path:
    """``briefings/<date>-<topic>.<ext>``; languages after the first get ``.<lang>`` before the extension."""
    suffix = "" if lang == ctx.config.languages[0] else f".{lang}"
    return ctx.workspace.path(f"briefings/{ctx.today.isoformat()}-{topic}{suffix}.{fmt}")


def json_text(data: dict[str, Any]) -> str:
    """The briefing's data as JSON: the contract keys first, then the rest."""
    ordered = {k: data[k] for k in CONTRACT_KEYS} | {k: v for k, v in data.items() if k not in CONTRACT_KEYS}
    return json.dumps(ordered, ensure_ascii=False, indent=2) + "\n"


def render(data: dict[str, Any], lang: str, fmt: str, workspace: Path) -> str:
    from pipeline.brief.render import render_html, render_markdown
    if fmt == "json":
        return json_text(data)
    md = render_markdown(data, lang, workspace)
    return md if fmt == "md" else render_html(md, f"{data['topic']} · {data['date']}", lang)


def write_briefing(ctx: RunContext, topic: str, *, lang: str | None = None, fmt: str = "md",
                   out: str | None = None, top: int | None = None, save: bool = True,
                   data: dict[str, Any] | None = None, inputs: str | None = None) -> BriefResult:
    """Build (or reuse ``data``), render and — unless ``save`` is off — write and record one briefing."""
    from pipeline.brief.build import build_briefing
    if topic not in {t.slug for t in ctx.config.topics}:
        raise ConfigError(f"no topic {topic!r} in kb.toml (topics: {', '.join(t.slug for t in ctx.config.topics)})")
    lang = lang or ctx.config.languages[0]
    if lang not in ("zh", "en"):
        raise ConfigError(f"--lang {lang!r}: zh or en")
    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r}: one of {', '.join(FORMATS)}")
    data = data if data is not None else build_briefing(ctx, topic, top=top)
    text = render(data, lang, fmt, ctx.workspace.root)
    path = None
    if save:
        path = ctx.workspace.path(out) if out else default_path(ctx, topic, lang, fmt)
        write_atomically(path, text.encode("utf-8"))
        record_briefing(ctx, data, lang, fmt, path, text, inputs)
    return BriefResult(topic, lang, fmt, path, text, data)


def record_briefing(ctx: RunContext, data: dict[str, Any], lang: str, fmt: str, path: Path | None, text: str,
                    inputs: str | None = None) -> None:
    """Remember this briefing (and always its data, which later briefings compare against)."""
    from kb.store.common import dumps, upsert
    from kb.store.schema import Briefing
    net_new = data["density"]["net_new"]
    rows = [{"topic": data["topic"], "date": data["date"], "lang": lang, "format": fmt,
             "path": ctx.workspace.relative(path) if path else None,
             "content_hash": hashlib.sha256(text.encode("utf-8")).hexdigest(), "net_new": net_new,
             "increments": len(data["increments"]), "data": "{}", "inputs_hash": inputs}]
    rows.append({"topic": data["topic"], "date": data["date"], "lang": "", "format": "json", "path": None,
                 "content_hash": hashlib.sha256(dumps(data).encode("utf-8")).hexdigest(), "net_new": net_new,
                 "increments": len(data["increments"]), "data": dumps(data), "inputs_hash": inputs})
    with ctx.store.transaction() as conn:
        upsert(conn, Briefing.__table__, rows, ["topic", "date", "lang", "format"])
