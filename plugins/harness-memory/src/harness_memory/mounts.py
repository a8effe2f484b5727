"""Where the kernel lands a path that crosses a mount: the mount table (Linux), for the guard (P-3).

A bind mount gives a folder (or a file) of the memory root a second name anywhere: a scope
folder mounted inside the Workspace, a folder inside a scope, one ``MEMORY.md``. ``realpath``
keeps such a name as spelled, and the folders on its way are not the memory root, so neither
the spelling nor the memory root's device and inode tell the guard where a write lands. The
kernel's mount table does: each mount names its filesystem (``major:minor``), the folder of that
filesystem it shows (its *root*) and where it shows it (its *mount point*), so a path's place
in its filesystem is the root of the innermost mount holding it plus the rest of the path
(``/proc/self/mountinfo``, proc(5)). Two paths land in the same place when both are the same.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePath

__all__ = ["MOUNT_TABLE", "below_by_mount"]

MOUNT_TABLE = Path("/proc/self/mountinfo")
"""The calling process's mount table: its own mount namespace, paths as its root sees them."""

_OCTAL = re.compile(rb"\\([0-7]{3})")


class _Mount:
    """One line of the mount table: the filesystem, the folder of it shown, and where."""

    __slots__ = ("device", "point", "shown")

    def __init__(self, fields: list[bytes]) -> None:
        self.device = fields[2]
        self.shown = PurePath(_unescape(fields[3]))
        self.point = PurePath(_unescape(fields[4]))


def _unescape(field: bytes) -> str:
    """A mount table field as a path: the kernel writes space, tab, newline and backslash as
    ``\\ooo`` octal escapes; other bytes as they are (decoded as file names are)."""
    return os.fsdecode(_OCTAL.sub(lambda found: bytes([int(found.group(1), 8)]), field))


def _mounts() -> list[_Mount] | None:
    """The mount table, in its order (a mount listed later is on top); None without one."""
    try:
        lines = MOUNT_TABLE.read_bytes().splitlines()
    except OSError:  # no /proc (macOS, Windows) or not readable here: no bind mounts known
        return None
    return [_Mount(fields) for line in lines if len(fields := line.split(b" ")) > 4]


def _landing(path: PurePath, mounts: list[_Mount]) -> tuple[bytes, PurePath] | None:
    """``(filesystem, path inside it)`` of the absolute, symlink-free ``path``: through the
    innermost mount holding it (the last listed of those at the deepest mount point)."""
    found: _Mount | None = None
    for mount in mounts:
        if path.is_relative_to(mount.point) and (
            found is None or len(mount.point.parts) >= len(found.point.parts)
        ):
            found = mount
    if found is None:
        return None
    return found.device, found.shown.joinpath(*path.relative_to(found.point).parts)


def below_by_mount(real: str, root: str) -> tuple[str, ...] | None:
    """``real``'s parts below ``root`` when the kernel lands it there through a mount: a bind
    mount of the root, of a scope folder, of a folder inside one or of one of its files, or
    another mount of the same filesystem. Both paths are absolute with symlinks resolved (the
    mount table names real paths). None when it lands elsewhere, or when there is no mount table
    to read (then only the spelling and :func:`harness_memory.guard.below_by_identity` judge).
    Reads the mount table once (a few dozen lines; tens of microseconds)."""
    mounts = _mounts()
    if not mounts:
        return None
    target, home = _landing(PurePath(real), mounts), _landing(PurePath(root), mounts)
    if target is None or home is None or target[0] != home[0]:
        return None
    if not target[1].is_relative_to(home[1]):
        return None
    return target[1].relative_to(home[1]).parts
