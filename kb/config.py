"""kb.toml: load, validate and describe a workspace's configuration.

Validation is strict (an unknown key is a typo until proven otherwise) and every
error names the file, the line and the key, so a nightly cron mail says exactly
what to fix.
"""
from __future__ import annotations

import posixpath
import re
import tomllib
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path, PureWindowsPath
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kb.config_values import (
    BRIEFING_FORMATS,
    LANGUAGES,
    RESERVED_SOURCES,
    category_problem,
    contact_problem,
    formats_problem,
    name_problem,
    site_dir_problem,
    store_url_problem,
    unknown_topics,
)
from kb.errors import ConfigError, toml_error, utf8_error

CLASSIFY_MODELS = ("learned", "keyword")   # pipeline.classify.engine
DEFAULT_CATEGORIES = ["cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"]
LISTING_URL = "https://rss.arxiv.org/rss/{categories}"
HF_URL = "https://huggingface.co/api/daily_papers?date={date}"
API_URL = "https://export.arxiv.org/api/query"


@dataclass
class BlogSource:
    name: str
    url: str | None = None
    credibility: int = 3
    topics: list[str] = field(default_factory=list)
    recording: str | None = None


@dataclass
class TopicDoc:
    slug: str
    doc: str


@dataclass
class Config:
    """A workspace's settings, with defaults filled in."""

    path: Path | None = None
    timezone: str = "Asia/Shanghai"
    languages: list[str] = field(default_factory=lambda: ["zh", "en"])
    contact: str = "kb@example.org"
    topics: list[TopicDoc] = field(default_factory=lambda: [TopicDoc("inference", "organized/knowledge/inference.md")])
    arxiv_categories: list[str] = field(default_factory=lambda: list(DEFAULT_CATEGORIES))
    arxiv_url: str = LISTING_URL
    arxiv_recording: str | None = None
    arxiv_credibility: int = 3
    arxiv_api_url: str = API_URL
    hf_enabled: bool = True
    hf_url: str = HF_URL
    hf_credibility: int = 3
    hf_recording: str | None = None
    blogs: list[BlogSource] = field(default_factory=list)
    authors: dict[str, int] = field(default_factory=dict)   # folder name, case-folded → credibility
    briefing_top: int = 5
    cutoff: str = "23:59"
    briefing_formats: list[str] = field(default_factory=lambda: list(BRIEFING_FORMATS))
    site_dir: str | None = None       # the nightly builds the archive site here when set
    classify_model: str = "keyword"          # learned | keyword (pipeline.classify.engine)
    classify_model_file: str | None = None   # a workspace's own trained model (kb train --out)
    store_url: str = ""          # "" = the SQLite file .kb/kb.sqlite; else a postgresql:// URL

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def cutoff_at(self, day: date) -> datetime:
        """``day``'s cut-off (``[briefing] cutoff``) in the workspace's time zone: where that day's window ends."""
        return datetime.combine(day, time.fromisoformat(self.cutoff), tzinfo=self.tz)


# key → (type, required) per table; lists of tables are validated per item.
_SCHEMA: dict[str, dict[str, tuple[type | tuple[type, ...], bool]]] = {
    "workspace": {"timezone": (str, False), "languages": (list, False), "contact": (str, False)},
    "topics": {"slug": (str, True), "doc": (str, True)},
    "arxiv": {"categories": (list, False), "url": (str, False), "recording": (str, False),
              "credibility": (int, False), "api_url": (str, False)},
    "hf": {"enabled": (bool, False), "url": (str, False), "credibility": (int, False), "recording": (str, False)},
    "blogs": {"name": (str, True), "url": (str, False), "credibility": (int, False), "topics": (list, False),
              "recording": (str, False)},
    "authors": {},
    "briefing": {"top": (int, False), "cutoff": (str, False), "formats": (list, False)},
    "site": {"dir": (str, False)},
    "classify": {"model": (str, False), "model_file": (str, False)},
    "store": {"url": (str, False)},
}
_LIST_TABLES = {"topics", "blogs"}


_HEADER_RE = re.compile(r"""^\s*\[\[?\s*"?([A-Za-z0-9_-]+)"?\s*\]\]?\s*(?:#.*)?$""")


