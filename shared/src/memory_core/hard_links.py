"""A memory file with a name outside its own folder is never read (A-7).

Anyone who may write a scope can ``ln /some/other/file scope/notes.md``: no symlink on the way,
a regular file by every ``stat``, yet its content is that other file's, perhaps from outside the
memory root, which a service running with more access than the agent would serve, or copy into
the memory file it rewrites. :func:`named_elsewhere` is the one rule, used by every reader of a
memory file (the service's reads, and :func:`memory_core.file_edit.edit_file`'s read behind a
delete's pruning, a restore, a sync push and an import). Names in its own folder do not count:
the atomic writes link a hidden temp file beside the file for a moment, so a file whose every
name is in its folder is read.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from memory_core.errors import NotRegularFileError

__all__ = ["HARD_LINKED", "NamedElsewhereError", "check_named_here", "named_elsewhere"]

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
    whatever its name leads to now. A folder that cannot be listed counts as a name elsewhere:
    a read error never widens access. Never raises ``OSError``."""
    if info.st_nlink <= 1:
        return False
    try:
        listed = os.scandir(Path(path).parent) if folder is None else os.scandir(folder)
        with listed as entries:
            here = sum(1 for entry in entries if entry.inode() == info.st_ino)
    except OSError:
        return True
    return here < info.st_nlink


def check_named_here(path: str | os.PathLike[str], info: os.stat_result) -> None:
    """Raise :class:`NamedElsewhereError` when the regular file at ``path`` has a name outside
    its folder; ``info`` is the ``fstat`` of the descriptor its reader opened, so a hard link
    made after a listing is still seen (:func:`named_elsewhere`)."""
    if named_elsewhere(path, info):
        raise NamedElsewhereError(errno.EPERM, HARD_LINKED, os.fspath(path))
