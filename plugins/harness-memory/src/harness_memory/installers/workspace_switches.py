"""Whether the Workspace ``harness-memory status`` runs in switches Claude Code's or Codex CLI's
hooks off, or their own memory back on (H-6, P-3).

What a repository checks in is read over the user's settings: Claude Code's
``.claude/settings.json`` and ``settings.local.json`` with ``"disableAllHooks": true`` switch
off the hooks of the user's settings (measured: ``test_e2e_repository_switches_hooks_off.py``),
and their ``env.CLAUDE_CODE_DISABLE_AUTO_MEMORY`` set to a false value turns Claude Code's own
memory back on; Codex CLI's ``.codex/config.toml``, in a project the user trusts, switches
every hook off with ``[features] hooks = false`` (or ``codex_hooks = false``) and turns
terminals no hook sees, or Codex's own memories, back on (``unified_exec_tty = true``,
``memories = true``; ``test_e2e_codex_repository_switches_hooks_off.py``). Nobody is told in
the Session; ``status`` says it, for the user installs (managed ones hold over all of it).
The nearest folder that holds such a file, from the Workspace up to its repository's root and
below the user's home, is the one read. Gemini
CLI's Workspace settings: :mod:`~harness_memory.installers.gemini_workspace`.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from harness_memory.installers import json_values

__all__ = ["claude_code_lines", "codex_lines"]

_FALSE = {"0", "false", "no", "off"}
MANAGED_FIX = "`harness-memory install {harness} --managed` (as root) holds over it"


def claude_code_lines(workspace: Path, home: Path) -> list[str]:
    """The WARNINGs for the user install of Claude Code in ``workspace`` (``home``: the
    user's, whose own settings are not a Workspace's)."""
    lines: list[str] = []
    for path in _nearest(workspace, ".claude", ("settings.json", "settings.local.json"), home):
        try:
            document = json_values.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):  # a repository's nesting too
            continue
        if not isinstance(document, dict):
            continue
        env = document.get("env")
        memory = env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY") if isinstance(env, dict) else None
        if document.get("disableAllHooks") is True:
            lines.append(_off("claude-code", path, '"disableAllHooks": true', "its"))
        if isinstance(memory, str) and memory.strip().lower() in _FALSE:
            why = f'env.CLAUDE_CODE_DISABLE_AUTO_MEMORY = "{memory}"'
            lines.append(_own_memory("claude-code", path, why))
    return lines


def codex_lines(workspace: Path, home: Path) -> list[str]:
    """The WARNINGs for the user install of Codex CLI in ``workspace`` (read as a trusted
    project's would be; an untrusted project's ``.codex/`` is not read by Codex)."""
    lines: list[str] = []
    for path in _nearest(workspace, ".codex", ("config.toml",), home):
        try:
            features = tomllib.loads(path.read_text(encoding="utf-8")).get("features")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
            continue
        if not isinstance(features, dict):
            continue
        off = [f"{key} = false" for key in ("hooks", "codex_hooks") if features.get(key) is False]
        if off:
            lines.append(_off("codex", path, "[features] " + ", ".join(off), "trusts this"))
        if features.get("unified_exec_tty") is True:
            lines.append(
                f"codex: WARNING: {path} turns terminals back on ([features] unified_exec_tty "
                "= true) when you trust this project: what the model types into one is never "
                f"shown to the write guard. {MANAGED_FIX.format(harness='codex')}"
            )
        if features.get("memories") is True:
            lines.append(_own_memory("codex", path, "[features] memories = true"))
    return lines


def _nearest(workspace: Path, folder: str, names: tuple[str, ...], home: Path) -> list[Path]:
    """The files ``folder/NAME`` of the nearest folder holding any, from ``workspace`` up to
    its repository's root (the first folder with a ``.git``), never ``home`` or above it (the
    user's own settings live there)."""
    for place in [workspace, *workspace.parents]:
        if place == home or place in home.parents:
            break
        found = [place / folder / name for name in names if (place / folder / name).is_file()]
        if found:
            return found
        if (place / ".git").exists():
            break
    return []


def _off(harness: str, path: Path, why: str, trust: str) -> str:
    when = "" if trust == "its" else " when you trust this project"
    return (
        f"{harness}: WARNING: {path} switches these hooks off in Sessions in this Workspace"
        f"{when} ({why}): no memory and no write guard there. "
        f"{MANAGED_FIX.format(harness=harness)}"
    )


def _own_memory(harness: str, path: Path, why: str) -> str:
    return (
        f"{harness}: WARNING: {path} turns the harness's own memory back on in Sessions in this "
        f"Workspace ({why}), beside Agent Memory. {MANAGED_FIX.format(harness=harness)}"
    )
