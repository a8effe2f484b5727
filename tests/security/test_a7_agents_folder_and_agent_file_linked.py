"""A-7: ``agents/`` in the data dir, or an agent's ``agent.json``, made a symlink (to a folder or
file outside the data dir) is never followed: not listed through, not read, not replaced.

Before, with ``agents/`` a symlink to a home folder, ``GET /api/projects/acme/agents`` (and
``memory-api agent list``) named every entry of that folder as an unreadable agent, logging
"is a symlink: never followed" for each on every request; creating an agent advised to "put
the agent's folder there (from a backup)"; ``serve`` started without a word. An
``agent.json`` linked out of the data dir was served by ``GET …/config`` and replaced by a
regular file on ``PATCH``.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from memory_api.app import create_app
from memory_api.cli import main
from memory_api.settings import Settings
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AgentHome, Client, expect_problem, ok_json

AGENTS = "/api/projects/acme/agents"
CONFIG = f"{AGENTS}/coder/config"
LINKED = "the folder of every agent (agents/ in the data dir) is a symlink"


def _agents_linked_out(data_dir: Path, tmp: Path) -> Path:
    """Move ``agents/`` out of the data dir beside a stranger's folder names, link it back."""
    outside = tmp / "elsewhere"
    (data_dir / "agents").rename(outside)
    for name in ("alice", "bob", "secrets"):
        (outside / name).mkdir()
    (data_dir / "agents").symlink_to(outside, target_is_directory=True)
    return outside


async def test_a7_agents_folder_symlink_is_named_once_never_listed_through(
    client: Client, agent: AgentHome, caplog: pytest.LogCaptureFixture
) -> None:
    _agents_linked_out(agent.data_dir, agent.tmp)

    with caplog.at_level(logging.WARNING):
        for _ in range(3):
            listed = await ok_json(await client.get(AGENTS))

    assert listed["agents"] == []
    assert [row["id"] for row in listed["unreadable"]] == ["agents/"]
    assert LINKED in listed["unreadable"][0]["problem"]
    said = [record.getMessage() for record in caplog.records if LINKED in record.getMessage()]
    assert len(said) == 1, said


async def test_a7_creating_an_agent_through_a_linked_agents_folder_says_what_to_do(
    client: Client, agent: AgentHome
) -> None:
    _agents_linked_out(agent.data_dir, agent.tmp)

    answer = await client.post(AGENTS, json={"id": "other", "name": "Other"})

    body = await expect_problem(answer, 503, LINKED)
    assert "point MEMORY_API_DATA_DIR at the data dir" in body["detail"]
    assert "from a backup" not in body["detail"]
    assert not (agent.tmp / "elsewhere" / "other").exists()


async def test_a7_serve_start_says_the_agents_folder_is_a_symlink(
    aiohttp_client: AiohttpClient, data_dir: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (data_dir / "agents").mkdir()
    _agents_linked_out(data_dir, tmp_path)

    with caplog.at_level(logging.WARNING):
        client = await aiohttp_client(create_app(Settings(data_dir=data_dir)))
        await client.get("/healthz")

    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(LINKED in message and str(data_dir) in message for message in errors), errors


def test_a7_agent_list_names_the_linked_agents_folder_not_what_it_leads_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    monkeypatch.setenv("MEMORY_API_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMORY_API_TOKENS", raising=False)
    assert main(["agent", "create", "--project", "acme", "--id", "coder", "--name", "C"]) == 0
    _agents_linked_out(data_dir, tmp_path)
    capsys.readouterr()

    assert main(["agent", "list"]) == 1

    err = capsys.readouterr().err
    assert f"agents/: {LINKED}" in err
    assert "alice" not in err
    assert "bob" not in err


def _agent_file_linked_out(agent: AgentHome) -> Path:
    """Move ``agent.json`` out of the data dir and link its place to it; the outside file."""
    inside = agent.data_dir / "agents" / "coder" / "agent.json"
    outside = agent.tmp / "outside.json"
    inside.rename(outside)
    inside.symlink_to(outside)
    return outside


NOT_A_PLAIN_FILE = (
    "the stored settings of agent 'coder' (agents/coder/agent.json in the data dir) are not a "
    "regular file: a symlink, which the service never follows"
)


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("GET", CONFIG, None),
        ("PATCH", CONFIG, {"name": "Elsewhere"}),
        ("POST", f"{AGENTS}/coder/memory/template-placeholder", {}),
        ("GET", f"{AGENTS}/coder/memory", None),
    ],
)
async def test_a7_an_agent_file_symlink_is_never_read_nor_replaced(
    client: Client, agent: AgentHome, method: str, url: str, body: object
) -> None:
    outside = _agent_file_linked_out(agent)
    before = outside.read_bytes()

    answer = await client.request(method, url, json=body)

    problem = await expect_problem(answer, 503, NOT_A_PLAIN_FILE)
    assert str(agent.tmp) not in problem["detail"]
    assert (agent.data_dir / "agents" / "coder" / "agent.json").is_symlink()
    assert outside.read_bytes() == before


async def test_a7_an_agent_file_symlink_is_listed_as_unreadable(
    client: Client, agent: AgentHome
) -> None:
    _agent_file_linked_out(agent)

    listed = await ok_json(await client.get(AGENTS))

    assert listed["agents"] == []
    assert [row["id"] for row in listed["unreadable"]] == ["coder"]
    assert NOT_A_PLAIN_FILE in listed["unreadable"][0]["problem"]
