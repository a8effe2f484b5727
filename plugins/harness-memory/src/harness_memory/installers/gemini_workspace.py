"""Whether the Workspace ``harness-memory status`` runs in switches Gemini CLI's hooks off.

A trusted Workspace's ``.gemini/settings.json`` is merged over the user's settings: its
``hooksConfig.enabled: false`` switches every hook of the user's settings off, and its
``hooksConfig.disabled`` switches off each hook whose ``name`` (its command when it has none)
it lists (Gemini CLI 0.61, ``HookRegistry``), and a ``hooks`` holding no object (``null``,
``[]``, ``false``, ``""``) replaces the user's whole ``hooks`` in the merge (an object is merged
event by event: an empty or null event list switches nothing off; each measured,
``test_e2e_gemini_repository_switches_hooks_off.py``); its Sessions then get no memory and no
write guard, and nobody is told. Only the system settings hold over it
(:mod:`~harness_memory.installers.gemini_managed`): their ``hooksConfig.enabled: true`` wins,
and their hooks' names no repository can know. ``status`` reads the Workspace's file and says
plainly which installed hooks it switches off there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness_memory.installers.harness_json import HarnessRefuses, NotKnown, read_gemini_settings
from harness_memory.installers.own_switches import gemini_flag
from harness_memory.installers.spec import is_ours

__all__ = ["hook_names", "our_handlers", "switched_off_lines"]

HARNESS = "gemini"


def switched_off_lines(
    workspace: Path, installed: list[tuple[str, dict[str, Any]]], *, pinned_on: bool
) -> list[str]:
    """The status lines for the Workspace folder ``workspace``: for each installed Gemini CLI
    settings ``(label, document)``, a WARNING when the Workspace's ``.gemini/settings.json``
    switches its hooks off (``hooksConfig.enabled: false``, unless the system settings pin it
    on: ``pinned_on``; a hook's name or command in ``hooksConfig.disabled``; or a ``hooks``
    that is no object, which replaces the user's). The file is
    read as Gemini CLI reads it (:func:`~harness_memory.installers.harness_json.
    read_gemini_settings`: comments, a key twice keeping its last value), never as an install
    would rewrite it: one line when Gemini CLI stops on it (no Session starts there, and
    Gemini CLI says why), a WARNING when status cannot tell what Gemini CLI reads from it.
    None when it does not exist."""
    path = workspace / ".gemini" / "settings.json"
    try:
        document = read_gemini_settings(path)
    except HarnessRefuses as error:
        return [
            f"gemini: {path} stops Gemini CLI in this Workspace ({error}): it starts no "
            "Session there and says why; no hook is switched off by it"
        ]
    except NotKnown as error:
        return [
            f"gemini: WARNING: cannot tell whether this Workspace's settings switch these "
            f"hooks off: {path}: {error}"
        ]
    if document is None or not installed:
        return []
    config = document.get("hooksConfig")
    config = config if isinstance(config, dict) else {}
    lines: list[str] = []
    off = gemini_flag(config, "enabled") is False and not pinned_on  # "false" too
    listed = config.get("disabled")
    listed = (
        {item for item in listed if isinstance(item, str)} if isinstance(listed, list) else set()
    )
    hooks = document.get("hooks", {})
    replaced = "" if isinstance(hooks, dict) else f'"hooks": {json.dumps(hooks)}'
    for label, settings in installed:
        names = hook_names(settings)
        named = sorted(name for name in names if name in listed)
        why = "hooksConfig.enabled: false" if off else ""
        why = why or (f"hooksConfig.disabled lists {', '.join(named)}" if named else "")
        if replaced and label == HARNESS:  # the system settings, merged last, keep theirs
            why = why or f"{replaced} replaces every hook of your settings"
        if why:
            lines.append(
                f"{label}: WARNING: {path} switches these hooks off in Sessions in this "
                f"Workspace when Gemini CLI trusts it ({why}): no memory and no write guard "
                "there. `harness-memory install gemini --managed` (as root) holds over it"
            )
    return lines


def our_handlers(document: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The hook handlers of Gemini CLI settings ``document`` that an install of ours wrote
    (their command starts ``harness-memory``), in every event's groups."""
    hooks = document.get("hooks")
    groups = (
        [g for v in hooks.values() if isinstance(v, list) for g in v]
        if isinstance(hooks, dict)
        else []
    )
    handlers = [h for g in groups if isinstance(g, dict) for h in g.get("hooks") or []]
    return [h for h in handlers if isinstance(h, dict) and is_ours(h.get("command"), HARNESS)]


def hook_names(document: Mapping[str, Any]) -> list[str]:
    """How Gemini CLI names each hook of ours in settings ``document`` (what
    ``hooksConfig.disabled`` lists to switch one off)."""
    return [_name(handler) for handler in our_handlers(document)]


def _name(handler: dict[str, Any]) -> str:
    """How Gemini CLI names a command hook: its ``name``, else its ``command``."""
    name = handler.get("name")
    return name if isinstance(name, str) and name else str(handler.get("command"))
