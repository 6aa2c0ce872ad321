"""The package as a user installs it: the wheel carries templates and data, and an install with
``pip install --user`` runs the nightly on the sample (kb finds its files by importlib.resources)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from tests.support.paths import REPO


def test_every_package_of_the_tree_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for top in ("kb", "pipeline")
             for p in (REPO / top).rglob("__init__.py")}
    assert found | {"kb.templates", "kb.data"} == listed


def test_every_file_the_label_map_names_ships_with_it() -> None:
    """The label map names files beside it (kb's labels, trained on or held out): an installed kb that lacks one
    cannot load the map at all, so neither `kb train` nor `kb eval classifier --corpus` runs."""
    import fnmatch
    shipped = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["kb.data"]
    abstracts = tomllib.loads((REPO / "data" / "label_map.toml").read_text())["abstracts"]
    named = [t["file"] for t in abstracts.values() if isinstance(t, dict) and "file" in t]
    assert named and all(any(fnmatch.fnmatch(f, pattern) for pattern in shipped) for f in named), named


@pytest.mark.slow
def test_a_user_install_of_the_wheel_runs_the_nightly(tmp_path: Path) -> None:
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(tmp_path / "dist"), str(REPO)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    [wheel] = (tmp_path / "dist").glob("kb-*.whl")
    base = Path(sys._base_executable)            # the interpreter outside this venv: it honours --user
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "KB_"))}
    env["PYTHONUSERBASE"] = str(tmp_path / "userbase")
    install = subprocess.run([str(base), "-m", "pip", "install", "--quiet", "--user", "--no-deps", "--no-index",
                              str(wheel)], capture_output=True, text=True, env=env)
    assert install.returncode == 0, install.stderr
    # kb's dependencies come from this venv; kb itself only from the user site (the venv's editable
    # finder is a .pth file, which PYTHONPATH does not run).
    env["PYTHONPATH"] = sysconfig.get_paths()["purelib"]
    home = tmp_path / "sample"
    shutil.copytree(REPO / "data" / "sample", home, ignore=shutil.ignore_patterns(".kb", "briefings"))
    run = subprocess.run([str(base), "-c", "import kb; print(kb.__file__)"], capture_output=True, text=True,
                         env=env, cwd=tmp_path)
    assert run.stdout.startswith(str(tmp_path / "userbase")), run.stdout + run.stderr
    nightly = subprocess.run([str(base), "-m", "kb.cli", "nightly", "--home", str(home), "--date", "2026-10-08",
                              "--offline", "--quiet"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert nightly.returncode == 0, nightly.stderr
    golden = (REPO / "tests" / "golden" / "2026-10-08-inference.zh.md").read_text(encoding="utf-8")
    assert (home / "briefings" / "2026-10-08-inference.md").read_text(encoding="utf-8") == golden
