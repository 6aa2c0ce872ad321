"""Briefing templates: a workspace's override wins, and compiled templates are kept in .kb/cache."""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

from pipeline.brief.render import _environment, render_markdown


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the templates Jinja compiled from source (a cache hit compiles nothing)."""
    seen: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):
        seen.append(name)
        return original(self, source, name, filename, raw, defer_init)
    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    _environment.cache_clear()
    yield seen
    _environment.cache_clear()


def _override(ws: Path, text: str, mtime: int) -> None:
    path = ws / ".kb" / "overrides" / "templates" / "briefing.zh.md.j2"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (mtime, mtime))


def test_an_override_is_used_compiled_once_and_compiled_again_when_edited(tmp_path: Path, compiles) -> None:
    _override(tmp_path, "A {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "A inference\n"
    assert compiles == ["briefing.zh.md.j2"] and len(list((tmp_path / ".kb/cache/templates").iterdir())) == 1

    _environment.cache_clear()   # as a new process would
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "A inference\n"
    assert compiles == ["briefing.zh.md.j2"]   # read from .kb/cache, not compiled again

    _override(tmp_path, "B {{ topic }}", 2_000_000)
    _environment.cache_clear()
    assert render_markdown({"topic": "inference"}, "zh", tmp_path) == "B inference\n"
    assert compiles == ["briefing.zh.md.j2"] * 2


def test_an_unwritable_cache_folder_only_means_no_cache(tmp_path: Path, compiles) -> None:
    (tmp_path / ".kb").mkdir()
    (tmp_path / ".kb" / "cache").write_text("a file where the folder would go", encoding="utf-8")
    _override(tmp_path, "C {{ topic }}", 1_000_000)
    assert render_markdown({"topic": "x"}, "zh", tmp_path) == "C x\n"
