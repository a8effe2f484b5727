"""R-1: a machine's local copy whose git cannot say what waits to be sent never says nothing
waits.

The copy's git index is a file git rewrites at each sync; a crash or a full disk can leave it
torn. Every later sync then failed, and ``harness-memory status`` (``RemoteCopy.status``) said
"nothing waits" of a scope whose agent had written a memory since its last sync, which had
never been sent (and the failed sync's own result said ``waiting: false``). Right: changes
may wait, and why it cannot tell is said; and the next sync makes the index again from the
copy's last commit (it is only git's cache of it), so every file the agent wrote, edited or
deleted since reaches the service, and the syncs after it run as before.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.test_r1_hostile_service import _copy, _publish, stand_in
from tests.support.refused_account import refused_prefix
from tests.support.serve import code_under_test

__all__ = ["stand_in"]  # the fixture, used by name


def test_r1_a_copy_whose_index_is_torn_never_says_nothing_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    note = "---\nname: new\ndescription: d\n---\nbody\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    (copy.sync_dir / "user.git" / "index").write_bytes(b"DIRC torn")

    (scope,) = copy.status()
    result = copy.sync_scope("user")

    assert scope.waiting
    assert scope.last_error is not None and "index" in scope.last_error
    assert not result.ok and result.waiting


def _tears(index: bytes) -> dict[str, bytes]:
    """What a crash or a full disk leaves of the index ``index`` while git writes it."""
    return {
        "garbage": b"DIRC torn",
        "empty": b"",
        "header only": index[:40],  # git reads an entry of no name and no blob
        "cut in half": index[: len(index) // 2],
        # the first entry's mode (bytes 36 to 40, after the 12-byte header and its times,
        # device and inode) of zeros: git 2.39's status aborts ("BUG: … unsupported ce_mode")
        "a mode of zeros": index[:36] + bytes(4) + index[40:],
        "a mode of no kind": index[:36] + (0o100000).to_bytes(4, "big") + index[40:],
    }


TEARS = ["garbage", "empty", "header only", "cut in half", "a mode of zeros", "a mode of no kind"]


@pytest.mark.parametrize("tear", TEARS)
def test_r1_a_torn_index_is_made_again_and_every_change_reaches_the_service(
    stand_in: tuple[str, Path], tmp_path: Path, tear: str
) -> None:
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Old](old.md) — d\n", encoding="utf-8")
    (work / "old.md").write_text("---\nname: old\ndescription: d\n---\nold body\n", "utf-8")
    (work / "gone.md").write_text("---\nname: gone\ndescription: d\n---\nbody\n", "utf-8")
    _publish(work, "first")
    _served_git(work, "config", "http.receivepack", "true")  # the stand-in takes pushes
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    index = copy.sync_dir / "user.git" / "index"
    index.write_bytes(_tears(index.read_bytes())[tear])
    scope = copy.memory_root / "user"
    new = "---\nname: new\ndescription: d\n---\nwritten after the tear\n"
    (scope / "new.md").write_text(new, encoding="utf-8")
    edited = "---\nname: old\ndescription: d\n---\nedited after the tear\n"
    (scope / "old.md").write_text(edited, encoding="utf-8")
    (scope / "gone.md").unlink()

    result = copy.sync_scope("user")

    assert result.ok and result.sent, result.error
    assert any("index" in line and "torn" in line for line in result.outcomes)
    sent = _served_files(work, f"refs/machines/{copy.machine_id}")
    assert sent == {
        "MEMORY.md": "- [Old](old.md) — d\n",
        "new.md": new,
        "old.md": edited,
    }
    assert copy.sync_scope("user").ok  # and the syncs after it run as any do


def _served_git(work: Path, *args: str) -> str:
    """git run on the stand-in service's repository; its output."""
    served = work.parent / "served" / "scope.git"
    done = subprocess.run(["git", f"--git-dir={served}", *args], capture_output=True, check=True)
    return done.stdout.decode("utf-8")


