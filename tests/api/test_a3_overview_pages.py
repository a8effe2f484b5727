"""A-3 at scale (issue 30): the overview answers a page of scopes in the order of the whole, with
totals for every scope, a cursor to the next page and a group search; only the page is read.

The caches keep even brand-new files and folders here (the 2 s "racily fresh" rule would keep
what these tests write out of them), so a change on disk must be seen through them.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import stat_cache
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    copy_corpus,
    corpus_topics,
    expect_problem,
    memory_url,
    ok_json,
    write_topic,
)
from tests.support.file_clock import next_file_tick

BASE_TIME = 1_700_000_000


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files and folders written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


def touch(scope: Path, when: float) -> None:
    """Make ``scope``'s folder, index and files look last changed at ``when``."""
    for path in scope.iterdir():
        os.utime(path, (when, when), follow_symlinks=False)
    os.utime(scope, (when, when))


def workspaces(agent: AgentHome, count: int, *, files: int = 1) -> list[str]:
    """Make ``count`` Workspace scopes, each with ``files`` topic files and an index linking
    them, the later ones more recently active; their keys, newest first."""
    keys = []
    for number in range(count):
        _, key = agent.workspace(f"repo-{number:03d}")
        scope = agent.root / key
        names = [f"note-{n}.md" for n in range(files)]
        for name in names:
            write_topic(scope, name)
        lines = "".join(f"- [{name}]({name}) — a note\n" for name in names)
        (scope / layout.INDEX_FILE).write_text(lines, encoding="utf-8")
        touch(scope, BASE_TIME + number * 60)
        keys.append(key)
    return keys[::-1]


async def pages(client: Client, **params: str) -> list[dict[str, Any]]:
    """Every page of the overview, following ``nextCursor`` from the first."""
    found = []
    cursor = None
    while True:
        query = dict(params) | ({"cursor": cursor} if cursor else {})
        page = await ok_json(await client.get(memory_url(), params=query))
        found.append(page)
        cursor = page["nextCursor"]
        if cursor is None:
            return found


async def test_a3_pages_reach_every_scope_once_in_order(
    client: Client, corpus_user: AgentHome
) -> None:
    newest_first = workspaces(corpus_user, 7, files=2)

    found = await pages(client, limit="3")

    keys = [scope["key"] for page in found for scope in page["scopes"]]
    assert keys == ["user", *newest_first]
    assert [len(page["scopes"]) for page in found] == [3, 3, 2]
    assert found[-1]["nextCursor"] is None
    for page in found:
        assert page["totals"] == {
            "scopes": 8,
            "files": len(corpus_topics("user-scope")) + 7 * 2,
            "matching": 8,
        }
        assert page["enabled"] is True
        assert page["templateHasMemory"] is True


async def test_a3_without_limit_a_page_of_100_and_its_cursor(
    client: Client, agent: AgentHome
) -> None:
    workspaces(agent, 101)

    first = await ok_json(await client.get(memory_url()))

    assert len(first["scopes"]) == 100
    assert first["scopes"][0]["key"] == "user"
    assert first["totals"]["scopes"] == 102
    rest = await ok_json(await client.get(memory_url(), params={"cursor": first["nextCursor"]}))
    assert len(rest["scopes"]) == 2
    assert rest["nextCursor"] is None


async def test_a3_a_scope_active_between_pages_moves_to_the_top_not_twice(
    client: Client, agent: AgentHome
) -> None:
    newest_first = workspaces(agent, 5)
    first = await ok_json(await client.get(memory_url(), params={"limit": "3"}))
    assert [s["key"] for s in first["scopes"]] == ["user", *newest_first[:2]]

    oldest = newest_first[-1]  # not shown yet: a new memory makes it the newest
    write_topic(agent.root / oldest, "fresh.md")
    rest = await ok_json(
        await client.get(memory_url(), params={"limit": "3", "cursor": first["nextCursor"]})
    )
    again = await ok_json(await client.get(memory_url(), params={"limit": "3"}))

    assert [s["key"] for s in rest["scopes"]] == newest_first[2:4]
    assert [s["key"] for s in again["scopes"]] == ["user", oldest, newest_first[0]]


async def test_a3_activity_is_the_folder_or_the_index_whichever_is_newer(
    client: Client, agent: AgentHome
) -> None:
    older, newer = workspaces(agent, 2)[::-1]
    index = agent.root / older / layout.INDEX_FILE
    index.write_text(index.read_text(encoding="utf-8") + "- a line the agent appended\n")
    os.utime(index, (BASE_TIME + 3600, BASE_TIME + 3600))

    overview = await ok_json(await client.get(memory_url()))

    keys = [scope["key"] for scope in overview["scopes"]]
    assert keys == ["user", older, newer]
    assert overview["scopes"][1]["lastActivity"] == "2023-11-14T23:13:20Z"


async def test_a3_group_search_by_name_path_or_key_case_insensitive(
    client: Client, agent: AgentHome
) -> None:
    _, shop = agent.workspace("Shop-API")
    _, docs = agent.workspace("team-docs")
    workspaces(agent, 4)

    by_name = await ok_json(await client.get(memory_url(), params={"q": "shop-api"}))
    by_path = await ok_json(await client.get(memory_url(), params={"q": "SRC/TEAM"}))
    by_key = await ok_json(await client.get(memory_url(), params={"q": docs[-8:]}))
    user = await ok_json(await client.get(memory_url(), params={"q": "User Mem"}))
    nothing = await ok_json(await client.get(memory_url(), params={"q": "no such group"}))
    every = await ok_json(await client.get(memory_url(), params={"q": ""}))

    assert [s["key"] for s in by_name["scopes"]] == [shop]
    assert by_name["scopes"][0]["title"] == "Shop-API"
    assert by_name["totals"] == {"scopes": 7, "files": 4, "matching": 1}
    assert [s["key"] for s in by_path["scopes"]] == [docs]
    assert [s["key"] for s in by_key["scopes"]] == [docs]
    assert [s["key"] for s in user["scopes"]] == ["user"]
    assert nothing["scopes"] == []
    assert nothing["totals"]["matching"] == 0
    assert every["totals"]["matching"] == 7


