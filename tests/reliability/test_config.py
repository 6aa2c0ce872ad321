"""kb.toml mistakes through the CLI: exit 2 and one line naming the file, the line and the key."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.resources import read_resource
from tests.reliability.support import DAY, dump, kb, kb_inproc, one_error_line

DEFAULT = read_resource("data/kb.toml.default")


def _broken(ws: Path, old: str, new: str) -> tuple[Path, int]:
    """Write the default kb.toml with ``old`` replaced by ``new``; return the file and the line of ``new``."""
    assert DEFAULT.count(old) == 1, old
    text = DEFAULT.replace(old, new)
    path = ws / "kb.toml"
    path.write_text(text, encoding="utf-8")
    first = new.strip().splitlines()[-1] if new.strip() else new
    return path, text[: text.index(first)].count("\n") + 1


@pytest.fixture
def workspace(workspace: Path) -> Path:
    """The empty workspace with three papers in its store: a config error must not touch them."""
    listing = Path(__file__).parents[1] / "fixtures" / "sources" / "listing_rss_3items.xml"
    result = kb_inproc("--home", str(workspace), "ingest", "arxiv", "--from-file", str(listing))
    assert result.returncode == 0, result.stderr
    return workspace


def _fails(ws: Path, where: str, key: str, *needles: str, commands=(("ingest", "workspace"), ("nightly", "--offline"))) -> None:
    before = sorted(p.name for p in (ws / ".kb").iterdir())
    stored = dump(ws / ".kb" / "kb.sqlite")
    for cmd in commands:
        result = kb_inproc("--home", str(ws), *cmd, *(("--date", DAY.isoformat()) if cmd[0] == "nightly" else ()))
        line = one_error_line(result.stderr)
        assert result.returncode == 2, (cmd, result.stderr)
        assert where in line and f" {key}:" in line, (where, key, line)
        for needle in needles:
            assert needle in line, (needle, line)
    assert sorted(p.name for p in (ws / ".kb").iterdir()) == before      # nothing was started …
    assert dump(ws / ".kb" / "kb.sqlite") == stored                       # … nor written
    return stored


UNKNOWN = [
    ("unknown key in a table", 'categories = ["cs.DC"', 'categoriez = ["cs.DC"', "arxiv.categoriez", "unknown key"),
    ("unknown key in the 4th [[blogs]]", 'url = "https://blog.lmcache.ai/feed.xml"',
     'url = "https://blog.lmcache.ai/feed.xml"\ncredibilty = 4', "blogs.credibilty", "unknown key"),
    ("unknown section", "[briefing]", "[briefin]", "briefin", "unknown section"),
    ("a typo in a top-level table", "[hf]                              # Hugging Face Daily Papers", "[hff]", "hff",
     "unknown section"),
]


@pytest.mark.parametrize("what, old, new, key, needle", UNKNOWN, ids=[u[0] for u in UNKNOWN])
def test_unknown_keys(workspace: Path, kept, what: str, old: str, new: str, key: str, needle: str) -> None:
    path, line = _broken(workspace, old, new)
    stored = _fails(workspace, f"{path}:{line}:", key, needle)
    assert kept.rows(stored, dump(workspace / ".kb" / "kb.sqlite")) == 0


WRONG = [
    ("string for an int", "top = 5 ", 'top = "five" ', "briefing.top", "expected int, got str"),
    ("string for a list", 'languages = ["zh", "en"]', 'languages = "zh"', "workspace.languages", "expected list"),
    ("string for a bool", "enabled = true", 'enabled = "yes"', "hf.enabled", "expected bool"),
    ("a number in a list of strings", 'topics = ["kv-cache"]', 'topics = ["kv-cache", 7]', "blogs.topics",
     "list of strings"),
    ("credibility out of range", 'url = "https://flashinfer.ai/feed.xml"\ncredibility = 4',
     'url = "https://flashinfer.ai/feed.xml"\ncredibility = 9', "blogs.credibility", "from 1 to 5"),
    ("a table where a value goes", 'contact = "you@example.org"', "contact = { name = 'x' }", "workspace.contact",
     "expected str"),
    ("a bad time zone", 'timezone = "Asia/Shanghai"', 'timezone = "Mars/Olympus"', "workspace.timezone",
     "unknown time zone"),
]


@pytest.mark.parametrize("what, old, new, key, needle", WRONG, ids=[w[0] for w in WRONG])
def test_wrong_types(workspace: Path, kept, what: str, old: str, new: str, key: str, needle: str) -> None:
    path, line = _broken(workspace, old, new)
    stored = _fails(workspace, f"{path}:{line}:", key, needle)
    assert kept.rows(stored, dump(workspace / ".kb" / "kb.sqlite")) == 0


SCHEMES = [
    ("file:// listing", 'url = "https://rss.arxiv.org/rss/{categories}"', 'url = "file:///etc/passwd"', "arxiv.url"),
    ("ftp:// HF", 'url = "https://huggingface.co/api/daily_papers?date={date}"', 'url = "ftp://huggingface.co/x"',
     "hf.url"),
    ("file:// blog, 3rd feed", 'url = "https://lmsys.org/rss.xml"', 'url = "file:///etc/shadow"', "blogs.url"),
    ("javascript: blog", 'url = "https://lilianweng.github.io/index.xml"', 'url = "javascript:alert(1)"', "blogs.url"),
    ("scheme-relative", 'url = "https://blog.vllm.ai/feed.xml"', 'url = "//blog.vllm.ai/feed.xml"', "blogs.url"),
]


@pytest.mark.parametrize("what, old, new, key", SCHEMES, ids=[s[0] for s in SCHEMES])
def test_non_http_source_urls(workspace: Path, kept, what: str, old: str, new: str, key: str) -> None:
    path, line = _broken(workspace, old, new)
    stored = _fails(workspace, f"{path}:{line}:", key, "only http(s) URLs", "recording")
    assert kept.rows(stored, dump(workspace / ".kb" / "kb.sqlite")) == 0


def test_a_recording_path_is_the_way_to_name_a_file(workspace: Path, kept) -> None:
    listing = Path(__file__).parents[1] / "fixtures" / "sources" / "listing_rss_3items.xml"
    (workspace / "recordings").mkdir()
    (workspace / "recordings" / "listing.xml").write_bytes(listing.read_bytes())
    _broken(workspace, '# recording = "recordings/arxiv/{date}-listing.xml"   # offline runs read this instead',
            'recording = "recordings/listing.xml"')
    result = kb_inproc("--home", str(workspace), "ingest", "all", "--offline", "--date", "2026-10-13")
    assert "arxiv: ok — parsed 3, new 0" in result.stdout, result.stdout + result.stderr   # read from the file
    papers = dump(workspace / ".kb" / "kb.sqlite", ("papers",))["papers"]
    assert kept.items(3, len(papers)) == 0 and len(papers) == 3       # the same three: read again, no duplicates


def test_missing_and_unreadable_config(tmp_path: Path, workspace: Path, kept) -> None:
    stored = dump(workspace / ".kb" / "kb.sqlite")
    empty = tmp_path / "not-a-workspace"
    empty.mkdir()
    for home, needle in [(empty, "no kb.toml"), (tmp_path / "does-not-exist", "no kb.toml")]:
        result = kb("--home", str(home), "ingest", "workspace")          # a real process, as cron runs it
        line = one_error_line(result.stderr)
        assert result.returncode == 2 and str(home) in line and needle in line
    (workspace / "kb.toml").write_bytes(b"\xff\xfe[workspace]\n")
    result = kb_inproc("--home", str(workspace), "ingest", "workspace")
    line = one_error_line(result.stderr)
    assert result.returncode == 2 and f"{workspace / 'kb.toml'}:1: not UTF-8 text (byte 0xff at column 1)" in line
    (workspace / "kb.toml").unlink()
    (workspace / "kb.toml").mkdir()
    result = kb_inproc("--home", str(workspace), "ingest", "workspace")
    assert result.returncode == 2 and "no kb.toml" in one_error_line(result.stderr)
    assert not (empty / ".kb").exists() and not (tmp_path / "does-not-exist").exists()
    assert kept.rows(stored, dump(workspace / ".kb" / "kb.sqlite")) == 0


def test_toml_syntax_error_names_the_line(workspace: Path, kept) -> None:
    stored = dump(workspace / ".kb" / "kb.sqlite")
    path, line = _broken(workspace, "top = 5 ", "top = 5 5 ")
    result = kb_inproc("--home", str(workspace), "ingest", "workspace")
    err = one_error_line(result.stderr)
    assert result.returncode == 2 and str(path) in err and re.search(rf"{re.escape(str(path))}:{line}: ", err), err
    assert kept.rows(stored, dump(workspace / ".kb" / "kb.sqlite")) == 0
