"""Which files and folders a folder holds, by device and inode, for the write guard (P-3).

Two of the guard's questions have no answer in a path: which other names a hard-linked file
has, and (without the kernel's mount table) whether a folder is a part of the memory root
shown elsewhere by a bind mount. Both are answered by the memory root's own entries: a file
with another name is a danger only when one of its names lies in the memory root (or the
Session records), which then holds its inode; a bind mount shows the very folder (or file) it
mounts, same device and inode. So the guard reads the inodes of the folder once per decision
(:func:`inodes_in`, kept by :class:`harness_memory.mounts.MountTable`) and asks each path.

The memory root is small (a few scopes of Markdown files); the scan is capped at
:data:`NAMES_CAP` entries, counted, never timed. Past the cap, or when any folder in it cannot
be read, the answer is None: the guard then refuses as if every inode were in it (a read error
never widens access).
"""

from __future__ import annotations

import os

__all__ = ["NAMES_CAP", "inodes_in"]

NAMES_CAP = 50_000
"""The most entries one scan reads: tens of milliseconds; a memory root holds far fewer."""


def inodes_in(folder: str) -> frozenset[tuple[int, int]] | None:
    """``(st_dev, st_ino)`` of ``folder`` and of every file and folder below it (symlinks not
    followed, each link's own inode), read with ``os.scandir``. Empty when ``folder`` does not
    exist (a missing folder holds nothing); None when more than :data:`NAMES_CAP` entries are
    met or a folder in it cannot be read (``EACCES``, ``EIO`` …): then which inodes it holds
    is unknown."""
    try:
        top = os.stat(folder)  # noqa: PTH116 (a str path, as scandir gives them)
    except FileNotFoundError:
        return frozenset()
    except OSError:
        return None
    found = {(top.st_dev, top.st_ino)}
    pending = [folder]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    if len(found) > NAMES_CAP:
                        return None
                    status = entry.stat(follow_symlinks=False)
                    found.add((status.st_dev, status.st_ino))
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except FileNotFoundError:
            continue  # removed while read: it holds nothing now
        except OSError:
            return None
    return frozenset(found)
