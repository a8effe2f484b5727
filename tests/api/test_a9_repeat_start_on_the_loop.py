"""A-9, Q-4: a repeat Session start is answered on the event loop from ``stat`` calls alone;
whatever must be created, written or read is done in a worker thread, and seen at once.

A Session start first tries ``start_session(..., cached_only=True)`` on the loop: it may only
``stat``/``lstat`` (the agent file, the Workspace path, the memory root, both scopes, the marker,
the visibility flag, both indexes) and raises ``NeedsBlockingIO`` before any change when a file
must be read (not kept at its current version) or something must be made (a first Session,
a missing scope or marker, the K-6a flag to set or clear). The same work then runs in a worker
thread. Every cache is made to keep brand-new files here (the 2 s "racily fresh" rule would keep
the files these tests write out of the cache, sending every start to the thread), and versions
are off (V-1's record after a start makes the user scope again, K-6, racing the tests' changes).
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from memory_api.mount_watch import MOUNTS
from memory_api.settings import Settings
from memory_api.store import held_writes, stat_cache, workspace_mount
from memory_api.store.memory import MemoryStore
from memory_api.store.stat_cache import NeedsBlockingIO
from memory_core import layout

from tests.api.conftest import AgentHome, Client, memory_url, names, ok_json, real
from tests.support.mount_namespace import mount_origin


@dataclass(frozen=True)
class Run:
    """One try of a Session start (the agent read, then ``start_session``) during a request:
    how it was asked to run, on which thread, whether it needed the blocking path, and every
    file it opened."""

    cached_only: bool
    thread: str
    needed_blocking_io: bool
    opened: tuple[str, ...]


@pytest.fixture
def settings(data_dir: Path) -> Settings:
    """An open service on ``data_dir`` that keeps no versions (see the module doc)."""
    return Settings(data_dir=data_dir, history=False)


@pytest.fixture(autouse=True)
def keep_fresh_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let the caches keep files written a moment ago (see the module doc)."""
    monkeypatch.setattr(stat_cache, "RACY_WINDOW_NS", -(10**18))


