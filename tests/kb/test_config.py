"""kb.toml validation: every error names the file, the line and the key."""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.config import load_config, parse_config
from kb.errors import ConfigError
from kb.resources import read_resource

BAD = [
    ("[workspace]\ntimezone = 3\n", r"kb\.toml:2: workspace\.timezone: expected str"),
    ("[arxiv]\ncategoriez = []\n", r"kb\.toml:2: arxiv\.categoriez: unknown key"),
    ("[nonsense]\n", r"kb\.toml:1: nonsense: unknown section"),
    ("[hf\n", r"kb\.toml: TOML syntax error: .*line 1"),
    ('[[blogs]]\nname = "a"\nurl = "file:///etc/passwd"\n', r"kb\.toml:3: blogs\.url: only http\(s\) URLs"),
    ('[[blogs]]\nname = "a"\nurl = "ftp://x"\n', r"only http\(s\)"),
    ('[[blogs]]\nname = "a"\n', r"needs a url or a recording"),
    ('[[blogs]]\nname = "a"\nurl = "https://a"\ncredibility = 9\n', r"blogs\.credibility: credibility must be"),
    ("[authors]\njay = 7\n", r"authors\.jay"),
    ('[workspace]\ntimezone = "Mars/Olympus"\n', r"unknown time zone"),
    ('[briefing]\ncutoff = "25:00"\n', r"expected HH:MM"),
    ('[[topics]]\nslug = "inference"\n', r"missing required key 'doc'"),
]


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
