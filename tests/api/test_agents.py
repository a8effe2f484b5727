"""A-1 agents list and create, K-6 the user scope comes with the agent."""

from __future__ import annotations

from pathlib import Path

from memory_core.template import KEY_LINE, MEMORY_PLACEHOLDER

from tests.api.conftest import (
    AGENT,
    JSON_TYPE,
    PROJECT,
    AgentHome,
    Client,
    copy_corpus,
    corpus_topics,
    create_agent,
    expect_problem,
    ok_json,
)

AGENTS = f"/api/projects/{PROJECT}/agents"


async def test_a1_create_answers_201_with_config_etag_and_location(client: Client) -> None:
    response = await client.post(AGENTS, json={"id": "coder", "name": "  Coder  "})
    body = await ok_json(response, 201)
    assert response.headers["Location"] == f"{AGENTS}/coder/config"
    assert response.headers["ETag"].startswith('"')
    assert body["id"] == "coder"
    assert body["project"] == PROJECT
    assert body["name"] == "Coder"
    assert body["memory"]["enabled"] is True
    assert body["memory"]["promptIsDefault"] is True


async def test_a1_default_template_holds_memory_and_environment(
    client: Client, data_dir: Path
) -> None:
    body = await ok_json(await client.post(AGENTS, json={"id": "coder", "name": "Coder"}), 201)
    template = body["template"]
    assert MEMORY_PLACEHOLDER in template
    assert "# Environment" in template
    assert KEY_LINE in template
    assert "- App data dir: {{APP_DATA_DIR}}" in template and str(data_dir) not in template
    assert "- Agent id: coder" in template
    assert template.index(MEMORY_PLACEHOLDER) < template.index("# Environment")


async def test_a1_given_template_is_kept_verbatim(client: Client) -> None:
    template = "You are terse.\r\n# Environment\r\n- CWD: {{CWD}}\r\n"
    body = await ok_json(
        await client.post(AGENTS, json={"id": "coder", "name": "C", "template": template}), 201
    )
    assert body["template"] == template


async def test_k6_create_makes_user_scope_and_workspaces_dirs(agent: AgentHome) -> None:
    assert agent.user.is_dir()
    assert (agent.data_dir / "agents" / AGENT / "workspaces").is_dir()
    assert (agent.data_dir / "agents" / AGENT / "agent.json").is_file()


async def test_a1_list_counts_topic_files_over_every_scope(
    client: Client, agent: AgentHome
) -> None:
    copy_corpus("user-scope", agent.user)
    agent.workspace("shop-api", "coding-agent-workspace")
    (agent.user / ".hidden.md").write_text("x", encoding="utf-8")
    (agent.user / "folder.md").mkdir()
    await create_agent(client, "reviewer")
    body = await ok_json(await client.get(AGENTS))
    assert [a["id"] for a in body["agents"]] == ["coder", "reviewer"]
    coder = body["agents"][0]
    expected = len(corpus_topics("user-scope")) + len(corpus_topics("coding-agent-workspace"))
    assert coder == {
        "id": "coder",
        "project": PROJECT,
        "name": "Coder",
        "memoryEnabled": True,
        "memoryCount": expected,
    }
    assert body["agents"][1]["memoryCount"] == 0


async def test_a1_list_shows_only_the_projects_agents(client: Client) -> None:
    await create_agent(client, "coder")
    await create_agent(client, "other", project="elsewhere")
    assert [a["id"] for a in (await ok_json(await client.get(AGENTS)))["agents"]] == ["coder"]
    empty = await ok_json(await client.get("/api/projects/nobody/agents"))
    assert empty == {"agents": []}  # no "unreadable": a plugin before A-11 refuses it


async def test_a1_id_taken_is_409_even_in_another_project(client: Client) -> None:
    await create_agent(client, "coder")
    response = await client.post(
        "/api/projects/other/agents", json={"id": "coder", "name": "Again"}
    )
    body = await expect_problem(response, 409, "taken")
    assert "acme" not in body["detail"]


async def test_a1_creating_an_agent_again_in_its_project_says_it_exists(client: Client) -> None:
    await create_agent(client, "coder")
    response = await client.post(AGENTS, json={"id": "coder", "name": "Again"})
    await expect_problem(response, 409, "agent 'coder' exists already in project 'acme'")


async def test_a1_bad_agent_id_is_400_before_any_write(client: Client, data_dir: Path) -> None:
    response = await client.post(AGENTS, json={"id": "../evil", "name": "X"})
    await expect_problem(response, 400, "invalid agent")
    assert not (data_dir / "evil").exists()


async def test_a1_bad_project_id_is_400(client: Client) -> None:
    await expect_problem(
        await client.post("/api/projects/Acme/agents", json={"id": "a", "name": "A"}),
        400,
        "invalid project",
    )
    await expect_problem(await client.get("/api/projects/Acme/agents"), 400, "invalid project")


async def test_a1_empty_name_is_400(client: Client) -> None:
    await expect_problem(
        await client.post(AGENTS, json={"id": "coder", "name": "   "}), 400, "name"
    )


async def test_a1_wrong_body_shape_is_422(client: Client) -> None:
    await expect_problem(await client.post(AGENTS, json={"id": "coder", "name": 3}), 422, "$.name")
    await expect_problem(
        await client.post(AGENTS, json={"id": "coder", "name": "x", "colour": "red"}),
        422,
        "colour",
    )
    await expect_problem(await client.post(AGENTS, json={"name": "x"}), 422, "id")


async def test_a1_broken_json_is_400_and_empty_body_is_400(client: Client) -> None:
    await expect_problem(
        await client.post(AGENTS, data=b"{not json", headers=JSON_TYPE), 400, "not valid JSON"
    )
    await expect_problem(await client.post(AGENTS, data=b"", headers=JSON_TYPE), 400, "empty")
