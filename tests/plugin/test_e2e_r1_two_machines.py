"""R-1, R-2 end to end with the real Claude Code CLI on two "machines" and the real service.

Each machine is a HOME of its own where ``harness-memory install claude-code --remote`` wired
the hooks (a local copy under ``~/.harness-memory``, the token in a 0600 file); Claude Code runs
headless in a network namespace with only loopback (the model stand-in and the service bridged
in), so the hooks reach the service only over git's smart HTTP. Machine A's agent writes a topic
file and its index line into its local copy; the post-write hook sends them. Machine B's next
Session start brings them into its copy, and its first model request carries the line. Then
the real Codex CLI on a machine of its own starts with that memory and its write goes back.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.claude_code_session import (
    offers_write,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.harness_run import run_codex
from tests.plugin.helpers import HARNESS_MEMORY
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_codex import developer_and_user_text, patch_call

pytestmark = pytest.mark.e2e

LINE = "- [Deploy freeze](deploy-freeze.md) — no deploys Fri 15:00 to Mon 09:00"
TOPIC = """---
name: deploy-freeze
description: No deploys from Friday 15:00 to Monday 09:00
updated_at: 2026-12-02
---
Deploys wait for Monday.
"""


class Script:
    """Write the topic file, then the index line, into the copy's user scope; then finish."""

    def __init__(self, user_scope: Path) -> None:
        self.turns: list[list[Block]] = [
            [
                {
                    "type": "tool_use",
                    "id": f"toolu_{name.replace('.', '_').replace('-', '_')}",
                    "name": "Write",
                    "input": {"file_path": str(user_scope / name), "content": content},
                }
            ]
            for name, content in (("deploy-freeze.md", TOPIC), ("MEMORY.md", LINE + "\n"))
        ]

    def __call__(self, body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):
            return [{"type": "text", "text": "ok"}], "end_turn"
        step = len(tool_results(body))
        if step < len(self.turns):
            return self.turns[step], "tool_use"
        return [{"type": "text", "text": "Saved."}], "end_turn"


def install(home: Path, service: RealService) -> Path:
    """``harness-memory install claude-code --remote`` into ``home``; the copy's memory root."""
    home.mkdir(parents=True)
    done = subprocess.run(
        [
            HARNESS_MEMORY, "install", "claude-code", "--remote", "--home", str(home),
            "--url", service.url, "--project", "acme", "--agent", "coder",
            "--token", service.token, "--executable", HARNESS_MEMORY,
        ],
        capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(home)},
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    state = home / ".harness-memory"
    return state / "remote" / "acme" / "agents" / "coder" / "agent_state" / "memory"


async def test_r1_claude_code_on_machine_a_writes_and_machine_b_sees_it(
    claude: Path, real_service: RealService, tmp_path: Path
) -> None:
    served = real_service.create_agent("coder")
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    home_a, home_b = tmp_path / "machine-a", tmp_path / "machine-b"
    copy_a, copy_b = install(home_a, real_service), install(home_b, real_service)

    async with serve_model(Script(copy_a / "user")) as (fake, model_url):
        code, out, err = await run_claude(
            claude, workspace, home_a, model_url, service_url=real_service.url
        )
    assert code == 0, f"claude failed:\n{out}\n{err}"
    assert json.loads(out)["is_error"] is False
    turns = session_turns(fake)
    assert len(turns) == 3, [json.dumps(turn)[:300] for turn in turns]
    for turn in turns[1:]:
        assert not any(result.get("is_error") for result in tool_results(turn)), turn
    # the post-write hook sent both files to the service
    assert (served / "user" / "deploy-freeze.md").read_text(encoding="utf-8") == TOPIC
    assert (served / "user" / "MEMORY.md").read_text(encoding="utf-8") == LINE + "\n"

    async with serve_model(Script(copy_b / "user")) as (fake_b, model_url_b):
        code, out, err = await run_claude(
            claude,
            workspace,
            home_b,
            model_url_b,
            service_url=real_service.url,
            prompt="What do you remember about deploys?",
        )
    assert code == 0, f"claude failed on machine B:\n{out}\n{err}"
    first = json.dumps(session_turns(fake_b)[0], ensure_ascii=False)
    assert LINE in first
    # the model is pointed at machine B's own copy, never at the service's data dir
    assert f"- App data dir: {copy_b.parents[3]}" in first
    assert str(real_service.data_dir) not in first
    assert (copy_b / "user" / "deploy-freeze.md").read_text(encoding="utf-8") == TOPIC


async def test_r1_codex_on_machine_b_starts_with_machine_a_s_memory_and_sends_its_own(
    real_service: RealService, tmp_path: Path
) -> None:
    served = real_service.create_agent("coder")
    (served / "user").mkdir(parents=True, exist_ok=True)
    (served / "user" / "MEMORY.md").write_text(LINE + "\n", encoding="utf-8")  # from machine A
    (served / "user" / "deploy-freeze.md").write_text(TOPIC, encoding="utf-8")
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    machine_b = tmp_path / "machine-b"
    copy_b = machine_b / "home" / ".harness-memory" / "remote" / "acme" / "agents" / "coder"
    copy_b = copy_b / "agent_state" / "memory"
    note = copy_b / "user" / "codex-note.md"
    script = [[patch_call("call_note", note, "written by codex on machine B")]]
    fake, status, _out, err = await run_codex(
        script, real_service, copy_b, workspace, machine_b, install_flags=("--remote",)
    )
    assert status == 0, err[-3000:]
    first = developer_and_user_text(fake.session_turns()[0])
    assert LINE in first
    assert str(real_service.data_dir) not in first
    assert note.read_text(encoding="utf-8") == "written by codex on machine B\n"
    # Codex's PostToolUse (or Stop) hook sent it to the service
    sent = served / "user" / "codex-note.md"
    assert sent.read_text(encoding="utf-8") == "written by codex on machine B\n"
