"""Q-2: a route that defines no request body refuses one instead of ignoring it.

``POST …/template-placeholder``, ``POST …/checkpoint`` (a scope's and the agent's) and
``DELETE`` of a memory file take no body. They read none and answered 200 to any: a client that
thinks it sent a parameter (``{"scope": "user"}`` to the agent's checkpoint, meaning one scope)
got every scope recorded, a template changed, a file deleted, and no word that its body meant
nothing. Now a body is a 400 naming the route and saying it takes none (415 when not declared
JSON, as on every JSON route), and nothing changes; no body, or an empty JSON object ``{}`` (what
the web UI and earlier clients send), is served as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.api.conftest import (
    JSON_TYPE,
    PLAIN_TEMPLATE,
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    memory_url,
    ok_json,
    write_topic,
)

CONFIG = "/api/projects/acme/agents/legacy/config"
PLACEHOLDER = f"{memory_url(agent='legacy')}/template-placeholder"
SCOPE_CHECKPOINT = f"{memory_url()}/scopes/user/checkpoint"
CHECKPOINT = f"{memory_url()}/checkpoint"
TOPIC = f"{memory_url()}/scopes/user/files/kept.md"

ROUTES = [
    ("POST", PLACEHOLDER, "/template-placeholder"),
    ("POST", SCOPE_CHECKPOINT, "/scopes/{key}/checkpoint"),
    ("POST", CHECKPOINT, "/memory/checkpoint"),
    ("DELETE", TOPIC, "/scopes/{key}/files/{file}"),
]

JSON_BODIES = [
    b'{"scope": "user"}',
    b"[]",
    b"null",
    b'"user"',
    b"0",
    b"{not json",
]


async def _setup(client: Client, agent: AgentHome) -> Callable[[], Awaitable[None]]:
    """A legacy agent with no ``{{MEMORY}}`` and a topic file written since the last version:
    returns a check that none of the routes changed anything."""
    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    write_topic(agent.user, "kept.md")

    async def unchanged() -> None:
        config = await ok_json(await client.get(CONFIG))
        assert config["template"] == PLAIN_TEMPLATE
        assert (agent.user / "kept.md").is_file()
        changes = await ok_json(await client.get(f"{memory_url()}/scopes/user/changes"))
        assert changes["versions"] == []

    return unchanged


@pytest.mark.parametrize(("method", "url", "named"), ROUTES, ids=lambda v: str(v)[-24:])
@pytest.mark.parametrize("body", JSON_BODIES, ids=lambda b: b.decode())
async def test_q2_a_json_body_on_a_route_that_takes_none_is_400_and_changes_nothing(
    client: Client, agent: AgentHome, method: str, url: str, named: str, body: bytes
) -> None:
    unchanged = await _setup(client, agent)

    answer = await client.request(method, url, data=body, headers=JSON_TYPE)

    problem = await expect_problem(answer, 400, "takes no request body")
    assert problem["detail"].startswith(f"{method} /api/projects/{{project}}/agents/{{agent}}/")
    assert named in problem["detail"]
    assert "send none (or an empty JSON object {})" in problem["detail"]
    await unchanged()


@pytest.mark.parametrize(("method", "url", "named"), ROUTES, ids=lambda v: str(v)[-24:])
async def test_q2_a_body_not_declared_json_on_a_route_that_takes_none_is_415(
    client: Client, agent: AgentHome, method: str, url: str, named: str
) -> None:
    """As on every JSON route: a page of another origin can send ``text/plain`` unasked."""
    unchanged = await _setup(client, agent)

    answer = await client.request(
        method, url, data=b"scope=user", headers={"Content-Type": "text/plain"}
    )

    await expect_problem(answer, 415, "Content-Type: application/json")
    await unchanged()


@pytest.mark.parametrize(("method", "url", "named"), ROUTES, ids=lambda v: str(v)[-24:])
@pytest.mark.parametrize(
    "body",
    [None, b"{}", b" { } \n", b"\xef\xbb\xbf\n"],
    ids=["no-body", "empty-object", "spaced", "byte-order-mark-only"],
)
async def test_q2_no_body_or_an_empty_json_object_is_served(
    client: Client, agent: AgentHome, method: str, url: str, named: str, body: bytes | None
) -> None:
    await _setup(client, agent)
    headers = {} if body is None else JSON_TYPE

    await ok_json(await client.request(method, url, data=body, headers=headers))

    if url.endswith("/checkpoint"):  # what a refused one would have recorded, recorded
        changes = await ok_json(await client.get(f"{memory_url()}/scopes/user/changes"))
        assert changes["versions"] != []
