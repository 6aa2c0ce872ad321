"""docs/reliability.md lists every case of this suite, by its test function's name."""
from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "reliability.md"


def _case_functions() -> list[str]:
    names = []
    for f in sorted(HERE.glob("test_*.py")):
        if f.name != Path(__file__).name:
            names += re.findall(r"^def (test_\w+)\(", f.read_text(encoding="utf-8"), flags=re.M)
    return names


def test_every_case_is_in_the_docs_table() -> None:
    table = DOC.read_text(encoding="utf-8")
    missing = [n for n in _case_functions() if f"`{n}`" not in table]
    assert not missing, f"docs/reliability.md does not list: {missing}"
