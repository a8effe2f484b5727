"""Where this account's managed installs wrote, so ``status`` finds one made with a folder.

``install HARNESS --managed DIR`` writes the managed settings where ``DIR`` says: an image
being built, a folder copied to other machines. The harness itself reads them from one place
only (Codex CLI ``/etc/codex/requirements.toml``, Claude Code ``/etc/claude-code`` on Linux,
Gemini CLI ``/etc/gemini-cli/settings.json`` or ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``), which is
all ``status`` looked at. So a managed install into any other place records that file here, in
``~/.harness-memory/managed-installs.json`` of the account that ran it (the home ``--home`` or
``$HOME`` names), and ``status`` run by that account reads it too; ``uninstall`` takes the
entry out again (and the file, when none is left). The record is written only into a home
owned by the account running the install: a root install under ``sudo`` that kept the user's
``$HOME`` leaves the user's home alone (and says how ``status`` finds the file instead).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from harness_memory.installers.files import (
    FileChange,
    SettingsFileError,
    dump_json,
    read_json_object,
)

__all__ = [
    "RECORD_NAME",
    "STATE_DIR",
    "ManagedFile",
    "managed_file",
    "read_place",
    "record_plan",
    "recorded",
]

STATE_DIR = ".harness-memory"
"""The folder under the home directory (remote mode's state dir too, R-1)."""
RECORD_NAME = "managed-installs.json"


class ManagedFile(NamedTuple):
    """A harness's managed settings file: ``harness`` (``claude-code``, ``codex``, ``gemini``)
    and the ``path`` of the file (where it reads them, or where an install wrote them)."""

    harness: str
    path: Path


def managed_file(harness: str, managed: Path) -> Path:
    """The settings file ``install HARNESS --managed DIR`` writes for ``managed`` (``DIR``):
    Claude Code's ``managed-settings.json``, Codex CLI's ``requirements.toml`` in it, Gemini
    CLI's system settings (:func:`~harness_memory.installers.gemini_managed.settings_file`)."""
    if harness == "claude-code":
        return managed / "managed-settings.json"
    if harness == "codex":
        from harness_memory.installers.codex_managed import REQUIREMENTS_NAME

        return managed / REQUIREMENTS_NAME
    from harness_memory.installers.gemini_managed import settings_file

    return settings_file(managed)


def read_place(harness: str, environ: Mapping[str, str]) -> Path:
    """Where ``harness`` itself reads its managed settings on this machine (``environ``: the
    user's environment, whose ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH`` moves Gemini CLI's)."""
    if harness == "claude-code":
        from harness_memory.installers.claude_code import managed_dir

        return managed_file(harness, managed_dir())
    if harness == "codex":
        from harness_memory.installers.codex_managed import DEFAULT_DIR

        return managed_file(harness, DEFAULT_DIR)
    from harness_memory.installers.gemini import system_settings_path

    return system_settings_path(environ)


def recorded(home: Path) -> list[ManagedFile]:
    """The settings file of every managed install recorded in ``home``, in the
    order made; none when the record is missing or cannot be read (``status`` then shows the
    harnesses' own places only)."""
    try:
        _, document = read_json_object(home / STATE_DIR / RECORD_NAME)
    except SettingsFileError:  # hides nothing: status shows the harnesses' own places still
        return []
    entries = document.get("installs")
    found: list[ManagedFile] = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, dict):
            harness, path = entry.get("harness"), entry.get("path")
            if isinstance(harness, str) and isinstance(path, str):
                found.append(ManagedFile(harness, Path(path)))
    return found


def record_plan(
    home: Path, harness: str, path: Path, *, install: bool
) -> tuple[list[FileChange], list[Path], str | None]:
    """``(changes, removals, note)`` recording (or, for an uninstall, forgetting) that the
    managed settings of ``harness`` are at ``path``. Nothing when ``home`` is not this
    account's (then ``note`` says so) or nothing changes.

    Raises :class:`~harness_memory.installers.files.SettingsFileError` for a record that is not
    a JSON object.
    """
    record = home / STATE_DIR / RECORD_NAME
    if not _own(home):
        return (
            [],
            [],
            (
                f"{home} is not a home this account owns, so this install is not recorded "
                f"there: `harness-memory status --managed {path.parent}` shows {path}"
            ),
        )
    old, document = read_json_object(record)
    entry = {"harness": harness, "path": str(path)}
    listed = document.get("installs")
    entries = [e for e in listed if e != entry] if isinstance(listed, list) else []
    if install:
        entries.append(entry)
    if not entries:
        return [], [record] if old is not None else [], None
    text = dump_json({**document, "installs": entries}, old)
    change = FileChange(record, old, text, backup=False, create_mode=0o600)
    return ([change] if change.changed else []), [], None


def _own(home: Path) -> bool:
    """Whether ``home`` exists and belongs to the account running this process (on a system
    without POSIX owners, Windows: whether it exists)."""
    geteuid = getattr(os, "geteuid", None)
    try:
        owner = home.stat().st_uid
    except OSError:
        return False
    return geteuid is None or owner == geteuid()
