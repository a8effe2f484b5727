"""Fixtures of the security tests: the API tests' real data dir, app, client and agent.

Re-exported from :mod:`tests.api.conftest` so both layers build their data dir the same way.
"""

from __future__ import annotations

from tests.api.conftest import agent, client, corpus_user, data_dir, settings

__all__ = ["agent", "client", "corpus_user", "data_dir", "settings"]
