"""Topic tags and relevance for LLM-inference research, from a taxonomy kept as data.

    from pipeline.classify import classify, load_taxonomy
    result = classify(abstract, title=title, primary_category="cs.DC", taxonomy=load_taxonomy())
    result.relevance            # "primary" | "adjacent" | "none"
    result.tags                 # [Tag(topic, score, terms)], best first
    print("\\n".join(result.explain()))

Modules: ``taxonomy`` (load, validate, merge a workspace override, hash), ``matcher``
(the term matcher), ``classifier`` (scoring and relevance), ``evaluate`` (metrics on
labelled items; imported from its module, so that the nightly, which classifies, does not load it).
"""
from pipeline.classify.classifier import RELEVANCE_LEVELS, Classification, Tag, classify
from pipeline.classify.matcher import TermMatcher
from pipeline.classify.taxonomy import (
    REQUIRED_TOPICS,
    Settings,
    Taxonomy,
    Topic,
    default_taxonomy,
    load_taxonomy,
    taxonomy_hash,
)

__all__ = [
    "RELEVANCE_LEVELS", "REQUIRED_TOPICS", "Classification", "Settings", "Tag", "Taxonomy", "TermMatcher",
    "Topic", "classify", "default_taxonomy", "load_taxonomy", "taxonomy_hash",
]
