"""``python -m kb.cli``: the same as the ``kb`` console script."""
from kb.cli import run

run()
