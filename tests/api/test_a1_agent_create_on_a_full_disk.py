"""A-1, Q-2b: an agent create the disk refuses halfway (ENOSPC after its folders were made)
leaves no half-made agent folder: the answer is a 503 naming the full disk and saying nothing
was kept, the listing stays as before, and the same create succeeds once there is room.

Before, ``agents/coder/agent_state/memory/user`` and ``agents/coder/workspaces`` stayed behind
without an ``agent.json``.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import agents

from tests.api.conftest import Client, expect_problem, ok_json

AGENTS = "/api/projects/acme/agents"
BODY = {"id": "coder", "name": "Coder"}


def _disk_full(monkeypatch: pytest.MonkeyPatch, name: str, match: str) -> None:
    """Make ``agents.<name>(path, …)`` raise ENOSPC for paths holding ``match``."""
    original = getattr(agents, name)

    def full(path: Path, *args: Any, **kwargs: Any) -> Any:
        if match in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return original(path, *args, **kwargs)

    monkeypatch.setattr(agents, name, full)


@pytest.mark.parametrize(
    ("name", "match"),
    [("atomic_write_bytes", "agent.json"), ("make_dirs", "workspaces")],
    ids=["agent-json", "workspaces-folder"],
)
async def test_a1_a_create_the_disk_refuses_leaves_no_agent_folder(
    client: Client, data_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, match: str
) -> None:
    with monkeypatch.context() as patched:
        _disk_full(patched, name, match)
        answer = await client.post(AGENTS, json=BODY)
        body = await expect_problem(answer, 503, "No space left on device")

    assert not (data_dir / "agents" / "coder").exists()
    assert "free space" in body["detail"]
    assert "nothing of it was kept" in body["detail"]
    assert (await ok_json(await client.get(AGENTS)))["agents"] == []
    await ok_json(await client.post(AGENTS, json=BODY), 201)
