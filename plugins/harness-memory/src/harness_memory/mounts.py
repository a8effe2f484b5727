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
from typing import NamedTuple

__all__ = ["MOUNT_TABLE", "below_by_mount"]

MOUNT_TABLE = Path("/proc/self/mountinfo")
"""The calling process's mount table: its own mount namespace, paths as its root sees them."""

_OCTAL = re.compile(rb"\\([0-7]{3})")


class _Mount(NamedTuple):
    """One line of the mount table: the filesystem, the folder of it shown, and where."""

    device: bytes
    shown: str
    point: str


def _unescape(field: bytes) -> str:
    """A mount table field as a path: the kernel writes space, tab, newline and backslash as
    ``\\ooo`` octal escapes; other bytes as they are (decoded as file names are)."""
    if b"\\" in field:
        field = _OCTAL.sub(lambda found: bytes([int(found.group(1), 8)]), field)
    return os.fsdecode(field)


def _mounts() -> list[_Mount] | None:
    """The mount table, in its order (a mount listed later is on top); None without one."""
    try:
        lines = MOUNT_TABLE.read_bytes().splitlines()
    except OSError:  # no /proc (macOS, Windows) or not readable here: no bind mounts known
        return None
    table = [line.split(b" ", 5) for line in lines]
    return [_Mount(f[2], _unescape(f[3]), _unescape(f[4])) for f in table if len(f) > 5]


def _below(path: str, folder: str) -> str | None:
    """The rest of ``path`` below ``folder`` (``""`` at it), or None outside it; both
    absolute and normalised."""
    if path == folder:
        return ""
    prefix = folder if folder.endswith("/") else folder + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def _landing(path: str, mounts: list[_Mount]) -> tuple[bytes, str] | None:
    """``(filesystem, path inside it)`` of the absolute, symlink-free ``path``: through the
    innermost mount holding it (the last listed of those at the deepest mount point)."""
    found: tuple[_Mount, str] | None = None
    for mount in mounts:
        rest = _below(path, mount.point)
        if rest is not None and (found is None or len(mount.point) >= len(found[0].point)):
            found = mount, rest
    if found is None:
        return None
    mount, rest = found
    return mount.device, f"{mount.shown.rstrip('/')}/{rest}" if rest else mount.shown


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
    target, home = _landing(real, mounts), _landing(root, mounts)
    if target is None or home is None or target[0] != home[0]:
        return None
    rest = _below(target[1], home[1])
    return None if rest is None else PurePath(rest).parts
