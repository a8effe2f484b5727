"""Which disk a Workspace lay on when the service last saw it (K-6a).

A Workspace on a disk of its own (an external drive, a partition mounted on demand, a volume the
service's container had then) is not gone when that disk is not mounted: its path is missing,
yet nothing says its folder was removed. A Session start that sees the Workspace keeps the mount
point it lies on in the scope's :data:`~memory_core.layout.MOUNT_FILE` (``/`` for the root
filesystem); the overview calls a missing Workspace whose mount point is no longer mounted "not
visible from the service", never orphaned. One whose disk is mounted and whose folder is gone
is orphaned, as before.

The file holds the mount point's path, which is the start of the Workspace's real path (the
marker's, fixed for the key): it is written once, at the first Session start that sees the
Workspace; later ones cost one ``lstat`` on the event loop.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from memory_core import layout
from memory_core.atomic import atomic_write_bytes

from memory_api.store.containment import held_folder, read_regular
from memory_api.store.stat_cache import NeedsBlockingIO

__all__ = ["mount_gone", "mount_point", "record_mount"]

logger = logging.getLogger(__name__)

_READ_CAP = 4096
"""Bytes of the file read at most: a path longer than PATH_MAX is no mount point."""


def mount_point(path: str) -> str:
    """The mount point the existing real ``path`` lies on: ``path`` itself or its nearest
    ancestor whose parent is on another device, ``"/"`` at the top. One ``lstat`` per folder
    on the way; a bind mount within one filesystem is not told apart. Raises ``OSError``.

    >>> mount_point("/")
    '/'
    """
    device = os.lstat(path).st_dev
    current = path
    while current != os.sep:
        parent = os.path.dirname(current)  # noqa: PTH120 - a str walk, no Path per level
        if os.lstat(parent).st_dev != device:
            return current
        current = parent
    return current


def record_mount(scope: Path, key: str, real_workspace: str, *, cached_only: bool) -> None:
    """Keep in ``scope`` the mount point of ``real_workspace``, which the service sees now
    (``/`` for the root filesystem), once: while the file is there a Session start costs one
    ``lstat`` (the marker fixes the path, so its disk's mount point is known from then on).
    A failure is logged: the Session starts all the same (K-6a). ``cached_only``: a file to
    write raises :class:`NeedsBlockingIO`."""
    if os.path.lexists(f"{os.fspath(scope)}{os.sep}{layout.MOUNT_FILE}"):
        return
    if cached_only:
        raise NeedsBlockingIO(key)
    try:
        point = mount_point(real_workspace)
    except OSError:  # gone again since it was seen: the next Session start keeps it
        return
    try:  # in the folder held open: never one swapped in for it meanwhile
        with held_folder(scope.parent, scope) as held:
            atomic_write_bytes(held / layout.MOUNT_FILE, os.fsencode(point))
    except OSError as error:
        logger.warning("scope %s: cannot keep its %s: %s", key, layout.MOUNT_FILE, error)


def mount_gone(scope: Path | str) -> bool:
    """Whether ``scope`` names a mount point its Workspace lay on that is not mounted now (its
    disk unplugged, a share not mounted, a volume the service's container no longer has).
    False when no file is kept, or it cannot be read: then nothing says so."""
    try:
        raw, _ = read_regular(Path(scope) / layout.MOUNT_FILE, _READ_CAP + 1)
    except OSError:  # NotRegularFileError is an OSError
        return False
    if raw in (b"", os.fsencode(os.sep)) or len(raw) > _READ_CAP or b"\0" in raw:
        return False  # the root filesystem is always mounted
    return not os.path.ismount(os.fsdecode(raw))
