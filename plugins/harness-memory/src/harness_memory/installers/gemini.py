"""``harness-memory install gemini``: the hooks in ``~/.gemini/settings.json`` (H-3).

Gemini CLI (measured on 0.61.0) reads hooks from the ``"hooks"`` object of its user settings:
a ``SessionStart`` hook adds the injection, a ``BeforeTool`` hook guards the tools that write
files (:data:`GUARD_MATCHER`). The memory root goes into ``context.includeDirectories``: Gemini
CLI's file tools refuse paths outside the Workspace's directories, memory included. Other
settings and hooks stay; uninstall takes out only what install added.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness_memory.installers.files import FileChange, dump_json, read_json_object
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.secrets import tokens_in
from harness_memory.installers.spec import InstallOptions

__all__ = ["GUARD_MATCHER", "plan", "settings_path"]

HARNESS = "gemini"
GUARD_MATCHER = "write_file|replace|run_shell_command"
"""Gemini CLI's tools that write files: ``write_file`` and ``replace`` (``file_path``) and the
shell (``command``)."""
HOOK_TIMEOUT_MS = 30_000


def settings_path(home: Path, environ: Mapping[str, str]) -> Path:
    """``$GEMINI_CLI_HOME/.gemini/settings.json`` when set, else ``~/.gemini/settings.json``."""
    base = environ.get("GEMINI_CLI_HOME")
    return (Path(base) if base else home) / ".gemini" / "settings.json"


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> list[FileChange]:
    """The change to Gemini CLI's user settings; ``SettingsFileError`` for a bad file."""
    path = settings_path(options.home, environ)
    old, document = read_json_object(path)
    state = path.parent / "harness-memory"
    wanted: dict[str, list[dict[str, Any]]] = {}
    if install:
        wanted = {
            "SessionStart": [{"hooks": [_handler(options, "session-start", state)]}],
            "BeforeTool": [
                {"matcher": GUARD_MATCHER, "hooks": [_handler(options, "before-tool", state)]}
            ],
        }
    merged, _ = merge_hooks(document, HARNESS, wanted, source=path)
    _include_directory(merged, os.path.normpath(str(options.memory_root)), install=install)
    if not install and old is None:
        return []
    secrets = frozenset(tokens_in(document, HARNESS) | tokens_in(merged, HARNESS))
    return [FileChange(path, old, dump_json(merged), secrets)]


def _handler(options: InstallOptions, event: str, state: Path) -> dict[str, Any]:
    return {
        "name": f"agent-memory-{event}",
        "type": "command",
        "command": options.hook_command(HARNESS, event, state_dir=state, token=True),
        "timeout": HOOK_TIMEOUT_MS,
    }


def _include_directory(document: dict[str, Any], root: str, *, install: bool) -> None:
    context = document.get("context")
    if not isinstance(context, dict):
        if not install:
            return
        context = document["context"] = {}
    entries = context.get("includeDirectories")
    entries = list(entries) if isinstance(entries, list) else []
    if install and root not in entries:
        entries.append(root)
    if not install and root in entries:
        entries.remove(root)
    if entries:
        context["includeDirectories"] = entries
    else:
        context.pop("includeDirectories", None)
    if not context:
        document.pop("context", None)
