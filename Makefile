# Two commands on a fresh machine (Python >= 3.11 and make):
#   make demo   install into .venv, run `kb nightly` offline on a copy of data/sample, build its site
#   make test   install into .venv and run the test suite
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
KB := $(VENV)/bin/kb
DEMO_DATE ?= 2026-10-08

.PHONY: install demo lint test bench clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

install: $(VENV)/.installed

# The demo works on a copy so the repository's sample stays as committed.
demo: install
	@tmp=$$(mktemp -d) && cp -R data/sample/. "$$tmp" && \
	$(KB) nightly --home "$$tmp" --date $(DEMO_DATE) --offline && \
	$(KB) --quiet --home "$$tmp" site build && \
	echo "zh briefing (md):   $$tmp/briefings/$(DEMO_DATE)-inference.md" && \
	echo "zh briefing (html): $$tmp/briefings/$(DEMO_DATE)-inference.html" && \
	echo "en briefing (md):   $$tmp/briefings/$(DEMO_DATE)-inference.en.md" && \
	echo "en briefing (html): $$tmp/briefings/$(DEMO_DATE)-inference.en.html" && \
	echo "site index:         $$tmp/site/index.html (or: python3 -m http.server -d $$tmp/site)"

# The layering (kb below pipeline, phases downward, no cycles) and the lint are part of the tests.
lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

test: lint
	$(PY) -m pytest

bench: install
	$(PY) bench/ingest.py && $(PY) bench/classify.py && $(PY) bench/query.py && $(PY) bench/nightly.py && $(PY) bench/history.py && $(PY) bench/site.py

clean:
	rm -rf $(VENV) build *.egg-info
