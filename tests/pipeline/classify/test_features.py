"""Taxonomy-term hits in the learned classifier's features (``features.extract``'s third block)."""
from __future__ import annotations

from pipeline.classify.features import TermIndex, extract

TERMS = TermIndex({
    "@kv": ["kv cache", "paged attention"],
    "@llm": ["large language model"],
    "@spec": ["speculative decoding", "draft"],
    "@zh": ["投机解码", "PD 分离"],
})


def hits(title: str = "", text: str = "") -> dict[str, float]:
    return extract(title, text, TERMS)[2]


def test_each_occurrence_of_a_term_counts_once_in_title_and_text_alike() -> None:
    assert hits("Draft models", "A draft, drafts and drafted tokens.") == {"@spec": 4.0}
    assert hits("", "KV cache and kv-caches; the KVCache too.") == {"@kv": 3.0}   # run together too


def test_a_long_term_counts_only_where_its_words_follow_each_other() -> None:
    # every bigram of "large language model" is here, but never the three words in a row
    assert hits("", "large language and language model are both large language terms") == {}
    assert hits("", "A large language model; large language models.") == {"@llm": 2.0}
    assert hits("", "large language large language model") == {"@llm": 1.0}


def test_camelcase_parts_are_features_but_not_term_hits() -> None:
    title, _, terms, _ = extract("PagedAttention meets KVQuant", "", TERMS)
    assert "kv" in title and "quant" in title       # the parts are words of the title block
    assert terms == {"@kv": 1.0}                     # "pagedattention" is the term run together; "KV" alone is no hit


def test_chinese_and_mixed_terms_count_inside_runs() -> None:
    assert hits("", "投机解码很快，再谈投机解码") == {"@zh": 2.0}
    assert hits("", "PD 分离部署与 speculative decoding") == {"@zh": 1.0, "@spec": 1.0}


def test_the_blocks_are_the_same_whatever_the_order_of_words_first_seen() -> None:
    a = extract("", "draft kv cache large language model", TERMS)[2]
    b = extract("", "large language model kv cache draft", TERMS)[2]
    assert a == b and list(a) == list(b)             # the same keys in the same order: sums add up alike