async def test_a3_group_search_pages_too(client: Client, agent: AgentHome) -> None:
    newest_first = workspaces(agent, 6)

    found = await pages(client, q="repo-", limit="4")

    assert [s["key"] for page in found for s in page["scopes"]] == newest_first
    assert found[0]["totals"]["matching"] == 6


async def test_a3_only_the_page_is_read(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Totals and order come from folder listings and stats: no other index is read."""
    workspaces(agent, 12)
    from memory_api.store import scope_files
    from memory_api.store.scopes import read_index_text

    read: list[Path] = []

    def counting(root: Path, scope: Path) -> Any:
        read.append(scope)
        return read_index_text(root, scope)

    monkeypatch.setattr(scope_files, "read_index_text", counting)

    page = await ok_json(await client.get(memory_url(), params={"limit": "3"}))

    assert page["totals"]["files"] == 12
    assert {scope.name for scope in read} <= {s["key"] for s in page["scopes"]}


async def test_a3_totals_follow_the_disk_at_once(client: Client, agent: AgentHome) -> None:
    """A file created, renamed or deleted by anyone is counted by the next request (Q-4)."""
    (key,) = workspaces(agent, 1, files=2)
    scope = agent.root / key
    before = await ok_json(await client.get(memory_url()))

    write_topic(scope, "third.md")
    created = await ok_json(await client.get(memory_url()))
    next_file_tick(agent.tmp)  # a change in the very tick the folder was listed in is racy
    (scope / "third.md").rename(scope / "renamed.md")
    renamed = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/files"))
    next_file_tick(agent.tmp)
    (scope / "note-0.md").unlink()
    deleted = await ok_json(await client.get(memory_url()))

    assert before["totals"]["files"] == 2
    assert created["totals"]["files"] == 3
    assert "renamed.md" in [row["file"] for row in renamed["files"]]
    assert deleted["totals"]["files"] == 2
    assert deleted["scopes"][1]["fileCount"] == 2


async def test_a3_one_scope_wherever_it_stands(client: Client, agent: AgentHome) -> None:
    keys = workspaces(agent, 5, files=3)
    copy_corpus("user-scope", agent.user)

    oldest = await ok_json(await client.get(f"{memory_url()}/scopes/{keys[-1]}"))
    user = await ok_json(await client.get(f"{memory_url()}/scopes/user"))
    listed = await pages(client)

    assert oldest == next(s for s in listed[0]["scopes"] if s["key"] == keys[-1])
    assert user == listed[0]["scopes"][0]
    await expect_problem(
        await client.get(f"{memory_url()}/scopes/gone-0123abcd"), 404, "gone-0123abcd"
    )
    await expect_problem(await client.get(f"{memory_url()}/scopes/Bad_Key"), 400, "invalid")


@pytest.mark.parametrize(
    ("params", "detail"),
    [
        ({"limit": "0"}, "limit must be between 1 and 500"),
        ({"limit": "501"}, "limit must be between 1 and 500"),
        ({"limit": "ten"}, "limit must be a whole number"),
        ({"limit": "-1"}, "limit must be a whole number"),
        ({"cursor": "nonsense"}, "cursor must be a nextCursor"),
        ({"cursor": "12.not a key"}, "cursor must be a nextCursor"),
        ({"cursor": "user\n"}, "cursor must be a nextCursor"),
        ({"q": "x" * 501}, "q must be at most 500 characters"),
    ],
)
async def test_a3_bad_page_parameters_are_400(
    client: Client, agent: AgentHome, params: dict[str, str], detail: str
) -> None:
    await expect_problem(await client.get(memory_url(), params=params), 400, detail)


async def test_a3_a_cursor_past_every_scope_is_an_empty_last_page(
    client: Client, agent: AgentHome
) -> None:
    (key,) = workspaces(agent, 1)

    page = await ok_json(await client.get(memory_url(), params={"cursor": f"0.{key}"}))

    assert page["scopes"] == []
    assert page["nextCursor"] is None
    assert page["totals"]["scopes"] == 2


async def test_a1_memory_counts_come_from_the_listings_and_follow_the_disk(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agents list counts an agent's memories without reading any file (A-1, W-1)."""
    (key,) = workspaces(agent, 1, files=3)
    (agent.root / key / "link.md").symlink_to(agent.root / key / "note-0.md")
    from memory_api.store import topic_cache

    def never(*_: Any) -> Any:
        raise AssertionError("a count reads no topic file")

    monkeypatch.setattr(topic_cache, "parse_topic", never)
    agents = f"/api/projects/{agent.project}/agents"

    first = (await ok_json(await client.get(agents)))["agents"][0]["memoryCount"]
    next_file_tick(agent.tmp)
    (agent.root / key / "note-1.md").unlink()
    (agent.root / key / "link.md").unlink()
    second = (await ok_json(await client.get(agents)))["agents"][0]["memoryCount"]

    assert (first, second) == (4, 2)
