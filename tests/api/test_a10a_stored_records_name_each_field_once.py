"""A-10a, A-1: a stored record naming one field twice is no record, never read by its last.

A request body naming a member twice is a 400 (RFC 8259 4: readers disagree on which value
counts). The records the service keeps on disk were decoded by msgspec, which keeps the last
value silently: a token file edited by hand to ``{…, "projects": ["other"], …, "projects":
null}`` reached every project, while ``memory-api token list``'s reader, a person or a review
of the file seeing the first ``projects``, took it for a token of ``other`` alone; an
``agent.json`` naming ``"project"`` twice served the agent in the project named last. Such a
token file is one that cannot be read (A-10a: the readable tokens work, an unknown one is
503), such an agent's settings are invalid (503 naming the field); neither is guessed at.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from memory_api.store.tokens import TokenStore

from tests.api.conftest import PROJECT, AgentHome, Client, bearer, expect_problem

SECRET = "hand-edited-secret-0123456789abcdef"


def _fields(**fields: object) -> str:
    """A JSON object's members, without its braces, for joining a second one by hand."""
    return json.dumps(fields)[1:-1]


async def test_a10a_a_token_file_naming_projects_twice_is_unreadable_and_reaches_nothing(
    client: Client, agent: AgentHome
) -> None:
    digest = hashlib.sha256(SECRET.encode()).hexdigest()
    record = "{" + _fields(name="ops", sha256=digest, projects=["other"]) + ', "projects": null}'
    (agent.data_dir / "tokens").mkdir(exist_ok=True)
    (agent.data_dir / "tokens" / "ops.json").write_text(record, encoding="utf-8")

    answer = await client.get(f"/api/projects/{PROJECT}/agents", headers=bearer(SECRET))

    await expect_problem(answer, 503, "bearer tokens cannot be read")
    known = TokenStore(agent.data_dir).known()
    assert known.unreadable is not None
    assert "tokens/ops.json: not a token record (it names the field 'projects' twice" in (
        known.unreadable
    )
    _, readable = TokenStore(agent.data_dir).create("good", None)
    still = await client.get(f"/api/projects/{PROJECT}/agents", headers=bearer(readable))
    assert still.status == 200, await still.text()


async def test_a1_an_agent_file_naming_its_project_twice_is_invalid_not_moved(
    client: Client, agent: AgentHome
) -> None:
    stored = agent.data_dir / "agents" / agent.id / "agent.json"
    text = stored.read_text(encoding="utf-8")
    stored.write_text(text[: text.rindex("}")] + ', "project": "other"}', encoding="utf-8")

    answer = await client.get(f"/api/projects/{PROJECT}/agents/{agent.id}/config")
    elsewhere = await client.get(f"/api/projects/other/agents/{agent.id}/config")

    await expect_problem(answer, 503, "names the field 'project' twice")
    assert elsewhere.status in (404, 503)


@pytest.mark.parametrize("filler", ["9" * 4301, "[" * 5000 + "]" * 5000])
async def test_a1_an_agent_file_naming_its_project_twice_is_invalid_whatever_else_it_holds(
    client: Client, agent: AgentHome, filler: str
) -> None:
    """A value Python's ``json`` could not read (a 4301-digit number: its digit limit; lists
    5000 deep: its recursion limit) beside a second ``project`` let the agent be served in the
    project named last, or failed the request (500)."""
    stored = agent.data_dir / "agents" / agent.id / "agent.json"
    text = stored.read_text(encoding="utf-8")
    edited = text[: text.rindex("}")] + f', "note": {filler}, "project": "other"}}'
    stored.write_text(edited, encoding="utf-8")

    elsewhere = await client.get(f"/api/projects/other/agents/{agent.id}/config")

    assert elsewhere.status in (404, 503), await elsewhere.text()
