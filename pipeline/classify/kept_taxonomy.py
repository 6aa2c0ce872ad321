"""A workspace's taxonomy as it was last read and checked, kept in ``.kb/cache/taxonomy.json``.

Reading the taxonomy (a TOML file of ~1,500 terms, and a workspace's override) and checking it (each
term's spellings against its table's others) is the same work every run while the files stay the same.
The merged table that passed the check is kept under a digest of the files' paths and bytes and of the
code that reads and checks them: a run whose files and code are the same reads it back and checks
nothing again, and the warnings the check gave are said again. Only ever a shortcut: missing, damaged,
from other files or code, or impossible to write, it means reading and checking again.
"""
from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

from kb.cachefile import read_cache, write_cache
from pipeline.classify.memo import source_digest
from pipeline.classify.taxonomy import (
    Taxonomy,
    default_taxonomy_path,
    parse_taxonomy,
    read_merged,
    warn_once,
    warnings_heard,
)

KEPT_FILE = ".kb/cache/taxonomy.json"
FORMAT = 1
# The code that reads (TOML through kb.resources) and checks a taxonomy; with Python's version, whose tomllib
# and unicodedata (NFKC of every term) it uses.
_CODE = ("pipeline.classify.taxonomy", "pipeline.classify.matcher", "pipeline.classify.kept_taxonomy", "kb.resources")


def load_kept_taxonomy(root: Path, override: Path | None, *, keep: bool = True) -> Taxonomy:
    """The shipped taxonomy with ``override`` merged over it, as ``load_taxonomy`` reads it; read back from
    ``root``'s ``.kb/cache`` when it holds this very reading, else read, checked and (``keep``) kept there."""
    base = default_taxonomy_path()
    key = _files_digest(base, override)
    kept = _read(root, key) if key is not None else None
    if kept is not None:
        raw, where, sources, heard = kept
        for message in heard:
            warn_once(message)
        return parse_taxonomy(raw, where=where, sources=sources, checked=True)
    with warnings_heard() as heard:
        raw, where, sources = read_merged(override, base=base)
        taxonomy = parse_taxonomy(raw, where=where, sources=sources)   # a taxonomy in error is never kept
    # hashed before it was read: kept only when the files still hold those bytes (a file saved meanwhile
    # would have this reading kept under its old bytes, and read back should they come again)
    if keep and key is not None and _files_digest(base, override) == key:
        _keep(root, {"format": FORMAT, "key": key, "raw": raw, "where": where, "sources": list(sources),
                     "warnings": heard})
    return taxonomy


def _files_digest(base: Path, override: Path | None) -> str | None:
    """What the reading depends on: the files (paths and bytes) and the code; None when a file cannot be read
    (reading it the usual way says why)."""
    h = hashlib.blake2b(digest_size=16)
    try:
        for path in (base, override):
            h.update(f"{path}\x1f".encode())
            h.update(path.read_bytes() if path is not None else b"")
    except OSError:
        return None
    h.update(f"{source_digest(_CODE)}:{sys.version}:{unicodedata.unidata_version}".encode())
    return h.hexdigest()


def _raw_digest(raw: dict[str, Any]) -> str:
    # in the files' order, as JSON keeps it: the order of topics and terms breaks ties between equal scores
    text = json.dumps(raw, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _keep(root: Path, kept: dict[str, Any]) -> None:
    try:
        kept["raw_digest"] = _raw_digest(kept["raw"])
    except (TypeError, ValueError):   # a value JSON cannot hold (a TOML date): read it every run
        return
    write_cache(root, KEPT_FILE, kept, what="taxonomy", sort_keys=False)   # in the files' order


def _read(root: Path, key: str) -> tuple[dict[str, Any], str, tuple[str, ...], list[str]] | None:
    """The kept reading for ``key``, or None: none, another reading, or anything damaged."""
    kept = read_cache(root, KEPT_FILE)
    if not (isinstance(kept, dict) and kept.get("format") == FORMAT and kept.get("key") == key):
        return None
    raw, where, sources, heard = (kept.get(k) for k in ("raw", "where", "sources", "warnings"))
    ok = (isinstance(raw, dict) and isinstance(where, str) and _strings(sources) and _strings(heard)
          and kept.get("raw_digest") == _raw_digest(raw))   # the very table that passed the check
    return (raw, where, tuple(sources), heard) if ok else None


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
