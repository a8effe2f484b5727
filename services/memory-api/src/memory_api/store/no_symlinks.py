"""Is a real folder still there, reached without any symlink? One ``openat2`` call (Linux ≥ 5.6).

A warm Session start (Q-4, :mod:`~memory_api.store.session_memo`) checks that the Workspace
path still resolves to itself and that the scope folder is still reached through no symlink.
``open(O_PATH)`` then ``readlink("/proc/self/fd/N")`` answers both but the ``/proc`` lookup is
its dearest part; ``openat2`` with ``RESOLVE_NO_SYMLINKS`` refuses any symlink along the path
itself (``ELOOP``), so its success alone proves it. The standard library has no ``openat2``
(Python 3.11), hence the raw system call through :mod:`ctypes`; where it is missing (another
OS, an older kernel, a seccomp filter) :data:`AVAILABLE` is false and callers keep their
``/proc`` way.
"""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Final

__all__ = ["AVAILABLE", "open_folder"]

_SYS_OPENAT2: Final = {"x86_64": 437, "aarch64": 437}.get(os.uname().machine)
"""``openat2``'s number: the same on the generic table (arm64) and on x86-64."""
_AT_FDCWD: Final = -100
_RESOLVE_NO_SYMLINKS: Final = 0x04


class _OpenHow(ctypes.Structure):
    _fields_ = (
        ("flags", ctypes.c_uint64),
        ("mode", ctypes.c_uint64),
        ("resolve", ctypes.c_uint64),
    )


def _load() -> tuple[ctypes._FuncPointer, object, int] | None:
    if sys.platform != "linux" or _SYS_OPENAT2 is None or not hasattr(os, "O_PATH"):
        return None
    try:
        syscall = ctypes.CDLL(None, use_errno=True).syscall
    except (OSError, AttributeError):
        return None
    syscall.restype = ctypes.c_long
    how = _OpenHow(os.O_PATH | os.O_CLOEXEC | os.O_DIRECTORY, 0, _RESOLVE_NO_SYMLINKS)
    return syscall, ctypes.byref(how), ctypes.sizeof(how)


_CALL = _load()


def open_folder(path: bytes) -> int:
    """Open the folder at the absolute ``path`` with ``O_PATH`` (nothing is read) and return
    its descriptor, which the caller closes; -1 when any component is a symlink, the path is
    missing or no folder, or :data:`AVAILABLE` is false. Never raises.
    """
    if _CALL is None:
        return -1
    syscall, how, size = _CALL
    return int(syscall(_SYS_OPENAT2, _AT_FDCWD, path, how, size))


def _works() -> bool:
    fd = open_folder(b"/")
    if fd < 0:
        return False
    os.close(fd)
    return True


AVAILABLE: Final = _works()
"""Whether :func:`open_folder` works here (checked once, on ``/``)."""
