"""Q-2b on the plugin's offline path (H-4): an index that is there but never read (a symlink out
of the memory root, a FIFO, a folder: T-5b) is said to be unreadable, as the service says it,
never "nothing saved yet" (case ``unreadable-memory-files``, its kind)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness_memory.offline import session_start_from_files


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("symlink", "a symlink to outside the memory root"),
        ("fifo", "not a regular file"),
        ("folder", "a folder, not a file"),
    ],
)
def test_q2b_offline_an_index_never_read_is_not_nothing_saved(
    tmp_path: Path, kind: str, why: str
) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    index = memory_root / "user" / "MEMORY.md"
    index.parent.mkdir(parents=True)
    if kind == "symlink":
        dotfiles = tmp_path / "dotfiles-MEMORY.md"
        dotfiles.write_text("- [Deploy](deploy.md) — staging first\n", encoding="utf-8")
        index.symlink_to(dotfiles)
    elif kind == "fifo":
        os.mkfifo(index)
    else:
        index.mkdir()
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "Nothing saved yet: the user memory index" not in answer.memory
    assert (
        "the user memory index could not be read: MEMORY.md is there, but Agent Memory "
        f"does not read it: it is {why}."
    ) in answer.memory


def test_q2b_offline_a_missing_index_is_nothing_saved(tmp_path: Path) -> None:
    memory_root = tmp_path / "app" / "agents" / "coder" / "agent_state" / "memory"
    (memory_root / "user").mkdir(parents=True)
    (memory_root / "user" / "MEMORY.md").symlink_to(memory_root / "user" / "gone.md")
    workspace = tmp_path / "shop-api"
    workspace.mkdir()

    answer = session_start_from_files(
        memory_root, project="acme", agent="coder", workspace=str(workspace)
    )

    assert "Nothing saved yet: the user memory index is empty" in answer.memory
