"""Reading a program's settings file for the guard, and the account's home (P-3, H-5).

The guard reads the settings files ``curl``, ``wget``, ``git``, ``npm``, ``pip`` and the
shells read when they run (:mod:`~harness_memory.hooks.program_settings`,
:mod:`~harness_memory.hooks.git_settings`, :mod:`~harness_memory.hooks.package_settings`,
:mod:`~harness_memory.hooks.shell_startup`): each through :func:`read_settings_file`, which
never waits and never reads past a cap, and each home from :func:`account_home` when ``HOME``
is unset.
"""

from __future__ import annotations

import os
import pwd
import stat

__all__ = ["SETTINGS_FILE_CAP", "account_home", "read_settings_file"]

SETTINGS_FILE_CAP = 65_536
"""The most bytes of one settings file read by default; a longer one is unknown."""


def read_settings_file(file: str, cap: int = SETTINGS_FILE_CAP) -> bytes | None:
    """The bytes of the settings file ``file``; None when it is no regular file (a FIFO, a
    socket, a folder, a device), cannot be read or is longer than ``cap`` bytes. Opened
    without waiting: a FIFO nobody writes would hold the guard past the hook's time limit,
    and a hook timed out lets the call through."""
    try:
        with os.fdopen(os.open(file, os.O_RDONLY | os.O_NONBLOCK), "rb") as settings:
            if not stat.S_ISREG(os.fstat(settings.fileno()).st_mode):
                return None
            data = settings.read(cap + 1)
    except OSError:
        return None
    return data if len(data) <= cap else None


def account_home() -> str:
    """The account's home as the password database gives it ("" when it knows none)."""
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return ""
