"""Settings of the whole suite's process."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from memory_core.swap import shield_from_sigio

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
"""Hypothesis checks properties, never time: its default 200 ms deadline per example is a
timed assertion, and it failed a property test on a busy machine (the suite runs its
files in parallel beside Chromium). Speed is measured by ``make bench``."""


WORKERS_PER_CORE = 2
"""Test processes per core for ``-n auto`` (``make test``). Most of a test's time is a wait on
another process (a service starting, a hook, a coding agent's CLI, git, Chromium), not work of
its own: with one process per core the suite used about 750 s of CPU (children included;
measured per folder) in the 562 s x 2 cores of a run at rest, a third of the cores idle. A
second process per core takes up that time. Tests wait on signals with hang guards, never on
time: every folder passed whole at a load of 12-22 on this 2-core machine."""


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """How many workers ``-n auto`` starts: :data:`WORKERS_PER_CORE` per core this process may
    run on. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` in the environment still sets the number (None
    hands it to pytest-xdist, which reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


HOME_VARIABLES = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")
"""Variables that would point a CLI back into the user's home; unset for the run."""


TOKEN_VARIABLES = ("MEMORY_API_TOKENS", "MEMORY_API_TOKENS_FILE")
"""The service's token variables a developer's shell may hold (set, or set but empty, which
refuses every command, A-10a); unset for the run, so each test sets what it means to."""


def keep_out_of_home() -> Path:
    """Give this process (and every CLI it starts with its environment) a fresh, empty HOME.

    The coding agents' CLIs and our own write into ``~``: ``gemini --version`` alone writes
    ``~/.gemini/projects.json.*.tmp``. No test may touch the real home, so the run gets its
    own; npm keeps its usual download cache. Returns the new HOME.
    """
    real = Path.home()
    os.environ.setdefault("npm_config_cache", str(real / ".npm"))
    home = Path(tempfile.mkdtemp(prefix="tests-home-"))
    os.environ["HOME"] = str(home)
    for name in HOME_VARIABLES:
        os.environ.pop(name, None)
    return home


@pytest.fixture
def open_umask() -> Iterator[None]:
    """``umask 000`` for the test (WSL's long-standing default, and some containers' and
    shells'): every permission bit a ``mkdir`` or ``open`` asks for is granted, so only the
    product's own modes keep a file or folder from others. Put back after the test."""
    before = os.umask(0)
    try:
        yield
    finally:
        os.umask(before)


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """Put the root logger and the record switches back after
    :func:`memory_api.http.logs.configure_logging`."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    switches = logging._srcfile, logging.logThreads, logging.logMultiprocessing
    yield
    root.handlers[:], level = saved
    root.setLevel(level)
    logging._srcfile, logging.logThreads, logging.logMultiprocessing = switches


def pytest_configure(config: pytest.Config) -> None:
    """Tests edit files under kernel leases in this process, as the service does: a lease
    break reported with SIGIO must not end the test run (see ``memory_core.swap``). The run
    gets a HOME of its own (:func:`keep_out_of_home`) and none of the developer's
    :data:`TOKEN_VARIABLES`."""
    shield_from_sigio()
    for name in TOKEN_VARIABLES:  # the developer's own: in-process tests and the CLIs they start
        os.environ.pop(name, None)
    config.stash[_HOME] = keep_out_of_home()


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the run's HOME."""
    home = config.stash.get(_HOME, None)
    if home is not None:
        shutil.rmtree(home, ignore_errors=True)


_HOME = pytest.StashKey[Path]()
