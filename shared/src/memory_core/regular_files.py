"""Read a small regular file whole, capped, never waiting on a FIFO or a device.

A plain ``open`` of a FIFO nobody writes blocks for good and ``/dev/zero`` never ends; a file a
user or another program left (a settings file, a template, a sync state) may also be far larger
than anything it should hold. :func:`read_regular_file` opens non-blocking, refuses what is no
regular file and stops at a cap.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from memory_core.errors import NotRegularFileError

__all__ = ["read_regular_file"]


def read_regular_file(
    path: Path, max_bytes: int, *, follow_symlinks: bool = True, dir_fd: int | None = None
) -> bytes:
    """The bytes of the regular file ``path`` (relative to the folder held as ``dir_fd``, when
    given), at most ``max_bytes`` of them.

    Opened with ``O_NONBLOCK`` (a FIFO never hangs the read) and, when ``follow_symlinks`` is
    False, ``O_NOFOLLOW`` (a symlink is refused: ``OSError`` ``ELOOP``). Raises
    ``FileNotFoundError`` when it is not there, :class:`~memory_core.errors.NotRegularFileError`
    (``EINVAL``) for a folder, FIFO, device or socket, ``OSError`` ``EFBIG`` when it holds more
    than ``max_bytes`` bytes, any other ``OSError`` when it cannot be read.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    if not follow_symlinks:
        flags |= os.O_NOFOLLOW
    fd = os.open(path, flags, dir_fd=dir_fd)
    try:  # judged before fdopen, which refuses a folder naming only the descriptor's number
        regular = stat.S_ISREG(os.fstat(fd).st_mode)
    except BaseException:
        os.close(fd)
        raise
    if not regular:
        os.close(fd)
        raise NotRegularFileError(errno.EINVAL, "not a regular file", str(path))
    with os.fdopen(fd, "rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise OSError(errno.EFBIG, f"larger than {max_bytes} bytes", str(path))
    return raw
