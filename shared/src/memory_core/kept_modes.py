"""Whether a disk keeps permission bits (A-10a, P-3): exFAT, FAT, WSL's drvfs and some Windows
bind mounts show every file as ``0777`` and ``chmod`` there fails or changes nothing, so a
reason telling to ``chmod o-w`` a folder there must say what works instead
(:func:`keeps_modes`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from memory_core.mount_table import mount_of

__all__ = ["MODELESS_TYPES", "keeps_modes"]

MODELESS_TYPES = frozenset({"vfat", "msdos", "exfat", "fat", "drvfs", "fuse.exfat"})
"""File system types (the mount table's) that keep no permission bits."""
MOUNT_TABLE = "/proc/self/mountinfo"

_kept: dict[int, bool] = {}
"""Whether a device keeps modes, by ``st_dev``: asked once per disk, not per request."""


def keeps_modes(path: str) -> bool:
    """Whether the disk holding ``path`` (a file or folder) keeps permission bits.

    Asked by making an empty file next to it (in ``path`` itself for a folder), ``chmod 0600``
    and reading the mode back, the file removed at once; where no file can be made there, by
    the file system type in the mount table (:data:`MODELESS_TYPES`). True when neither can
    tell: the message then says ``chmod o-w``, the usual fix. Cached per device (``st_dev``).
    Never raises."""
    try:
        device = os.stat(path).st_dev  # noqa: PTH116 - a path string, as the callers have
    except OSError:
        return True
    if device not in _kept:
        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."  # noqa: PTH112, PTH120
        probed = _probe(folder)
        _kept[device] = probed if probed is not None else _type_keeps_modes(path)
    return _kept[device]


def _probe(folder: str) -> bool | None:
    """Whether a file made ``0600`` in ``folder`` shows as such; None when none can be made."""
    try:
        import tempfile  # only for a disk not yet asked (H-5)

        fd, name = tempfile.mkstemp(dir=folder, prefix=".memory-probe.", suffix=".tmp")
    except OSError:
        return None
    try:
        try:
            os.fchmod(fd, 0o600)
        except PermissionError:  # the kernel's FAT and exFAT refuse a mode they cannot keep
            return False
        return stat.S_IMODE(os.fstat(fd).st_mode) & 0o077 == 0
    except OSError:
        return None
    finally:
        os.close(fd)
        Path(name).unlink(missing_ok=True)


def _type_keeps_modes(path: str) -> bool:
    """Whether the mount holding ``path`` (:func:`~memory_core.mount_table.mount_of`) has a type
    other than :data:`MODELESS_TYPES` (WSL's drvfs shows as ``9p`` with ``aname=drvfs``)."""
    try:
        with open(MOUNT_TABLE, encoding="utf-8", errors="surrogateescape", newline="") as mounts:  # noqa: PTH123
            table = mounts.read()  # newline="": a carriage return in a mount point ends no line
        found = mount_of(table, os.path.realpath(path), os.stat(path).st_dev)  # noqa: PTH116
    except OSError:
        return True
    fs_type, options = found or ("", "")
    return not (fs_type in MODELESS_TYPES or (fs_type == "9p" and "aname=drvfs" in options))
