"""A-4 the template placeholder insert: I-7 placement, idempotent, Q-2a ten at once insert once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from memory_core.template import KEY_LINE, MEMORY_PLACEHOLDER

from tests.api.conftest import (
    PLAIN_TEMPLATE,
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    memory_url,
    ok_json,
)

EXPECTED = (
    f"You are Coder.\n\n{MEMORY_PLACEHOLDER}\n\n# Environment\n{KEY_LINE}\n- CWD: {{{{CWD}}}}\n"
)


async def test_a4_insert_places_both_lines_and_reports_the_change(
    client: Client, agent: AgentHome
) -> None:
    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    url = f"{memory_url(agent='legacy')}/template-placeholder"

    first = await ok_json(await client.post(url))
    second = await ok_json(await client.post(url))

    assert first == {"template": EXPECTED, "changed": True}
    assert second == {"template": EXPECTED, "changed": False}
    config = await ok_json(await client.get(f"/api/projects/{agent.project}/agents/legacy/config"))
    assert config["template"] == EXPECTED
    overview = await ok_json(await client.get(memory_url(agent="legacy")))
    assert overview["templateHasMemory"] is True


async def test_a4_template_that_has_it_already_is_not_changed(
    client: Client, agent: AgentHome
) -> None:
    before = await ok_json(await client.get(f"/api/projects/{agent.project}/agents/coder/config"))

    answer = await ok_json(await client.post(f"{memory_url()}/template-placeholder"))

    assert answer == {"template": before["template"], "changed": False}


async def test_q2a_ten_concurrent_inserts_insert_once(client: Client, agent: AgentHome) -> None:
    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    url = f"{memory_url(agent='legacy')}/template-placeholder"

    responses = await asyncio.gather(*(client.post(url) for _ in range(10)))

    answers = [await ok_json(response) for response in responses]
    assert sum(answer["changed"] for answer in answers) == 1
    assert all(answer["template"] == EXPECTED for answer in answers)
    config = await ok_json(await client.get(f"/api/projects/{agent.project}/agents/legacy/config"))
    assert config["template"].count(MEMORY_PLACEHOLDER) == 1
    assert config["template"].count(KEY_LINE) == 1


async def test_a4_unknown_agent_is_404_and_bad_id_400(client: Client, agent: AgentHome) -> None:
    await expect_problem(
        await client.post(f"{memory_url(agent='nobody')}/template-placeholder"), 404, "'nobody'"
    )
    await expect_problem(
        await client.post(f"{memory_url(agent='No_Body')}/template-placeholder"),
        400,
        "invalid agent",
    )


async def test_q2a_a_config_moved_away_before_the_insert_is_written_is_never_said_changed(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``agent.json`` moved away (``mv``) after the insert read and edited it, before its
    write: nothing was written, so the answer is 409 "try again", never 200 ``changed: true``
    (review rv-del70)."""
    from memory_core import file_edit

    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    check = file_edit._check_writable
    moved: list[Path] = []

    def moved_first(path: Path) -> None:
        if path.name == "agent.json" and not moved:
            moved.append(path)
            path.rename(path.with_name("agent.json.bak"))
        check(path)

    monkeypatch.setattr(file_edit, "_check_writable", moved_first)

    url = f"{memory_url(agent='legacy')}/template-placeholder"
    problem = await expect_problem(await client.post(url), 409, "moved or removed")

    assert "try again" in problem["detail"]
    assert not moved[0].exists()
    assert MEMORY_PLACEHOLDER not in moved[0].with_name("agent.json.bak").read_text("utf-8")
