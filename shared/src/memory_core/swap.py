"""Two Linux file primitives behind :mod:`memory_core.file_edit`: swap two names, read when idle.

- :func:`exchange` swaps two directory entries in one step (``renameat2`` with
  ``RENAME_EXCHANGE``, Linux 3.15+, glibc 2.28+, reached through ``ctypes``): the new file takes
  the path and the file that stood there moves to the other name, *still a file we can read*.
  That is what makes a lost write visible: whatever anyone wrote to the path before the swap is in
  the file we get back.
- :func:`read_when_idle` reads such a swapped-out file once nobody holds it open for writing, so
  a writer that opened it before the swap and writes after is waited for, not missed. "Nobody
  holds it open for writing" is asked of the kernel with a read *lease* (``F_SETLEASE``,
  ``F_RDLCK``), which is granted only when no descriptor of the file is open for writing; while
  the lease is held, anyone opening the file for writing is made to wait, and the pending opener
  is seen with ``F_GETLEASE``. The lease-break signal goes to ``SIGURG`` (ignored by default)
  instead of ``SIGIO``, whose default action would end the process — and since the kernel
  still sent ``SIGIO`` now and then (Linux 6.18: a service process pruning an index its agent
  appended to every 10 ms died of it after some hundred deletes), a process that takes leases
  calls :func:`shield_from_sigio` once at its start.

Both degrade rather than fail: :func:`exchange` answers ``False`` where the system or the
filesystem has no exchange (not Linux, NFS, some FUSE filesystems), and :func:`read_when_idle`
falls back to a short fixed wait where leases are refused (a file owned by another user without
``CAP_LEASE``, ``fs.leases-enable = 0``, a filesystem without leases); it says which it did.

Blocking: call from a worker thread.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import os
import signal
import stat
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from memory_core.errors import NotRegularFileError
from memory_core.hard_links import check_named_here

__all__ = [
    "IDLE_GRACE",
    "LEASE_WAIT",
    "IdleRead",
    "exchange",
    "hold_exclusive_lease",
    "open_waiting_for_lease",
    "read_when_idle",
    "release_lease",
    "shield_from_sigio",
]

IDLE_GRACE = 0.005
"""Seconds waited before reading a swapped-out file where the kernel will not grant a lease."""
LEASE_WAIT = 2.0
"""Seconds a non-blocking open waits for someone's lease on the file (a safe edit finishing)."""
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_F_SETSIG = 10  # Linux's value; Python's fcntl module does not name it
_NO_EXCHANGE = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}
_NO_LEASE = {errno.EACCES, errno.EINVAL, errno.ENOLCK, errno.ENOSYS, errno.EPERM}
_POLL_FIRST, _POLL_MAX = 0.0005, 0.02
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _load_renameat2() -> Callable[[int, bytes, int, bytes, int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):  # a libc older than glibc 2.28, or no libc at all
        return None
    path_arg = ctypes.c_char_p
    function.argtypes = [ctypes.c_int, path_arg, ctypes.c_int, path_arg, ctypes.c_uint]
    function.restype = ctypes.c_int
    return cast(Callable[[int, bytes, int, bytes, int], int], function)


_renameat2 = _load_renameat2()


def exchange(first: Path, second: Path) -> bool:
    """Swap the directory entries ``first`` and ``second`` atomically; both must exist.

    Returns ``False`` (and changes nothing) where no atomic exchange is available. Raises
    ``FileNotFoundError`` when either name is missing, ``OSError`` for any other refusal.
    """
    if _renameat2 is None:
        return False
    result = _renameat2(
        _AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), _RENAME_EXCHANGE
    )
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in _NO_EXCHANGE:
        return False
    raise OSError(code, os.strerror(code), str(second))


@dataclass(frozen=True)
class IdleRead:
    """What :func:`read_when_idle` read.

    ``data`` is the file's bytes (at most the cap + 1); ``idle`` is True when the kernel
    confirmed that no one held the file open for writing while it was read, False when the
    timeout ran out first (``data`` is then what was there); ``leased`` tells whether leases were
    available at all (False: a fixed :data:`IDLE_GRACE` wait was all that could be done);
    ``mode`` holds the file's permission bits; ``uid`` and ``gid`` its owner and group (-1 when
    not known).
    """

    data: bytes
    idle: bool
    leased: bool
    mode: int
    uid: int = -1
    gid: int = -1


