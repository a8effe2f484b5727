"""R-1: the sync reads git's own words to tell a missing scope (404) from other failures; a
scope key, port or commit id that happens to hold ``404`` is no such answer."""

from __future__ import annotations

import pytest
from harness_memory.remote import _not_found

URL = "http://127.0.0.1:36621/api/projects/acme/agents/coder/memory/git"


@pytest.mark.parametrize(
    "message",
    [
        f"fatal: repository '{URL}/workspace-0a1b2c3d.git/' not found",
        "error: RPC failed; HTTP 404 curl 22 The requested URL returned error: 404\n"
        "fatal: the remote end hung up unexpectedly",
        f"fatal: unable to access '{URL}/user.git/': The requested URL returned error: 404",
    ],
)
def test_a_404_from_the_service_is_read_as_not_found(message: str) -> None:
    assert _not_found(message)


@pytest.mark.parametrize(
    "message",
    [
        # a Workspace key ending in 404, in a push the service refused for another reason
        f"To {URL}/workspace-f589f404.git\n"
        " ! [remote rejected] main -> main (scope 'workspace-f589f404' is not there)\n"
        f"error: failed to push some refs to '{URL}/workspace-f589f404.git'",
        "error: RPC failed; HTTP 503 curl 22 The requested URL returned error: 503",
        "fatal: unable to access 'http://127.0.0.1:40404/x.git/': Failed to connect",
        "error: object file .git/objects/40/4e0c is empty",
        "fatal: couldn't find remote ref main",
    ],
)
def test_other_failures_are_not_a_404_whatever_digits_they_hold(message: str) -> None:
    assert not _not_found(message)
