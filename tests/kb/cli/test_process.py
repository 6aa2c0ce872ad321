"""What the ``kb`` process sets for itself before any command runs."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from kb.cli import _one_blas_thread

NAMES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def test_blas_runs_on_one_thread_unless_the_user_chose(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in NAMES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "4")
    _one_blas_thread()
    assert [os.environ[n] for n in NAMES] == ["1", "4", "1"]


def test_the_console_script_sets_it_before_numpy_is_imported(tmp_path) -> None:
    """numpy's BLAS reads the variables once, when numpy is first imported: ``run`` sets them first."""
    env = {k: v for k, v in os.environ.items() if k not in NAMES}
    probe = ("import sys, json, os; from kb.cli import run; import kb.cli as c; c.main = lambda: None; run(); "
             "print(json.dumps(['numpy' in sys.modules, os.environ.get('OPENBLAS_NUM_THREADS')]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.splitlines()[-1]) == [False, "1"]
