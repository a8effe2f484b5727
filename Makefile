# The two commands of the README: `make run` and `make test`. Both build .venv on first use
# with only Python 3.11+, make and the package registries. `make run` installs only what running
# needs (the three packages and their dependencies); `make test` adds the test tools of
# requirements-dev.txt. Each half has its stamp, so `make run` then `make test` (or the reverse)
# installs each half once.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUN_STAMP  := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
PIP    := $(BIN)/python tools/pip_progress.py
export MEMORY_API_DATA_DIR ?= $(CURDIR)/.data

PACKAGES := shared/pyproject.toml services/memory-api/pyproject.toml plugins/harness-memory/pyproject.toml

.PHONY: install run test lint typecheck pytest bench bench-hooks bench-wrk bench-quick bench-scale bench-replicas soak clean vendor-web variation-sequences measure-markdown wheels

## Everything: the packages and the test tools.
install: $(TEST_STAMP)

## A .venv brought along by a moved or copied checkout: its scripts start the Python of the
## folder it was made in (their first line), which is gone or another checkout's, so every
## `.venv/bin/...` fails with "No such file or directory" or runs the other checkout's code.
## Found by that first line of pip's script; then .venv is made again here, saying why. A
## script whose first line is no Python (pip's `#!/bin/sh` for a path too long for `#!`) is
## left as it is; of a first line with an argument (`#!…/python -E`) only the Python is read.
VENV_SHEBANG := $(shell sed -n '1s/^\#!//p' $(BIN)/pip 2>/dev/null)
VENV_PYTHON := $(if $(filter python%,$(notdir $(firstword $(VENV_SHEBANG)))),$(firstword $(VENV_SHEBANG)))
ifneq ($(VENV_PYTHON),)
ifneq ($(realpath $(dir $(VENV_PYTHON))),$(realpath $(BIN)))
$(BIN)/python $(RUN_STAMP): venv-moved
endif
endif

.PHONY: venv-moved
venv-moved:
	@echo "$(VENV) was made for $(patsubst %/bin/python,%,$(VENV_PYTHON)), not this checkout (moved or copied): making it again here"
	rm -rf $(VENV)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11+ is required")'
	@echo "Creating $(VENV) (first run only)..."
	$(PYTHON) -m venv $(VENV)
	@$(PIP) "updating pip" -- --upgrade pip

## The packages' names before they moved off names unrelated PyPI projects hold: a .venv made
## before still has them installed (editable), beside the renamed ones; take them out first.
OLD_NAMES := agent-memory-core memory-api harness-memory

## Then, as after a move the hooks installed from this checkout still name its old place (their
## harness-memory and memory root both gone), each harness whose hooks do is named with the
## install that mends them (`harness-memory status --moved`; nothing when none did), and each
## whose hooks run a harness-memory that is gone (a deleted clone), with the uninstall that
## takes them out (until then every call of the tools their guard sees is refused).
$(RUN_STAMP): $(PACKAGES) | $(BIN)/python
	@$(BIN)/python -m pip uninstall --quiet --yes $(OLD_NAMES) 2>/dev/null || true
	@$(PIP) "installing shared, memory-api and harness-memory" -- \
	  -e shared -e services/memory-api -e plugins/harness-memory
	@$(BIN)/harness-memory status --moved
	@touch $@

$(TEST_STAMP): $(RUN_STAMP) requirements-dev.txt
	@$(PIP) "installing the test tools (requirements-dev.txt)" -- -r requirements-dev.txt
	@touch $@

## The three packages as wheels in dist/, with every dependency's wheel beside them: install
## harness-memory and the service from there with --no-index, outside the checkout (plugin README:
## "Install without the checkout"), so `make clean` or moving the checkout leaves the hooks working.
## --no-index: the wheels in dist/ are the only ones to install, whatever an index holds.
## pip's own wheel is there too: pipx sets up its shared environment from the same folder.
## The build backend (hatchling, the packages' [build-system] requires) is installed into .venv
## first (a test tool too, requirements-dev.txt) and the three are built in it, without build
## isolation: pip's isolation made a fresh environment per package and installed hatchling into
## each, three times per `make wheels`.
DIST ?= dist
BUILD_BACKEND := hatchling>=1.25
wheels: | $(BIN)/python
	$(BIN)/python -m pip install --quiet "$(BUILD_BACKEND)"
	$(BIN)/python -m pip wheel --quiet --no-build-isolation --wheel-dir $(DIST) ./shared ./services/memory-api ./plugins/harness-memory pip
	@ls $(DIST)/agent_memory_shared-*.whl $(DIST)/agent_memory_api-*.whl $(DIST)/agent_memory_harness-*.whl

