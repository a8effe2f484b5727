"""H-3, H-6 with the real Codex CLI: an install made once for a project runs beside the user
install until the uninstall ``status`` names takes it out.

``CODEX_HOME=<repo>/.codex harness-memory install codex`` left its hooks in the project's
``.codex/hooks.json``. Codex reads that folder as a project layer once the project is trusted
and runs the hooks there the user trusted (their entries in the user's own ``[hooks.state]``):
the model's first request carries Agent Memory's section twice. ``status`` in the repository
says PROBLEM and names ``CODEX_HOME=<repo>/.codex harness-memory uninstall codex``; after it,
once.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from harness_memory.installers.codex import trust_hash

from tests.plugin.harness_run import install, run_codex, workspace_with_key
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService
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


async def test_h3_codex_project_install_injects_twice_until_its_uninstall(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    workspace, key = workspace_with_key(tmp_path)
    folder = workspace / ".codex"
    folder.mkdir()
    project = {"CODEX_HOME": str(folder)}
    install("codex", home, shared_service, shared_memory_root, agent=new_agent, env=project)
    trusted = trusting(workspace)

    async def injections() -> int:
        """How often a Codex Session in the project (the user install in ~/.codex) gets
        Agent Memory's section in its first request."""
        fake, status, _, err = await run_codex(
            [],
            shared_service,
            shared_memory_root,
            workspace,
            tmp_path,
            config_extra=trusted,
            agent=new_agent,
        )
        assert status == 0, err[-3000:]
        first = developer_and_user_text(fake.session_turns()[0])
        return first.count(f"- Workspace Memory Key: {key}")

    assert await injections() == 2
    status, said = harness_memory("status", home, workspace)
    named = [line for line in said.splitlines() if f"{folder}/hooks.json holds" in line]
    assert status == 1 and named and named[0].startswith("codex: PROBLEM:"), said
    assert f"CODEX_HOME={folder} harness-memory uninstall codex" in named[0]
    status, said = harness_memory("uninstall", home, workspace, **project)
    assert status == 0, said

    assert await injections() == 1
    said = harness_memory("status", home, workspace)[1]
    assert f"{folder}/hooks.json holds" not in said, said
