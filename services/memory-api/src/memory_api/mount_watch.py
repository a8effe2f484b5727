"""This process's mount table, read again only when the kernel says it changed (K-6a).

``/proc/self/mountinfo`` is kept open and ``poll``\\ ed with no wait: the kernel reports
``POLLPRI | POLLERR`` once per change of the mount namespace (a mount, an unmount, a remount;
the poll itself takes the report, so a change is seen by one poll). :meth:`MountWatch.changes`
counts the changes seen (one ``poll``, no read); :meth:`MountWatch.tree` parses the table at
most once per change (:class:`~memory_core.mount_table.MountTree`), however many Workspaces are
judged by it. A change made between the poll and the read is in the text read and reported
again at the next poll: never missed, at worst read once more.

Without the table (no ``/proc``, or it cannot be opened) :meth:`~MountWatch.tree` is None and
:meth:`~MountWatch.changes` never moves: callers fall back on devices. The file is opened once
per process: a child made by ``fork`` opens its own (the open file is shared with the parent,
and a poll in either would take the other's report). Thread-safe (one lock).
"""

from __future__ import annotations

import errno
import os
import select
import threading

from memory_core.mount_table import MountTree

__all__ = ["MOUNTS", "MOUNT_TABLE", "MountWatch"]

MOUNT_TABLE = "/proc/self/mountinfo"
"""The kernel's mount table of this process: each mount's id, parent and mount point."""

_CHANGED = select.POLLPRI | select.POLLERR
"""What a poll of a mount table reports when the mount namespace changed since the last one."""


class MountWatch:
    """The mount table at ``path`` (a ``/proc/PID/mountinfo``), parsed once per change."""

    def __init__(self, path: str = MOUNT_TABLE) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._fd: int | None = None
        self._poller = select.poll()
        self._tried = False  # to open the file: once per process
        self._stale = True  # changed since the tree was parsed (or never parsed)
        self._changes = 0
        self._tree: MountTree | None = None

    def changes(self) -> int:
        """How many changes of the mount table this watch has seen (one ``poll``, no read):
        a value kept with the count it was found at is stale once the count moves. 0 for
        ever without a table."""
        with self._lock:
            self._poll()
            return self._changes

    def tree(self) -> MountTree | None:
        """The mount table as it is now, parsed (read only when it changed since the last
        read), or None when it cannot be read. The read and the parse run outside the lock
        (a table of 20,000 mounts takes some 150 ms): a Session start's :meth:`changes`, on the
        event loop, never waits for them."""
        with self._lock:
            self._poll()
            if not self._stale or self._fd is None:
                return self._tree
            fd, seen = self._fd, self._changes
        parsed = self._read(fd)
        with self._lock:
            if parsed is None:  # a failed read is tried again next time
                return self._tree
            if self._fd == fd and self._changes == seen:  # no change polled meanwhile
                self._tree, self._stale = parsed, False
            return parsed

    def forget(self) -> None:
        """Drop the open file and all that was read (in a child just made by ``fork``: the
        lock may have been held by a thread the child does not have). The next call opens the
        table again; a value kept before counts as changed."""
        self._lock = threading.Lock()
        if self._fd is not None:
            os.close(self._fd)  # the child's copy: the parent's stays open
        self._fd, self._poller, self._tried = None, select.poll(), False
        self._stale, self._tree = True, None
        self._changes += 1

    def _poll(self) -> None:
        """Open the table on first use; count a change the kernel reports. Under the lock."""
        if not self._tried:
            try:
                self._fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
            except OSError as error:  # no /proc here: no table in this process; any other
                # failure (EMFILE, EINTR …) is tried again at the next call
                self._tried = error.errno in (errno.ENOENT, errno.ENOTDIR)
                return
            self._tried = True
            self._poller.register(self._fd, _CHANGED)
            return
        if self._fd is not None and self._poller.poll(0):
            self._stale = True
            self._changes += 1

    @staticmethod
    def _read(fd: int) -> MountTree | None:
        """The table read from its start and parsed; None when the read fails. ``pread``, so
        two threads reading at once never move each other's offset."""
        chunks: list[bytes] = []
        offset = 0
        try:
            while chunk := os.pread(fd, 65536, offset):
                chunks.append(chunk)
                offset += len(chunk)
        except OSError:
            return None
        # as the kernel writes it: a carriage return in a mount point is no line end
        return MountTree.parse(b"".join(chunks).decode("utf-8", "surrogateescape"))


MOUNTS = MountWatch()
"""This process's mount table (forgotten in a child made by ``fork``)."""

os.register_at_fork(after_in_child=lambda: MOUNTS.forget())