## Start the service and its web page on 127.0.0.1 with the embedded data dir and a demo agent.
## The service logs the demo agent's Memory tab address once it listens (never before: a busy
## port's address would be another program's). A MEMORY_API_DATA_DIR from the environment (the
## README's export, left from before the checkout moved) wins over .data: the seed says so first,
## and stops (no serve) when that folder is gone while .data holds agents.
run: $(RUN_STAMP)
	@$(BIN)/memory-api demo seed --corpus tests/data/corpus --checkout-data "$(CURDIR)/.data"
	@$(BIN)/memory-api serve

## Lint, type-check and run every test.
test: lint typecheck pytest

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(TEST_STAMP)
	$(BIN)/mypy

## Every test, spread over the machine's cores (pytest-xdist): two test processes per core
## (`-n auto` as tests/conftest.py counts it; PYTEST_XDIST_AUTO_NUM_WORKERS=N sets N). Most of a
## test is a wait on another process: one per core left the cores idle a third of the time.
## worksteal: each worker starts on its share of the tests in order and an idle one takes tests
## off a busy one's queue, so a long file (the Schemathesis run, a bench smoke, the two-machine
## e2e) no longer leaves a core idle at the end.
## Python keeps its bytecode for the run even where the environment says not to
## (PYTHONDONTWRITEBYTECODE, as in many containers): else every `memory-api serve` a test starts
## compiles the service again (0.83 s to ready instead of 0.63 s) and each worker rewrites every
## test module's asserts (collection 33 s instead of 14 s). The caches are git-ignored.
## The run ends with its 30 slowest tests, so where the suite's time goes is in every CI log.
pytest: $(TEST_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n auto --dist worksteal --durations=30

## Speed and memory against the budgets a user feels, with ratios within one run as information
## (docs/performance.md); JSON in artifacts/. The throughput cases are driven by wrk (installed
## here with apt-get when run as root). Then the hook processes' own bench (the plugin's).
bench: $(TEST_STAMP) bench-wrk
	$(BIN)/python -m bench.perf
	-$(BIN)/python plugins/harness-memory/bench/hook_cost.py --runs 20
	$(BIN)/python -m bench.scale

## Issue 30's scale case: one agent with 2,000 Workspaces / 10,000 topic files (a few minutes);
## `make bench-scale FULL=1` for 20,000 / 100,000 (about an hour on 2 cores; bench/scale.py).
bench-scale: $(TEST_STAMP)
	$(BIN)/python -m bench.scale $(if $(FULL),--full)

## H-5: every hook process (Claude Code, Codex, Gemini) as users install it (this checkout's
## wheels installed with pip into a fresh environment), median of 20 runs, wall and CPU (ratios
## to `python -c pass` as information); exits 1 when one is over 100 ms wall
## (plugins/harness-memory/bench/hook_cost.py; `--hooks beside` for the dev .venv's).
bench-hooks: $(TEST_STAMP)
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

bench-quick: $(TEST_STAMP)
	$(BIN)/python -m bench.perf --quick

## Config writes against deletes on 3 replicas of one data dir, 24 clients (bench/replicas.py).
bench-replicas: $(TEST_STAMP)
	$(BIN)/python -m bench.replicas

## Soak: 20,000 mixed requests at concurrency 100 while an agent appends to its index every
## 50 ms; fails on any 5xx, transport error, lost line or RSS growing 20 % (bench/soak.py).
soak: $(TEST_STAMP)
	$(BIN)/python -m bench.soak --json soak-figures.json

## Re-vendor the web page's ES modules (markdown-it, DOMPurify) from npm; needs npm. Commit the result.
vendor-web: $(TEST_STAMP)
	$(BIN)/python tools/vendor_web.py

## Rewrite the page's table of Unicode's registered variation sequences (I-9). Commit the result.
variation-sequences: $(TEST_STAMP)
	$(BIN)/python tools/variation_sequences_js.py

## Size and speed of the page's Markdown renderer against a server-side one (docs/web.md).
measure-markdown: $(TEST_STAMP)
	$(BIN)/python -m pip install --quiet "markdown-it-py[linkify]" mdit-py-plugins nh3
	$(BIN)/python tools/measure_markdown.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