def _line_of(text: str, key: str, index: int | None = None) -> int | None:
    """The line where ``key`` is assigned or opened as a table (for error messages).

    ``key`` is ``table.key`` or a table name; ``index`` picks the n-th ``[[table]]`` of a
    list of tables. The key is looked for inside its own table, so ``hf.url`` is not
    reported on the line of ``[arxiv]``'s ``url``.
    """
    table, _, leaf = key.rpartition(".")
    if table:
        assign = re.compile(rf"""^\s*["']?{re.escape(leaf)}["']?\s*=""")
        current, seen = None, -1
        for no, line in enumerate(text.splitlines(), start=1):
            m = _HEADER_RE.match(line)
            if m:
                current = m[1]
                seen += current == table
                continue
            if current == table and (index is None or seen == index) and assign.match(line):
                return no
    elif index is not None:  # the n-th [[table]] header itself
        headers = [no for no, line in enumerate(text.splitlines(), start=1)
                   if (m := _HEADER_RE.match(line)) and m[1] == key]
        if index < len(headers):
            return headers[index]
    # [ \t], not \s: with re.M a \s* would start the match on a blank line above.
    pat = re.compile(rf"^[ \t]*(\[+[ \t]*)?{re.escape(leaf)}[ \t]*(=|\]|\.)", re.M)
    m = pat.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else None


def _leaves_workspace(relative: str) -> bool:
    """Is ``relative`` absolute, or does it climb out of the workspace (``../x``, ``a/../../x``)? Read as
    written; links inside the workspace are followed when the file is opened (``kb.workspace.resolve_inside``)."""
    path = relative.replace("\\", "/")
    norm = posixpath.normpath(path) if path else ".."
    return posixpath.isabs(path) or bool(PureWindowsPath(relative).drive) or norm == ".." or norm.startswith("../")


def _err(path: Path, text: str, key: str, msg: str, index: int | None = None) -> ConfigError:
    line = _line_of(text, key, index)
    where = f"{path}:{line}" if line else str(path)
    return ConfigError(f"{where}: {key}: {msg}")


def _check_table(path: Path, text: str, name: str, table: dict[str, Any], index: int | None = None) -> None:
    schema = _SCHEMA[name]
    if name == "authors":
        for k, v in table.items():
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 5:
                raise _err(path, text, f"authors.{k}", "credibility must be a whole number from 1 to 5")
        return
    for k, v in table.items():
        if k not in schema:
            raise _err(path, text, f"{name}.{k}", f"unknown key (known: {', '.join(sorted(schema))})", index)
        typ, _ = schema[k]
        if not isinstance(v, typ) or (typ is int and isinstance(v, bool)):
            raise _err(path, text, f"{name}.{k}", f"expected {getattr(typ, '__name__', typ)}, got {type(v).__name__}",
                       index)
        if typ is list and not all(isinstance(x, str) for x in v):
            bad = next(x for x in v if not isinstance(x, str))
            raise _err(path, text, f"{name}.{k}", f"expected a list of strings, found {bad!r}", index)
    for k, (_, required) in schema.items():
        if required and k not in table:
            raise _err(path, text, name, f"missing required key '{k}'", index)


