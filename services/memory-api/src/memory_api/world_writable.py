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

import stat

from memory_core.kept_modes import keeps_modes
from memory_core.movable_paths import Fixes
from memory_core.movable_paths import movable_by_others as _movable_by_others
from memory_core.read_only_mounts import on_read_only_mount

__all__ = [
    "DATA_DIR_FIXES",
    "keeps_modes",
    "movable_by_others",
    "open_to_everyone",
    "writable_by_everyone",
]


def open_to_everyone(path: str, mode: int) -> bool:
    """Whether every account may write the file or folder at ``path`` (whose mode is ``mode``):
    its "other" write bit, unless it lies on a read-only filesystem (a Kubernetes Secret's
    volume is ``1777`` but mounted read-only: nobody writes it). Never raises: a path whose
    mount cannot be asked counts as writable (never trusted on a guess)."""
    if not mode & stat.S_IWOTH:
        return False
    return not on_read_only_mount(path)


def movable_by_others(path: str) -> tuple[str, str] | None:
    """:func:`memory_core.movable_paths.movable_by_others` of ``path``, its reasons telling the
    operator to chown to the service's user or to move the data dir (:data:`DATA_DIR_FIXES`)."""
    return _movable_by_others(path, DATA_DIR_FIXES)


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


DATA_DIR_FIXES = Fixes(
    user="the service's user",
    moved="the data dir, MEMORY_API_DATA_DIR",
    moved_said="the data dir (MEMORY_API_DATA_DIR)",
    keeps_modes=keeps_modes,
)
"""How :func:`movable_by_others`'s reasons word their fixes for the service's token sources."""
