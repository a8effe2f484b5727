"""P-5 end to end: the folder ``--from claude-code`` reads is the one the real Claude Code uses.

Runs the pinned Claude Code CLI headless in a linked git worktree, with its config dir under
``tmp_path`` (``CLAUDE_CONFIG_DIR``), against the loopback stand-in of its model API. Claude Code
names its auto-memory directory in the system prompt it sends; that path must be exactly what
:func:`memory_api.transfer.claude_code.claude_code_memory_dir` computes for the worktree (the
main working tree's folder: worktrees share one memory).
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from pathlib import Path

import pytest
from aiohttp import web
from aiohttp.test_utils import unused_port
from memory_api.transfer.claude_code import claude_code_memory_dir

from tests.plugin.claude_code_cli import claude_code_binary
from tests.plugin.fake_anthropic import Block, FakeAnthropic

pytestmark = pytest.mark.e2e

RUN_LIMIT_S = 120


def git(*argv: str) -> None:
    """Run git quietly with a fixed identity."""
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=T", *argv],
        check=True,
        capture_output=True,
        timeout=60,
    )


def answer(body: dict[str, object]) -> tuple[list[Block], str]:
    """Every request gets a short text answer."""
    return [{"type": "text", "text": "ok"}], "end_turn"


async def run_claude(claude: Path, cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """Run ``claude -p`` in ``cwd``; (exit code, stdout + stderr)."""
    process = await asyncio.create_subprocess_exec(
        str(claude),
        "-p",
        "hello",
        "--output-format",
        "json",
        cwd=cwd,
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
    return process.returncode, (out + err).decode(errors="replace")


async def test_p5_claude_code_names_the_folder_we_import_from(tmp_path: Path) -> None:
    claude = claude_code_binary()
    repo = tmp_path / "src" / "My Repo"
    repo.mkdir(parents=True)
    git("init", "-q", str(repo))
    git("-C", str(repo), "commit", "-q", "--allow-empty", "-m", "start")
    worktree = tmp_path / "src" / "repo-feature"
    git("-C", str(repo), "worktree", "add", "-q", str(worktree))
    config = tmp_path / "claude-config"
    fake = FakeAnthropic(script=answer)
    runner = web.AppRunner(fake.app())
    await runner.setup()
    try:
        port = unused_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(tmp_path / "home"),
            "CLAUDE_CONFIG_DIR": str(config),
            "ANTHROPIC_BASE_URL": f"http://127.0.0.1:{port}",
            "ANTHROPIC_API_KEY": "sk-ant-test-dummy",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
        }
        returncode, output = await run_claude(claude, worktree, env)
    finally:
        await runner.cleanup()
    assert returncode == 0, output
    sent = json.dumps(fake.message_requests())
    named = set(re.findall(r"[^\s\"`']*?/projects/[^\s\"`']*?/memory/", sent))
    expected = str(claude_code_memory_dir(str(worktree), env)) + "/"
    assert named == {expected}, (named, expected)
    assert expected.startswith(str(config) + "/projects/")