def parse_config(text: str, path: Path) -> Config:
    """Validate the text of a kb.toml and return the Config; raise ConfigError on any problem."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise toml_error(path, exc, text) from exc
    for name, value in raw.items():
        if name not in _SCHEMA:
            raise _err(path, text, name, f"unknown section (known: {', '.join(sorted(_SCHEMA))})")
        items = value if name in _LIST_TABLES else [value]
        if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
            expected = f"[[{name}]] tables" if name in _LIST_TABLES else "a table"
            raise _err(path, text, name, f"expected {expected}")
        for i, item in enumerate(items):
            _check_table(path, text, name, item, i if name in _LIST_TABLES else None)
    return _build(raw, path, text)


def _build(raw: dict[str, Any], path: Path, text: str) -> Config:
    ws, ax, hf, br, cl = (raw.get(k, {}) for k in ("workspace", "arxiv", "hf", "briefing", "classify"))
    cfg = Config(path=path)
    cfg.timezone = ws.get("timezone", cfg.timezone)
    try:
        ZoneInfo(cfg.timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise _err(path, text, "workspace.timezone", f"unknown time zone {cfg.timezone!r}") from exc
    cfg.languages = ws.get("languages", cfg.languages)
    if not cfg.languages or len(set(cfg.languages)) != len(cfg.languages):
        raise _err(path, text, "workspace.languages", "expected one or more languages, each once (zh, en)")
    for lang in cfg.languages:
        if lang not in LANGUAGES:
            raise _err(path, text, "workspace.languages", f"unsupported language {lang!r} (zh, en)")
    cfg.contact = ws.get("contact", cfg.contact)
    if problem := contact_problem(cfg.contact):
        raise _err(path, text, "workspace.contact", problem)
    if "topics" in raw:
        cfg.topics = [TopicDoc(t["slug"], t["doc"]) for t in raw["topics"]]
        _check_names(path, text, "topics.slug", [t.slug for t in cfg.topics], "topic")
        for n, t in enumerate(cfg.topics):
            if _leaves_workspace(t.doc):   # the doc is a team file kb reads each night and `kb anchor` edits
                raise _err(path, text, "topics.doc", f"{t.doc!r} is not a path inside the workspace", n)
    cfg.arxiv_categories = ax.get("categories", cfg.arxiv_categories)
    if not cfg.arxiv_categories:
        raise _err(path, text, "arxiv.categories", "expected at least one arXiv category (e.g. cs.DC)")
    for cat in cfg.arxiv_categories:
        if problem := category_problem(cat):
            raise _err(path, text, "arxiv.categories", problem)
    cfg.arxiv_url = ax.get("url", cfg.arxiv_url)
    cfg.arxiv_recording = ax.get("recording")
    cfg.arxiv_api_url = ax.get("api_url", cfg.arxiv_api_url)
    cfg.arxiv_credibility = _credibility(path, text, "arxiv.credibility", ax.get("credibility", 3))
    cfg.hf_enabled = hf.get("enabled", True)
    cfg.hf_url = hf.get("url", cfg.hf_url)
    cfg.hf_credibility = _credibility(path, text, "hf.credibility", hf.get("credibility", 3))
    cfg.hf_recording = hf.get("recording")
    blogs = raw.get("blogs", [])
    _check_names(path, text, "blogs.name", [b["name"] for b in blogs], "feed")
    unknown_of = unknown_topics(path.parent / "taxonomy.toml", [t for b in blogs for t in b.get("topics", [])])
    for i, b in enumerate(blogs):
        if b["name"] in RESERVED_SOURCES:
            raise _err(path, text, "blogs.name", f"{b['name']!r} is the name of one of kb's own sources", i)
        unknown = [t for t in b.get("topics", []) if t in unknown_of]
        if unknown:
            raise _err(path, text, "blogs.topics", f"{unknown[0]!r} is no topic of the taxonomy", i)
        if not b.get("url") and not b.get("recording"):
            raise _err(path, text, "blogs.name", f"feed {b['name']!r} needs a url or a recording", i)
        cfg.blogs.append(BlogSource(b["name"], b.get("url"), _credibility(path, text, "blogs.credibility",
                                    b.get("credibility", 3), i), b.get("topics", []), b.get("recording")))
    # Inbox folders are matched whatever their case: [authors] Jay = 4 is the folder jay.
    cfg.authors = {}
    for name, value in raw.get("authors", {}).items():
        if name.casefold() in cfg.authors:
            raise _err(path, text, f"authors.{name}", "the same author twice (names are matched ignoring case)")
        cfg.authors[name.casefold()] = value
    cfg.briefing_top = br.get("top", cfg.briefing_top)
    if not 1 <= cfg.briefing_top <= 500:
        raise _err(path, text, "briefing.top", "expected a number of increments from 1 to 500")
    cfg.store_url = raw.get("store", {}).get("url", "")
    if problem := store_url_problem(cfg.store_url):
        raise _err(path, text, "store.url", problem)
    cfg.cutoff = br.get("cutoff", cfg.cutoff)
    if not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", cfg.cutoff):
        raise _err(path, text, "briefing.cutoff", "expected HH:MM")
    cfg.briefing_formats = br.get("formats", cfg.briefing_formats)
    if problem := formats_problem(cfg.briefing_formats):
        raise _err(path, text, "briefing.formats", problem)
    cfg.site_dir = raw.get("site", {}).get("dir")
    if cfg.site_dir is not None and (problem := site_dir_problem(cfg.site_dir)):
        raise _err(path, text, "site.dir", problem)
    cfg.classify_model = cl.get("model", cfg.classify_model)
    if cfg.classify_model not in CLASSIFY_MODELS:
        raise _err(path, text, "classify.model", f"unknown classifier {cfg.classify_model!r} "
                   f"(one of {', '.join(CLASSIFY_MODELS)})")
    cfg.classify_model_file = cl.get("model_file")
    for url_key, url, i in [("arxiv.url", cfg.arxiv_url, None), ("hf.url", cfg.hf_url, None),
                            ("arxiv.api_url", cfg.arxiv_api_url, None)] + [
            ("blogs.url", b.url, i) for i, b in enumerate(cfg.blogs) if b.url]:
        if not re.match(r"https?://", url):
            raise _err(path, text, url_key, f"only http(s) URLs are fetched, not {url!r}; use `recording` for files", i)
    # Placeholders are filled in at fetch time: a typo must fail here, not in the middle of a nightly.
    templates = [("arxiv.url", cfg.arxiv_url, None, {"categories", "date"}),
                 ("arxiv.recording", cfg.arxiv_recording, None, {"date"}),
                 ("hf.url", cfg.hf_url, None, {"date"}), ("hf.recording", cfg.hf_recording, None, {"date"})]
    templates += [(f"blogs.{k}", v, i, set()) for i, b in enumerate(cfg.blogs)
                  for k, v in (("url", b.url), ("recording", b.recording))]
    recorded: dict[str, int] = {}
    for key, value, i, allowed in templates:
        if key.endswith("recording") and value is not None and not value.strip():   # read as "no recording"
            raise _err(path, text, key, "empty: name the file, or leave the key out for none", i)
        if key == "blogs.recording" and value:   # a second feed would take the first one's posts as its own
            if (first := recorded.setdefault(posixpath.normpath(value), i)) != i:
                raise _err(path, text, key, f"{value!r} is also feed {cfg.blogs[first].name}'s recording", i)
        bad = _placeholders(value) - allowed
        if bad:
            raise _err(path, text, key, f"unknown placeholder {{{sorted(bad)[0]}}} in {value!r} (allowed: "
                       + (", ".join("{" + a + "}" for a in sorted(allowed)) or "none") + ")", i)
    return cfg


def _check_names(path: Path, text: str, key: str, names: list[str], what: str) -> None:
    """Every name safe and each one once (the n-th is reported on the n-th table's line)."""
    seen: set[str] = set()
    for i, name in enumerate(names):
        if problem := name_problem(name, what):
            raise _err(path, text, key, problem, i)
        if name in seen:
            raise _err(path, text, key, f"duplicate {what} {name!r}", i)
        seen.add(name)


def _placeholders(template: str | None) -> set[str]:
    """The placeholders of a URL or path template as written; one with a conversion or a format
    (``{date!r}``, ``{date:%Y}``) is kept whole, so it is unknown: kb fills in plain ``{date}`` only."""
    import string
    try:
        return {name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "")
                for _, name, spec, conv in string.Formatter().parse(template or "") if name is not None}
    except ValueError:   # an unmatched brace
        return {"<unmatched brace>"}


def _credibility(path: Path, text: str, key: str, value: int, index: int | None = None) -> int:
    if not 1 <= value <= 5:
        raise _err(path, text, key, "credibility must be from 1 to 5", index)
    return value


def load_config(path: Path) -> Config:
    """Read and validate ``path`` (a kb.toml)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: no such file") from exc
    except UnicodeDecodeError as exc:
        raise utf8_error(path, exc) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    # a byte-order mark (Notepad and some Windows editors write one) is no part of the TOML, and invisible
    return parse_config(text.removeprefix("\ufeff"), path)
