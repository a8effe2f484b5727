"""Where the kernel lands a path that crosses a mount: the mount table (Linux), for the guard (P-3).

A bind mount gives a folder (or a file) of the memory root a second name anywhere: a scope
folder mounted inside the Workspace, a folder inside a scope, one ``MEMORY.md``. ``realpath``
keeps such a name as spelled, and the folders on its way are not the memory root, so neither
the spelling nor the memory root's device and inode tell the guard where a write lands. The
kernel's mount table does: each mount names its filesystem (``major:minor``), the folder of that
filesystem it shows (its *root*) and where it shows it (its *mount point*), so a path's place
in its filesystem is the root of the innermost mount holding it plus the rest of the path
(``/proc/self/mountinfo``, proc(5)). Two paths land in the same place when both are the same.

The table is read once per guard decision (:func:`read_mount_table`, one hook call) and handed
to every path that decision judges: a command naming thousands of paths reads it once, and no
table outlives the decision it was read for (a mount made between two tool calls is seen by
the second). Where there is none to read, :attr:`MountTable.unknown` says whether bind mounts
could still be there unseen (Linux without ``/proc``) or cannot exist (macOS, Windows).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path, PurePath

from memory_core.mount_fields import Mount, parse_mounts

from harness_memory.names import inodes_in

__all__ = ["BIND_MOUNTS", "MOUNT_TABLE", "MountTable", "below_by_mount", "read_mount_table"]

MOUNT_TABLE = Path("/proc/self/mountinfo")
"""The calling process's mount table: its own mount namespace, paths as its root sees them."""
BIND_MOUNTS = sys.platform.startswith("linux")
"""Whether this kernel can show a folder or a file under a second name by a bind mount
(Linux); macOS and Windows cannot, so there a missing mount table hides none."""


class MountTable:
    """The kernel's mount table as read for one guard decision (P-3).

    ``mounts`` lists each mount in the table's order (a mount listed later is on top,
    :func:`memory_core.mount_fields.parse_mounts`); it is empty when there was no table to
    read, and ``read`` False. ``unknown`` is True when a table could not be read
    on a kernel that has bind mounts (Linux without ``/proc``, or ``/proc`` not readable here):
    then a path outside the memory root on the memory root's filesystem may be a part of it
    under another name, and the guard refuses it rather than guess. A plain class, like
    :class:`harness_memory.hooks.tool_targets.ShellPaths` (H-5)."""

    __slots__ = ("_inodes", "_landings", "mounts", "read", "unknown")

    def __init__(self, mounts: list[Mount], *, read: bool = True, unknown: bool = False) -> None:
        self.mounts = mounts
        self.read = read
        self.unknown = unknown
        self._inodes: dict[str, frozenset[tuple[int, int]] | None] = {}
        self._landings: dict[str, tuple[str, str] | None] = {}

    def as_read(self) -> list[Mount] | None:
        """The mounts, for another check of the same decision that reads the table (a walk
        for procfs: :func:`memory_core.keys.workspace_memory_key`), so the process reads it
        once; None when it could not be read (that check reads it and says why)."""
        return self.mounts if self.read else None

    def inodes_in(self, folder: str) -> frozenset[tuple[int, int]] | None:
        """The inodes ``folder`` holds (:func:`harness_memory.names.inodes_in`), read once for
        this decision, like the table itself: a later decision reads them again."""
        if folder not in self._inodes:
            self._inodes[folder] = inodes_in(folder)
        return self._inodes[folder]

    def landing(self, path: str) -> tuple[str, str] | None:
        """:func:`_landing` of ``path`` through these mounts, worked out once for this
        decision: the guard asks it of the memory root and the records folders for every path
        it judges (a login shell's startup files name dozens: one pass over the table each,
        H-5)."""
        if path not in self._landings:
            self._landings[path] = _landing(path, self.mounts)
        return self._landings[path]


def read_mount_table() -> MountTable:
    """Read :data:`MOUNT_TABLE` once (a few dozen lines; tens of microseconds). Never raises:
    without a readable table it is empty, and ``unknown`` where bind mounts exist
    (:data:`BIND_MOUNTS`)."""
    try:
        table = MOUNT_TABLE.read_bytes()
    except OSError:  # no /proc (macOS, Windows; a chroot or sandbox without it) or unreadable
        return MountTable([], read=False, unknown=BIND_MOUNTS)
    return MountTable(parse_mounts(table, os.fsdecode))  # compared with realpath's names


def _below(path: str, folder: str) -> str | None:
    """The rest of ``path`` below ``folder`` (``""`` at it), or None outside it; both
    absolute and normalised."""
    if path == folder:
        return ""
    prefix = folder if folder.endswith("/") else folder + "/"
    return path[len(prefix) :] if path.startswith(prefix) else None


def _landing(path: str, mounts: list[Mount]) -> tuple[str, str] | None:
    """``(filesystem, path inside it)`` of the absolute, symlink-free ``path``: through the
    innermost mount holding it (the last listed of those at the deepest mount point)."""
    found: tuple[Mount, str] | None = None
    for mount in mounts:
        rest = _below(path, mount.point)
        if rest is not None and (found is None or len(mount.point) >= len(found[0].point)):
            found = mount, rest
    if found is None:
        return None
    mount, rest = found
    return mount.device, f"{mount.shown.rstrip('/')}/{rest}" if rest else mount.shown


def below_by_mount(real: str, root: str, table: MountTable) -> tuple[str, ...] | None:
    """``real``'s parts below ``root`` when the kernel lands it there through a mount: a bind
    mount of the root, of a scope folder, of a folder inside one or of one of its files, or
    another mount of the same filesystem. Both paths are absolute with symlinks resolved (the
    mount table names real paths); ``table`` is this decision's :func:`read_mount_table`.
    None when it lands elsewhere, or when the table is empty (then only the spelling and
    :func:`harness_memory.guard.below_by_identity` judge, and the guard refuses what an
    ``unknown`` table may hide). One pass over the table's lines, no file read."""
    mounts = table.mounts
    if not mounts:
        return None
    target, home = table.landing(real), table.landing(root)
    if target is None or home is None or target[0] != home[0]:
        return None
    rest = _below(target[1], home[1])
    return None if rest is None else PurePath(rest).parts
