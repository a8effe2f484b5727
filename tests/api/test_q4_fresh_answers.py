"""Q-4: the answer after a change on disk is the answer for the files as they are now.

Only what is read from a file is kept (:mod:`memory_api.store.stat_cache`), valid for that
file's version. Here, after a first request warms those caches, the agent's settings, the
Workspace's symlink, the scope folders, the marker, a topic file and the token files change on
disk the way another process would, and the very next request must show the change. The 2 s
"racily fresh" rule is lifted so the files these tests write a moment earlier are kept at all.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import stat_cache
from memory_api.store.tokens import TokenStore
from memory_core import layout
from memory_core.keys import key_for_real_path

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, real


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


async def _start(client: Client, workspace: Path | str) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


async def test_q4_session_start_sees_agent_settings_changed_on_disk(
    client: Client, agent: AgentHome
) -> None:
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [A](a.md) — note\n", encoding="utf-8")
    assert (await _start(client, workspace))["injected"] is True

    settings = layout.agent_dir(agent.data_dir, agent.id) / "agent.json"
    stored = json.loads(settings.read_text(encoding="utf-8"))
    stored["memory"]["enabled"] = False  # as another service process's PATCH would leave it
    settings.write_text(json.dumps(stored), encoding="utf-8")

    answer = await _start(client, workspace)
    assert answer["enabled"] is False and answer["injected"] is False and answer["memory"] == ""


async def test_q4_session_start_follows_a_workspace_symlink_repointed(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    first, first_key = agent.workspace("one")
    second, second_key = agent.workspace("two")
    link = tmp_path / "current"
    link.symlink_to(first)
    assert (await _start(client, link))["key"] == first_key

    link.unlink()
    link.symlink_to(second)  # `ln -sfn`: the same path now names another Workspace (K-1)
    assert (await _start(client, link))["key"] == second_key


async def test_q4_session_start_recreates_a_scope_removed_on_disk(
    client: Client, agent: AgentHome, tmp_path: Path
) -> None:
    workspace = tmp_path / "fresh"
    workspace.mkdir()
    key = key_for_real_path(real(workspace))
    await _start(client, workspace)
    scope = agent.root / key
    marker = scope / layout.MARKER_FILE
    assert marker.read_text(encoding="utf-8") == real(workspace) + "\n"

    for entry in scope.iterdir():  # the marker, and the mount point kept beside it (K-6a)
        entry.unlink()
    scope.rmdir()  # the agent cleaned up its memory folder by hand
    await _start(client, workspace)
    assert marker.read_text(encoding="utf-8") == real(workspace) + "\n"  # K-5


async def test_q4_session_start_sees_the_user_index_replaced(
    client: Client, agent: AgentHome
) -> None:
    workspace, _ = agent.workspace("app")
    index = agent.user / layout.INDEX_FILE
    agent.user.mkdir(parents=True, exist_ok=True)
    index.write_text("- [Old](old.md) — old user note\n", encoding="utf-8")
    assert "old user note" in (await _start(client, workspace))["memory"]

    swap = agent.user / "MEMORY.md.tmp"
    swap.write_text("- [New](new.md) — new user note\n", encoding="utf-8")
    swap.replace(index)  # an atomic replace, as editors save
    memory = (await _start(client, workspace))["memory"]
    assert "new user note" in memory and "old user note" not in memory


async def test_q4_a_token_file_edited_in_place_is_seen_by_the_next_request(
    client: Client, data_dir: Path
) -> None:
    """The token scan runs on the event loop while it is cheap; an edit is still seen (A-10)."""
    store = TokenStore(data_dir)
    _, secret = store.create("ci", ("acme",))
    headers = {"Authorization": f"Bearer {secret}"}
    assert (await ok_json(await client.get("/api/me", headers=headers)))["projects"] == ["acme"]
    assert (await ok_json(await client.get("/api/me", headers=headers)))["name"] == "ci"

    token_file = data_dir / "tokens" / "ci.json"
    stored = json.loads(token_file.read_text(encoding="utf-8"))
    stored["projects"] = ["globex"]
    token_file.write_text(json.dumps(stored), encoding="utf-8")
    assert (await ok_json(await client.get("/api/me", headers=headers)))["projects"] == ["globex"]


async def test_q4_a_kept_listing_row_follows_a_touch_and_a_credential_edit(
    client: Client, agent: AgentHome
) -> None:
    """Listing rows are kept with their parse (``TopicCache.summary``): a file touched or edited
    gets a new row, its new description masked (I-8)."""
    _, key = agent.workspace("app")
    topic = agent.root / key / "deploy.md"
    topic.write_text("---\nname: deploy\ndescription: how we ship\n---\nbody\n", encoding="utf-8")
    url = f"{memory_url()}/scopes/{key}/files"
    first = (await ok_json(await client.get(url)))["files"][0]

    later = topic.stat().st_mtime_ns + 60 * 10**9
    os.utime(topic, ns=(later, later))  # `touch -d`: only the times move
    touched = (await ok_json(await client.get(url)))["files"][0]
    assert touched["mtime"] != first["mtime"] and touched["description"] == "how we ship"

    topic.write_text(
        "---\nname: deploy\ndescription: token ghp_0123456789abcdefghijABCDEFGHIJ012345\n---\n",
        encoding="utf-8",
    )
    edited = (await ok_json(await client.get(url)))["files"][0]
    assert "ghp_0123456789abcdefghijABCDEFGHIJ012345" not in edited["description"]
    assert edited["size"] != first["size"]


async def test_q4_session_start_is_the_first_route_tried_under_api_projects(
    client: Client,
) -> None:
    """aiohttp tries the routes under one prefix in registration order, a regex match each: the
    hot Session start is registered first, so a warm one pays one match, not eight."""
    under = [
        resource.canonical
        for resource in client.app.router.resources()
        if resource.canonical.startswith("/api/projects")
    ]
    assert under[0] == "/api/projects/{project}/agents/{agent}/memory/session-start"
    assert len(under) == len(set(under)) > 8
