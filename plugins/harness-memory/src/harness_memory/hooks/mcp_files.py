"""What an MCP tool call may write, read the same way in every harness (P-3, K-7).

Each harness names an MCP server's tool its own way: Claude Code and Codex CLI
``mcp__<server>__<tool>`` (a plugin's server ``mcp__plugin_<plugin>_<server>__<tool>``), Gemini
CLI ``mcp_<server>_<tool>`` (its fully qualified name since 0.46, which its hooks match). Any
MCP tool's string arguments may name a path anywhere: each is judged as a shell command's text
is (:func:`~harness_memory.hooks.guarding.string_leaves`). An MCP filesystem server's write
tools (:data:`FILE_WRITERS`, the tools of the reference ``@modelcontextprotocol/
server-filesystem``: ``write_file(path, content)``, ``edit_file(path, edits, dryRun)``,
``move_file(source, destination)``) create or rewrite the file one argument names, as Claude
Code's ``Write`` does: that path is also a file tool's target, held to the names the memory
service can address in a scope the Session may write (K-7), so ``mcp__filesystem__write_file``
of ``user/notes.txt`` is refused as ``Write`` of it is. Pure text work (H-5).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness_memory.hooks.guarding import string_leaves
from harness_memory.hooks.tool_targets import ToolWrites

__all__ = ["FILE_WRITERS", "mcp_writes"]

FILE_WRITERS: Mapping[str, tuple[str, ...]] = {
    "write_file": ("path",),
    "edit_file": ("path",),
    "move_file": ("destination",),
}
"""An MCP filesystem server's tools that create or rewrite a file by name, each with the
arguments naming it (a move's ``source`` is taken away, not written by that name: judged as
any path is)."""


def mcp_writes(tool: str, arguments: Mapping[str, Any], *, separator: str) -> ToolWrites:
    """What the MCP tool ``tool`` (the harness's full name, its parts joined by
    ``separator``: ``"__"`` for Claude Code and Codex CLI, ``"_"`` for Gemini CLI) called with
    ``arguments`` may write: the file a :data:`FILE_WRITERS` tool names, as a file tool's
    target, and every string argument as text naming paths."""
    paths = [
        arguments[field]
        for name, fields in FILE_WRITERS.items()
        if tool.endswith(f"{separator}{name}")
        for field in fields
        if isinstance(arguments.get(field), str)
    ]
    return ToolWrites(paths=paths, texts=string_leaves(dict(arguments)))
