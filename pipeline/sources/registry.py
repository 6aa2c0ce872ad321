"""Sources declared once: each kind of source says how its payloads parse and how politely its
host is asked; ``build_registry`` turns kb.toml into the workspace's sources.

Everything that needs to know about a source reads it here: the ingest stage and
``kb ingest <source>``, the HTTP client's per-host spacing, the credibility a briefing
shows, the health ledger's names and ``docs/sources.md``. Adding a kind of source is a parser
module, a ``Kind`` line below and its kb.toml keys, plus the names ``kb`` repeats by hand because it
cannot import this module (the checklist: docs/sources.md, "Adding a kind of source").
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from kb.config import Config
    from kb.records import ParseResult

API_URL = "https://export.arxiv.org/api/query"


@dataclass(frozen=True)
class Kind:
    """A kind of source: the payload formats it serves (``pipeline.sources.detect``) and its manners."""

    name: str
    formats: tuple[str, ...]         # what detect_format may say of its payloads; anything else is refused
    noun: str                        # what its payloads are, for the message refusing something else
    spacing: float = 0.0             # seconds between two requests to its host
    scheduled: bool = True           # run by the nightly (False: on demand, e.g. a backfill)
    # Sniff the format first (a feed of arXiv's must not pass for a blog); a kind with one format
    # whose parser checks its input closely is handed the bytes directly, for its precise errors.
    sniff: bool = True
    doc: str = ""                    # one line for docs/sources.md


KINDS: dict[str, Kind] = {k.name: k for k in (
    # The listing also takes API answers, so a recorded API page can stand in for a day.
    Kind("arxiv", ("arxiv-rss", "arxiv-atom-listing", "arxiv-api"), "an arXiv listing or API answer", 1.0,
         doc="the rss.arxiv.org daily listing (RSS 2.0 or Atom) of the configured categories"),
    Kind("hf", ("hf-daily",), "HF Daily Papers JSON", 1.0, sniff=False,
         doc="Hugging Face Daily Papers: featured date and upvotes per day"),
    Kind("blog", ("feed",), "an RSS or Atom blog feed", 1.0, doc="an engineering blog's RSS or Atom feed"),
    Kind("arxiv-api", ("arxiv-api",), "an arXiv API answer", 3.0, scheduled=False, sniff=False,
         doc="export.arxiv.org/api/query: backfill searches and resolution of cited IDs (3 s apart)"),
    Kind("arxiv-bulk", ("kaggle-jsonl", "oai-pmh"), "Kaggle JSON lines or OAI-PMH XML", scheduled=False,
         doc="Kaggle JSON lines or OAI-PMH XML, streamed from a file"),
)}


@dataclass(frozen=True)
class Source:
    """One configured source: its name in the ledger, its kind, where its payloads come from."""

    name: str
    kind: str
    url: str | None = None           # may hold {date} (and {categories} for the listing)
    recording: str | None = None     # a workspace file read offline or instead of the network ({date})
    credibility: int = 3
    topics: tuple[str, ...] = ()     # topic hints of a blog
    categories: tuple[str, ...] = field(default=())

    @property
    def spacing(self) -> float:
        return KINDS[self.kind].spacing

    @property
    def scheduled(self) -> bool:
        return KINDS[self.kind].scheduled

    def url_for(self, day: str) -> str | None:
        """The URL to fetch for ``day``, placeholders filled in."""
        if self.url is None:
            return None
        return self.url.format(date=day, categories="+".join(self.categories))

    def parse(self, data: bytes, *, day: str, origin: str = "") -> ParseResult:
        """Parse one payload of this source (pure: bytes in, records out); ``day`` is the run's date,
        ``origin`` the file or URL it came from. A payload of another kind is refused."""
        from pipeline.sources.detect import parse_payload
        kind = KINDS[self.kind]
        return parse_payload(data, accept=kind.formats, expected=kind.noun, sniff=kind.sniff, name=origin,
                             feed=self.name, default_date=day, source=self.name)


class Registry:
    """The workspace's sources by name, in the order the nightly runs them."""

    def __init__(self, sources: list[Source]) -> None:
        self._by_name = {s.name: s for s in sources}

    def __iter__(self) -> Iterator[Source]:
        return iter(self._by_name.values())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def get(self, name: str) -> Source | None:
        return self._by_name.get(name)

    def scheduled(self) -> list[Source]:
        """The sources a nightly runs, in order."""
        return [s for s in self if s.scheduled]

    def of_kind(self, kind: str) -> list[Source]:
        return [s for s in self if s.kind == kind]

    def credibility(self) -> dict[str, int]:
        """Each source's credibility as kb.toml says today (not as it was when last fetched)."""
        return {s.name: s.credibility for s in self}

    def host_spacing(self) -> dict[str, float]:
        """Seconds between requests per host, the strictest of the sources that share it."""
        out: dict[str, float] = {}
        for s in self:
            host = urlsplit(s.url_for("2000-01-01") or "").hostname
            if host and s.spacing:
                out[host] = max(out.get(host, 0.0), s.spacing)
        return out


def build_registry(config: Config) -> Registry:
    """The sources kb.toml configures: the listing, HF Daily (when enabled), every blog, and the
    on-demand arXiv API and bulk sources."""
    sources = [Source("arxiv", "arxiv", config.arxiv_url, config.arxiv_recording, config.arxiv_credibility,
                      categories=tuple(config.arxiv_categories))]
    if config.hf_enabled:
        sources.append(Source("hf", "hf", config.hf_url, config.hf_recording, config.hf_credibility))
    sources += [Source(b.name, "blog", b.url, b.recording, b.credibility, tuple(b.topics)) for b in config.blogs]
    sources += [Source("arxiv-api", "arxiv-api", config.arxiv_api_url, credibility=config.arxiv_credibility),
                Source("arxiv-bulk", "arxiv-bulk", credibility=config.arxiv_credibility)]
    return Registry(sources)
