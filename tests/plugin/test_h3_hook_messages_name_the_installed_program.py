"""H-3: the commands a hook's messages tell the user to run, inside a Session, name the program
as the installed hook command starts it.

Installed from a clone, the hooks start ``<clone>/.venv/bin/harness-memory`` by absolute path,
and no ``harness-memory`` is on the user's ``PATH``: a Session-start notice saying "run
`harness-memory install claude-code` once", or the refusal of a guard whose command is gone
saying "see harness-memory status", named a command the user's shell does not find. The memory
text the hook injects is the user's and is never rewritten.
"""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from harness_memory.as_typed import typed_answer
from harness_memory.cli import main

from tests.support.harness_settings import install

PROGRAM = "/opt/a b/.venv/bin/harness-memory"
"""Where a clone's install put the program: a space in the path, and not on ``PATH``."""
TYPED = "`'/opt/a b/.venv/bin/harness-memory' "


def test_h3_a_session_start_notice_names_the_program_the_hook_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    flags = ["--url", "http://127.0.0.1:9", "--project", "acme", "--agent", "coder"]
    flags += ["--memory-root", str(tmp_path / "memory"), "--state-dir", str(tmp_path / "state")]
    argv = ["hook", "claude-code", "session-start", *flags, "--flags-only"]
    monkeypatch.setattr(sys, "argv", [PROGRAM, *argv])
    hook = {"session_id": "s1", "cwd": str(tmp_path), "hook_event_name": "SessionStart"}
    # a repository's settings set a token the hooks ignore; the notice names the fix
    environ = {"PATH": "/usr/bin:/bin", "HARNESS_MEMORY_TOKEN": "t", "HOME": str(tmp_path)}
    out = io.StringIO()

    main(argv, environ=environ, stdin=io.BytesIO(json.dumps(hook).encode()), stdout=out)

    said = json.loads(out.getvalue())["systemMessage"]
    memory = tmp_path / "memory"
    flags_said = f"--url http://127.0.0.1:9 --project acme --agent coder --memory-root {memory}"
    assert f"{TYPED}install claude-code {flags_said}` once" in said
    assert "`harness-memory " not in said


def test_h3_the_memory_text_a_hook_injects_is_not_rewritten() -> None:
    memory = "- [Setup](setup.md) — run `harness-memory status` after installing"
    answer = {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": memory},
        "systemMessage": "Agent Memory: run `harness-memory token set` once",
    }

    typed = typed_answer(answer, PROGRAM)

    assert typed["hookSpecificOutput"]["additionalContext"] == memory
    assert typed["systemMessage"] == f"Agent Memory: run {TYPED}token set` once"


def test_h3_a_guard_whose_program_is_gone_names_it_in_the_refusal(tmp_path: Path) -> None:
    home = tmp_path / "home"
    install("claude-code", home, "--executable", PROGRAM)
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]

    ran = subprocess.run(  # the installed hook command, as the harnesses run it: one shell
        ["/bin/bash", "-c", command], input=b"{}", capture_output=True, check=False
    )

    assert ran.returncode == 2  # the harnesses refuse the tool call
    refusal = ran.stderr.decode()
    assert "the write guard did not run" in refusal
    assert f"run {TYPED}status`" in refusal


def test_h3_the_refusal_names_a_program_with_backslashes_as_it_is_under_dash(
    tmp_path: Path,
) -> None:
    program = "/opt/a\\nb\\c/.venv/bin/harness-memory"  # dash's echo reads \n and \c
    home = tmp_path / "home"
    install("claude-code", home, "--executable", program)
    settings = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))
    command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]

    ran = subprocess.run(  # /bin/sh, as Codex and Gemini CLI may run it: dash on Debian
        ["/bin/sh", "-c", command], input=b"{}", capture_output=True, check=False
    )

    assert ran.returncode == 2
    refusal = ran.stderr.decode()
    assert f"run `{shlex.quote(program)} status` (from where" in refusal, refusal
    settings = home / ".claude" / "settings.json"  # the way out, named as it is under dash
    assert f"delete the hooks that run {shlex.quote(program)} from {settings}\n" in refusal
    assert refusal.endswith(f"{settings}\n"), refusal
