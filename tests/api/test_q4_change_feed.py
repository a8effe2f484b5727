"""Q-4 and S-1 with the change feed (issue 30): between requests the overview keeps each scope's
place and count, and the search its index's mirror; a request re-checks only the scope folders
the kernel named as changed since the last one (inotify, ``store/change_feed.py``).

A change made behind the service's back — a file edited in place at the same size, created,
deleted or renamed, a scope folder added or removed — is seen by the very next overview and the
very next search. Where the feed cannot vouch — its queue overflowed, the data dir is on a
network filesystem, the service was restarted — every scope is checked by ``stat`` and the
answer is the same. The 2 s "racily fresh" rule is lifted, so what the tests write a moment
earlier is kept by the stat-keyed caches as an older file would be: only the feed (or a sweep)
can make the next answer see a change.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.store import overview as overview_module
from memory_api.store import stat_cache
from memory_api.store.agents import AgentStore
from memory_api.store.change_feed import ChangeFeed, filesystem_type
from memory_api.store.locks import Locks
from memory_api.store.memory import MemoryStore
from memory_api.store.search import MemorySearch
from memory_api.store.search_index import SearchIndex
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, ok_json
from tests.api.test_s1_search import files_of, topic
from tests.support.mountinfo import on_nfs


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


@pytest.fixture
def sweeps(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``"overview"`` / ``"search"`` each time one of them checks every scope by ``stat``."""
    seen: list[str] = []
    all_rows = overview_module._all_rows
    refresh_all = MemorySearch._refresh_all

    def rows_swept(*args: Any, **kwargs: Any) -> Any:
        seen.append("overview")
        return all_rows(*args, **kwargs)

    def search_swept(self: MemorySearch, *args: Any) -> None:
        seen.append("search")
        refresh_all(self, *args)

    monkeypatch.setattr(overview_module, "_all_rows", rows_swept)
    monkeypatch.setattr(MemorySearch, "_refresh_all", search_swept)
    return seen


async def overview(client: Client) -> dict[str, Any]:
    """The Memory tab's first page."""
    return await ok_json(await client.get(memory_url(), params={"limit": "50"}))


async def found(client: Client, query: str) -> list[tuple[str, str]]:
    """``(scope, file)`` of every hit of a search, sorted."""
    answer = await ok_json(await client.get(f"{memory_url()}/search", params={"q": query}))
    return sorted(files_of(answer))


def counts(page: dict[str, Any]) -> dict[str, int]:
    """Each scope's topic file count on the page."""
    return {scope["key"]: scope["fileCount"] for scope in page["scopes"]}


@pytest.fixture
async def warm(client: Client, agent: AgentHome, sweeps: list[str]) -> tuple[AgentHome, str]:
    """The agent with a Workspace of two topic files and a user topic, after one overview and
    one search (each checked every scope once: nothing was watched before)."""
    _, key = agent.workspace("app")
    scope = agent.root / key
    topic(scope, "alpha.md", "alpha", "first", "a note about kafka")
    topic(scope, "beta.md", "beta", "second", "a note about pulsar")
    (scope / layout.INDEX_FILE).write_text("- [Alpha](alpha.md) — kafka\n", encoding="utf-8")
    topic(agent.user, "me.md", "me", "the user", "prefers zeppelins")
    assert counts(await overview(client))[key] == 2
    assert await found(client, "kafka") == [(key, "alpha.md")]
    assert sweeps == ["overview", "search"]
    return agent, key


