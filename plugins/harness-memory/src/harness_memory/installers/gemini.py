"""``harness-memory install gemini``: the hooks in ``~/.gemini/settings.json`` (H-3).

Gemini CLI (measured on 0.61.0) reads hooks from the ``"hooks"`` object of its user settings:
a ``SessionStart`` hook adds the injection, a ``BeforeTool`` hook guards the tools that write
files (:data:`GUARD_MATCHER`) and an ``AfterTool`` hook on the same tools records their memory
writes as versions (V-1). The memory root goes into ``context.includeDirectories``: Gemini
CLI's file tools refuse paths outside the Workspace's directories, memory included. Its listing
of those directories in the first request is switched off (:data:`DIRECTORY_TREE`), so no other
Workspace's scope is named there, and its background auto memory too (:data:`AUTO_MEMORY`,
H-6); both are restored by uninstall. Other settings and hooks stay; uninstall takes out only
what install added. Gemini CLI reads its settings with comments (``strip-json-comments``): a
commented file is changed in its text, every comment and byte outside our keys kept
(:mod:`~harness_memory.installers.jsonc`), and uninstall gives it back from its backup byte for
byte.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from harness_memory.hooks.gemini import GEMINI_VERSION
from harness_memory.installers.detail import Detail
from harness_memory.installers.executable import import_command
from harness_memory.installers.files import (
    FileChange,
    dump_json,
    json_object,
    read_json_object,
    require_shapes,
)
from harness_memory.installers.gemini_workspace import hook_names
from harness_memory.installers.guard_gaps import gap_notes
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.own_memory import (
    Switch,
    give_back_made,
    note_made,
    switch_off,
    switches_back,
)
from harness_memory.installers.own_switches import gemini_off, switched_off
from harness_memory.installers.plan import Plan, given_back, with_state
from harness_memory.installers.record import STATE_FOLDER, read_record
from harness_memory.installers.secrets import tokens_in
from harness_memory.installers.spec import (
    InstallOptions,
    reach_note,
    root_changes,
    without_our_roots,
)
from harness_memory.installers.token_place import (
    hooks_token_file,
    hooks_token_plan,
    refused_by_other_readers,
)
from harness_memory.settings import managed_folder

__all__ = [
    "AUTO_MEMORY",
    "DIRECTORY_TREE",
    "EDITED_SHAPES",
    "GUARD_MATCHER",
    "HOOK_TIMEOUT_MS",
    "STAYS_ON",
    "SWITCHES",
    "TREE_WHY",
    "directories_note",
    "include_directory",
    "merged_settings",
    "plan",
    "settings_path",
    "stays_on",
    "system_settings_path",
]

HARNESS = "gemini"
GUARD_MATCHER = "write_file|replace|run_shell_command|mcp_.*"
"""Gemini CLI's tools that write files: ``write_file`` and ``replace`` (``file_path``), the
shell (``command``) and MCP tools (``mcp_<server>_<tool>``, any argument)."""
HOOK_TIMEOUT_MS = 30_000


EDITED_SHAPES: dict[str, type] = {
    "context": dict,
    "context.includeDirectories": list,
    "experimental": dict,
}
"""The settings an install edits, and the type each must have for it to do so."""


def settings_path(home: Path, environ: Mapping[str, str]) -> Path:
    """``$GEMINI_CLI_HOME/.gemini/settings.json`` when set, else ``~/.gemini/settings.json``."""
    base = environ.get("GEMINI_CLI_HOME")
    return (Path(base).absolute() if base else home) / ".gemini" / "settings.json"


SYSTEM_SETTINGS_VARIABLE = "GEMINI_CLI_SYSTEM_SETTINGS_PATH"


def system_settings_path(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """Gemini CLI's system settings file, the settings that override every other file:
    ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH`` when set, else ``/etc/gemini-cli/settings.json`` on
    Linux, ``/Library/Application Support/GeminiCli/settings.json`` on macOS,
    ``C:\\ProgramData\\gemini-cli\\settings.json`` on Windows (Gemini CLI 0.61's
    ``getSystemSettingsPath``; its configuration docs)."""
    configured = environ.get(SYSTEM_SETTINGS_VARIABLE)
    if configured:
        return Path(configured)
    return managed_folder("gemini", platform) / "settings.json"


AUTO_MEMORY = Switch(
    keys=("experimental", "autoMemory"),
    off=False,
    what="Gemini CLI's background auto memory",
    default_on=False,
)
"""Gemini CLI's experimental auto memory (patches extracted from past sessions into its memory
inbox); off by default in 0.61, set off explicitly (H-6)."""
DIRECTORY_TREE = Switch(
    keys=("context", "includeDirectoryTree"),
    off=False,
    what="Gemini CLI's directory tree in the model's first request",
    default_on=True,
    why="with the memory root included, it would list every Workspace's folder and file names",
)
"""Gemini CLI lists the files of every Workspace directory, include directories too, in the
first request: with the memory root included, every scope's folder and file names (other
Workspaces' among them). Gemini CLI 0.61 can neither list one include directory and not another
nor take a Workspace-dependent include directory (a missing one stops it from starting), so the
listing goes off; the model still lists folders with its tools when it needs to."""
SWITCHES = (AUTO_MEMORY, DIRECTORY_TREE)
"""Every Gemini CLI setting the install turns off in its settings; its summary says each (H-3)."""
TREE_WHY = (
    "Gemini CLI would list every scope of the memory root (other Workspaces' names and file "
    "names) in the first request; it cannot list your Workspace without the memory root, so "
    "neither is listed now. Your Workspace's files are still a tool call away."
)
STAYS_ON = (
    "Gemini CLI's own memory stays on: it loads its GEMINI.md files, ~/.gemini/GEMINI.md and a "
    "private memory folder per project (~/.gemini/tmp/<project>/memory/MEMORY.md), and its "
    "system prompt tells the model it may save notes there. Gemini CLI {version} has no setting "
    "that turns this off; Agent Memory's injection says where this agent's memory lives. Bring "
    "its notes over: {bring}"
)


def stays_on(memory_root: Path | None, environ: Mapping[str, str]) -> str:
    """:data:`STAYS_ON` for this install: its import command names a ``memory-api`` that is
    there (:func:`~harness_memory.installers.executable.import_command`)."""
    bring = import_command(HARNESS, memory_root, dict(environ))
    return STAYS_ON.format(version=GEMINI_VERSION, bring=bring)


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> Plan:
    """The change to Gemini CLI's user settings; ``SettingsFileError`` for a bad file."""
    path = settings_path(options.home, environ)
    options = replace(options, settings_file=path)  # a guard whose program is gone names it
    old, document = read_json_object(path, comments=True)
    require_shapes(document, path, EDITED_SHAPES)
    record = read_record(path.parent)
    record.note_url(options.url, options.url_id_not_secret, install=install)
    state = path.parent / STATE_FOLDER
    token_file, place_warning = None, None
    if install:  # never in a git work tree, or one with a warning; the user's kept
        token_file, place_warning = hooks_token_file(path.parent, options, environ, options.token)
    wanted: dict[str, list[dict[str, Any]]] = {}
    if install:

        def handler(event: str) -> dict[str, Any]:
            return _handler(options, event, state, token_file)

        wanted = {
            "SessionStart": [{"hooks": [handler("session-start")]}],
            "BeforeTool": [{"matcher": GUARD_MATCHER, "hooks": [handler("before-tool")]}],
            "AfterTool": [{"matcher": GUARD_MATCHER, "hooks": [handler("after-tool")]}],
        }
        if options.remote:  # what the agent wrote goes back at the Session's end too
            wanted["SessionEnd"] = [{"hooks": [handler("session-end")]}]
    found = without_our_roots(document, document, HARNESS, _taken_out)  # as the user had it
    first = record.first_found(path, partial(json_object, comments=True))
    switches = SWITCHES  # context.includeDirectoryTree: ours too
    switches_back(found, switches, record.previous, first=first)
    if install:
        note_made(found, ROOT_LIST, record.previous)
    merged = merged_settings(document, wanted, options, path, install=install)
    notes: list[str] = [place_warning] if place_warning else []
    if install:
        notes += [switch_off(merged, s, record.previous, found=found) for s in switches]
    else:  # a "context": null stays null (H-3)
        notes += switches_back(
            merged,
            switches,
            record.previous,
            first=first,
            then=partial(give_back_made, merged, ROOT_LIST, record.previous, before=document),
        )
    if install:
        notes += directories_note(*root_changes(document, HARNESS, options, install=install))
        notes += [Detail(TREE_WHY), stays_on(options.memory_root, environ)]
        if why := gemini_off(merged, hook_names(merged)):  # the file keeps our hooks from running
            notes.append(f"WARNING: {switched_off(HARNESS, path, why)}")
        notes += gap_notes(HARNESS, managed=False)
    hooks = (path, [old])  # a token their --token-file names (H-7)
    planned = hooks_token_plan(record, token_file, options, environ, hooks) if install else None
    changes, removals, left = planned or ([], [], [])
    notes += left
    notes += refused_by_other_readers(token_file, options, environ, path)
    if install or old is not None:
        secrets = frozenset(tokens_in(document, HARNESS) | tokens_in(merged, HARNESS))
        text = dump_json(merged, old, path=path)
        was = None if install else given_back(path, merged, old, record, HARNESS, comments=True)
        change = FileChange(path, old, text, secrets, harness_settings=True)
        changes.append(change if was is None else replace(change, new=was.text, mode=was.mode))
    readers = (options.home, environ, path)  # a token file they read stays (H-7)
    return with_state(changes, notes, record, install=install, removals=removals, readers=readers)


