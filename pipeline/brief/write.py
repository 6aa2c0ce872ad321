"""Write a briefing: load its inputs, build it, sync its flags, render each format, save what changed.

Correct by construction: every run builds and renders; a file is written only when its
bytes differ from what is on disk, and the store is written only when a row would change,
so a rerun with nothing new writes nothing (and imports no ORM), while anything that
changes the briefing — a post corrected in place, upvotes, a card, a resolved flag —
changes the file.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kb.errors import ConfigError
from kb.fsutil import write_atomically
from kb.names import name_key, title_name_key
from kb.text import hidden_controls_escaped
from pipeline.brief.followups import questions_id
from pipeline.brief.model import SourceRef
from pipeline.brief.numbers import UPVOTES
from pipeline.context import RunContext

FORMATS = ("md", "html", "json")
CONTRACT_KEYS = ("density", "increments", "flags", "arxiv_ids", "sources")
NIGHTLY = "kb nightly"   # the command a briefing's header names unless its writer says otherwise


@dataclass
class BriefResult:
    topic: str
    lang: str
    format: str
    path: Path | None
    text: str
    data: dict[str, Any]
    written: bool = False           # the file's bytes changed


def default_path(ctx: RunContext, topic: str, lang: str, fmt: str) -> Path:
    """``briefings/<date>-<topic>.<ext>``; languages after the first get ``.<lang>`` before the extension."""
    suffix = "" if lang == ctx.config.languages[0] else f".{lang}"
    return ctx.workspace.path(f"briefings/{ctx.today.isoformat()}-{topic}{suffix}.{fmt}")


def json_text(data: dict[str, Any]) -> str:
    """The briefing's data as JSON: the contract keys first, then the rest."""
    ordered = {k: data[k] for k in CONTRACT_KEYS} | {k: v for k, v in data.items() if k not in CONTRACT_KEYS}
    return hidden_controls_escaped(json.dumps(ordered, ensure_ascii=False, indent=2)) + "\n"


def render(data: dict[str, Any], lang: str, fmt: str, workspace: Path, *,
           markdown: str | None = None, current: Path | None = None, command: str = NIGHTLY) -> str:
    """The briefing in ``lang`` as ``fmt`` text.

    ``command``: the one writing it (``kb nightly``, ``kb brief``), which the Markdown's header names. The
    templates get it beside the data (``command``); the JSON and the recorded data never carry it.

    ``markdown``: the same data's Markdown in ``lang``, when the caller already rendered it.
    ``current``: the html file this text would replace; when that page was made from this very
    Markdown (its source mark matches) it is returned as it is, so an unchanged night does not
    pay for markdown-it again and the bytes are the same as a fresh render's.
    """
    from pipeline.brief.render import html_source_mark, render_html, render_markdown
    if fmt == "json":
        return json_text(data)
    md = markdown if markdown is not None else render_markdown(data | {"command": command}, lang, workspace)
    if fmt == "md":
        return md
    title = f"{data['topic']} · {data['date']}"
    if current is not None and (page := _page_made_from(current, html_source_mark(md, title, lang))):
        return page
    return render_html(md, title, lang)


def _page_made_from(path: Path, mark: str) -> str | None:
    """The text of the html page at ``path`` if its head carries ``mark`` and the page is whole."""
    try:
        page = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head_end = page.find("</head>")
    return page if 0 <= page.find(mark, 0, head_end) and page.endswith("</html>\n") else None


def briefing_data(ctx: RunContext, topic: str, *, top: int | None = None, preview: bool = False) -> dict[str, Any]:
    """Load, build and sync flags: the day's briefing data for ``topic``, flags with their stored ids.
    A ``preview`` reads the stored flags and writes none (``flags.preview_flags``)."""
    from pipeline.brief.build import build_briefing
    from pipeline.brief.flags import preview_flags, sync_flags
    from pipeline.brief.inputs import load_inputs
    check_topic(ctx, topic)
    inputs = load_inputs(ctx, topic, top=top)
    briefing = build_briefing(inputs)
    flags = preview_flags(ctx, topic, briefing.flags) if preview else sync_flags(ctx, topic, briefing.flags,
                                                                                 whole=top is None)   # after the build
    if not preview:   # a preview leaves the workspace as it was
        for kept in (inputs.judged, inputs.kept_claims):
            if kept is not None:
                kept.save()
    data = briefing.as_dict() | {"flags": flags}
    since = data.get("since_previous") or {}
    if since.get("raised_again"):   # by number and subject, as §3 heads them
        label = {f"{f['kind']}:{f['subject']}": f["label"] for f in flags}
        since["raised_again"] = [{"label": label.get(fp, ""), "subject": fp.split(":", 1)[1]}
                                 for fp in since["raised_again"]]
    for u in data["follow_ups"]:   # a to-do quoting an ID the day's open flags question
        u["flagged"] = [f["label"] for f in flags if f["status"] == "open" and questions_id(f, u)]
    for inc in data["increments"]:   # the open flags about an item ("" for one a preview has not numbered)
        disputes = [f for f in flags if f["kind"] == "number-conflict" and f["status"] == "open" and _disputes(f, inc)]
        # HF upvotes that disagree are no figures of the paper's (a reader looks for conflicting results)
        inc["disputed"] = [f["label"] for f in disputes if f["evidence"].get("quantity") != UPVOTES]
        inc["upvotes_differ"] = [f["label"] for f in disputes if f["evidence"].get("quantity") == UPVOTES]
        inc["boundary"] = [f["label"] for f in flags if f["kind"] == "boundary" and f["status"] == "open"
                           and f["evidence"].get("new_title") == inc["title"]]
        inc["unverified"] = [f["label"] for f in flags if f["kind"] == "unsourced-claim" and f["status"] == "open"
                             and _names_item(f["subject"], inc["title"])]
        inc["ids_in_doubt"] = [f["label"] for f in flags if f["status"] == "open" and _ids_in_doubt(f, inc)]
    return data