def shield_from_sigio() -> bool:
    """Ignore ``SIGIO`` in this process (its default action ends the process); True if done.

    Nothing here relies on the signal (a lease's state is asked with ``F_GETLEASE``), so a
    lease break that the kernel reports with ``SIGIO`` instead of the ``SIGURG`` asked for must
    not end a service or a CLI run. Only the main thread may change a signal's handling, and a
    handler someone installed is kept: False then, and where there is no ``SIGIO``.
    """
    sigio = getattr(signal, "SIGIO", None)
    if sigio is None or threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(sigio) != signal.SIG_DFL:
        return False
    signal.signal(sigio, signal.SIG_IGN)
    return True


def open_waiting_for_lease(
    path: Path | str, flags: int, wait: float = LEASE_WAIT, *, dir_fd: int | None = None
) -> int:
    """``os.open(path, flags, dir_fd=dir_fd)``, retried while a lease holder makes a
    non-blocking open wait (``dir_fd``: a folder held open that a relative ``path`` is in).

    With ``O_NONBLOCK`` (used so that a FIFO never hangs a read) an ``open`` of a file someone
    holds a lease on fails with ``EWOULDBLOCK`` instead of waiting; a safe edit
    (:mod:`memory_core.file_edit`) holds one for milliseconds, so the open is retried with a
    growing pause for up to ``wait`` seconds, then ``BlockingIOError`` is raised.
    """
    deadline = time.monotonic() + wait
    pause = _POLL_FIRST
    while True:
        try:
            return os.open(path, flags, dir_fd=dir_fd)
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)


def _read_all(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while offset <= limit:
        chunk = os.pread(fd, min(limit + 1 - offset, 1024 * 1024), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _try_lease(fd: int) -> bool | None:
    """Take a read lease: True if granted, False while someone writes the file, None: no leases."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
    except OSError as error:
        if error.errno in (errno.EAGAIN, errno.EBUSY):
            return False
        if error.errno in _NO_LEASE:
            return None
        raise
    return True


def read_when_idle(path: Path, limit: int, timeout: float, *, memory: bool = False) -> IdleRead:
    """Read at most ``limit`` + 1 bytes of ``path`` once no one holds it open for writing.

    Waits up to ``timeout`` seconds (polling with a growing pause) for the writers to close it;
    a writer opening it while it is being read is seen and waited for too. ``path`` is opened
    without following a symlink. Raises :class:`~memory_core.errors.NotRegularFileError` for a
    folder, FIFO or the like (something swapped in for the file), ``OSError`` when it cannot be
    opened. A ``memory`` file with a name outside its folder raises
    :class:`~memory_core.hard_links.NamedElsewhereError` (judged on the descriptor opened; A-7).
    """
    fd = open_waiting_for_lease(path, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFileError(f"{path.name!r} is not a regular file")
        if memory:
            check_named_here(path, info)
        mode = stat.S_IMODE(info.st_mode)
        owner = {"uid": info.st_uid, "gid": info.st_gid}
        os.set_blocking(fd, True)
        if sys.platform.startswith("linux"):
            fcntl.fcntl(fd, _F_SETSIG, signal.SIGURG)
        deadline = time.monotonic() + timeout
        pause = _POLL_FIRST
        while True:
            granted = _try_lease(fd) if sys.platform.startswith("linux") else None
            if granted is None:
                time.sleep(IDLE_GRACE)
                return IdleRead(_read_all(fd, limit), idle=True, leased=False, mode=mode, **owner)
            if granted:
                data = _read_all(fd, limit)
                # A pending break means someone is opening the file for writing right now.
                pending = fcntl.fcntl(fd, fcntl.F_GETLEASE) != fcntl.F_RDLCK
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
                if not pending:
                    return IdleRead(data, idle=True, leased=True, mode=mode, **owner)
            if time.monotonic() >= deadline:
                return IdleRead(_read_all(fd, limit), idle=False, leased=True, mode=mode, **owner)
            time.sleep(pause)
            pause = min(pause * 2, _POLL_MAX)
    finally:
        os.close(fd)


def hold_exclusive_lease(fd: int) -> bool:
    """Take a write lease on the open file ``fd``: until released, anyone else's ``open`` waits.

    Used on a file just written and about to be swapped in, so nobody can read it or write it
    before what must be added to it is there. Returns False (no lease) where leases are refused
    or someone else already has the file open.
    """
    if not sys.platform.startswith("linux"):
        return False
    fcntl.fcntl(fd, _F_SETSIG, signal.SIGURG)
    try:
        fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_WRLCK)
    except OSError as error:
        if error.errno in _NO_LEASE or error.errno in (errno.EAGAIN, errno.EBUSY):
            return False
        raise
    return True


def release_lease(fd: int) -> bool:
    """Release the lease held on ``fd``; return True when someone was waiting to open the file."""
    pending = fcntl.fcntl(fd, fcntl.F_GETLEASE) != fcntl.F_WRLCK
    fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
    return pending
