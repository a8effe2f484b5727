"""R-1, V-1: a git dir's file that git would wait on (a FIFO, a socket) is named before git runs.

git opens ``packed-refs``, ``HEAD``, ``config`` and the ref files with a blocking ``open``: a
FIFO nobody writes held it until the caller's timeout (120 s). Both the service's histories and
a machine's sync copy ask :func:`memory_core.git_dir.blocking_entry` first.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from memory_core.git_dir import blocking_entry

from tests.support.socket_file import bound_socket


@pytest.fixture
def git_dir(tmp_path: Path) -> Path:
    """A bare repository with a commit on ``main``, its refs packed."""
    repository = tmp_path / "scope.git"
    subprocess.run(["git", "init", "-q", "--bare", str(repository)], check=True)
    tree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # the empty tree
    git = ["git", f"--git-dir={repository}"]
    subprocess.run([*git, "mktree"], input=b"", check=True, capture_output=True)  # writes it
    commit = subprocess.run(
        [*git, "-c", "user.name=t", "-c", "user.email=t@t", "commit-tree", tree, "-m", "v1"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    subprocess.run([*git, "update-ref", "refs/heads/main", commit], check=True)
    subprocess.run([*git, "pack-refs", "--all"], check=True)
    return repository


@pytest.mark.parametrize(
    "entry", ["packed-refs", "HEAD", "config", "refs/heads/main", "objects/info/alternates"]
)
def test_r1_a_fifo_git_opens_is_named_by_its_path_in_the_git_dir(git_dir: Path, entry: str) -> None:
    assert blocking_entry(git_dir) is None
    (git_dir / entry).unlink(missing_ok=True)
    os.mkfifo(git_dir / entry)
    assert blocking_entry(git_dir) == f"{entry} is a FIFO"


def test_r1_a_symlink_to_a_fifo_and_a_socket_are_named_too(git_dir: Path, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (git_dir / "packed-refs").unlink()
    (git_dir / "packed-refs").symlink_to(tmp_path / "pipe")
    assert blocking_entry(git_dir) == "packed-refs is a FIFO"
    (git_dir / "packed-refs").unlink()
    with bound_socket(git_dir / "refs" / "heads" / "side"):
        assert blocking_entry(git_dir) == "refs/heads/side is a socket"


def test_r1_what_git_never_opens_by_name_is_not_looked_at(git_dir: Path, tmp_path: Path) -> None:
    """A file of the caller's own beside git's (the service's ``memory-api-deletions.json``,
    which it reads without blocking), a loose object's folder, a dangling symlink: git says
    what those are, or never opens them."""
    os.mkfifo(git_dir / "memory-api-deletions.json")
    # a loose object's folder of its own (the commit's id, and so its folder, varies with time)
    objects = git_dir / "objects"
    loose = next(objects / f"{n:02x}" for n in range(256) if not (objects / f"{n:02x}").exists())
    loose.mkdir()
    os.mkfifo(loose / ("0" * 38))
    (git_dir / "refs" / "heads" / "gone").symlink_to(tmp_path / "nothing")
    assert blocking_entry(git_dir) is None
    assert blocking_entry(tmp_path / "no-such.git") is None
