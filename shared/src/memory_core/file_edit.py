"""Apply a pure edit to a file that others write at the same time, losing none of their writes.

The one rule for every file the service rewrites while someone else may write it (Q-2, Q-2a,
A-6): the index pruning of a delete, the template placeholder insert in ``agent.json``, the
import. An agent edits ``MEMORY.md`` with its own file tools and takes no lock, so a lock alone
cannot protect it; :func:`edit_file` instead *detects* a write that slipped in and re-applies
the edit to the new content::

    edited = edit_file(index_path, lambda raw: prune(raw), merge=merge_lines)

One attempt (blocking, on the local filesystem):

1. read the file (``before``), compute ``after = edit(before)``; ``None`` or no change: done;
2. write ``after`` to a hidden temp file beside it (fsync), then **swap** the two names in one
   step (:func:`memory_core.swap.exchange`, Linux ``renameat2(RENAME_EXCHANGE)``): ``after``
   now stands at the path and the file that stood there is in our hands under the temp name;
3. wait until no one holds that swapped-out file open for writing (a kernel lease tells,
   :func:`memory_core.swap.read_when_idle`) and read it. Equal to ``before``: nobody wrote
   between our read and the swap, nor through a descriptor opened before it: done, the
   swapped-out file is unlinked;
4. otherwise somebody's write is in it: **swap back** (their file stands at the path again,
   exactly as they left it), then look at our copy, which stood at the path for those
   microseconds: whatever was appended to it is appended to the path (``O_APPEND``, as an agent
   would), a whole rewrite of it is merged in with ``merge`` (or kept aside, see below); then
   start over from a fresh read, so the edit is re-applied to the new content.

The edit never unlinks a file but its own temp copy and the file it swapped out and read in
step 3. A file another program moved to the path while the edit's copy stood there (``mv
idx.md MEMORY.md`` right after the swap) is taken to the temp name by the swap back: it goes
back to the path when that name is free, else it is kept beside as
``<name>.not-edited-<random>`` and :class:`~memory_core.errors.FileKeptChanging` says where.

After :data:`EDIT_ATTEMPTS` attempts that each met a concurrent write, or when a writer keeps
the file open longer than :data:`IDLE_TIMEOUT`, :class:`~memory_core.errors.FileKeptChanging`
is raised (the service answers 409); the file then holds everyone's writes, without the edit.

What is covered, on a local Linux filesystem with ``renameat2`` exchange and leases (ext4, xfs,
btrfs, tmpfs):

- an append (open, append, close) or a whole-file rewrite (write to the path, or write a temp
  file and rename it over, as editors and agent file tools do) that takes effect *before* the
  edit's replacement: re-applied to, never overwritten;
- a write through a descriptor opened before the replacement that lands after it (waited for);
- an append to the edited copy while it stands in place during a swap back (carried over).

What is not covered, by any file-based protocol:

- a writer that read the file *before* the edit and writes its whole stale copy back *after*
  the edit took effect: that is its own lost update (Claude Code's Write refuses a file changed
  since it was read; editors warn). For the index it can only bring back the deleted file's
  links, which lint then reports as dangling (T-5);
- an ``open()`` that looked the path up before the swap but is held up for longer than the
  idle check before it completes, or a descriptor kept open for writing for longer than
  :data:`IDLE_TIMEOUT` (the edit gives up with :class:`FileKeptChanging` then, losing nothing);
- a *whole* rewrite of the edited copy in the microseconds it stands in place during a swap
  back when no ``merge`` is given: the copy is kept beside the file as a hidden
  ``.<name>.kept-<random>`` and an error is logged.

Where there is no exchange (another OS, NFS, some FUSE filesystems) the file is re-read and
compared just before a plain ``rename`` (the window shrinks to microseconds but is not closed);
where leases are refused (another user's file without ``CAP_LEASE``) a short fixed wait stands
in for the idle check. Both are logged once.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import stat
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from memory_core.atomic import fsync_directory, write_temp_beside
from memory_core.errors import FileKeptChanging
from memory_core.hard_links import NamedElsewhereError
from memory_core.read_only_mounts import on_read_only_mount
from memory_core.said_once import first_time
from memory_core.swap import (
    IDLE_GRACE,
    IdleRead,
    exchange,
    hold_exclusive_lease,
    read_when_idle,
    release_lease,
)

__all__ = [
    "EDIT_ATTEMPTS",
    "IDLE_TIMEOUT",
    "Edit",
    "Edited",
    "FileId",
    "FileTooLarge",
    "Merge",
    "NotWritableHere",
    "edit_file",
    "identity",
]

logger = logging.getLogger(__name__)

EDIT_ATTEMPTS = 20
"""Attempts of read-edit-swap before :class:`FileKeptChanging` while writes keep slipping in."""
IDLE_TIMEOUT = 2.0
"""Seconds to wait for writers to close a swapped-out file before giving up on the edit."""
DEFAULT_READ_CAP = 16 * 1024 * 1024
"""Bytes of a file :func:`edit_file` reads at most by default."""

Edit = Callable[[bytes], bytes | None]
"""A pure edit: the file's bytes in, the new bytes out, or ``None`` to leave the file alone."""
Merge = Callable[[bytes, bytes, bytes], bytes]
"""``merge(base, a, b)``: two whole-file edits of ``base`` combined, ``b`` winning conflicts."""


