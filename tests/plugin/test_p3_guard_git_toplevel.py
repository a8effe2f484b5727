"""P-3: a relative write after the command's opening ``cd "$(git rev-parse --show-toplevel)"`` is
judged in the folder git names, asked of git before the command runs.

It was refused whatever the repository: the folder is built at run time, and ``core.worktree``
can point it anywhere, another Workspace's scope included. The guard now asks git itself, in the
folder the shell starts in and with the harness's environment, when that ``cd`` opens the
command (nothing has run before it that could change git's answer); the folder git prints is
judged like any folder a ``cd`` names. Each case is then run by bash, which writes where the
guard read it would.
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.guard_cases import Layout, answer, fill, refusal


def _git(where: Layout, *arguments: str) -> None:
    subprocess.run(["git", *arguments], cwd=where.workspace, check=True, capture_output=True)


def _bash(where: Layout, command: str) -> None:
    environment = {"PATH": os.environ["PATH"], "HOME": str(where.data)}
    subprocess.run(["bash", "-c", command], cwd=where.workspace, env=environment, check=False)


def test_p3_a_write_at_the_top_of_the_workspaces_repository_passes(where: Layout) -> None:
    _git(where, "init", "-q")
    (where.workspace / "src").mkdir()
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > build.log'

    assert answer(where, "claude-code", "Bash", {"command": command}) is None

    _bash(where, command)
    assert (where.workspace / "build.log").exists()


def test_p3_a_worktree_pointing_into_another_scope_is_refused_where_git_points(
    where: Layout,
) -> None:
    _git(where, "init", "-q")
    _git(where, "config", "core.worktree", str(where.root / where.other))
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > a.md'

    assert refusal(answer(where, "claude-code", "Bash", {"command": command})) is not None

    _bash(where, command)
    assert (where.root / where.other / "a.md").exists(), "bash wrote nothing there"


@pytest.mark.parametrize(
    "command",
    [
        # git's answer changes before the cd runs: the folder is known only at run time
        'git config core.worktree {root}/{other} && cd "$(git rev-parse --show-toplevel)" && '
        "echo x > a.md",
        'true; cd "$(git rev-parse --show-toplevel)" && echo x > a.md',
    ],
)
def test_p3_a_top_folder_asked_after_other_commands_stays_unknown(
    where: Layout, command: str
) -> None:
    _git(where, "init", "-q")
    shell = fill(command, where)

    reason = refusal(answer(where, "claude-code", "Bash", {"command": shell}))

    assert reason is not None and "builds at run time" in reason


def test_p3_a_top_folder_git_cannot_say_stays_unknown(where: Layout) -> None:
    """Not a repository: git prints nothing, and ``cd ""`` stays where it is."""
    command = 'cd "$(git rev-parse --show-toplevel)" && echo x > a.md'

    reason = refusal(answer(where, "claude-code", "Bash", {"command": command}))

    assert reason is not None and "builds at run time" in reason
