"""H-4, K-1 on the plugin's offline and remote paths: a Workspace whose real path cannot be
known (a symlink on its way the kernel will not read, or more than 40 of them) gets no key made
up from its spelling; the files do not stand in, with a named error the Session start fails
open on (P-2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from harness_memory.offline import OfflineUnavailableError, session_start_from_files
from harness_memory.remote import RemoteCopy, RemoteError
from memory_core import proc_paths
from memory_core.keys import key_for_real_path

from tests.support.symlink_chain import chain_of_links
from tests.support.unreadable_link import unreadable_link


def test_h4_a_workspace_through_a_symlink_that_cannot_be_read_gets_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    locked = unreadable_link(tmp_path / "root", Path("/"), monkeypatch)

    with pytest.raises(OfflineUnavailableError, match="cannot be read") as raised:
        session_start_from_files(
            memory_root, project="acme", agent="coder", workspace=str(locked / "src" / "app")
        )

    assert str(locked) in str(raised.value)


def test_h4_a_workspace_through_41_symlinks_gets_no_key_as_the_service_gives_none(
    tmp_path: Path,
) -> None:
    """The kernel follows 40 symlinks and answers ELOOP beyond; the service refuses such a
    Workspace (400), so the files do not make up a key for it either (K-1)."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    workspace = chain_of_links(tmp_path / "chain", 41)

    with pytest.raises(OfflineUnavailableError, match="Too many levels of symbolic links"):
        session_start_from_files(memory_root, project="acme", agent="coder", workspace=workspace)


def test_h4_a_remote_copy_derives_no_key_through_41_symlinks(tmp_path: Path) -> None:
    copy = RemoteCopy(
        url="http://127.0.0.1:9",
        token=None,
        project="acme",
        agent="coder",
        state_dir=tmp_path / "state",
        timeout=30.0,  # a hang guard, not a budget: the path is refused before any request
    )
    near = chain_of_links(tmp_path / "near", 40)
    assert copy.workspace_key(near) == key_for_real_path(str(tmp_path / "near" / "real"))

    with pytest.raises(RemoteError, match="Too many levels of symbolic links"):
        copy.workspace_key(chain_of_links(tmp_path / "far", 41))
    with pytest.raises(RemoteError, match="Too many levels of symbolic links"):
        copy.sync(chain_of_links(tmp_path / "farther", 41))


def through_proc(tmp_path: Path) -> list[str]:
    """Workspace paths whose walk reaches procfs, each naming ``tmp_path / "w"`` once
    ``realpath`` has turned the magic link into the folder it shows in this process: spelt
    under ``/proc``, and a symlink into ``/proc``."""
    (tmp_path / "w").mkdir()
    (tmp_path / "to-proc").symlink_to("/proc/self/root")
    return [f"/proc/self/root{tmp_path}/w", f"{tmp_path}/to-proc{tmp_path}/w"]


def test_h4_a_workspace_through_proc_gets_no_key_offline_or_in_a_sync(tmp_path: Path) -> None:
    """A-9, K-1: ``/proc/<pid>/root/w`` is ``/w`` in another process's mount namespace (another
    container), which ``realpath`` turns into this one's ``/w``: the service refuses such a path
    (400), so the files do not stand in for it and a remote copy keys and syncs nothing for it
    (two containers with one inner path would have shared one scope)."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    copy = RemoteCopy(
        url="http://127.0.0.1:9",
        token=None,
        project="acme",
        agent="coder",
        state_dir=tmp_path / "state",
        timeout=30.0,  # a hang guard, not a budget: the path is refused before any request
    )
    for workspace in through_proc(tmp_path):
        with pytest.raises(OfflineUnavailableError, match="reaches the proc file system"):
            session_start_from_files(
                memory_root, project="acme", agent="coder", workspace=workspace
            )
        with pytest.raises(RemoteError, match="reaches the proc file system"):
            copy.workspace_key(workspace)
        with pytest.raises(RemoteError, match="reaches the proc file system"):
            copy.sync(workspace)
    # the folder by its own path, and a symlink that stays out of /proc, are keyed as ever
    (tmp_path / "link").symlink_to(tmp_path / "w")
    assert copy.workspace_key(str(tmp_path / "link")) == key_for_real_path(str(tmp_path / "w"))


def test_h4_without_proc_a_workspace_through_a_symlink_keeps_its_real_paths_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A harness without ``/proc`` (no mount table: a sandbox, a chroot) has no procfs for a
    Workspace path to reach: the files stand in with the real path's key, as the service keys
    it; a table that is there but cannot be read is no answer, and no key is made up."""
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (tmp_path / "w").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "w")
    start = {"project": "acme", "agent": "coder", "workspace": str(tmp_path / "link")}

    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(tmp_path / "no-proc" / "mountinfo"))
    answer = session_start_from_files(memory_root, **start)
    assert answer.key == key_for_real_path(str(tmp_path / "w"))

    monkeypatch.setattr(proc_paths, "_MOUNTINFO", str(tmp_path))  # there, not a readable table
    with pytest.raises(OfflineUnavailableError, match="proc"):
        session_start_from_files(memory_root, **start)
