"""``harness-memory install gemini --managed [PATH]``: Gemini CLI's system settings, every user's.

Gemini CLI merges its settings files in this order, each over the one before: system defaults,
the user's ``~/.gemini/settings.json``, a trusted Workspace's ``.gemini/settings.json``, and
last the **system settings** (``/etc/gemini-cli/settings.json`` on Linux, or the file
``$GEMINI_CLI_SYSTEM_SETTINGS_PATH`` names: :func:`~harness_memory.installers.gemini.
system_settings_path`), which "override all other settings files" (Gemini CLI's configuration
docs; ``mergeSettings`` of 0.61). Hook lists are concatenated from every file, a single value
such as ``hooksConfig.enabled`` is the system file's. The managed install writes there:

- the hooks (``SessionStart``, ``BeforeTool``, ``AfterTool``), whose commands name no state
  folder and no token: each user's hooks keep their state, and read their token, in their own
  account's home (:func:`~harness_memory.settings.account_state_dir`, ``harness-memory token
  set``). Each carries a ``name`` no repository can know (:func:`hook_names`): Gemini CLI
  0.61 switches a hook off when ``hooksConfig.disabled``, the union of every settings level's
  list, holds the hook's ``name`` (its ``command`` only when it has none; an exact string
  match, ``HookRegistry.processHookDefinition``), and no system setting forbids the lower
  levels' lists. So a Workspace's list naming the user install's names, or the managed hooks'
  commands, does not reach them;
- pins no user or Workspace file overrides: ``hooksConfig.enabled = true`` (a Workspace's
  ``false`` no longer switches every hook off), ``experimental.autoMemory = false`` and
  ``context.includeDirectoryTree = false`` (H-6, as the user install);
- the memory root in ``context.includeDirectories`` (merged with every level's).

The file is merged, never replaced: the administrator's keys and comments stay, it is backed
up first, and ``uninstall`` gives it back byte for byte when nobody changed it since (else it
takes out exactly what the install put in). Gemini CLI 0.61 reads the system file only when it
and every folder above it are owned by root and writable by nobody else; the install and
``status`` say when that does not hold (:func:`unread_reason`).
"""

from __future__ import annotations

import os
import re
import secrets
import stat
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from harness_memory.installers.detail import Detail
from harness_memory.installers.files import (
    FileChange,
    dump_json,
    json_object,
    read_json_object,
    require_shapes,
)
from harness_memory.installers.gemini import (
    AUTO_MEMORY,
    DIRECTORY_TREE,
    EDITED_SHAPES,
    GUARD_MATCHER,
    HOOK_TIMEOUT_MS,
    TREE_WHY,
    directories_note,
    merged_settings,
    stays_on,
    system_settings_path,
)
from harness_memory.installers.gemini_workspace import hook_names as handler_names
from harness_memory.installers.gemini_workspace import our_handlers
from harness_memory.installers.guard_gaps import gap_notes
from harness_memory.installers.own_memory import Switch, switch_off, switches_back
from harness_memory.installers.own_switches import gemini_off, switched_off
from harness_memory.installers.plan import Plan, given_back, with_state
from harness_memory.installers.record import read_record
from harness_memory.installers.spec import InstallOptions, root_changes
from harness_memory.settings import MANAGED_TOKEN_SET

__all__ = ["PINS", "SETTINGS_NAME", "hook_names", "plan", "settings_file", "unread_reason"]

HARNESS = "gemini"
SETTINGS_NAME = "settings.json"

HOOKS_ON = Switch(
    keys=("hooksConfig", "enabled"),
    off=True,
    what="Gemini CLI's hooks",
    default_on=True,
    done="pinned on for every user",
)
PINS = (
    HOOKS_ON,
    replace(AUTO_MEMORY, done="pinned off for every user"),
    replace(DIRECTORY_TREE, done="pinned off for every user"),
)
"""What the system settings pin: no Workspace's settings can switch the hooks off with
``hooksConfig.enabled``, or Gemini CLI's auto memory or its directory listing back on."""

EVENTS = ("session-start", "before-tool", "after-tool")
"""The hook events the managed install writes, as ``harness-memory hook gemini`` takes them."""

MANAGED = (
    "Installed into Gemini CLI's system settings ({path}): every user's Gemini CLI on this "
    "machine runs these hooks, and no user's or Workspace's settings can switch them off with "
    "hooksConfig.enabled or its auto memory back on. Their names end in a random part chosen "
    "at the first install (kept by a later one), so no repository's hooksConfig.disabled can "
    "name them; a user who reads this file can. Each user gives their token with "
    + MANAGED_TOKEN_SET
    + " (kept in their own account's home)."
)


