# Two commands do all the set-up on a fresh machine with Python >= 3.11:
#   make demo   - install into .venv and run the demo
#   make test   - install into .venv and run lint, type checks, import contracts and the test suite
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test check lint typecheck contracts pytest slow bench screenshots clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "observer needs Python >= 3.11")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/observer demo

test: check pytest

check: lint typecheck contracts

lint: $(STAMP)
	$(BIN)/ruff check observer tests
	$(BIN)/ruff format --check observer tests

typecheck: $(STAMP)
	$(BIN)/mypy

contracts: $(STAMP)
	$(BIN)/lint-imports

pytest: $(STAMP)
	$(BIN)/python -m pytest

slow: $(STAMP)
	$(BIN)/python -m pytest -m slow

bench: $(STAMP)
	$(BIN)/python -m tests.benchmarks

screenshots: $(STAMP)
	$(BIN)/observer screenshots -o screenshots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