class FileTooLarge(OSError):
    """The file is longer than the read cap; it is left alone rather than edited from a part."""


class NotWritableHere(PermissionError):
    """The file may not be rewritten by this process (``errno`` ``EACCES``; ``strerror`` says
    why, fit for a ``detail``): its permission bits refuse this account a write, though its
    folder would let a replacement be renamed over it, or the replacement could not keep its
    owner and group while the owner could no longer write it (an agent's ``MEMORY.md`` under its
    own uid on a volume shared with a service running as another). The file is unchanged."""


def _check_writable(path: Path) -> None:
    """Raise :class:`NotWritableHere` when this process may not write ``path`` itself: the
    edit replaces the file by a rename in its folder, which the folder's permission allows
    even for a file whose own mode refuses this account (``0644`` of another uid). A file on a
    file system mounted read-only raises ``OSError`` ``EROFS`` instead, saying so: no mode
    would let anyone write it there, so the detail must not send an operator to ``chmod``.
    A file gone since the edit read it, or a symlink now (the read never follows one: the file
    read was moved away, a link put in its place), raises ``FileNotFoundError``: changed, not
    refused (the edit reads it again, never judging a link's target's mode)."""
    if os.access(path, os.W_OK) and not path.is_symlink():
        return
    if not path.exists() or path.is_symlink():
        raise FileNotFoundError(errno.ENOENT, "moved or removed since it was read", path.name)
    if on_read_only_mount(path):
        raise OSError(
            errno.EROFS,
            "Read-only file system: the file system holding it is mounted read-only",
            path.name,
        )
    raise NotWritableHere(
        errno.EACCES,
        "Permission denied: its mode does not let the service's account write it",
        path.name,
    )


def _keep_owner(fd: int, name: str, read: IdleRead) -> None:
    """Give the replacement open as ``fd`` the owner and group of the file it replaces (``read``).

    Without that, a rewrite by a service running as another account than the file's owner
    would hand the file to the service, and the owner (the agent writing its index) could no
    longer write it. Where ``fchown`` is refused (no ``CAP_CHOWN``), the group is kept if this
    account is in it, and the rewrite goes ahead only while its owner can still write it
    through the group or other bits; else :class:`NotWritableHere` is raised.
    """
    if read.uid < 0:
        return
    info = os.fstat(fd)
    if (info.st_uid, info.st_gid) == (read.uid, read.gid):
        return
    with contextlib.suppress(PermissionError):
        os.fchown(fd, read.uid, read.gid)
        return
    with contextlib.suppress(PermissionError):
        os.fchown(fd, -1, read.gid)
    kept_group = os.fstat(fd).st_gid == read.gid
    if info.st_uid == read.uid or read.mode & stat.S_IWOTH:
        return
    if kept_group and read.mode & stat.S_IWGRP:
        return
    raise NotWritableHere(
        errno.EACCES,
        f"Permission denied: it belongs to another account (uid {read.uid}), which a rewrite by "
        "the service would take it from (the service cannot give it back its owner)",
        name,
    )


FileId = tuple[int, int]
"""A file's identity: its ``(st_dev, st_ino)``."""


