"""kb search finds the same documents, in the same order, with the same bm25 scores on both backends.

The documents are the edge cases of Chinese and Latin text kb meets (URLs, 4.64×, prefill/decode,
max_num_seqs, diacritics, repeated CJK, emoji, kana and hangul, mixed-script words, a lexeme 40
times), written through kb's own writers as papers, posts and note entries, then changed and
deleted: the index and bm25's totals follow on PostgreSQL as FTS5's do.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kb.records import Note, NoteEntry, PaperRecord, PostRecord
from kb.store import Store
from kb.store.fts import MAX_POS, MAX_POSITIONS, cjk_chars, index_text, segment, to_tsvector_literal, tokens
from kb.store.notes import forget_file, save_note
from kb.store.papers import save_papers
from kb.store.posts import save_posts
from kb.store.search import merge_some, search

DOCS = [  # (title, body)
    ("SGLang 推理框架", "五大推理框架横评（H100 8×80GB）：vLLM / SGLang，吞吐 4.64× https://blog.csdn.net/infer_lab/1"),
    ("Chunked prefill", "chunked-prefill-size and prefill/decode disaggregation; max_num_seqs=256"),
    ("Café résumé", "İstanbul µs Straße naïve coöperation ÉCOLE"),
    ("重复", "啊啊啊啊 推理推理推理"),
    ("boundary prefill", "decode starts the body"),
    ("符号", "⭐ 🟢 ★ ● ✓ — 推理 ✅ prefill"),
    ("かな 한국어", "推論フレームワーク 추론 프레임워크 prefill"),
    ("vLLM推理", "SGLang推理引擎 mixed runs"),
    ("decode", "prefill " * 40 + "decode"),
    ("Decode PREFILL", "KV cache, kv-cache, KVCache"),
    ("昇腾 910B 上的调度", "调度器按 SLO 分级排队，PD 分离部署，推理服务"),
    ("Prefix caching", "RadixAttention prefix caching for decode-heavy 推理 workloads"),
]
QUERIES = ["推理", "推理框架", "prefill decode", "prefill_decode", "max_num_seqs", "4.64", "csdn", "cafe", "café",
           "istanbul", "μs", "strasse", "straße", "啊啊", "啊啊啊", "推", "⭐", "推論", "추론", "vLLM推理", "KV cache",
           "kvcache", "ECOLE naive", '"prefill"', "prefill OR decode", "推理 prefill", "调度", "PD 分离", "decode"]


def _write(store: Store, docs: list[tuple[str, str]]) -> None:
    """Papers, posts and one note's entries: every kind of document, through kb's writers."""
    papers = [PaperRecord(f"2610.{i:05d}", 1, t, ["Ada Li"], b, ["cs.DC"], "cs.DC", "2026-10-01")
              for i, (t, b) in enumerate(docs[:6], 1)]
    posts = [PostRecord(f"blog|{i}", "blog", t, f"https://blog.example.org/{i}", "2026-10-08", summary=b)
             for i, (t, b) in enumerate(docs[6:9], 1)]
    note = Note("inbox/amy/2026-10-08-notes.md", "amy", "2026-10-08T09:00", "notes",
                entries=[NoteEntry(n, t, b) for n, (t, b) in enumerate(docs[9:], 1)])
    with store.transaction() as tx:
        save_papers(tx, papers, "arxiv")
        save_posts(tx, posts)
        save_note(tx, note)


@pytest.fixture
def stores(tmp_path: Path, pg_fresh_url: str):
    lite, pg = Store.open(tmp_path / "kb.sqlite"), Store.open(pg_fresh_url)
    for s in (lite, pg):
        _write(s, DOCS)
    yield lite, pg
    lite.close()
    pg.close()


def _raw(store: Store, text: str) -> list[tuple[str, str, float]]:
    """Every match with its unrounded bm25 score."""
    from kb.store.fts import to_match_query
    if store.dialect == "postgresql":
        from kb.store.pg_search import ranked
        return ranked(store, text, 1000)
    m = to_match_query(text)
    return [(r[0], r[1], -r[2]) for r in store.query(
        "SELECT kind, ref, bm25(search_index) FROM search_index WHERE search_index MATCH ? "
        "ORDER BY bm25(search_index), ref", (m,))] if m else []


def _assert_same(lite: Store, pg: Store) -> dict[str, int]:
    found = {}
    for text in QUERIES:
        want, got = _raw(lite, text), _raw(pg, text)
        assert [(k, r) for k, r, _ in got] == [(k, r) for k, r, _ in want], text
        assert [s for _, _, s in got] == pytest.approx([s for _, _, s in want], rel=1e-12, abs=1e-12), text
        assert search(pg, text, limit=100) == search(lite, text, limit=100), text
        found[text] = len(want)
    return found


def test_same_documents_same_order_same_scores(stores) -> None:
    found = _assert_same(*stores)
    assert found["推理"] >= 6 and found["推理框架"] == 1 and found["prefill decode"] >= 4 and found["调度"] == 1
    assert found["prefill_decode"] == 2      # prefill/decode, and 40 × prefill + decode; not across title|body
    assert found["vLLM推理"] == 0            # a mixed-script word is not segmented in a query: alike on both
    assert found["café"] == found["cafe"] == 1 and found["straße"] == 1


def test_the_index_follows_changes_and_deletions(stores) -> None:
    """Rewritten papers, a deleted note, then the nightly's upkeep: still the same results, and PostgreSQL's
    bm25 totals still those of its index."""
    lite, pg = stores
    changed = [(t + " 推理", b.replace("prefill", "decode")) for t, b in DOCS[:6]]
    for s in stores:
        with s.transaction() as tx:
            save_papers(tx, [PaperRecord(f"2610.{i:05d}", 2, t, ["Ada Li"], b, ["cs.DC"], "cs.DC", "2026-10-01")
                             for i, (t, b) in enumerate(changed, 1)], "arxiv")
    _assert_same(lite, pg)
    for s in stores:
        with s.transaction() as tx:
            forget_file(tx, "inbox/amy/2026-10-08-notes.md")
    assert not search(pg, "RadixAttention") and not search(lite, "RadixAttention")
    _assert_same(lite, pg)
    assert pg.check() == ["ok"]
    rows = pg.query("SELECT count(*) FROM search_stats")[0][0]
    for s in stores:
        merge_some(s)
    assert pg.query("SELECT count(*) FROM search_stats")[0][0] == 1 < rows
    _assert_same(lite, pg)
    assert pg.check() == ["ok"]


def test_tokens_are_unicode61s(tmp_path: Path) -> None:
    """What kb indexes is what unicode61 makes of the text: FTS5 keeps index_text() token for token."""
    db = sqlite3.connect(tmp_path / "v.sqlite")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    for i, (title, body) in enumerate(DOCS, 1):
        for text in (title, body):
            db.execute("DELETE FROM t")
            db.execute("INSERT INTO t (rowid, body) VALUES (1, ?)", (index_text(text),))
            theirs = [term for _, term in sorted(db.execute("SELECT offset, term FROM v"))]
            assert theirs == tokens(segment(text)) + cjk_chars(text), (i, text)
    assert index_text("Straße 4.64× 🟢 推理框架") == "straße 4 64 推理 理框 框架 推 理 框 架"


def test_ascii_text_is_tokenized_as_unicode61_tokenizes_it(tmp_path: Path) -> None:
    """The ASCII fast path of index_text agrees with SQLite's own tokenizer on the raw text."""
    db = sqlite3.connect(tmp_path / "a.sqlite")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    every_char = "".join(chr(c) for c in range(1, 128))
    texts = [every_char, "KV-Cache: 2.3x FASTER_than vLLM's (v0.6) @ 128k\ttokens\n", *(t for d in DOCS for t in d)]
    for text in (t for t in texts if t.isascii()):
        db.execute("DELETE FROM t")
        db.execute("INSERT INTO t (rowid, body) VALUES (1, ?)", (text,))
        theirs = [term for _, term in sorted(db.execute("SELECT offset, term FROM v"))]
        assert index_text(text).split() == theirs, text


