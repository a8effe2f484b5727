"""End to end with the real Claude Code CLI: both hooks wired in its settings.json (P-4).

Claude Code runs headless (``claude -p``) in a temporary HOME whose ``~/.claude/settings.json``
wires ``harness-memory hook claude-code session-start`` and ``… pre-tool-use``; its model is a
scripted stand-in for the Anthropic Messages API on loopback (``fake_anthropic``) and its memory
service is the real ``memory-api`` process. The script asks for two Writes: one into another
Workspace's scope (the guard must deny it, and the model must be told why) and one topic file
into the Session's own scope (it must land and list through the API).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port
from memory_core import layout
from memory_core.keys import workspace_memory_key

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.fake_anthropic import Block, FakeAnthropic
from tests.plugin.fake_anthropic import Script as ModelScript
from tests.plugin.helpers import HARNESS_MEMORY
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


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def offers_write(body: dict[str, Any]) -> bool:
    """Whether a Messages request offers the Write tool: the Session's own turns do."""
    return any(tool.get("name") == "Write" for tool in body.get("tools") or [])


def session_turns(fake: FakeAnthropic) -> list[dict[str, Any]]:
    """The bodies of the Session's own Messages requests, in order."""
    return [body for body in fake.message_requests() if offers_write(body)]


def tool_results(body: dict[str, Any]) -> list[Block]:
    """Every ``tool_result`` block the request carries, in order."""
    found: list[Block] = []
    for message in body.get("messages", []):
        content = message.get("content")
        if message.get("role") == "user" and isinstance(content, list):
            found += [block for block in content if block.get("type") == "tool_result"]
    return found


def result_text(block: Block) -> str:
    content = block.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)


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


@pytest.fixture
def claude() -> Path:
    """The pinned Claude Code CLI, installed into ``.cache/claude-code`` on first use."""
    return claude_code_binary()


@contextlib.asynccontextmanager
async def serve_model(script: ModelScript) -> AsyncIterator[tuple[FakeAnthropic, str]]:
    """Serve the Messages API stand-in on a free loopback port: ``(fake, base URL)``."""
    fake = FakeAnthropic(script=script)
    runner = web.AppRunner(fake.app())
    await runner.setup()
    try:
        port = unused_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        yield fake, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def write_settings(home: Path, service: RealService) -> None:
    """``~/.claude/settings.json`` exactly as the plugin's README gives it."""
    memory_root = layout.memory_root(service.data_dir, "coder")
    flags = f"--url {service.url} --project acme --agent coder"
    settings = {
        "env": {"HARNESS_MEMORY_TOKEN": service.token},
        "permissions": {"additionalDirectories": [str(memory_root)]},
        "hooks": {
            "SessionStart": [
                {
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"{HARNESS_MEMORY} hook claude-code session-start {flags}",
                        }
                    ]
                }
            ],
            "PreToolUse": [
                {
                    "matcher": "Write|Edit|MultiEdit|NotebookEdit",
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"{HARNESS_MEMORY} hook claude-code pre-tool-use "
                            f"--memory-root {memory_root}",
                        }
                    ],
                }
            ],
        },
    }
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps(settings, indent=2), encoding="utf-8"
    )


async def run_claude(
    claude: Path, workspace: Path, home: Path, model_url: str
) -> tuple[int, str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "ANTHROPIC_BASE_URL": model_url,
        "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        "DISABLE_AUTOUPDATER": "1",
        "DISABLE_ERROR_REPORTING": "1",
    }
    process = await asyncio.create_subprocess_exec(
        str(claude),
        "-p",
        "Remember that memory reaches Claude Code through hooks.",
        "--output-format",
        "json",
        "--permission-mode",
        "acceptEdits",
        cwd=workspace,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), RUN_LIMIT_S)
    except TimeoutError:
        process.kill()
        out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


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
        returncode, out, err = await run_claude(claude, workspace, home, model_url)
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
        returncode, out, err = await run_claude(claude, workspace, home, model_url)
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