def _served_files(work: Path, ref: str) -> dict[str, str]:
    """The files of the stand-in service's ``ref``: name → text."""
    listing = _served_git(work, "ls-tree", "--name-only", "-z", ref)
    return {
        name: _served_git(work, "show", f"{ref}:{name}") for name in listing.split("\0") if name
    }


def test_r1_a_lock_a_stopped_sync_left_never_stops_the_syncs_after_it(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    """A hook killed by its harness's time limit while git wrote the index or moved a ref
    leaves ``index.lock`` (or ``refs/heads/main.lock``): git takes no lock another holds, so
    every later sync failed ("Unable to create '…/index.lock': File exists") and the agent's
    memories waited for a person. Only a sync, under the scope's lock, takes git's locks here,
    so one found at a sync's start is stale: it goes, and the changes reach the service."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Old](old.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    _served_git(work, "config", "http.receivepack", "true")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    git_dir = copy.sync_dir / "user.git"
    (git_dir / "index.lock").write_bytes(b"DIRC half written")
    (git_dir / "refs" / "heads" / "main.lock").write_text("0" * 40 + "\n", encoding="ascii")
    note = "---\nname: new\ndescription: d\n---\nwritten after the stop\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    copy.status()  # asks git without taking its locks: never the one left behind

    result = copy.sync_scope("user")

    assert result.ok and result.sent, result.error
    assert _served_files(work, f"refs/machines/{copy.machine_id}")["new.md"] == note
    assert not list(git_dir.rglob("*.lock"))


def test_r1_a_git_a_sync_started_keeps_the_scope_locked_until_it_ends(
    stand_in: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A git the sync started may outlive it: the hook killed at its harness's time limit
    leaves its git running, a fetch leaves an automatic ``gc`` in the background. Such a git
    may still hold ``index.lock`` or a ref's lock, which the next sync removes as stale; so
    each git holds the scope's lock until it ends (here a process git's first run leaves
    behind stands for both), and the next sync waits for it instead of racing it."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Old](old.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    left_behind = tmp_path / "left-behind.pid"
    _git_first_on_path(
        tmp_path,
        monkeypatch,
        f"if [ ! -e {left_behind} ]; then\n"
        f"  sleep 300 </dev/null >/dev/null 2>&1 & echo $! > {left_behind}\n"
        "fi\n",
    )
    copy = _copy(url, tmp_path)

    assert copy.sync_scope("user").ok
    pid = int(left_behind.read_text(encoding="ascii"))
    with (copy.sync_dir / "user.lock").open("rb") as lock:
        try:
            with pytest.raises(BlockingIOError):  # still held by what the sync's git left
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.kill(pid, signal.SIGKILL)
        fcntl.flock(lock, fcntl.LOCK_EX)  # free once it ended (a hang here: the suite's timeout)


def test_r1_a_copy_whose_git_dir_may_not_be_read_never_says_nothing_waits(
    stand_in: tuple[str, Path], tmp_path: Path
) -> None:
    """A git dir this account may not search (another account's after a restore, a mode
    changed by hand): ``harness-memory sync --status`` (and ``status``) ended in a traceback,
    ``PermissionError`` on its ``HEAD``. Right: changes may wait, and why it cannot tell."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Note](note.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    note = "---\nname: new\ndescription: d\n---\nbody\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")
    git_dir = copy.sync_dir / "user.git"
    git_dir.chmod(0)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "HARNESS_MEMORY_URL": url, "HARNESS_MEMORY_PROJECT": "acme",
           "HARNESS_MEMORY_AGENT": "coder", "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "laptop"),
           **code_under_test()}  # fmt: skip
    try:
        done = subprocess.run(
            [*refused_prefix(), HARNESS_MEMORY, "sync", "--status"],
            env=env, capture_output=True, text=True, check=False, timeout=60,
        )  # fmt: skip
    finally:
        git_dir.chmod(0o700)

    assert done.returncode == 0, done.stderr
    assert "user: last sync" in done.stdout and "changes wait to go back" in done.stdout
    assert f"{git_dir}/HEAD: Permission denied" in done.stdout


