"""H-7: the ``rm`` uninstall prints for a token it left removes the state folder's
``.gitignore`` only with the folder itself (``rm … && rmdir …``): while anything else stays
there (the install record, Session records), the ``.gitignore`` keeps it out of a dotfiles
repository's ``git add -A``.

A reviewer ran the printed ``rm`` in ``~/.codex`` kept in git with ``install.json`` and
``sessions/s1.json`` left: ``git status`` showed both untracked.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from harness_memory.installers.record import IGNORE_NAME, IGNORE_TEXT, removal_command

GIT_ENV = {"PATH": os.environ["PATH"], "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def state_folder(settings: Path, *others: str) -> Path:
    """``settings/harness-memory`` in a git work tree holding a token, its record, the
    install's ``.gitignore`` and ``others``; its token file."""
    subprocess.run(["git", "init", "-q", str(settings)], check=True, env=GIT_ENV)
    state = settings / "harness-memory"
    (state / "sessions").mkdir(parents=True)
    for name in ("token", "token.url", *others):
        (state / name).write_text("x\n")
    (state / IGNORE_NAME).write_text(IGNORE_TEXT)
    return state / "token"


def untracked(settings: Path) -> str:
    return subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=settings, env=GIT_ENV, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip


@pytest.mark.parametrize("left", ["install.json", "sessions/s1.json"])
def test_h7_the_printed_rm_keeps_the_gitignore_while_other_state_stays(
    tmp_path: Path, left: str
) -> None:
    settings = tmp_path / ".codex"
    token = state_folder(settings, left)

    command = removal_command(token)
    subprocess.run(["sh", "-c", command], check=True, env=GIT_ENV)

    assert IGNORE_NAME not in command
    assert (token.parent / IGNORE_NAME).read_text() == IGNORE_TEXT
    assert untracked(settings) == ""


def test_h7_the_printed_rm_removes_the_gitignore_with_the_folder(tmp_path: Path) -> None:
    settings = tmp_path / ".codex"
    token = state_folder(settings)
    (token.parent / "sessions").rmdir()

    subprocess.run(["sh", "-c", removal_command(token)], check=True, env=GIT_ENV)

    assert not token.parent.exists()


def test_h7_the_printed_rm_removes_the_folder_in_a_settings_folder_reached_by_a_link(
    tmp_path: Path,
) -> None:
    """``~/.codex`` a link into a dotfiles folder (the usual layout): its ``harness-memory`` is
    a real folder of the plugin's, removed with the rest (review rv-fix68u: the link above it
    lost the ``rmdir``)."""
    token = state_folder(tmp_path / "dots" / "codex")
    (token.parent / "sessions").rmdir()
    (tmp_path / ".codex").symlink_to(tmp_path / "dots" / "codex")
    linked_token = tmp_path / ".codex" / "harness-memory" / "token"

    command = removal_command(linked_token)
    subprocess.run(["sh", "-c", command], check=True, env=GIT_ENV)

    assert "rmdir" in command
    assert not token.parent.exists()
    assert (tmp_path / "dots" / "codex").is_dir()


def test_h7_the_printed_rm_never_removes_a_linked_folder(tmp_path: Path) -> None:
    """A ``harness-memory`` folder that is itself a link to a store: the store is the user's,
    so the printed command removes the files the plugin wrote and no folder (A-10)."""
    store = state_folder(tmp_path / "store").parent
    (store / "sessions").rmdir()
    (tmp_path / ".codex").mkdir()
    (tmp_path / ".codex" / "harness-memory").symlink_to(store)

    command = removal_command(tmp_path / ".codex" / "harness-memory" / "token")
    subprocess.run(["sh", "-c", command], check=True, env=GIT_ENV)

    assert "rmdir" not in command
    assert store.is_dir()
