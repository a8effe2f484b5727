"""Gemini CLI hook adapters (P-4, H-1, H-2): SessionStart adds the injection, BeforeTool guards.

Gemini CLI (measured on :data:`GEMINI_VERSION`) runs a hook command with one JSON object on
stdin — ``session_id``, ``transcript_path``, ``cwd``, ``hook_event_name``, ``timestamp``, and
``source`` (SessionStart) or ``tool_name`` and ``tool_input`` (BeforeTool):

- ``SessionStart``: ``{"hookSpecificOutput": {"hookEventName": "SessionStart",
  "additionalContext": …}, "systemMessage": …}``; Gemini CLI puts the context before the first
  user message inside ``<hook_context>…</hook_context>``, with every ``<`` and ``>`` of it
  written as ``&lt;`` and ``&gt;``; ``systemMessage`` goes to the user (stderr in headless
  runs). No size limit was found: 500,000 characters arrived whole.
- ``BeforeTool``: ``{"decision": "deny", "reason": …}`` blocks the call and the reason reaches
  the model as the tool's error. Tools guarded (:data:`GUARDED_TOOLS`): ``write_file`` and
  ``replace`` (``tool_input.file_path``, read both as written and as Gemini CLI reads it:
  :func:`file_path_readings`), ``run_shell_command`` (every path its ``command``
  names, relative ones from its ``dir_path``, the folder it runs in) and MCP tools
  (``mcp_<server>_<tool>``: every path in their string arguments; an MCP filesystem server's
  ``write_file``/``edit_file``/``move_file`` target as a file tool's,
  :mod:`harness_memory.hooks.mcp_files`).
- ``AfterTool`` (the same fields and ``tool_response``): the same tools' memory writes are
  recorded as versions (V-1, :mod:`harness_memory.hooks.post_write`); answered with nothing.

An allowed call gets no answer. Every adapter fails open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harness_memory.hooks.claude_code import HookInput
from harness_memory.settings import HarnessSettings

if TYPE_CHECKING:
    from harness_memory.fitting import HarnessLimits
    from harness_memory.hooks.tool_writes import ToolWrites

__all__ = [
    "CONTEXT_LIMIT",
    "GEMINI_VERSION",
    "GUARDED_TOOLS",
    "after_tool",
    "before_tool",
    "file_path_readings",
    "session_start",
    "tool_writes",
]

GEMINI_VERSION = "0.61.0"
"""The Gemini CLI version whose hooks and limits were measured (the e2e test pins it)."""
CONTEXT_LIMIT = 500_000
"""Characters of hook context known to reach the model whole (the largest measured)."""
GUARDED_TOOLS = ("write_file", "replace", "run_shell_command", "mcp_*")


def limits() -> HarnessLimits:
    """This harness's Session-start limit for :func:`harness_memory.fitting.fit` (H-1)."""
    from harness_memory.fitting import HarnessLimits  # the Session start's, not the guard's

    return HarnessLimits(
        piece_limit=CONTEXT_LIMIT,
        pieces=1,
        limit_text=f"{CONTEXT_LIMIT:,} characters of SessionStart context (the most measured to "
        "reach Gemini CLI's model whole)",
        measure=len,
    )


def session_start(hook: HookInput, settings: HarnessSettings) -> dict[str, Any]:
    """Answer Gemini CLI's ``SessionStart`` hook with the injection (P-1, H-1). Never raises."""
    # Imported here: the write guard, which runs before every file write, never needs the
    # Session start and its HTTP client (H-5).
    from harness_memory.hooks.session_start import session_start_answer

    return session_start_answer(hook, settings, "Gemini CLI", limits(), installed_as="gemini")


def tool_writes(hook: HookInput) -> ToolWrites:
    """What a Gemini CLI tool call may write (:data:`GUARDED_TOOLS`): the ``file_path`` of
    ``write_file`` and ``replace``, a ``run_shell_command`` command (run in its ``dir_path``
    when it names one), an MCP tool's string arguments and the file an MCP filesystem
    server's write tool names (:func:`~harness_memory.hooks.mcp_files.mcp_writes`)."""
    # Imported here: the Session start never needs the guard's readers of tool calls (H-5).
    from harness_memory.hooks.mcp_files import mcp_writes
    from harness_memory.hooks.tool_writes import ToolWrites

    tool, arguments = hook.tool_name or "", hook.tool_input or {}
    if tool in ("write_file", "replace"):
        if not isinstance(path := arguments.get("file_path"), str):
            return ToolWrites.unreadable(tool, "file_path")
        return ToolWrites(paths=file_path_readings(path))
    if tool == "run_shell_command":
        if not isinstance(command := arguments.get("command"), str):
            return ToolWrites.unreadable(tool, "command")
        command = _in_folder(command, arguments.get("dir_path"))
        return ToolWrites(texts=[command], run_by=("bash", "-c"))  # Gemini CLI's ``bash -c``
    if tool.startswith("mcp_"):
        return mcp_writes(tool, arguments, separator="_")
    return ToolWrites()


def file_path_readings(path: str) -> list[str]:
    """Every path Gemini CLI may make of a file tool's ``file_path`` (P-3): as written, and as
    its ``resolveDefensiveToolPath`` reads it when no entry of that name is there — a
    ``@path`` as ``path`` (the ``@`` and any slashes after it dropped, so ``@/abs`` becomes
    relative), every NUL removed. The guard judges each; the call is refused when one lands
    where it may not write.

    >>> file_path_readings("@../other-1234abcd/x.md")
    ['@../other-1234abcd/x.md', '../other-1234abcd/x.md']
    """
    readings = [path]
    clean = path.replace("\0", "")
    if clean != path:
        readings.append(clean)
    if clean.startswith("@") and len(clean) > 1:
        stripped = clean[1:].lstrip("/\\")
        if stripped:
            readings.append(stripped)
    return readings


def _in_folder(command: str, folder: object) -> str:
    """``command`` as the shell runs it: in ``folder`` (``run_shell_command``'s ``dir_path``,
    relative ones from the Workspace) when one is given, so that a path it names relatively,
    and the folder itself, are judged where they are (``cd`` is followed by
    :func:`~harness_memory.hooks.tool_targets.shell_paths`)."""
    if not isinstance(folder, str) or not folder:
        return command
    import shlex  # a shell call's only: Gemini CLI's Session start imports this module (H-5)

    return f"cd {shlex.quote(folder)} && {command}"


def before_tool(hook: HookInput, settings: HarnessSettings) -> dict[str, Any] | None:
    """Answer Gemini CLI's ``BeforeTool`` hook: deny a call that writes where P-3 forbids."""
    from harness_memory.hooks.tool_guard import write_refusal

    reason = write_refusal(tool_writes(hook), hook, settings)
    if reason is None:
        return None
    return {"decision": "deny", "reason": reason}


def after_tool(hook: HookInput, settings: HarnessSettings) -> None:
    """Answer Gemini CLI's ``AfterTool`` hook: record the call's memory writes as versions
    (V-1) from a detached process; no answer. Never raises."""
    from harness_memory.hooks.post_write import record_writes

    record_writes(tool_writes(hook), hook, settings, "gemini")
