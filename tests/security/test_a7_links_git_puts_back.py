"""A-7: a symlink git puts back into a scope from its history is never followed out of the root.

An agent may keep a git repository of its own in a scope folder (``git init`` there) whose
history holds a symlink out of the memory root: a topic file ``leak.md`` and the scope's
``MEMORY.md`` each leading to a file outside. ``git checkout``, ``git restore``, ``git reset
--hard`` and ``git stash pop`` re-create such links (git writes a link as a link, and the
write guard cannot know before the call which tree a revision, the stash or the reflog will
lay out: P-3 judges the places a command names, not the content of git's objects). So the
service's reads are what hold: the re-created links are listed as refused entries, never
read, searched, injected or deleted through, and nothing outside changes.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from memory_core import layout

from tests.api.conftest import (
    AgentHome,
    Client,
    expect_problem,
    file_url,
    memory_url,
    ok_json,
)

SECRET = "TOP-SECRET-LINE: never served"
_GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "agent",
    "GIT_AUTHOR_EMAIL": "agent@example.invalid",
    "GIT_COMMITTER_NAME": "agent",
    "GIT_COMMITTER_EMAIL": "agent@example.invalid",
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
}
PUTTING_BACK = {
    "checkout": "git checkout -q HEAD~1 -- .",
    "restore": "git restore --source=HEAD~1 -- .",
    "reset --hard": "git reset -q --hard HEAD~1",
    "stash pop": "git stash pop -q",
}
"""git commands that lay a tree of the history out in the work tree, by name."""


def _git(scope: Path, script: str) -> None:
    subprocess.run(["sh", "-ec", script], cwd=scope, env=_GIT_ENV, check=True, capture_output=True)


def _history_with_links(scope: Path, outside: Path, way: str) -> None:
    """Give ``scope`` a repository of its own whose history (a commit, or the stash for
    ``stash pop``) holds ``leak.md`` and ``MEMORY.md`` as links to files in ``outside``, the
    work tree holding neither link."""
    (scope / "notes.md").write_text("---\ndescription: notes\n---\nnotes\n", encoding="utf-8")
    (scope / layout.INDEX_FILE).write_text("- [Notes](notes.md)\n", encoding="utf-8")
    links = (
        f"ln -sf {outside / 'secret.md'} leak.md && rm MEMORY.md && "
        f"ln -s {outside / 'MEMORY.md'} MEMORY.md && git add -A"
    )
    if way == "stash pop":
        _git(scope, f"git init -q && git add -A && git commit -qm one && {links} && git stash -q")
    else:
        _git(
            scope,
            f"git init -q && git add -A && git commit -qm one && {links} && git commit -qm two "
            "&& git revert --no-edit HEAD >/dev/null",
        )


@pytest.mark.parametrize("way", list(PUTTING_BACK))
async def test_a7_links_git_puts_back_from_history_are_never_read(
    client: Client, agent: AgentHome, way: str
) -> None:
    outside = agent.tmp / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"---\ndescription: {SECRET}\n---\n{SECRET}\n")
    (outside / "MEMORY.md").write_text(f"- [Secret](secret.md) {SECRET}\n")
    before = {entry.name: entry.read_bytes() for entry in outside.iterdir()}
    _history_with_links(agent.user, outside, way)
    assert not (agent.user / "leak.md").is_symlink()

    _git(agent.user, PUTTING_BACK[way])

    assert (agent.user / "leak.md").is_symlink() and (agent.user / "MEMORY.md").is_symlink()
    listing = await ok_json(await client.get(f"{memory_url()}/scopes/user/files"))
    assert [item["file"] for item in listing["files"]] == ["notes.md"]
    assert SECRET not in str(listing)
    await expect_problem(await client.get(file_url("user", "leak.md")), 404, "'leak.md'")
    index = await ok_json(await client.get(f"{memory_url()}/scopes/user/index"))
    assert SECRET not in str(index)
    found = await ok_json(await client.get(f"{memory_url()}/search", params={"q": "SECRET"}))
    assert SECRET not in str(found)
    temporary = agent.data_dir / "agents" / agent.id / "workspaces" / "t"
    temporary.mkdir(parents=True)
    start = await client.post(f"{memory_url()}/session-start", json={"workspace": str(temporary)})
    assert SECRET not in str(await ok_json(start))
    await expect_problem(await client.delete(file_url("user", "leak.md")), 404, "'leak.md'")
    assert {entry.name: entry.read_bytes() for entry in outside.iterdir()} == before
