"""Claude Code's ``PostToolUse`` adapter: the agent's memory writes become versions (V-1).

Claude Code runs it after a tool succeeded, with the ``PreToolUse`` fields (``session_id``,
``cwd``, ``tool_name``, ``tool_input``) plus ``tool_response`` and ``tool_use_id`` (measured on
2.1.332). The call is read as the guard reads it
(:func:`~harness_memory.hooks.claude_code_guard.tool_writes`) and each memory scope it wrote is
recorded by :mod:`harness_memory.hooks.post_write`, from a detached process. No answer.
"""

from __future__ import annotations

from harness_memory.hooks.claude_code import HookInput
from harness_memory.hooks.claude_code_guard import tool_writes
from harness_memory.hooks.post_write import record_writes
from harness_memory.settings import HarnessSettings

__all__ = ["post_tool_use"]


def post_tool_use(hook: HookInput, settings: HarnessSettings) -> None:
    """Answer a ``PostToolUse`` hook: record the call's memory writes as versions (V-1); no
    answer. Never raises."""
    record_writes(tool_writes(hook), hook, settings, "claude-code")