@dataclass(frozen=True)
class Edited:
    """A successful edit: ``before``, the bytes it was applied to, and ``after``, its result;
    ``written``, the identity (``st_dev``, ``st_ino``) of the file the edit put at the path,
    so a caller can tell whether a name still leads to it (V-2)."""

    before: bytes
    after: bytes
    written: FileId | None = field(default=None, compare=False)


@dataclass(frozen=True)
class _Installed:
    """What :func:`_replace_if_unchanged` put at the path: the bytes appended meanwhile and
    carried over (``tail``), and the file's identity (``written``)."""

    tail: bytes
    written: FileId


def _warn_once(key: str, message: str, *args: object) -> None:
    if first_time((__name__, key)):
        logger.warning(message, *args)


def _read(path: Path, cap: int, *, memory: bool = False) -> IdleRead | None:
    """Read ``path`` once no one writes it (its bytes, permission bits, owner), or None when it is
    missing. A ``memory`` file with a name outside its folder raises
    :class:`~memory_core.hard_links.NamedElsewhereError` (A-7): at the first read of an edit,
    and at every re-read of the file in its race with another writer.

    Waiting for writers to close it means a half-done rewrite (truncated, not yet written) is
    never taken for the file's content. Raises :class:`FileKeptChanging` when a writer keeps it
    open for longer than :data:`IDLE_TIMEOUT`, :class:`FileTooLarge` over ``cap`` bytes.
    """
    try:
        found = read_when_idle(path, cap, IDLE_TIMEOUT, memory=memory)
    except FileNotFoundError:
        return None
    if not found.idle:
        raise FileKeptChanging(
            f"{path.name} is held open for writing by another program; try again later"
        )
    if len(found.data) > cap:
        raise FileTooLarge(f"{path.name!r} is larger than {cap} bytes")
    return found


def _append(path: Path, tail: bytes) -> None:
    """Append ``tail`` to ``path`` the way an agent does (one ``O_APPEND`` write), fsynced."""
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.write(fd, tail)
        os.fsync(fd)
    finally:
        os.close(fd)


def _keep_aside(path: Path, temp: Path) -> None:
    """Keep a copy that could not be merged beside the file (hidden) and say where it is."""
    fd, kept = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.kept-")
    os.close(fd)
    temp.replace(kept)
    logger.error(
        "%s was rewritten by two writers at once while an edit was undone; one version stays "
        "at the path, the other is kept as %s",
        path,
        kept,
    )


def _carry_late_writes(
    path: Path,
    temp: Path,
    installed: bytes,
    cap: int,
    merge: Merge | None,
    depth: int,
    *,
    memory: bool,
) -> None:
    """Bring writes that landed on our copy (now at ``temp``) over to the file at ``path``."""
    late = read_when_idle(temp, cap, IDLE_TIMEOUT).data
    if late == installed:
        return
    if late.startswith(installed):
        with contextlib.suppress(FileNotFoundError):  # removed since: the removal is the latest
            _append(path, late[len(installed) :])
        return
    try:
        current = _read(path, cap, memory=memory)
    except NamedElsewhereError:  # hard-linked meanwhile: never merged with, ours kept beside
        _keep_aside(path, temp)
        return
    if current is None:
        return
    if merge is None or depth > 0:
        _keep_aside(path, temp)
        return
    merged = merge(installed, late, current.data)
    again = _replace_if_unchanged(
        path, current.data, merged, current, cap, merge, depth + 1, memory=memory
    )
    if again is None:
        _keep_aside(path, temp)


def _replace_plainly(path: Path, temp: Path, expected: bytes, cap: int, *, memory: bool) -> bool:
    """No exchange here: re-read, and rename over only when nothing changed (a tiny window)."""
    _warn_once("exchange", "no atomic exchange on %s; concurrent writes have a small window", path)
    current = _read(path, cap, memory=memory)
    if current is None or current.data != expected:
        return False
    temp.replace(path)
    return True


