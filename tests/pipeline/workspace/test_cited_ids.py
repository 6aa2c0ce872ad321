"""An ID-shaped part of a web address cites a paper only on a paper's site (arxiv.org, huggingface.co/papers,
the arXiv DOI …): a GitHub release tagged ``2610.09701`` or a post whose slug starts with an ID was anchored,
cited and queued as that arXiv paper (QA, 2026-12-04). A store read by the old reader is read again."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from kb.arxiv_id import find_arxiv_ids
from kb.citations import find_cited_ids, names_a_paper
from kb.store import Store
from kb.store.anchors import query_anchored
from pipeline.workspace.knowledge import parse_knowledge
from pipeline.workspace.notes import parse_note
from pipeline.workspace.queue import parse_queue
from tests.reliability.support import kb_inproc

RELEASE = "https://github.com/ai-dynamo/dynamo/releases/tag/2610.09701"


@pytest.mark.parametrize("url, paper", [
    ("https://arxiv.org/abs/2610.09701v2", True), ("https://www.arxiv.org/pdf/2610.09701", True),
    ("https://huggingface.co/papers/2610.09701", True), ("https://doi.org/10.48550/arXiv.2610.09701", True),
    ("https://www.alphaxiv.org/abs/2610.09701", True),
    (RELEASE, False), ("https://example.com/posts/2605.01280-notes", False),
    ("https://cdn-thumbnails.huggingface.co/social-thumbnails/papers/2610.09701.png", False),
    ("https://huggingface.co/datasets/x/2610.09701", False), ("https://arxiv.org.evil.com/abs/2610.09701", False),
    ("www.arxiv.org/abs/2610.09701", True), ("www.github.com/x/releases/tag/2610.09701", False),
    ("https://hf-mirror.com/papers/2610.09701", True), ("https://papers.cool/arxiv/2610.09701", True),
])
def test_a_paper_s_address(url: str, paper: bool) -> None:
    assert names_a_paper(url) is paper
    assert [a.id for a in find_cited_ids(f"见 {url}，值得看")] == (["2610.09701"] if paper else [])


def test_an_id_after_an_address_in_chinese_text_is_still_cited() -> None:
    assert [a.id for a in find_cited_ids(f"{RELEASE}：ZetaServe（2605.01280）")] == ["2605.01280"]


@pytest.mark.parametrize("line, anchors", [
    ("- SlimWise — www.arxiv.org/abs/2610.09701 (anchored 2026-10-08)", [("2610.09701", None)]),
    ("- Release — www.github.com/x/releases/tag/2610.09701 (anchored 2026-10-08)",
     [(None, "www.github.com/x/releases/tag/2610.09701")]),
])
def test_an_address_without_a_scheme_is_a_paper_or_itself_never_both(line: str, anchors: list) -> None:
    """A ``www.`` address was anchored twice, as its paper and as itself (review, 2026-12-04)."""
    doc = parse_knowledge(f"# Doc v1\n\n## §2.1 Engines\n\n{line}\n", "d.md", "d")
    assert [(a.arxiv_id, a.url) for a in doc.sections[0].anchors] == anchors


def test_a_release_tagged_like_an_id_is_anchored_as_its_address() -> None:
    doc = parse_knowledge(f"# Doc v1\n\n## §2.1 Engines\n\n- Dynamo release — {RELEASE} (anchored 2026-10-08)\n"
                          "- [SlimWise](https://arxiv.org/abs/2610.09701) (anchored 2026-10-08)\n"
                          f"- [Dynamo notes]({RELEASE})\n", "d.md", "d")
    anchors = [(a.arxiv_id, a.url) for a in doc.sections[0].anchors]
    assert anchors == [(None, RELEASE), ("2610.09701", None), (None, RELEASE)]


def test_a_note_and_the_queue_do_not_cite_a_release_as_a_paper() -> None:
    note = parse_note(f"## 1. Dynamo 1.5\n\n- {RELEASE} — KV routing GA\n", "inbox/jay/2026-10-08-x.md")
    assert [(e.subject, e.arxiv_ids) for e in note.entries] == [(None, [])]
    queue = parse_queue(f"1. Dynamo 1.5 notes {RELEASE}\n2. SlimWise 2610.09701\n", "organized/queue.md")
    assert [i.arxiv_id for i in queue.items] == [None, "2610.09701"]


def test_a_store_read_by_the_old_reader_is_corrected_on_the_next_ingest(sample_workspace: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.workspace.knowledge as knowledge
    doc = sample_workspace / "organized" / "knowledge" / "inference.md"
    with doc.open("a", encoding="utf-8") as f:
        f.write(f"\n- Dynamo release — {RELEASE} (anchored 2026-10-08)\n")
    with monkeypatch.context() as old_reader:     # every ID-shaped part of an address cited its paper
        old_reader.setattr(knowledge, "find_cited_ids", find_arxiv_ids)
        assert kb_inproc("ingest", "workspace", "--date", "2026-10-08").returncode == 0
    path = sample_workspace / ".kb" / "kb.sqlite"
    assert ("2610.09701", None) in _anchored_on_the_release_line(path)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DELETE FROM migrations WHERE name = 'm022_cited_ids'")   # the store before this kb
    conn.close()
    assert kb_inproc("ingest", "workspace", "--date", "2026-10-09").returncode == 0
    assert _anchored_on_the_release_line(path) == [(None, RELEASE)]


def _anchored_on_the_release_line(path: Path) -> list[tuple[str | None, str | None]]:
    with Store.open(path, readonly=True) as store:
        return [(r["arxiv_id"], r["url"]) for r in query_anchored(store, topic="inference")
                if "Dynamo release" in r["label"]]


def test_a_word_names_a_paper_when_it_is_an_id_or_a_papers_address() -> None:
    """`kb search`'s "IDs alone": the paper sites are the same data the citations read; a release tagged with
    an ID, or an ID glued into other words, names no paper as a whole word."""
    from kb.citations import written_id
    for word in ("2610.09701", "arXiv:2610.09701v2", "https://arxiv.org/pdf/2610.09701.pdf",
                 "https://hf-mirror.com/papers/2610.09701", "10.48550/arXiv.2610.09701",
                 "https://doi.org/10.48550/arXiv.2610.09701"):
        assert (aid := written_id(word)) is not None and aid.id == "2610.09701", word
    for word in ("https://github.com/x/y/releases/tag/2610.09701", "论文2610.09701提出", "2610.09701,2610.09702", "moe"):
        assert written_id(word) is None, word
