"""R-1, Q-2b with the kernel's own refusal: a scope's machines file (``agent_state/machines/
<key>.json``, who keeps a local copy) that the service may not read, or that is a FIFO.

A FIFO there was opened blocking by the fetch that notes the machine, under the scope's lock:
the fetch never answered, and every later sync and record of the scope (a checkpoint, a delete)
waited behind that lock until a restart. A file of another account (``0600``) was "started
afresh": the list answered no machine for the scope, and the next sync replaced the file,
losing every other machine's note. Right: never blocked; the list is a 503 naming the file;
a file that cannot be read is left as it is.
"""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_core import layout

from tests.security.test_q2b_unreadable_memory_files_for_real import AGENT, NOBODY, call
from tests.support.refused_account import REQUEST_WAIT_S, refused_service
from tests.support.serve import ServedProcess

MACHINE = "0123456789abcdef0123456789abcdef"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedProcess]:
    yield from refused_service(tmp_path, "refusing a file to the service needs root")


def _fetch_refs(served: ServedProcess) -> int:
    """A machine's fetch of the user scope begins (its ref list, which notes the machine)."""
    request = urllib.request.Request(  # noqa: S310 - the loopback service
        f"{served.base_url}{AGENT}/memory/git/user.git/info/refs?service=git-upload-pack",
        headers={"X-Memory-Machine": MACHINE},
    )
    with urllib.request.urlopen(request, timeout=REQUEST_WAIT_S) as answer:  # noqa: S310
        status: int = answer.status
        return status


def _machines_folder(served: ServedProcess) -> Path:
    assert (
        call(served.base_url, "POST", "/api/projects/acme/agents", {"id": "coder", "name": "C"})[0]
        == 201
    )
    assert _fetch_refs(served) == 200  # a first machine noted: the folder and its file exist
    return layout.agent_dir(served.data_dir, "coder") / "agent_state" / "machines"


def test_r1_a_fifo_as_a_machines_file_never_blocks_a_sync_or_the_scope(
    served: ServedProcess,
) -> None:
    noted = _machines_folder(served) / "user.json"
    noted.unlink()
    os.mkfifo(noted)

    assert _fetch_refs(served) == 200  # answered, not held for ever (a hang guard times out)
    status, _ = call(served.base_url, "POST", f"{AGENT}/memory/scopes/user/checkpoint", {})
    assert status == 200  # the scope's lock was released
    status, problem = call(served.base_url, "GET", f"{AGENT}/memory/machines")
    assert status == 503, problem
    said = "the machines file of scope 'user' is there, but the service cannot read it"
    assert f"{said} (user.json is not a regular file)" in problem["detail"], problem


def test_r1_a_machines_file_the_service_cannot_read_is_named_and_kept(
    served: ServedProcess,
) -> None:
    noted = _machines_folder(served) / "user.json"
    before = noted.read_bytes()
    os.chown(noted, NOBODY, NOBODY)
    noted.chmod(0o600)

    status, problem = call(served.base_url, "GET", f"{AGENT}/memory/machines")
    assert status == 503, problem  # never {"scopes": []}
    assert "cannot read it (Permission denied)" in problem["detail"], problem
    assert _fetch_refs(served) == 200  # the sync goes on: the file is a log for people
    assert noted.read_bytes() == before  # never replaced by one noting this machine alone

    noted.parent.chmod(0o000)
    status, problem = call(served.base_url, "GET", f"{AGENT}/memory/machines")
    assert status == 503, problem
    assert "the machines folder of agent 'coder' cannot be listed" in problem["detail"]
    noted.parent.chmod(0o755)
