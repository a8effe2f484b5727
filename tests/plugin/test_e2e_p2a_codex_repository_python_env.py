"""P-2a, P-3 with the real Codex CLI: what a repository can write to set its hooks'
environment, a ``.env`` in the Workspace and a trusted project's ``.codex/config.toml``
``[shell_environment_policy] set``, with ``PYTHONPATH`` pointing at a ``harness_memory`` of the
repository's own. Codex CLI 0.171 passes neither to its hooks (measured: the hooks of an install
from before ``-I`` held as well); the hooks ``harness-memory install codex`` writes start their
Python isolated (``-I``) anyway, so should a version pass them on, the Session still gets its
memory, the guard refuses a patch into another Workspace's scope and nothing of the
repository's runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.harness_run import TOPIC, other_scope, run_codex, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.repository_python_env import MARK, plant
from tests.support.codex_turns import add_file, developer_and_user_text

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("where", [".env", "shell_environment_policy"])
async def test_p2a_a_codex_projects_python_path_neither_stops_memory_nor_replaces_the_guard(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    where: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    [(name, value)] = plant(workspace, "PYTHONPATH").items()
    if where == ".env":
        (workspace / ".env").write_text(f"{name}={value}\n", encoding="utf-8")
    else:
        (workspace / ".codex").mkdir()
        policy = f'[shell_environment_policy]\nset = {{ {name} = "{value}" }}\n'
        (workspace / ".codex" / "config.toml").write_text(policy, encoding="utf-8")
    trusted = f'\n[projects."{workspace.resolve()}"]\ntrust_level = "trusted"\n'
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"

    fake, status, _out, err = await run_codex(
        [[add_file("call_other", planted, TOPIC)]],
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        config_extra=trusted,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" in first
    assert not planted.exists()
    assert not (workspace / MARK).exists()
