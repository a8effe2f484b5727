"""P-3, P-4: hostile hook input never crashes a hook process; a crash would let the write through.

Claude Code treats a PreToolUse hook that exits with anything but 0 or 2 as a non-blocking
error and runs the tool anyway, so a guard that raises on odd input is a guard that allows.
These run the real ``harness-memory`` command with the JSON a careless or adversarial caller
could put on stdin.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from memory_core import layout

from tests.plugin.helpers import run_cli

OTHER_SCOPE = "other-app-0badc0de"


def guard_env(tmp_path: Path, root: Path) -> dict[str, str]:
    return {
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HOME": str(tmp_path),
        "HARNESS_MEMORY_ROOT": str(root),
    }


def write_hook(cwd: str, file_path: str) -> bytes:
    document = {
        "session_id": "s-1",
        "hook_event_name": "PreToolUse",
        "cwd": cwd,
        "tool_name": "Write",
        "tool_input": {"file_path": file_path, "content": "x"},
    }
    return json.dumps(document).encode()  # ensure_ascii: a lone surrogate stays "\ud800"


@pytest.mark.parametrize("event", ["session-start", "pre-tool-use"])
async def test_p4_hook_input_nested_past_the_parser_depth_is_answered_with_nothing(
    tmp_path: Path, event: str
) -> None:
    for nested in (b"[" * 100_000, b'{"tool_input":' + b'{"a":' * 100_000):
        done = await run_cli(
            "hook", "claude-code", event, stdin=nested, env={"HOME": str(tmp_path)}
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout == ""
        assert "not the JSON Claude Code sends" in done.stderr
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "name",
    ["x\ud800.md", "x\udcff.md"],
    ids=["lone-high-surrogate", "lone-low-surrogate"],
)
async def test_p3_target_that_cannot_be_a_file_name_is_denied_not_a_crash(
    tmp_path: Path, name: str
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    (root / OTHER_SCOPE).mkdir(parents=True)
    stdin = write_hook(str(tmp_path), str(root / OTHER_SCOPE / name))
    done = await run_cli(
        "hook", "claude-code", "pre-tool-use", stdin=stdin, env=guard_env(tmp_path, root)
    )
    assert done.returncode == 0, done.stderr
    assert done.json()["hookSpecificOutput"]["permissionDecision"] == "deny"


@pytest.mark.parametrize("cwd_suffix", ["\x00", "/\ud800"], ids=["nul", "lone-surrogate"])
async def test_p3_unusable_cwd_still_guards_an_absolute_target(
    tmp_path: Path, cwd_suffix: str
) -> None:
    root = layout.memory_root(tmp_path / "data", "coder")
    (root / OTHER_SCOPE).mkdir(parents=True)
    env = guard_env(tmp_path, root)
    cwd = str(tmp_path) + cwd_suffix
    other = await run_cli(
        "hook",
        "claude-code",
        "pre-tool-use",
        stdin=write_hook(cwd, str(root / OTHER_SCOPE / "x.md")),
        env=env,
    )
    assert other.returncode == 0, other.stderr
    assert other.json()["hookSpecificOutput"]["permissionDecision"] == "deny"
    user = await run_cli(
        "hook",
        "claude-code",
        "pre-tool-use",
        stdin=write_hook(cwd, str(root / "user" / "x.md")),
        env=env,
    )
    assert user.returncode == 0, user.stderr
    assert user.stdout == ""
    relative = await run_cli(
        "hook", "claude-code", "pre-tool-use", stdin=write_hook(cwd, "x.md"), env=env
    )
    assert relative.returncode == 0, relative.stderr
    assert "Traceback" not in relative.stderr


@pytest.mark.parametrize(
    "fields",
    [{"session_id": "\ud800"}, {"session_id": "s-1", "cwd": "/tmp/\ud800"}],
    ids=["session-id", "cwd"],
)
async def test_p4_session_start_with_a_lone_surrogate_fails_open_with_an_answer(
    tmp_path: Path, fields: dict[str, str]
) -> None:
    document = {"hook_event_name": "SessionStart", "source": "startup", "cwd": str(tmp_path)}
    env = {
        "HOME": str(tmp_path),
        "HARNESS_MEMORY_STATE_DIR": str(tmp_path / "state"),
        "HARNESS_MEMORY_URL": "http://127.0.0.1:9",  # nothing listens: memory fails open
        "HARNESS_MEMORY_PROJECT": "acme",
        "HARNESS_MEMORY_AGENT": "coder",
    }
    stdin = json.dumps({**document, **fields}).encode()
    done = await run_cli("hook", "claude-code", "session-start", stdin=stdin, env=env)
    assert done.returncode == 0, done.stderr
    assert "systemMessage" in done.json()
    assert "could not write the Session record" in done.stderr
