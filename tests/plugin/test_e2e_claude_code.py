"""End to end with the real Claude Code CLI: both hooks wired in its settings.json (P-4).

Claude Code runs headless (``claude -p``) in a temporary HOME whose ``~/.claude/settings.json``
wires ``harness-memory hook claude-code session-start`` and ``… pre-tool-use``; its model is a
scripted stand-in for the Anthropic Messages API on loopback (``fake_anthropic``) and its memory
service is the real ``memory-api`` process. The script asks for two Writes: one into another
Workspace's scope (the guard must deny it, and the model must be told why) and one topic file
into the Session's own scope (it must land and list through the API).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from memory_core.keys import workspace_memory_key

from tests.plugin.claude_code_session import (
    offers_write,
    read,
    result_text,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
    write_settings,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.real_service import RealService, seed_scope

pytestmark = pytest.mark.e2e

USER_LINE = "- [Prefers pnpm](prefers-pnpm.md) — use pnpm, never npm or yarn, in every JS repo"
WORKSPACE_LINE = "- [Deploy freeze](./deploy-freeze.md) — no deploys Fri 15:00 to Mon 09:00"
TOPIC = """---
name: claude-code-hooks
description: Memory reaches Claude Code through its SessionStart and PreToolUse hooks
updated_at: 2026-11-29
---
The SessionStart hook adds the indexes; the PreToolUse hook guards memory writes.
"""
RUN_LIMIT_S = 300  # a hang guard for the CLI run, not an assertion about speed


class Script:
    """The model's turns: deny-bound Write, own-scope Write, then a closing text."""

    def __init__(self, denied_target: Path, own_target: Path) -> None:
        self.turns: list[list[Block]] = [
            [
                {"type": "text", "text": "Saving where I should not."},
                {
                    "type": "tool_use",
                    "id": "toolu_other_scope",
                    "name": "Write",
                    "input": {"file_path": str(denied_target), "content": "stolen\n"},
                },
            ],
            [
                {
                    "type": "tool_use",
                    "id": "toolu_own_scope",
                    "name": "Write",
                    "input": {"file_path": str(own_target), "content": TOPIC},
                }
            ],
        ]

    def __call__(self, body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):  # a side request (titles, summaries): answer briefly
            return [{"type": "text", "text": "ok"}], "end_turn"
        step = len(tool_results(body))
        if step < len(self.turns):
            return self.turns[step], "tool_use"
        return [{"type": "text", "text": "Saved the memory."}], "end_turn"


async def test_p4_claude_code_gets_the_injection_and_the_write_guard(
    claude: Path, real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    root = memory_root
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    key = workspace_memory_key(workspace)
    seed_scope(root / key, "coding-agent-workspace")
    other_key = workspace_memory_key(tmp_path / "src" / "billing")
    denied_target = root / other_key / "stolen.md"
    own_target = root / key / "claude-code-hooks.md"
    home = tmp_path / "home"
    write_settings(home, real_service)

    async with serve_model(Script(denied_target, own_target)) as (fake, model_url):
        returncode, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=real_service.url
        )
    assert returncode == 0, f"claude failed:\n{out}\n{err}"
    result = json.loads(out)
    assert result["is_error"] is False, result

    main_requests = session_turns(fake)
    assert len(main_requests) == 3, [json.dumps(b)[:300] for b in main_requests]

    # The injection reached the model: both indexes and the Environment values.
    first = json.dumps(main_requests[0], ensure_ascii=False)
    assert USER_LINE in first
    assert WORKSPACE_LINE in first
    assert f"- Workspace Memory Key: {key}" in first
    assert f"- App data dir: {real_service.data_dir}" in first

    # The Write into another Workspace's scope was denied, and the model was told why.
    [denied] = [
        b for b in tool_results(main_requests[1]) if b["tool_use_id"] == "toolu_other_scope"
    ]
    assert denied.get("is_error") is True
    assert f"{other_key} is another Workspace's memory scope" in result_text(denied)
    assert not denied_target.exists()
    assert not (root / other_key).exists()

    # The topic file in the Session's own scope was written and lists through the API.
    [written] = [b for b in tool_results(main_requests[2]) if b["tool_use_id"] == "toolu_own_scope"]
    assert not written.get("is_error"), result_text(written)
    assert read(own_target) == TOPIC
    assert "claude-code-hooks.md" in real_service.list_files("coder", key)

    # The SessionStart hook left the Session's record in Claude Code's own state dir.
    records = list((home / ".claude" / "harness-memory" / "sessions").glob("*.json"))
    assert [r.stem for r in records] == [result["session_id"]]


async def test_p2_claude_code_session_starts_without_memory_when_the_service_is_down(
    claude: Path, real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    home = tmp_path / "home"
    write_settings(home, real_service)
    real_service.stop()

    def answer(body: dict[str, Any]) -> tuple[list[Block], str]:
        return [{"type": "text", "text": "Working without memory."}], "end_turn"

    async with serve_model(answer) as (fake, model_url):
        returncode, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=real_service.url
        )
    assert returncode == 0, f"claude failed:\n{out}\n{err}"
    assert json.loads(out)["result"] == "Working without memory."
    [first, *_] = session_turns(fake)
    sent = json.dumps(first, ensure_ascii=False)
    assert USER_LINE not in sent
    assert "- Workspace Memory Key: (none — memory is off)" in sent
    [record] = (home / ".claude" / "harness-memory" / "sessions").glob("*.json")
    saved = json.loads(read(record))
    assert saved["status"] == "failed-open"
    assert saved["errorKind"] == "unreachable"
