"""P-3 with the real Claude Code and Gemini CLIs: a file tool's path is judged as the CLI reads it.

Claude Code's file tools expand a leading ``~`` or ``~/`` from the home folder; Gemini CLI's
read ``@path`` as ``path`` (``resolveDefensiveToolPath``: a leading ``@`` and the slashes after
it dropped when no ``@…`` entry is there). Read literally, such a path lies in the Workspace; as
the CLI reads it, it lands in another Workspace's scope. Each write is refused and nothing lands.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.claude_code_session import (
    offers_write,
    result_text,
    run_claude,
    serve_model,
    session_turns,
    tool_results,
)
from tests.plugin.fake_anthropic import Block
from tests.plugin.harness_run import install, other_scope, run_gemini, workspace_with_key
from tests.plugin.real_service import RealService
from tests.plugin.test_e2e_h2_gemini import write_call
from tests.plugin.test_e2e_p3_guard_bypasses import landed

pytestmark = pytest.mark.e2e


def relative(target: Path, start: Path) -> str:
    """``target`` spelled from ``start`` (``../..`` where needed), as a model might write it."""
    return os.path.relpath(target, start)


async def test_p3_claude_code_write_to_a_tilde_path_is_judged_from_home(
    claude: Path,
    shared_service: RealService,
    new_agent: str,
    shared_memory_root: Path,
    tmp_path: Path,
) -> None:
    workspace, _own = workspace_with_key(tmp_path)
    other = other_scope(shared_memory_root, tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    install("claude-code", home, shared_service, shared_memory_root, agent=new_agent)
    tilde = "~/" + relative(other / "tilde.md", home)
    call: Block = {
        "type": "tool_use",
        "id": "toolu_tilde",
        "name": "Write",
        "input": {"file_path": tilde, "content": "planted\n"},
    }

    def script(body: dict[str, Any]) -> tuple[list[Block], str]:
        if not offers_write(body):
            return [{"type": "text", "text": "ok"}], "end_turn"
        if not tool_results(body):
            return [call], "tool_use"
        return [{"type": "text", "text": "Done."}], "end_turn"

    async with serve_model(script) as (fake, model_url):
        status, out, err = await run_claude(
            claude, workspace, home, model_url, service_url=shared_service.url
        )

    assert status == 0, f"{out}\n{err}"
    [result] = tool_results(session_turns(fake)[-1])
    assert "Agent Memory write guard" in result_text(result), result
    assert landed(other) == []


async def test_p3_gemini_write_to_an_at_path_is_judged_without_the_at(
    shared_service: RealService, new_agent: str, shared_memory_root: Path, tmp_path: Path
) -> None:
    workspace, _own = workspace_with_key(tmp_path)
    other = other_scope(shared_memory_root, tmp_path)
    at = "@" + relative(other / "at.md", workspace)

    fake, status, _out, err = await run_gemini(
        [[write_call(Path(at), "planted\n")]],
        shared_service,
        shared_memory_root,
        workspace,
        tmp_path,
        agent=new_agent,
    )

    assert status == 0, err[-3000:]
    assert "Agent Memory write guard" in json.dumps(fake.requests[-1]["contents"][-1])
    assert landed(other) == []