def _names_item(subject: str, title: str) -> bool:
    """A flag's subject is the item's title, or its title and figures ("二期集群 · 62%")."""
    return subject == title or subject.startswith(f"{title} · ")


def _ids_in_doubt(flag: dict[str, Any], inc: dict[str, Any]) -> bool:
    """Is ``flag`` a question of which ID or date of the increment to trust: an ID conflict raised on it, or a
    date inconsistency of a file or entry among its sources (a card named with last month's prefix, an entry citing
    an ID from a later month)."""
    if flag["kind"] == "id-conflict":
        return _names_item(flag["subject"], inc["title"])
    if flag["kind"] != "date-inconsistency":
        return False
    places = {s["path"] for s in inc["sources"] if s["path"]} | {
        f"{s['path']}#{s['entry']}" for s in inc["sources"] if s["path"] and s.get("entry") is not None}
    # a card named with another month's prefix is its file; an ID from a later month, the entry or card citing it
    return flag["subject"] in places or flag["evidence"].get("cited_in") in places


def _disputes(flag: dict[str, Any], inc: dict[str, Any]) -> bool:
    """Is a conflicting-numbers flag about the increment ``inc``? One raised on the item, or one about a system
    the items name (no item of its own) whose name the increment's title starts with and whose figures one of
    its own sources gave: "HydraRoute lowered p99 TTFT by 21%" in the blog post that is the HydraRoute increment,
    against a note's "−35%"."""
    context = flag["context"]
    if context.get("item") is not None:
        return context["item"] == inc["title"]
    system = (context.get("measured") or {}).get("system")
    if not system or name_key(system) != title_name_key(inc["title"]):
        return False
    own = {SourceRef(s["kind"], s["name"], s["path"], s["entry"], s["url"], s["date"], s["credibility"], "").key
           for s in inc["sources"]}
    return any(place in own for places in flag["evidence"].get("values", {}).values() for place in places)


def check_topic(ctx: RunContext, topic: str) -> None:
    if topic not in {t.slug for t in ctx.config.topics}:
        raise ConfigError(f"no topic {topic!r} in kb.toml (topics: {', '.join(t.slug for t in ctx.config.topics)})")


def write_briefing(ctx: RunContext, topic: str, *, lang: str | None = None, fmt: str = "md",
                   out: Path | None = None, top: int | None = None, save: bool = True,
                   data: dict[str, Any] | None = None, markdown: str | None = None,
                   preview: bool = False, command: str = NIGHTLY, digest: str | None = None) -> BriefResult:
    """Render one briefing (building its data unless given) and, unless ``save`` is off, write it.

    Written to its place in ``briefings/`` it is the day's briefing and is recorded; written to
    ``out`` it is a copy and leaves the day's record alone. A ``preview`` writes nothing to the store, not
    even the flags: the text is what the day's build would write, and the store is as it was — printed,
    or written to ``out`` only (a copy a member who may only read the store can make). ``markdown``
    is the data's Markdown in ``lang`` when the caller has it (see ``render``); ``command`` is the one
    writing it, named in the header (``kb brief`` passes its own name). ``digest``: ``data_digest(data)``,
    when the caller writes several formats of the same data.
    """
    if preview and save and out is None:
        raise ConfigError("a preview records nothing: it is printed, or written to --out")
    lang = lang or ctx.config.languages[0]
    if lang not in ("zh", "en"):
        raise ConfigError(f"--lang {lang!r}: zh or en")
    if fmt not in FORMATS:
        raise ConfigError(f"--format {fmt!r}: one of {', '.join(FORMATS)}")
    data = data if data is not None else briefing_data(ctx, topic, top=top, preview=preview)
    path = (out if out is not None else default_path(ctx, topic, lang, fmt)) if save else None
    text = render(data, lang, fmt, ctx.workspace.root, markdown=markdown, current=path, command=command)
    result = BriefResult(topic, lang, fmt, path, text, data)
    if path is not None:
        result.written = write_if_changed(path, text.encode("utf-8"))
        if out is None:
            from kb.store.briefings import data_digest
            record(ctx, data, lang, fmt, path, text, digest or data_digest(data))
    return result


def write_if_changed(path: Path, data: bytes, *, durable: bool = True) -> bool:
    """Write ``path`` atomically unless it already holds exactly ``data``; True if it was written."""
    try:
        if path.is_file() and path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomically(path, data, durable=durable)
    return True


def record(ctx: RunContext, data: dict[str, Any], lang: str, fmt: str, path: Path, text: str, digest: str) -> None:
    """Record the day's briefing in the store, when its row would change."""
    from kb.store.briefings import content_hash, recorded
    rel = ctx.workspace.relative(path)
    same_file = recorded(ctx.store, data["topic"], data["date"], lang, fmt) == (rel, content_hash(text))
    same_data = recorded(ctx.store, data["topic"], data["date"], "", "json") == (None, digest)
    if same_file and same_data:
        return
    from kb.store.briefings import record_briefing
    with ctx.store.transaction() as tx:
        record_briefing(tx, data, lang, fmt, rel, text, with_data=not same_data)