def test_text_beyond_ascii_is_tokenized_as_unicode61_tokenizes_it(tmp_path: Path) -> None:
    """index_text folds letters beyond ASCII as SQLite's tokenizer does with the raw (segmented) text:
    diacritics off Latin letters, case folded, other scripts kept; then the CJK characters."""
    db = sqlite3.connect(tmp_path / "u.sqlite")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body, tokenize = 'unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)")
    texts = ["Schrödinger İstanbul ÉCOLE µs naïve café-au-lait ＬＬＭ Straße ΣΊΣΥΦΟΣ", "Ǆemal ﬁne Ⅻ ① x²",
             "SlimWise：在 Prefill/Décode 间解耦专家剪枝，TTFT 降 1.9×", "Ångström-scale Øresund Łódź Ça va"]
    for text in texts:
        db.execute("DELETE FROM t")
        db.execute("INSERT INTO t (rowid, body) VALUES (1, ?)", (segment(text),))
        theirs = [term for _, term in sorted(db.execute("SELECT offset, term FROM v"))]
        assert index_text(text).split() == theirs + cjk_chars(text), text
        assert tokens(segment(text)) == theirs, text


# What a title or an abstract mixes: ASCII words and separators, Latin letters with diacritics, CJK, kana
# and hangul, unicode61's exceptions (marks that were letters, private use), other scripts' whitespace,
# and a lone surrogate.
_PIECES = st.sampled_from(["SlimWise", "TTFT", "kv-cache", "1.9×", "4.64", " ", "\t", "\n", "/", "_", "(", "—",
                           "Schrödinger", "ÉCOLE", "Straße", "İ", "µs", "ﬁne", "Ⅻ", "①", "x²", "ＬＬＭ", "推理", "框架",
                           "锚", "推論フレームワーク", "추론", "\u3000", "\xa0", "\u19b0", "\u1cf2", "\ue000",
                           "\U000f0001", "🟢", "\ud800", "e\u0301"])


