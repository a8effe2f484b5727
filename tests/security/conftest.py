"""Fixtures of the security tests: the API tests' real data dir, app, client and agent, and
the umask most accounts run under.

Re-exported from :mod:`tests.api.conftest` so both layers build their data dir the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.api.conftest import agent, client, corpus_user, data_dir, settings

__all__ = ["agent", "client", "corpus_user", "data_dir", "settings", "umask_022"]


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The umask most accounts run under (``022``): ``mkdir`` and git alone would make
    ``0755`` folders and ``0644`` files."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)
