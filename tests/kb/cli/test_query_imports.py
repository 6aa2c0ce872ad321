"""Query commands import nothing of the classifier: no numpy on kb query, show, search."""
from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("args", [["query", "papers"], ["show", "2610.09701"], ["search", "KV cache"],
                                  ["query", "anchored"], ["db", "status"]])
def test_no_numpy_on_query_commands(sample_workspace, args):
    code = ("import sys, runpy; sys.argv = ['kb', *sys.argv[1:]]\n"
            "try:\n    runpy.run_module('kb.cli', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print('NUMPY' if 'numpy' in sys.modules else 'CLEAN', file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, "--home", str(sample_workspace), *args],
                         capture_output=True, text=True, timeout=120)
    assert out.stderr.strip().splitlines()[-1] == "CLEAN", out.stderr[-2000:]
