"""Where the tests' files are, named once (test modules sit at different depths)."""
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
FIXTURES = TESTS / "fixtures"
GOLDEN = TESTS / "golden"
LABELLED = TESTS / "data"
SAMPLE = REPO / "data" / "sample"
CORPUS = REPO.parent / "shared" / "corpus"   # real data beside the checkout; tests skip when it is absent
