"""V-2, Q-2b with the kernel's own refusal: a scope's history whose objects the service may not
read (the objects folder or its pack another account's, mode ``0700`` / ``0600``).

A version's file and a restore from it answered 404 "no version … in this scope's history"
while the version was there, and the file's own history named it (503 there): git, unable to
read the pack, answers "no such commit" as it does for a made-up id, and that answer was
taken. Right: the same 503 as every other read of that history (the history cannot be read,
what to repair); a made-up version of a readable history stays a 404.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_core import layout

from tests.security.test_q2b_unreadable_memory_files import make_case
from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.support.refused_account import refused_service
from tests.support.serve import ServedProcess

FILE = f"{AGENT}/memory/scopes/user/files/ok-topic.md"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "giving a folder to another account needs root")


def _recorded(served: ServedProcess) -> tuple[str, Path]:
    """Agent ``coder`` with the case's files in its user scope, recorded: the version's id and
    the scope's history."""
    body = {"id": "coder", "name": "C"}
    assert call(served.base_url, "POST", "/api/projects/acme/agents", body)[0] == 201
    make_case(layout.memory_root(served.data_dir, "coder") / "user")
    status, done = call(served.base_url, "POST", f"{AGENT}/memory/scopes/user/checkpoint", {})
    assert status == 200, done
    version = done["scopes"][0]["version"]
    history = served.data_dir / "agents" / "coder" / "agent_state" / "history" / "user.git"
    assert history.is_dir()
    return version, history


@pytest.mark.parametrize("refused", ["objects", "pack"])
def test_v2_a_version_whose_objects_cannot_be_read_is_503_never_no_such_version(
    served: ServedProcess, refused: str
) -> None:
    base = served.base_url
    version, history = _recorded(served)
    status, shown = call(base, "GET", f"{FILE}/versions/{version}")
    assert status == 200, shown
    if refused == "objects":
        places = [history / "objects"]
    else:
        places = sorted((history / "objects" / "pack").glob("*.pack"))
        assert places, "the checkpoint left no pack"
    for place in places:
        os.chown(place, NOBODY, NOBODY)

    status, problem = call(base, "GET", f"{FILE}/versions/{version}")
    assert status == 503, problem
    assert "no version" not in problem["detail"]
    status, problem = call(base, "POST", f"{FILE}/restore", {"version": version})
    assert status == 503, problem
    assert "no version" not in problem["detail"]


def test_v2_a_made_up_version_of_a_readable_history_is_still_404(served: ServedProcess) -> None:
    _recorded(served)

    status, problem = call(served.base_url, "GET", f"{FILE}/versions/{'ab' * 20}")

    assert status == 404
    assert "no version" in problem["detail"]
