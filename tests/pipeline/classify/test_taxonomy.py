"""Loading, validating, overriding and hashing the taxonomy."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from kb.errors import ConfigError
from pipeline.classify.taxonomy import (
    REQUIRED_TOPICS,
    default_taxonomy_path,
    load_taxonomy,
    taxonomy_hash,
)

MINI = '''
schema = 1
[settings]
tag_threshold = 2.0
[context.terms]
"inference" = 1.0
"latency" = 1.0
[adjacent.terms]
"agent" = 1.0
{topics}
'''


def mini_topics(extra: str = "", skip: str = "") -> str:
    out = []
    for slug in REQUIRED_TOPICS:
        if slug == skip:
            continue
        out.append(f'[topics.{slug}]\ntitle_en = "{slug}"\ntitle_zh = "主题"\n'
                   f'section_hint = ["Engines"]\n'
                   f'[topics.{slug}.terms]\n"{slug.replace("-", " ")}" = 2.0\n')
    return "\n".join(out) + extra


def write(tmp_path: Path, text: str, name: str = "taxonomy.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ------------------------------------------------------------------ the shipped file
def test_shipped_taxonomy_loads_with_every_contract_slug():
    t = load_taxonomy()
    assert set(REQUIRED_TOPICS) <= set(t.topics)
    for slug, topic in t.topics.items():
        assert topic.title_en and topic.title_zh and topic.terms, slug
        assert topic.section_hint and not any(h.startswith("§") for h in topic.section_hint), slug


def test_section_hints_find_the_doc_section_by_its_title_whatever_its_number():
    t = load_taxonomy()
    sample = {"§1.1": "Framework landscape", "§1.(1)": "Agentic serving", "§1.(9)": "Security",
              "§2.2": "Scheduling and routing", "§2.3": "Prefill-Decode Disaggregation", "§2.3.1": "KV transfer"}
    expect = {"pd-disaggregation": "§2.3", "kv-transfer": "§2.3.1", "agentic-serving": "§1.(1)",
              "security": "§1.(9)", "serving-systems": "§1.1", "scheduling": "§2.2"}
    for slug, sec in expect.items():
        assert t.section_for(slug, sample) == sec
    renumbered = {"§4.(1)": "Agentic serving", "§7.2": "Prefill-Decode Disaggregation"}
    assert t.section_for("pd-disaggregation", renumbered) == "§7.2"
    assert t.section_for("agentic-serving", renumbered) == "§4.(1)"
    assert t.section_for("no-such-topic", sample) is None
    assert t.section_for("quantization", sample) is None          # the doc has no such section


def test_shipped_taxonomy_has_bilingual_vocabulary():
    t = load_taxonomy()
    terms = set(t.topics["pd-disaggregation"].terms)
    assert {"prefill-decode disaggregation", "disaggregated serving", "预填充", "预分馏", "pd 分离"} <= terms
    assert {"mixture of experts", "expert parallel", "专家剪枝"} <= set(t.topics["moe"].terms)
    assert {"llm", "serving", "inference", "latency", "throughput", "ttft", "推理", "部署"} <= set(t.context)
    assert {"agent", "rag", "retrieval", "training", "fine-tuning", "vector database", "pgvector"} <= set(t.adjacent)


def test_default_path_is_the_checkout_data_file():
    assert default_taxonomy_path().name == "taxonomy.toml"


# ------------------------------------------------------------------ validation
def test_minimal_file_loads(tmp_path):
    t = load_taxonomy(base=write(tmp_path, MINI.format(topics=mini_topics())))
    assert t.settings.tag_threshold == 2.0 and len(t.topics) == len(REQUIRED_TOPICS)


@pytest.mark.parametrize("topics, key", [
    (mini_topics('[topics.moe.negative]\n"x" = "heavy"\n'), 'topics.moe.negative."x"'),
    (mini_topics('[topics.moe.negative]\n"x" = -1\n'), 'topics.moe.negative."x"'),
    (mini_topics(skip="routing"), "topics"),
    (mini_topics('[topics.Bad_Slug]\ntitle_en = "x"\ntitle_zh = "x"\n[topics.Bad_Slug.terms]\n"x" = 1\n'),
     "topics.Bad_Slug"),
    (mini_topics('[topics.moe.extra]\n"x" = 1\n'), "topics.moe.extra"),
    (mini_topics('[topics.routing.negative]\n"kv-cache" = 1\n"KV cache" = 1\n'),
     'topics.routing.negative."KV cache"'),
    (mini_topics('[topics.routing.negative]\n"prefill" = 1\n"pre-fill" = 1\n'),
     'topics.routing.negative."pre-fill"'),
])
def test_bad_content_names_file_and_key(tmp_path, topics, key):
    path = write(tmp_path, MINI.format(topics=topics))
    with pytest.raises(ConfigError) as e:
        load_taxonomy(base=path)
    assert str(path) in str(e.value) and key in str(e.value)


def test_bad_section_and_setting(tmp_path):
    bad_section = MINI.format(topics=mini_topics()).replace('section_hint = ["Engines"]', 'section_hint = ["§2.1"]', 1)
    with pytest.raises(ConfigError, match=r"section_hint: names a section number"):
        load_taxonomy(base=write(tmp_path, bad_section))
    bad_setting = MINI.format(topics=mini_topics()).replace("tag_threshold = 2.0", "tag_treshold = 2.0")
    with pytest.raises(ConfigError, match=r"settings\.tag_treshold: unknown setting"):
        load_taxonomy(base=write(tmp_path, bad_setting))


def test_invalid_toml_and_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_taxonomy(base=write(tmp_path, "[topics\n"))
    with pytest.raises(ConfigError, match="not found"):
        load_taxonomy(base=tmp_path / "nope.toml")
    (tmp_path / "latin1.toml").write_bytes(b'[settings]\n# caf\xe9\n')
    with pytest.raises(ConfigError, match=r"latin1.toml:2: not UTF-8 text \(byte 0xe9 at column 6\)"):    # was a UnicodeDecodeError traceback
        load_taxonomy(base=tmp_path / "latin1.toml")


def test_a_workspace_taxonomy_saved_with_a_byte_order_mark_is_read(tmp_path):
    """It was 'not valid TOML: Invalid statement (at line 1, column 1)', as kb.toml's was."""
    base = write(tmp_path, MINI.format(topics=mini_topics()))
    over = tmp_path / "override.toml"
    over.write_bytes(b"\xef\xbb\xbf[settings]\ntag_threshold = 3.0\n")
    assert load_taxonomy(over, base=base).settings.tag_threshold == 3.0


