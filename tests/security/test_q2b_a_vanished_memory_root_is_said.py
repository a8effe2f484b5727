"""Q-2b, V-1, K-6: an agent's memory root moved away (``agent_state/memory`` gone, its history
still holding scopes) is said, never shown as an empty memory: the overview answered 200 with
a user scope of 0 files, the agents list counted 0 memories with no word, and that very read
made the root again; a Session start then recorded every file as removed and made a fresh
empty scope. No read nor Session start makes it again now; each names it, and nothing is
recorded as removed while it is gone. A Workspace scope the history holds answers 503 with
those words on every scope route (it said 404 "no scope"), and a search names each such scope.
"""

from __future__ import annotations

import shutil

from memory_api.appkeys import get_history_store

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    memory_url,
    ok_json,
    write_topic,
)

VANISHED = (
    "finds no memory root (the folder of the agent's scopes), while its history holds 2 scopes "
    "({scopes}): it was moved or deleted, and nothing is made in its place; an operator must "
    "put it back (or make it again, empty, to start with no memory: the next Session start "
    "records every file as removed)"
)


async def _moved_away(client: Client, agent: AgentHome) -> tuple[str, str, str]:
    """A user scope and a Workspace scope, each with a file and recorded; then the memory root
    moved away. Returns the Workspace path, its key and the notice expected."""
    write_topic(agent.user, "prefers-pnpm.md")
    workspace, key = agent.workspace("shop")
    write_topic(agent.root / key, "uses-make.md")
    await ok_json(await client.post(f"{memory_url()}/checkpoint"))
    shutil.move(agent.root, agent.tmp / "away")
    scopes = ", ".join(repr(name) for name in sorted([key, "user"]))
    return str(workspace), key, VANISHED.format(scopes=scopes)


async def test_q2b_reads_name_a_vanished_memory_root_and_never_make_it_again(
    client: Client, agent: AgentHome
) -> None:
    _, key, why = await _moved_away(client, agent)

    overview = await ok_json(await client.get(memory_url()))
    user = overview["scopes"][0]
    assert (user["key"], user["unreadable"], user["fileCount"]) == ("user", why, 0)
    listed = await ok_json(await client.get("/api/projects/acme/agents"))
    coder = next(item for item in listed["agents"] if item["id"] == agent.id)
    assert (coder["memoryCount"], coder["unreadable"]) == (
        0,
        f"the service {why}: its memories are not counted",
    )
    found = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "prefers"}))
    assert [item["file"] for item in found["unreadable"]] == ["user/", f"{key}/"]
    assert all(why in item["message"] for item in found["unreadable"])
    await expect_problem(await client.get(f"{memory_url()}/scopes/user/files"), 503, why)
    for scope in ("user", key):  # the history holds it: never 404 "no scope" (docs say 503)
        for route in ("files", "index", "deleted"):
            await expect_problem(
                await client.get(f"{memory_url()}/scopes/{scope}/{route}"), 503, why
            )
        await expect_problem(
            await client.get(f"{memory_url()}/search", params={"q": "uses", "scope": scope}),
            503,
            why,
        )
        await expect_problem(
            await client.post(f"{memory_url()}/scopes/{scope}/checkpoint"), 503, why
        )
    never = "never-0123abcd"  # a scope no history holds: still none
    await expect_problem(await client.get(f"{memory_url()}/scopes/{never}/files"), 404, never)
    recorded = await ok_json(await client.post(f"{memory_url()}/checkpoint"))
    assert {item["scope"]: (item["version"], item["skipped"]) for item in recorded["scopes"]} == {
        "user": (None, why),
        key: (None, why),
    }

    assert not agent.root.exists()  # no read made it again


async def test_q2b_a_session_start_over_a_vanished_root_says_so_and_records_no_removal(
    client: Client, agent: AgentHome
) -> None:
    workspace, key, why = await _moved_away(client, agent)

    started = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": workspace})
    )
    await get_history_store(client.app).idle()

    assert {item["scope"]: item.get("uncreated") for item in started["manifests"]} == {
        "user": why,
        key: why,
    }
    assert "Nothing saved yet" not in started["memory"]
    assert not agent.root.exists()
    shutil.move(agent.tmp / "away", agent.root)  # put back: every file still in its history
    for scope in ("user", key):
        newest = await ok_json(await client.get(f"{memory_url()}/scopes/{scope}/changes"))
        assert [item["author"]["source"] for item in newest["versions"]] == ["checkpoint"]
