"""The mount table (``/proc/self/mountinfo``): which filesystem a path lives on.

Read by the change feed (is a memory root on a local filesystem, where inotify sees every
change: :mod:`memory_api.store.change_feed`) and by the token checks (does a disk keep
permission bits: :mod:`memory_api.world_writable`). Pure: text in, values out.
"""

from __future__ import annotations

import os

__all__ = ["filesystem_type", "mount_of"]


def _unescape(text: str) -> str:
    r"""A mount point as ``/proc/self/mountinfo`` writes it (``\040`` for a space …), decoded."""
    if "\\" not in text:
        return text
    raw = text.encode("utf-8", "surrogateescape")
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x5C and i + 3 < len(raw) and raw[i + 1 : i + 4].isdigit():
            out.append(int(raw[i + 1 : i + 4], 8))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


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