@pytest.fixture(autouse=True)
def still_mount_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold the count of mount table changes still: other tests on the machine mount and
    unmount file systems (a tmpfs, a read-only bind), and a change rightly sends the next
    start to a worker thread to look at its Workspace's mount again (K-6a; checked with real
    mounts in ``test_k6a_mount_records_follow_the_mount_table.py``)."""
    monkeypatch.setattr(MOUNTS, "changes", lambda: 0)


@pytest.fixture
def runs(monkeypatch: pytest.MonkeyPatch) -> list[Run]:
    """Every try of a Session start of the service, with the files opened during it."""
    seen: list[Run] = []
    real_start = MemoryStore._start
    real_open = os.open
    opened: dict[int, list[str]] = {}

    def spying_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        opened.setdefault(threading.get_ident(), []).append(os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    def spying_start(*args: Any, cached_only: bool, **kwargs: Any) -> Any:
        mine = opened.setdefault(threading.get_ident(), [])
        mine.clear()
        needed = False
        try:
            return real_start(*args, cached_only=cached_only, **kwargs)
        except NeedsBlockingIO:
            needed = True
            raise
        finally:
            thread = threading.current_thread().name
            seen.append(Run(cached_only, thread, needed, tuple(mine)))

    monkeypatch.setattr(os, "open", spying_open)
    monkeypatch.setattr(MemoryStore, "_start", spying_start)
    return seen


async def _start(client: Client, workspace: Path) -> dict[str, Any]:
    url = f"{memory_url()}/session-start"
    return await ok_json(await client.post(url, json={"workspace": str(workspace)}))


def _on_the_loop(run: Run) -> bool:
    return run.thread == threading.main_thread().name


async def _start_counted(
    client: Client, workspace: Path, runs: list[Run]
) -> tuple[dict[str, Any], list[Run]]:
    runs.clear()
    answer = await _start(client, workspace)
    return answer, list(runs)


async def test_a9_a_repeat_session_start_is_answered_on_the_loop_without_opening_a_file(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, key = agent.workspace("app")
    (agent.root / key / layout.INDEX_FILE).write_text("- [A](a.md) — a note\n", encoding="utf-8")
    first, first_runs = await _start_counted(client, workspace, runs)
    # the first: the files are not kept yet, so the loop hands it to a worker thread
    assert [(run.cached_only, run.needed_blocking_io) for run in first_runs] == [
        (True, True),
        (False, False),
    ]
    assert _on_the_loop(first_runs[0])
    assert not _on_the_loop(first_runs[1])
    assert any(path.endswith(layout.INDEX_FILE) for path in first_runs[1].opened)  # read there

    again, again_runs = await _start_counted(client, workspace, runs)

    assert again == first
    assert len(again_runs) == 1
    assert again_runs[0].cached_only
    assert not again_runs[0].needed_blocking_io
    assert _on_the_loop(again_runs[0])
    assert again_runs[0].opened == ()


async def _changed_then_fresh(
    client: Client,
    workspace: Path,
    runs: list[Run],
    change: Callable[[], object],
) -> dict[str, Any]:
    """Start once and again (kept), ``change`` the disk, start: the loop must hand that start
    to a worker thread; the answer of the thread is returned."""
    await _start(client, workspace)
    await _start(client, workspace)
    change()
    answer, changed_runs = await _start_counted(client, workspace, runs)
    assert [(run.cached_only, run.needed_blocking_io) for run in changed_runs] == [
        (True, True),
        (False, False),
    ]
    assert changed_runs[0].opened == ()  # the loop's try wrote and read nothing
    return answer


async def test_a9_k5_a_new_workspace_is_prepared_in_a_worker_thread(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    await _start(client, agent.workspace("app")[0])  # the agent file and user scope are kept
    fresh = agent.tmp / "src" / "new-app"
    fresh.mkdir(parents=True)

    answer, new_runs = await _start_counted(client, fresh, runs)

    assert [(run.cached_only, run.needed_blocking_io) for run in new_runs] == [
        (True, True),
        (False, False),
    ]
    scope = agent.root / answer["key"]
    assert (scope / layout.MARKER_FILE).read_text(encoding="utf-8") == (real(fresh) + "\n")


async def test_a9_q4_an_index_edited_is_read_in_a_worker_thread_and_injected_at_once(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, key = agent.workspace("app")
    index = agent.root / key / layout.INDEX_FILE
    index.write_text("- [A](a.md) — the first note\n", encoding="utf-8")

    def append() -> None:
        with index.open("a", encoding="utf-8") as handle:
            handle.write("- [B](b.md) — the second note\n")

    answer = await _changed_then_fresh(client, workspace, runs, append)

    assert "the first note" in answer["memory"]
    assert "the second note" in answer["memory"]


async def test_a9_k5_a_removed_marker_is_written_again_in_a_worker_thread(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, key = agent.workspace("app")
    marker = agent.root / key / layout.MARKER_FILE

    await _changed_then_fresh(client, workspace, runs, marker.unlink)

    assert marker.read_text(encoding="utf-8") == real(workspace) + "\n"


async def test_a9_k6_a_removed_user_scope_is_made_again_in_a_worker_thread(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, _ = agent.workspace("app")

    await _changed_then_fresh(client, workspace, runs, lambda: shutil.rmtree(agent.user))

    assert agent.user.is_dir()


async def test_a9_k6a_the_visibility_flag_is_set_and_cleared_in_a_worker_thread(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, key = agent.workspace("app")
    scope = agent.root / key
    hidden = workspace.with_name("app-moved")

    await _changed_then_fresh(client, workspace, runs, lambda: workspace.rename(hidden))
    assert layout.NOT_VISIBLE_FILE in names(scope)
    # with the flag set and the Workspace still away, a repeat start is on the loop again
    _, away_runs = await _start_counted(client, workspace, runs)
    assert [(run.cached_only, run.needed_blocking_io) for run in away_runs] == [(True, False)]

    await _changed_then_fresh(client, workspace, runs, lambda: hidden.rename(workspace))
    assert layout.NOT_VISIBLE_FILE not in names(scope)


async def test_a9_q4_the_agents_new_prompt_is_read_in_a_worker_thread(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    workspace, _ = agent.workspace("app")
    await _start(client, workspace)
    response = await client.patch(
        f"/api/projects/{agent.project}/agents/{agent.id}/config",
        json={"memory": {"prompt": "Notes kept for you:\n{{MEMORY_USER_INDEX}}"}},
    )
    assert response.status == 200, await response.text()

    answer, changed_runs = await _start_counted(client, workspace, runs)

    assert [(run.cached_only, run.needed_blocking_io) for run in changed_runs] == [
        (True, True),
        (False, False),
    ]
    assert answer["memory"].startswith("Notes kept for you:")


async def test_k6a_a_repeat_session_start_reads_no_mount_file_and_one_on_another_disk_writes_it(
    client: Client, agent: AgentHome, runs: list[Run]
) -> None:
    """The file is read once per version: a repeat start answers on the loop. A file recording
    another filesystem (as one written while the path lay on another disk) is written again, in
    a worker thread, with the Workspace's own device."""
    workspace, key = agent.workspace("app")
    mount_file = agent.root / key / layout.MOUNT_FILE
    await _start(client, workspace)
    _, again = await _start_counted(client, workspace, runs)
    assert [(_on_the_loop(run), run.needed_blocking_io, run.opened) for run in again] == [
        (True, False, ())
    ]
    point, device, origin = mount_file.read_text(encoding="utf-8").splitlines()
    assert int(device) == workspace.stat().st_dev
    assert (point, origin) == (workspace_mount.mount_point(str(workspace)), mount_origin(workspace))

    mount_file.write_text(f"{agent.tmp}/drive\n{workspace.stat().st_dev + 1}\n", encoding="utf-8")
    _, moved = await _start_counted(client, workspace, runs)

    assert [(_on_the_loop(run), run.needed_blocking_io) for run in moved] == [
        (True, True),
        (False, False),
    ]
    assert mount_file.read_text(encoding="utf-8") == (
        f"{point}\n{workspace.stat().st_dev}\n{origin}\n"
    )


