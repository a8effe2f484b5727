"""Claude Code's ``PreToolUse`` adapter: the P-3 write guard, run before every tool that writes.

Claude Code (and GitHub Copilot CLI, which runs the same hooks) sends ``tool_name`` and
``tool_input``; :func:`pre_tool_use` denies the call with
``{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
"permissionDecisionReason": "…"}}`` (the reason reaches the model) or answers nothing, so Claude
Code's own permission rules still apply. It fails open on anything but a refusal.
"""

from __future__ import annotations

from typing import Any

from harness_memory.hooks.claude_code import PATH_FIELDS, WRITE_TOOLS, HookInput
from harness_memory.hooks.mcp_files import mcp_writes
from harness_memory.hooks.tool_guard import write_refusal
from harness_memory.hooks.tool_writes import ToolWrites
from harness_memory.settings import HarnessSettings

__all__ = ["pre_tool_use", "tool_writes"]


def tool_writes(hook: HookInput) -> ToolWrites:
    """What a Claude Code tool call may write: the file tools' target (:data:`WRITE_TOOLS`,
    :data:`PATH_FIELDS`), a ``Bash`` command, an MCP tool's (``mcp__…``) string arguments and
    the file an MCP filesystem server's write tool names
    (:func:`~harness_memory.hooks.mcp_files.mcp_writes`)."""
    tool, arguments = hook.tool_name or "", hook.tool_input or {}
    if tool in WRITE_TOOLS:
        paths = [arguments[name] for name in PATH_FIELDS if isinstance(arguments.get(name), str)]
        return ToolWrites(paths=paths) if paths else ToolWrites.unreadable(tool, "file path")
    if tool == "Bash":
        command = arguments.get("command")
        if not isinstance(command, str):
            return ToolWrites.unreadable(tool, "command")
        return ToolWrites(texts=[command], run_by=SHELL)
    if tool.startswith("mcp__"):
        return mcp_writes(tool, arguments, separator="__")
    return ToolWrites()


SHELL = ("bash", "-il")
"""The shell Claude Code's Bash tool runs a command in, as the guard reads its startup files:
after a snapshot of the functions, aliases and ``PATH`` a login shell's profiles and the user's
``~/.bashrc`` make (taken as the Session starts, that file's "return unless interactive" line
passed over), in a shell it may start as a login shell itself (P-3, round 57)."""


def pre_tool_use(hook: HookInput, settings: HarnessSettings) -> dict[str, Any] | None:
    """Answer a ``PreToolUse`` hook: deny a write the guard refuses (P-3), else no answer.

    Judged (:func:`tool_writes`): the file tools' target, every path a ``Bash`` command names
    and every path in an MCP tool's (``mcp__…``) string arguments, each read the way the shell
    and the kernel will (:mod:`harness_memory.hooks.tool_targets`).

    The memory root and the Session's key come from the Session's record (written by the
    SessionStart adapter); without a record, from ``HARNESS_MEMORY_ROOT`` with the key derived
    from the hook's ``cwd`` (K-1; none for a temporary Workspace, K-4). With neither, the guard
    has no memory root to protect and answers nothing.
    """
    reason = write_refusal(tool_writes(hook), hook, settings)
    if reason is None:
        return None
    return {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    }