def identity(path: Path) -> FileId | None:
    """The identity (``st_dev``, ``st_ino``) of what stands at ``path``, never followed (the
    file an edit put there, :attr:`Edited.written`, or another); None when nothing does.
    Raises ``OSError`` other than ``FileNotFoundError`` (the path cannot be looked at)."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    return info.st_dev, info.st_ino


def _rescue(path: Path, temp: Path) -> Path | None:
    """Give back a file that is not the edit's own but stands at its ``temp`` name (another
    program moved it to ``path`` while the edit's swap back was under way, which took it
    there): at ``path`` again when that name is free, else kept beside it as
    ``<name>.not-edited-<random>`` (returned, and logged; a folder stays at ``temp``). Never
    unlinked (Q-2a)."""
    if not os.path.lexists(path):
        with contextlib.suppress(OSError):
            os.link(temp, path, follow_symlinks=False)
            temp.unlink()
            return None
    fd, kept = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.not-edited-")
    os.close(fd)
    try:
        temp.replace(kept)
    except OSError:  # a folder cannot replace the file made for its name: left where it is
        Path(kept).unlink()
        kept = str(temp)
    logger.error(  # the real folder: a held one's /proc/self/fd/<n> is gone once it is let go
        "another program put its own %s at the path while an edit was undone; the edit took "
        "it aside, and it is kept as %s in %s (the path holds another file now)",
        path.name,
        Path(kept).name,
        os.path.realpath(path.parent),
    )
    return Path(kept)


def _swapped_out(path: Path, temp: Path, cap: int) -> IdleRead | None:
    """Read what the exchange took out of ``path`` (now at ``temp``); None: not a regular file."""
    try:
        found = read_when_idle(temp, cap, IDLE_TIMEOUT)
    except OSError:  # a folder, FIFO or symlink put there (or gone): theirs, not ours to judge
        return None
    if not found.leased:
        _warn_once("lease", "no file leases on %s; a late writer is waited for briefly", path)
    return found


def _replace_if_unchanged(
    path: Path,
    expected: bytes,
    new: bytes,
    read: IdleRead,
    cap: int,
    merge: Merge | None,
    depth: int = 0,
    *,
    memory: bool = True,
) -> _Installed | None:
    """Put ``new`` at ``path`` if it still holds ``expected``, or ``expected`` plus appends.

    Returns what was installed (:class:`_Installed`: the bytes that were appended to
    ``expected`` meanwhile and have been appended after ``new``, ``b""`` for none, and the
    file's identity), or None when something else changed: then their file stands at the path
    again, with every write. Raises :class:`FileKeptChanging` when a writer holds the
    replaced file open for longer than :data:`IDLE_TIMEOUT` (their file is put back first), or
    when the swap back brought another program's file to the temp name (one it moved to the
    path meanwhile): the edit never unlinks a file but its own temp file and the one it
    swapped out and read; that file goes back to the path when the name is free, else it is
    kept beside (:func:`_rescue`) and the error says where.
    """
    temp = write_temp_beside(path, new, mode=read.mode)
    fd = os.open(temp, os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC)
    info = os.fstat(fd)
    ours: FileId = (info.st_dev, info.st_ino)
    disposable = {ours}  # what the temp name may hold when it is unlinked
    # Until the appends are carried over, nobody may read our copy (a rewriter would take it,
    # without them, for the file) or write it: their open() waits for the lease to go.
    leased = hold_exclusive_lease(fd)
    try:
        _keep_owner(fd, path.name, read)
        try:
            if not exchange(temp, path):
                plain = _replace_plainly(path, temp, expected, cap, memory=memory)
                return _Installed(b"", ours) if plain else None
        except FileNotFoundError:
            return None  # the file was removed meanwhile: the caller reads again
        swapped = identity(temp)
        found = _swapped_out(path, temp, cap)
        if found is not None and found.idle and found.data.startswith(expected):
            if swapped is not None and identity(temp) == swapped:
                disposable.add(swapped)  # the file replaced, as read: unlinked as a rename would
            tail = found.data[len(expected) :]
            if tail:  # only appended to, the agent's usual write: carry it over
                os.write(fd, tail)
                os.fsync(fd)
            return _Installed(tail, ours)
        try:
            exchange(temp, path)  # theirs back at the path, exactly as they left it
        except FileNotFoundError:
            return None  # our copy removed after the swap: theirs goes back to the path (finally)
        if identity(temp) != ours:  # moved to the path after the swap: never ours to carry
            return None
        waiting = leased and release_lease(fd)
        leased = False
        os.close(fd)  # ours open for writing would look like a writer still at work
        fd = -1
        if waiting:  # someone opened our copy while it stood there: let them finish first
            time.sleep(IDLE_GRACE)
        _carry_late_writes(path, temp, new, cap, merge, depth, memory=memory)
        if found is not None and not found.idle:
            raise FileKeptChanging(
                f"{path.name} is held open for writing by another program; try again later"
            )
        return None
    finally:
        if leased:
            release_lease(fd)
        if fd >= 0:
            os.close(fd)
        kept = _dispose(path, temp, disposable)
        fsync_directory(path.parent)
        if kept is not None:
            raise FileKeptChanging(
                f"{path.name} was replaced by another program while this edit was undone; "
                f"the file it put there is kept as {kept.name} beside it, unchanged: look at "
                "it, then try again"
            )


def _dispose(path: Path, temp: Path, disposable: set[FileId]) -> Path | None:
    """Unlink the edit's ``temp`` name when it holds one of the ``disposable`` files (the
    edit's own copy, the file it swapped out and read); a file of another program found there
    is given back (:func:`_rescue`): where it is kept, or None."""
    found = identity(temp)
    if found is None:
        return None
    if found in disposable:
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()
        return None
    return _rescue(path, temp)


def edit_file(
    path: Path,
    edit: Edit,
    *,
    merge: Merge | None = None,
    read_cap: int = DEFAULT_READ_CAP,
    attempts: int = EDIT_ATTEMPTS,
    memory: bool = True,
    must_exist: bool = False,
) -> Edited | None:
    """Apply the pure ``edit`` to the file at ``path`` without losing a concurrent write.

    ``path`` must already be resolved and checked by the caller (no symlink is followed). Returns
    :class:`Edited` with the content the edit was applied to and its result, or ``None`` when the
    file is missing or ``edit`` leaves it alone. ``merge`` combines two whole-file writes in the
    rare case described in the module docstring (e.g. :func:`memory_core.line_merge.merge_lines`
    for line files; ``None`` for formats that cannot be merged by lines). The permission bits
    of the file are kept. A ``memory`` file (the default: an index, a topic file) with a name
    outside its folder, another hard link, is never read nor rewritten (A-7): its content is
    another file's, which the edit would copy into memory. ``memory=False`` is for a file an
    operator may link (``agent.json``). ``must_exist``: the caller saw the file at ``path``
    (an index a delete looked at, A-6), so a first read that finds none there means it was
    moved or removed meanwhile. Whatever ``must_exist``, a file the edit was applied to (read,
    and changed by ``edit``) that a later read finds gone was moved or removed meanwhile: it
    is never ``None`` ("no file", or "left alone"), which a caller would take for success
    with nothing written. Both raise ``FileNotFoundError`` (``ENOENT``, the file name).

    Raises :class:`~memory_core.errors.FileKeptChanging` (nothing lost, edit not applied),
    :class:`FileTooLarge` over ``read_cap`` bytes,
    :class:`~memory_core.hard_links.NamedElsewhereError` (a ``NotRegularFileError``: another
    hard link, the file unchanged), :class:`~memory_core.errors.NotRegularFileError` and
    ``OSError`` (unreadable, read-only
    folder, full disk: the file is unchanged). Blocking: call it from a worker thread.
    """
    applied = False  # the edit ran on the file read and changed it: it was there
    for _ in range(attempts):
        current = _read(path, read_cap, memory=memory)
        if current is None:
            if must_exist or applied:
                raise FileNotFoundError(
                    errno.ENOENT, "moved or removed while it was being edited", path.name
                )
            return None
        before = current.data
        after = edit(before)
        if after is None or after == before:
            return None
        applied = True
        try:
            _check_writable(path)
        except FileNotFoundError:
            continue  # moved, removed or made a link since the read: read it again
        installed = _replace_if_unchanged(
            path, before, after, current, read_cap, merge, memory=memory
        )
        if installed is None:
            continue
        tail = installed.tail
        if not tail or edit(before + tail) in (None, after + tail):
            # the appended lines needed no edit (the usual case): the file is as edited
            return Edited(before=before + tail, after=after + tail, written=installed.written)
        # the appended lines need the edit too (e.g. a new link to the deleted file): again
    raise FileKeptChanging(
        f"{path.name} kept changing while it was being edited ({attempts} attempts); "
        "it holds every write, without this edit"
    )
