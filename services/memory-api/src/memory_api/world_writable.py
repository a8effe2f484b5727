"""Token sources every account on the machine may write (A-10a): never trusted; nor token
sources below a folder another account owns or may write (:func:`movable_by_others`).

A token file, the token folder or ``MEMORY_API_TOKENS_FILE`` with the "other" write bit lets
anyone on the machine add a token of their own. Two cases are told apart, for what the message
tells the operator to do (both still fail closed):

* a read-only mount: nobody writes it whatever its mode (a Kubernetes Secret's volume is
  ``1777``), so it is trusted;
* a disk that keeps no permission bits (exFAT, FAT, WSL's drvfs, some Windows bind mounts show
  every file as ``0777``, and ``chmod`` either fails or changes nothing): ``chmod o-w`` does
  nothing there, so the message says to move the data dir to a disk that keeps modes, or to
  give the tokens in ``MEMORY_API_TOKENS`` / a ``MEMORY_API_TOKENS_FILE`` on such a disk.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

from memory_core.account_access import (
    ACL_WRITE,
    acl_grants,
    own_group,
)
from memory_core.mount_table import mount_of
from memory_core.read_only_mounts import on_read_only_mount

__all__ = [
    "keeps_modes",
    "movable_by_others",
    "open_to_everyone",
    "writable_by_everyone",
]

MODELESS_TYPES = frozenset({"vfat", "msdos", "exfat", "fat", "drvfs", "fuse.exfat"})
"""File system types (the mount table's) that keep no permission bits."""
MOUNT_TABLE = "/proc/self/mountinfo"

_kept: dict[int, bool] = {}
"""Whether a device keeps modes, by ``st_dev``: asked once per disk, not per request."""


def open_to_everyone(path: str, mode: int) -> bool:
    """Whether every account may write the file or folder at ``path`` (whose mode is ``mode``):
    its "other" write bit, unless it lies on a read-only filesystem (a Kubernetes Secret's
    volume is ``1777`` but mounted read-only: nobody writes it). Never raises: a path whose
    mount cannot be asked counts as writable (never trusted on a guess)."""
    if not mode & stat.S_IWOTH:
        return False
    return not on_read_only_mount(path)


def movable_by_others(path: str) -> tuple[str, str] | None:
    """The folder above ``path`` through which another account could move ``path`` away or put
    something of its own in its place, and why (not naming the folder), or None.

    Each folder the kernel walks to reach ``path`` is judged, symlinks followed one at a time
    as the kernel follows them (:func:`_walked`: a link's own folder, then its target's
    folders as written, a relative target from the link's folder, ``..`` up from the folder a
    link led to; ``path`` itself followed too, as ``open`` does), as the kernel lets a rename
    in it (:func:`_why_movable`): it is safe only when its owner is root or this process's
    user (a folder's owner may rename any entry of it, sticky or not) and no one else may write
    it (the "other" write bit, the group one unless its group is this user's own, an ACL
    entry: :mod:`memory_core.account_access`), or it is sticky and the entry on the way
    belongs to root or this process's user (then only they may move it; an absent one anyone
    may make). A folder on a read-only mount is safe whatever its mode.
    ``path`` itself is not judged (its own mode is its caller's rule). Never raises: a missing
    entry is judged by the folder it would be in (where anyone could make it); one that cannot
    be looked at, a link that cannot be read, a loop or more than :data:`MAX_LINKS` links are
    returned as such (the reason then starts "cannot be looked at"; never trusted on a guess).
    A path without symlinks costs one ``lstat`` per part, ``/`` included.

    A token folder whose data dir every account may write was renamed away by another account,
    and a loopback service then took "no token folder" for the open mode (A-10a); a sticky
    ``1777`` folder owned by another account let that account do the same; a token file linked
    through a link in a folder every account may write was trusted, as only the path as written
    and its real path were judged."""
    start = path if path.startswith(os.sep) else f"{os.getcwd()}{os.sep}{path}"  # noqa: PTH109
    try:
        return _walked(start)
    except OSError as error:
        return error.filename, f"cannot be looked at ({error.strerror})"


MAX_LINKS = 40
"""Symlinks the kernel follows on one walk of a path before it answers ELOOP (``MAXSYMLINKS``)."""


def _walked(path: str) -> tuple[str, str] | None:
    """:func:`movable_by_others` of the absolute ``path``; raises OSError (with its
    ``filename``) for an entry that cannot be looked at, a link that cannot be read, or one
    link too many."""
    folders = [(os.sep, os.lstat(os.sep))]  # the real folders from / to where the walk is
    me = os.geteuid()
    names = path.split(os.sep)[::-1]  # noqa: PTH206 - the names still to walk, next one last
    links = 0
    while names:
        name = names.pop()
        if name in {"", "."}:
            continue
        if name == "..":
            if len(folders) > 1:  # / is its own parent
                folders.pop()
            continue
        folder, info = folders[-1]
        child = f"{folder}{name}" if folder == os.sep else f"{folder}{os.sep}{name}"
        try:
            found: os.stat_result | None = os.lstat(child)
        except FileNotFoundError:  # whoever may make it is judged by its folder
            found = None
        why = _why_movable(folder, info, found, me)
        if why is not None:
            return folder, why
        if found is None:
            return None
        if stat.S_ISLNK(found.st_mode):
            links += 1
            if links > MAX_LINKS:
                raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), child)
            target = os.readlink(child)  # noqa: PTH115
            if target.startswith(os.sep):
                del folders[1:]
            names += target.split(os.sep)[::-1]  # noqa: PTH206
        elif stat.S_ISDIR(found.st_mode):
            folders.append((child, found))
        elif names:
            return None  # ENOTDIR: the kernel goes no further, nor reaches anything below
    return None


