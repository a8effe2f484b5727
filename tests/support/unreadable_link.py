"""A symlink the kernel will not read, as ``/proc/<pid>/root`` and ``/proc/<pid>/cwd`` of a
process this user may not trace are: ``lstat`` says it is a link, ``readlink`` answers
``EACCES``. A real one cannot be made on purpose (whether ``/proc/1/root`` is readable depends
on who runs the tests and with which capabilities), so ``os.readlink`` is given the kernel's
answer for this one link, for the test's duration."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest


def unreadable_link(link: Path, target: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make ``link`` a symlink to ``target`` whose ``readlink`` answers ``EACCES``; ``link``."""
    link.symlink_to(target, target_is_directory=True)
    readlink = os.readlink

    def refusing(path: str, *, dir_fd: int | None = None) -> str:
        if os.fspath(path) == str(link):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))
        return readlink(path, dir_fd=dir_fd)

    monkeypatch.setattr(os, "readlink", refusing)
    return link
