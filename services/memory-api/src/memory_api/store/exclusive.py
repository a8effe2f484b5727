"""Create a file only if it does not exist yet, atomically: never a torn file, never an overwrite.

Used where two writers must not clobber each other and the loser should simply learn that the
name is taken (a token name, a demo file copied next to an agent's own notes). The bytes go to
a hidden temp file beside the target, fsynced (:func:`memory_core.atomic.write_temp_beside`, the
one crash-safe write), which is then *hard-linked* to the target name: ``os.link`` fails with
``FileExistsError`` when the name exists, which is the atomic "create if absent" that
``os.replace`` (which always overwrites) cannot give.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from memory_core.atomic import DEFAULT_MODE, fsync_directory, write_temp_beside

__all__ = ["create_new_bytes"]


def create_new_bytes(
    path: Path, data: bytes, *, mode: int = DEFAULT_MODE, sync_parent: bool = True
) -> bool:
    """Write ``data`` to ``path`` unless ``path`` exists; return True when this call created it.

    Readers see no file or the whole file. ``sync_parent=False`` leaves the folder's fsync to
    the caller (one :func:`~memory_core.atomic.fsync_directory` after creating many files).
    Raises ``OSError`` when the folder is missing or not writable (no temp file is left
    behind). Blocking: call it through ``asyncio.to_thread``.
    """
    if os.path.lexists(path):  # a symlink, dangling or not, takes the name too
        return False  # the common "already there" case, without writing a temp file
    temp = write_temp_beside(path, data, mode=mode)
    try:
        os.link(temp, path)
    except FileExistsError:
        return False
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
    if sync_parent:
        fsync_directory(path.parent)
    return True
