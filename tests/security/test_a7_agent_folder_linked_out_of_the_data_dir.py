"""A-7: an agent's folder (``agents/<id>`` in the data dir) replaced by a symlink to a folder
outside the data dir is never followed by the config routes, as a scope symlink is not by the
memory routes: GET and PATCH of the config answer a 503 problem naming the folder as no plain
folder, and nothing out there is read or written.

Before, GET …/config answered 200 with the outside ``agent.json`` and PATCH rewrote it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.api.conftest import AgentHome, Client, expect_problem, ok_json

CONFIG = "/api/projects/acme/agents/coder/config"
NOT_PLAIN = "agents/coder in the data dir is a symlink"


def _linked_out(agent: AgentHome) -> Path:
    """Move the agent's folder out of the data dir and link its place to it; the outside
    ``agent.json``."""
    folder = agent.data_dir / "agents" / "coder"
    outside = agent.tmp / "outside" / "coder"
    outside.parent.mkdir()
    shutil.move(folder, outside)
    folder.symlink_to(outside, target_is_directory=True)
    return outside / "agent.json"


async def test_a7_config_read_through_an_agent_folder_symlink_is_refused(
    client: Client, agent: AgentHome
) -> None:
    _linked_out(agent)

    body = await expect_problem(await client.get(CONFIG), 503, NOT_PLAIN)

    assert "not a plain folder" in body["detail"]
    assert str(agent.tmp) not in body["detail"]


async def test_a7_config_patch_through_an_agent_folder_symlink_writes_nothing_outside(
    client: Client, agent: AgentHome
) -> None:
    outside = _linked_out(agent)
    before = outside.read_bytes()

    answer = await client.patch(CONFIG, json={"name": "Elsewhere"})

    await expect_problem(answer, 503, NOT_PLAIN)
    assert outside.read_bytes() == before


async def test_a7_agent_listing_names_an_agent_folder_symlink_as_unreadable(
    client: Client, agent: AgentHome
) -> None:
    _linked_out(agent)

    listed = await ok_json(await client.get("/api/projects/acme/agents"))

    assert listed["agents"] == []
    assert [row["id"] for row in listed["unreadable"]] == ["coder"]
    assert NOT_PLAIN in listed["unreadable"][0]["problem"]
