"""Whether another account could move a path away, or put its own in its place, through a
folder on the way to it (A-10a, P-3): :func:`movable_by_others`.

The service judges its token sources with it (``memory_api.world_writable``), the plugin the
state dir whose Session records the write guard trusts (``harness_memory.state_trust``); each
words the fixes its messages give in a :class:`Fixes`.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from typing import NamedTuple

from memory_core.account_access import ACL_WRITE, acl_grants, own_group
from memory_core.read_only_mounts import on_read_only_mount

__all__ = ["MAX_LINKS", "Fixes", "movable_by_others"]


def _keeps_modes(_path: str) -> bool:
    """Every disk keeps permission bits, as far as a caller that cannot ask knows."""
    return True


class Fixes(NamedTuple):
    """How :func:`movable_by_others`'s reasons word their fixes: ``user``, the account besides
    root that may own the folders ("the service's user"); ``moved``, what to move out of a
    folder another account may rename in ("the data dir, MEMORY_API_DATA_DIR"), and
    ``moved_said`` the same in the form "the data dir (MEMORY_API_DATA_DIR)"; ``keeps_modes``
    whether the disk holding a folder keeps permission bits (when not, ``chmod o-w`` changes
    nothing and the reason says to move ``moved_said`` instead). A named tuple: the guard's
    hook process loads no ``dataclasses`` (H-5)."""

    user: str
    moved: str
    moved_said: str
    keeps_modes: Callable[[str], bool] = _keeps_modes


def movable_by_others(path: str, fixes: Fixes) -> tuple[str, str] | None:
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
    ``fixes`` words what each message tells the user to do (:class:`Fixes`).
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
        return _walked(start, fixes)
    except OSError as error:
        return error.filename, f"cannot be looked at ({error.strerror})"


MAX_LINKS = 40
"""Symlinks the kernel follows on one walk of a path before it answers ELOOP (``MAXSYMLINKS``)."""


def _walked(path: str, fixes: Fixes) -> tuple[str, str] | None:
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
        why = _why_movable(folder, info, found, me, fixes)
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
    folder: str, info: os.stat_result, child: os.stat_result | None, me: int, fixes: Fixes
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
            f"lies in it whatever its mode (chown it to root or {fixes.user}, or move "
            f"{fixes.moved} out of it): that account could move what lies below "
            "it away or put their own in its place"
        )
    if sticky and child is not None:  # the entry is another account's: only it may move it
        return (
            f"is sticky ({said}) but holds the entry on the way as another account's (uid "
            f"{child.st_uid}), which may move it away or put their own in its place (chown "
            f"that entry to root or {fixes.user}, or move {fixes.moved} out of it)"
        )
    if others:
        fix = (
            "chmod o-w it"
            if fixes.keeps_modes(folder)
            else "its disk keeps no permission bits, so chmod changes nothing there: "
            f"move {fixes.moved_said} to a disk that keeps them"
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
