"""Q-2b, A-7: a scope folder renamed or moved away while a request is served is said as it is:
the scope's folder is no longer where it was (moved or removed meanwhile), never "no topic
file" as though the file were absent from a scope still there, and never "swapped for a
symlink?" when no symlink was made.

Before, a read whose scope folder was renamed between the check and the open answered 404
"no topic file 'notes.md' in scope …", and one renamed between the open and the folder check
answered 503 "a folder on its way changed while it was opened (swapped for a symlink?)".
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from memory_api.store import containment, pruning
from memory_core.swap import open_waiting_for_lease

from tests.api.conftest import AgentHome, Client, expect_problem, file_url

MOVED = "was moved or removed while this request was served"


def _move_at_open(monkeypatch: pytest.MonkeyPatch, scope: Path, *, after: bool) -> None:
    """Rename ``scope`` away right before (or right after) the service opens its
    ``notes.md``: after every check."""

    def opening(
        path: Path | str, flags: int, wait: float = 2.0, *, dir_fd: int | None = None
    ) -> int:
        moving = Path(path).name == "notes.md" and scope.exists()
        if moving and not after:
            scope.rename(scope.with_name("moved-away"))
        fd = open_waiting_for_lease(path, flags, wait, dir_fd=dir_fd)
        if moving and after:
            scope.rename(scope.with_name("moved-away"))
        return fd

    monkeypatch.setattr(containment, "open_waiting_for_lease", opening)


@pytest.mark.parametrize("after", [False, True], ids=["before-the-open", "after-the-open"])
async def test_q2b_a_read_whose_scope_folder_moved_names_the_move(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch, after: bool
) -> None:
    _, key = agent.workspace("payroll-app")
    (agent.root / key / "notes.md").write_text("---\ndescription: d\n---\nbody\n")
    _move_at_open(monkeypatch, agent.root / key, after=after)

    answer = await client.get(file_url(key, "notes.md"))

    body = await expect_problem(answer, 404, MOVED)
    assert "symlink" not in body["detail"]
    assert "no topic file" not in body["detail"]


async def test_q2b_a_delete_whose_scope_folder_moved_names_the_move(
    client: Client, agent: AgentHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, key = agent.workspace("payroll-app")
    scope = agent.root / key
    (scope / "notes.md").write_text("---\ndescription: d\n---\nbody\n")
    held = containment.held_folder

    def moving_first(root: Path, folder: Path) -> AbstractContextManager[Path]:
        if folder == scope and scope.exists():  # after the checks, before it is held
            scope.rename(scope.with_name("moved-away"))
        return held(root, folder)

    monkeypatch.setattr(pruning, "held_folder", moving_first)

    body = await expect_problem(await client.delete(file_url(key, "notes.md")), 404, MOVED)

    assert "no topic file" not in body["detail"]
    assert (scope.with_name("moved-away") / "notes.md").exists()
