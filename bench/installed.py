"""Run kb's processes as an installed kb runs: with its bytecode cached.

pip compiles a wheel's modules when it installs it, so an installed kb never compiles its own
source at start. An editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` (set in some shells and
CI images) compiles every kb module in every process instead, about 0.1 s each time, which a
whole-process benchmark would count against kb and not against its floor (a single script whose
libraries are installed, compiled). The bench's child processes therefore run with bytecode writing
on, after kb's packages were compiled into their ``__pycache__`` folders (ignored by git).
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cache_bytecode(python: str | None = None) -> str:
    """Give this process's children a compiled kb; a line saying what was done."""
    was_off = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([python or sys.executable, "-m", "compileall", "-q", str(ROOT / "kb"), str(ROOT / "pipeline")],
                   check=True, stdout=subprocess.DEVNULL)
    why = " (this shell had PYTHONDONTWRITEBYTECODE set)" if was_off else ""
    return f"(info) kb's bytecode compiled before the runs, as an installed kb has it{why}"
