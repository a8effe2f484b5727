"""P-2a, P-3 with the real Gemini CLI: a trusted Workspace's ``.env`` (or ``.gemini/.env``) is
loaded into Gemini CLI's own environment, which its hooks inherit. With ``PYTHONPATH`` pointing
at a ``harness_memory`` of the repository's own, that code ran in place of the hooks: no memory,
and a write into another Workspace's scope landed. The hooks ``harness-memory install gemini``
writes start their Python by absolute path, isolated (``-I``): the Session gets its memory, the
guard refuses the write, and nothing of the repository's runs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.harness_run import (
    TOPIC,
    InstalledHomes,
    other_scope,
    run_gemini,
    workspace_with_key,
)
from tests.plugin.real_service import RealService
from tests.plugin.repository_python_env import MARK, plant
from tests.plugin.test_e2e_h2_gemini import first_user_text, write_call

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("dotenv", [".env", ".gemini/.env"])
async def test_p2a_a_workspaces_dotenv_python_path_neither_stops_memory_nor_replaces_the_guard(
    shared_service: RealService,
    module_agent: str,
    module_memory_root: Path,
    installed_homes: InstalledHomes,
    tmp_path: Path,
    dotenv: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    variables = plant(workspace, "PYTHONPATH")
    (workspace / dotenv).parent.mkdir(exist_ok=True)
    (workspace / dotenv).write_text("".join(f"{k}={v}\n" for k, v in variables.items()))
    planted = other_scope(module_memory_root, tmp_path) / "planted.md"

    fake, status, _out, err = await run_gemini(
        [[write_call(planted, TOPIC)]],
        shared_service,
        module_memory_root,
        workspace,
        tmp_path,
        agent=module_agent,
        homes=installed_homes,
    )

    assert status == 0, err[-3000:]
    assert f"- Workspace Memory Key: {key}" in first_user_text(fake.session_turns()[0])
    assert not planted.exists()
    assert not (workspace / MARK).exists()
