"""Settings of the whole suite's process."""

from __future__ import annotations

import pytest
from hypothesis import settings
from memory_core.swap import shield_from_sigio

settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
"""Hypothesis checks properties, never time: its default 200 ms deadline per example is a
timed assertion, and it failed a property test on a busy machine (the suite runs its
files in parallel beside Chromium). Speed is measured by ``make bench``."""


def pytest_configure(config: pytest.Config) -> None:
    """Tests edit files under kernel leases in this process, as the service does: a lease
    break reported with SIGIO must not end the test run (see ``memory_core.swap``)."""
    shield_from_sigio()
