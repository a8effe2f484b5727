"""V-1 with the change feed: a Session start's record skips a scope unchanged since it was last
recorded by this process, and records whatever changed on disk, whoever changed it.

The record is a snapshot (a listing of the scope folder and an ``lstat`` per file); the
process's change feed (inotify, ``store/change_feed.py``) says which scope folders changed since
the last record. A scope it names, or any scope when it cannot vouch (the first record after a
start, an overflow of its queue, a data dir on a network filesystem, a record that failed), is
scanned as before; one it vouches for is not, and nothing is lost: there was nothing to record.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from memory_api.appkeys import get_history_store
from memory_api.store.agents import AgentStore
from memory_api.store.change_feed import ChangeFeed
from memory_api.store.history.git import HistoryUnavailable
from memory_api.store.history.recorder import Attribution, ScopeHistories
from memory_api.store.history.repo import commit_changes
from memory_api.store.history.service import HistoryStore
from memory_api.store.history.snapshot import take_snapshot
from memory_api.store.history.unchanged import UnchangedScopes
from memory_api.store.locks import Locks
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json, write_topic
from tests.api.test_q4_change_feed import QUEUE_LIMIT, _flood
from tests.support.mountinfo import on_nfs

Scans = list[str]
RECORDER = "memory_api.store.history.recorder"


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> Scans:
    """The scope folder of every scan a record makes, in order."""
    seen: Scans = []

    def counted(scope: Path, *args: Any, **kwargs: Any) -> Any:
        seen.append(scope.name)
        return take_snapshot(scope, *args, **kwargs)

    monkeypatch.setattr(f"{RECORDER}.take_snapshot", counted)
    return seen


@pytest.fixture
def shop(agent: AgentHome) -> tuple[Path, str]:
    """A Workspace with a topic file, and an index with one in the user scope."""
    write_topic(agent.user, "prefers-pnpm.md")
    (agent.user / layout.INDEX_FILE).write_text("# User memory\n", encoding="utf-8")
    workspace, key = agent.workspace("shop")
    write_topic(agent.root / key, "uses-make.md")
    return workspace, key


async def session_start(client: Client, workspace: Path) -> None:
    """A Session start in ``workspace``, and its record after it."""
    await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )
    await get_history_store(client.app).idle()


async def changes(client: Client, key: str) -> list[dict[str, Any]]:
    """The scope's versions, newest first."""
    answer = await ok_json(await client.get(f"{memory_url()}/scopes/{key}/changes"))
    versions: list[dict[str, Any]] = answer["versions"]
    return versions


async def test_v1_session_starts_with_nothing_changed_scan_no_scope_again(
    client: Client, agent: AgentHome, shop: tuple[Path, str], scans: Scans
) -> None:
    workspace, key = shop
    await session_start(client, workspace)
    assert sorted(scans) == sorted(["user", key])  # the first record after a start scans

    for _ in range(3):
        await session_start(client, workspace)

    assert sorted(scans) == sorted(["user", key])
    assert len(await changes(client, key)) == 1


def edit_in_place(path: Path) -> None:
    """Change one byte of ``path`` at the same size, and put its modification time back."""
    info = path.stat()
    data = bytearray(path.read_bytes())
    data[-2] = ord("X") if data[-2] != ord("X") else ord("Y")
    with path.open("r+b") as handle:
        handle.write(bytes(data))
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))


def change_behind(scope: Path, change: str) -> tuple[str, str]:
    """Make ``change`` to a file of ``scope`` as a shell would; the file and how it changed."""
    if change == "edited in place":
        edit_in_place(scope / "uses-make.md")
        return "uses-make.md", "modified"
    if change == "created":
        write_topic(scope, "uses-uv.md")
        return "uses-uv.md", "added"
    (scope / "uses-make.md").unlink()
    return "uses-make.md", "deleted"


@pytest.mark.parametrize("change", ["edited in place", "created", "removed"])
async def test_v1_a_file_changed_behind_the_service_is_recorded_by_the_next_session_start(
    client: Client, agent: AgentHome, shop: tuple[Path, str], scans: Scans, change: str
) -> None:
    workspace, key = shop
    await session_start(client, workspace)
    await session_start(client, workspace)
    scans.clear()

    name, kind = change_behind(agent.root / key, change)
    await session_start(client, workspace)

    assert scans == [key]  # only the scope that changed
    newest = (await changes(client, key))[0]
    assert newest["author"]["source"] == "session-start"
    assert newest["files"] == [{"file": name, "change": kind}]