@given(st.lists(_PIECES | st.text(max_size=3), max_size=12).map("".join))
def test_index_text_is_the_tokens_of_the_segmented_text(text: str) -> None:
    """index_text tokenizes in C what is ASCII and in Python only the words holding other characters:
    the same tokens, in the same order, as the plain definition."""
    assert index_text(text).split() == tokens(segment(text)) + cjk_chars(text)


def test_the_snippet_marks_the_query_word_not_letters_inside_other_words() -> None:
    from kb.store.search import snippet
    assert snippet("Today we present a new action model", ["a"]) == "Today we present [a] new action model"
    assert snippet("KV-cache offload", ["kv"]) == "[KV]-cache offload"
    assert snippet("预填充与解码分离的推理系统", ["推理"]) == "预填充与解码分离的[推理]系统"    # no spaces in Chinese
    assert snippet("Todays things", ["today"]) == "[Today]s things"                  # no whole word: inside one


_ABSTRACT = ("We study disaggregated serving of large language models where prefill and decode run on separate "
             "clusters, and we show that transferring the KV cache between them costs less than recomputation "
             "whenever the interconnect sustains modest bandwidth for long prompts.")


def test_the_snippet_cuts_between_words_and_marks_each_cut() -> None:
    """A snippet was cut wherever 30 characters fell ("…ng of large", "separ…"): a reader saw halves of
    words. It now starts and ends on whole words, "…" where text was cut, as ``kb.text.shortened`` cuts."""
    from kb.store.search import snippet
    shown = snippet(_ABSTRACT, ["prefill"])
    assert shown.startswith("…") and shown.endswith("…") and "[prefill]" in shown
    inner = shown.strip("…").replace("[prefill]", "prefill")
    assert inner in _ABSTRACT
    words = set(_ABSTRACT.replace(",", " ").replace(".", " ").split())
    assert all(w in words for w in inner.replace(",", " ").split()), shown
    head = snippet(_ABSTRACT, ["nothing-here"])                    # no query word in the text: its beginning
    assert head.endswith("…") and all(w in words for w in head[:-1].replace(",", " ").split()), head
    assert snippet("预填充" * 20 + "推理" + "解码" * 30, ["推理"]) == "…" + "预填充" * 10 + "[推理]" + "解码" * 15 + "…"


