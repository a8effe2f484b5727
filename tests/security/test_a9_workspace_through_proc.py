"""A-9, K-3: a Workspace path through the proc file system names the service, not a Workspace.

``/proc/self/cwd`` resolves to the service's own working directory, ``/proc/self/fd/N`` to a
file the service holds open, ``/proc/<pid>/root/…`` to a path as that process sees it: a key
derived from it would make a Workspace scope (and a marker) for a folder the harness never
worked in. The service refuses any path whose resolution, as the kernel walks it, reaches
procfs (a symlink into ``/proc`` included) with a 400 saying so, and makes nothing. The app
runs in this test's own process, so ``/proc/self`` here is the service's.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_api.store import sessions
from memory_core import proc_paths
from memory_core.errors import UnresolvablePath

from tests.api.conftest import AgentHome, Client, expect_problem, memory_url, names, ok_json


@pytest.fixture
def open_folder(agent: AgentHome) -> Iterator[int]:
    """A descriptor of a real folder the service's process holds open."""
    folder = agent.tmp / "held"
    folder.mkdir()
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    yield descriptor
    os.close(descriptor)


def _spellings(agent: AgentHome, descriptor: int) -> dict[str, str]:
    inner = agent.tmp / "src" / "app"
    inner.mkdir(parents=True)
    into_proc = agent.tmp / "looks-plain"
    into_proc.symlink_to("/proc/self/cwd", target_is_directory=True)
    return {
        "cwd": "/proc/self/cwd",
        "thread cwd": "/proc/thread-self/cwd",
        "pid root": f"/proc/{os.getpid()}/root{inner}",
        "fd": f"/proc/self/fd/{descriptor}",
        "fd and up": f"/proc/self/fd/{descriptor}/../src/app",
        "proc itself": "/proc",
        "symlink into proc": str(into_proc),
        "dot-dot into proc": f"{inner}/../../../../../../../../../../../../proc/self/cwd",
    }


@pytest.mark.parametrize(
    "spelling",
    [
        "cwd",
        "thread cwd",
        "pid root",
        "fd",
        "fd and up",
        "proc itself",
        "symlink into proc",
        "dot-dot into proc",
    ],
)
async def test_a9_a_workspace_path_reaching_proc_is_400_and_makes_no_scope(
    client: Client, agent: AgentHome, open_folder: int, spelling: str
) -> None:
    workspace = _spellings(agent, open_folder)[spelling]

    response = await client.post(f"{memory_url()}/session-start", json={"workspace": workspace})

    problem = await expect_problem(response, 400, "reaches the proc file system")
    assert "names the service's own process" in problem["detail"]
    assert names(agent.root) == ["user"]


async def test_a9_the_folder_itself_is_still_a_workspace(
    client: Client, agent: AgentHome, open_folder: int
) -> None:
    """What the refused spellings lead to is an ordinary Workspace when named by its own path."""
    workspace = agent.tmp / "held"

    answer = await ok_json(
        await client.post(f"{memory_url()}/session-start", json={"workspace": str(workspace)})
    )

    assert answer["workspaceKind"] == "persistent"
    assert len(names(agent.root)) == 2


async def test_a9_a_mount_table_that_cannot_be_read_never_lets_a_link_into_proc_pass(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a walk reaches procfs is read from the mount table at each walk: one that cannot
    be read (no descriptor left, EMFILE) is a 503 for a path that needs it, never "no procfs";
    the next walk reads it again. A path that is its own real path needs no table."""
    into_proc = agent.tmp / "looks-plain"
    into_proc.symlink_to("/proc/self/cwd", target_is_directory=True)
    plain = agent.tmp / "plain"
    plain.mkdir()
    url = f"{memory_url()}/session-start"
    unreadable = agent.tmp / "mount-table-unreadable"
    unreadable.mkdir()  # there, but reading it fails (EISDIR), as EMFILE would
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(unreadable))

    await expect_problem(
        await client.post(url, json={"workspace": str(into_proc)}), 503, "mount table"
    )
    answer = await ok_json(await client.post(url, json={"workspace": str(plain)}))
    assert answer["workspaceKind"] == "persistent"

    monkeypatch.undo()  # readable again: judged again, not by a verdict kept from before
    await expect_problem(
        await client.post(url, json={"workspace": str(into_proc)}), 400, "proc file system"
    )


def test_a9_a_device_is_judged_by_the_mount_table_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Device numbers are reused by the next mount: a folder on a device a procfs mount once
    had is judged by the table as it is now, in both directions."""
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "link"
    link.symlink_to(folder, target_is_directory=True)
    device = folder.stat().st_dev
    major, minor = os.major(device), os.minor(device)
    table = tmp_path / "mountinfo"
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(table))

    table.write_text(f"22 1 {major}:{minor} / / rw - proc proc rw\n", encoding="utf-8")
    assert proc_paths.on_proc(str(link)) == "/" + tmp_path.parts[1]  # the walk's first step
    table.write_text(f"22 1 {major}:{minor} / / rw - tmpfs tmpfs rw\n", encoding="utf-8")
    assert proc_paths.on_proc(str(link)) is None


