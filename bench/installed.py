"""Run kb's processes as an installed kb runs: with its bytecode cached.

pip compiles a wheel's modules when it installs it, so an installed kb never compiles its own
source at start. An editable checkout under ``PYTHONDONTWRITEBYTECODE=1`` (set in some shells and
CI images) compiles every kb module in every process instead, about 0.1 s each time, which a
whole-process benchmark would count against kb and not against its floor (a single script whose
libraries are installed). The bench's child processes therefore get a bytecode cache of their own,
in a temporary ``PYTHONPYCACHEPREFIX``: nothing is written into the checkout.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cache_bytecode(tmp: Path, python: str | None = None) -> str:
    """Give this process's children a compiled kb (cache under ``tmp``); a line saying what was done."""
    was_off = os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    prefix = tmp / "pycache"
    os.environ["PYTHONPYCACHEPREFIX"] = str(prefix)
    subprocess.run([python or sys.executable, "-m", "compileall", "-q", str(ROOT / "kb"), str(ROOT / "pipeline")],
                   check=True, stdout=subprocess.DEVNULL)
    why = " (this shell had PYTHONDONTWRITEBYTECODE set)" if was_off else ""
    return f"(info) kb's bytecode compiled once into a temporary cache, as an installed kb has it{why}"