def test_one_chinese_character_finds_it_inside_a_word(stores) -> None:
    """The index's bigrams alone left 锚 unfound in 已锚 (a one-character query matched only a character
    standing alone); each character of a CJK run is a token too, after the bigrams, on both backends."""
    results = {}
    for name, store in zip(("sqlite", "postgresql"), stores):
        with store.transaction() as tx:
            save_papers(tx, [PaperRecord(arxiv_id="2610.55555", title="已锚的论文：推理框架", abstract="别的内容")],
                        "arxiv")
        results[name] = [r["ref"] for r in search(store, "锚")]
        assert "2610.55555" in results[name], name
        assert "2610.55555" in [r["ref"] for r in search(store, "推理框架")], name   # phrases still hold
        assert "2610.55555" not in [r["ref"] for r in search(store, "框推")], name   # no false phrase
    assert len(set(map(tuple, results.values()))) == 1


def test_a_paper_found_by_its_id_is_not_listed_again_for_its_words(store: Store) -> None:
    """An ID with words: the paper found by its ID first, then the documents with the words and the ID, the
    paper not again (its abstract names its ID); no more than the limit."""
    def paper(aid: str, abstract: str) -> PaperRecord:
        return PaperRecord(aid, 1, f"Paper {aid}", ["Ada Li"], abstract, ["cs.DC"], "cs.DC", "2026-10-01", None)
    with store.transaction() as tx:
        save_papers(tx, [paper("2610.00001", "decode split; code at arXiv:2610.00001"),
                         paper("2610.00002", "a faster decode than 2610.00001"),
                         paper("2610.00003", "decode, after 2610.00001 and 2610.00002"),
                         paper("2610.00004", "decode as 2610.00002 does")], "arxiv")
    found = search(store, "2610.00001 decode")
    assert found[0]["ref"] == "2610.00001" and found[0]["score"] is None
    assert sorted(r["ref"] for r in found) == ["2610.00001", "2610.00002", "2610.00003"]
    # 2610.00002 found by its ID, then two hits of the words and its ID (2610.00003, 2610.00004): one fits
    limited = search(store, "2610.00002 decode", limit=2)
    assert [r["ref"] for r in limited][0] == "2610.00002" and len(limited) == 2
    assert len(search(store, "2610.00002 decode")) == 3


def test_merging_a_backfill_s_index_leaves_search_answering_the_same(store: Store) -> None:
    """After ``kb ingest bulk`` (a no-op on PostgreSQL, whose index has no segments)."""
    from kb.store.search import merge_backlog
    with store.transaction() as tx:
        for i in range(1, 40):
            save_papers(tx, [PaperRecord(f"2610.{i:05d}", 1, f"Decode paper {i}", ["Ada Li"], "prefill decode",
                                         ["cs.DC"], "cs.DC", "2026-10-01", None)], "arxiv")
    before = search(store, "decode", limit=100)
    merge_backlog(store)
    assert search(store, "decode", limit=100) == before and len(before) == 39


def test_the_tsvector_weighs_the_title_and_numbers_the_body_after_it() -> None:
    """PostgreSQL's document: title positions weighted A, the body's following them, a lexeme's positions in
    order; the count is the document's tokens, CJK characters included (FTS5's length for bm25)."""
    text, count = to_tsvector_literal("KV Cache", "the kv cache moves; 推理")
    assert text == "'kv':1A,4 'cache':2A,5 'the':3 'moves':6 '推理':7 '推':8 '理':9"
    assert count == 9


def test_the_tsvector_keeps_what_postgresql_keeps() -> None:
    """Positions clamp at 16383 and a lexeme keeps its first 256; a lexeme of 2 kB or more is left out (the
    server refuses it), one just under is kept."""
    text, count = to_tsvector_literal("", " ".join(["word"] * (MAX_POS + 10)) + " end")
    positions = text.split(" ")[0].removeprefix("'word':").split(",")
    assert len(positions) == MAX_POSITIONS and positions[:2] == ["1", "2"]
    assert text.split(" ")[1] == f"'end':{MAX_POS}" and count == MAX_POS + 11
    text, _ = to_tsvector_literal("ж" * 1023 + " short", "ж" * 1024)
    assert text == f"'{'ж' * 1023}':1A 'short':2A"