def _why_movable(
    folder: str, info: os.stat_result, child: os.stat_result | None, me: int
) -> str | None:
    """Why an account other than root and this process's user (``me``, its effective uid) may
    rename the entry ``child`` (its ``lstat``; None: absent) in ``folder`` (whose ``stat`` is
    ``info``), with the fix; None when none may."""
    mode = info.st_mode
    owned = info.st_uid in (0, me)
    others = bool(mode & stat.S_IWOTH)
    # the group's members and an ACL's entries are read only when the "other" bit leaves the
    # answer open
    granted = None if others else acl_grants(folder, info, ACL_WRITE)
    group = granted is not None and granted.group and not own_group(info.st_gid)
    named = granted.named if granted is not None else ()
    if owned and not (others or group or named):
        return None
    sticky = bool(mode & stat.S_ISVTX)
    if owned and sticky and child is not None and child.st_uid in (0, me):
        return None  # only an entry's owner, and the folder's, may move it
    if on_read_only_mount(folder):
        return None  # nobody renames anything there
    said = f"mode {stat.S_IMODE(mode):04o}{'' if sticky else ', no sticky bit'}"
    if not owned:
        return (
            f"belongs to another account (uid {info.st_uid}; {said}), which may rename what "
            "lies in it whatever its mode (chown it to root or the service's user, or move the "
            "data dir, MEMORY_API_DATA_DIR, out of it): that account could move what lies below "
            "it away or put their own in its place"
        )
    if sticky and child is not None:  # the entry is another account's: only it may move it
        return (
            f"is sticky ({said}) but holds the entry on the way as another account's (uid "
            f"{child.st_uid}), which may move it away or put their own in its place (chown "
            "that entry to root or the service's user, or move the data dir, "
            "MEMORY_API_DATA_DIR, out of it)"
        )
    if others:
        fix = (
            "chmod o-w it"
            if keeps_modes(folder)
            else "its disk keeps no permission bits, so chmod changes nothing there: "
            "move the data dir (MEMORY_API_DATA_DIR) to a disk that keeps them"
        )
        return (
            f"every account may write ({said}; {fix}): anyone on this machine could move what "
            "lies below it away or put their own in its place"
        )
    if named:
        who, fix = named[0]
        return (
            f"{who}, may write it ({said}; {fix}): it could move what lies below it away or put "
            "its own in its place"
        )
    return (
        f"the accounts of its group (gid {info.st_gid}) may write ({said}; chmod g-w it): any "
        "of them could move what lies below it away or put their own in its place"
    )


def writable_by_everyone(path: str, mode: int) -> str:
    """Why the file or folder at ``path`` (mode ``mode``), which every account may write, is
    not trusted, and what to do: ``chmod o-w`` on a disk that keeps modes; on one that keeps
    none (:func:`keeps_modes`), where that does nothing, move the data dir to a disk that
    keeps them or give the tokens in the environment."""
    said = (
        f"can be written by every account (mode {stat.S_IMODE(mode):04o}): anyone on this "
        "machine could make a token of their own"
    )
    if keeps_modes(path):
        return f"{said} (chmod o-w it)"
    return (
        f"{said}, and its disk keeps no permission bits (exFAT, FAT, WSL drvfs, a Windows bind "
        "mount: chmod changes nothing there): move the data dir (MEMORY_API_DATA_DIR) to a disk "
        "that keeps them, or give the tokens in MEMORY_API_TOKENS or a MEMORY_API_TOKENS_FILE "
        "on such a disk"
    )


def keeps_modes(path: str) -> bool:
    """Whether the disk holding ``path`` (a file or folder) keeps permission bits.

    Asked by making an empty file next to it (in ``path`` itself for a folder), ``chmod 0600``
    and reading the mode back, the file removed at once; where no file can be made there, by
    the file system type in the mount table (:data:`MODELESS_TYPES`). True when neither can
    tell: the message then says ``chmod o-w``, the usual fix. Cached per device (``st_dev``).
    Never raises."""
    try:
        device = os.stat(path).st_dev  # noqa: PTH116 - a path string, as the callers have
    except OSError:
        return True
    if device not in _kept:
        folder = path if os.path.isdir(path) else os.path.dirname(path) or "."  # noqa: PTH112, PTH120
        probed = _probe(folder)
        _kept[device] = probed if probed is not None else _type_keeps_modes(path)
    return _kept[device]


def _probe(folder: str) -> bool | None:
    """Whether a file made ``0600`` in ``folder`` shows as such; None when none can be made."""
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".memory-api-probe.", suffix=".tmp")
    except OSError:
        return None
    try:
        try:
            os.fchmod(fd, 0o600)
        except PermissionError:  # the kernel's FAT and exFAT refuse a mode they cannot keep
            return False
        return stat.S_IMODE(os.fstat(fd).st_mode) & 0o077 == 0
    except OSError:
        return None
    finally:
        os.close(fd)
        Path(name).unlink(missing_ok=True)


def _type_keeps_modes(path: str) -> bool:
    """Whether the mount holding ``path`` (:func:`~memory_core.mount_table.mount_of`) has a type
    other than :data:`MODELESS_TYPES` (WSL's drvfs shows as ``9p`` with ``aname=drvfs``)."""
    try:
        with open(MOUNT_TABLE, encoding="utf-8", errors="surrogateescape", newline="") as mounts:  # noqa: PTH123
            table = mounts.read()  # newline="": a carriage return in a mount point ends no line
        found = mount_of(table, os.path.realpath(path), os.stat(path).st_dev)  # noqa: PTH116
    except OSError:
        return True
    fs_type, options = found or ("", "")
    return not (fs_type in MODELESS_TYPES or (fs_type == "9p" and "aname=drvfs" in options))
