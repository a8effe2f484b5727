"""A git dir's files that git would wait on: a FIFO, a socket or a device (R-1, V-1).

git opens ``HEAD``, ``config``, ``packed-refs``, the ref files and a pack's files by name with a
blocking ``open``: one that is a FIFO nobody writes (a disk fault, a careless copy, a prank)
holds git until whoever runs it stops it (the service's and the sync's timeout: 120 s), then
the only word is that git took long. Looking first names the entry at once.
"""

from __future__ import annotations

import os
from pathlib import Path

from memory_core.file_kind import file_kind

__all__ = ["blocking_entry"]

_READ_FILES = ("HEAD", "config", "packed-refs", "index", "shallow", "commondir", "FETCH_HEAD")
"""The files at a git dir's top that git opens (``FETCH_HEAD``: a fetch writes it)."""
_READ_FOLDERS = ("refs", "info", "objects/info", "objects/pack")
"""The folders of a git dir whose files git opens by name."""


def blocking_entry(git_dir: Path) -> str | None:
    """A file of ``git_dir`` that git opens by name and that is neither a regular file nor a
    folder (also through a symlink), said as ``"packed-refs is a FIFO"`` (its path relative
    to ``git_dir``, its kind by :func:`~memory_core.file_kind.file_kind`), or None when there
    is none or ``git_dir`` is not there.

    Looked at (listed, never opened): the files at its top that git opens
    (:data:`_READ_FILES`: ``HEAD``, ``config``, ``packed-refs``, ``index`` …; not a file of
    the caller's own beside them) and every file under ``refs/``, ``info/``,
    ``objects/info/`` and ``objects/pack/``; not loose objects (``objects/3f/…``), which git
    opens only by their id when it needs that one, nor ``hooks/`` (run, never read). An entry
    that cannot be looked at (a dangling symlink, one gone meanwhile) is left to git, which
    says what it is. One listing per folder, no ``stat`` but for a symlink: 0.3 ms for a
    scope's repository on a loaded 2-CPU machine, where starting ``git rev-parse`` takes 2 ms.

    >>> blocking_entry(Path("/nonexistent.git")) is None
    True
    """
    folders = [git_dir, *(git_dir / folder for folder in _READ_FOLDERS)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue  # not there, or not a folder: git says what it is
        for entry in entries:
            if folder == git_dir and entry.name not in _READ_FILES:
                continue
            if entry.is_dir():  # the kind the folder's listing says: no stat but for a symlink
                if folder != git_dir:
                    folders.append(Path(entry.path))
            elif not entry.is_file() and os.path.exists(entry.path):  # noqa: PTH110
                return f"{Path(entry.path).relative_to(git_dir)} is {_kind(entry)}"
    return None


def _kind(entry: os.DirEntry[str]) -> str:
    """What ``entry`` is, through a symlink (:func:`~memory_core.file_kind.file_kind`)."""
    try:
        return file_kind(entry.stat().st_mode)
    except OSError:
        return "not a regular file"
