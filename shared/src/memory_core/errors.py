"""Domain errors of the core, free of HTTP.

    MemoryCoreError          base of every error the core raises on purpose
    ├── InvalidId            an id or file name failing K-7 (checked before any I/O)
    ├── FileKeptChanging     a concurrent-safe edit found no quiet moment (memory_core.file_edit)
    └── UnresolvablePath     a symlink on a path could not be read: where it leads is unknown
        ├── UnseenName       a name on a path could not be looked at: it may be a symlink
        └── ReachesProc      a Workspace path reaches /proc (or that cannot be told)

    OSError
    └── NotRegularFileError  a path names a folder, FIFO, device or socket, not a regular file

Parsing user content never raises (T-2): problems are returned as data instead.
"""

from __future__ import annotations

import os
from typing import Literal, TypeAlias

IdKind: TypeAlias = Literal["project", "agent", "scope", "file", "draft", "version"]


class MemoryCoreError(Exception):
    """Base of the core's named exceptions."""


class InvalidId(MemoryCoreError):
    """An id or topic file name that fails its K-7 pattern.

    ``kind`` is what was checked (``project``, ``agent``, ``scope``, ``file``, a ``draft`` id,
    A-12, or a ``version`` id, V-2), ``value`` the text given and ``reason`` a short human
    explanation; ``str(error)`` joins them for a ``detail``.
    """

    def __init__(self, kind: IdKind, value: str, reason: str) -> None:
        self.kind: IdKind = kind
        self.value = value
        self.reason = reason
        super().__init__(f"invalid {kind} {value!r}: {reason}")


class FileKeptChanging(MemoryCoreError):
    """:func:`memory_core.file_edit.edit_file` could not apply its edit without losing a write.

    Someone kept changing the file through every attempt, or held it open for writing longer
    than the edit may wait. Nothing was lost: the file holds everyone's writes, without the edit.
    ``str(error)`` names the file by its base name only (never a path) and is fit for a
    ``detail``; the service answers it with 409.
    """


class UnresolvablePath(MemoryCoreError):
    """A path whose real location cannot be known: the kernel refused to read a symlink on its
    way (``readlink`` failed after ``lstat`` succeeded, e.g. ``EACCES`` on ``/proc/<pid>/root``
    or ``/proc/<pid>/cwd`` of a process this user may not trace), so ``os.path.realpath`` could
    not finish. ``link`` is the symlink, ``reason`` the kernel's answer (``strerror``);
    ``str(error)`` names both and is fit for a ``detail``; ``errno`` is the kernel's error
    number when there is one (``errno.ELOOP``: a loop, or more than 40 links on the way).
    Raised by :func:`memory_core.keys.real_path`. Every subclass has ``errno`` too (None when
    the kernel gave none).
    """

    errno: int | None = None

    def __init__(self, link: str, reason: str, errno: int | None = None) -> None:
        self.link = link
        self.reason = reason
        self.errno = errno
        super().__init__(f"the symlink {link!r} on its way cannot be read ({reason})")


class UnseenName(UnresolvablePath):
    """A path whose real location cannot be known because a name on its way could not be looked
    at (``lstat`` failed otherwise than for a name that is not there): the absolute path there is
    ``PATH_MAX`` bytes or more (``ENAMETOOLONG``: the kernel still walks it from a folder a ``cd``
    reached), or, with a ``..`` after it, this account may not search its folder (``EACCES``:
    another account walks on). The name may be a symlink leading anywhere, so no ``..`` after
    it is folded by its text (P-3, K-1). ``link`` is the path up to that name, ``name`` the
    name, ``reason`` the kernel's answer (``strerror``), ``errno`` its number
    (``errno.ENAMETOOLONG``, ``errno.EACCES``; None when it gave none). Raised by
    :func:`memory_core.keys.real_path`."""

    def __init__(self, path: str, name: str, reason: str, errno: int | None = None) -> None:
        self.link = path
        self.name = name
        self.reason = reason
        self.errno = errno
        shown = name if len(name) <= 80 else f"{name[:60]}…({len(name)} characters)"
        MemoryCoreError.__init__(
            self,
            f"the name {shown!r} on its way ({len(os.fsencode(path))} bytes from '/') cannot be "
            f"looked at ({reason}), and may be a symlink leading anywhere",
        )


class ReachesProc(UnresolvablePath):
    """A Workspace path whose walk, as the kernel resolves it, reaches the proc file system
    (``/proc/<pid>/root/…``, ``/proc/self/cwd``, a symlink into ``/proc``: A-9, K-1).
    ``os.path.realpath`` turns such a magic link into the path it shows (``/proc/7/root`` into
    ``/``), which names another folder in another mount namespace: no key may be derived from
    it. ``reached`` is the first path of the walk on procfs, or None when the mount table that
    tells could not be read (``reason`` then says why). Raised by
    :func:`memory_core.keys.real_workspace_path`."""

    def __init__(self, path: str, reached: str | None, reason: str | None = None) -> None:
        self.path = path
        self.reached = reached
        self.link = reached or path
        self.errno = None
        if reached is not None:
            self.reason = f"it reaches the proc file system ({reached})"
            text = (
                f"the path {path!r} reaches the proc file system ({reached}): a path through "
                "/proc names a process's own folders, not the Workspace's own path"
            )
        else:
            self.reason = reason or "the mount table cannot be read"
            text = (
                f"whether the path {path!r} reaches the proc file system cannot be told: "
                f"{self.reason}"
            )
        MemoryCoreError.__init__(self, text)


class NotRegularFileError(OSError):
    """The path names a directory, FIFO, device or socket rather than a regular file."""
