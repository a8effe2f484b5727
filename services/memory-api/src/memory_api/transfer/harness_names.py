"""The coding agents ``memory import --from`` reads (P-5), by the name the command line takes.

A module of its own, with no imports, so the CLI's parser names the choices without loading the
readers.
"""

from __future__ import annotations

__all__ = ["HARNESSES"]

HARNESSES = {
    "claude-code": "Claude Code",
    "codex": "Codex CLI",
    "gemini": "Gemini CLI",
    "vscode": "VS Code's memory tool",
    "memory-tool": "a memory-tool folder",
}
"""The ``--from`` values and the names the report uses for them."""
