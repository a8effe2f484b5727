"""Whether the write guard may trust the Session records in a state dir (P-3, H-7).

The guard takes a Session's memory root and Workspace key from its record
(:mod:`harness_memory.guard_view`). A record another account could add, change or put in
place lets that account open another Workspace's scope to the Session: a state dir every
account may write (``--state-dir /tmp/x`` made by someone else, ``0777``) once let its owner
swap the ``sessions`` folder for one holding a record with another Workspace's key, and a
write into that scope was then allowed. :func:`untrusted_state` says why a state dir is not
to be trusted; the guard then refuses what it would otherwise judge, and the Session start
says so (never allowed on a record it cannot trust).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from harness_memory.guard_view import record_path

__all__ = ["UNTRUSTED_SAID", "UntrustedStateDir", "untrusted_state"]


class UntrustedStateDir(Exception):
    """The state dir, its ``sessions`` folder or a record in it could be changed by another
    account; ``str()`` is the user's reason, naming the path and the fix."""


UNTRUSTED_SAID = (
    "the Session records in the state dir cannot be trusted, so the guard cannot tell which "
    "memory this Session may write"
)
"""How the write guard's refusal starts while :func:`untrusted_state` gives a reason (P-3)."""

_MOVED = "the state dir (--state-dir, HARNESS_MEMORY_STATE_DIR)"


def untrusted_state(state_dir: Path, session_id: str | None = None) -> str | None:
    """Why the records in ``state_dir`` (and the record of ``session_id``, when given) cannot
    be trusted, naming the path and the fix; None when they can.

    Trusted only when the state dir, its ``sessions`` folder and the record each belong to
    root or this process's user and no other account may write them (the "other" write bit,
    a group not this user's own, an ACL entry: :func:`memory_core.account_access.other_writers`),
    and no folder on the way to the record (or ``sessions``) lets another account move it
    away or put its own in its place (:func:`memory_core.movable_paths.movable_by_others`).
    A missing one is judged by the folder it would be made in. One that cannot be looked at is
    not trusted. Always None where there are no POSIX accounts (Windows: a user's profile is
    their own)."""
    if not hasattr(os, "geteuid"):
        return None
    from memory_core.movable_paths import Fixes, movable_by_others

    sessions = state_dir / "sessions"
    record = record_path(state_dir, session_id) if session_id else None
    for path in (state_dir, sessions, record):  # their own owners and modes first
        if path is not None and (why := _changeable(path, path is state_dir)) is not None:
            return why
    fixes = Fixes(user="your account", moved=_MOVED, moved_said=_MOVED, keeps_modes=_keeps_modes)
    # a folder above the record (the folder a symlink of the user's leads to), else sessions
    if (moved := movable_by_others(str(record or sessions), fixes)) is not None:
        return f"{moved[0]} {moved[1]}"
    return None


def _keeps_modes(path: str) -> bool:
    """Whether the disk holding ``path`` keeps permission bits
    (:func:`memory_core.kept_modes.keeps_modes`, asked only for a path every account may
    write: a hook that finds none loads nothing more, H-5)."""
    from memory_core.kept_modes import keeps_modes

    return keeps_modes(path)


def _changeable(path: Path, is_state_dir: bool) -> str | None:
    """Why another account may change ``path`` itself (its owner, its "other" write bit, a
    group not this user's own, an ACL entry:
    :func:`~memory_core.account_access.other_writers`), naming it and the fix; None when none
    may or it is absent. The fix never hands a user's state dir to root (``is_state_dir``
    another account's, run as root: ``sudo -E`` keeps the user's ``HOME``), nor says
    ``chmod`` on a disk that keeps no permission bits (exFAT: :func:`_keeps_modes`)."""
    from memory_core.account_access import other_writers

    try:
        info = path.stat()
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"{path} cannot be looked at ({error.strerror})"
    me = os.geteuid()
    if info.st_uid not in (0, me):
        said = f"{path} belongs to another account (uid {info.st_uid}), which may change it"
        if me == 0 and is_state_dir:  # sudo -E: root with the user's HOME; chown: root's now
            return (
                f"{said} (this runs as root, with another account's state dir, as under "
                "sudo -E: run it without sudo -E, or give a state dir of root's own in "
                "--state-dir or HARNESS_MEMORY_STATE_DIR)"
            )
        return (
            f"{said} (chown it to your account, or give a state dir of your own, such as one "
            "under your home, in --state-dir or HARNESS_MEMORY_STATE_DIR)"
        )
    if info.st_mode & stat.S_IWOTH:
        mode = f"mode {stat.S_IMODE(info.st_mode):04o}"
        if _keeps_modes(str(path)):
            return f"{path} may be written by every account ({mode}; chmod o-w {path})"
        return (
            f"{path} may be written by every account ({mode}), and its disk keeps no "
            "permission bits (exFAT, FAT, WSL drvfs: chmod changes nothing there): mount it "
            "with your own uid= and umask=077, or give a state dir of your own on a disk that "
            "keeps them, such as one under your home, in --state-dir or HARNESS_MEMORY_STATE_DIR"
        )
    if (why := other_writers(str(path), info)) is not None:
        return f"{path} {why}"
    return None
