"""kb.toml validation: every error names the file, the line and the key."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.config import load_config, parse_config
from kb.errors import ConfigError
from kb.resources import read_resource
from tests.support.paths import SAMPLE

BAD = [
    ('[briefing]\nformats = ["md", "pdf"]\n', r"kb\.toml:2: briefing\.formats: unknown format 'pdf' \(md, html\)"),
    ("[briefing]\nformats = []\n", r"kb\.toml:2: briefing\.formats: expected one or more formats"),
    ('[briefing]\nformats = ["md", "md"]\n', r"briefing\.formats: expected one or more formats, each once"),
    ('[site]\ndir = "../public"\n', r"kb\.toml:2: site\.dir: expected a folder inside the workspace"),
    ('[site]\ndir = "/var/www"\n', r"site\.dir: expected a folder inside the workspace"),
    ('[site]\ndir = "inbox/site"\n', r"site\.dir: 'inbox/site' is the team's or kb's own folder"),
    ('[site]\ndir = "./organized"\n', r"site\.dir: './organized' is the team's or kb's own folder"),
    ('[site]\ndir = "./"\n', r"site\.dir: './' is the workspace itself"),
    ('[site]\ndir = "."\n', r"site\.dir: '\.' is the workspace itself"),
    ('[site]\nfolder = "site"\n', r"kb\.toml:2: site\.folder: unknown key"),
    ("[workspace]\ntimezone = 3\n", r"kb\.toml:2: workspace\.timezone: expected str"),
    ("[arxiv]\ncategoriez = []\n", r"kb\.toml:2: arxiv\.categoriez: unknown key"),
    ("[nonsense]\n", r"kb\.toml:1: nonsense: unknown section"),
    ("[hf\n", r"kb\.toml:1: not valid TOML: .*\(column \d+\)"),
    ("[hf]\n[briefing]\ntop = [1,\n", r"kb\.toml:3: not valid TOML: Invalid value \(at the end of the file\)$"),
    ('[hf]\nx = "unclosed', r"kb\.toml:2: not valid TOML: Unterminated string \(at the end of the file\)$"),
    ('[[blogs]]\nname = "a"\nurl = "file:///etc/passwd"\n', r"kb\.toml:3: blogs\.url: only http\(s\) URLs"),
    ('[[blogs]]\nname = "a"\nurl = "ftp://x"\n', r"only http\(s\)"),
    ('[[blogs]]\nname = "a"\n', r"needs a url or a recording"),
    ('[[blogs]]\nname = "a"\nurl = "https://a"\ncredibility = 9\n', r"blogs\.credibility: credibility must be"),
    ("[authors]\njay = 7\n", r"authors\.jay"),
    ('[workspace]\ntimezone = "Mars/Olympus"\n', r"unknown time zone"),
    ('[briefing]\ncutoff = "25:00"\n', r"expected HH:MM"),
    ('[[topics]]\nslug = "inference"\n', r"missing required key 'doc'"),
    ("[briefing]\ntop = -3\n", r"kb\.toml:2: briefing\.top: expected a number of increments from 1 to 500"),
    ('[[topics]]\nslug = ""\ndoc = "a.md"\n', r"kb\.toml:2: topics\.slug: topic '' is not a safe name"),
    ('[[topics]]\nslug = "a/b"\ndoc = "a.md"\n', r"topics\.slug: topic 'a/b' is not a safe name"),
    ('[[topics]]\nslug = "../../etc"\ndoc = "a.md"\n', r"topics\.slug: topic '\.\./\.\./etc' is not a safe name"),
    ('[[topics]]\nslug = "a"\ndoc = "../../etc/passwd"\n', r"kb\.toml:3: topics\.doc: '\.\./\.\./etc/passwd' is not a path inside"),
    ('[[topics]]\nslug = "a"\ndoc = "/etc/passwd"\n', r"topics\.doc: '/etc/passwd' is not a path inside the workspace"),
    ('[[topics]]\nslug = "a"\ndoc = "a/../../b.md"\n', r"topics\.doc: 'a/\.\./\.\./b\.md' is not a path inside"),
    ('[[topics]]\nslug = "moe"\ndoc = "a.md"\n[[topics]]\nslug = "moe"\ndoc = "b.md"\n',
     r"kb\.toml:5: topics\.slug: duplicate topic 'moe'"),
    ('[[blogs]]\nname = "arxiv"\nurl = "https://a.org/f"\n', r"kb\.toml:2: blogs\.name: 'arxiv' is the name of one"),
    ('[[blogs]]\nname = "workspace"\nurl = "https://a.org/f"\n', r"blogs\.name: 'workspace' is the name of one"),
    ('[[blogs]]\nname = "a"\nurl = "https://a.org/f"\ntopics = ["nope"]\n', r"kb\.toml:4: blogs\.topics: 'nope' is no topic"),
    ("[arxiv]\ncategories = []\n", r"kb\.toml:2: arxiv\.categories: expected at least one"),
    ('[arxiv]\ncategories = ["cs.XX"]\n', r"arxiv\.categories: unknown arXiv category 'cs\.XX'"),
    ('[arxiv]\ncategories = ["biology"]\n', r"unknown arXiv category 'biology'"),
    ('[workspace]\ncontact = "kb@example.org\\nX-Evil: 1"\n', r"kb\.toml:2: workspace\.contact: expected one e-mail"),
    ('[workspace]\ncontact = "kб@example.org"\n', r"workspace\.contact: expected one e-mail address in ASCII"),
    ("[workspace]\nlanguages = []\n", r"kb\.toml:2: workspace\.languages: expected one or more"),
    ('[workspace]\nlanguages = ["zh", "zh"]\n', r"workspace\.languages: expected one or more languages, each once"),
    ("[authors]\njay = 4\nJay = 5\n", r"kb\.toml:3: authors\.Jay: the same author twice"),
    ('blogs = "x"\n', r"kb\.toml:1: blogs: expected \[\[blogs\]\] tables"),
    ('briefing = 3\n', r"kb\.toml:1: briefing: expected a table"),
    ('[workspace]\nlanguages = ["zh", "fr"]\n', r"kb\.toml:2: workspace\.languages: unsupported language 'fr'"),
    ('[store]\nurl = "mysql://db/kb"\n', r"kb\.toml:2: store\.url: "),
    ('[classify]\nmodel = "bayes"\n', r"kb\.toml:2: classify\.model: unknown classifier 'bayes' \(one of "),
    ('[arxiv]\nurl = "https://arxiv.org/list/{category}/new"\n',
     r"kb\.toml:2: arxiv\.url: unknown placeholder \{category\} in .* \(allowed: \{categories\}, \{date\}\)"),
    ('[[blogs]]\nname = "a"\nurl = "https://a.org/{date}"\n', r"kb\.toml:3: blogs\.url: unknown placeholder "
     r"\{date\} in .* \(allowed: none\)"),
    ('[hf]\nurl = "https://hf.co/papers?date={date"\n', r"kb\.toml:2: hf\.url: unknown placeholder "
     r"\{<unmatched brace>\}"),
    # a conversion or a format passed the check, then failed the source mid-nightly ({date!x}) or looked
    # for the wrong file ({date!r} quotes the day)
    ('[arxiv]\nrecording = "recordings/arxiv/{date!x}-listing.xml"\n',
     r"kb\.toml:2: arxiv\.recording: unknown placeholder \{date!x\}"),
    ('[hf]\nrecording = "recordings/hf/{date:%Y}.json"\n', r"kb\.toml:2: hf\.recording: unknown placeholder \{date:%Y\}"),
    ('[arxiv]\nrecording = "recordings/arxiv/{date!r}.xml"\n', r"unknown placeholder \{date!r\}"),
    # an empty recording read as "no recording": offline, the feed was silently not run
    ('[[blogs]]\nname = "a"\nurl = "https://a.org/f"\nrecording = ""\n',
     r"kb\.toml:4: blogs\.recording: empty: name the file, or leave the key out for none"),
    ('[hf]\nrecording = " "\n', r"kb\.toml:2: hf\.recording: empty"),
    # two feeds on one recording: the second took the first one's posts as its own
    ('[[blogs]]\nname = "a"\nrecording = "r/a.xml"\n[[blogs]]\nname = "b"\nrecording = "r/./a.xml"\n',
     r"kb\.toml:6: blogs\.recording: 'r/\./a\.xml' is also feed a's recording"),
]


def test_authors_match_their_folder_whatever_the_case() -> None:
    assert parse_config("[authors]\nJay = 4\n", Path("kb.toml")).authors == {"jay": 4}


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_config_names_file_line_and_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(text, Path("kb.toml"))


def test_the_shipped_default_is_valid_and_has_the_expected_defaults() -> None:
    cfg = parse_config(read_resource("data/kb.toml.default"), Path("kb.toml"))
    assert cfg.arxiv_categories == ["cs.DC", "cs.LG", "cs.CL", "cs.AR", "cs.PF", "cs.OS"]
    assert [t.slug for t in cfg.topics] == ["inference"]
    assert cfg.timezone == "Asia/Shanghai" and cfg.languages == ["zh", "en"]
    assert len(cfg.blogs) >= 3 and all(1 <= b.credibility <= 5 for b in cfg.blogs)


def test_missing_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "kb.toml")


def test_formats_and_site_defaults() -> None:
    cfg = parse_config("", Path("kb.toml"))
    assert cfg.briefing_formats == ["md", "html"] and cfg.site_dir is None
    cfg = parse_config('[briefing]\nformats = ["md"]\n[site]\ndir = "public/site"\n', Path("kb.toml"))
    assert cfg.briefing_formats == ["md"] and cfg.site_dir == "public/site"


def test_topic_slugs_read_from_headers_are_the_taxonomy_s_own() -> None:
    from kb.config_values import taxonomy_slugs
    assert taxonomy_slugs(None) == taxonomy_slugs(None, full=True)
    assert "kv-cache" in taxonomy_slugs(None)


def test_a_blog_topic_of_the_workspace_taxonomy_however_written(tmp_path: Path) -> None:
    """A slug in a workspace taxonomy written as a quoted or dotted key, not a header, is still a topic."""
    (tmp_path / "taxonomy.toml").write_text('topics.rag-cache.title_en = "RAG caches"\n'
                                            '[topics."green-ai"]\ntitle_en = "Green AI"\n', encoding="utf-8")
    text = '[[blogs]]\nname = "a"\nurl = "https://a.org/f"\ntopics = ["green-ai", "rag-cache", "kv-cache"]\n'
    assert parse_config(text, tmp_path / "kb.toml").blogs[0].topics == ["green-ai", "rag-cache", "kv-cache"]
    with pytest.raises(ConfigError, match=r"blogs\.topics: 'nope' is no topic"):
        parse_config(text.replace('"kv-cache"', '"nope"'), tmp_path / "kb.toml")


def test_a_kb_toml_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    """An editor's BOM is invisible: it used to be "TOML syntax error: Invalid statement (line 1, column 1)"."""
    path = tmp_path / "kb.toml"
    path.write_bytes(b"\xef\xbb\xbf" + (SAMPLE / "kb.toml").read_bytes())
    import dataclasses
    assert dataclasses.replace(load_config(path), path=SAMPLE / "kb.toml") == load_config(SAMPLE / "kb.toml")


