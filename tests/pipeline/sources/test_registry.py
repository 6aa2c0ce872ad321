"""The registry is the one declaration of sources: the docs' table, the config and the client read it."""
from __future__ import annotations

import re

from kb.config import parse_config
from pipeline.sources.registry import KINDS, build_registry
from tests.support.paths import REPO


def test_the_docs_table_lists_every_kind_as_the_registry_declares_it() -> None:
    doc = (REPO / "docs" / "sources.md").read_text(encoding="utf-8")
    rows = {m[0]: m for m in re.findall(r"^\| `([\w-]+)` \| [^|]+ \| ([^|]+) \| ([^|]+) \| (\w+) \| ([^|]+) \|$",
                                        doc, flags=re.M)}
    assert set(rows) == set(KINDS)
    for name, kind in KINDS.items():
        _, formats, spacing, nightly, what = rows[name]
        assert [f.strip() for f in formats.split(",")] == list(kind.formats)
        assert spacing.strip() == (f"{kind.spacing:g} s" if kind.spacing else "—")
        assert nightly == ("yes" if kind.scheduled else "no")
        assert what.strip() == kind.doc


def test_kb_toml_becomes_the_workspace_sources(tmp_path) -> None:
    cfg = parse_config('[[blogs]]\nname = "vllm"\nurl = "https://blog.vllm.ai/feed.xml"\ncredibility = 5\n'
                       '[hf]\nenabled = false\n', tmp_path / "kb.toml")
    reg = build_registry(cfg)
    assert [s.name for s in reg.scheduled()] == ["arxiv", "vllm"]
    assert [s.name for s in reg] == ["arxiv", "vllm", "arxiv-api", "arxiv-bulk"]
    assert "vllm" in reg and "hf" not in reg    # by name: iterating yields Sources, not names
    assert reg.credibility()["vllm"] == 5
    assert reg.host_spacing() == {"rss.arxiv.org": 1.0, "blog.vllm.ai": 1.0, "export.arxiv.org": 3.0}


def test_a_source_refuses_a_payload_of_another_kind() -> None:
    import pytest

    from kb.errors import ParseError
    from pipeline.sources.registry import Source
    listing = (REPO / "tests" / "fixtures" / "sources" / "listing_rss_3items.xml").read_bytes()
    blog = Source("a-blog", "blog", "https://blog.example.org/feed.xml")
    with pytest.raises(ParseError, match="not an RSS or Atom blog feed .*looks like arxiv-rss"):
        blog.parse(listing, day="2026-10-08")
    assert Source("arxiv", "arxiv").parse(listing, day="2026-10-08").papers
