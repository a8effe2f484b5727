"""Whether a path's resolution reaches the proc file system: a Workspace never lies there (A-9).

A Session start names its Workspace by a path the service resolves (K-1, K-3). Through procfs
that path names the service's own process, not the harness's folder: ``/proc/self/cwd`` is
the service's working directory, ``/proc/self/fd/3`` a file the service holds open,
``/proc/<pid>/root/…`` another process's root as the service sees it. Resolving such a magic
link gave a key, a scope folder and a marker for a folder the harness never worked in. The
rule is the kernel's walk: a Workspace path is refused when any path it reaches as the kernel
resolves it, component by component and through every symlink (one pointing into ``/proc``
included), lies on a procfs mount (``/proc`` itself, or another mount of it); nothing there is
a folder a Session works in. A path that leaves the walk early (a part not there for the
service, a link it may not read, more than 40 links) is left to the other checks, which
accept or refuse it as before.

Only a path that resolves elsewhere (a symlink or ``..`` on its way) or is spelt under
``/proc`` is walked: without a symlink on the way no magic link is followed, so a warm Session
start, whose path is its own real path, pays nothing here. Which devices are procfs is read
from the mount table (:mod:`memory_core.mount_fields`) at each walk, never kept: device numbers
are reused by the next mount.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # types of annotations only: the parser is imported where a walk needs it
    from collections.abc import Sequence

    from memory_core.mount_fields import Mount

__all__ = ["MAX_SYMLINKS", "PROC", "on_proc", "spelt_under_proc"]

MAX_SYMLINKS = 40
"""The kernel's ``MAXSYMLINKS``: past it the walk answers ``ELOOP`` (refused elsewhere)."""
PROC = "/proc"
"""Where procfs is mounted on every Linux system: a path spelt below it is always walked."""
_MOUNTINFO = "/proc/self/mountinfo"


def spelt_under_proc(path: str) -> bool:
    """Whether the absolute ``path`` is :data:`PROC` or spelt below it."""
    return path == PROC or path.startswith(PROC + "/")


class _Mounts:
    """The mount table, read once per walk and only when a verdict is needed, unless the
    caller read it already (``given``: a hook process reads it once for its whole decision,
    P-3). Raises OSError when it cannot be read (then whether a path reaches procfs is
    unknown: never guessed)."""

    def __init__(self, given: Sequence[Mount] | None) -> None:
        self._mounts = given

    def is_procfs(self, path: str, device: int) -> bool:
        """Whether the file system of device ``device`` (reached at ``path``) is procfs."""
        # here, not at the top: a hook process imports this module on every Session start and
        # guard call, and the mount table's parser only when a walk needs a verdict (H-5:
        # tests/plugin/test_h5_hook_cost.py)
        from memory_core.mount_fields import as_utf8, mount_in, parse_mounts

        if self._mounts is None:
            with open(_MOUNTINFO, "rb") as table:  # noqa: PTH123
                self._mounts = parse_mounts(table.read(), as_utf8)
        found = mount_in(self._mounts, path, device)
        return found is not None and found.kind == "proc"


def on_proc(path: str, mounts: Sequence[Mount] | None = None) -> str | None:
    """The first path the kernel's walk of the absolute ``path`` reaches on procfs (``/proc``
    for ``/proc/self/cwd``; the link's own target for a symlink into ``/proc``), or None when
    the walk reaches none before it ends (the whole path resolved, or a part not there, a link
    that cannot be read, more than :data:`MAX_SYMLINKS` links).

    An ``lstat`` per component and a ``readlink`` per symlink, as ``os.path.realpath`` does;
    ``..`` steps back from the folder reached, as the kernel does after following a link.
    ``mounts`` is the mount table as the caller read it
    (:func:`~memory_core.mount_fields.parse_mounts`); None: read here, when a step needs it.
    Raises OSError when the mount table cannot be read (never taken for "no procfs").
    """
    table = _Mounts(mounts)
    pending = [part for part in reversed(path.split("/")) if part and part != "."]
    resolved = "/"
    links = 0
    while pending:
        name = pending.pop()
        if name == "..":
            resolved = os.path.dirname(resolved)  # noqa: PTH120 - str paths
            continue
        current = f"{resolved.rstrip('/')}/{name}"
        try:
            info = os.lstat(current)
        except (OSError, ValueError):
            return None  # not there for the service: nothing below it is resolved
        if table.is_procfs(current, info.st_dev):
            return current
        if not stat.S_ISLNK(info.st_mode):
            resolved = current
            continue
        links += 1
        try:
            target = os.readlink(current)  # noqa: PTH115 - the kernel's answer, as a str
        except OSError:
            return None
        if links > MAX_SYMLINKS:
            return None
        if target.startswith("/"):
            resolved = "/"
        pending.extend(part for part in reversed(target.split("/")) if part and part != ".")
    return None
