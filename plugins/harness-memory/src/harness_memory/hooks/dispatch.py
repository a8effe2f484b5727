"""Which adapter answers ``harness-memory hook HARNESS EVENT`` for Codex CLI and Gemini CLI.

Each adapter module is imported only when its hook runs, so a guard process pays for nothing
else (H-5). Malformed hook input is logged and answered with nothing: a hook never blocks the
harness over a memory problem.
"""

from __future__ import annotations

import sys

from harness_memory import logs
from harness_memory.hooks.claude_code import decode_input

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (H-5: the guard path)
if TYPE_CHECKING:
    from typing import Any

    from harness_memory.settings import HarnessSettings

__all__ = ["HOOK_EVENTS", "run_hook"]

HOOK_EVENTS: dict[str, dict[str, tuple[str, str]]] = {
    "claude-code": {
        "session-start": ("claude_code", "session_start"),
        "pre-tool-use": ("claude_code", "pre_tool_use"),
        "post-tool-use": ("sync", "sync_scopes"),
        "session-end": ("sync", "sync_scopes"),
    },
    "codex": {
        "session-start": ("codex", "session_start"),
        "pre-tool-use": ("codex", "pre_tool_use"),
        "post-tool-use": ("sync", "sync_scopes"),
        "stop": ("sync", "sync_scopes"),
    },
    "gemini": {
        "session-start": ("gemini", "session_start"),
        "before-tool": ("gemini", "before_tool"),
        "after-tool": ("sync", "sync_scopes"),
        "session-end": ("sync", "sync_scopes"),
    },
}
"""Harness → hook event (as the command line names it) → (adapter module, function)."""


def run_hook(harness: str, event: str, raw: bytes, settings: HarnessSettings) -> Any:
    """Run one adapter on the hook's stdin bytes; its JSON answer, or None for no answer."""
    module_name, function_name = HOOK_EVENTS[harness][event]
    try:
        hook = decode_input(raw)
    except ValueError as error:
        logs.logger(__name__).warning("hook input is not the JSON %s sends: %s", harness, error)
        return None
    name = f"harness_memory.hooks.{module_name}"
    __import__(name)  # importlib.import_module without importing importlib (H-5)
    module = sys.modules[name]
    return getattr(module, function_name)(hook, settings)
