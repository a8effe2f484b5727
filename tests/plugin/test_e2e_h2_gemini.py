"""H-2 end to end with the real Gemini CLI (npm ``@google/gemini-cli``, pinned) and its hooks.

The hooks are installed with ``harness-memory install gemini`` into a temporary HOME's
``~/.gemini/settings.json`` (merged into settings that select API-key auth and turn telemetry
and updates off); ``GOOGLE_GEMINI_BASE_URL`` points Gemini CLI at a loopback stand-in of the
Gemini API that records requests and scripts two ``write_file`` calls: one into another
Workspace's scope (the BeforeTool guard must refuse it and nothing may land) and one topic file
into the Session's own scope (it must land and list through the API). Gemini CLI runs headless
(``-p``, ``--yolo`` so the write tools run without a prompt) in a loopback-only namespace.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.harness_run import TOPIC, index_lines, other_scope, run_gemini, workspace_with_key
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e


def write_call(path: Path, content: str) -> dict[str, Any]:
    return {
        "functionCall": {"name": "write_file", "args": {"file_path": str(path), "content": content}}
    }


def first_user_text(body: dict[str, Any]) -> str:
    return "\n".join(
        part.get("text", "")
        for content in body.get("contents", [])
        if content.get("role") == "user"
        for part in content.get("parts", [])
    )


async def test_h2_gemini_injection_and_guard_end_to_end(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    denied = other_scope(shared_memory_root, tmp_path) / "stolen.md"
    own = shared_memory_root / key / "harness-hooks.md"
    script = [[write_call(denied, "stolen\n")], [write_call(own, TOPIC)]]
    fake, status, out, err = await run_gemini(
        script, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    turns = fake.session_turns()
    assert len(turns) >= 3, err[-3000:]
    first = first_user_text(turns[0])
    for line in index_lines(shared_memory_root):
        assert line in first
    assert f"- Workspace Memory Key: {key}" in first

    assert "Agent Memory write guard" in json.dumps(turns[1]["contents"][-1])
    assert not denied.exists()
    assert sorted(p.name for p in denied.parent.iterdir()) == ["MEMORY.md"]

    assert own.read_text(encoding="utf-8") == TOPIC
    assert "harness-hooks.md" in shared_service.list_files(new_agent, key)
    assert out.strip().endswith("Done.")


async def test_h2_gemini_a_home_holding_dollar_names_reach_the_hooks(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    """Gemini CLI replaces ``$GEMINI_CWD``, ``$GEMINI_SESSION_ID`` (and three more names) in a
    hook command's text, inside quotes too, before its shell runs it. In a HOME whose path holds
    them the Session-start hook still reads its token file (the service demands the token: the
    index lines arrive) and keeps its Session record in the state folder it was given (H-7)."""
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "$GEMINI_CWD$GEMINI_SESSION_ID" / "home"
    own = shared_memory_root / key / "harness-hooks.md"
    fake, status, _, err = await run_gemini(
        [[write_call(own, TOPIC)]],
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        home=home,
        agent=new_agent,
    )
    assert status == 0, err[-3000:]
    first = first_user_text(fake.session_turns()[0])
    for line in index_lines(shared_memory_root):
        assert line in first, err[-3000:]
    assert own.read_text(encoding="utf-8") == TOPIC
    records = home / ".gemini" / "harness-memory" / "sessions"
    assert any(records.iterdir())
