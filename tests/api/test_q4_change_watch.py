"""Q-4: an inotify ticket (``store/change_watch.py``) goes invalid at every change a kept
Session-start answer depends on, and at nothing else.

A ticket watches folders for the names on the way down and files for their content. Each test
arms one over a small tree like a memory root, changes it the way an agent's tools or a person
would, and asks :meth:`ChangeWatch.unchanged` right after: the kernel queues the event inside
the changing system call, so the very next question must see it. Where inotify cannot see every
change (a network filesystem, a symlink on the way) no ticket is armed at all.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from memory_api.app import create_app
from memory_api.appkeys import get_memory_store
from memory_api.settings import Settings
from memory_api.store import session_memo, stat_cache
from memory_api.store.change_watch import ChangeWatch, Ticket, filesystem_types, watch_budget
from memory_api.store.session_memo import SessionMemo
from memory_core import layout
from pytest_aiohttp import AiohttpClient

from tests.api.conftest import AGENT, PROJECT, AgentHome, Client, create_agent, memory_url, ok_json

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify is Linux's")


@pytest.fixture
def watch() -> Iterator[ChangeWatch]:
    """A watch of the test's own (the process's shared one is left alone)."""
    made = ChangeWatch()
    yield made
    made.close()


class Tree:
    """``<tmp>/data/agents/a/memory/{ws,user}`` with a marker and two indexes, and a Workspace."""

    def __init__(self, tmp_path: Path) -> None:
        self.base = Path(os.path.realpath(tmp_path))
        self.root = self.base / "data" / "agents" / "a" / "memory"
        self.scope = self.root / "ws"
        self.user = self.root / "user"
        self.workspace = self.base / "work" / "project"
        for folder in (self.scope, self.user, self.workspace):
            folder.mkdir(parents=True)
        self.marker = self.scope / ".workspace"
        self.index = self.scope / "MEMORY.md"
        self.user_index = self.user / "MEMORY.md"
        self.marker.write_text(f"{self.workspace}\n", encoding="utf-8")
        self.index.write_text("- [A](a.md) — a\n", encoding="utf-8")

    def arm(self, watch: ChangeWatch) -> Ticket:
        ticket = watch.arm(
            [str(self.scope), str(self.user), str(self.workspace)],
            [str(self.marker), str(self.index), str(self.user_index)],  # the user index is missing
        )
        assert ticket is not None and watch.unchanged(ticket)
        return ticket


def _append(path: Path) -> None:
    with path.open("a", encoding="utf-8") as stream:
        stream.write("- [B](b.md) — b\n")


def _swap_for_symlink(folder: Path) -> None:
    folder.rename(folder.with_name(folder.name + ".moved"))
    folder.symlink_to(folder.with_name(folder.name + ".moved"))


def _replace_by_rename(t: Tree) -> None:
    swap = t.scope / "new.tmp"
    swap.write_text("- [C](c.md) — c\n", encoding="utf-8")
    swap.replace(t.index)  # as editors save


def _write_through_hard_link(t: Tree) -> None:
    elsewhere = t.base / "elsewhere.md"
    os.link(t.index, elsewhere)
    _append(elsewhere)


def _remove_scope(t: Tree) -> None:
    t.marker.unlink()
    t.index.unlink()
    t.scope.rmdir()


def _write(path: Path) -> None:
    path.write_text("x\n", encoding="utf-8")


CHANGES: dict[str, Callable[[Tree], object]] = {
    "the index appended to": lambda t: _append(t.index),
    "the index truncated": lambda t: os.truncate(t.index, 0),
    "the index replaced by rename": _replace_by_rename,
    "the index written through a hard link elsewhere": _write_through_hard_link,
    "the index touched": lambda t: os.utime(t.index, ns=(1, 1)),
    "the index re-moded": lambda t: t.index.chmod(0o600),
    "the marker removed": lambda t: t.marker.unlink(),
    "the missing user index created": lambda t: _write(t.user_index),
    "the scope folder removed": _remove_scope,
    "the scope folder renamed": lambda t: t.scope.rename(t.root / "other"),
    "a folder above re-moded": lambda t: (t.base / "data" / "agents").chmod(0o700),
    "a folder above swapped for a symlink to it": lambda t: _swap_for_symlink(
        t.base / "data" / "agents"
    ),
    "the Workspace swapped for a symlink to it": lambda t: _swap_for_symlink(t.workspace),
    "a folder above the Workspace renamed": lambda t: (t.base / "work").rename(t.base / "w2"),
}

UNRELATED: dict[str, Callable[[Tree], object]] = {
    "a topic file written in the scope": lambda t: _write(t.scope / "deploy.md"),
    "another scope created": lambda t: (t.root / "ws-other").mkdir(),
    "a file created beside the data dir": lambda t: _write(t.base / "notes.txt"),
    "a file created in the Workspace": lambda t: _write(t.workspace / "main.py"),
    "the index read": lambda t: t.index.read_bytes(),
}


@pytest.mark.parametrize("change", CHANGES)
def test_q4_a_ticket_goes_invalid_at_each_change_an_answer_depends_on(
    tmp_path: Path, watch: ChangeWatch, change: str
) -> None:
    tree = Tree(tmp_path)
    ticket = tree.arm(watch)
    CHANGES[change](tree)
    assert not watch.unchanged(ticket)
    assert not watch.unchanged(ticket)  # and stays invalid


@pytest.mark.parametrize("change", UNRELATED)
def test_q4_a_ticket_stays_valid_through_changes_it_does_not_depend_on(
    tmp_path: Path, watch: ChangeWatch, change: str
) -> None:
    tree = Tree(tmp_path)
    ticket = tree.arm(watch)
    UNRELATED[change](tree)
    assert watch.unchanged(ticket)


def test_q4_no_ticket_is_armed_through_a_symlink_or_on_a_network_filesystem(
    tmp_path: Path, watch: ChangeWatch
) -> None:
    tree = Tree(tmp_path)
    _swap_for_symlink(tree.base / "data" / "agents")
    assert watch.arm([str(tree.scope)], [str(tree.index)]) is None

    mountinfo = tmp_path / "mountinfo"
    mountinfo.write_text(
        "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n"
        f"40 22 0:51 / {tree.base / 'work'} rw,relatime shared:7 - nfs4 server:/export rw\n",
        encoding="utf-8",
    )
    on_nfs = ChangeWatch(mountinfo=str(mountinfo))
    try:
        assert on_nfs.arm([str(tree.workspace)], []) is None  # another machine's change: no event
        assert on_nfs.arm([str(tree.base / "data")], []) is not None  # the ext4 part is watched
    finally:
        on_nfs.close()


def test_q4_mountinfo_is_read_longest_mount_point_first_with_its_escapes() -> None:
    text = (
        "22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
        "40 22 0:5 / /mnt/a\\040share rw shared:1 master:2 - cifs //srv/a rw\n"
        "41 22 0:6 / /mnt rw - tmpfs tmpfs rw\n"
        "garbage line\n"
    )
    assert filesystem_types(text) == [
        ("/mnt/a share", "cifs"),
        ("/mnt", "tmpfs"),
        ("/", "ext4"),
    ]


def test_q4_a_full_event_queue_invalidates_every_ticket(tmp_path: Path, watch: ChangeWatch) -> None:
    """Past ``max_queued_events`` the kernel drops events and says so once (``IN_Q_OVERFLOW``):
    a change to a quiet ticket's file may be among the dropped, so no ticket is trusted."""
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text(encoding="ascii"))
    if limit > 100_000:
        pytest.skip(f"max_queued_events is {limit}: too many writes to overflow it here")
    quiet, busy = Tree(tmp_path / "quiet"), Tree(tmp_path / "busy")
    quiet_ticket, busy_ticket = quiet.arm(watch), busy.arm(watch)
    other = busy.scope / "other.md"
    other.write_text("", encoding="utf-8")
    second = watch.arm([], [str(other)])
    assert second is not None
    with busy.index.open("a") as first, other.open("a") as alternate:
        for _ in range(limit // 2 + 10):  # alternating files: no two events in a row merge
            first.write("x")
            first.flush()
            alternate.write("y")
            alternate.flush()
    assert not watch.unchanged(quiet_ticket)
    assert not watch.unchanged(busy_ticket)


def test_q4_releasing_tickets_removes_the_watches_no_other_ticket_uses(
    tmp_path: Path, watch: ChangeWatch
) -> None:
    one, two = Tree(tmp_path / "one"), Tree(tmp_path / "two")
    first = one.arm(watch)
    shared = watch.watch_count
    second = two.arm(watch)
    assert watch.watch_count > shared  # the folders above both are watched once
    watch.release(second)
    assert watch.watch_count == shared and watch.unchanged(first)
    watch.release(first)
    watch.release(first)  # idempotent
    assert watch.watch_count == 0


def test_q4_past_its_budget_no_ticket_is_armed_and_no_watch_is_left_behind(
    tmp_path: Path,
) -> None:
    """The user's editors share ``max_user_watches`` with us: past the budget the memo probes."""
    one, two = Tree(tmp_path / "one"), Tree(tmp_path / "two")
    sizing = ChangeWatch()
    try:
        one.arm(sizing)
        needed = sizing.watch_count
    finally:
        sizing.close()
    watch = ChangeWatch(budget=needed)
    try:
        first = one.arm(watch)
        paths = ([str(two.scope), str(two.user), str(two.workspace)], [str(two.index)])
        assert watch.arm(*paths) is None  # its own folders would pass the budget
        assert watch.watch_count == needed and watch.unchanged(first)
        watch.release(first)
        assert watch.arm(*paths) is not None  # room again
    finally:
        watch.close()


@pytest.mark.parametrize(
    ("limit", "budget"),
    [
        ("8192\n", 1_024),  # older kernels' default: an eighth
        ("192536\n", 16_384),  # scaled to memory: capped
        ("0\n", 0),
        ("many\n", 1_024),  # unreadable: a modest default
        (None, 1_024),  # no such file
    ],
)
def test_q4_the_watch_budget_is_a_share_of_the_users_limit(
    tmp_path: Path, limit: str | None, budget: int
) -> None:
    limit_file = tmp_path / "max_user_watches"
    if limit is not None:
        limit_file.write_text(limit, encoding="ascii")
    assert watch_budget(str(limit_file)) == budget


def test_q4_a_forked_worker_gets_a_watch_of_its_own() -> None:
    """``serve --workers N`` forks: reading the parent's queue would steal its events."""
    parent = ChangeWatch.shared()
    assert ChangeWatch.shared() is parent
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report and leave at once, without pytest's exit handlers
        os.close(read)
        os.write(write, b"1" if ChangeWatch.shared() is not parent else b"0")
        os._exit(0)
    os.close(write)
    try:
        assert os.read(read, 1) == b"1"
    finally:
        os.close(read)
        os.waitpid(pid, 0)


# --- the Session-start memo under a ticket ----------------------------------------------------


async def _start(client: Client, workspace: Path) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


def _no_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make any probe of the memo fail the test: only the ticket may answer."""

    def probed(*args: object) -> bool:
        raise AssertionError(f"a probe was taken: {args!r}")

    for name in ("_unchanged", "_anchored", "_still_real"):
        monkeypatch.setattr(session_memo, name, probed)


async def test_q4_a_warm_session_start_under_a_ticket_takes_no_probe(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))  # files written just now
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [A](a.md) — a\n", encoding="utf-8")
    first = await _start(client, workspace)
    _no_probes(monkeypatch)
    assert await _start(client, workspace) == first
    assert await _start(client, workspace) == first


async def test_q4_an_index_written_a_moment_ago_is_kept_under_a_ticket_and_its_next_edit_seen(
    client: Client, agent: AgentHome
) -> None:
    """Without a ticket a file changed within the racy window is never kept (its probe could
    miss a same-tick rewrite); with one, any change after arming is an event."""
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [A](a.md) — alpha note\n", encoding="utf-8")
    assert "alpha note" in (await _start(client, workspace))["memory"]
    assert len(get_memory_store(client.app).sessions) == 1
    index.write_text("- [A](a.md) — bravo note\n", encoding="utf-8")  # same size, same tick
    memory = (await _start(client, workspace))["memory"]
    assert "bravo note" in memory and "alpha note" not in memory


async def test_q4_an_event_that_changed_nothing_re_arms_the_ticket(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index opened for writing and closed unchanged is an event (``IN_CLOSE_WRITE``): the
    probes show nothing changed, the answer is given and a new ticket armed."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [A](a.md) — a\n", encoding="utf-8")
    first = await _start(client, workspace)
    with index.open("a", encoding="utf-8"):
        pass
    assert await _start(client, workspace) == first  # probed, then re-armed
    _no_probes(monkeypatch)
    assert await _start(client, workspace) == first


@pytest.mark.parametrize("change", ["appended", "user index created", "marker removed"])
async def test_q4_without_a_ticket_the_probes_see_the_same_changes(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """Where no watch can be armed (a network filesystem) the memo keeps its probes."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))
    store = get_memory_store(client.app)
    monkeypatch.setattr(store, "sessions", SessionMemo(store.app_data_dir, watch=False))
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [A](a.md) — a\n", encoding="utf-8")
    first = await _start(client, workspace)
    assert await _start(client, workspace) == first and len(store.sessions) == 1
    if change == "appended":
        _append(index)
    elif change == "user index created":
        agent.user.mkdir(parents=True, exist_ok=True)
        (agent.user / layout.INDEX_FILE).write_text("- [U](u.md) — u\n", encoding="utf-8")
    else:
        (agent.root / key / layout.MARKER_FILE).unlink()
    after = await _start(client, workspace)
    if change == "marker removed":
        assert (agent.root / key / layout.MARKER_FILE).is_file()  # K-5: the start recreated it
    else:
        assert after["memory"] != first["memory"]


async def test_q4_the_memo_releases_its_watches_when_the_app_stops(
    aiohttp_client: AiohttpClient, tmp_path: Path
) -> None:
    watch = ChangeWatch.shared()
    before = watch.watch_count
    data_dir = tmp_path / "data"
    app = create_app(Settings(data_dir=data_dir))
    client = await aiohttp_client(app)
    await create_agent(client)
    home = AgentHome(data_dir=data_dir, project=PROJECT, id=AGENT, tmp=tmp_path)
    workspace, _ = home.workspace("app")
    await _start(client, workspace)
    await _start(client, workspace)
    await client.close()
    assert watch.watch_count == before


def test_q4_a_missing_workspace_is_watched_from_its_deepest_folder_that_exists(
    tmp_path: Path, watch: ChangeWatch
) -> None:
    """A harness may send a Workspace this machine does not have: its creation, at any depth,
    must still be a change."""
    base = Path(os.path.realpath(tmp_path))
    missing = base / "not" / "yet" / "here"
    ticket = watch.arm([str(missing)], [])
    assert ticket is not None and watch.unchanged(ticket)
    (base / "unrelated").mkdir()
    assert watch.unchanged(ticket)
    (base / "not").mkdir()
    assert not watch.unchanged(ticket)
