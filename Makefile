# The two commands of the README: `make run` and `make test`. Both build .venv on first use
# with only Python 3.11+, make and the package registries.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
export MEMORY_API_DATA_DIR ?= $(CURDIR)/.data

PACKAGES := shared/pyproject.toml services/memory-api/pyproject.toml plugins/harness-memory/pyproject.toml

.PHONY: install run test lint typecheck pytest bench bench-hooks bench-wrk bench-quick soak clean vendor-web measure-markdown

install: $(STAMP)

$(STAMP): $(PACKAGES) requirements-dev.txt
	$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is required")'
	@echo "Installing the packages into $(VENV) (first run only; about a minute)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "Installing shared, memory-api, harness-memory and the test tools..."
	$(BIN)/python -m pip install --quiet -e shared -e services/memory-api -e plugins/harness-memory -r requirements-dev.txt
	touch $@

## Start the service and its web page on 127.0.0.1 with the embedded data dir and a demo agent.
run: $(STAMP)
	$(BIN)/memory-api demo seed --corpus tests/data/corpus
	$(BIN)/memory-api serve

## Lint, type-check and run every test.
test: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

## Every test, spread over the machine's cores (pytest-xdist); a test file stays on one worker.
pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist loadfile

## Speed and memory against the budgets a user feels, with ratios within one run as information
## (docs/performance.md); JSON in artifacts/. The throughput cases are driven by wrk (installed
## here with apt-get when run as root). Then the hook processes' own bench (the plugin's).
bench: $(STAMP) bench-wrk
	$(BIN)/python -m bench.perf
	-$(BIN)/python plugins/harness-memory/bench/hook_cost.py --runs 20

## H-5: every hook process (Claude Code, Codex, Gemini), median of 20 runs, wall and CPU (ratios
## to `python -c pass` as information); exits 1 when one is over 100 ms wall
## (plugins/harness-memory/bench/hook_cost.py).
bench-hooks: $(STAMP)
	$(BIN)/python plugins/harness-memory/bench/hook_cost.py --runs 20

## wrk, the C load generator of `make bench`: apt-get as root, else how to install it.
bench-wrk:
	@command -v wrk >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing wrk (apt-get install wrk) for make bench..."; \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; } || \
	    echo "could not install wrk: make bench measures with the Python driver"; \
	  else \
	    echo "wrk is not installed: run 'sudo apt-get install wrk' (Debian/Ubuntu; 'brew install wrk'"; \
	    echo "on macOS) for the C load generator; make bench measures with the Python driver."; \
	  fi; }

bench-quick: $(STAMP)
	$(BIN)/python -m bench.perf --quick

## Soak: 20,000 mixed requests at concurrency 100 while an agent appends to its index every
## 50 ms; fails on any 5xx, transport error, lost line or RSS growing 20 % (bench/soak.py).
soak: $(STAMP)
	$(BIN)/python -m bench.soak --json soak-figures.json

## Re-vendor the web page's ES modules (markdown-it, DOMPurify) from npm; needs npm. Commit the result.
vendor-web: $(STAMP)
	$(BIN)/python tools/vendor_web.py

## Size and speed of the page's Markdown renderer against a server-side one (docs/web.md).
measure-markdown: $(STAMP)
	$(BIN)/python -m pip install --quiet "markdown-it-py[linkify]" mdit-py-plugins nh3
	$(BIN)/python tools/measure_markdown.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
