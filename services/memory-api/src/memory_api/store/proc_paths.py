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

Which device numbers are procfs comes from the mount table (:mod:`memory_api.mount_table`),
read once per device first met and kept. A path that is its own real path (no symlink, no
``..``: every warm Session start) is judged by the ``stat`` the Session start makes anyway;
only one that resolves elsewhere is walked (an ``lstat`` per component).
"""

from __future__ import annotations

import os
import stat
import threading

from memory_api.mount_table import filesystem_type

__all__ = ["MAX_SYMLINKS", "is_procfs", "on_proc"]

MAX_SYMLINKS = 40
"""The kernel's ``MAXSYMLINKS``: past it the walk answers ``ELOOP`` (refused elsewhere)."""
_MOUNTINFO = "/proc/self/mountinfo"
_KEPT_DEVICES = 256
"""The most device verdicts kept (a machine has a few dozen file systems)."""

_verdicts: dict[int, bool] = {}
_verdicts_lock = threading.Lock()


def is_procfs(path: str, device: int) -> bool:
    """Whether the file system of device ``device`` (reached at ``path``) is procfs, by the
    mount table; a table that cannot be read says no (then no procfs is mounted to read it)."""
    known = _verdicts.get(device)
    if known is not None:
        return known
    try:
        with open(_MOUNTINFO, encoding="utf-8", errors="surrogateescape") as table:  # noqa: PTH123
            text = table.read()
    except OSError:
        text = ""
    known = filesystem_type(text, path, device) == "proc"
    with _verdicts_lock:
        if len(_verdicts) < _KEPT_DEVICES:
            _verdicts[device] = known
    return known


def on_proc(path: str) -> str | None:
    """The first path the kernel's walk of the absolute ``path`` reaches on procfs (``/proc``
    for ``/proc/self/cwd``; the link's own target for a symlink into ``/proc``), or None when
    the walk reaches none before it ends (the whole path resolved, or a part not there, a link
    that cannot be read, more than :data:`MAX_SYMLINKS` links).

    An ``lstat`` per component and a ``readlink`` per symlink, as ``os.path.realpath`` does;
    ``..`` steps back from the folder reached, as the kernel does after following a link.
    """
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
        if is_procfs(current, info.st_dev):
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