def test_a9_a_carriage_return_in_a_mount_point_ends_no_line_of_the_mount_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel ends a mount table line at a newline only (it escapes one in a path, never a
    carriage return): a procfs mount whose mount point holds a ``\r`` is one line, read whole,
    and a walk reaching its device is refused as ever."""
    folder = tmp_path / "proc\rhere"
    folder.mkdir()
    link = tmp_path / "link"
    link.symlink_to(folder, target_is_directory=True)
    device = folder.stat().st_dev
    table = tmp_path / "mountinfo"
    table.write_bytes(
        b"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
        + f"40 22 {os.major(device)}:{os.minor(device)} / {folder} rw - proc proc rw\n".encode()
    )
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(table))

    assert proc_paths.on_proc(str(link)) == "/" + tmp_path.parts[1]  # the walk's first step


async def test_a9_without_proc_mounted_a_path_through_a_link_is_refused_saying_so(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A service in a container without ``/proc`` has no mount table at all: whether a path
    through a symlink reaches procfs cannot be told, and retrying will not tell it. That is a
    refusal of this path (400) saying why and what to send or mount instead, never a 503
    "try again" that reads as the service being down; nothing is made. A Workspace named by
    its own real path (what the harness sends) needs no table and starts as ever."""
    real = agent.tmp / "real"
    real.mkdir()
    link = agent.tmp / "link"
    link.symlink_to(real, target_is_directory=True)
    url = f"{memory_url()}/session-start"
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(agent.tmp / "no-proc" / "mountinfo"))

    for spelling in (str(link), f"{real}/../real"):
        problem = await expect_problem(
            await client.post(url, json={"workspace": spelling}), 400, "/proc is not mounted"
        )
        assert "try again" not in problem["detail"]
        assert "send the Workspace's real path" in problem["detail"]
        assert names(agent.root) == ["user"]
    answer = await ok_json(await client.post(url, json={"workspace": str(real)}))
    assert answer["workspaceKind"] == "persistent"


async def test_a9_without_proc_mounted_the_refusal_names_what_it_saw_on_the_path(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without ``/proc`` mounted the refusal says why this path needed the mount table, and
    only what is true of it: a path spelt under ``/proc`` with no link on it is named as that,
    never as "it resolves through a symlink or '..'"; a link the service may not read (a
    process it may not trace) names that link."""
    url = f"{memory_url()}/session-start"
    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(agent.tmp / "no-proc" / "mountinfo"))

    problem = await expect_problem(
        await client.post(url, json={"workspace": "/proc/sys"}), 400, "/proc is not mounted"
    )
    assert "it is spelt under /proc" in problem["detail"]
    assert "symlink" not in problem["detail"]

    def unreadable_link(path: str) -> str:
        raise UnresolvablePath("/proc/1/root", "Permission denied")

    monkeypatch.setattr(sessions, "real_path", unreadable_link)
    problem = await expect_problem(
        await client.post(url, json={"workspace": "/proc/1/root/srv"}), 400, "/proc is not mounted"
    )
    assert "the symlink '/proc/1/root' on its way cannot be read" in problem["detail"]
    assert "resolves through" not in problem["detail"]
    assert names(agent.root) == ["user"]
