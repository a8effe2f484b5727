"""Whether the settings an install writes the hooks into switch every hook off themselves
(H-3, H-7, P-2a, P-3).

A repository's settings switching the hooks off are
:mod:`~harness_memory.installers.workspace_switches` and
:mod:`~harness_memory.installers.gemini_workspace`. The user's own file can do the same to
every Session: Claude Code runs no hook while its settings say ``"disableAllHooks": true``,
Codex CLI none while its ``config.toml`` says ``[features] hooks = false`` (or the older
``codex_hooks = false``), Gemini CLI none while its settings say ``hooksConfig.enabled: false``,
and not those of ours that ``hooksConfig.disabled`` names; and Claude Code's managed settings
saying ``"allowManagedHooksOnly": true`` keep it from running any hook of the user's settings.
An install into such a file wrote hooks that never run: no memory at Session start and no write
guard, and nobody told.

The install does not undo the switch (the user may keep other hooks off on purpose, and turning
them all back on is theirs to decide): it says so (a ``WARNING`` note, the dry run too), and
``status`` reports it as a problem until the switch is gone. Pure functions of the parsed
settings.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

from harness_memory.installers.own_memory import plain_value

__all__ = [
    "claude_code_off",
    "codex_off",
    "every_hook_off",
    "gemini_flag",
    "gemini_off",
    "machine_off",
    "machine_off_said",
    "managed_only",
    "requirements_off",
    "switched_off",
]

_NAMES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI"}


def claude_code_off(document: Mapping[str, Any]) -> list[str]:
    """What in Claude Code settings ``document`` switches every hook off (``[]``: nothing)."""
    return ['"disableAllHooks": true'] if document.get("disableAllHooks") is True else []


def codex_off(config: Mapping[str, Any]) -> list[str]:
    """What in Codex CLI's ``config.toml`` (``config``, parsed) switches every hook off: its
    ``[features] hooks = false``, or the older ``codex_hooks = false`` where ``hooks`` is not
    set (Codex CLI 0.171 goes by ``hooks`` when the table holds both, whatever their order;
    measured: ``test_e2e_codex_repository_switches_hooks_off.py``)."""
    features = config.get("features")
    if not isinstance(features, Mapping):  # a tomlkit table is one
        return []
    key = "hooks" if "hooks" in features else "codex_hooks"
    return [f"[features] {key} = false"] if _is_false(features, key) else []


def gemini_off(document: Mapping[str, Any], names: Collection[str]) -> list[str]:
    """What in Gemini CLI settings ``document`` switches our hooks off: ``hooksConfig.enabled:
    false``, or ``hooksConfig.disabled`` listing one of ``names`` (how Gemini CLI names our
    hooks: each one's ``name``, else its command)."""
    config = document.get("hooksConfig")
    if not isinstance(config, Mapping):
        return []
    found = ["hooksConfig.enabled: false"] if gemini_flag(config, "enabled") is False else []
    listed = config.get("disabled")
    if isinstance(listed, list):
        named = sorted({item for item in listed if isinstance(item, str)} & set(names))
        found += [f"hooksConfig.disabled lists {', '.join(named)}"] if named else []
    return found


def gemini_flag(table: Mapping[str, Any], key: str) -> bool | None:
    """The boolean Gemini CLI reads for ``key`` of settings ``table`` (parsed JSON): a JSON
    boolean, or the strings ``"true"``/``"false"`` in any case, which Gemini CLI 0.61 turns
    into booleans when it reads a settings file (measured: ``"enabled": "false"`` under
    ``hooksConfig`` runs no hook, ``"TRUE"`` runs them); None for anything else (unset, another
    string, a number). Gemini's alone: Claude Code takes only a JSON ``true`` as true (H-7).

    >>> gemini_flag({"enabled": "FALSE"}, "enabled"), gemini_flag({"enabled": "yes"}, "enabled")
    (False, None)
    """
    value = table.get(key)
    if isinstance(value, str):
        return {"true": True, "false": False}.get(value.lower())
    return value if isinstance(value, bool) else None


def switched_off(harness: str, path: Path, why: list[str]) -> str:
    """The sentence for settings ``path`` of ``harness`` whose ``why`` (non-empty) switch the
    hooks off; the install prints it after ``WARNING:``, ``status`` after ``PROBLEM:``."""
    name = _NAMES[harness]
    return (
        f"{path} switches these hooks off itself ({', '.join(why)}): {name} skips them, and its "
        "Sessions go without what they do (memory at Session start, the write guard); take that "
        "setting out to use Agent Memory (`harness-memory status` reports it until then)"
    )


def managed_only(managed: Mapping[str, Any], path: Path) -> str | None:
    """The sentence when Claude Code's managed settings ``managed`` (read from ``path``) let
    only their own hooks run (``"allowManagedHooksOnly": true``): a user install's never do.
    None otherwise."""
    if managed.get("allowManagedHooksOnly") is not True:
        return None
    return (
        f'{path} lets only managed hooks run ("allowManagedHooksOnly": true): Claude Code skips '
        "the hooks of your user settings, and its Sessions go without memory and the write "
        "guard; `harness-memory install claude-code --managed` (as root) writes them there"
    )


def machine_off(harness: str, machine: Mapping[str, Any], names: Collection[str]) -> list[str]:
    """What in this machine's settings ``machine`` of ``harness`` (Claude Code's managed
    settings, Codex CLI's ``requirements.toml``, Gemini CLI's system settings, parsed) switches
    off the hooks of the user's settings (named ``names`` in Gemini CLI), ``[]``: nothing.
    Claude Code's managed ``"disableAllHooks": true`` runs no hook at all; Codex's
    requirements pin ``[features] hooks = false`` (or ``[feature_requirements]``) over every
    config, and ``allow_managed_hooks_only = true`` skips every layer but the managed ones;
    Gemini CLI merges its system settings last, so their ``hooksConfig.enabled: false``, a
    ``hooksConfig.disabled`` naming ours, or a ``hooks`` that is no object (``null``: it
    replaces the user's) hold. Only keys and types are named, never a value (H-7)."""
    if harness == "claude-code":
        return claude_code_off(machine)
    if harness == "codex":
        only_managed = plain_value(machine.get("allow_managed_hooks_only")) is True
        return (["allow_managed_hooks_only = true"] if only_managed else []) + requirements_off(
            machine
        )
    found = gemini_off(machine, names)
    if "hooks" in machine and not isinstance(machine["hooks"], Mapping):  # its type, no value
        found.append(
            f'"hooks": {_json_type(machine["hooks"])} replaces every hook of your settings'
        )
    return found


def every_hook_off(harness: str, machine: Mapping[str, Any]) -> list[str]:
    """What in this machine's settings ``machine`` of ``harness`` (parsed, as
    :func:`machine_off`) switches off every hook, the hooks those settings hold themselves
    too (a managed install's), ``[]``: nothing. Claude Code's managed ``"disableAllHooks":
    true`` (only there can it switch managed hooks off: Claude Code's hooks docs,
    anthropics/claude-code#10544), Codex CLI's :func:`requirements_off`, Gemini CLI's system
    ``hooksConfig.enabled: false``; not what skips only the user's hooks
    (``allowManagedHooksOnly``, ``allow_managed_hooks_only``, a ``hooksConfig.disabled`` naming
    theirs), which leaves the managed hooks running. Keys only, never a value (H-7)."""
    if harness == "claude-code":
        return claude_code_off(machine)
    if harness == "codex":
        return requirements_off(machine)
    return gemini_off(machine, ())


def requirements_off(requirements: Mapping[str, Any]) -> list[str]:
    """What in Codex CLI's ``requirements.toml`` (parsed) switches every hook off, the
    requirements' own (a managed install's) too: ``[features] hooks = false`` and the same
    under ``[feature_requirements]``, Codex's other name for that table (openai/codex
    ``config_requirements.rs``: ``#[serde(rename = "features", alias = "feature_requirements")]``).
    ``allow_managed_hooks_only`` (:func:`machine_off`) skips only the other layers."""
    found = codex_off(requirements)
    pinned = requirements.get("feature_requirements")
    if isinstance(pinned, Mapping):
        found += [
            why.replace("[features]", "[feature_requirements]")
            for why in codex_off({"features": pinned})
        ]
    return found


def _json_type(value: Any) -> str:
    """The JSON type of ``value`` (parsed JSON) as a phrase: ``null``, ``an array``, ``a
    string``…; never the value itself (this machine's settings may hold a token, H-7)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "no object"


def machine_off_said(harness: str, path: Path, why: list[str]) -> str:
    """The ``status`` sentence for this machine's settings ``path`` of ``harness`` whose
    ``why`` (non-empty, :func:`machine_off`) switch the user's hooks off."""
    return (
        f"{path}, this machine's settings, switch the hooks of your settings off "
        f"({', '.join(why)}): {_NAMES[harness]} skips them, and its Sessions go without what "
        "they do (memory at Session start, the write guard), whatever your own settings say; "
        "ask whoever keeps this machine's settings to take that out (`harness-memory status` "
        "reports it until then)"
    )


def _is_false(table: Any, key: str) -> bool:
    return plain_value(table.get(key)) is False
