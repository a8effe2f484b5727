"""W-2: the Prompt tab tells the truth about where its template goes.

The tab says: harnesses that take the template from this service (the platform's chat, the
plugin's Session start given it) use it as the system prompt; Claude Code, Codex CLI and Gemini
CLI do not, since their hooks add only the memory, and of the template they heed only whether
``{{MEMORY}}`` is in it. This checks each claim against the real service and the real hook
command, so an edit on the tab never silently goes nowhere without the tab saying so.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.helpers import harness_env, hook_fixture, run_cli, start
from tests.plugin.real_service import RealService

pytestmark = pytest.mark.e2e

SAVED = "You are Coder, who answers every question in haiku.\n\n{{MEMORY}}\n"
USER_LINE = "- [Prefers pnpm](prefers-pnpm.md) — use pnpm, never npm or yarn, in every JS repo"


def _save_template(service: RealService, template: str) -> None:
    """Save ``template`` as the Prompt tab's Save does: PATCH with the config's ETag."""
    path = "/api/projects/acme/agents/coder/config"
    status, headers, _ = service.request("GET", path)
    assert status == 200
    status, _, body = service.request(
        "PATCH", path, {"template": template}, {"If-Match": headers["ETag"]}
    )
    assert status == 200, body


async def _claude_code_context(service: RealService, workspace: Path, tmp_path: Path) -> str:
    """The context Claude Code's SessionStart hook adds (the installed hook command)."""
    return (await _claude_code_answer(service, workspace, tmp_path))[0]


async def _claude_code_answer(
    service: RealService, workspace: Path, tmp_path: Path
) -> tuple[str, str]:
    """The context Claude Code's SessionStart hook adds and what it tells the user."""
    env = harness_env(
        service.url,
        HARNESS_MEMORY_TOKEN=service.token,
        HARNESS_MEMORY_STATE_DIR=str(tmp_path / "state"),
        HOME=str(tmp_path / "home"),
    )
    done = await run_cli(
        "hook",
        "claude-code",
        "session-start",
        stdin=hook_fixture("session_start.json", workspace=str(workspace)),
        env=env,
    )
    assert done.returncode == 0, done.stderr
    answer = done.json()
    output = answer.get("hookSpecificOutput", {})
    return str(output.get("additionalContext", "")), str(answer.get("systemMessage", ""))


async def test_w2_the_saved_template_reaches_a_session_start_given_it_not_the_coding_agents(
    real_service: RealService, memory_root: Path, tmp_path: Path
) -> None:
    workspace = tmp_path / "src" / "shop-api"
    workspace.mkdir(parents=True)
    _save_template(real_service, SAVED)

    # The coding agents' hooks add the memory, never the saved template's own text.
    context = await _claude_code_context(real_service, workspace, tmp_path)
    assert USER_LINE in context
    assert "haiku" not in context

    # Given the saved text, the plugin's Session start makes it the system prompt.
    started = await start(
        real_service.url, SAVED, token=real_service.token, workspace=str(workspace)
    )
    assert started.system_prompt.startswith("You are Coder, who answers every question in haiku.")
    assert USER_LINE in started.system_prompt

    # The one thing the hooks heed: without {{MEMORY}} in the saved template, no memory; and
    # the user is told why (I-5), never a Session silently without it.
    _save_template(real_service, "You are Coder.\n")
    context, told = await _claude_code_answer(real_service, workspace, tmp_path)
    assert USER_LINE not in context
    assert told.startswith(
        "Agent Memory: no memory in this Session: the agent's template holds no {{MEMORY}}"
    )
    _save_template(real_service, SAVED)
    assert "{{MEMORY}}" not in (await _claude_code_answer(real_service, workspace, tmp_path))[1]
