"""What one install or uninstall will do: the files it changes and what it must say (H-3, H-6).

A harness planner returns a :class:`Plan`: the :class:`~harness_memory.installers.files.
FileChange` list (settings files, the install record), the state files an uninstall takes away,
and ``notes``: sentences the user must read after an install — what of the harness's own memory
was turned off and what stays on (H-6), what the guard cannot see in that harness (P-3).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from harness_memory.installers.files import FileChange, backups_of
from harness_memory.installers.record import InstallRecord, leftovers

__all__ = ["Plan", "with_state"]


@dataclass(frozen=True, slots=True)
class Plan:
    """``changes`` to write; ``removals``: files an uninstall deletes (its state folder's),
    ``folders``: the state folders it removes when they are left empty; ``made_folders``: the
    folders the install made for its files, deepest first, which it removes after them when
    nothing else is left in them; ``notes`` to print, in order."""

    changes: list[FileChange]
    notes: list[str] = field(default_factory=list)
    removals: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)
    made_folders: list[Path] = field(default_factory=list)


def with_state(
    changes: list[FileChange],
    notes: list[str],
    record: InstallRecord,
    *,
    install: bool,
    removals: list[Path] | None = None,
) -> Plan:
    """The plan with the install's state folder: an install writes its record, naming the
    settings files it creates (and removes ``removals``: a token file no longer wanted); an
    uninstall removes the record, the token file and the Session records, and the folder when
    nothing else is in it. A settings file an install created is removed, with its backups,
    instead of being left empty (``{}``, a blank ``config.toml``); one that holds anything
    else (keys the user added since) is written like any other (H-3). So is a folder an install
    made to hold its files (``~/.claude`` where there was none): an uninstall removes it when
    it is left empty, and leaves it while anything else is in it (the harness's own files)."""
    if install:
        made = [str(c.path) for c in changes if c.old is None and c.backup]
        record.created += [name for name in made if name not in record.created]
        state = record.path.parent
        folders = _missing_folders([c.path for c in changes if c.old is None] + [record.path])
        record.created_folders += [
            str(folder)
            for folder in folders
            if folder != state and str(folder) not in record.created_folders
        ]
        return Plan([*changes, record.change()], notes, list(removals or []))
    files, folders = leftovers(record.path.parent.parent)
    kept: list[FileChange] = []
    for change in changes:
        if str(change.path) in record.created and _left_empty(change):
            files += [change.path, *backups_of(change.path)]
        else:
            kept.append(change)
    made_folders = sorted(map(Path, record.created_folders), key=lambda f: -len(f.parts))
    return Plan(kept, notes, files, folders, made_folders)


def _missing_folders(paths: list[Path]) -> list[Path]:
    """The folders that do not exist yet on the way to each of ``paths`` (which writing them
    creates), each once, in the order found."""
    missing: list[Path] = []
    for path in paths:
        folder = path.parent
        while not os.path.lexists(folder) and folder.parent != folder:
            if folder not in missing:
                missing.append(folder)
            folder = folder.parent
    return missing


def _left_empty(change: FileChange) -> bool:
    """Whether the file would hold nothing after ``change``: blank, or an empty JSON object;
    and it is a file of its own, not a symlink (whose target is someone else's)."""
    if change.path.is_symlink() or change.old is None:
        return False
    text = change.new.strip()
    return text in ("", "{}")
