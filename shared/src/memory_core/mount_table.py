"""The mount table (``/proc/self/mountinfo``): which filesystem a path lives on.

Read by the change feed (is a memory root on a local filesystem, where inotify sees every
change: :mod:`memory_api.store.change_feed`), by the token checks (does a disk keep
permission bits: :mod:`memory_api.world_writable`) and by the Workspace mount records (which
mount a Workspace lies on, a bind mount within one filesystem included:
:mod:`memory_api.store.workspace_mount`, through :mod:`memory_api.mount_watch`, which parses
it once per change into a :class:`MountTree`). Pure: text in, values out.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from memory_core.mount_fields import unescape_mount_field

__all__ = ["MountTree", "filesystem_type", "mount_of"]


def _unescape(text: str) -> str:
    r"""A mount point as ``/proc/self/mountinfo`` writes it, decoded
    (:func:`~memory_core.mount_fields.unescape_mount_field`: ``\040`` is a space). The text
    is UTF-8 both ways (bytes that are none as surrogates), as the mount table is read,
    whatever the locale: a name such as ``Fotos Mamá`` read under ``LC_ALL=C`` is no error.

    >>> _unescape(r"/mnt/my\040drive/a\012b\134c")
    '/mnt/my drive/a\nb\\c'
    """
    if "\\" not in text:
        return text
    raw = unescape_mount_field(text.encode("utf-8", "surrogateescape"))
    return raw.decode("utf-8", "surrogateescape")


def mount_of(mountinfo: str, path: str, device: int) -> tuple[str, str] | None:
    """The type and super options (``"9p"``, ``"rw,aname=drvfs;…"``) of the filesystem the
    real ``path`` (whose ``st_dev`` is ``device``) lives on, by a ``/proc/PID/mountinfo``
    text: the mount of that device, else (btrfs subvolumes report other device numbers) the
    mount with the longest mount point holding ``path``; None when no line says.

    >>> text = ("22 1 8:1 / / rw - ext4 /dev/sda1 rw\\n"
    ...         "40 22 0:52 / /mnt/n\\\\040fs rw shared:1 - nfs4 srv:/ rw,vers=4.2\\n")
    >>> mount_of(text, "/mnt/n fs/data", os.makedev(0, 52))
    ('nfs4', 'rw,vers=4.2')
    """
    wanted = f"{os.major(device)}:{os.minor(device)}"
    by_point: list[tuple[str, tuple[str, str]]] = []
    for line in mountinfo.split("\n"):  # the kernel escapes a newline, space, tab, backslash
        fields = line.split(" ")  # in a path; a carriage return, NBSP or form feed stays
        if len(fields) < 7 or "-" not in fields[6:]:
            continue
        dash = fields.index("-", 6)
        if len(fields) <= dash + 1:
            continue
        found = (fields[dash + 1], fields[dash + 3] if len(fields) > dash + 3 else "")
        if fields[2] == wanted:
            return found
        by_point.append((_unescape(fields[4]), found))
    best: tuple[int, tuple[str, str]] | None = None
    for point, found in by_point:
        inside = point == "/" or path == point or path.startswith(point.rstrip("/") + "/")
        if inside and (best is None or len(point) > best[0]):
            best = (len(point), found)
    return None if best is None else best[1]


def filesystem_type(mountinfo: str, path: str, device: int) -> str | None:
    """The type of the filesystem the real ``path`` (``st_dev`` ``device``) lives on, as
    :func:`mount_of` finds its mount; None when no line says.

    >>> text = ("22 1 8:1 / / rw - ext4 /dev/sda1 rw\\n"
    ...         "40 22 0:52 / /mnt/n\\\\040fs rw shared:1 - nfs4 srv:/ rw\\n")
    >>> filesystem_type(text, "/mnt/n fs/data", os.makedev(0, 52))
    'nfs4'
    >>> filesystem_type(text, "/srv/data", os.makedev(9, 9))
    'ext4'
    """
    found = mount_of(mountinfo, path, device)
    return None if found is None else found[0]


@dataclass(frozen=True)
class MountTree:
    """A ``/proc/PID/mountinfo`` text parsed once, to walk many paths down: each mount's mount
    point (by mount id), the mount on top at each ``(parent mount, mount point)``, and the root
    mount (None when the table has none: a process in a ``chroot`` below a mount point)."""

    points: dict[str, str]
    on: dict[tuple[str, str], str]
    root: str | None

    @classmethod
    def parse(cls, mountinfo: str) -> MountTree:
        """The tree of a ``/proc/PID/mountinfo`` text (lines of fewer than 7 fields skipped)."""
        points: dict[str, str] = {}
        parents: dict[str, str] = {}
        on: dict[tuple[str, str], str] = {}
        for line in mountinfo.split("\n"):  # the kernel escapes a newline in a path
            fields = line.split(" ")
            if len(fields) < 7:
                continue
            mount, parent, point = fields[0], fields[1], _unescape(fields[4])
            points[mount], parents[mount] = point, parent
            if parent != mount:  # the root of a namespace may name itself as its parent
                on[parent, point] = mount  # listed in mount order: a later one is on top
        root = next((mount for mount in points if _is_root(mount, points, parents)), None)
        return cls(points, on, root)

    def mount_point_of(self, path: str) -> str | None:
        """The mount point of the mount the absolute real ``path`` lies on, as the kernel walks
        it: from the root mount down the path, at each folder the mount whose parent is the
        mount reached so far and whose mount point is that folder (the last mounted, on top,
        when several are stacked there). A bind mount within one filesystem is a mount of its
        own here (its ``st_dev`` is that filesystem's), and a mount hidden under one mounted
        later on a folder above it is passed by. None when the table has no root mount.

        >>> tree = MountTree.parse("22 1 254:0 / / rw - ext4 /dev/vda rw\\n"
        ...     "40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\\n"
        ...     "41 22 0:52 / /mnt/my\\\\040drive rw - vfat /dev/sdb1 rw\\n")
        >>> tree.mount_point_of("/home/u/repos/app/src")
        '/home/u/repos'
        >>> tree.mount_point_of("/home/u/repository")
        '/'
        >>> tree.mount_point_of("/mnt/my drive")
        '/mnt/my drive'
        """
        current = self.root
        if current is None:
            return None
        folders = [path[:end] for end in range(1, len(path)) if path[end] == "/"]
        for folder in ["/", *folders, path.rstrip("/") or "/"]:
            for _ in self.points:  # each mount at most once, whatever the text says
                if (current, folder) not in self.on:
                    break
                current = self.on[current, folder]
        return self.points[current]


def _is_root(mount: str, points: dict[str, str], parents: dict[str, str]) -> bool:
    """Whether ``mount`` is the root mount of the table: mounted on ``/``, its parent itself or
    no mount on ``/`` (a mount stacked on the root has the one below as its parent)."""
    parent = parents[mount]
    return points[mount] == "/" and (parent == mount or points.get(parent) != "/")
