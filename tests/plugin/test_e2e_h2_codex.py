"""H-2 end to end with the real Codex CLI (npm ``@openai/codex``, pinned): memory through hooks.

The hooks are installed with ``harness-memory install codex`` into a temporary HOME (hooks.json,
their trust entries and the memory root as a sandbox writable root in config.toml); a
``[model_providers]`` entry points Codex at a loopback stand-in of the OpenAI Responses API that
records requests and scripts two ``apply_patch`` calls: one into another Workspace's scope (the
guard must refuse it and nothing may land) and one topic file into the Session's own scope (it
must land and list through the API). Codex runs ``exec`` headless in a loopback-only network
namespace; the real ``memory-api`` serves memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.harness_run import TOPIC, index_lines, other_scope, run_codex, workspace_with_key
from tests.plugin.real_service import RealService
from tests.support.codex_turns import add_file, call_output, developer_and_user_text

pytestmark = pytest.mark.e2e


async def test_h2_codex_injection_and_guard_end_to_end(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    denied = other_scope(shared_memory_root, tmp_path) / "stolen.md"
    own = shared_memory_root / key / "harness-hooks.md"
    script = [[add_file("call_other", denied, "stolen")], [add_file("call_own", own, TOPIC)]]
    fake, status, out, err = await run_codex(
        script, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    turns = fake.session_turns()
    assert len(turns) >= 3, err[-3000:]
    first = developer_and_user_text(turns[0])
    for line in index_lines(shared_memory_root):
        assert line in first
    assert f"- Workspace Memory Key: {key}" in first

    refused = call_output(turns[1], "call_other")
    assert "Agent Memory write guard" in refused
    assert not denied.exists()
    assert sorted(p.name for p in denied.parent.iterdir()) == ["MEMORY.md"]

    assert own.read_text(encoding="utf-8") == TOPIC
    assert "harness-hooks.md" in shared_service.list_files(new_agent, key)
    assert "hook: PreToolUse Blocked" in err or "blocked" in out.lower() + err.lower()