# ------------------------------------------------------------------ workspace override
def test_override_merges_adds_and_removes(tmp_path):
    base = write(tmp_path, MINI.format(topics=mini_topics()))
    over = write(tmp_path, '''
[settings]
tag_threshold = 3.0
[topics.moe.terms]
"moe" = 0
"专家并行" = 2.5
[topics.my-topic]
title_en = "Mine"
title_zh = "我的"
[topics.my-topic.terms]
"mine" = 1.0
''', "override.toml")
    t = load_taxonomy(over, base=base)
    assert t.settings.tag_threshold == 3.0
    assert "moe" not in t.topics["moe"].terms and t.topics["moe"].terms["专家并行"] == 2.5
    assert "my-topic" in t.topics and t.sources == (str(base), str(over))


def test_override_errors_name_the_override_file(tmp_path):
    base = write(tmp_path, MINI.format(topics=mini_topics()))
    over = write(tmp_path, '[topics.moe.terms]\n"moe" = "lots"\n', "override.toml")
    with pytest.raises(ConfigError) as e:
        load_taxonomy(over, base=base)
    assert str(over) in str(e.value) and 'topics.moe.terms."moe"' in str(e.value)


# What a team writes wrong in its workspace's taxonomy.toml: each mistake names the override file and the key.
OVERRIDE_MISTAKES = [
    ("[topic.moe]\n", "topic", "unknown table"),
    ("settings = 3\n", "settings", "must be a table"),
    ("context = 3\n", "context", "must be a table holding [terms] and [negative]"),
    ("topics = 3\n", "topics", "must be a table of topics"),
    ("[topics]\nmoe = 3\n", "topics.moe", "must be a table"),
    ('[topics.moe]\ntitle_en = " "\n', "topics.moe.title_en", "must be a non-empty string"),
    ('[topics.moe]\nrequires_context = "yes"\n', "topics.moe.requires_context", "must be true or false"),
    ("[topics.moe]\nevidence_share = 2\n", "topics.moe.evidence_share", "must be a number from 0 to 1"),
    ("[topics.moe]\nsection_hint = 2.4\n", "topics.moe.section_hint", "a number would break"),
    ('[topics.new-topic]\ntitle_en = "New"\ntitle_zh = "新"\n', "topics.new-topic.terms", "missing"),
    ('[settings]\nrelative_tag_threshold = 2\n', "settings.relative_tag_threshold", "between 0 and 1"),
    ('[settings]\ntag_threshold = -1\n', "settings.tag_threshold", "a number ≥ 0"),
    ('[topics.moe]\nterms = "moe"\n', "topics.moe.terms", 'must be a table of "term" = weight'),
    ('[topics.moe.terms]\n"moe" = 11\n', 'topics.moe.terms."moe"', "weight must be in (0, 10]"),
    ('[topics.moe.terms]\n"--" = 1\n', 'topics.moe.terms."--"', "needs letters, digits or CJK"),
    # weight 0 removes a term: removing every one leaves the topic (or the context group) with none
    ('[topics.moe.terms]\n"moe" = 0\n', "topics.moe.terms", "needs at least one term"),
    ('[context.terms]\n"inference" = 0\n"latency" = 0\n', "context.terms", "at least one inference-context term"),
]