async def test_q4_an_edit_in_place_at_the_same_size_is_seen_next(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    agent, key = warm
    path = agent.root / key / "alpha.md"
    before = path.stat()
    with path.open("r+b") as handle:  # the agent's editor rewrites it in place
        text = handle.read()
        handle.seek(0)
        handle.write(text.replace(b"kafka", b"kayak"))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # even with its mtime put back

    assert await found(client, "kayak") == [(key, "alpha.md")]
    assert await found(client, "kafka") == []
    assert sweeps == ["overview", "search"]  # the feed named the folder; nothing else checked


async def test_q4_an_index_edited_in_place_moves_the_scope_up_next(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    agent, key = warm
    first = await overview(client)
    index = agent.root / key / layout.INDEX_FILE
    with index.open("r+b") as handle:
        handle.write(b"- [Alpha](alpha.md) - kafka")  # one character swapped, same size
    os.utime(index, ns=(10**18, 2 * 10**18))  # activity far ahead of any other scope's

    page = await overview(client)
    assert page["scopes"][1]["key"] == key
    assert page["scopes"][1]["lastActivity"] != first["scopes"][1]["lastActivity"]
    assert sweeps == ["overview", "search"]


@pytest.mark.parametrize(
    ("change", "files", "hits"),
    [
        pytest.param(
            lambda scope: topic(scope, "gamma.md", "gamma", "third", "more kafka"),
            3,
            ["alpha.md", "gamma.md"],
            id="created",
        ),
        pytest.param(lambda scope: (scope / "alpha.md").unlink(), 1, [], id="deleted"),
        pytest.param(
            lambda scope: (scope / "alpha.md").rename(scope / "renamed.md"),
            2,
            ["renamed.md"],
            id="renamed",
        ),
        pytest.param(
            lambda scope: (scope / "beta.md").replace(scope / "alpha.md"),
            1,
            [],
            id="replaced-by-rename",
        ),
    ],
)
async def test_q4_a_topic_file_changed_behind_the_service_is_seen_next(
    client: Client,
    warm: tuple[AgentHome, str],
    sweeps: list[str],
    change: Callable[[Path], object],
    files: int,
    hits: list[str],
) -> None:
    agent, key = warm
    change(agent.root / key)

    assert counts(await overview(client))[key] == files
    assert await found(client, "kafka") == [(key, hit) for hit in hits]
    assert sweeps == ["overview", "search"]


async def test_q4_a_scope_folder_added_or_removed_is_seen_next(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    agent, key = warm
    _, added = agent.workspace("other")
    topic(agent.root / added, "delta.md", "delta", "fourth", "kafka again")

    page = await overview(client)
    assert page["totals"]["scopes"] == 3 and counts(page)[added] == 1
    assert await found(client, "kafka") == sorted([(key, "alpha.md"), (added, "delta.md")])

    for entry in (agent.root / key).iterdir():
        entry.unlink()
    (agent.root / key).rmdir()  # the agent cleaned up a Workspace's memory by hand

    page = await overview(client)
    assert page["totals"]["scopes"] == 2 and key not in counts(page)
    assert await found(client, "kafka") == [(added, "delta.md")]
    assert sweeps == ["overview", "search"]


async def test_q4_a_scope_folder_renamed_is_seen_next(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    agent, key = warm
    _, other = agent.workspace("other")
    for entry in (agent.root / other).iterdir():
        entry.unlink()
    (agent.root / other).rmdir()
    (agent.root / key).rename(agent.root / other)  # the same folder under another key

    page = await overview(client)
    assert key not in counts(page) and counts(page)[other] == 2
    assert await found(client, "kafka") == [(other, "alpha.md")]
    topic(agent.root / other, "gamma.md", "gamma", "third", "more kafka")  # watched under its name
    assert await found(client, "kafka") == [(other, "alpha.md"), (other, "gamma.md")]
    assert counts(await overview(client))[other] == 3


@pytest.mark.parametrize("swapped", ["user", "workspace"])
async def test_q4_a_scope_folder_swapped_for_a_symlink_out_of_the_root_is_never_read(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str], swapped: str
) -> None:
    """A scope folder replaced between two requests by a symlink leading out of the memory root
    (here to another agent's scope) is no scope of this agent, as a sweep finds it: the kept row
    was placed again through the link, so the overview counted, dated and linted the other
    folder's files as this scope's (A-7, Q-4)."""
    agent, key = warm
    elsewhere = agent.data_dir / "agents" / "other" / "agent_state" / "memory" / "user"
    elsewhere.mkdir(parents=True)
    for number in range(7):
        topic(elsewhere, f"theirs-{number}.md", f"theirs-{number}", "not ours", "their note")
    name = "user" if swapped == "user" else key
    kept_files = {"user": 2, "workspace": 1}[swapped]  # the other scope's own files
    folder = agent.root / name
    for entry in folder.iterdir():
        entry.unlink()
    folder.rmdir()
    folder.symlink_to(elsewhere)

    page = await overview(client)
    assert counts(page).get(name, 0) == 0
    assert page["totals"]["files"] == kept_files
    assert sweeps == ["overview", "search"]  # the feed's answer, not a sweep's


QUEUE_LIMIT = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text(encoding="ascii"))
"""How many events an inotify queue holds before it overflows."""


async def test_q4_a_topic_file_reached_through_a_symlink_is_checked_every_time(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    """An edit of a symlink's target is an event of the target's folder, not of the link's:
    the scope holding the link is checked on every request."""
    agent, key = warm
    target = topic(agent.user, "shared.md", "shared", "kept once", "about zeppelins")
    (agent.root / key / "shared.md").symlink_to(target)
    assert await found(client, "zeppelins") == [
        (key, "shared.md"),
        ("user", "me.md"),
        ("user", "shared.md"),
    ]
    with target.open("r+b") as handle:
        handle.write(handle.read().replace(b"zeppelins", b"dirigible"))

    assert await found(client, "dirigible") == [(key, "shared.md"), ("user", "shared.md")]
    assert sweeps == ["overview", "search"]


def _flood(folder: Path, events: int) -> None:
    """Raise ``events`` inotify events in ``folder`` (two files touched in turn: the kernel
    merges only an event identical to the one queued last)."""
    first, second = folder / "flood-a.txt", folder / "flood-b.txt"
    first.touch()
    second.touch()
    for turn in range(events // 2 + 1):
        os.utime(first, ns=(turn, turn))
        os.utime(second, ns=(turn, turn))


async def test_q4_after_the_queue_overflowed_every_scope_is_checked_again(
    client: Client, warm: tuple[AgentHome, str], sweeps: list[str]
) -> None:
    agent, key = warm
    topic(agent.root / key, "gamma.md", "gamma", "third", "more kafka")
    _flood(agent.user, QUEUE_LIMIT + 10)  # more events than the queue holds: some are lost

    assert counts(await overview(client))[key] == 3
    assert await found(client, "kafka") == [(key, "alpha.md"), (key, "gamma.md")]
    assert sweeps == ["overview", "search", "overview", "search"]


Process = Callable[..., MemoryStore]


@pytest.fixture
def process(agent: AgentHome) -> Iterator[Process]:
    """Start "a service process" on the agent's data dir: its memory store, with a change feed
    of its own (``mountinfo``: where it judges the data dir's filesystem); each stops at the
    end of the test."""
    feeds: list[ChangeFeed] = []

    def start(mountinfo: str = "/proc/self/mountinfo") -> MemoryStore:
        feeds.append(ChangeFeed(mountinfo=mountinfo))
        locks = Locks(agent.data_dir / "locks")
        return MemoryStore(agent.data_dir, AgentStore(agent.data_dir, locks), feed=feeds[-1])

    yield start
    for feed in feeds:
        feed.close()


async def _files(store: MemoryStore, agent: AgentHome, query: str) -> list[tuple[str, str]]:
    answer = await store.search(agent.project, agent.id, query, None, 20)
    return sorted((hit.scope, hit.file) for hit in answer.hits)


async def _counts(store: MemoryStore, agent: AgentHome) -> dict[str, int]:
    page = await store.overview(agent.project, agent.id, limit=50)
    return {scope.key: scope.file_count for scope in page.scopes}


async def test_q4_a_data_dir_on_a_network_filesystem_is_checked_by_stat(
    agent: AgentHome, tmp_path: Path, sweeps: list[str], process: Process
) -> None:
    """On NFS another machine's writes raise no event here: no feed, every request sweeps."""
    store = process(on_nfs(tmp_path, agent.data_dir))
    _, key = agent.workspace("app")
    topic(agent.root / key, "alpha.md", "alpha", "first", "kafka")
    assert await _counts(store, agent) == {"user": 0, key: 1}
    assert await _files(store, agent, "kafka") == [(key, "alpha.md")]

    topic(agent.root / key, "gamma.md", "gamma", "third", "kafka")
    assert await _counts(store, agent) == {"user": 0, key: 2}
    assert await _files(store, agent, "kafka") == [(key, "alpha.md"), (key, "gamma.md")]
    assert sweeps == ["overview", "search", "overview", "search"]


async def test_q4_an_index_found_damaged_mid_search_is_filled_from_every_scope(
    client: Client,
    warm: tuple[AgentHome, str],
    sweeps: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The index file turns out damaged after its refresh: it starts again empty, and the feed,
    which saw no change, cannot say what to fill it with: every scope is checked."""
    _, key = warm
    count = SearchIndex.count
    damaged: list[bool] = []

    def damaged_once(self: SearchIndex, *args: Any) -> int:
        if not damaged:
            damaged.append(True)
            raise sqlite3.DatabaseError("database disk image is malformed")
        return count(self, *args)

    monkeypatch.setattr(SearchIndex, "count", damaged_once)
    assert await found(client, "kafka") == [(key, "alpha.md")]
    assert damaged and sweeps == ["overview", "search", "search"]


async def test_q4_a_restart_catches_up_on_what_changed_while_no_process_watched(
    agent: AgentHome, sweeps: list[str], process: Process
) -> None:
    _, key = agent.workspace("app")
    topic(agent.root / key, "alpha.md", "alpha", "first", "kafka")
    before = process()
    assert await _counts(before, agent) == {"user": 0, key: 1}
    assert await _files(before, agent, "kafka") == [(key, "alpha.md")]
    before.feed.close()  # the service stops

    (agent.root / key / "alpha.md").unlink()
    topic(agent.root / key, "gamma.md", "gamma", "third", "kafka")
    _, added = agent.workspace("other")
    topic(agent.root / added, "delta.md", "delta", "fourth", "kafka")

    after = process()  # it starts again
    assert await _counts(after, agent) == {"user": 0, key: 1, added: 1}
    assert await _files(after, agent, "kafka") == sorted([(added, "delta.md"), (key, "gamma.md")])
    assert sweeps == ["overview", "search", "overview", "search"]


async def test_q4_another_process_writing_the_index_makes_a_search_check_every_scope(
    agent: AgentHome, sweeps: list[str], process: Process
) -> None:
    """Two processes share the search index; what the other wrote is checked like any row."""
    _, key = agent.workspace("app")
    topic(agent.root / key, "alpha.md", "alpha", "first", "kafka")
    one, two = process(), process()
    assert await _files(one, agent, "kafka") == [(key, "alpha.md")]
    assert await _files(two, agent, "kafka") == [(key, "alpha.md")]

    topic(agent.root / key, "gamma.md", "gamma", "third", "kafka")
    assert await _files(two, agent, "kafka") == [(key, "alpha.md"), (key, "gamma.md")]
    assert await _files(one, agent, "kafka") == [(key, "alpha.md"), (key, "gamma.md")]
    assert sweeps == ["search", "search", "search"]  # one: the other process wrote


def test_q4_the_filesystem_of_a_data_dir_is_judged_by_its_device() -> None:
    mountinfo = (
        "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
        "40 22 0:52 / /srv/shared\\040data rw shared:1 - nfs4 srv:/ rw\n"
        "41 22 0:53 / /home/me/mnt rw - fuse.sshfs me@box: rw\n"
    )
    assert filesystem_type(mountinfo, "/srv/shared data/agents", os.makedev(0, 52)) == "nfs4"
    assert filesystem_type(mountinfo, "/home/me/mnt/x", os.makedev(0, 53)) == "fuse.sshfs"
    assert filesystem_type(mountinfo, "/var/lib/memory", os.makedev(8, 1)) == "ext4"
    # a device no line names (btrfs subvolumes): the mount point holding the path
    assert filesystem_type(mountinfo, "/srv/shared data/x", os.makedev(0, 99)) == "nfs4"


_FEED_ON_A_MOUNT = """
import json, subprocess, sys
from memory_api.store.change_feed import ChangeFeed
answers = {}
for point in sys.argv[1:]:
    subprocess.run(["mount", "-t", "mqueue", "mqueue", point], check=True)
    answers[point] = ChangeFeed().root(point) is not None
print(json.dumps(answers))
"""


def test_q4_a_mount_point_holding_a_carriage_return_is_judged_by_its_own_filesystem(
    tmp_path: Path,
) -> None:
    """The kernel writes a carriage return in a mount point as it is; the table was read with
    universal newlines and ``splitlines``, which cut that line and judged the data dir by the
    filesystem holding its mount point (local: an inotify feed on a filesystem whose changes
    it need not see). Made for real in a user, mount and IPC namespace of the test's own, with
    a filesystem any such namespace may mount that is none of :data:`LOCAL_FILESYSTEMS`."""
    points = [tmp_path / "shared\rdata", tmp_path / "shared data"]
    for point in points:
        point.mkdir()
    done = subprocess.run(
        [
            "unshare", "--user", "--map-root-user", "--mount", "--ipc",
            sys.executable, "-c", _FEED_ON_A_MOUNT, *map(str, points),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr

    assert json.loads(done.stdout) == {str(point): False for point in points}
