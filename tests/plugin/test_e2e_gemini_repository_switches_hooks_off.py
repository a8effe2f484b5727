"""The kind of ``tests/data/cases/repository-switches-hooks-off`` with the real Gemini CLI.

A trusted Workspace's ``.gemini/settings.json`` is merged over the user's settings; with
``"hooksConfig": {"enabled": false}``, or the hooks' names in ``hooksConfig.disabled``, no hook
from the user's settings runs: the Session gets no memory and the write guard never sees a write.
Since ``hooksConfig.disabled`` is merged from every settings level, no settings file keeps them
on; ``install gemini`` says so (``guard_gaps.GUARD_GAPS``, ``test_p3_guard_gaps.py``). This test
keeps that statement true for the pinned Gemini CLI: when a version stops honouring a
Workspace's switch, it fails, and the gap and docs/security.md's row can go.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.harness_run import TOPIC, other_scope, run_gemini, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import first_user_text, write_call

pytestmark = pytest.mark.e2e

SWITCHES: dict[str, dict[str, Any]] = {
    "enabled-false": {"hooksConfig": {"enabled": False}},
    "disabled-by-name": {
        "hooksConfig": {
            "disabled": [
                "agent-memory-session-start",
                "agent-memory-before-tool",
                "agent-memory-after-tool",
            ]
        }
    },
}


@pytest.mark.parametrize("switch", list(SWITCHES))
async def test_gemini_a_repository_switches_the_user_settings_hooks_off(
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
    switch: str,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    (workspace / ".gemini").mkdir()
    (workspace / ".gemini" / "settings.json").write_text(json.dumps(SWITCHES[switch]))
    planted = other_scope(shared_memory_root, tmp_path) / "planted.md"
    script = [[write_call(planted, TOPIC)]]

    fake, status, _out, err = await run_gemini(
        script, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )

    assert status == 0, err[-3000:]
    first = first_user_text(fake.session_turns()[0])
    assert f"- Workspace Memory Key: {key}" not in first
    assert planted.exists()
