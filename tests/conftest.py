"""Settings of the whole suite's process."""

from __future__ import annotations

import pytest
from memory_core.swap import shield_from_sigio


def pytest_configure(config: pytest.Config) -> None:
    """Tests edit files under kernel leases in this process, as the service does: a lease
    break reported with SIGIO must not end the test run (see ``memory_core.swap``)."""
    shield_from_sigio()