def test_a_kb_toml_that_is_not_utf8_is_named_by_line_and_column(tmp_path: Path) -> None:
    """It said the decoder's "cannot read: 'utf-8' codec can't decode byte 0xe9 in position 27: invalid
    continuation byte": a byte offset, where every other kb.toml error names its line."""
    path = tmp_path / "kb.toml"
    path.write_bytes(b'[workspace]\ntimezone = "Asia/Shanghai"\ncontact = "caf\xe9@example.org"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}:3: not UTF-8 text (byte 0xe9 at column 15)"



def test_the_column_of_a_byte_that_is_not_utf8_counts_characters(tmp_path: Path) -> None:
    """The column is an editor's: the Chinese characters before the bad byte are one column each, not three
    (a line `name = "推理缓存\xe9"` said column 21), and a byte-order mark is none."""
    path = tmp_path / "kb.toml"
    path.write_bytes(b'\xef\xbb\xbf[workspace]\ntimezone = "Asia/Shanghai"\nname = "\xe6\x8e\xa8\xe7\x90\x86\xe7\xbc'
                     b'\x93\xe5\xad\x98\xe9"\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}:3: not UTF-8 text (byte 0xe9 at column 13)"
    path.write_bytes(b'\xef\xbb\xbfa\xe9 = 1\n')
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    assert str(refused.value) == f"{path}:1: not UTF-8 text (byte 0xe9 at column 2)"
