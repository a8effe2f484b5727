"""A-9 Session start: K-4 temporary Workspaces, K-5 first Session, K-6 user scope, I-5 off."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

from memory_api.store.workspace_mount import mount_point
from memory_core import layout
from memory_core.keys import key_for_real_path
from memory_core.template import OFF_KEY_VALUE, TEMPORARY_KEY_VALUE

from tests.api.conftest import (
    JSON_TYPE,
    PLAIN_TEMPLATE,
    AgentHome,
    Client,
    create_agent,
    expect_problem,
    memory_url,
    names,
    ok_json,
    real,
)
from tests.support.mount_namespace import mount_origin

USER_LINE = "- [Prefers pnpm](prefers-pnpm.md) — use pnpm, never npm or yarn, in every JS repo"


async def start(client: Client, workspace: Path | str, agent: str = "coder") -> dict[str, Any]:
    response = await client.post(
        f"{memory_url(agent=agent)}/session-start",
        json={"workspace": str(workspace), "sessionId": "s-1"},
    )
    return await ok_json(response)


def scopes(agent: AgentHome) -> list[str]:
    return names(agent.root)


async def test_k5_first_session_in_a_persistent_workspace_creates_scope_and_marker(
    client: Client, corpus_user: AgentHome
) -> None:
    workspace = corpus_user.tmp / "src" / "my-app"
    workspace.mkdir(parents=True)
    key = key_for_real_path(real(workspace))

    answer = await start(client, workspace)

    scope = corpus_user.root / key
    # the marker and nothing else (K-5) but the mount point the Workspace lies on, that
    # filesystem's device and what tells its mount from another one (K-6a)
    assert names(scope) == [layout.MARKER_FILE, layout.MOUNT_FILE]
    mounted_on = (scope / layout.MOUNT_FILE).read_text(encoding="utf-8")
    assert mounted_on == (
        f"{mount_point(real(workspace))}\n{workspace.stat().st_dev}\n"
        f"{mount_origin(Path(real(workspace)))}\n"
    )
    assert (scope / layout.MARKER_FILE).read_text(encoding="utf-8") == (real(workspace) + "\n")
    assert answer["enabled"] is True
    assert answer["injected"] is True
    assert answer["templateHasMemory"] is True
    assert answer["workspaceKind"] == "persistent"
    assert answer["key"] == key
    assert answer["workspaceMemoryKey"] == key
    assert "## User memory" in answer["memory"]
    assert "## Workspace memory" in answer["memory"]
    assert USER_LINE in answer["memory"]
    assert "Nothing saved yet" in answer["memory"]  # the new Workspace index (I-3)
    assert answer["directories"] == {
        "appDataDir": real(corpus_user.data_dir),
        "memoryRoot": str(corpus_user.root),
        "user": str(corpus_user.user),
        "workspace": str(scope),
    }
    assert [manifest["scope"] for manifest in answer["manifests"]] == ["user", key]
    assert answer["manifests"][0]["linesTotal"] == 6
    assert answer["manifests"][1]["linesTotal"] == 0


async def test_k3_a_symlink_to_the_workspace_gives_the_same_key(
    client: Client, agent: AgentHome
) -> None:
    target = agent.tmp / "src" / "real-app"
    target.mkdir(parents=True)
    link = agent.tmp / "link-app"
    link.symlink_to(target)

    through_link = await start(client, link)
    direct = await start(client, target)

    assert through_link["key"] == direct["key"] == key_for_real_path(real(target))
    assert scopes(agent) == sorted(["user", direct["key"]])
    assert (agent.root / direct["key"] / layout.MARKER_FILE).read_text(encoding="utf-8") == (
        real(target) + "\n"
    )


async def test_k4_temporary_workspace_of_this_agent_gets_the_user_scope_only(
    client: Client, corpus_user: AgentHome
) -> None:
    temporary = corpus_user.data_dir / "agents" / "coder" / "workspaces" / "session-42"
    temporary.mkdir(parents=True)

    answer = await start(client, temporary)

    assert answer["workspaceKind"] == "temporary"
    assert answer["key"] is None
    assert answer["workspaceMemoryKey"] == TEMPORARY_KEY_VALUE == "(none — temporary workspace)"
    assert "## User memory" in answer["memory"]
    assert "## Workspace memory" not in answer["memory"]
    assert USER_LINE in answer["memory"]
    assert answer["directories"]["workspace"] is None
    assert [manifest["scope"] for manifest in answer["manifests"]] == ["user"]
    assert scopes(corpus_user) == ["user"]


async def test_k4_subagent_in_another_agents_temporary_workspace_gets_no_scope(
    client: Client, agent: AgentHome
) -> None:
    await create_agent(client, "parent")
    parents = agent.data_dir / "agents" / "parent" / "workspaces" / "run-7" / "checkout"
    parents.mkdir(parents=True)

    answer = await start(client, parents)

    assert answer["workspaceKind"] == "temporary"
    assert answer["workspaceMemoryKey"] == "(none — temporary workspace)"
    assert "## Workspace memory" not in answer["memory"]
    assert scopes(agent) == ["user"]


async def test_i5_memory_off_prepares_nothing(client: Client, agent: AgentHome) -> None:
    response = await client.patch(
        f"/api/projects/{agent.project}/agents/{agent.id}/config",
        json={"memory": {"enabled": False}},
    )
    assert response.status == 200, await response.text()
    shutil.rmtree(agent.user)
    workspace = agent.tmp / "src" / "my-app"
    workspace.mkdir(parents=True)

    answer = await start(client, workspace)

    assert answer["enabled"] is False
    assert answer["injected"] is False
    assert answer["memory"] == ""
    assert answer["workspaceKind"] == "off"
    assert answer["key"] is None
    assert answer["workspaceMemoryKey"] == OFF_KEY_VALUE == "(none — memory is off)"
    assert answer["manifests"] == []
    assert answer["directories"]["user"] is None
    assert answer["directories"]["workspace"] is None
    assert names(agent.root) == []


async def test_k5_marker_naming_another_path_is_kept_and_reported(
    client: Client, agent: AgentHome
) -> None:
    workspace = agent.tmp / "src" / "my-app"
    workspace.mkdir(parents=True)
    key = key_for_real_path(real(workspace))
    marker = agent.root / key / layout.MARKER_FILE
    marker.parent.mkdir()
    marker.write_text("/old/place/my-app\n", encoding="utf-8")

    answer = await start(client, workspace)

    assert answer["key"] == key
    assert marker.read_text(encoding="utf-8") == "/old/place/my-app\n"
    overview = await ok_json(await client.get(memory_url()))
    scope = next(scope for scope in overview["scopes"] if scope["key"] == key)
    assert scope["workspacePath"] == "/old/place/my-app"
    assert any("/old/place/my-app" in problem for problem in scope["markerProblems"])


async def test_i5_template_without_placeholder_injects_nothing(
    client: Client, agent: AgentHome
) -> None:
    await create_agent(client, "legacy", template=PLAIN_TEMPLATE)
    workspace = agent.tmp / "src" / "my-app"
    workspace.mkdir(parents=True)

    answer = await start(client, workspace, agent="legacy")

    assert answer["enabled"] is True
    assert answer["templateHasMemory"] is False
    assert answer["injected"] is False
    assert answer["memory"] == ""
    assert answer["workspaceMemoryKey"] == answer["key"]


async def test_k6_session_start_recreates_a_missing_user_scope(
    client: Client, agent: AgentHome
) -> None:
    shutil.rmtree(agent.user)
    temporary = agent.data_dir / "agents" / "coder" / "workspaces" / "t1"
    temporary.mkdir(parents=True)

    answer = await start(client, temporary)

    assert agent.user.is_dir()
    assert "Nothing saved yet" in answer["memory"]


async def test_a9_workspace_index_is_injected_and_capped(client: Client, agent: AgentHome) -> None:
    path, key = agent.workspace("big", corpus="large-index")

    answer = await start(client, path)

    manifest = answer["manifests"][1]
    assert manifest["scope"] == key
    assert manifest["linesTotal"] == 260
    assert manifest["capFired"] in ("lines", "chars")
    assert manifest["linesKept"] + manifest["linesDropped"] == 260
    assert "Truncated" in answer["memory"]
    assert "- [review index 0](note-000-review-index.md)" in answer["memory"]


async def test_a9_bad_bodies_are_4xx_problems(client: Client, agent: AgentHome) -> None:
    url = f"{memory_url()}/session-start"
    await expect_problem(await client.post(url, json={"workspace": "src/app"}), 400, "absolute")
    await expect_problem(await client.post(url, json={"workspace": "/a\u0000b"}), 400, "NUL")
    await expect_problem(await client.post(url, json={}), 422, "workspace")
    await expect_problem(await client.post(url, json={"workspace": "/x", "extra": 1}), 422, "extra")
    await expect_problem(
        await client.post(url, data=b"{not json", headers=JSON_TYPE), 400, "not valid JSON"
    )
    await expect_problem(await client.post(url, data=b"", headers=JSON_TYPE), 400, "empty")
    too_big = b'{"workspace": "/' + b"x" * (2 * 1024 * 1024) + b'"}'
    response = await client.post(url, data=io.BytesIO(too_big), headers=JSON_TYPE)
    await expect_problem(response, 413, "larger than the limit")
    long_path = {"workspace": "/" + "x" * 5000}
    await expect_problem(await client.post(url, json=long_path), 400, "at most 4096 bytes")
    await expect_problem(
        await client.post(memory_url(agent="nobody") + "/session-start", json={"workspace": "/x"}),
        404,
        "'nobody'",
    )
    assert scopes(agent) == ["user"]


async def test_k7_a_refused_id_or_workspace_is_refused_every_time(
    client: Client, agent: AgentHome
) -> None:
    """The same bad request is answered 400 again, after good ones with the same parts."""
    workspace, _key = agent.workspace("app")
    good = {"workspace": str(workspace)}
    bad_agent = memory_url(agent="Coder") + "/session-start"
    for _ in range(2):
        await ok_json(await client.post(f"{memory_url()}/session-start", json=good))
        await expect_problem(await client.post(bad_agent, json=good), 400, "invalid agent")
        response = await client.post(f"{memory_url()}/session-start", json={"workspace": "app"})
        await expect_problem(response, 400, "absolute")
