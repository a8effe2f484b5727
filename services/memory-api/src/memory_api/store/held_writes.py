"""One file made, replaced or removed in a scope folder held open, with or without ``/proc`` (A-7).

A scope's ``.workspace`` marker (K-5), its not-visible flag (K-6a) and its mount record are
written in the folder the service checked, never in one swapped in for it meanwhile (the agent
exchanging its scope with a symlink to another agent's): the folder is held open by a
descriptor walked from the memory root following no symlink
(:func:`~memory_api.store.containment.walked_folder`) and every step is taken relative to it
(``openat``, ``linkat``, ``renameat``, ``unlinkat``). No path through ``/proc/self/fd`` is
needed, so a service in a container started without ``/proc`` makes Workspace scopes too (it
answered 503 before, as for a delete, whose index rewrite still needs such a path).

Each function takes the real memory ``root`` (or the scope's parent), the real ``folder`` below
it and a plain file ``name`` (no ``/``); each raises ``OSError`` as the filesystem refuses
(a read-only scope, a full disk), :class:`~memory_api.store.containment.FolderSwapped` when a
folder on the way is no longer one, and leaves no temp file behind. Blocking.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from memory_core.atomic import DEFAULT_MODE, fsync_directory

from memory_api.store.containment import walked_folder

__all__ = ["create_in", "remove_in", "replace_in", "taken"]

_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def create_in(root: Path, folder: Path, name: str, data: bytes) -> bool:
    """Write ``data`` as ``folder/name`` unless the name is taken (a symlink, dangling or not,
    takes it too); True when this call made it. Readers see no file or the whole file: a temp
    file is written, then hard-linked to ``name`` (``FileExistsError`` when it is taken).

    A name already taken is seen first (an ``lstat``): the common "already there" case writes
    no temp file, so a folder the service may only read (a read-only mount, a Q-2b group
    without write permission) holding the file is no ``OSError``."""
    with walked_folder(root, folder) as fd:
        if taken(fd, name):
            return False
        temp = _temp_written(fd, name, data)
        try:
            os.link(temp, name, src_dir_fd=fd, dst_dir_fd=fd, follow_symlinks=False)
        except FileExistsError:
            return False
        finally:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=fd)
        fsync_directory(".", dir_fd=fd)
        return True


def replace_in(root: Path, folder: Path, name: str, data: bytes) -> None:
    """Replace ``folder/name`` with ``data`` atomically (temp file, fsync, rename)."""
    with walked_folder(root, folder) as fd:
        temp = _temp_written(fd, name, data)
        try:
            os.rename(temp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=fd)
            raise
        fsync_directory(".", dir_fd=fd)


def taken(fd: int, name: str) -> bool:
    """Whether ``name`` is taken in the folder ``fd`` (a symlink, dangling or not, too)."""
    try:
        os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return True


def remove_in(root: Path, folder: Path, name: str) -> None:
    """Remove ``folder/name`` (a link as a link), then fsync the folder (the removal lasts
    through a crash); nothing when it is not there."""
    with walked_folder(root, folder) as fd:
        try:
            os.unlink(name, dir_fd=fd)
        except FileNotFoundError:
            return
        fsync_directory(".", dir_fd=fd)


def _temp_written(fd: int, name: str, data: bytes) -> str:
    """A new hidden temp file in the folder ``fd`` holding ``data``, fsynced, with
    :data:`~memory_core.atomic.DEFAULT_MODE`; its name (a dot first: never listed, A-5)."""
    hint = name.encode("utf-8", "surrogateescape")[:80].decode("utf-8", "ignore")
    temp = f".{hint}.{secrets.token_hex(6)}.tmp"
    handle = os.open(temp, _WRITE_FLAGS, DEFAULT_MODE, dir_fd=fd)
    try:
        with os.fdopen(handle, "wb") as written:
            written.write(data)
            written.flush()
            os.fchmod(written.fileno(), DEFAULT_MODE)
            os.fsync(written.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=fd)
        raise
    return temp
