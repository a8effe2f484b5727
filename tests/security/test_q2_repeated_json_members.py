"""Q-2, A-11: a request body naming one member twice in an object is a 400 naming it.

msgspec keeps the last of two values silently, so ``{"workspace": "/tmp", "workspace":
"/etc"}`` started a Session for ``/etc`` (and made its scope) while anything reading the first
value (a proxy's rule, a log, another JSON library) saw ``/tmp``. JSON member names should be
unique (RFC 8259 4) and readers disagree on which value counts, so the service takes neither:
every JSON route refuses such a body, saying which name, and changes nothing.
"""

from __future__ import annotations

import pytest

from tests.api.conftest import (
    JSON_TYPE,
    AgentHome,
    Client,
    expect_problem,
    memory_url,
    ok_json,
)

SESSION_START = f"{memory_url()}/session-start"
CONFIG = "/api/projects/acme/agents/coder/config"


@pytest.mark.parametrize(
    "body",
    [
        b'{"workspace": "/tmp", "workspace": "/etc"}',
        b'{"workspace": "/tmp", "work\\u0073pace": "/etc"}',  # one name, spelled twice
    ],
    ids=["plain", "escaped"],
)
async def test_q2_a_session_start_naming_workspace_twice_is_400_and_makes_no_scope(
    client: Client, agent: AgentHome, body: bytes
) -> None:
    answer = await client.post(SESSION_START, data=body, headers=JSON_TYPE)

    problem = await expect_problem(answer, 400, "names the member 'workspace' more than once")
    assert "send each field once" in problem["detail"]
    assert [p.name for p in agent.root.glob("*") if p.name != "user"] == []


async def test_q2_a_config_patch_naming_a_field_twice_in_a_nested_object_changes_nothing(
    client: Client, agent: AgentHome
) -> None:
    before = await ok_json(await client.get(CONFIG))
    body = b'{"memory": {"enabled": true, "enabled": false}}'

    answer = await client.patch(CONFIG, data=body, headers=JSON_TYPE)

    await expect_problem(answer, 400, "names the member 'enabled' more than once")
    assert await ok_json(await client.get(CONFIG)) == before


async def test_q2_each_field_once_is_served(client: Client, agent: AgentHome) -> None:
    body = b'{"workspace": "/tmp", "sessionId": "s1", "sections": false}'

    served = await ok_json(await client.post(SESSION_START, data=body, headers=JSON_TYPE))

    assert served["injected"] is True
