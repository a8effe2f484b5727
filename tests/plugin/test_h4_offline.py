"""H-4: when the service is unreachable but the memory root is readable here, Session start
assembles the same injection from the files — read-only, nothing created — and says so; the key
line never claims that memory is off when it is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp.test_utils import unused_port
from memory_core.keys import workspace_memory_key
from memory_core.template import OFF_KEY_VALUE

from tests.plugin.helpers import Completed, hook_fixture, run_cli
from tests.plugin.real_service import RealService, seed_scope

pytestmark = pytest.mark.e2e

ANSWER_WAIT_S = "30"
"""The hooks' budget for the service's answer: a hang guard. The online Session starts must be
served, and 2 s (the default) leaves a busy machine little room for a service's first answer;
the offline ones meet a closed port, refused at once, so no budget is waited out."""


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for a directory): a read-only witness."""
    return {
        str(path): None if path.is_dir() else path.read_bytes() for path in sorted(root.rglob("*"))
    }


async def start(
    url: str, token: str, root: Path, workspace: Path, agent: str = "coder"
) -> Completed:
    env = {
        "HARNESS_MEMORY_URL": url,
        "HARNESS_MEMORY_TOKEN": token,
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": agent,
        "HARNESS_MEMORY_ROOT": str(root),
        "HARNESS_MEMORY_TIMEOUT": ANSWER_WAIT_S,
        "HOME": str(workspace.parent),
    }
    return await run_cli(
        "session-start", "--workspace", str(workspace), "--format", "json", env=env
    )


def down_url() -> str:
    return f"http://127.0.0.1:{unused_port()}"


async def test_h4_offline_injection_is_the_one_the_service_gives(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    online = await start(real_service.url, real_service.token, memory_root, workspace)
    assert online.json()["sessionMeta"]["status"] == "injected", online.stderr
    seed_scope(memory_root / workspace_memory_key(workspace), "coding-agent-workspace")
    online = await start(real_service.url, real_service.token, memory_root, workspace)
    real_service.stop()
    before = tree(memory_root.parents[2])

    offline = await start(real_service.url, real_service.token, memory_root, workspace)

    assert offline.returncode == 0, offline.stderr
    meta = offline.json()["sessionMeta"]
    assert meta["status"] == "offline"
    assert meta["errorKind"] == "unreachable"
    assert offline.json()["systemPrompt"] == online.json()["systemPrompt"]
    assert f"- Workspace Memory Key: {workspace_memory_key(workspace)}" in meta["systemPrompt"]
    assert tree(memory_root.parents[2]) == before


async def test_h4_offline_creates_nothing_for_a_new_workspace(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "brand-new"
    workspace.mkdir()
    before = tree(memory_root.parents[2])
    done = await start(down_url(), real_service.token, memory_root, workspace)
    meta = done.json()["sessionMeta"]
    assert meta["status"] == "offline"
    key = workspace_memory_key(workspace)
    assert meta["workspaceMemoryKey"] == key  # never "(none — memory is off)"
    assert "Nothing saved yet" in done.json()["systemPrompt"]
    assert not (memory_root / key).exists()
    assert tree(memory_root.parents[2]) == before


async def test_h4_memory_switched_off_in_the_files_stays_off(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    shared_service.set_memory_enabled(new_agent, False)
    done = await start(down_url(), shared_service.token, shared_memory_root, tmp_path, new_agent)
    meta = done.json()["sessionMeta"]
    assert meta["status"] == "off"
    assert meta["workspaceMemoryKey"] == OFF_KEY_VALUE


async def test_h4_unreadable_memory_root_fails_open(tmp_path: Path) -> None:
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    done = await start(down_url(), "t", root, tmp_path)
    meta = done.json()["sessionMeta"]
    assert meta["status"] == "failed-open"
    assert meta["workspaceMemoryKey"] == OFF_KEY_VALUE
    assert not root.exists()


@pytest.mark.parametrize("harness", ["codex", "gemini", "claude-code"])
async def test_h4_hooks_tell_the_user_memory_came_from_the_files(
    new_agent: str, shared_memory_root: Path, tmp_path: Path, harness: str
) -> None:
    workspace = tmp_path / "shop-api"
    workspace.mkdir()
    fixture = "session_start.json" if harness == "claude-code" else f"{harness}_session_start.json"
    env = {
        "HARNESS_MEMORY_URL": down_url(),
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": new_agent,
        "HARNESS_MEMORY_ROOT": str(shared_memory_root),
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HOME": str(tmp_path),
    }
    stdin = hook_fixture(fixture, workspace=str(workspace))
    done = await run_cli("hook", harness, "session-start", stdin=stdin, env=env)
    answer = json.loads(done.stdout)
    said = answer["systemMessage"]
    assert "read straight from the files on this machine" in said
    # what a write does now, said without a "(read-only)" beside it that read as "no writes"
    assert "memory writes still go to them" in said and "read-only" not in said
    assert "recorded at the next Session start the service answers" in said
    # stderr agrees with it (issue 26): no "failed open" beside memory that was served
    assert "failed open" not in done.stderr
    assert f"memory read from the files on this machine for acme/{new_agent}" in done.stderr
    context = answer["hookSpecificOutput"]["additionalContext"]
    assert "- [Prefers pnpm](prefers-pnpm.md)" in context
    assert f"- Workspace Memory Key: {workspace_memory_key(workspace)}" in context