def settings_file(managed: Path) -> Path:
    """The system settings file ``--managed PATH`` names: ``PATH`` itself when it ends in
    ``.json`` (as ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH`` would name it), else ``PATH/settings.json``
    (a folder, like Claude Code's and Codex CLI's ``--managed DIR``)."""
    return managed if managed.suffix == ".json" else managed / SETTINGS_NAME


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> Plan:
    """The change to Gemini CLI's system settings (``options.managed_dir``, read by
    :func:`settings_file`; None: where Gemini CLI reads them, :func:`system_settings_path`).

    Raises :class:`~harness_memory.installers.files.SettingsFileError` for a file that is not a
    JSON object (comments allowed), whose ``hooks`` or an edited key has another shape, or that
    cannot be read.
    """
    managed = options.managed_dir
    path = settings_file(managed) if managed is not None else system_settings_path(environ)
    options = replace(options, settings_file=path)  # a guard whose program is gone names it
    old, document = read_json_object(path, comments=True)
    require_shapes(document, path, {**EDITED_SHAPES, "hooksConfig": dict})
    record = read_record(path.parent)
    record.note_url(options.url, options.url_id_not_secret, install=install)
    wanted = _wanted(options, hook_names(document)) if install else {}
    merged = merged_settings(document, wanted, options, path, install=install)
    notes: list[str] = []
    if install:
        notes += [switch_off(merged, pin, record.previous, found=document) for pin in PINS]
        notes += directories_note(*root_changes(document, HARNESS, options, install=install))
        notes += [MANAGED.format(path=path), Detail(TREE_WHY)]
        if (reason := unread_reason(path)) is not None:
            notes.append(f"WARNING: {reason}")
        if why := gemini_off(merged, handler_names(merged)):  # the file keeps ours from running
            notes.append(f"WARNING: {switched_off(HARNESS, path, why)}")
        notes += [stays_on(options.memory_root, environ), *gap_notes(HARNESS, managed=True)]
    else:
        first = record.first_found(path, partial(json_object, comments=True))
        notes += switches_back(merged, PINS, record.previous, first=first)
    changes: list[FileChange] = []
    if install or old is not None:
        text = dump_json(merged, old, path=path)
        was = None if install else given_back(path, merged, old, record, HARNESS, comments=True)
        # every user's Gemini reads it
        change = FileChange(path, old, text, create_mode=0o644, harness_settings=True)
        changes.append(change if was is None else replace(change, new=was.text, mode=was.mode))
    return with_state(changes, notes, record, install=install)


_NAME_RE = re.compile(r"agent-memory-[a-z-]+-(?P<secret>[0-9a-f]{32})")
"""A managed hook's name: ``agent-memory-EVENT-`` and 128 random bits in hex."""


def hook_names(document: Mapping[str, Any], events: tuple[str, ...] = EVENTS) -> dict[str, str]:
    """Event (``session-start``, …) → the ``name`` its managed hook carries: ``agent-memory-
    EVENT-`` and a random part, the one our hooks in the system settings ``document`` already
    carry (a second install changes nothing, H-3), else a new one (``secrets.token_hex``).
    Nobody who has not read this machine's system settings can list it in
    ``hooksConfig.disabled`` (see the module)."""
    secret = next(
        (match["secret"] for match in map(_NAME_RE.fullmatch, _our_names(document)) if match),
        None,
    )
    secret = secret or secrets.token_hex(16)
    return {event: f"agent-memory-{event}-{secret}" for event in events}


def _our_names(document: Mapping[str, Any]) -> list[str]:
    return [h["name"] for h in our_handlers(document) if isinstance(h.get("name"), str)]


def _wanted(options: InstallOptions, names: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Our hook groups per event: no state dir, no token file, a name from ``names``."""

    def handler(event: str) -> dict[str, Any]:
        command = options.hook_command(HARNESS, event)
        return {
            "name": names[event],
            "type": "command",
            "command": command,
            "timeout": HOOK_TIMEOUT_MS,
        }

    return {
        "SessionStart": [{"hooks": [handler("session-start")]}],
        "BeforeTool": [{"matcher": GUARD_MATCHER, "hooks": [handler("before-tool")]}],
        "AfterTool": [{"matcher": GUARD_MATCHER, "hooks": [handler("after-tool")]}],
    }


def unread_reason(path: Path) -> str | None:
    """Why Gemini CLI 0.61 would skip the system settings at ``path`` ("Security Warning:
    Skipping system settings file"), or None: the file (once written by this process, when it
    does not exist yet) and every folder above it must be owned by root (uid 0) and not
    writable by group or others; a folder that does not exist yet is made by this process.
    None on Windows, where Gemini CLI checks the files' access lists instead (not checked
    here)."""
    if not hasattr(os, "geteuid"):
        return None
    folders = [folder for folder in path.absolute().parents if os.path.lexists(folder)]
    for place in [path, *folders]:
        try:
            info = place.stat()
        except FileNotFoundError:
            owner, mode = os.geteuid(), 0o644  # the install writes it
        except OSError as error:
            return f"Gemini CLI cannot check {place} ({error.strerror}), so it skips {path}"
        else:
            owner, mode = info.st_uid, stat.S_IMODE(info.st_mode)
        fix = ""
        if owner != 0:
            fix = f"{place} is owned by uid {owner}, not root"
        elif mode & (stat.S_IWGRP | stat.S_IWOTH):
            fix = f"{place} may be written by group or others (mode {mode:04o})"
        if fix:
            return (
                f"Gemini CLI skips the system settings {path} unless it and every folder "
                f"above it are owned by root and writable by no one else, and {fix}"
            )
    return None
