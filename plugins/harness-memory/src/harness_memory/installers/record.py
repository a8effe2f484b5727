"""The install's state folder beside the harness's settings: ``<settings folder>/harness-memory``.

It holds the install record (``install.json``: what :mod:`~harness_memory.installers.own_memory`
found before it switched the harness's own memory off, H-6) and the hooks' Session records
(``sessions/``). :func:`record_change` plans the record's new text as a
:class:`~harness_memory.installers.files.FileChange` (no backup: it is ours); :func:`leftovers`
names what ``uninstall`` removes from the folder, and :func:`others_in` what it leaves because
this plugin did not make it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness_memory.installers.files import FileChange, dump_json, read_json_object

__all__ = ["RECORD_NAME", "STATE_FOLDER", "InstallRecord", "leftovers", "others_in", "read_record"]

STATE_FOLDER = "harness-memory"
RECORD_NAME = "install.json"
_SESSIONS = "sessions"


class InstallRecord:
    """The install record of one settings folder: ``previous`` (see ``own_memory.Record``)."""

    def __init__(self, path: Path, text: str | None, document: dict[str, Any]) -> None:
        self.path = path
        self.text = text
        previous = document.get("previous")
        self.previous: dict[str, Any] = dict(previous) if isinstance(previous, dict) else {}

    def change(self) -> FileChange:
        """The record's new text, holding :attr:`previous`, as a change without a backup."""
        new = dump_json({"previous": self.previous})
        return FileChange(self.path, self.text, new, backup=False)


def read_record(settings_folder: Path) -> InstallRecord:
    """The install record of ``settings_folder`` (empty when there is none).

    Raises :class:`~harness_memory.installers.files.SettingsFileError` for a record that is not
    a JSON object: its values cannot be guessed, so nothing is changed.
    """
    path = settings_folder / STATE_FOLDER / RECORD_NAME
    text, document = read_json_object(path)
    return InstallRecord(path, text, document)


def leftovers(settings_folder: Path) -> tuple[list[Path], list[Path]]:
    """What uninstall removes: (files: the record and the Session records; folders, deepest
    first, removed when they are then empty)."""
    state = settings_folder / STATE_FOLDER
    files = [state / RECORD_NAME] if (state / RECORD_NAME).is_file() else []
    sessions = state / _SESSIONS
    if sessions.is_dir() and not sessions.is_symlink():
        files += sorted(p for p in sessions.iterdir() if p.suffix == ".json" and p.is_file())
    folders = [folder for folder in (sessions, state) if folder.is_dir()]
    return files, folders


def others_in(settings_folder: Path, removed: list[Path]) -> list[Path]:
    """Entries of the state folder (and its ``sessions``) that are not among ``removed``."""
    state = settings_folder / STATE_FOLDER
    found: list[Path] = []
    for folder in (state, state / _SESSIONS):
        if folder.is_dir() and not folder.is_symlink():
            entries = sorted(folder.iterdir())
            found += [p for p in entries if p not in removed and p.name != _SESSIONS]
    return found
