"""``harness-memory install codex --managed [DIR]``: Codex CLI's requirements, for every user.

Hooks in a user's ``~/.codex`` run only while no trusted project turns them off: a Workspace's
``.codex/config.toml`` is a config layer over the user's, and its ``[features] hooks = false``
stops every hook (no memory, no write guard), ``unified_exec_tty = true`` gives the model
terminals whose input no hook sees, ``memories = true`` brings Codex's own memory back beside
Agent Memory. An administrator's ``/etc/codex/requirements.toml`` (``DIR``, default
:data:`DEFAULT_DIR`) is the layer no user or project config overrides (measured on Codex CLI
0.171). The managed install writes there:

- the hooks, as requirements hooks (``[[hooks.<Event>]]``): Codex runs them for every user of
  the machine without asking for trust, and no ``[hooks.state]`` can disable them. Their
  commands name no state folder and no token: each user's hooks keep their state, and read
  their token, in their own account's home
  (:func:`~harness_memory.settings.account_state_dir`, ``harness-memory token set``);
- ``[features]`` pins: ``hooks = true``, ``memories = false``, ``unified_exec_tty = false``;
- the memory root in ``sandbox_workspace_write.writable_roots`` of ``DIR/config.toml``
  (Codex's system config, the lowest layer: a requirements file holds no sandbox roots), so
  the patch tool may write memory.

Both files are merged, never replaced: the administrator's other keys, tables and comments stay
(``tomlkit``), each changed file is backed up first, and ``uninstall`` gives each back byte for
byte when nobody changed it since (else it takes out exactly what the install put in, and puts
back the pinned values it found, H-6).
"""

from __future__ import annotations

import stat
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError

from harness_memory.installers.codex import (
    HARNESS,
    MEMORIES,
    TERMINALS,
    check_tables,
    hook_groups,
    roots_note,
    writable_root,
)
from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    backups_of,
    read_text,
    toml_object,
)
from harness_memory.installers.guard_gaps import gap_notes
from harness_memory.installers.hook_groups import merge_hooks
from harness_memory.installers.own_memory import Switch, switch_off, switches_back
from harness_memory.installers.plan import Plan, with_state
from harness_memory.installers.record import read_record
from harness_memory.installers.spec import InstallOptions, root_changes
from harness_memory.settings import MANAGED_TOKEN_SET, managed_folder

__all__ = ["DEFAULT_DIR", "PINS", "REQUIREMENTS_NAME", "plan"]

DEFAULT_DIR = managed_folder("codex")
"""Where Codex CLI reads ``requirements.toml`` and its system ``config.toml`` on Linux and
macOS (Codex's managed-configuration docs)."""
REQUIREMENTS_NAME = "requirements.toml"
CONFIG_NAME = "config.toml"

HOOKS_ON = Switch(
    keys=("features", "hooks"),
    off=True,
    what="Codex CLI's hooks",
    default_on=True,
    done="pinned on for every user",
)
PINS = (
    HOOKS_ON,
    replace(MEMORIES, done="pinned off for every user"),
    replace(TERMINALS, done="pinned off for every user"),
)
"""The ``[features]`` the requirements pin: no project config can turn hooks off, Codex's own
memories or its interactive terminals back on."""

MANAGED = (
    "Installed into Codex CLI's requirements ({path}): every user's Codex on this machine runs "
    "these hooks, and no user's or project's config.toml can switch them off or Codex's own "
    "memories or terminals back on. Each user gives their token with "
    + MANAGED_TOKEN_SET
    + " (kept in their own account's home)."
)


