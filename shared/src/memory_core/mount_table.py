"""The mount table (``/proc/self/mountinfo``): which filesystem a path lives on.

Read by the change feed (is a memory root on a local filesystem, where inotify sees every
change: :mod:`memory_api.store.change_feed`), by the token checks (does a disk keep
permission bits: :mod:`memory_api.world_writable`) and by the Workspace mount records (which
mount a Workspace lies on, a bind mount within one filesystem included:
:mod:`memory_api.store.workspace_mount`, through :mod:`memory_api.mount_watch`, which parses
it once per change into a :class:`MountTree`). Pure: text in, values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory_core.mount_fields import Mount, as_utf8, mount_in, parse_mounts

__all__ = ["MountTree", "filesystem_type", "mount_of"]


def _mounts(mountinfo: str) -> list[Mount]:
    """The mounts of a mount table read as text (UTF-8, bytes that are none as surrogates,
    whatever the locale: a name such as ``Fotos Mamá`` read under ``LC_ALL=C`` is no error),
    by the one parser of the table (:func:`~memory_core.mount_fields.parse_mounts`)."""
    return parse_mounts(mountinfo.encode("utf-8", "surrogateescape"), as_utf8)


def mount_of(mountinfo: str, path: str, device: int) -> tuple[str, str] | None:
    """The type and super options (``"9p"``, ``"rw,aname=drvfs;…"``) of the filesystem the
    real ``path`` (whose ``st_dev`` is ``device``) lives on, by a ``/proc/PID/mountinfo``
    text: the mount of that device, else (btrfs subvolumes report other device numbers) the
    mount with the longest mount point holding ``path``
    (:func:`~memory_core.mount_fields.mount_in`); None when no line says.

    >>> import os
    >>> text = ("22 1 8:1 / / rw - ext4 /dev/sda1 rw\\n"
    ...         "40 22 0:52 / /mnt/n\\\\040fs rw shared:1 - nfs4 srv:/ rw,vers=4.2\\n")
    >>> mount_of(text, "/mnt/n fs/data", os.makedev(0, 52))
    ('nfs4', 'rw,vers=4.2')
    """
    found = mount_in(_mounts(mountinfo), path, device)
    return None if found is None or found.kind is None else (found.kind, found.options)


def filesystem_type(mountinfo: str, path: str, device: int) -> str | None:
    """The type of the filesystem the real ``path`` (``st_dev`` ``device``) lives on, as
    :func:`mount_of` finds its mount; None when no line says.

    >>> import os
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
    point (by mount id), the mount on top at each ``(parent mount, mount point)``, the root
    mount (None when the table has none: a process in a ``chroot`` below a mount point), and
    each mount's line (its other fields decoded only when asked)."""

    points: dict[str, str]
    on: dict[tuple[str, str], str]
    root: str | None
    lines: dict[str, Mount]

    @classmethod
    def parse(cls, mountinfo: str) -> MountTree:
        """The tree of a ``/proc/PID/mountinfo`` text (lines of fewer than 7 fields skipped)."""
        points: dict[str, str] = {}
        parents: dict[str, str] = {}
        on: dict[tuple[str, str], str] = {}
        lines: dict[str, Mount] = {}
        for found in _mounts(mountinfo):
            mount, parent, point = found.mount, found.parent, found.point
            points[mount], parents[mount], lines[mount] = point, parent, found
            if parent != mount:  # the root of a namespace may name itself as its parent
                on[parent, point] = mount  # listed in mount order: a later one is on top
        root = next((mount for mount in points if _is_root(mount, points, parents)), None)
        return cls(points, on, root, lines)

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
        found = self.mount_of(path)
        return None if found is None else found.point

    def mount_of(self, path: str) -> Mount | None:
        """The line of the mount the absolute real ``path`` lies on, found as
        :meth:`mount_point_of` walks; None when the table has no root mount.

        >>> tree = MountTree.parse("22 1 254:0 / / rw - ext4 /dev/vda rw\\n"
        ...     "40 22 254:0 /data/repos /home/u/repos rw - ext4 /dev/vda rw\\n")
        >>> tree.mount_of("/home/u/repos/app").origin
        b'ext4 /dev/vda /data/repos'
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
        return self.lines[current]


def _is_root(mount: str, points: dict[str, str], parents: dict[str, str]) -> bool:
    """Whether ``mount`` is the root mount of the table: mounted on ``/``, its parent itself or
    no mount on ``/`` (a mount stacked on the root has the one below as its parent)."""
    parent = parents[mount]
    return points[mount] == "/" and (parent == mount or points.get(parent) != "/")
