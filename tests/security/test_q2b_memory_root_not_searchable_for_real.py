"""Q-2b with the kernel's own refusal: an agent's memory root the service may not look into
(another account's, mode ``0700``; or its own made ``r--``), asked for one scope.

Its scopes are there, yet the overview, a scope's summary, its listing, index and files each
answered 503 "scope 'user' of agent … is not there and the service could not create its
folder (Permission denied)", sending an operator to look for a missing folder, and a Session
start 503 "the data dir could not be used", an incident (a ``PermissionError`` from looking at
the scope). Right: every one of them names the memory root and why, as search does, and no
answer says a scope is not there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.security.test_q2b_memory_root_unlisted_for_real import (
    WHY_ROOT,
    _memory_root_with_notes,
    unlisted,
)
from tests.security.test_q2b_unreadable_memory_files_for_real import NOBODY, call
from tests.support.refused_account import refused_service
from tests.support.serve import ServedProcess


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    """A service refused as any account is (no capability past a file's mode)."""
    yield from refused_service(tmp_path, WHY_ROOT)


@pytest.mark.parametrize(("owner", "mode"), [(NOBODY, 0o700), (None, 0o644)])
def test_q2b_a_memory_root_not_searchable_is_named_on_every_route_never_a_missing_scope(
    served: ServedProcess, tmp_path: Path, owner: int | None, mode: int
) -> None:
    base, home = served.base_url, "/api/projects/acme/agents/coder/memory"
    root, key = _memory_root_with_notes(served, tmp_path)
    if owner is not None:
        os.chown(root, owner, owner)
    root.chmod(mode)
    asked = [("GET", home, None), ("POST", f"{home}/session-start", {"workspace": str(tmp_path)})]
    for scope in ("user", key):
        asked += [
            ("GET", f"{home}/scopes/{scope}", None),
            ("GET", f"{home}/scopes/{scope}/files", None),
            ("GET", f"{home}/scopes/{scope}/index", None),
            ("GET", f"{home}/scopes/{scope}/files/ok-topic.md", None),
            ("DELETE", f"{home}/scopes/{scope}/files/ok-topic.md", None),
        ]

    for method, path, body in asked:
        status, problem = call(base, method, path, body)

        assert status == 503, (method, path, problem)
        assert unlisted("coder") in problem["detail"], (method, path, problem["detail"])
        assert "not there" not in problem["detail"], (method, path, problem["detail"])
    root.chmod(0o755)
    assert (root / "user" / "ok-topic.md").is_file()  # the refused delete removed nothing
