"""P-3: a write guard that fails while judging a tool call denies it.

A hook process that raised exited 1 with a traceback and printed no decision, and Claude Code
takes a hook's exit 1 as no objection: the call ran unjudged. review53i reached one through
``Path.is_dir`` raising ``ENAMETOOLONG`` on a link made past ``PATH_MAX``, and the link it let
through then carried a write into another Workspace's scope. Any failure of the guard now
answers a deny naming what failed, in each harness's shape; with no memory guarded (no root
configured, no Session's record) the hook still answers nothing.
"""

from __future__ import annotations

import errno
import io
import json
from pathlib import Path

import pytest
from harness_memory.cli import main
from harness_memory.hooks import tool_guard

from tests.support.guard_cases import SHELL, Layout, answer, guarded_layout, refusal


@pytest.fixture
def where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Layout:
    """A guarded layout whose guard fails on every call: the mount table cannot be read."""
    found = guarded_layout(tmp_path, monkeypatch)

    def fail() -> None:
        raise OSError(errno.ENAMETOOLONG, "File name too long")

    monkeypatch.setattr(tool_guard, "read_mount_table", fail)
    return found


@pytest.mark.parametrize("harness", list(SHELL))
def test_p3_a_guard_that_fails_denies_the_call(where: Layout, harness: str) -> None:
    command = f"echo x > {where.workspace}/build.log"

    reason = refusal(answer(where, harness, SHELL[harness][1], {"command": command}))

    assert reason is not None
    assert "the guard failed while judging this call (OSError)" in reason


def test_p3_a_guard_that_fails_with_no_memory_guarded_answers_nothing(where: Layout) -> None:
    hook = {
        "session_id": "s-1",
        "cwd": str(where.workspace),
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "echo x > build.log"},
    }
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    flags = ["--state-dir", str(where.state)]  # no memory root, no Session's record
    assert (
        main(["hook", "claude-code", "pre-tool-use", *flags], environ={}, stdin=stdin, stdout=out)
        == 0
    )
    assert out.getvalue() == ""