async def test_k6a_a_mount_file_it_cannot_write_is_said_once_and_written_once_it_can(
    client: Client,
    agent: AgentHome,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A read-only data dir: the Session starts each time and the failure is logged once; the
    write is tried again at each start, so once the disk takes writes (remounted read-write,
    an entry in the file's way removed) the file is kept, never stale until a restart."""
    workspace, key = agent.workspace("app")
    writes = held_writes.replace_in

    def read_only(root: Path, folder: Path, name: str, data: bytes) -> None:
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(folder / name))

    monkeypatch.setattr(workspace_mount, "replace_in", read_only)
    with caplog.at_level(logging.WARNING, logger=workspace_mount.__name__):
        first = await _start(client, workspace)
        second = await _start(client, workspace)
        await _start(client, workspace)
    assert first["key"] == second["key"] == key
    assert not (agent.root / key / layout.MOUNT_FILE).exists()
    said = [record.getMessage() for record in caplog.records if layout.MOUNT_FILE in record.message]
    assert len(said) == 1
    assert "Read-only file system" in said[0]

    monkeypatch.setattr(workspace_mount, "replace_in", writes)  # writable again
    await _start(client, workspace)
    device = workspace.stat().st_dev
    assert (
        (agent.root / key / layout.MOUNT_FILE)
        .read_text(encoding="utf-8")
        .endswith(f"\n{device}\n{mount_origin(workspace)}\n")
    )
