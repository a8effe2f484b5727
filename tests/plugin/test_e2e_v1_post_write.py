"""V-1 end to end: the agent's own memory write becomes a version naming its Session, harness
and tool, recorded by the post-write hook ``harness-memory install`` wires into the real CLI.

Claude Code runs headless (``claude -p``) in a temporary HOME whose settings were written by
``harness-memory install claude-code``, in a loopback-only namespace, against the real
``memory-api`` and a stand-in of the Messages API that makes the model write one topic file into
the Session's Workspace scope with ``Write``. The hook records from a detached process, so the
CLI could end (and its namespace with it) before the record is sent: the stand-in answers the
turn after the write only once the scope's changes feed shows a version by a write (or its hang
guard passes). The first turn waits likewise for the Session start's own record of the seeded
scope, so the two records never race for the same change. Codex CLI (``codex exec``, its
``apply_patch``) and Gemini CLI (``-p --yolo``, its ``write_file``) run the same way through
:mod:`tests.plugin.harness_run`, their hooks installed with the token in the install's file.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.claude_code_session import (
    offers_write,
    result_text,
    run_claude,
    serve_model,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.fake_model_apis import Json
from tests.plugin.harness_run import (
    TOPIC,
    install,
    run_codex,
    run_gemini,
    workspace_with_key,
)
from tests.plugin.real_service import RealService, seed_scope
from tests.support.codex_turns import add_file

pytestmark = pytest.mark.e2e


async def test_v1_claude_code_write_is_recorded_as_a_version_of_its_session(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    seed_scope(shared_memory_root / key, "coding-agent-workspace")
    own = shared_memory_root / key / "harness-hooks.md"
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)

    async def script(body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):  # a side request (titles, summaries): answer briefly
            return [{"type": "text", "text": "ok"}], "end_turn"
        if not tool_results(body):
            await asyncio.to_thread(
                shared_service.wait_for_version, new_agent, key, "session-start"
            )
            write = {"file_path": str(own), "content": TOPIC}
            return [{"type": "tool_use", "id": "toolu_own", "name": "Write", "input": write}], (
                "tool_use"
            )
        await asyncio.to_thread(shared_service.wait_for_version, new_agent, key, "write")
        return [{"type": "text", "text": "Saved the memory."}], "end_turn"

    async with serve_model(script) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=shared_service.url
        )
    assert status == 0, f"claude failed:\n{out}\n{err}"
    result = json.loads(out)
    assert result["is_error"] is False, result
    [written] = [b for r in fake.message_requests() for b in tool_results(r)][:1]
    assert not written.get("is_error"), result_text(written)
    assert own.read_text(encoding="utf-8") == TOPIC

    [version] = [
        v for v in shared_service.scope_versions(new_agent, key) if v["author"]["source"] == "write"
    ]
    assert version["author"]["sessionId"] == result["session_id"]
    assert version["author"]["harness"] == "claude-code"
    assert version["author"]["tool"] == "Write"
    assert version["files"] == [{"file": "harness-hooks.md", "change": "added"}]
    files = f"/api/projects/acme/agents/{new_agent}/memory/scopes/{key}/files"
    history = shared_service.request("GET", f"{files}/harness-hooks.md/history")[2]
    assert [v["version"] for v in history["versions"]] == [version["version"]]


def assert_recorded(service: RealService, agent: str, key: str, harness: str, tool: str) -> None:
    """The scope's one version by a write names ``harness`` and ``tool`` and a Session id."""
    [version] = [v for v in service.scope_versions(agent, key) if v["author"]["source"] == "write"]
    assert version["author"]["harness"] == harness
    assert version["author"]["tool"] == tool
    assert version["author"]["sessionId"]
    assert version["files"] == [{"file": "harness-hooks.md", "change": "added"}]


def waiting_turns(service: RealService, agent: str, key: str, first: Json) -> list[Any]:
    """The model's turns: ``first`` (the write) once the Session start recorded, then an empty
    turn (the stand-in's closing text) once the write's version is there."""

    async def write(body: Json) -> list[Json]:
        await asyncio.to_thread(service.wait_for_version, agent, key, "session-start")
        return [first]

    async def close(body: Json) -> list[Json]:
        await asyncio.to_thread(service.wait_for_version, agent, key, "write")
        return []

    return [write, close]


async def test_v1_codex_patch_is_recorded_as_a_version_of_its_session(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    seed_scope(shared_memory_root / key, "coding-agent-workspace")
    own = shared_memory_root / key / "harness-hooks.md"
    call = add_file("c1", own, TOPIC)
    turns = waiting_turns(shared_service, new_agent, key, call)
    _, status, _, err = await run_codex(
        turns, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    assert own.read_text(encoding="utf-8") == TOPIC
    assert_recorded(shared_service, new_agent, key, "codex", "apply_patch")


async def test_v1_gemini_write_is_recorded_as_a_version_of_its_session(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, key = workspace_with_key(tmp_path)
    seed_scope(shared_memory_root / key, "coding-agent-workspace")
    own = shared_memory_root / key / "harness-hooks.md"
    call = {
        "functionCall": {"name": "write_file", "args": {"file_path": str(own), "content": TOPIC}}
    }
    turns = waiting_turns(shared_service, new_agent, key, call)
    _, status, _, err = await run_gemini(
        turns, shared_service, shared_memory_root, workspace, tmp_path, agent=new_agent
    )
    assert status == 0, err[-3000:]
    assert own.read_text(encoding="utf-8") == TOPIC
    assert_recorded(shared_service, new_agent, key, "gemini", "write_file")
