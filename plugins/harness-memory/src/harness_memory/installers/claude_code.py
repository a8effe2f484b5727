"""``harness-memory install claude-code``: the hooks in ``~/.claude/settings.json`` (H-3).

Writes what the plugin README's Claude Code section gives: the ``SessionStart`` entries, the
``PreToolUse`` guard on Write, Edit, MultiEdit and NotebookEdit, the memory root in
``permissions.additionalDirectories`` and the ``Edit(//<memory root>/**)`` allow rule (so headless
Sessions may write memory; the guard still keeps writes to the Session's scopes), and with a
token ``env.HARNESS_MEMORY_TOKEN``. ``$CLAUDE_CONFIG_DIR`` moves the file as Claude Code does.
Uninstall removes our hook entries and our two permission entries, nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness_memory.hooks.claude_code import RECOMMENDED_PARTS
from harness_memory.installers.files import FileChange, dump_json, read_json_object
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.spec import InstallOptions

__all__ = ["SESSION_START_PARTS", "plan", "settings_path"]

HARNESS = "claude-code"
SESSION_START_PARTS = RECOMMENDED_PARTS
"""SessionStart entries written, each carrying one piece of the injection (H-1: Claude Code
shows at most 10,000 characters of each; four carry both indexes at the caps)."""
WRITE_MATCHER = "Write|Edit|MultiEdit|NotebookEdit"


def settings_path(home: Path, environ: Mapping[str, str]) -> Path:
    """``$CLAUDE_CONFIG_DIR/settings.json``, else ``~/.claude/settings.json``."""
    config = environ.get("CLAUDE_CONFIG_DIR")
    return (Path(config) if config else home / ".claude") / "settings.json"


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> list[FileChange]:
    """The change to Claude Code's user settings; raises ``SettingsFileError`` for a bad file."""
    path = settings_path(options.home, environ)
    old, document = read_json_object(path)
    wanted = _wanted(options) if install else {}
    merged, _ = merge_hooks(document, HARNESS, wanted, source=path)
    _permissions(merged, options, install=install)
    if options.token is not None or not install:
        _token(merged, options.token if install else None)
    if not install and old is None:
        return []
    return [FileChange(path, old, dump_json(merged))]


def _wanted(options: InstallOptions) -> dict[str, list[dict[str, Any]]]:
    starts = []
    for part in range(1, SESSION_START_PARTS + 1):
        command = options.hook_command(HARNESS, "session-start")
        if SESSION_START_PARTS > 1:
            command += f" --part {part} --parts {SESSION_START_PARTS}"
        starts.append({"hooks": [{"type": "command", "command": command}]})
    guard = options.hook_command(HARNESS, "pre-tool-use")
    return {
        "SessionStart": starts,
        "PreToolUse": [
            {"matcher": WRITE_MATCHER, "hooks": [{"type": "command", "command": guard}]}
        ],
    }


def _rules(options: InstallOptions) -> tuple[str, str]:
    root = os.path.normpath(str(options.memory_root))
    return root, f"Edit(/{root}/**)"


def _permissions(document: dict[str, Any], options: InstallOptions, *, install: bool) -> None:
    """Add (or take out) the memory root directory and the allow rule; other entries stay."""
    root, rule = _rules(options)
    permissions = document.get("permissions")
    if not isinstance(permissions, dict):
        if not install:
            return
        permissions = document["permissions"] = {}
    for key, value in (("additionalDirectories", root), ("allow", rule)):
        entries = permissions.get(key)
        entries = list(entries) if isinstance(entries, list) else []
        if install and value not in entries:
            entries.append(value)
        if not install and value in entries:
            entries.remove(value)
        if entries:
            permissions[key] = entries
        else:
            permissions.pop(key, None)
    if not permissions:
        document.pop("permissions", None)


def _token(document: dict[str, Any], token: str | None) -> None:
    env = document.get("env")
    if token is not None:
        document["env"] = {**(env if isinstance(env, dict) else {}), "HARNESS_MEMORY_TOKEN": token}
    elif isinstance(env, dict) and "HARNESS_MEMORY_TOKEN" in env:
        del env["HARNESS_MEMORY_TOKEN"]
        if not env:
            del document["env"]
