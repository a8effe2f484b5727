"""A-11: an API request's query names only parameters its route takes, each once, as the
OpenAPI document lists them; anything else is 400 saying which, never a calm default.

``?limt=5`` (a typo) answered the default page, and ``?limit=5&limit=500`` answered 5 where a
proxy or a log reader sees 500; ``?reveal=true&reveal=false`` revealed or not as the first
said. The page and the operations endpoints are not API routes and take any query.
"""

from __future__ import annotations

import pytest
from memory_api.http.openapi import OPERATIONS

from tests.api.conftest import AgentHome, Client, expect_problem, file_url, memory_url, ok_json

AGENTS = "/api/projects/acme/agents"


@pytest.mark.parametrize(
    ("route", "detail"),
    [
        ("?limt=5", "this route takes no query parameter 'limt': it takes cursor, limit, q"),
        ("?limit=5&limit=500", "the query parameter 'limit' is given 2 times: give it once"),
        ("?q=a&q=b&q=c", "the query parameter 'q' is given 3 times"),
        ("/search?q=pnpm&scopes=user", "takes no query parameter 'scopes': it takes limit, q, "
         "scope"),
        ("/scopes/user/files/a.md?reveal=true&reveal=false", "'reveal' is given 2 times"),
        ("/scopes/user/files/a.md?raw=1", "no query parameter 'raw': it takes reveal"),
        ("/scopes/user/files?limt=5", "no query parameter 'limt': it takes cursor, limit"),
        ("/scopes/user/changes?limit=5&befor=x", "no query parameter 'befor': it takes after, "
         "before, limit, since"),
    ],
)  # fmt: skip
async def test_a11_a_query_parameter_the_route_does_not_take_or_given_twice_is_400(
    client: Client, agent: AgentHome, route: str, detail: str
) -> None:
    (agent.user / "a.md").write_text("---\ndescription: a\n---\nAKIAABCDEFGHIJKLMNOP\n")
    await expect_problem(await client.get(memory_url() + route), 400, detail)


async def test_a11_the_documented_query_parameters_still_pass(
    client: Client, agent: AgentHome
) -> None:
    (agent.user / "a.md").write_text("---\ndescription: a\n---\nbody\n")
    await ok_json(await client.get(memory_url() + "?limit=5&cursor=user&q="))
    await ok_json(await client.get(memory_url() + "/search?q=body&scope=user&limit=3"))
    await ok_json(await client.get(file_url("user", "a.md") + "?reveal=true"))
    await ok_json(await client.get(AGENTS))


async def test_a11_the_page_and_the_operations_endpoints_take_any_query(client: Client) -> None:
    for path in ("/?utm_source=mail", "/healthz?probe=1", "/openapi.json?x=1&x=2"):
        response = await client.get(path)
        assert response.status == 200, path


def test_a11_every_route_that_reads_a_query_parameter_documents_it() -> None:
    """What the check takes is what OPENAPI lists: a parameter a route reads but the document
    does not list would be refused; these are the ones the routes read."""
    read = {name for operation in OPERATIONS.values() for name, *_ in operation.query}
    assert read == {"after", "before", "cursor", "from", "limit", "q", "reveal", "scope",
                    "since", "to", "typing"}  # fmt: skip
