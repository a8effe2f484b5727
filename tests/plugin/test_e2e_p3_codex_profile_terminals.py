"""P-3 with the real Codex CLI: a profile file's ``unified_exec_tty = true`` gives the model
terminals again (``exec_command``'s ``tty``), whose input (``write_stdin``) no hook sees, over
the install's ``unified_exec_tty = false`` in ``config.toml``; the install sets it off in the
profile file too. Measured on the model-visible prompt (``codex --profile NAME debug
prompt-input``), no model needed, in a loopback-only namespace."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main

from tests.plugin.loopback_only import run_isolated
from tests.plugin.npm_cli import CODEX, npm_cli

pytestmark = pytest.mark.e2e

PROFILE = "[features]\nunified_exec_tty = true\n"
TTY_PARAMETER = "tty?: boolean"
"""How ``exec_command`` declares its terminal switch to the model when terminals are on."""


async def prompt_with_profile(home: Path, workspace: Path) -> str:
    codex = npm_cli(CODEX)
    env = {
        "HOME": str(home),
        "CODEX_HOME": str(home / ".codex"),
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "NO_COLOR": "1",
    }
    command = [str(codex), "--profile", "tty", "debug", "prompt-input", "hi"]
    status, out, err = await run_isolated(command, {}, cwd=workspace, env=env, limit_s=120)
    assert status == 0, err.decode()[-3000:]
    return json.dumps(json.loads(out))


@pytest.mark.parametrize("installed", [False, True], ids=["control", "installed"])
async def test_codex_profile_turning_terminals_on_is_set_off_by_the_install(
    tmp_path: Path, installed: bool
) -> None:
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    workspace = tmp_path / "src" / "app"
    workspace.mkdir(parents=True)
    root = tmp_path / "data" / "agents" / "coder" / "agent_state" / "memory"
    root.mkdir(parents=True)
    if installed:
        (home / ".codex" / "tty.config.toml").write_text(PROFILE, encoding="utf-8")
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    flags += ["--memory-root", str(root), "--no-check", "--home", str(home)]
    assert (
        main(["install", "codex", *flags], environ={"HOME": str(home)}, stdout=io.StringIO()) == 0
    )
    if not installed:  # the control: the profile written after the install
        (home / ".codex" / "tty.config.toml").write_text(PROFILE, encoding="utf-8")

    prompt = await prompt_with_profile(home, workspace)

    assert "write_stdin" in prompt  # the tool is declared either way
    assert (TTY_PARAMETER in prompt) is not installed
