"""Q-2b, A-5, V-1: the user scope's folder moved away (``mv user user.moved``) while its history
holds notes is said, never made again empty on a read.

"The user scope is created on demand" (A-5) is for an agent that has none yet. Before, ``GET
…/scopes/user/files/c.md`` answered 404 "no topic file" and made an empty ``user/``; the next
delete then recorded "Changes found before a delete" with every note ``deleted``. Right: every
route answers 503 naming the scope gone while its history holds its notes, and makes nothing;
a user scope that never held a note is still made on demand.
"""

from __future__ import annotations

import shutil

from tests.api.conftest import AgentHome, Client, copy_corpus, expect_problem, file_url, memory_url

GONE = (
    "scope 'user' of agent 'coder' is not there and the service finds no folder of it, while "
    "its history holds"
)


async def test_q2b_a_user_scope_moved_away_is_said_and_never_made_again(
    client: Client, agent: AgentHome
) -> None:
    names = [name for name in copy_corpus("user-scope", agent.user) if name != "MEMORY.md"]
    url = f"{memory_url()}/checkpoint"
    assert (await client.post(url, json={})).status in (200, 201)
    shutil.move(agent.user, agent.root / "user.moved")

    for answer in (
        await client.get(file_url("user", names[0])),
        await client.get(f"{memory_url()}/scopes/user/files"),
        await client.delete(file_url("user", names[0])),
    ):
        body = await expect_problem(answer, 503, GONE)
        assert "put it back" in body["detail"]

    overview = await client.get(memory_url())
    assert overview.status == 200  # the user row says it, the page still opens
    (row,) = [scope for scope in (await overview.json())["scopes"] if scope["key"] == "user"]
    assert "finds no folder of it, while its history holds" in row["unreadable"]
    assert not agent.user.exists()


async def test_a5_a_user_scope_that_never_held_a_note_is_still_made_on_demand(
    client: Client, agent: AgentHome
) -> None:
    url = f"{memory_url()}/checkpoint"
    await client.post(url, json={})
    agent.user.rmdir()

    answer = await client.get(f"{memory_url()}/scopes/user/files")

    assert answer.status == 200, await answer.text()
    assert agent.user.is_dir()


async def test_q2b_a_session_start_makes_no_user_scope_moved_away_nor_records_it_deleted(
    client: Client, agent: AgentHome
) -> None:
    copy_corpus("user-scope", agent.user)
    assert (await client.post(f"{memory_url()}/checkpoint", json={})).status in (200, 201)
    shutil.move(agent.user, agent.root / "user.moved")
    started = await client.post(f"{memory_url()}/session-start", json={"workspace": str(agent.tmp)})

    body = await started.json()
    (user,) = [m for m in body["manifests"] if m["scope"] == "user"]
    assert "finds no folder of it, while its history holds" in (user["uncreated"] or "")
    assert not agent.user.exists()
