"""Which disk a Workspace lay on when the service last saw it (K-6a).

A Workspace on a disk of its own (an external drive, a partition mounted on demand, a volume the
service's container had then) is not gone when that disk is not mounted: its path is missing,
yet nothing says its folder was removed. A Session start that sees the Workspace keeps the mount
point it lies on in the scope's :data:`~memory_core.layout.MOUNT_FILE` (``/`` for the root
filesystem); the overview calls a missing Workspace whose mount point is no longer mounted "not
visible from the service", never orphaned, and so is one whose path now leads into another
mount than the recorded one (:func:`off_its_mount`: a tmpfs or volume over a folder above it
in another mount namespace, a service moved into a container). One whose disk is mounted and
whose folder is gone on it is orphaned, as before.

The file holds three lines: the mount point (the start of the Workspace's real path), the
filesystem the Workspace folder was on then (its ``st_dev``, decimal), and what tells that
mount from another across reboots (:attr:`~memory_core.mount_fields.Mount.origin`: type,
source and folder shown, as the table writes them; compared by type and folder, a source
being a device name a boot may change; no third line without a table). A file
an older service wrote has no third line: it is judged by its mount point alone (it may
name ``/`` for a bind mount) until the next Session start rewrites it. The mount point is the
one the kernel's mount table (``/proc/self/mountinfo``) gives for the Workspace's path, so a
bind mount within one filesystem (a container's volume, ``mount --bind /data/repos
/home/u/repos``) is recorded as its own mount point, not as the filesystem's: with it
unmounted, its mount point left as an empty folder on the same device, the Workspace is not
visible, never orphaned. A mount point is mounted while :func:`os.path.ismount` says so or the
table names a mount there; without a readable table both fall back to devices (the nearest
folder up whose parent is on another device).

A Session start already ``stat``\\ s the Workspace folder: while the file is unchanged, was
found right, and the mount table has not changed since, its device is read from
:class:`MountRecords` (one ``lstat`` of the file and one ``poll`` of the table on the event
loop: :data:`~memory_api.mount_watch.MOUNTS`). The first Session start that meets a version of
the file, a Workspace on another filesystem than the recorded one, or a mount table changed
since (any mount or unmount) finds the mount point again, in a worker thread, and rewrites the
file when it names another mount point or device: a file from an older service (one line, or a
bind mount recorded as its filesystem) is corrected there, and so is a Workspace bind-mounted
after it was recorded (at the same path on the same filesystem), or one made again at that
path on the filesystem below once its mount is gone. The table is read and parsed once per
change, whatever the number of Session starts and Workspaces judged. A file that cannot be
written (a read-only data dir) is tried again, in a worker thread, at each Session start.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from pathlib import Path

from memory_core import layout

from memory_api.mount_watch import MOUNTS
from memory_api.store.containment import read_regular
from memory_api.store.held_writes import replace_in
from memory_api.store.stat_cache import NeedsBlockingIO, StatCache, file_key

__all__ = ["MountRecords", "mount_gone", "mount_point", "off_its_mount", "record_mount"]

logger = logging.getLogger(__name__)

_READ_CAP = 4096 + 32
"""Bytes of the file read at most: a path longer than PATH_MAX is no mount point."""

_NO_DEVICE = -1
"""The device of a file that names none (written before it was kept, or odd): never equal."""


def mount_point(path: str) -> str:
    """The mount point of the mount the existing real ``path`` lies on, as the mount table
    (:data:`MOUNTS`, read again only when it changed) tells it: a bind mount within one
    filesystem is a mount point of its own. Where the table cannot be read (no ``/proc``), the
    nearest folder up from ``path`` whose parent is on another device (one ``lstat`` per
    folder; ``"/"`` at the top): that walk raises ``OSError`` for a folder it cannot ``lstat``
    (``path`` gone meanwhile).

    >>> mount_point("/")
    '/'
    """
    tree = MOUNTS.tree()
    found = None if tree is None else tree.mount_point_of(path)
    if found is not None:
        return found
    device = os.lstat(path).st_dev
    current = path
    while current != os.sep:
        parent = os.path.dirname(current)  # noqa: PTH120 - a str walk, no Path per level
        if os.lstat(parent).st_dev != device:
            return current
        current = parent
    return current


def _mount_of(path: str) -> tuple[str, bytes]:
    """The mount point of the mount the existing real ``path`` lies on (:func:`mount_point`)
    and what tells that mount from another (:attr:`~memory_core.mount_fields.Mount.origin`:
    type, source and folder shown); ``b""`` for the latter without a readable table. Raises
    ``OSError`` as :func:`mount_point` does."""
    tree = MOUNTS.tree()
    found = None if tree is None else tree.mount_of(path)
    if found is None:
        return mount_point(path), b""
    return found.point, found.origin


def _record(point: str, device: int, origin: bytes) -> bytes:
    """The bytes of a mount file: the mount point, the device and, when known, the mount's
    origin, a line each.

    >>> _record("/mnt/d", 2049, b"ext4 /dev/sdb1 /")
    b'/mnt/d\\n2049\\next4 /dev/sdb1 /\\n'
    >>> _record("/", 2049, b"")
    b'/\\n2049\\n'
    """
    written = os.fsencode(f"{point}\n{device}\n")
    return written + origin + b"\n" if origin else written


def _mounted(point: str) -> bool:
    """Whether a mount has its mount point at ``point`` now: a filesystem of its own there
    (:func:`os.path.ismount`, no table read), or a mount the table names there (a bind mount
    within one filesystem; the table parsed once per change, not per call). Where the table
    cannot be read, ``os.path.ismount`` alone."""
    if os.path.ismount(point):
        return True
    tree = MOUNTS.tree()
    return tree is not None and tree.mount_point_of(point) == point


def _parsed(raw: bytes) -> tuple[bytes, int, bytes]:
    """The mount point, device and mount origin a file's bytes ``raw`` hold (:data:`_NO_DEVICE`
    when the second line is missing or no number; ``b""`` for no third line: a file an older
    service wrote).

    >>> _parsed(b"/mnt/drive\\n2049\\next4 /dev/sdb1 /\\n")
    (b'/mnt/drive', 2049, b'ext4 /dev/sdb1 /')
    >>> _parsed(b"/")
    (b'/', -1, b'')
    """
    point, _, rest = raw.partition(b"\n")
    device, _, origin = rest.partition(b"\n")
    device = device.strip()
    return point, int(device) if device.isdigit() else _NO_DEVICE, origin.strip(b"\n")


class MountRecords:
    """The device each scope's mount file records, by the file's path, once that version was
    found to name the Workspace's mount point and device, valid while the file is unchanged
    (:class:`~memory_api.store.stat_cache.StatCache`) and the mount table too (a mount or an
    unmount may move the Workspace's mount point: :meth:`MountWatch.changes
    <memory_api.mount_watch.MountWatch.changes>` of :data:`MOUNTS`); and the scopes whose file could
    not be written for a device (a read-only data dir), so that failure is logged once per
    process (the write is tried again at each Session start: a disk made writable again, or
    an entry in the file's way removed, gets the file). Thread-safe."""

    def __init__(self, *, max_entries: int) -> None:
        self._devices: StatCache[str, tuple[int, int]] = StatCache(max_entries=max_entries)
        self._warned: dict[str, int] = {}
        self._max_entries = max_entries
        self._lock = threading.Lock()

    def kept(self, path: str, info: os.stat_result) -> int | None:
        """The device the file ``path`` records at the version its ``lstat`` ``info`` shows,
        when that version was read (or written) and found right since the mount table last
        changed (one ``poll`` when it was kept); None when it was not."""
        found = self._devices.get(path, file_key(info))
        if found is None:
            return None
        device, changes = found
        return device if changes == MOUNTS.changes() else None

    def holds(
        self, path: str, info: os.stat_result, found: tuple[bytes, int], changes: int
    ) -> bool:
        """Whether the regular file ``path`` (its ``lstat`` ``info``, taken before) holds
        exactly the bytes ``found[0]`` (:func:`_record` of the Workspace's mount point, device
        ``found[1]`` and mount, as told after ``changes`` changes of the mount table); kept at
        that version when it does."""
        record, device = found
        try:
            raw, _ = read_regular(Path(path), _READ_CAP + 1)
        except OSError:  # gone or swapped since the lstat: written again
            return False
        if raw != record:
            return False
        self._devices.put(path, file_key(info), (device, changes))  # the key seen before the read
        return True

    def wrote(self, path: str, device: int, changes: int) -> None:
        """Keep ``device`` for the file ``path`` just written with it, as found after ``changes``
        changes of the mount table (so the next Session start reads nothing), at the file's
        version now."""
        try:
            info = os.lstat(path)
        except OSError:
            return
        self._devices.put(path, file_key(info), (device, changes))

    def first_failure(self, scope: str, device: int) -> bool:
        """Whether writing ``scope``'s file for ``device`` failed now for the first time in
        this process (then it is logged; a write that succeeds forgets it)."""
        with self._lock:
            if self._warned.get(scope) == device:
                return False
            if len(self._warned) >= self._max_entries:
                self._warned.clear()
            self._warned[scope] = device
            return True

    def succeeded(self, scope: str) -> None:
        """Forget a failure logged for ``scope``: a later one is logged again."""
        with self._lock:
            self._warned.pop(scope, None)


def record_mount(
    records: MountRecords,
    scope: Path,
    key: str,
    workspace: tuple[str, int],
    *,
    cached_only: bool,
) -> None:
    """Keep in ``scope`` the mount point of the Workspace the service sees now, ``workspace``
    (its real path and the ``st_dev`` of its folder), and that device (K-6a): one ``lstat`` and
    one ``poll`` while the file's version was found right in this process and the mount table
    has not changed since, else the mount point is found (:func:`mount_point`) and the file
    read, and written when it is missing or records another mount point or device. A failure
    is logged once per scope and device in this process and tried again at the next Session
    start: the Session starts all the same. ``cached_only``: a file to read or write raises
    :class:`NeedsBlockingIO`."""
    real_workspace, device = workspace
    folder = os.fspath(scope)
    path = f"{folder}{os.sep}{layout.MOUNT_FILE}"
    try:
        info: os.stat_result | None = os.lstat(path)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        info = None
    if info is not None and records.kept(path, info) == device:
        return  # as it should be: one lstat (the file read once per version)
    if cached_only:
        raise NeedsBlockingIO(key)
    changes = MOUNTS.changes()  # before the table is read: a change after it is seen next time
    try:
        point, origin = _mount_of(real_workspace)
    except OSError:  # gone again since it was seen: the next Session start keeps it
        return
    record = _record(point, device, origin)
    if info is not None and records.holds(path, info, (record, device), changes):
        return
    try:  # in the folder held open: never one swapped in for it meanwhile
        replace_in(scope.parent, scope, layout.MOUNT_FILE, record)
        records.wrote(path, device, changes)
        records.succeeded(folder)
    except OSError as error:
        if records.first_failure(folder, device):
            logger.warning(
                "scope %s: cannot keep its %s (said once): %s", key, layout.MOUNT_FILE, error
            )


def _recorded(scope: Path | str) -> tuple[str, bytes] | None:
    """The mount point and mount origin ``scope``'s file records (``b""`` for no origin: a
    file an older service wrote, or one written without a mount table); None when no file is
    kept, or it cannot be read, or it names no absolute path: then nothing says where the
    Workspace lay."""
    try:
        raw, _ = read_regular(Path(scope) / layout.MOUNT_FILE, _READ_CAP + 1)
    except OSError:  # NotRegularFileError is an OSError
        return None
    point, _, origin = _parsed(raw)
    if not point.startswith(b"/") or len(raw) > _READ_CAP or b"\0" in point:
        return None
    return os.fsdecode(point), origin


def mount_gone(scope: Path | str) -> bool:
    """Whether ``scope`` names a mount point its Workspace lay on that is not mounted now (its
    disk unplugged, a share not mounted, a volume the service's container no longer has).
    False when no file is kept, or it cannot be read, or it names no absolute path: then
    nothing says so."""
    recorded = _recorded(scope)
    if recorded is None or recorded[0] == "/":
        return False  # no record, or the root filesystem, which is always mounted
    return not _mounted(recorded[0])


def off_its_mount(scope: Path | str, path: str) -> bool:
    """Whether the Workspace ``path`` that ``scope``'s file records is off the mount it lay on
    for this service (K-6a), so that nothing says a folder missing there was removed: that
    mount point is not mounted now (:func:`mount_gone`), or, for a file that records the
    mount's origin (type, source, folder shown: written by this version), ``path`` now leads
    into another mount: the nearest folder at or above it lies on a mount with another mount
    point or origin (a tmpfs or a volume mounted over a folder above it in another mount
    namespace; a service moved into a container, whose root is another filesystem on ``/``),
    the origin compared by its type and folder shown (:func:`_kind`).
    A file without the origin (an older service's: it recorded ``/`` for a bind mount) is
    judged by its mount point alone, since a mount point cannot tell that record from a tmpfs
    over a folder above. False when no file is kept or it names nothing, and for a folder
    missing on its own mount (removed there: orphaned; a new empty tmpfs at the same point
    too). Never by device numbers, which change with a reboot or a remount. One ``stat`` per
    folder up to the nearest one there; the mount table read once per change."""
    recorded = _recorded(scope)
    if recorded is None:
        return False
    point, origin = recorded
    if point != "/" and not _mounted(point):
        return True
    if not origin or not path.startswith(os.sep):
        return False
    tree = MOUNTS.tree()
    if tree is None:
        return False
    folder = path
    while not os.path.isdir(folder) and folder != os.sep:  # noqa: PTH112 - a str walk
        folder = os.path.dirname(folder)  # noqa: PTH120 - a str walk, no Path per level
    try:
        found = tree.mount_of(os.path.realpath(folder))
    except (OSError, ValueError):  # a NUL in a hand-edited marker
        return False
    return found is not None and (found.point, _kind(found.origin)) != (point, _kind(origin))


def _kind(origin: bytes) -> tuple[bytes, bytes]:
    """The filesystem type and the folder of it shown, of a mount's ``origin`` (``type source
    folder``): its source is left out, a device name (``/dev/sdb1``) that may change between
    boots while the mount is the same (K-6a)."""
    fields = origin.split(b" ")
    return fields[0], fields[-1]