def _git_unable_to_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Put a ``git`` first on PATH whose next ``status`` fails as git does when it must read
    an object its object store does not hold (``fatal: unable to read ID``, exit 128), for the
    ID written to the returned file; every other run is the real git's. (git 2.39's ``status``
    reads no object to say what changed; a git that does, or a racy entry, fails so.)"""
    said = tmp_path / "unreadable-object"
    _git_first_on_path(
        tmp_path,
        monkeypatch,
        'for arg; do if [ "$arg" = status ] && [ -e ' + f"{said} ]; then\n"
        f'  echo "fatal: unable to read $(cat {said})" >&2; rm {said}; exit 128\n'
        "fi; done\n",
    )
    return said


def _git_first_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, before: str) -> None:
    """Put a ``git`` first on PATH (in ``tmp_path/bin``) that runs the shell lines ``before``,
    then the real git with the same arguments."""
    wrapper = tmp_path / "bin" / "git"
    wrapper.parent.mkdir()
    real_git = shutil.which("git")
    assert real_git is not None
    wrapper.write_text(f'#!/bin/sh\n{before}exec {real_git} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.parametrize("named", ["the null id", "an object no commit holds"])
def test_r1_an_index_naming_an_object_no_commit_holds_is_torn_and_made_again(
    stand_in: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, named: str
) -> None:
    """An index entry cut short names the null id, and one whose object never reached the
    disk an id no commit of the copy holds: the index alone is at fault, and it is made
    again from the copy's last sync."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Old](old.md) — d\n", encoding="utf-8")
    _publish(work, "first")
    _served_git(work, "config", "http.receivepack", "true")
    said = _git_unable_to_read(tmp_path, monkeypatch)
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    said.write_text("0" * 40 if named == "the null id" else "5" * 40, encoding="ascii")
    note = "---\nname: new\ndescription: d\n---\nwritten after the tear\n"
    (copy.memory_root / "user" / "new.md").write_text(note, encoding="utf-8")

    result = copy.sync_scope("user")

    assert result.ok and result.sent, result.error
    assert any("index" in line and "torn" in line for line in result.outcomes)
    assert _served_files(work, f"refs/machines/{copy.machine_id}")["new.md"] == note


def test_r1_an_object_the_last_sync_holds_lost_from_the_copy_is_said_never_a_torn_index(
    stand_in: tuple[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git names a missing object in the same words whoever named it: a blob of the copy's
    last commit lost from its object store (a disk error, a file of ``objects/`` removed) was
    taken for a torn index, the index deleted and "made again" from a commit that cannot be
    read whole, and the outcome blamed the index. The sync now says which object of its last
    sync is lost, and leaves the index as it is."""
    url, work = stand_in
    (work / "MEMORY.md").write_text("- [Old](old.md) — d\n", encoding="utf-8")
    (work / "old.md").write_text("---\nname: old\ndescription: d\n---\nold body\n", "utf-8")
    _publish(work, "first")
    said = _git_unable_to_read(tmp_path, monkeypatch)
    copy = _copy(url, tmp_path)
    assert copy.sync_scope("user").ok
    git_dir = copy.sync_dir / "user.git"
    blob = subprocess.run(
        ["git", f"--git-dir={git_dir}", "rev-parse", "main:old.md"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (git_dir / "objects" / blob[:2] / blob[2:]).unlink()  # a loose object: the fetch was small
    said.write_text(blob, encoding="ascii")
    index = (git_dir / "index").read_bytes()

    result = copy.sync_scope("user")

    assert not result.ok
    assert result.error is not None
    assert f"lacks git object {blob}, the file 'old.md' of its last sync" in result.error
    assert "not its index" in result.error
    assert not any("torn" in line for line in result.outcomes)
    assert (git_dir / "index").read_bytes() == index
