"""Say in words what kind of file system entry a mode is, for messages (a FIFO, a symlink …).

>>> import stat
>>> file_kind(stat.S_IFIFO | 0o644), file_kind(stat.S_IFLNK | 0o777)
('a FIFO', 'a symlink')
"""

from __future__ import annotations

import stat

__all__ = ["file_kind"]

_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISLNK, "a symlink"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def file_kind(mode: int) -> str:
    """``st_mode`` of an ``lstat`` or ``stat`` as words: ``a regular file``, ``a symlink``,
    ``a FIFO``, ``a folder``, ``a socket``, ``a device``, else ``not a regular file``."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")
