"""What one install or uninstall will do: the files it changes and what it must say (H-3, H-6).

A harness planner returns a :class:`Plan`: the :class:`~harness_memory.installers.files.
FileChange` list (settings files, the install record), the state files an uninstall takes away,
and ``notes``: sentences the user must read after an install — what of the harness's own memory
was turned off and what stays on (H-6), what the guard cannot see in that harness (P-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from harness_memory.installers.files import FileChange
from harness_memory.installers.record import InstallRecord, leftovers

__all__ = ["Plan", "with_state"]


@dataclass(frozen=True, slots=True)
class Plan:
    """``changes`` to write; ``removals``: files an uninstall deletes (its state folder's),
    ``folders``: folders it removes when they are left empty; ``notes`` to print, in order."""

    changes: list[FileChange]
    notes: list[str] = field(default_factory=list)
    removals: list[Path] = field(default_factory=list)
    folders: list[Path] = field(default_factory=list)


def with_state(
    changes: list[FileChange],
    notes: list[str],
    record: InstallRecord,
    *,
    install: bool,
    removals: list[Path] | None = None,
) -> Plan:
    """The plan with the install's state folder: an install writes its record (and removes
    ``removals``: a token file no longer wanted); an uninstall removes the record, the token
    file and the Session records, and the folder when nothing else is in it."""
    if install:
        return Plan([*changes, record.change()], notes, list(removals or []))
    files, folders = leftovers(record.path.parent.parent)
    return Plan(changes, notes, files, folders)
