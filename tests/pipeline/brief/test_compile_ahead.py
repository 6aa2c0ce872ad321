"""Briefing templates compiled ahead (``render.compile_ahead``): a night whose template cache is empty compiles
them in a forked child while it builds the briefing, a night with them cached forks nothing, and a child that
fails costs nothing but the time it would have saved."""
from __future__ import annotations

import os
from pathlib import Path

import jinja2
import pytest

import pipeline.brief.render as render
from tests.reliability.support import kb_inproc


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The children ``compile_ahead`` forked (on two cores, whatever this machine has)."""
    monkeypatch.setattr(render.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    born: list[int] = []
    real = os.fork

    def fork() -> int:
        pid = real()
        if pid:
            born.append(pid)
        return pid
    monkeypatch.setattr(render.os, "fork", fork)
    return born


@pytest.fixture
def compiled_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The briefing templates this process compiled (a child's compiling is not seen here)."""
    names: list[str] = []
    real = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, *args, **kw):
        if name and name.endswith(".md.j2"):
            names.append(name)
        return real(self, source, name, filename, *args, **kw)
    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    return names


def _night(home: Path) -> None:
    result = kb_inproc("--home", str(home), "nightly", "--offline", "--date", "2026-10-08")
    assert result.returncode == 0, result.stderr


def _cached(home: Path) -> list[Path]:
    return sorted((home / ".kb" / "cache").glob("templates-*/__jinja2_*.cache"))


def test_a_first_night_compiles_its_templates_in_a_child_and_the_next_forks_nothing(
        sample_workspace: Path, forks: list[int], compiled_here: list[str]) -> None:
    _night(sample_workspace)
    assert len(forks) == 1
    assert len(_cached(sample_workspace)) == 3   # zh, en and the points macro, written by the child
    assert compiled_here == []                   # this process found them compiled
    _night(sample_workspace)
    assert len(forks) == 1 and compiled_here == []   # all cached: nothing forked, nothing compiled


def test_a_child_that_fails_costs_the_briefing_nothing(sample_workspace: Path, forks: list[int],
                                                       compiled_here: list[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    reference = tmp_path / "reference"
    import shutil
    shutil.copytree(sample_workspace, reference)
    parent = os.getpid()
    real = jinja2.Environment.get_template

    def broken_in_the_child(self, name, *args, **kw):
        if os.getpid() != parent:
            raise MemoryError("the child ran out")
        return real(self, name, *args, **kw)
    monkeypatch.setattr(jinja2.Environment, "get_template", broken_in_the_child)
    _night(sample_workspace)
    assert len(forks) == 1
    assert sorted(compiled_here) == ["briefing.en.md.j2", "briefing.zh.md.j2", "points.md.j2"]   # here, after all
    monkeypatch.undo()
    _night(reference)
    md = "briefings/2026-10-08-inference.md"
    assert (sample_workspace / md).read_bytes() == (reference / md).read_bytes()


def test_a_fork_the_system_refuses_costs_the_briefing_nothing(sample_workspace: Path, tmp_path: Path,
                                                              compiled_here: list[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A process limit reached (EAGAIN) or no memory to fork (ENOMEM): the templates are compiled here, the
    night does not fail on a shortcut it could not take."""
    import errno
    import shutil
    reference = tmp_path / "reference"
    shutil.copytree(sample_workspace, reference)
    monkeypatch.setattr(render.os, "sched_getaffinity", lambda _pid: {0, 1}, raising=False)
    tried: list[int] = []

    def refused() -> int:
        tried.append(1)
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")
    monkeypatch.setattr(render.os, "fork", refused)
    _night(sample_workspace)
    assert tried == [1]
    assert sorted(compiled_here) == ["briefing.en.md.j2", "briefing.zh.md.j2", "points.md.j2"]
    monkeypatch.undo()
    _night(reference)
    md = "briefings/2026-10-08-inference.md"
    assert (sample_workspace / md).read_bytes() == (reference / md).read_bytes()


def test_a_broken_override_fails_in_the_child_and_the_parent_says_its_one_line(sample_workspace: Path,
                                                                               forks: list[int]) -> None:
    """The child compiles the team's broken template first and leaves without a word; the nightly then
    says what is wrong in one line naming the template's line, exit 2, no crash log (as without a child)."""
    override = sample_workspace / ".kb" / "overrides" / "templates" / "briefing.en.md.j2"
    override.parent.mkdir(parents=True)
    override.write_text("A\n{% if %}\n", encoding="utf-8")
    result = kb_inproc("--home", str(sample_workspace), "nightly", "--offline", "--date", "2026-10-08")
    assert len(forks) == 1
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "briefing.en.md.j2:2: TemplateSyntaxError" in lines[0], result.stderr
    assert not list((sample_workspace / ".kb" / "logs").glob("kb-crash-*"))


def test_a_template_the_child_cannot_compile_leaves_the_others_cached(sample_workspace: Path, forks: list[int],
                                                                     compiled_here: list[str],
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = jinja2.Environment.get_template

    def zh_broken_in_the_child(self, name, *args, **kw):
        if os.getpid() != parent and name == "briefing.zh.md.j2":
            raise MemoryError("the child ran out")
        return real(self, name, *args, **kw)
    monkeypatch.setattr(jinja2.Environment, "get_template", zh_broken_in_the_child)
    _night(sample_workspace)
    assert len(forks) == 1
    assert compiled_here == ["briefing.zh.md.j2"]   # the child cached the other two; this process only that one
