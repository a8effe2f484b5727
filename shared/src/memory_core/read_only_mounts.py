"""Whether a path lies on a file system mounted read-only (the kernel's ``ST_RDONLY`` flag).

One question asked by every side: the service's edits (a memory file no mode would let anyone
write there: :mod:`memory_core.file_edit`), its token checks (a Secret's volume mounted
read-only is written by nobody, whatever its mode: :mod:`memory_core.account_access`,
``memory_api.world_writable``) and the plugin's installs (a settings file linked into the Nix
store: ``harness_memory.installers.files``, H-7). Portable: where ``statvfs`` is missing
(Windows) no path counts as on a read-only mount.
"""

from __future__ import annotations

import os

__all__ = ["on_read_only_mount"]


def on_read_only_mount(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (a file or folder that exists) lies on a file system mounted read-only;
    False when that cannot be asked (a path that is gone, no ``statvfs`` on this system), so a
    caller never takes a guess for read-only.

    >>> on_read_only_mount("/no/such/path")
    False
    """
    statvfs = getattr(os, "statvfs", None)
    if statvfs is None:
        return False
    try:
        return bool(statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False