def merged_settings(
    document: dict[str, Any],
    wanted: dict[str, list[dict[str, Any]]],
    options: InstallOptions,
    path: Path,
    *,
    install: bool,
) -> dict[str, Any]:
    """Settings ``document`` (read from ``path``) with Agent Memory's hook groups set to
    ``wanted`` and the memory root in ``context.includeDirectories`` (the former one taken
    out, the new one added on install): the user's and the system settings alike."""
    merged, _ = merge_hooks(document, HARNESS, wanted, source=path)
    gone, added = root_changes(document, HARNESS, options, install=install)
    for root in gone:
        include_directory(merged, root, install=False)
    if added is not None:
        include_directory(merged, added, install=True)
    return merged


def _handler(
    options: InstallOptions, event: str, state: Path, token: Path | None
) -> dict[str, Any]:
    # the Session start, post-write and Session-end hooks call the service; the guard needs none
    wants_token = event in ("session-start", "after-tool", "session-end")
    token_file = token if wants_token else None
    return {
        "name": f"agent-memory-{event}",
        "type": "command",
        "command": options.hook_command(HARNESS, event, state_dir=state, token_file=token_file),
        "timeout": HOOK_TIMEOUT_MS,
    }


ROOT_LIST = ("context", "includeDirectories")
"""The list the memory root goes into; an uninstall gives back what it found on the way
(:func:`~harness_memory.installers.own_memory.give_back_made`)."""


def _taken_out(document: dict[str, Any], root: str) -> None:
    """:func:`include_directory` taking ``root`` out (an uninstall's step)."""
    include_directory(document, root, install=False)


def directories_note(gone: list[str], added: str | None) -> list[str]:
    """The install summary's line for ``context.includeDirectories`` naming the memory root
    ``added`` (``gone``: former roots taken out), for the user install and the managed one
    alike (:func:`~.spec.reach_note`, H-3)."""
    return reach_note(
        "Gemini CLI's context.includeDirectories names",
        "its file tools may read and write memory outside the Workspace",
        gone,
        added,
    )


def include_directory(document: dict[str, Any], root: str, *, install: bool) -> None:
    """Add ``root`` to ``context.includeDirectories`` (or take it out), dropping what is left
    empty."""
    context = document.get("context")
    if not isinstance(context, dict):
        if not install:
            return
        context = document["context"] = {}
    entries = context.get("includeDirectories")
    entries = list(entries) if isinstance(entries, list) else []
    if install and root not in entries:
        entries.append(root)
    if not install and root in entries:
        entries.remove(root)
    if entries:
        context["includeDirectories"] = entries
    else:
        context.pop("includeDirectories", None)
    if not context:
        document.pop("context", None)
