"""A-10, A-12: the agents one project may hold are capped (``MEMORY_API_MAX_AGENTS_PER_PROJECT``,
default 1000; 0: no cap). Any holder of a project's token may create agents, and each agent
keeps its own 100 drafts of up to a request body each: without a cap one client grew the data
dir by 100 MiB per agent it made. One more is a 409 problem (``type`` ``…/cap-reached``) naming
the cap and the setting; nothing is written, and other projects are not held by it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.settings import Settings, SettingsError
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import Client, create_agent, expect_problem, ok_json

CAP = 3


@pytest.fixture
async def capped(aiohttp_client: AiohttpClient, data_dir: Path) -> Client:
    env = {"MEMORY_API_DATA_DIR": str(data_dir), "MEMORY_API_MAX_AGENTS_PER_PROJECT": str(CAP)}
    return await aiohttp_client(create_app(Settings.from_env(env)))


async def test_a10_one_agent_past_the_projects_cap_is_409_and_writes_nothing(
    capped: Client, data_dir: Path
) -> None:
    for number in range(CAP):
        await create_agent(capped, f"bot-{number}")

    answer = await capped.post("/api/projects/acme/agents", json={"id": "one-more", "name": "M"})

    body = await expect_problem(answer, 409, "project 'acme' holds 3 agents, its cap")
    assert "MEMORY_API_MAX_AGENTS_PER_PROJECT" in body["detail"]
    assert body["type"] == "tag:agent-memory,2026:problem/cap-reached"
    assert not (data_dir / "agents" / "one-more").exists()
    await create_agent(capped, "elsewhere", project="beta")  # another project is not held


async def test_a10_agents_created_at_once_stop_at_the_cap(capped: Client) -> None:
    bodies = [{"id": f"bot-{number}", "name": "Bot"} for number in range(2 * CAP)]

    answers = await asyncio.gather(
        *(capped.post("/api/projects/acme/agents", json=body) for body in bodies)
    )

    assert sorted(answer.status for answer in answers) == [201] * CAP + [409] * CAP
    listed = await ok_json(await capped.get("/api/projects/acme/agents"))
    assert len(listed["agents"]) == CAP


def test_a10_the_agents_cap_defaults_to_1000_and_0_lifts_it(data_dir: Path) -> None:
    base = {"MEMORY_API_DATA_DIR": str(data_dir)}
    assert Settings.from_env(base).max_agents_per_project == 1000
    lifted = {**base, "MEMORY_API_MAX_AGENTS_PER_PROJECT": "0"}
    assert Settings.from_env(lifted).max_agents_per_project == 0
    with pytest.raises(SettingsError, match="MEMORY_API_MAX_AGENTS_PER_PROJECT"):
        Settings.from_env({**base, "MEMORY_API_MAX_AGENTS_PER_PROJECT": "-1"})


async def test_a10_a_full_project_answers_a_create_of_an_id_it_holds_as_taken(
    capped: Client,
) -> None:
    for number in range(CAP):
        await create_agent(capped, f"bot-{number}")
    await create_agent(capped, "elsewhere", project="beta")

    again = await capped.post("/api/projects/acme/agents", json={"id": "bot-0", "name": "B"})
    taken = await capped.post("/api/projects/acme/agents", json={"id": "elsewhere", "name": "E"})

    body = await expect_problem(again, 409, "agent 'bot-0' exists already in project 'acme'")
    assert body["type"] != "tag:agent-memory,2026:problem/cap-reached"
    body = await expect_problem(taken, 409, "the agent id 'elsewhere' is taken")
    assert body["type"] != "tag:agent-memory,2026:problem/cap-reached"
