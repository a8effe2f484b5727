"""A folder that refuses every ``chmod``, as the kernel's own FAT and exFAT do.

Linux's ``vfat`` and ``exfat`` show every file with the mount's mode (``fmask``, ``dmask``) and
answer a ``chmod`` to any other mode with ``EPERM`` (unless mounted ``quiet``); the FUSE exFAT
of :mod:`tests.support.case_insensitive_disk` takes the ``chmod`` silently instead. Mounting a
kernel FAT needs its module, not certain on a test machine, so :func:`refusing_chmod_under`
makes ``os.fchmod`` and ``os.chmod`` answer so for the files under one folder.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest


def refusing_chmod_under(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now until the test ends, ``os.fchmod`` of a file under ``folder`` and ``os.chmod``
    of a path under it raise ``PermissionError`` (``EPERM``); elsewhere they work as ever."""
    real_fchmod, real_chmod = os.fchmod, os.chmod
    inside = folder.resolve()

    def under(path: str | os.PathLike[str]) -> bool:
        return Path(os.path.realpath(path)).is_relative_to(inside)

    def fchmod(fd: int, mode: int) -> None:
        if under(f"/proc/self/fd/{fd}"):
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))
        real_fchmod(fd, mode)

    def chmod(path: Any, mode: int, *args: Any, **kwargs: Any) -> None:
        if not isinstance(path, int) and under(path):
            raise PermissionError(errno.EPERM, os.strerror(errno.EPERM), str(path))
        real_chmod(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "fchmod", fchmod)
    monkeypatch.setattr(os, "chmod", chmod)
