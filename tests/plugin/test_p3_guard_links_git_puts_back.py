"""P-3: a write through a symlink git put back into the own scope is judged where it lands.

A repository the agent keeps in its own scope folder may hold, in its history, a symlink into
another Workspace's scope; ``git checkout HEAD~1 -- .`` puts it back. The guard cannot know
before such a call which tree git lays out (a revision, the stash, the reflog: git's objects,
not the command's words), so it judges what comes after: every file tool and shell write
through the link is refused, as one through any link into another scope is; the service's
reads refuse the link's way out of the root (``tests/security/test_a7_links_git_puts_back.py``).
"""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.support.guard_cases import SHELL, Layout, answer, refusal

_GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "agent",
    "GIT_AUTHOR_EMAIL": "agent@example.invalid",
    "GIT_COMMITTER_NAME": "agent",
    "GIT_COMMITTER_EMAIL": "agent@example.invalid",
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
}


def _file_tool(harness: str, path: str) -> tuple[str, dict[str, str]]:
    """``harness``'s own file tool writing ``path``."""
    if harness == "claude-code":
        return "Write", {"file_path": path, "content": "x\n"}
    if harness == "codex":
        patch = f"*** Begin Patch\n*** Update File: {path}\n@@\n+x\n*** End Patch\n"
        return "apply_patch", {"command": patch}
    return "write_file", {"file_path": path, "content": "x\n"}


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_write_through_a_link_git_put_back_into_the_own_scope_is_refused(
    where: Layout, harness: str
) -> None:
    scope = where.root / where.own
    script = (
        f"git init -q && git add -A && git commit -qm one && ln -s ../{where.other}/MEMORY.md "
        "alias.md && git add -A && git commit -qm two && git revert --no-edit HEAD >/dev/null "
        "&& git checkout -q HEAD~1 -- ."
    )
    subprocess.run(["sh", "-ec", script], cwd=scope, env=_GIT_ENV, check=True)
    assert (scope / "alias.md").is_symlink()
    link = str(scope / "alias.md")

    tool, arguments = _file_tool(harness, link)
    shell = f"echo x >> {link}"

    assert refusal(answer(where, harness, tool, arguments)) is not None
    assert refusal(answer(where, harness, SHELL[harness][1], {"command": shell})) is not None
