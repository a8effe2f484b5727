"""P-3: a writing tool's call whose target the guard cannot read is refused, never let through.

A file tool's call without a string path (``Write`` with no ``file_path``, or a number, a list
or null in its place) and a shell tool's call without a string command were allowed unjudged:
the guard found no path and answered nothing. A harness that changed how it sends a call would
so switch the guard off unseen. Such a call is refused, naming what could not be read; a tool
that writes nothing (``Read``) and a tool the guard does not know still pass.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from harness_memory.cli import main

EVENT = {"claude-code": "pre-tool-use", "codex": "pre-tool-use", "gemini": "before-tool"}
UNREAD = {
    "claude-code": [("Write", "file_path"), ("Edit", "file_path"), ("Bash", "command")],
    "codex": [("apply_patch", "command"), ("Bash", "command")],
    "gemini": [
        ("write_file", "file_path"),
        ("replace", "file_path"),
        ("run_shell_command", "command"),
    ],
}
"""Each harness's writing tools and the argument naming what they write."""
IN_PLACE: list[Any] = [None, 5, ["notes.md"], {"path": "notes.md"}, "missing"]
"""What stands in the argument's place: null, a number, a list, an object, or no argument."""


def hook_says(tmp_path: Path, harness: str, tool: str, arguments: dict[str, Any]) -> str:
    """What ``harness``'s pre-tool hook prints for ``tool`` called with ``arguments`` in a
    Workspace, the memory root known (``""``: allowed); exit status 0 asserted."""
    root, work = tmp_path / "memory", tmp_path / "work"
    for folder in (root / "user", work):
        folder.mkdir(parents=True, exist_ok=True)
    hook: dict[str, Any] = {"session_id": "s-1", "cwd": str(work), "hook_event_name": "PreToolUse"}
    hook |= {"tool_name": tool, "tool_input": arguments}
    flags = ["--memory-root", str(root), "--state-dir", str(tmp_path / "state")]
    out = io.StringIO()
    stdin = io.BytesIO(json.dumps(hook).encode())
    argv = ["hook", harness, EVENT[harness], *flags]
    assert main(argv, environ={}, stdin=stdin, stdout=out) == 0
    return out.getvalue()


@pytest.mark.parametrize("harness", sorted(UNREAD))
@pytest.mark.parametrize("value", IN_PLACE, ids=repr)
def test_p3_a_writing_call_without_a_readable_target_is_refused(
    tmp_path: Path, harness: str, value: Any
) -> None:
    for tool, name in UNREAD[harness]:
        arguments = {} if value == "missing" else {name: value}
        said = hook_says(tmp_path, harness, tool, arguments)
        assert "cannot tell what" in said and tool in said, (tool, arguments, said)


@pytest.mark.parametrize("harness", sorted(UNREAD))
def test_p3_a_call_of_a_tool_that_writes_nothing_or_is_unknown_still_passes(
    tmp_path: Path, harness: str
) -> None:
    for tool in ("Read", "read_file", "Frobnicate", "list_directory"):
        assert hook_says(tmp_path, harness, tool, {}) == ""
