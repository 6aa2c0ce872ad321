"""What a kb.toml value may be: names, arXiv categories, the contact address, topic slugs.

Each check returns the reason a value is refused (``None`` when it is fine), so the loader can
name the file, line and key of the first bad value.
"""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path

# Topic slugs and source names become file names (briefings/<date>-<slug>.md) and ledger rows.
NAME_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
# Names the sources kb runs itself already hold in the ledger.
RESERVED_SOURCES = frozenset({"arxiv", "hf", "arxiv-api", "arxiv-bulk", "workspace"})
LANGUAGES = ("zh", "en")
# What the nightly writes of each briefing (the JSON data is always kept in the store).
BRIEFING_FORMATS = ("md", "html")

# arXiv's archives, and the subject classes of those whose categories carry one (arxiv.org/category_taxonomy).
_ARCHIVES = frozenset("""astro-ph cond-mat cs econ eess gr-qc hep-ex hep-lat hep-ph hep-th math math-ph nlin nucl-ex
nucl-th physics q-bio q-fin quant-ph stat""".split())
_CLASSES = {
    "cs": "AI AR CC CE CG CL CR CV CY DB DC DL DM DS ET FL GL GR GT HC IR IT LG LO MA MM MS NA NE NI OH OS PF PL RO "
          "SC SD SE SI SY",
    "stat": "AP CO ME ML OT TH", "eess": "AS IV SP SY", "econ": "EM GN TH",
    "math": "AC AG AP AT CA CO CT CV DG DS FA GM GN GR GT HO IT KT LO MG MP NA NT OA OC PR QA RA RT SG SP ST",
    "q-bio": "BM CB GN MN NC OT PE QM SC TO", "q-fin": "CP EC GN MF PM PR RM ST TR",
}
_EMAIL_RE = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")


def name_problem(value: str, what: str) -> str | None:
    """A topic slug or a source name: lower-case letters, digits, - and _, at most 40."""
    if not NAME_RE.fullmatch(value):
        return (f"{what} {value!r} is not a safe name (lower-case letters, digits, '-' and '_', starting with a "
                "letter or digit, at most 40)")
    return None


def category_problem(value: str) -> str | None:
    """An arXiv category such as ``cs.DC`` or ``hep-th``."""
    archive, _, cls = value.partition(".")
    if archive not in _ARCHIVES:
        return f"unknown arXiv category {value!r}"
    if archive in _CLASSES and cls not in _CLASSES[archive].split():
        return f"unknown arXiv category {value!r}"
    return None


def formats_problem(value: list[str]) -> str | None:
    """``[briefing] formats``: one or more of md and html, each once."""
    if not value or len(set(value)) != len(value):
        return "expected one or more formats, each once (md, html)"
    bad = [v for v in value if v not in BRIEFING_FORMATS]
    return f"unknown format {bad[0]!r} (md, html)" if bad else None


def site_dir_problem(value: str) -> str | None:
    """``[site] dir``: a folder inside the workspace, written relative to it (the site is kb's output)."""
    parts = value.replace("\\", "/").split("/")
    if not value.strip() or value.startswith(("/", "~")) or ".." in parts:
        return f"expected a folder inside the workspace, written relative to it (e.g. \"site\"), not {value!r}"
    # "./organized", "site/../inbox": the folder as written, less "." parts (".." is refused above)
    parts = [p for p in parts if p not in ("", ".")]
    if not parts:
        return f"{value!r} is the workspace itself; name a folder in it (e.g. \"site\")"
    if parts[0] in ("inbox", "organized", ".kb", "kb.toml"):   # the team's files and kb's store are never a site
        return f"{value!r} is the team's or kb's own folder; name another (e.g. \"site\")"
    return None


def contact_problem(value: str) -> str | None:
    """One e-mail address in ASCII: it goes into every request's User-Agent header."""
    if not value.isascii() or not _EMAIL_RE.fullmatch(value):
        return f"expected one e-mail address in ASCII, not {value!r}"
    return None


# a libpq keyword string ("host=db password=…"): no file name, whatever else it is
_LIBPQ = re.compile(r"(?:^|\s)(?:host|hostaddr|dbname|user|password|port|sslmode|service)\s*=")


def names_a_server(value: str) -> bool:
    """Whether ``value`` is meant as a PostgreSQL store (a URL, or a libpq keyword string), not a file."""
    return value.startswith(("postgres:", "postgresql:")) or _LIBPQ.search(value) is not None


@lru_cache(maxsize=8)
def store_url_problem(value: str) -> str | None:
    """``[store] url`` (or KB_STORE_URL): empty for the SQLite file, else a PostgreSQL URL."""
    if value == "":
        return None
    if not re.match(r"postgres(ql)?://", value):
        # Not a URL, its parts are unknown: a libpq "host=… password=…" string or "postgres:/user:pw@host" (one
        # slash) carried the password into this line and the run log. Only its start is shown, up to the first
        # character that could begin a secret.
        start = re.match(r"[^=:@/\s]*[=:@/]", value)
        shown = f"a value starting {start.group()!r} (the rest not shown)" if start else "a value (not shown)"
        return (f"{shown}: expected a postgresql:// URL (postgresql://[user@]host[:port]/database), or nothing "
                "for the SQLite file .kb/kb.sqlite")
    if re.search(r"\s", value):
        return "a postgresql:// URL has no spaces"
    return None


# A topic's table header in a taxonomy file: ``[topics.kv-cache]``, ``[topics.kv-cache.terms]``.
_TOPIC_HEADER = re.compile(r"^\s*\[\s*topics\.([a-z0-9-]+)\s*[.\]]", re.MULTILINE)


def taxonomy_slugs(workspace_taxonomy: Path | None, *, full: bool = False) -> frozenset[str]:
    """The topic slugs of the shipped taxonomy and of a workspace's ``taxonomy.toml`` merged over it.

    Read from the files' table headers, which is how taxonomies are written (parsing the whole
    1,700-line TOML cost every command, queries included, as much as the rest of its config);
    ``full`` parses them as TOML, for a slug written some other way (quoted, dotted keys)."""
    from kb.resources import find_resource
    slugs: set[str] = set()
    for path in (find_resource("data/taxonomy.toml"), workspace_taxonomy):
        if path is not None and path.is_file():
            try:
                text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
                slugs |= set(tomllib.loads(text).get("topics", {})) if full else set(_TOPIC_HEADER.findall(text))
            except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
                pass   # the taxonomy's own loader names what is wrong with it
    return frozenset(slugs)


def unknown_topics(workspace_taxonomy: Path | None, names: list[str]) -> list[str]:
    """``names`` that are no topic of the taxonomy (none when the taxonomy cannot be read)."""
    if not names:
        return []
    known = taxonomy_slugs(workspace_taxonomy)
    if known and all(n in known for n in names):
        return []
    known = taxonomy_slugs(workspace_taxonomy, full=True)   # a slug the headers did not show, or a real miss
    return [n for n in names if n not in known] if known else []
