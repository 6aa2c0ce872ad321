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


def test_each_case_has_a_number_of_its_own() -> None:
    """Two rows were numbered 90: a case cited by number ("case 90") must name one row."""
    numbers = re.findall(r"^\| (\d+) \|", DOC.read_text(encoding="utf-8"), flags=re.M)
    repeated = sorted({n for n in numbers if numbers.count(n) > 1}, key=int)
    assert not repeated, f"docs/reliability.md numbers more than one case {repeated}"


def test_the_summary_counts_every_case_of_the_suite() -> None:
    """"cases tried" is the number of case functions a whole run of the suite tries (the summary counts each
    function once, however parametrized): the doc's figure, quoted twice, must be this suite's."""
    text = DOC.read_text(encoding="utf-8")
    quoted = re.findall(r"cases tried(?::| \|) (\d+) \(", text)
    assert len(quoted) == 2 and set(quoted) == {str(len(set(_case_functions())))}, quoted