@pytest.mark.parametrize(("text", "key", "words"), OVERRIDE_MISTAKES, ids=[k for _, k, _ in OVERRIDE_MISTAKES])
def test_a_mistake_in_a_workspace_override_names_its_file_and_key(tmp_path, text, key, words):
    base = write(tmp_path, MINI.format(topics=mini_topics()))
    over = write(tmp_path, text, "override.toml")
    with pytest.raises(ConfigError) as e:
        load_taxonomy(over, base=base)
    assert str(over) in str(e.value) and f"{key}: " in str(e.value) and words in str(e.value), str(e.value)


def test_a_list_setting_must_be_strings(tmp_path):
    from pipeline.classify.taxonomy import _SETTING_TYPES
    name = next(k for k, kind in _SETTING_TYPES.items() if "tuple" in str(kind))
    over = write(tmp_path, f"[settings]\n{name} = [1]\n", "override.toml")
    with pytest.raises(ConfigError, match=rf"settings\.{name}: must be a list of strings"):
        load_taxonomy(over, base=write(tmp_path, MINI.format(topics=mini_topics())))


# ------------------------------------------------------------------ hash
def test_hash_ignores_order_comments_and_spelling_of_numbers(tmp_path):
    text = MINI.format(topics=mini_topics())
    a = load_taxonomy(base=write(tmp_path, text, "a.toml"))
    reordered = text.replace('[context.terms]\n"inference" = 1.0\n"latency" = 1.0',
                             '# a comment\n[context.terms]\n"latency" = 1\n"inference" = 1.0')
    b = load_taxonomy(base=write(tmp_path, reordered, "b.toml"))
    assert reordered != text and taxonomy_hash(a) == taxonomy_hash(b) == a.hash


def test_hash_ignores_table_order_of_topics(tmp_path):
    raw = tomllib.loads(MINI.format(topics=mini_topics()))
    forward = load_taxonomy(base=write(tmp_path, MINI.format(topics=mini_topics()), "a.toml"))
    from pipeline.classify.taxonomy import parse_taxonomy
    raw["topics"] = dict(reversed(list(raw["topics"].items())))
    assert taxonomy_hash(parse_taxonomy(raw)) == taxonomy_hash(forward)


def test_hash_changes_with_a_weight_a_term_or_a_threshold(tmp_path):
    text = MINI.format(topics=mini_topics())
    h = load_taxonomy(base=write(tmp_path, text, "a.toml")).hash
    for i, changed in enumerate([
        text.replace('"latency" = 1.0', '"latency" = 1.5'),
        text.replace('"latency" = 1.0', '"tail latency" = 1.0'),
        text.replace("tag_threshold = 2.0", "tag_threshold = 2.5"),
        text.replace('section_hint = ["Engines"]', 'section_hint = ["Scheduling"]', 1),
    ]):
        assert load_taxonomy(base=write(tmp_path, changed, f"c{i}.toml")).hash != h


def test_shipped_hash_is_stable_across_loads():
    assert load_taxonomy().hash == load_taxonomy().hash
    assert len(load_taxonomy().hash) == 16


def test_a_taxonomy_override_that_is_not_utf8_is_named_by_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "taxonomy.toml").write_bytes(b"[topics.moe]\n\xff = 1\n")
    with pytest.raises(ConfigError, match=r"taxonomy\.toml:2: not UTF-8 text \(byte 0xff at column 1\)$"):
        load_taxonomy(tmp_path / "taxonomy.toml")


def test_a_section_number_an_earlier_kb_read_is_ignored_with_one_warning(tmp_path, caplog):
    """``sections = { doc = "§N.N" }`` broke on every renumbering and is read no more; a workspace override that
    still has it loses nothing else and is told once."""
    import logging
    base = write(tmp_path, MINI.format(topics=mini_topics()))
    over = write(tmp_path, '[topics.moe.sections]\ninference = "§2.4"\n', "override.toml")
    with caplog.at_level(logging.WARNING):
        merged = load_taxonomy(over, base=base)
        load_taxonomy(over, base=base)
    assert merged.hash == load_taxonomy(base=base).hash
    said = [r.getMessage() for r in caplog.records if "sections" in r.getMessage()]
    assert said == [f"{over}: topics.moe.sections is no longer read (a section's number comes from the doc): "
                    "write the words of its title in section_hint"]
