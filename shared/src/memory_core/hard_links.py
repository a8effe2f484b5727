"""A memory file with a name outside its own folder is never read (A-7).

Anyone who may write a scope can ``ln /some/other/file scope/notes.md``: no symlink on the way,
a regular file by every ``stat``, yet its content is that other file's, perhaps from outside the
memory root, which a service running with more access than the agent would serve, or copy into
the memory file it rewrites. :func:`named_elsewhere` is the one rule, used by every reader of a
memory file (the service's reads, and :func:`memory_core.file_edit.edit_file`'s read behind a
delete's pruning, a restore, a sync push and an import). Names in its own folder do not count:
the atomic writes link a hidden temp file beside the file for a moment, so a file whose every
name is in its folder is read.

A file system that caches attributes (FUSE keeps them a second by libfuse's default; a network file
system) may still give the link count of that moment after the temp name is gone: with libfuse's
path-based API the file's new name is an inode of its own to the kernel, whose count the removal
of the temp name does not lower. So a count above the names found here is asked of the file
system itself before the file is refused (``statx`` with ``AT_STATX_FORCE_SYNC``, Linux): taken
as it was, a push's note just written was "named elsewhere", never read nor recorded.
"""

from __future__ import annotations

import errno
import os
import struct
import sys
from pathlib import Path

from memory_core.errors import NotRegularFileError

__all__ = [
    "HARD_LINKED",
    "NamedElsewhereError",
    "check_named_here",
    "fresh_link_count",
    "named_elsewhere",
    "statx_links",
]

HARD_LINKED = (
    "a file with other hard links, a name outside its folder (its content is another "
    "file's, perhaps from outside the memory root)"
)
"""Why a memory file with a name outside its own folder is never read (A-7, T-5b), as the
listing's refused entry, a read's 404 and a refused rewrite say it."""


class NamedElsewhereError(NotRegularFileError):
    """A memory file that has a name outside its own folder (another hard link): never read,
    like a file of another kind (A-7; :func:`named_elsewhere`). ``strerror`` is
    :data:`HARD_LINKED`, ``errno`` ``EPERM``."""


def named_elsewhere(
    path: str | os.PathLike[str], info: os.stat_result, *, folder: int | None = None
) -> bool:
    """Whether the regular file at ``path`` (``info``: its ``stat``) has a name outside its
    own folder: more hard links (``st_nlink``) than entries of that folder holding its inode
    (``d_ino`` of one listing: no ``stat`` of each). False at once for a file of one name, the
    usual case; one listing of its folder else: of ``folder``, a descriptor of that folder held
    open (``O_RDONLY``), when given, so the folder counted is the one the file was found in,
    whatever its name leads to now. A count above the names found there is asked again of the
    file system (:func:`fresh_link_count`: ``info`` may be an attribute cache's, from a moment
    an atomic write's temp name was there too); one it does not answer stands. A folder that
    cannot be listed counts as a name elsewhere: a read error never widens access. Never raises
    ``OSError``."""
    if info.st_nlink <= 1:
        return False
    try:
        listed = os.scandir(Path(path).parent) if folder is None else os.scandir(folder)
        with listed as entries:
            here = sum(1 for entry in entries if entry.inode() == info.st_ino)
    except OSError:
        return True
    if here >= info.st_nlink:
        return False
    fresh = fresh_link_count(path, info, folder=folder)  # not a cached attribute's
    return fresh is None or (fresh > 1 and here < fresh)


_AT_FDCWD = -100
_AT_SYMLINK_NOFOLLOW = 0x100
_AT_STATX_FORCE_SYNC = 0x2000
_STATX_NLINK_INO = 0x004 | 0x100
"""``STATX_NLINK | STATX_INO``: the fields asked, which an answer's ``stx_mask`` says it gave."""
_STATX_SIZE = 256
"""Bytes of Linux's ``struct statx`` (``stx_mask`` at 0, ``stx_nlink`` at 16, ``stx_ino`` at
32, the device's major and minor at 136 and 140)."""


def statx_links(answer: bytes) -> tuple[int, int, int] | None:
    """The link count, inode and device (``os.makedev``) of a ``statx`` ``answer`` (Linux's
    ``struct statx``, :data:`_STATX_SIZE` bytes); None when its ``stx_mask`` leaves out
    ``STATX_NLINK`` or ``STATX_INO`` (a file system need not fill what it was asked: the
    fields are then zero, and a count of 0 would pass a file with a name elsewhere) or the
    count is 0 (a file of no name says nothing of the one read). A read error never widens
    access (A-7)."""
    (mask,) = struct.unpack_from("=I", answer, 0)
    (nlink,) = struct.unpack_from("=I", answer, 16)
    (inode,) = struct.unpack_from("=Q", answer, 32)
    major, minor = struct.unpack_from("=II", answer, 136)
    if mask & _STATX_NLINK_INO != _STATX_NLINK_INO or nlink < 1:
        return None
    return int(nlink), int(inode), os.makedev(major, minor)


def fresh_link_count(
    path: str | os.PathLike[str], info: os.stat_result, *, folder: int | None = None
) -> int | None:
    """The link count of the file at ``path`` (``folder``: a descriptor of its folder, the
    name then read in it) as the file system says it now, not as an attribute cache kept it
    (``statx`` with ``AT_STATX_FORCE_SYNC``, following no symlink); None where that cannot be
    asked (not Linux, a C library without ``statx``, an error) or the file there is no longer
    the one ``info`` describes, or the file system's answer leaves out the count or the inode
    (:func:`statx_links`): the caller then keeps to ``info`` (a read error never widens
    access)."""
    if sys.platform != "linux":
        return None
    import ctypes  # only here: asked of a file with more links than names in its folder

    statx = getattr(ctypes.CDLL(None, use_errno=True), "statx", None)
    if statx is None:
        return None
    name = os.fsencode(os.path.basename(path) if folder is not None else path)  # noqa: PTH119
    buffer = ctypes.create_string_buffer(_STATX_SIZE)
    flags = _AT_SYMLINK_NOFOLLOW | _AT_STATX_FORCE_SYNC
    dirfd = _AT_FDCWD if folder is None else folder
    if statx(dirfd, name, flags, _STATX_NLINK_INO, buffer) != 0:
        return None
    answer = statx_links(buffer.raw)
    if answer is None:  # the file system did not say
        return None
    nlink, inode, device = answer
    if inode != info.st_ino or device != info.st_dev:
        return None
    return nlink


def check_named_here(path: str | os.PathLike[str], info: os.stat_result) -> None:
    """Raise :class:`NamedElsewhereError` when the regular file at ``path`` has a name outside
    its folder; ``info`` is the ``fstat`` of the descriptor its reader opened, so a hard link
    made after a listing is still seen (:func:`named_elsewhere`)."""
    if named_elsewhere(path, info):
        raise NamedElsewhereError(errno.EPERM, HARD_LINKED, os.fspath(path))
