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

from tests.plugin.fake_model_apis import FakeGemini
from tests.plugin.harness_run import (
    TOPIC,
    index_lines,
    install,
    other_scope,
    run_in_loopback,
    workspace_with_key,
)
from tests.plugin.npm_cli import GEMINI, npm_cli
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e

SETTINGS = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
}


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
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    gemini = npm_cli(GEMINI)
    home = tmp_path / "home"
    workspace, key = workspace_with_key(tmp_path)
    denied = other_scope(memory_root, tmp_path) / "stolen.md"
    own = memory_root / key / "harness-hooks.md"
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text(json.dumps(SETTINGS), encoding="utf-8")
    install("gemini", home, real_service, memory_root)
    fake = FakeGemini(turns=[[write_call(denied, "stolen\n")], [write_call(own, TOPIC)]])
    status, out, err, _ = await run_in_loopback(
        [str(gemini), "--yolo", "-p", "Remember that memory reaches Gemini CLI through hooks."],
        app_factory=fake.app,
        service=real_service,
        cwd=workspace,
        env={
            "HOME": str(home),
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "GEMINI_API_KEY": "test-dummy-key",
            "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:{port}",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "NO_COLOR": "1",
        },
        sockets=tmp_path,
    )
    assert status == 0, err[-3000:]
    turns = fake.session_turns()
    assert len(turns) >= 3, err[-3000:]
    first = first_user_text(turns[0])
    for line in index_lines(memory_root):
        assert line in first
    assert f"- Workspace Memory Key: {key}" in first

    assert "Agent Memory write guard" in json.dumps(turns[1]["contents"][-1])
    assert not denied.exists()
    assert sorted(p.name for p in denied.parent.iterdir()) == ["MEMORY.md"]

    assert own.read_text(encoding="utf-8") == TOPIC
    assert "harness-hooks.md" in real_service.list_files("coder", key)
    assert out.strip().endswith("Done.")