def plan(options: InstallOptions, environ: Mapping[str, str], *, install: bool) -> Plan:
    """The changes to ``requirements.toml`` and ``config.toml`` in ``options.managed_dir``.

    Raises :class:`~harness_memory.installers.files.SettingsFileError` for a file that is not
    valid TOML, whose ``hooks`` is no table of hook lists, or that cannot be read, and for an
    install into requirements holding ``[feature_requirements]``: Codex reads it as
    ``[features]`` (openai/codex ``config_requirements.rs``, a serde alias), so the pins written
    beside it would be the same table twice, a file Codex refuses.
    """
    del environ  # the requirements are the machine's: no user's variable moves them
    folder = options.managed_dir if options.managed_dir is not None else DEFAULT_DIR
    requirements_path, config_path = folder / REQUIREMENTS_NAME, folder / CONFIG_NAME
    options = replace(options, settings_file=requirements_path)  # named by a gone guard
    record = read_record(folder)
    record.note_url(options.url, options.url_id_not_secret, install=install)
    old_requirements = read_text(requirements_path)
    requirements = _parse(requirements_path, old_requirements)
    check_tables(requirements, requirements_path, ("features", "hooks"))
    if install and "feature_requirements" in requirements:
        raise SettingsFileError(
            f"{requirements_path}: [feature_requirements] is Codex CLI's other name for "
            "[features]: the pins this install writes under [features] beside it would make a "
            "file Codex refuses (the same table twice); move its keys under [features], then "
            "install again"
        )
    before = _hooks_document(requirements, requirements_path)
    wanted = hook_groups(options, None) if install else {}
    merged, _ = merge_hooks(before, HARNESS, wanted, source=requirements_path)
    _put_hooks(requirements, before, merged)
    gone, added = root_changes(before, HARNESS, options, install=install)
    notes: list[str] = []
    if install:
        found = _parse(requirements_path, old_requirements)  # the pins share [features]
        notes += [
            switch_off(requirements, pin, record.previous, tomlkit.table, found=found)
            for pin in PINS
        ]
        notes += roots_note(config_path, gone, added)
        notes.append(MANAGED.format(path=requirements_path))
        notes += gap_notes(HARNESS, managed=True)
    else:
        first = record.first_found(requirements_path, toml_object)
        notes += switches_back(requirements, PINS, record.previous, first=first)
    old_config = read_text(config_path)
    config = _parse(config_path, old_config)
    check_tables(config, config_path, ("sandbox_workspace_write",))
    for root in gone:
        writable_root(config, root, install=False)
    if added is not None:
        writable_root(config, added, install=True)
    changes = [
        change
        for change in (
            _change(requirements_path, old_requirements, requirements, install=install),
            _change(config_path, old_config, config, install=install),
        )
        if change is not None
    ]
    return with_state(changes, notes, record, install=install)


def _parse(path: Path, text: str | None) -> Any:
    try:
        return tomlkit.parse(text or "")
    except TOMLKitError as error:
        raise SettingsFileError(f"{path} is not valid TOML ({error})") from None


def _hooks_document(requirements: Any, path: Path) -> dict[str, Any]:
    """``{"hooks": …}`` of the requirements as plain values (for ``merge_hooks``)."""
    if "hooks" not in requirements:
        return {}
    hooks = requirements["hooks"]
    if not isinstance(hooks, dict):
        raise SettingsFileError(f'{path}: "hooks" is not a table')
    return {"hooks": hooks.unwrap() if hasattr(hooks, "unwrap") else dict(hooks)}


def _put_hooks(requirements: Any, before: dict[str, Any], after: dict[str, Any]) -> None:
    """Write the events whose groups changed back into ``requirements``, leaving every other
    key of its ``hooks`` table (``managed_dir``, other events) as it was written."""
    old, new = before.get("hooks", {}), after.get("hooks", {})
    if old == new:
        return
    if "hooks" not in requirements:
        requirements["hooks"] = tomlkit.table(is_super_table=True)
    table = requirements["hooks"]
    for event in [event for event in old if event not in new]:
        del table[event]
    for event, groups in new.items():
        if old.get(event) != groups:
            table[event] = tomlkit.item(groups)
    if not table:
        del requirements["hooks"]


def _change(path: Path, old: str | None, document: Any, *, install: bool) -> FileChange | None:
    """The file's change; an uninstall gives back the newest backup that holds what the file
    now would (the administrator's own bytes and mode)."""
    text = tomlkit.dumps(document)
    if not install:  # tables taken out leave their blank separator line behind
        text = text.rstrip("\n") + "\n" if text.strip() else ""
    if old is None and not install:
        return None
    # every user's Codex reads it
    change = FileChange(path, old, text, create_mode=0o644, harness_settings=True)
    if install:
        return change
    earlier = _earlier(path, document)
    return change if earlier is None else replace(change, new=earlier[0], mode=earlier[1])


def _earlier(path: Path, document: Any) -> tuple[str, int] | None:
    """The newest backup of ``path`` whose TOML holds the same values as ``document``, with its
    mode; None when there is none (the file was changed since the install)."""
    wanted = document.unwrap()
    for backup in reversed(backups_of(path)):
        try:
            text = read_text(backup)
            mode = stat.S_IMODE(backup.stat().st_mode)
            if text is not None and tomlkit.parse(text).unwrap() == wanted:
                return text, mode
        except (SettingsFileError, TOMLKitError, OSError):
            continue
    return None
