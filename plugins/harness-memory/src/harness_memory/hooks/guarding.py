"""The P-3 guard for a tool call that may write several paths (harness-neutral).

A harness adapter turns its tool call into the paths it would write
(:mod:`harness_memory.hooks.tool_targets`); :func:`refusal` checks each against the Session's
memory root and scopes with :func:`harness_memory.guard.check_write` and returns the first
reason to refuse, or None. The memory root and the Session's Workspace key come from trusted
settings and the Session's record, exactly as for Claude Code's guard.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness_memory.guard import check_write
from harness_memory.hooks import claude_code
from harness_memory.hooks.tool_targets import shell_targets
from harness_memory.settings import HarnessSettings

__all__ = ["REFUSAL_PREFIX", "refusal", "shell_refusal", "string_leaves"]

REFUSAL_PREFIX = "Agent Memory write guard: "


def refusal(
    targets: Iterable[str], hook: claude_code.HookInput, settings: HarnessSettings
) -> str | None:
    """The guard's reason to refuse the first target it denies, or None when all are allowed.

    With no memory root known (no record, no ``--memory-root``) nothing is refused.
    """
    wanted = list(targets)
    if not wanted:
        return None
    located = claude_code._locate(hook, settings)
    if located is None:
        return None
    memory_root, key, cwd = located
    for target in wanted:
        decision = check_write(target, memory_root=memory_root, workspace_key=key, cwd=cwd)
        if not decision.allowed:
            return f"{REFUSAL_PREFIX}{decision.reason} ({target})"
    return None


def shell_refusal(
    texts: Iterable[str], hook: claude_code.HookInput, settings: HarnessSettings
) -> str | None:
    """:func:`refusal` for the memory-root paths a shell command (or other text) names."""
    located = claude_code._locate(hook, settings)
    if located is None:
        return None
    memory_root = str(located[0])
    roots = {memory_root, str(Path(memory_root).absolute()), os.path.realpath(memory_root)}
    targets = [path for text in texts for path in shell_targets(text, sorted(roots))]
    return refusal(targets, hook, settings)


def string_leaves(value: Any) -> list[str]:
    """Every string inside a JSON value (an MCP tool's arguments), in order."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in string_leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in string_leaves(item)]
    return []
