"""P-2a: settings a confused operator or a cloned repository sets give a usage error, never a
traceback, a misleading "service unavailable" or a hang (the ``harness-memory`` command)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.plugin.helpers import HARNESS_MEMORY, Completed, harness_env


async def session_start(env: dict[str, str], workspace: Path) -> Completed:
    """Run ``harness-memory session-start``; a run still going after 30 s is killed and fails."""
    process = await asyncio.create_subprocess_exec(
        HARNESS_MEMORY,
        "session-start",
        "--workspace",
        str(workspace),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), 30)
    except TimeoutError:
        process.kill()
        await process.wait()
        pytest.fail("harness-memory session-start hung")
    assert process.returncode is not None
    return Completed(process.returncode, out.decode(), err.decode())


@pytest.mark.parametrize("value", ["inf", "1e308", "1e400", "-inf"])
async def test_p2a_timeout_no_socket_can_use_is_a_usage_error(tmp_path: Path, value: str) -> None:
    env = harness_env("http://127.0.0.1:9", HOME=str(tmp_path), HARNESS_MEMORY_TIMEOUT=value)
    done = await session_start(env, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "timeout" in done.stderr
    assert "Traceback" not in done.stderr


async def test_p2a_template_that_is_a_fifo_is_a_usage_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "template.md"
    os.mkfifo(fifo)  # nobody ever writes it: a plain open() would wait forever
    env = harness_env("http://127.0.0.1:9", HOME=str(tmp_path), HARNESS_MEMORY_TEMPLATE=str(fifo))
    done = await session_start(env, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot read the template file" in done.stderr
    assert "not a regular file" in done.stderr


async def test_p2a_template_past_the_size_limit_is_a_usage_error(tmp_path: Path) -> None:
    template = tmp_path / "template.md"
    template.write_bytes(b"x" * (1024 * 1024 + 1))
    env = harness_env(
        "http://127.0.0.1:9", HOME=str(tmp_path), HARNESS_MEMORY_TEMPLATE=str(template)
    )
    done = await session_start(env, tmp_path)
    assert done.returncode == 2, done.stderr
    assert "cannot read the template file" in done.stderr
    assert "larger than" in done.stderr