@pytest.fixture
async def process(agent: AgentHome) -> AsyncIterator[Callable[..., HistoryStore]]:
    """Start "another service process" on the agent's data dir: its history store, with a
    change feed of its own (``mountinfo``: where it judges the data dir's filesystem)."""
    started: list[tuple[HistoryStore, ChangeFeed, Locks]] = []

    def start(mountinfo: str = "/proc/self/mountinfo") -> HistoryStore:
        feed, locks = ChangeFeed(mountinfo=mountinfo), Locks(agent.data_dir / "locks")
        store = HistoryStore(
            AgentStore(agent.data_dir, locks), ScopeHistories(agent.data_dir), feed
        )
        started.append((store, feed, locks))
        return store

    yield start
    for store, feed, locks in started:
        await store.close()
        feed.close()
        locks.close()


async def record_later(store: HistoryStore, agent: AgentHome, key: str) -> None:
    """What a Session start of ``store``'s process asks for: a record of ``key``, run now."""
    store.record_later(agent.id, [key], Attribution("session-start"))
    await store.idle()


async def test_v1_the_first_record_after_a_restart_scans(
    client: Client,
    agent: AgentHome,
    shop: tuple[Path, str],
    scans: Scans,
    process: Callable[..., HistoryStore],
) -> None:
    workspace, key = shop
    await session_start(client, workspace)
    await session_start(client, workspace)
    scans.clear()
    write_topic(agent.root / key, "uses-uv.md")  # while "the new process" did not watch yet

    restarted = process()
    await record_later(restarted, agent, key)
    await record_later(restarted, agent, key)

    assert scans == [key]
    assert (await changes(client, key))[0]["files"] == [{"file": "uses-uv.md", "change": "added"}]


async def test_v1_without_a_feed_every_record_scans(
    agent: AgentHome,
    shop: tuple[Path, str],
    scans: Scans,
    tmp_path: Path,
    process: Callable[..., HistoryStore],
) -> None:
    """On a network filesystem another machine's writes raise no event here: no feed."""
    _, key = shop
    store = process(on_nfs(tmp_path, agent.data_dir))
    for _ in range(3):
        await record_later(store, agent, key)
    assert scans == [key, key, key]


async def test_v1_after_the_feed_overflowed_every_scope_is_scanned(
    client: Client, agent: AgentHome, shop: tuple[Path, str], scans: Scans
) -> None:
    workspace, key = shop
    await session_start(client, workspace)
    scans.clear()

    _flood(agent.user, QUEUE_LIMIT + 10)  # more events than the queue holds: some are lost
    await session_start(client, workspace)
    await session_start(client, workspace)  # the feed vouches again

    assert sorted(scans) == sorted(["user", key])


async def test_v1_a_record_that_failed_is_followed_by_a_scan(
    client: Client,
    agent: AgentHome,
    shop: tuple[Path, str],
    scans: Scans,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    workspace, key = shop
    await session_start(client, workspace)
    scans.clear()
    write_topic(agent.root / key, "uses-uv.md")

    def refused(*args: Any, **kwargs: Any) -> str:
        raise HistoryUnavailable("the disk is full")

    monkeypatch.setattr(f"{RECORDER}.commit_changes", refused)
    await session_start(client, workspace)  # scanned, not recorded: logged
    monkeypatch.setattr(f"{RECORDER}.commit_changes", commit_changes)
    await session_start(client, workspace)

    assert scans == [key, key]
    assert (await changes(client, key))[0]["files"] == [{"file": "uses-uv.md", "change": "added"}]


def test_v1_a_change_during_a_scan_keeps_the_scope_to_scan(tmp_path: Path) -> None:
    """Two scopes' records run at once: one's look names the folder the other is scanning; that
    scan may have missed the change, so its record does not vouch for the folder."""
    feed = ChangeFeed()
    try:
        (tmp_path / "shop").mkdir()
        root = feed.root(str(tmp_path))
        assert root is not None
        unchanged = UnchangedScopes(root)
        unchanged.look()  # the first look: nothing vouched for yet
        ticket = unchanged.look()  # the record of "shop" starts
        root.watch("shop")
        write_topic(tmp_path / "shop", "uses-uv.md")  # while it scans
        unchanged.look()  # another scope's record looks meanwhile
        unchanged.recorded("shop", ticket)
        assert not unchanged.unchanged("shop")

        ticket = unchanged.look()  # the next record of "shop"
        unchanged.recorded("shop", ticket)
        assert unchanged.unchanged("shop")
        (tmp_path / "other").mkdir()  # a scope added: the feed vouches for none until recorded
        unchanged.look()
        assert not unchanged.unchanged("shop")
    finally:
        feed.close()
