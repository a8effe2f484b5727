"""H-7: ``status`` judges ``hooks.json`` by what the real Codex CLI 0.171 reads, no more, no
less.

Measured with the real Codex CLI 0.171 (a Session's memory injected or not, and its
"failed to parse hooks config" warning): it reads an ``mcp_tool`` handler and a
``"timeout": null`` (serde ``Option<u64>``) and injects memory; it refuses the whole file
for a bad field under every event it reads (``SessionEnd``, ``SubagentStart``,
``SubagentStop``, ``Interrupt``, ``PreModelRequest``, ``PostModelRequest`` besides the eight
of before), for an ``additionalContextLimit`` of ``-1`` (a ``usize``), a ``command_windows``
(``commandWindows``' alias) that is no string, an ``mcp_tool`` without its ``tool``,
``"hooks": null`` and a top-level key besides ``hooks`` and ``description``; it ignores an
event key it does not know, whatever it holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.test_h7_status_names_codex_hooks_it_skips import cli, install


def with_hooks(home: Path, change: dict[str, Any]) -> Path:
    """``home``'s ``hooks.json`` with ``change``'s groups added to its events (``None``:
    the event's value replaced by ``change``'s); returns its path."""
    hooks_json = home / ".codex" / "hooks.json"
    document = json.loads(hooks_json.read_text(encoding="utf-8"))
    for key, value in change.items():
        if key == "/":
            document.update(value)
        elif isinstance(value, list):
            document["hooks"][key] = document["hooks"].get(key, []) + value
        else:
            document["hooks"][key] = value
    hooks_json.write_text(json.dumps(document), encoding="utf-8")
    return hooks_json


def command(**fields: Any) -> list[dict[str, Any]]:
    return [{"hooks": [{"type": "command", "command": "true", **fields}]}]


READ: dict[str, dict[str, Any]] = {
    "mcp-tool-and-null-timeout": {
        "Stop": [
            {"hooks": [{"type": "mcp_tool", "server": "notes", "tool": "save"}]},
            {"hooks": [{"type": "command", "command": "true", "timeout": None}]},
        ]
    },
    "unknown-event": {"Bogus": command(timeout="30")},
    "unknown-event-no-list": {"Notification": 5},
    "null-optionals": {"Stop": command(statusMessage=None, additionalContextLimit=None)},
}


@pytest.mark.parametrize("case", list(READ))
def test_a_hooks_json_codex_reads_is_no_problem(tmp_path: Path, case: str) -> None:
    home, _ = install(tmp_path, "codex")
    with_hooks(home, READ[case])

    said = cli(home, "status")[1]

    assert [line for line in said.splitlines() if "hooks.json" in line and "PROBLEM" in line] == []


REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "subagent-stop-timeout-a-string": (
        {"SubagentStop": command(timeout="30")},
        "a SubagentStop hook's timeout is not a whole number of seconds (it is a string)",
    ),
    "session-end": ({"SessionEnd": command(timeout="30")}, "a SessionEnd hook's timeout"),
    "subagent-start": ({"SubagentStart": command(timeout="3")}, "a SubagentStart hook's timeout"),
    "interrupt": ({"Interrupt": command(timeout="30")}, "a Interrupt hook's timeout"),
    "pre-model-request": ({"PreModelRequest": 5}, "PreModelRequest is a number, not a list"),
    "additional-context-limit-negative": (
        {"Stop": command(additionalContextLimit=-1)},
        "a Stop hook's additionalContextLimit is not a whole number of characters (it is a "
        "negative number)",
    ),
    "command-windows-alias": (
        {"Stop": command(command_windows=5)},
        "a Stop hook's command_windows is not a string",
    ),
    "mcp-tool-without-tool": (
        {"Stop": [{"hooks": [{"type": "mcp_tool", "server": "notes"}]}]},
        "a Stop hook's tool is not a string (it is null)",
    ),
    "command-windows-under-both-names": (  # serde: "duplicate field `commandWindows`"
        {"Stop": command(commandWindows="a.cmd", command_windows="b.cmd")},
        "a Stop hook sets commandWindows and command_windows, one field by two names",
    ),
    "top-level-key": (
        {"/": {"comment": "mine"}},
        'the file holds a key besides "hooks" and "description"',
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_hooks_json_codex_refuses_is_a_problem(tmp_path: Path, case: str) -> None:
    change, named = REFUSED[case]
    home, _ = install(tmp_path, "codex")
    hooks_json = with_hooks(home, change)

    code, said = cli(home, "status")

    assert f"codex: PROBLEM: Codex cannot read {hooks_json}" in said, said
    assert named in said, said
    assert code == 1


def test_hooks_null_is_a_file_codex_refuses() -> None:
    """``"hooks": null`` holds no hook of ours (``status`` says not installed), yet Codex
    refuses the file ("invalid type: null, expected struct HookEventsToml")."""
    from harness_memory.installers.codex_hook_fields import unreadable

    assert unreadable({"hooks": None}) == ['"hooks" is null, not an object']
    assert unreadable({"description": "mine", "hooks": {}}) == []
