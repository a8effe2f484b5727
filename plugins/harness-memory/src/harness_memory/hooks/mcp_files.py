"""What an MCP tool call may write, read the same way in every harness (P-3, K-7).

Each harness names an MCP server's tool its own way: Claude Code and Codex CLI
``mcp__<server>__<tool>`` (a plugin's server ``mcp__plugin_<plugin>_<server>__<tool>``), Gemini
CLI ``mcp_<server>_<tool>`` (its fully qualified name since 0.46, which its hooks match). Any
MCP tool's string arguments may name a path anywhere: each is judged as a shell command's text
is (:func:`~harness_memory.hooks.path_refusal.string_leaves`). An MCP filesystem server's write
tools (:data:`FILE_WRITERS`: the reference ``@modelcontextprotocol/server-filesystem``'s
``write_file(path, content)``, ``edit_file(path, edits, dryRun)``, ``move_file(source,
destination)``, ``create_directory(path)``; other servers' ``copy_file(source, destination)``
and desktop-commander's ``edit_block(file_path, …)``) create or rewrite the file or folder one
argument names, as Claude Code's ``Write`` does: that path is also a file tool's target, held
to the names the memory service can address in a scope the Session may write (K-7), so
``mcp__filesystem__write_file`` of ``user/notes.txt`` is refused as ``Write`` of it is.

Each path is read as the server reads it: a leading ``~`` (``~`` or ``~/…``, not ``~user``)
is the home folder (the reference server's ``expandHome``; ``HOME`` of the hook's environment,
which the harness gives the server too), and a relative one is resolved against the server's
allowed directories, which the guard cannot know: judged from the hook's folder and, where its
first part names a scope, from the memory root (``ToolWrites.served``). Pure text work (H-5).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from harness_memory.hooks.path_refusal import string_leaves
from harness_memory.hooks.tool_writes import ToolWrites

__all__ = ["FILE_WRITERS", "MOVERS", "mcp_writes", "server_path"]

FILE_WRITERS: Mapping[str, tuple[str, ...]] = {
    "write_file": ("path",),
    "edit_file": ("path",),
    "move_file": ("destination",),
    "copy_file": ("destination",),
    "edit_block": ("file_path",),
    "create_directory": ("path",),
}
"""An MCP filesystem server's tools that create or rewrite a file (or a folder) by name, each
with the arguments naming it."""
MOVERS: Mapping[str, tuple[str, ...]] = {"move_file": ("source",)}
"""The tools that take a file away by name (a move's ``source``): judged as any path is, not
held to K-7, so a file the service cannot address may be renamed to a good name."""


def server_path(path: str) -> str:
    """``path`` with a leading ``~`` or ``~/`` made the home folder, as the reference
    filesystem server's ``expandHome`` does (``os.homedir()``: ``HOME`` first); any other
    path as it is (``~user/…`` is not expanded by that server)."""
    if path == "~" or path.startswith("~/"):
        return os.path.expanduser("~") + path[1:]  # noqa: PTH111
    return path


def mcp_writes(tool: str, arguments: Mapping[str, Any], *, separator: str) -> ToolWrites:
    """What the MCP tool ``tool`` (the harness's full name, its parts joined by
    ``separator``: ``"__"`` for Claude Code and Codex CLI, ``"_"`` for Gemini CLI) called with
    ``arguments`` may write: the file a :data:`FILE_WRITERS` tool names, as a file tool's
    target, the file a :data:`MOVERS` tool takes away, both read as the server reads them
    (:func:`server_path`, relative ones ``served``), and every string argument as text naming
    paths."""

    def named(tools: Mapping[str, tuple[str, ...]]) -> list[str]:
        return [
            server_path(arguments[field])
            for name, fields in tools.items()
            if tool.endswith(f"{separator}{name}")
            for field in fields
            if isinstance(arguments.get(field), str)
        ]

    return ToolWrites(
        paths=named(FILE_WRITERS),
        texts=string_leaves(dict(arguments)),
        touched=named(MOVERS),
        served=True,
    )
