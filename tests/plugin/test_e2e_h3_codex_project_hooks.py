"""H-3, H-6 with the real Codex CLI: an install made once for a project runs beside the user
install until the uninstall ``status`` names takes it out.

``CODEX_HOME=<repo>/.codex harness-memory install codex`` left its hooks in the project's
``.codex/hooks.json``. Codex reads that folder as a project layer once the project is trusted
and runs the hooks there the user trusted (their entries in the user's own ``[hooks.state]``):
the model's first request carries Agent Memory's section twice. ``status`` in the repository
says PROBLEM and names ``CODEX_HOME=<repo>/.codex <the program> uninstall codex``; after it,
once. In a linked worktree the main checkout's ``.codex/`` hooks run, and are named.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness_memory.installers.codex import trust_hash
from memory_core.keys import workspace_memory_key

from tests.plugin.harness_run import install, run_codex, workspace_with_key
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService
from tests.plugin.test_h3_codex_project_hooks import git
from tests.support.codex_turns import developer_and_user_text
from tests.support.serve import code_under_test

pytestmark = pytest.mark.e2e


def trusting(workspace: Path) -> str:
    """The user's ``config.toml`` lines that trust the project ``workspace`` and each hook of
    its ``.codex/hooks.json``, as Codex writes them once the user approves them."""
    hooks_json = workspace.resolve() / ".codex" / "hooks.json"
    written = json.loads(hooks_json.read_text(encoding="utf-8"))["hooks"]
    lines = f'\n[projects."{workspace.resolve()}"]\ntrust_level = "trusted"\n'
    labels = {"SessionStart": "session_start", "PreToolUse": "pre_tool_use"}
    labels["PostToolUse"] = "post_tool_use"
    for event, label in labels.items():
        for g, group in enumerate(written[event]):
            for h, handler in enumerate(group["hooks"]):
                key = f"{hooks_json}:{label}:{g}:{h}"
                lines += f'\n[hooks.state."{key}"]\n'
                lines += f'trusted_hash = "{trust_hash(event, group, handler)}"\n'
    return lines


def harness_memory(verb: str, home: Path, workspace: Path, **env: str) -> tuple[int, str]:
    """``harness-memory VERB [codex]`` run in ``workspace`` as the user (``env`` added)."""
    words = [str(HARNESS_MEMORY), verb, *([] if verb == "status" else ["codex"])]
    done = subprocess.run(
        [*words, "--home", str(home)],
        capture_output=True,
        text=True,
        check=False,
        cwd=workspace,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", **code_under_test(), **env},
    )
    return done.returncode, done.stdout + done.stderr


def named_and_taken_out(home: Path, workspace: Path, folder: Path) -> None:
    """``status`` in ``workspace`` says PROBLEM for ``folder``'s ``hooks.json`` and fails,
    naming the uninstall of that folder with the program as typed; that uninstall runs."""
    status, said = harness_memory("status", home, workspace)
    named = [line for line in said.splitlines() if f"{folder}/hooks.json holds" in line]
    assert status == 1 and named and named[0].startswith("codex: PROBLEM:"), said
    assert f"CODEX_HOME={folder} {HARNESS_MEMORY} uninstall codex" in named[0], named[0]
    status, said = harness_memory("uninstall", home, workspace, CODEX_HOME=str(folder))
    assert status == 0, said


async def injected(
    service: RealService, memory_root: Path, agent: str, workspace: Path, trusted: str
) -> int:
    """How often a Codex Session of ``agent`` in ``workspace`` (the user install in
    ``<workspace's parent>/home/.codex``, ``trusted`` added to the user's config.toml) gets
    Agent Memory's section in its first request."""
    tmp_path = workspace.parent
    fake, status, _, err = await run_codex(
        [], service, memory_root, workspace, tmp_path, config_extra=trusted, agent=agent
    )
    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    return first.count(f"- Workspace Memory Key: {workspace_memory_key(workspace)}")


async def test_h3_codex_project_install_injects_twice_until_its_uninstall(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    workspace = workspace_with_key(tmp_path)[0]
    folder = workspace / ".codex"
    folder.mkdir()
    project = {"CODEX_HOME": str(folder)}
    install("codex", home, shared_service, shared_memory_root, agent=new_agent, env=project)
    trusted = trusting(workspace)

    async def injections() -> int:
        return await injected(shared_service, shared_memory_root, new_agent, workspace, trusted)

    assert await injections() == 2
    named_and_taken_out(home, workspace, folder)

    assert await injections() == 1
    said = harness_memory("status", home, workspace)[1]
    assert f"{folder}/hooks.json holds" not in said, said


async def test_h3_codex_main_checkouts_install_runs_in_its_linked_worktree(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """In a linked worktree with a committed ``.codex/``, Codex runs the hooks of the main
    checkout's ``.codex/`` (an install made for it): two injections; ``status`` in the
    worktree names that folder's ``hooks.json`` and its uninstall; after it, one."""
    home = tmp_path / "home"
    main = tmp_path / "shop"
    folder = main / ".codex"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text("# the project's settings\n", encoding="utf-8")
    git("init", "-q", cwd=main)
    git("add", ".codex/config.toml", cwd=main)
    git("commit", "-q", "-m", "codex settings", cwd=main)
    project = {"CODEX_HOME": str(folder)}
    install("codex", home, shared_service, shared_memory_root, agent=new_agent, env=project)
    worktree = tmp_path / "shop-wt"
    git("worktree", "add", "-q", str(worktree), cwd=main)
    trusted = f'\n[projects."{worktree.resolve()}"]\ntrust_level = "trusted"\n' + trusting(main)

    async def injections() -> int:
        return await injected(shared_service, shared_memory_root, new_agent, worktree, trusted)

    assert await injections() == 2
    named_and_taken_out(home, worktree, folder)

    assert await injections() == 1
