"""Codex CLI hook adapters (P-4, H-1, H-2, V-1): SessionStart adds the injection, PreToolUse
guards, PostToolUse records memory writes.

Codex CLI (measured on :data:`CODEX_VERSION`) runs a hook command with one JSON object on
stdin — ``session_id``, ``cwd``, ``hook_event_name``, ``model``, ``permission_mode``, and for
``PreToolUse`` also ``turn_id``, ``tool_name``, ``tool_input``, ``tool_use_id`` — and reads the
same answers Claude Code does:

- ``SessionStart``: ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
  "additionalContext": …}, "systemMessage": …}``; the context reaches the model as a developer
  message. Codex keeps at most the hook's ``additionalContextLimit`` of it (default 2,500 of its
  tokens, a token being 4 UTF-8 bytes, rounded up) and replaces a longer text by a head-and-tail
  preview with a file path. The installer sets :data:`CONTEXT_LIMIT_TOKENS`; this adapter fits
  the prompt under it (:mod:`harness_memory.hooks.session_start`).
- ``PreToolUse``: ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
  "permissionDecision": "deny", "permissionDecisionReason": …}}`` blocks the call and the reason
  reaches the model. Tools guarded (:data:`GUARDED_TOOLS`): ``apply_patch`` (``tool_input.command``
  holds the patch; every file it adds, updates, deletes or moves to is checked), ``Bash``
  (``tool_input.command``: every memory-root path the command names is checked; an
  ``apply_patch`` it runs, as Codex intercepts ``apply_patch <<'EOF' …`` and ``bash -lc
  "apply_patch …"``, has its patch's files checked as the patch tool's are),
  ``write_stdin`` (its ``chars``, likewise) and MCP tools (``mcp__…``: every string argument;
  an MCP filesystem server's ``write_file``/``edit_file``/``move_file`` target as a file
  tool's, :mod:`harness_memory.hooks.mcp_files`).
- ``PostToolUse`` (the same fields and ``tool_response``): the same tools' memory writes are
  recorded as versions (V-1, :mod:`harness_memory.hooks.post_write`); answered with nothing.

An allowed call gets no answer. Every adapter fails open: a missing setting, an unreachable
service or malformed input never stops the Session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness_memory.hooks.claude_code import HookInput
from harness_memory.settings import HarnessSettings

if TYPE_CHECKING:
    from harness_memory.fitting import HarnessLimits
    from harness_memory.hooks.tool_writes import ToolWrites

__all__ = [
    "CODEX_VERSION",
    "CONTEXT_LIMIT_TOKENS",
    "GUARDED_TOOLS",
    "codex_tokens",
    "post_tool_use",
    "pre_tool_use",
    "session_start",
    "tool_writes",
]

CODEX_VERSION = "0.171.0"
"""The Codex CLI version whose hooks and limits were measured (the e2e test pins it)."""
CONTEXT_LIMIT_TOKENS = 100_000
"""``additionalContextLimit`` the installer gives the SessionStart hook (Codex tokens)."""
GUARDED_TOOLS = ("apply_patch", "Bash", "write_stdin", "mcp__*")


def codex_tokens(text: str) -> int:
    """Codex's token estimate of ``text``: its UTF-8 bytes divided by 4, rounded up."""
    return (len(text.encode("utf-8")) + 3) // 4


def limits() -> HarnessLimits:
    """This harness's Session-start limit for :func:`harness_memory.fitting.fit` (H-1)."""
    from harness_memory.fitting import HarnessLimits  # the Session start's, not the guard's

    return HarnessLimits(
        piece_limit=CONTEXT_LIMIT_TOKENS,
        pieces=1,
        limit_text=f"Codex CLI's limit of {CONTEXT_LIMIT_TOKENS:,} tokens for the SessionStart "
        "hook (its additionalContextLimit)",
        measure=codex_tokens,
    )


def session_start(hook: HookInput, settings: HarnessSettings) -> dict[str, Any]:
    """Answer Codex's ``SessionStart`` hook with the injection (P-1, H-1). Never raises."""
    # Imported here: the write guard, which runs before every file write, never needs the
    # Session start and its HTTP client (H-5).
    from harness_memory.hooks.session_start import session_start_answer

    return session_start_answer(hook, settings, "Codex CLI", limits(), installed_as="codex")


def tool_writes(hook: HookInput) -> ToolWrites:
    """What a Codex tool call may write (:data:`GUARDED_TOOLS`): every file an ``apply_patch``
    patch names (those it deletes or moves away as touched, not named:
    :func:`~harness_memory.hooks.tool_writes.patch_files`), a ``Bash`` command (an
    ``apply_patch`` it runs names its patch's files:
    :func:`~harness_memory.hooks.tool_targets.shell_paths`), the ``chars`` typed by
    ``write_stdin``, an MCP tool's string arguments and the file an MCP filesystem server's
    write tool names (:func:`~harness_memory.hooks.mcp_files.mcp_writes`)."""
    # Imported here: the Session start never needs the guard's readers of tool calls (H-5).
    from harness_memory.hooks.mcp_files import mcp_writes
    from harness_memory.hooks.path_refusal import string_leaves
    from harness_memory.hooks.tool_writes import ToolWrites, patch_files

    tool, arguments = hook.tool_name or "", hook.tool_input or {}
    command = arguments.get("command")
    if tool in ("apply_patch", "Bash"):
        if not isinstance(command, str):
            return ToolWrites.unreadable(tool, "command")
        if tool == "Bash":
            return ToolWrites(texts=[command], run_by=("bash", "-lc"))  # Codex's ``bash -lc``
        named, touched = patch_files(command)
        return ToolWrites(paths=named, touched=touched)
    if tool.startswith("mcp__"):
        return mcp_writes(tool, arguments, separator="__")
    if tool == "write_stdin":
        return ToolWrites(texts=string_leaves(arguments))
    return ToolWrites()


def pre_tool_use(hook: HookInput, settings: HarnessSettings) -> dict[str, Any] | None:
    """Answer Codex's ``PreToolUse`` hook: deny a call that writes where P-3 forbids."""
    from harness_memory.hooks.tool_guard import write_refusal

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


def post_tool_use(hook: HookInput, settings: HarnessSettings) -> None:
    """Answer Codex's ``PostToolUse`` hook: record the call's memory writes as versions (V-1)
    from a detached process; no answer. Never raises."""
    from harness_memory.hooks.post_write import record_writes

    record_writes(tool_writes(hook), hook, settings, "codex")
