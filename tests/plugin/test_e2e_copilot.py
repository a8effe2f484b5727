"""GitHub Copilot CLI (npm ``@github/copilot``, pinned) and the Claude Code hooks (H-2).

Copilot CLI runs headless (``-p``, ``--allow-all``) with ``COPILOT_OFFLINE=true`` against a
loopback stand-in of the Anthropic Messages API (its BYOK provider, ``COPILOT_PROVIDER_*``), in
the loopback-only namespace. Measured on 1.0.102:

- it does not read the user's ``~/.claude/settings.json``: hooks installed there never run in
  Copilot CLI (no Session record is written) — Agent Memory is simply absent there;
- it runs the hooks of a repository's ``.claude/settings.json``: the SessionStart hook runs but
  its ``additionalContext`` never reaches the model, and PreToolUse runs under Claude Code's
  tool names with Copilot's own arguments (``Write`` with ``path``, ``Bash`` with ``command``),
  which the guard reads: writes into another Workspace's scope are refused, nothing lands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.plugin.claude_code_session import serve_model
from tests.plugin.fake_anthropic import Block
from tests.plugin.harness_run import install, other_scope, workspace_with_key
from tests.plugin.loopback_only import run_isolated, unix_bridges
from tests.plugin.npm_cli import COPILOT, npm_cli
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e

RUN_LIMIT_S = 180  # a hang guard, not an assertion about speed


async def run_copilot(
    script: Any, workspace: Path, home: Path, service: RealService
) -> tuple[int, str, list[dict[str, Any]]]:
    """``copilot -p`` in ``workspace`` against the stand-in; (status, stderr, request bodies)."""
    copilot = npm_cli(COPILOT)
    async with serve_model(script) as (fake, url):
        ports = [urlsplit(url).port or 80, urlsplit(service.url).port or 80]
        async with unix_bridges(ports) as bridges:
            env = {
                "HOME": str(home),
                "PATH": "/usr/local/bin:/usr/bin:/bin",
                "COPILOT_OFFLINE": "true",
                "COPILOT_PROVIDER_BASE_URL": url,
                "COPILOT_PROVIDER_TYPE": "anthropic",
                "COPILOT_PROVIDER_API_KEY": "sk-test-dummy",
                "COPILOT_MODEL": "claude-sonnet-4.5",
                "COPILOT_AUTO_UPDATE": "false",
                "NO_COLOR": "1",
            }
            command = [str(copilot), "-p", "Remember this.", "--allow-all"]
            command += ["--disable-client-telemetry", "--trust-folder"]
            status, _, err = await run_isolated(
                command, bridges, cwd=workspace, env=env, limit_s=RUN_LIMIT_S
            )
    bodies = [r.body for r in fake.requests if isinstance(r.body, dict)]
    return status, err.decode(errors="replace"), bodies


def writes_into(other: Path) -> Any:
    calls: list[Block] = [
        {
            "type": "tool_use",
            "id": "t_create",
            "name": "create",
            "input": {"path": str(other / "created.md"), "file_text": "x"},
        },
        {
            "type": "tool_use",
            "id": "t_edit",
            "name": "edit",
            "input": {"path": str(other / "MEMORY.md"), "old_str": "not yours", "new_str": "mine"},
        },
        {
            "type": "tool_use",
            "id": "t_bash",
            "name": "bash",
            "input": {"command": f"echo x > {other}/./shell.md", "description": "write"},
        },
    ]

    def script(body: dict[str, Any]) -> tuple[list[Block], str]:
        if not body.get("tools"):
            return [{"type": "text", "text": "ok"}], "end_turn"
        done = sum(
            1
            for m in body.get("messages", [])
            if isinstance(m.get("content"), list)
            for b in m["content"]
            if b.get("type") == "tool_result"
        )
        if done < len(calls):
            return [calls[done]], "tool_use"
        return [{"type": "text", "text": "Done."}], "end_turn"

    return script


def results(body: dict[str, Any]) -> dict[str, str]:
    return {
        b["tool_use_id"]: json.dumps(b.get("content"))
        for m in body.get("messages", [])
        if isinstance(m.get("content"), list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    }


async def test_h2_copilot_cli_ignores_the_users_claude_code_hooks(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    answer: Block = {"type": "text", "text": "ok"}
    status, err, bodies = await run_copilot(
        lambda body: ([answer], "end_turn"), workspace, home, shared_service
    )
    assert status == 0, err[-3000:]
    assert bodies, err[-3000:]
    assert not (home / ".claude" / "harness-memory" / "sessions").exists()  # no hook ran
    assert key not in json.dumps(bodies)


async def test_h2_copilot_cli_runs_a_repositorys_claude_code_hooks_harmlessly(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    (workspace / ".claude").mkdir()  # a team committed the Claude Code hooks to the repository
    (workspace / ".claude" / "settings.json").write_text(
        (home / ".claude" / "settings.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (home / ".claude" / "settings.json").unlink()
    other = other_scope(shared_memory_root, tmp_path)
    status, err, bodies = await run_copilot(writes_into(other), workspace, home, shared_service)
    assert status == 0, err[-3000:]
    assert list((home / ".claude" / "harness-memory" / "sessions").glob("*.json"))  # it ran
    first = json.dumps(bodies[0], ensure_ascii=False)
    assert "Workspace Memory Key" not in first  # its additionalContext never reaches the model
    said = results(bodies[-1])
    for call in ("t_create", "t_edit", "t_bash"):
        assert "Agent Memory write guard" in said[call], said
    assert sorted(p.name for p in other.iterdir()) == ["MEMORY.md"]
    assert "not yours" in (other / "MEMORY.md").read_text(encoding="utf-8")
    assert key in said["t_create"]  # the Session's own scope, named in the refusal
